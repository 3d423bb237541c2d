// `cape context`: what DevA / DA would receive of a real small TypeScript workspace, in rank order, within the
// budget; secrets, ignored files and cape/ never listed; the index cached between runs; bad flags are usage errors.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { runCli, tempDir } from '../helpers/cli';

function write(root: string, rel: string, content: string): void {
  const abs = path.join(root, ...rel.split('/'));
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
}

function todoWorkspace(): string {
  const ws = tempDir('cape-ctx-');
  write(ws, '.gitignore', 'build/\n');
  write(ws, 'src/todos/todoStore.ts', "import { save } from '../storage/localStore';\nexport interface Todo { id: string; title: string; done: boolean }\nexport function addTodo(list: Todo[], title: string): Todo[] { const next = [...list, { id: String(Date.now()), title, done: false }]; save('todos', next); return next; }\nexport function toggleTodo(list: Todo[], id: string): Todo[] { return list.map((t) => (t.id === id ? { ...t, done: !t.done } : t)); }\n");
  write(ws, 'src/storage/localStore.ts', 'export function save(key: string, value: unknown): void { localStorage.setItem(key, JSON.stringify(value)); }\nexport function load<T>(key: string): T | null { const v = localStorage.getItem(key); return v ? (JSON.parse(v) as T) : null; }\n');
  write(ws, 'src/components/TodoList.tsx', "import { toggleTodo, type Todo } from '../todos/todoStore';\nexport function TodoList({ todos }: { todos: Todo[] }) { return <ul>{todos.map((t) => <li key={t.id} onClick={() => toggleTodo(todos, t.id)}>{t.title}</li>)}</ul>; }\n");
  write(ws, 'src/styles/todo.css', '.todo-list { margin: 0; }\n.todo-done { text-decoration: line-through; }\n');
  write(ws, 'src/math/stats.ts', 'export function mean(xs: number[]): number { return xs.reduce((a, b) => a + b, 0) / xs.length; }\n');
  write(ws, 'test/todoStore.test.ts', "import { addTodo } from '../src/todos/todoStore';\nit('adds', () => addTodo([], 'x'));\n");
  write(ws, 'build/out.js', 'function addTodo(){}');
  write(ws, '.env', 'TODO_API_TOKEN=never-sent');
  write(ws, 'cape/1_product/1_mvv.md', '# todo todo');
  // written a minute ago: a file changed within the racy window of a read is read again on the next run (the utimes
  // moves the ctimes to now: the wait at the end takes the run a fine clock's step, 50 ms, past them)
  const past = new Date(Date.now() - 60_000);
  const age = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) age(path.join(dir, e.name));
      else fs.utimesSync(path.join(dir, e.name), past, past);
    }
  };
  age(ws);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60);
  return ws;
}

describe('CLI: cape context', function () {
  this.timeout(60000);
  const cacheDir = tempDir('cape-ctx-cache-');
  const env = { CAPE_CACHE_DIR: cacheDir };

  it('--json lists what DevA receives in rank order: whole files, then map lines, within the budget', async () => {
    const ws = todoWorkspace();
    const run = await runCli(['context', '--workspace', ws, '--objective', 'Toggle a todo as done and keep it after reload', '--json'], env);
    assert.strictEqual(run.code, 0, run.stderr);
    const out = run.json;
    assert.deepStrictEqual(Object.keys(out), ['files', 'mapChars', 'totalChars']);
    const paths = out.files.map((f: any) => f.path);
    assert.strictEqual(paths[0], 'src/todos/todoStore.ts');
    assert.ok(paths.indexOf('src/components/TodoList.tsx') < paths.indexOf('src/math/stats.ts'), paths.join(', '));
    assert.ok(paths.indexOf('test/todoStore.test.ts') < paths.indexOf('src/math/stats.ts'), 'an importer of the best match outranks an unrelated file');
    for (const p of ['.env', 'build/out.js', 'cape/1_product/1_mvv.md']) assert.ok(!paths.includes(p), p);
    const first = out.files[0];
    assert.strictEqual(first.whole, true);
    assert.strictEqual(first.chars, fs.readFileSync(path.join(ws, 'src/todos/todoStore.ts'), 'utf8').length);
    assert.ok(out.totalChars <= 60000);
    assert.strictEqual(out.mapChars, out.files.filter((f: any) => !f.whole).reduce((n: number, f: any) => n + f.chars, 0));
    assert.match(run.stderr, /files indexed \(built/);

    // warm: from the cache, nothing re-read; a changed file is re-read
    const warm = await runCli(['context', '--workspace', ws, '--objective', 'Toggle a todo as done and keep it after reload', '--json'], env);
    assert.match(warm.stderr, /cache, 0 re-read/);
    assert.deepStrictEqual(warm.json, out);
    write(ws, 'src/math/stats.ts', 'export function median(xs: number[]): number { return xs[0]; }\n');
    fs.utimesSync(path.join(ws, 'src/math/stats.ts'), new Date(), new Date(Date.now() - 30_000));
    const changed = await runCli(['context', '--workspace', ws, '--objective', 'median of the todo counts', '--json'], env);
    assert.match(changed.stderr, /cache, 1 re-read/);
    assert.ok(changed.json.files.some((f: any) => f.path === 'src/math/stats.ts' && f.whole));
    assert.ok(fs.readdirSync(ws).every((n) => !/cache/i.test(n)), 'the cache file is not written into the workspace');
  });

  it('--budget bounds the section; a small budget leaves the big files to map lines', async () => {
    const ws = todoWorkspace();
    const run = await runCli(['context', '--workspace', ws, '--objective', 'Toggle a todo', '--budget', '420', '--json'], env);
    assert.strictEqual(run.code, 0, run.stderr);
    assert.ok(run.json.totalChars <= 420, String(run.json.totalChars));
    const store = run.json.files.find((f: any) => f.path === 'src/todos/todoStore.ts');
    assert.ok(store && !store.whole, 'todoStore.ts does not fit whole: a map line');
  });

  it('--step da lists UI files (components, styles) only, as map lines', async () => {
    const ws = todoWorkspace();
    const run = await runCli(['context', '--workspace', ws, '--objective', 'Show done todos struck through', '--step', 'da', '--json'], env);
    assert.strictEqual(run.code, 0, run.stderr);
    assert.deepStrictEqual(run.json.files.map((f: any) => f.path).sort(), ['src/components/TodoList.tsx', 'src/styles/todo.css']);
    assert.ok(run.json.files.every((f: any) => !f.whole));
  });

  it('prints a readable list without --json', async () => {
    const ws = todoWorkspace();
    const run = await runCli(['context', '--workspace', ws, '--objective', 'Toggle a todo'], env);
    assert.strictEqual(run.code, 0, run.stderr);
    assert.match(run.stdout, /DevA would receive \d+ of 60000 characters: \d+ file\(s\) whole/);
    assert.match(run.stdout, /1 {2}whole +\d+ {2}src\/todos\/todoStore\.ts/);
  });

  it('sends a large well-ranked file as excerpts: their line ranges in --json, and in the readable list', async () => {
    const ws = todoWorkspace();
    const helpers = Array.from({ length: 2500 }, (_, i) => `export function helper${i}(n: number): number {\n  return n + ${i};\n}`);
    helpers.splice(1800, 0, 'export function archiveTodos(list: Todo[]): Todo[] {\n  return list.filter((t) => !t.done);\n}');
    write(ws, 'src/todos/todoBulk.ts', `import type { Todo } from './todoStore';\n${helpers.join('\n')}\n`);
    const run = await runCli(['context', '--workspace', ws, '--objective', 'Archive done todos with `archiveTodos`', '--json'], env);
    assert.strictEqual(run.code, 0, run.stderr);
    const bulk = run.json.files.find((f: any) => f.path === 'src/todos/todoBulk.ts');
    assert.ok(bulk && bulk.whole === false && bulk.excerpts?.length, JSON.stringify(run.json.files.slice(0, 5)));
    const lines = fs.readFileSync(path.join(ws, 'src/todos/todoBulk.ts'), 'utf8').split('\n');
    const at = lines.indexOf('export function archiveTodos(list: Todo[]): Todo[] {') + 1;
    assert.ok(bulk.excerpts.some((r: any) => r.start <= at && r.end >= at + 2), JSON.stringify(bulk.excerpts));
    assert.strictEqual(bulk.chars, bulk.excerpts.reduce((n: number, r: any) => n + lines.slice(r.start - 1, r.end).join('\n').length, 0));
    assert.ok(run.json.files.filter((f: any) => !f.excerpts && !f.whole).length > 0, 'map lines follow');
    assert.ok(run.json.totalChars <= 60000);
    const text = await runCli(['context', '--workspace', ws, '--objective', 'Archive done todos with `archiveTodos`'], env);
    assert.match(text.stdout, /characters: \d+ file\(s\) whole, 1 in excerpts, \d+ as map lines\./);
    assert.match(text.stdout, / excerpts +\d+ {2}src\/todos\/todoBulk\.ts \(lines \d+–\d+/);
  });

  it('a FIFO where git keeps rules (.gitignore at the root and below, info/exclude, a worktree\'s commondir) is not read: no hang', async function () {
    if (process.platform === 'win32') this.skip();
    for (const layout of ['repository', 'linked worktree'] as const) {
      const ws = todoWorkspace();
      write(ws, 'pkg/util.ts', 'export function toggleAll() {}\n');
      const git = layout === 'repository' ? path.join(ws, '.git') : path.join(tempDir('cape-ctx-gitdir-'), 'worktrees', 'w');
      fs.mkdirSync(path.join(git, 'info'), { recursive: true });
      const fifos = [path.join(ws, 'pkg', '.gitignore'), path.join(git, 'info', 'exclude')];
      fs.rmSync(path.join(ws, '.gitignore'));
      if (layout === 'repository') fifos.push(path.join(ws, '.gitignore'));
      else {
        fs.writeFileSync(path.join(ws, '.git'), `gitdir: ${git}\n`);
        fifos.push(path.join(git, 'commondir'));
      }
      for (const f of fifos) execFileSync('mkfifo', [f]);
      // a hang would be killed at the time limit: the test then fails with "timed out"
      const run = await runCli(['context', '--workspace', ws, '--objective', 'Toggle all todos', '--json'], env, 20000);
      assert.strictEqual(run.code, 0, run.stderr);
      const paths = run.json.files.map((f: any) => f.path);
      assert.ok(paths.includes('src/todos/todoStore.ts') && paths.includes('pkg/util.ts'), `${layout}: ${paths.join(', ')}`);
    }
  });

  it("--cape-folder takes the setting's spellings of one folder (team, team/, ./team): that folder is left out", async () => {
    const ws = todoWorkspace();
    write(ws, 'team/3_development/toggle.ts', 'export function toggleAllTodos() {}\n');
    for (const spelling of ['team', 'team/', './team', 'team//']) {
      const run = await runCli(['context', '--workspace', ws, '--objective', 'Toggle all todos', '--cape-folder', spelling, '--json'], env);
      assert.strictEqual(run.code, 0, `${spelling}: ${run.stderr}`);
      const paths: string[] = run.json.files.map((f: any) => f.path);
      assert.ok(paths.includes('src/todos/todoStore.ts'), `${spelling}: ${paths.join(', ')}`);
      assert.ok(!paths.some((p) => p.startsWith('team/')), `${spelling}: the team's folder is not code: ${paths.join(', ')}`);
    }
  });

  it('rejects bad flags with a usage error (exit 2)', async () => {
    const ws = todoWorkspace();
    for (const [args, msg] of [
      [['--objective', 'x'], /--workspace/],
      [['--workspace', ws], /--objective/],
      [['--workspace', ws, '--objective', 'x', '--step', 'poa'], /deva or da/],
      [['--workspace', ws, '--objective', 'x', '--budget=-5'], /positive/],
      [['--workspace', ws, '--objective', 'x', '--budget', '12abc'], /positive/],
      [['--workspace', ws, '--objective', 'x', '--bogus'], /bogus/],
      // a number that is not a whole count of characters is told so, with what is taken
      [['--workspace', ws, '--objective', 'x', '--budget', '1.5'], /whole number of characters/],
      [['--workspace', ws, '--objective', 'x', '--budget', '1e3'], /whole number of characters/],
      [['--workspace', ws, '--objective', 'x', '--budget', '0'], /whole number of characters/],
      [['--workspace', ws, '--objective', 'x', '--budget', '99999999999999999999'], /at most/],
      [['--workspace', path.join(ws, 'nope'), '--objective', 'x'], /does not exist/],
      [['--workspace', path.join(ws, '.gitignore'), '--objective', 'x'], /is a file, not a folder/],
      [['--workspace', path.join(ws, '.gitignore', 'sub'), '--objective', 'x'], /does not exist/],
      [['--workspace', ws, '--objective', 'x', '--cape-folder', ''], /--cape-folder/],
      [['--workspace', ws, '--objective', 'x', '--cape-folder', '../elsewhere'], /--cape-folder/],
      [['--workspace', ws, '--objective', 'x', '--cape-folder', '/abs/cape'], /--cape-folder/],
    ] as [string[], RegExp][]) {
      const run = await runCli(['context', ...args], env);
      assert.strictEqual(run.code, 2, args.join(' '));
      assert.match(run.stderr, msg, args.join(' '));
      assert.match(run.stderr, /Usage: cape context .*--cape-folder NAME/, 'the usage names every flag');
    }
  });
});
