// The index's stat-ahead (src/core/workspace/statAhead.ts and its worker, indexWorker.ts): the stats a worker thread
// takes of the cache's recorded folders and files are the ones the walk would take itself, entry by entry; a warm
// open that uses them finds exactly the changes, reads and removals of one that stats on its own thread; the index's
// thread takes the folders the worker has not reached, with the same stats; a worker that cannot start or fails
// leaves every stat to the walk.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { StatAhead } from '../../src/core/workspace/statAhead';
import { READ_AHEAD_WORKER } from '../../src/core/workspace/readAhead';
import type { DirRow } from '../../src/core/workspace/indexCache';
import type { EntryStat } from '../../src/core/workspace/disk';
import { WorkspaceIndex } from '../../src/core/workspace/workspaceIndex';

function write(root: string, rel: string, content: string): void {
  const abs = path.join(root, ...rel.split('/'));
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
}

/** Folders of modules, each file's and folder's times a minute back (a change right before a read is read again). */
function workspace(folders: number, perFolder: number): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-statahead-'));
  for (let d = 0; d < folders; d++) {
    for (let i = 0; i < perFolder; i++) write(root, `src/f${d}/mod${i}.ts`, `export function m${d}_${i}(): number { return ${i}; }\n`);
  }
  write(root, 'README.md', '# demo\n');
  const past = new Date(Date.now() - 60_000);
  const age = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) age(path.join(dir, e.name));
      else fs.utimesSync(path.join(dir, e.name), past, past);
    }
    fs.utimesSync(dir, past, past);
  };
  age(root);
  // past a fine clock's step after the ctimes the utimes moved (fileRead.ts racyStamp)
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60);
  return root;
}

function same(got: EntryStat | null, abs: string): void {
  const st = fs.lstatSync(abs, { throwIfNoEntry: false }) ?? null;
  if (!st) return assert.strictEqual(got, null, `${abs} is missing`);
  assert.ok(got, `${abs} was stat'ed`);
  assert.deepStrictEqual(
    [got.isFile(), got.isDirectory(), got.size, got.mtimeMs, got.ctimeMs],
    [st.isFile(), st.isDirectory(), st.size, st.mtimeMs, st.ctimeMs],
    abs,
  );
}

describe('stat ahead (a warm open stats on a worker thread while it reads its cache file)', function () {
  this.timeout(60_000);
  const roots: string[] = [];
  after(() => {
    for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
  });

  it('gives each recorded folder and file the stat the walk would take: missing ones null, a symlink not a file', async () => {
    const root = workspace(3, 4);
    roots.push(root);
    fs.symlinkSync(path.join(root, 'src/f0/mod0.ts'), path.join(root, 'src/f1/link.ts'));
    const rows: DirRow[] = [
      ['', 0, 0, null, 'README.md', 'src'],
      ['src', 0, 0, null, '', 'f0/f1/f2'],
      ['src/f0', 0, 0, null, 'mod0.ts/mod1.ts/gone.ts/mod3.ts', ''],
      ['src/f1', 0, 0, null, 'link.ts/mod2.ts', ''],
      ['src/vanished', 0, 0, null, 'a.ts', ''],
    ];
    const ahead = StatAhead.start(root, rows, 1, { minFiles: 0 });
    assert.ok(ahead, 'a worker started');
    assert.strictEqual(await ahead.ready(), true);
    for (const [rel, , , , files] of rows) {
      const folder = ahead.folder(rel, files);
      assert.ok(folder, `stats were taken for ${rel || 'the root'}`);
      const abs = rel ? path.join(root, ...rel.split('/')) : root;
      same(folder.stat, abs);
      const names = files ? files.split('/') : [];
      names.forEach((name, i) => same(folder.file(i), path.join(abs, name)));
    }
    const link = ahead.folder('src/f1', 'link.ts/mod2.ts')!.file(0);
    assert.ok(link && !link.isFile() && !link.isDirectory(), 'a symlink is not followed');
    assert.strictEqual(ahead.folder('src/f0', 'mod0.ts'), undefined, 'a folder recorded with other files: the walk stats it');
    assert.strictEqual(ahead.folder('src/f2', 'mod0.ts'), undefined, 'a folder not recorded: the walk stats it');
    ahead.stop();
    assert.strictEqual(ahead.folder('', 'README.md'), undefined, 'nothing is taken after stop()');
  });

  it("shares the folders with the index's thread once that one is ready: each folder stat'ed once, by either, the same", async () => {
    const root = workspace(16, 4);
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-statahead-slow-'));
    roots.push(root, elsewhere);
    // the real worker on a slow disk: every lstat takes 5 ms there
    const slow = path.join(elsewhere, 'slow-worker.js');
    fs.writeFileSync(
      slow,
      `const fs = require('fs');\nconst real = fs.lstatSync;\nfs.lstatSync = (...a) => { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5); return real(...a); };\nrequire(${JSON.stringify(READ_AHEAD_WORKER)});\n`,
    );
    const rows: DirRow[] = [['', 0, 0, null, 'README.md', 'src']];
    for (let d = 0; d < 16; d++) rows.push([`src/f${d}`, 0, 0, null, [0, 1, 2, 3].map((i) => `mod${i}.ts`).join('/'), '']);
    const ahead = StatAhead.start(root, rows, 1, { minFiles: 0, workerFile: slow });
    assert.ok(ahead, 'a worker started');
    // wait until the worker has claimed its first folder, then let this thread take the rest
    const claim = (ahead as unknown as { job: { claim: Int32Array } }).job.claim;
    for (let waited = 0; Atomics.load(claim, 0) === 0 && waited < 20_000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    assert.strictEqual(await ahead.ready(), true);
    assert.ok(ahead.helped > 0 && ahead.helped < rows.length, `this thread stat'ed ${ahead.helped} of ${rows.length} folders`);
    for (const [rel, , , , files] of rows) {
      const folder = ahead.folder(rel, files);
      assert.ok(folder, `stats were taken for ${rel || 'the root'}`);
      const abs = rel ? path.join(root, ...rel.split('/')) : root;
      same(folder.stat, abs);
      (files ? files.split('/') : []).forEach((name, i) => same(folder.file(i), path.join(abs, name)));
    }
    ahead.stop();
  });

  it('a warm open with the stats taken ahead finds exactly what one stat\'ing on its own thread finds', async () => {
    const root = workspace(6, 5);
    roots.push(root);
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-statahead-cache-'));
    roots.push(cacheDir);
    const open = (cacheFile: string, minFiles: number) => WorkspaceIndex.open(root, { cacheFile, statAhead: { minFiles } });
    const ahead = path.join(cacheDir, 'ahead.idx');
    const mine = path.join(cacheDir, 'mine.idx');
    await open(ahead, 0);
    await open(mine, Infinity);

    // nothing changed: every recorded folder and file is taken ahead, nothing read again
    const quiet = await open(ahead, 0);
    assert.strictEqual(quiet.fromCache, true);
    assert.strictEqual(quiet.stats.statAhead, 1 + 1 + 6 + 6 * 5 + 1, 'the root, src, 6 folders, 30 modules and the README');
    assert.deepStrictEqual([quiet.stats.read, quiet.stats.removed, quiet.stats.listed], [0, 0, 0]);

    // changed in place (new size; same size with the mtime put back), removed, added
    write(root, 'src/f1/mod1.ts', 'export function grown(): string { return "a longer body than before"; }\n');
    const kept = path.join(root, 'src/f2/mod2.ts');
    const before = fs.statSync(kept);
    fs.writeFileSync(kept, fs.readFileSync(kept, 'utf8').replace('m2_2', 'x2_2'));
    fs.utimesSync(kept, before.atime, before.mtime);
    fs.unlinkSync(path.join(root, 'src/f3/mod0.ts'));
    write(root, 'src/f4/added.ts', 'export const added = 1;\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60);
    const a = await open(ahead, 0);
    const b = await open(mine, Infinity);
    assert.ok(a.stats.statAhead > 0, 'the stats were taken ahead');
    assert.strictEqual(b.stats.statAhead, 0);
    assert.deepStrictEqual([a.stats.read, a.stats.removed, a.stats.listed], [b.stats.read, b.stats.removed, b.stats.listed]);
    assert.deepStrictEqual([a.stats.read, a.stats.removed], [3, 1], 'the grown, the rewritten and the added file read; the removed one gone');
    const paths = (i: WorkspaceIndex) => [...i.all()].map((f) => f.path).sort();
    assert.deepStrictEqual(paths(a.index), paths(b.index));
    assert.deepStrictEqual(a.index.get('src/f2/mod2.ts')!.symbols, ['x2_2']);
    assert.deepStrictEqual(a.index.get('src/f1/mod1.ts')!.symbols, ['grown']);
  });

  it('takes a recorded file as unchanged by its place among the cache file\'s entries only when its stat is the one recorded', async () => {
    const root = workspace(3, 4);
    roots.push(root);
    // a file that is not text (no entry of its own in the cache file), aged with its folder like the rest
    const logo = path.join(root, 'src/f0/logo.bin');
    fs.writeFileSync(logo, 'ab\0cd\0ef\n');
    const past = new Date(Date.now() - 60_000);
    for (const p of [logo, path.dirname(logo)]) fs.utimesSync(p, past, past);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60);
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-statahead-cache-'));
    roots.push(cacheDir);
    const cacheFile = path.join(cacheDir, 'index.idx');
    const open = () => WorkspaceIndex.open(root, { cacheFile, maxBytes: 200, statAhead: { minFiles: 0 } });
    await open();
    const quiet = await open();
    assert.ok(quiet.fromCache && quiet.stats.statAhead > 0, 'the stats were taken ahead');
    assert.deepStrictEqual([quiet.stats.read, quiet.stats.removed, quiet.stats.listed], [0, 0, 0]);

    // changed in place, each in a folder whose own stamp does not move (no entry came or went)
    const rewrite = (rel: string, from: string, to: string, keepMtime: boolean) => {
      const abs = path.join(root, ...rel.split('/'));
      const before = fs.statSync(abs);
      fs.writeFileSync(abs, fs.readFileSync(abs, 'latin1').replace(from, to), 'latin1');
      if (keepMtime) fs.utimesSync(abs, before.atime, before.mtime);
    };
    fs.chmodSync(path.join(root, 'src/f0/mod0.ts'), 0o600); // only its ctime moves
    rewrite('src/f0/mod1.ts', 'm0_1', 'x0_1', true); // same size, mtime put back: only its ctime moves
    rewrite('src/f2/mod3.ts', 'm2_3', 'y2_3', false); // same size, a new mtime
    fs.writeFileSync(path.join(root, 'src/f1/mod2.ts'), `export const big = '${'x'.repeat(250)}';\n`); // past the size limit
    rewrite('src/f0/logo.bin', 'ab\0cd\0ef', 'ab cd ef', true); // text now, same size and mtime
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60);
    const warm = await open();
    assert.ok(warm.fromCache && warm.stats.statAhead > 0, 'the stats were taken ahead');
    assert.deepStrictEqual([warm.stats.read, warm.stats.removed, warm.stats.listed], [4, 1, 0], 'four files read again, the one past the limit gone');
    assert.deepStrictEqual(warm.index.get('src/f0/mod1.ts')!.symbols, ['x0_1']);
    assert.deepStrictEqual(warm.index.get('src/f2/mod3.ts')!.symbols, ['y2_3']);
    assert.strictEqual(warm.index.get('src/f1/mod2.ts'), undefined);
    assert.ok(warm.index.get('src/f0/logo.bin'), 'the file that became text is indexed');
    assert.ok(warm.index.get('src/f0/mod0.ts') && warm.index.get('src/f2/mod2.ts'), 'the unchanged files stay');
  });

  it('a cache file whose header matches but whose sections are damaged: the index is rebuilt, no stat taken ahead is used', async () => {
    const root = workspace(2, 3);
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-statahead-cache-'));
    roots.push(root, elsewhere);
    const cacheFile = path.join(elsewhere, 'index.idx');
    const built = await WorkspaceIndex.open(root, { cacheFile, statAhead: { minFiles: 0 } });
    // cut the last bytes: the header still matches, the sections no longer add up to the file
    fs.truncateSync(cacheFile, fs.statSync(cacheFile).size - 8);
    const again = await WorkspaceIndex.open(root, { cacheFile, statAhead: { minFiles: 0 } });
    assert.strictEqual(again.fromCache, false);
    assert.strictEqual(again.stats.statAhead, 0, 'no stat of a stopped worker is taken');
    assert.strictEqual(again.stats.read, built.stats.read, 'every file read again');
    assert.deepStrictEqual([...again.index.all()].map((f) => f.path).sort(), [...built.index.all()].map((f) => f.path).sort());
  });

  it('a worker that cannot start or fails leaves every stat to the walk, and nothing is missed', async () => {
    const root = workspace(3, 3);
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-statahead-worker-'));
    roots.push(root, elsewhere);
    const broken = path.join(elsewhere, 'broken-worker.js');
    fs.writeFileSync(broken, "throw new Error('broken on start');\n");
    const rows: DirRow[] = [['', 0, 0, null, 'README.md', 'src']];
    const failing = StatAhead.start(root, rows, 1, { minFiles: 0, workerFile: broken });
    assert.ok(failing);
    assert.strictEqual(await failing.ready(), false);
    assert.strictEqual(failing.folder('', 'README.md'), undefined);
    assert.strictEqual(StatAhead.start(root, rows, 1, { minFiles: 0, workerFile: path.join(root, 'no-such-worker.js') }), null);
    assert.strictEqual(StatAhead.start(root, rows, 1, { minFiles: 2 }), null, 'a small workspace stats on its own thread');

    const cacheFile = path.join(elsewhere, 'index.idx');
    await WorkspaceIndex.open(root, { cacheFile });
    write(root, 'src/f0/mod0.ts', 'export function changed(): void {}\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60);
    const warm = await WorkspaceIndex.open(root, { cacheFile, statAhead: { minFiles: 0, workerFile: broken } });
    assert.strictEqual(warm.stats.statAhead, 0);
    assert.strictEqual(warm.stats.read, 1);
    assert.deepStrictEqual(warm.index.get('src/f0/mod0.ts')!.symbols, ['changed']);
  });
});
