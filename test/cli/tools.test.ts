// DevA works on a real (small) TypeScript workspace through the CLI and the fake Messages API: it reads two files and
// searches once (tool use), edits an existing file with two SEARCH/REPLACE hunks and creates one file; --apply writes
// exactly the expected bytes. A hostile run throws every kind of forbidden read at the tools, and 40 calls in one
// turn: each is refused or bounded, and no byte of those files reaches any request.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { copyDir, runCli, tempDir, workspaceWithOriginalCape } from '../helpers/cli';
import { demoReplies } from '../helpers/demo';
import { envelopeReply } from '../helpers/envelopes';
import { repoRoot } from '../helpers/fixtures';

const TASK = 'task-tools';

function devaEnvelope(voice: string): string {
  const output = { architecture_decisions: ['Due dates live on Todo.'], file_list: ['src/todo.ts', 'src/due.ts'], test_strategy: 'unit', open_questions: [] };
  const ass = { score: 4, positive: 'I read the code first.', improvement: 'none', context_adequate: true };
  return envelopeReply('DevA', { taskId: TASK, voice, output, references: ['POA', 'DA'], ass });
}

const EDIT_REPLY =
  devaEnvelope('I read todo.ts and store.ts, then added a due date with two small edits and one new helper.') +
  [
    '<edit path="src/todo.ts">',
    '<<<<<<< SEARCH',
    '  done: boolean;',
    '}',
    '=======',
    '  done: boolean;',
    '  due?: string;',
    '}',
    '>>>>>>> REPLACE',
    '',
    '<<<<<<< SEARCH',
    // indentation dropped by the model: matched by the whitespace-tolerant level, REPLACE re-indented alike
    'return { id, title: title.trim(), done: false };',
    '=======',
    'return { id, title: title.trim(), done: false, due };',
    '>>>>>>> REPLACE',
    '</edit>',
    '',
    '<file path="src/due.ts">',
    "export function isOverdue(due: string | undefined, today: string): boolean {",
    '  return due !== undefined && due < today;',
    '}',
    '</file>',
    '<summary>Todo gains an optional due date; isOverdue helper.</summary>',
  ].join('\n');

describe('CLI: DevA reads, searches and edits a real TypeScript workspace (tools + <edit>)', function () {
  this.timeout(120000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 64 }, (f) => (fake = f));

  const template = path.join(repoRoot(), 'test', 'tools', 'workspace');
  const env = () => ({ ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'k' });

  it('reads two files, searches once, edits with two hunks, creates one file; --apply writes exactly the expected bytes', async () => {
    const ws = workspaceWithOriginalCape('cape-tools-', template);
    const before = fs.readFileSync(path.join(ws, 'src', 'todo.ts'), 'utf8');
    const r = demoReplies(TASK);
    fake.enqueue(
      { text: r[0] },
      { text: r[1] },
      { text: r[2] },
      {
        text: 'Let me read the code first.',
        toolCalls: [
          { id: 'toolu_read1', name: 'read_file', input: { path: 'src/todo.ts' } },
          { id: 'toolu_read2', name: 'read_file', input: { path: 'src/store.ts' } },
          { id: 'toolu_search', name: 'search_files', input: { query: 'createTodo' } },
        ],
      },
      { text: EDIT_REPLY },
      { text: r[4] },
    );
    const run = await runCli(['start', '--workspace', ws, '--objective', 'Todos get a due date', '--task', TASK, '--apply', '--json'], env());
    assert.strictEqual(run.code, 0, run.stderr);

    // the tool results the client sent back: every id answered in the next user turn, real file content
    assert.deepStrictEqual(
      fake.toolResults.map((t) => [t.requestIndex, t.toolUseId, t.isError]),
      [
        [4, 'toolu_read1', false],
        [4, 'toolu_read2', false],
        [4, 'toolu_search', false],
      ],
    );
    // each file's lines after their numbers, right-aligned (the model cites them; a SEARCH copies the text after them)
    const numbered = (rel: string, text: string) => {
      const lines = text.replace(/\n$/, '').split('\n');
      const w = String(lines.length).length;
      return `${rel}, ${lines.length} line(s):\n` + lines.map((l, i) => `${String(i + 1).padStart(w)}:${l ? ' ' + l : ''}`).join('\n');
    };
    assert.strictEqual(fake.toolResults[0].content, numbered('src/todo.ts', before));
    assert.ok(fake.toolResults[0].content.startsWith('src/todo.ts, 13 line(s):\n 1: export interface Todo {\n 2:   id: number;\n'));
    assert.strictEqual(fake.toolResults[1].content, numbered('src/store.ts', fs.readFileSync(path.join(template, 'src', 'store.ts'), 'utf8')));
    assert.strictEqual(
      fake.toolResults[2].content,
      [
        "src/store.ts:1: import { createTodo, toggle, type Todo } from './todo';",
        'src/store.ts:8:     const todo = createTodo(this.nextId++, title);',
        'src/todo.ts:7: export function createTodo(id: number, title: string): Todo {',
      ].join('\n'),
    );
    // DevA's request offered the tools; CM and POA got none
    assert.deepStrictEqual(fake.requests[3].body.tools.map((t: { name: string }) => t.name), ['read_file', 'search_files', 'list_files']);
    assert.strictEqual(fake.requests[0].body.tools, undefined);
    assert.strictEqual(fake.requests[1].body.tools, undefined);
    // The turn answering the calls marks its end for 5 minutes (the loop's next turn reads it); the first turn does not.
    const lastBlock = (i: number) => [...fake.requests[i].body.messages].pop().content.at?.(-1);
    assert.strictEqual(typeof fake.requests[3].body.messages[0].content, 'string');
    assert.deepStrictEqual(lastBlock(4).cache_control, { type: 'ephemeral' });
    // after the results, what the step has used of its bounds (the characters are the results' own)
    const answered = [...fake.requests[4].body.messages].pop().content;
    assert.strictEqual(lastBlock(4).type, 'text');
    const results = answered.filter((x: { type: string }) => x.type === 'tool_result');
    assert.ok(results.length > 0 && answered.slice(0, results.length).every((x: { type: string }) => x.type === 'tool_result'), 'the results come first');
    const resultChars = results.reduce((n: number, x: { content: string }) => n + x.content.length, 0);
    assert.strictEqual(
      lastBlock(4).text,
      `[Tools used in this step: ${results.length} of 12 calls, ${resultChars.toLocaleString('en-US')} of 80,000 characters of results.]`,
    );
    assert.ok(fake.requests[4].usage!.cache_read_input_tokens > 0, 'the second turn reads the step prefix DevA\'s first turn wrote');

    // exactly the expected bytes
    const expectedTodo = before
      .replace('  done: boolean;\n}', '  done: boolean;\n  due?: string;\n}')
      .replace('  return { id, title: title.trim(), done: false };', '  return { id, title: title.trim(), done: false, due };');
    assert.notStrictEqual(expectedTodo, before);
    assert.strictEqual(fs.readFileSync(path.join(ws, 'src', 'todo.ts'), 'utf8'), expectedTodo);
    assert.strictEqual(
      fs.readFileSync(path.join(ws, 'src', 'due.ts'), 'utf8'),
      'export function isOverdue(due: string | undefined, today: string): boolean {\n  return due !== undefined && due < today;\n}\n',
      'a new file ends with the newline before </file>',
    );
    assert.strictEqual(fs.readFileSync(path.join(ws, 'src', 'store.ts'), 'utf8'), fs.readFileSync(path.join(template, 'src', 'store.ts'), 'utf8'));

    assert.deepStrictEqual(run.json.files, [
      { path: 'src/due.ts', action: 'create', status: 'applied' },
      { path: 'src/todo.ts', action: 'modify', status: 'applied', edit: true },
    ]);
    // the transcript shows each call
    assert.match(run.stderr, /· DevA read src\/todo\.ts · \d+ B/);
    assert.match(run.stderr, /· DevA searched createTodo · 3 hits/);

    // the pair artifact records each call (tool, path or query, chars) but not the bodies
    const pairDir = path.join(ws, 'cape', '5_sessions', 'pair');
    const devaFile = fs.readdirSync(pairDir).find((f) => f.startsWith(`${TASK}_4_DevA_`))!;
    const rec = JSON.parse(fs.readFileSync(path.join(pairDir, devaFile), 'utf8'));
    assert.deepStrictEqual(
      rec.toolCalls.map((c: { tool: string; target: string; chars: number }) => [c.tool, c.target, c.chars]),
      [
        ['read_file', 'src/todo.ts', fake.toolResults[0].content.length],
        ['read_file', 'src/store.ts', fake.toolResults[1].content.length],
        ['search_files', 'createTodo', fake.toolResults[2].content.length],
      ],
    );
    assert.ok(!JSON.stringify(rec.toolCalls).includes('nextId'), 'no file body in the records');
  });

  it('DevA’s section names the files DA read with its tools, also after a resume from DevA', async () => {
    const ws = workspaceWithOriginalCape('cape-tools-', template);
    const r = demoReplies(TASK);
    fake.enqueue(
      { text: r[0] },
      { text: r[1] },
      {
        text: 'Looking at the views first.',
        toolCalls: [
          { id: 'toolu_da1', name: 'read_file', input: { path: 'src/store.ts', start_line: 1, end_line: 5 } },
          { id: 'toolu_da2', name: 'read_file', input: { path: 'src/todo.ts' } },
          { id: 'toolu_da3', name: 'read_file', input: { path: '.env' } },
          { id: 'toolu_da4', name: 'search_files', input: { query: 'createTodo' } },
        ],
      },
      { text: r[2] },
      // DevA's reply has no envelope, twice: the session stops after DA, DA's record saved
      { text: 'no envelope' },
      { text: 'still none' },
    );
    const first = await runCli(['start', '--workspace', ws, '--objective', 'Todos get a due date', '--task', TASK, '--json'], env());
    assert.strictEqual(first.code, 1, first.stderr);
    const saying = 'DA read for this work: src/store.ts (lines 1–5), src/todo.ts. Its searches found: src/store.ts (lines 1, 8), src/todo.ts (line 7).';
    const devaUser = (i: number) => JSON.stringify(fake.requests[i].body.messages[0].content);
    assert.ok(devaUser(4).includes(saying), devaUser(4).slice(0, 600));
    assert.ok(!devaUser(4).includes('.env'), 'a refused read is not named');
    // the pair artifact keeps where the focused search found its hits, never their text
    const pairDir = path.join(ws, 'cape', '5_sessions', 'pair');
    const daRec = JSON.parse(fs.readFileSync(path.join(pairDir, fs.readdirSync(pairDir).find((f) => f.startsWith(`${TASK}_3_DA_`))!), 'utf8'));
    assert.deepStrictEqual(daRec.toolCalls.at(-1).found, [['src/store.ts', 1], ['src/store.ts', 8], ['src/todo.ts', 7]]);
    assert.ok(!JSON.stringify(daRec.toolCalls).includes('nextId'));

    fake.reset();
    fake.enqueue({ text: EDIT_REPLY }, { text: r[4] });
    const again = await runCli(['resume', '--workspace', ws, '--task', TASK, '--json'], env());
    assert.strictEqual(again.code, 0, again.stderr);
    assert.ok(devaUser(0).includes(saying), 'the resumed DevA is told from DA’s saved record');
  });

  it('a <file> that rewrites an existing file DevA neither read nor received whole is flagged in --json', async () => {
    const ws = workspaceWithOriginalCape('cape-tools-', template);
    // too big for DevA's workspace budget: it reaches the prompt as a map line at most, never whole
    fs.writeFileSync(path.join(ws, 'src', 'catalog.ts'), `export const CATALOG = [\n${'  "item",\n'.repeat(9000)}];\n`);
    const r = demoReplies(TASK);
    fake.enqueue(
      { text: r[0] },
      { text: r[1] },
      { text: r[2] },
      { text: devaEnvelope('Rewrote two files.') + '<file path="src/catalog.ts">\nexport const CATALOG = [];\n</file>\n<file path="src/main.ts">\nconsole.log(1);\n</file>\n' },
      { text: r[4] },
    );
    const run = await runCli(['start', '--workspace', ws, '--objective', 'x', '--task', TASK, '--json'], env());
    assert.strictEqual(run.code, 0, run.stderr);
    assert.ok(JSON.stringify(fake.requests[3].body).includes('const store = new TodoStore();'), 'main.ts went whole into the prompt');
    assert.deepStrictEqual(run.json.files, [
      { path: 'src/catalog.ts', action: 'modify', status: 'proposed', warning: 'rewrites a file that was not read' },
      { path: 'src/main.ts', action: 'modify', status: 'proposed' },
    ]);
    assert.match(run.stderr, /⚠ rewrites a file that was not read/);
  });

  it('hunks that fail get one repair request naming them; a file still failing is refused, the others go on', async () => {
    const ws = workspaceWithOriginalCape('cape-tools-', template);
    const r = demoReplies(TASK);
    const bad =
      devaEnvelope('Edits.') +
      '<edit path="src/todo.ts">\n<<<<<<< SEARCH\n  done: boolean;\n=======\n  done: boolean;\n  due?: string;\n>>>>>>> REPLACE\n</edit>\n' +
      '<edit path="src/main.ts">\n<<<<<<< SEARCH\nstore.toggle(2);\n=======\nstore.toggle(1);\n>>>>>>> REPLACE\n</edit>\n' +
      '<edit path="src/store.ts">\n<<<<<<< SEARCH\n    return todo;\n=======\n    return { ...todo };\n>>>>>>> REPLACE\n<<<<<<< SEARCH\n  }\n=======\n  } // end\n>>>>>>> REPLACE\n</edit>\n';
    const repair =
      '<edit path="src/main.ts">\n<<<<<<< SEARCH\nstore.toggle(1);\n=======\nstore.toggle(2);\n>>>>>>> REPLACE\n</edit>\n' +
      '<edit path="src/store.ts">\n<<<<<<< SEARCH\n  }\n=======\n  }\n\n>>>>>>> REPLACE\n</edit>\n';
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: bad }, { text: repair }, { text: r[4] });
    const run = await runCli(['start', '--workspace', ws, '--objective', 'x', '--task', TASK, '--json', '--apply'], env());
    assert.strictEqual(run.code, 0, run.stderr);
    const repairMsg = fake.requests[4].body.messages.at(-1).content;
    const text = typeof repairMsg === 'string' ? repairMsg : repairMsg.map((b: { text?: string }) => b.text ?? '').join('');
    assert.match(text, /src\/main\.ts:\n {2}- hunk 1 \(SEARCH starting "store\.toggle\(2\);"\): matches nowhere/);
    assert.match(text, /src\/store\.ts:\n {2}- hunk 2 \(SEARCH starting "\}"\): matches 3 places/);
    assert.ok(!/src\/todo\.ts:/.test(text), 'the good edit is not in the repair request');
    const byPath = Object.fromEntries(run.json.files.map((f: { path: string }) => [f.path, f]));
    assert.strictEqual(byPath['src/todo.ts'].status, 'applied');
    assert.strictEqual(byPath['src/main.ts'].status, 'applied');
    assert.strictEqual(byPath['src/store.ts'].status, 'refused');
    assert.match(byPath['src/store.ts'].reason, /still failing after a repair request: hunk 1 \("\}"\) matches 3 places/);
    assert.match(fs.readFileSync(path.join(ws, 'src', 'main.ts'), 'utf8'), /store\.toggle\(2\);/);
    assert.strictEqual(fs.readFileSync(path.join(ws, 'src', 'store.ts'), 'utf8'), fs.readFileSync(path.join(template, 'src', 'store.ts'), 'utf8'));
  });

  it('a repair reply whose blocks cannot be read says so in the refused file\'s reason (not "not corrected")', async () => {
    const ws = workspaceWithOriginalCape('cape-tools-', template);
    const r = demoReplies(TASK);
    const bad = devaEnvelope('Edits.') + '<edit path="src/main.ts">\n<<<<<<< SEARCH\nstore.toggle(2);\n=======\nstore.toggle(1);\n>>>>>>> REPLACE\n</edit>\n';
    // the corrected block, but never closed
    const repair = '<edit path="src/main.ts">\n<<<<<<< SEARCH\nstore.toggle(1);\n=======\nstore.toggle(2);\n>>>>>>> REPLACE\n';
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: bad }, { text: repair }, { text: r[4] });
    const run = await runCli(['start', '--workspace', ws, '--objective', 'x', '--task', TASK, '--json'], env());
    assert.strictEqual(run.code, 0, run.stderr);
    const main = run.json.files.find((f: { path: string }) => f.path === 'src/main.ts');
    assert.strictEqual(main.status, 'refused');
    assert.match(main.reason, /^the repair reply could not be read \(the <edit path="src\/main\.ts"> block is not closed with <\/edit>.*\): hunk 1 \("store\.toggle\(2\);"\) matches nowhere/);
  });

  it('hostile reads (../, absolute, symlink-out, .git/config, .env, 50 MB, binary) and 40 calls in one turn: refused or bounded, no byte sent', async () => {
    const root = tempDir('cape-hostile-');
    const ws = path.join(root, 'ws');
    fs.mkdirSync(ws);
    copyDir(workspaceWithOriginalCape('cape-tools-', template), ws);
    const MARK = {
      parent: 'PARENT-SECRET-7f3a',
      git: 'GIT-CONFIG-SECRET-91bc',
      env: 'ENV-SECRET-55de',
      huge: 'HUGE-FILE-SECRET-0a12',
      bin: 'BINARY-SECRET-c0fe',
      out: 'OUTSIDE-LINK-SECRET-beef',
    };
    fs.writeFileSync(path.join(root, 'secret.txt'), MARK.parent);
    fs.mkdirSync(path.join(ws, '.git'));
    fs.writeFileSync(path.join(ws, '.git', 'config'), `[remote]\n  token = ${MARK.git}\n`);
    fs.writeFileSync(path.join(ws, '.env'), `API_KEY=${MARK.env}\n`);
    const huge = Buffer.alloc(50 * 1024 * 1024, 'a');
    huge.write(MARK.huge, 0);
    fs.writeFileSync(path.join(ws, 'huge.txt'), huge);
    fs.writeFileSync(path.join(ws, 'data.bin'), Buffer.concat([Buffer.from(MARK.bin), Buffer.from([0, 1, 2, 0xff])]));
    const outside = tempDir('cape-outside-');
    fs.writeFileSync(path.join(outside, 'notes.txt'), MARK.out);
    fs.symlinkSync(outside, path.join(ws, 'shared'));

    const hostile = [
      { path: '../secret.txt' },
      { path: path.join(root, 'secret.txt') },
      { path: 'shared/notes.txt' },
      { path: '.git/config' },
      { path: '.env' },
      { path: 'huge.txt' },
      { path: 'data.bin' },
    ];
    const calls = [
      ...hostile.map((input, i) => ({ id: `toolu_h${i}`, name: 'read_file', input })),
      { id: 'toolu_s0', name: 'search_files', input: { query: 'SECRET' } },
      { id: 'toolu_l0', name: 'list_files', input: { path: 'shared' } },
      ...Array.from({ length: 31 }, (_, i) => ({ id: `toolu_f${i}`, name: 'read_file', input: { path: 'src/todo.ts' } })),
    ];
    assert.strictEqual(calls.length, 40);
    const r = demoReplies(TASK);
    fake.enqueue(
      { text: r[0] },
      { text: r[1] },
      { text: r[2] },
      { toolCalls: calls },
      { toolCalls: [{ id: 'toolu_again', name: 'read_file', input: { path: 'src/store.ts' } }] },
      { text: devaEnvelope('Nothing to change.') },
      { text: r[4] },
    );
    const run = await runCli(['start', '--workspace', ws, '--objective', 'x', '--task', TASK, '--json'], env());
    assert.strictEqual(run.code, 0, run.stderr);

    const results = new Map(fake.toolResults.map((t) => [t.toolUseId, t]));
    assert.strictEqual(fake.toolResults.length, 41, 'every call answered');
    const reasons = hostile.map((_, i) => results.get(`toolu_h${i}`)!);
    assert.ok(reasons.every((t) => t.isError));
    assert.match(reasons[0].content, /"\.\." segments are not allowed/);
    assert.match(reasons[1].content, /absolute path/);
    assert.match(reasons[2].content, /symbolic link/);
    assert.match(reasons[3].content, /\.git/);
    assert.match(reasons[4].content, /secret file/);
    assert.match(reasons[5].content, /over the .* limit/);
    assert.match(reasons[6].content, /binary/);
    assert.strictEqual(results.get('toolu_s0')!.content, 'no matches for "SECRET"');
    assert.ok(results.get('toolu_l0')!.isError);
    // 12 calls answered (9 above + 3 reads), the other 28 and the next turn's call bounded
    const ok = calls.slice(9).filter((c) => !results.get(c.id)!.isError).length;
    assert.strictEqual(ok, 3);
    const limited = [...results.values()].filter((t) => t.content === 'limit reached — write your answer now');
    assert.strictEqual(limited.length, 29);
    assert.strictEqual(results.get('toolu_again')!.content, 'limit reached — write your answer now');
    // once spent, the model is told to write (tool_choice none) and the step ends with its envelope
    assert.deepStrictEqual(fake.requests[5].body.tool_choice, { type: 'none' });
    assert.deepStrictEqual(run.json.steps.map((s: { ok: boolean }) => s.ok), [true, true, true, true, true]);

    const everything = JSON.stringify(fake.requests.map((q) => q.body));
    for (const m of Object.values(MARK)) assert.ok(!everything.includes(m), `${m} reached a request`);
    assert.match(run.stderr, /⚠ DevA read \.env — refused: /);
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });
});
