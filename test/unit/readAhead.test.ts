// The index's read-ahead (src/core/workspace/readAhead.ts and its worker, indexWorker.ts): a build that reads its
// files on a worker thread gets exactly what one reading them on this thread gets, in the same order, chunk after
// chunk; a worker that cannot start or dies midway leaves the rest to this thread and nothing is lost.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readFiles, READ_AHEAD_WORKER, type ReadItem } from '../../src/core/workspace/readAhead';
import { CHUNK_FILES } from '../../src/core/workspace/readAheadProtocol';
import type { FileRead } from '../../src/core/workspace/fileRead';
import type { FileStamp } from '../../src/core/workspace/disk';
import { WorkspaceIndex } from '../../src/core/workspace/workspaceIndex';

const MAX = 64 * 1024;

function write(root: string, rel: string, content: string | Buffer): void {
  const abs = path.join(root, ...rel.split('/'));
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
}

/** A mixed folder: modules with exports and imports, binaries, an over-large file, a symlink, a FIFO, missing names. */
function mixedFolder(files: number): { root: string; items: ReadItem[] } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-readahead-'));
  const items: ReadItem[] = [];
  for (let i = 0; i < files; i++) {
    const rel = `src/m${i % 7}/file${i}.ts`;
    const kind = i % 50;
    if (kind === 3) write(root, rel, Buffer.from([0x61, 0, 0x62]));
    else if (kind === 4) write(root, rel, Buffer.from([0xc3, 0x28]));
    else if (kind === 5) write(root, rel, 'x'.repeat(MAX + 10));
    else if (kind !== 6) write(root, rel, `import { f${i - 1} } from './file${i - 1}';\nexport function f${i}(): number { return ${i}; }\nexport const name${i} = 'héllo ${i}';\n`);
    // one in 50 is never written (vanished before it was read); every tenth was stat'ed by a walk
    const st = kind !== 6 && i % 10 === 0 ? fs.statSync(path.join(root, rel)) : null;
    items.push({ rel, stat: st ? { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs } : null });
  }
  fs.symlinkSync(path.join(root, 'src/m0/file0.ts'), path.join(root, 'link.ts'));
  items.push({ rel: 'link.ts', stat: null });
  write(root, 'gone/later.ts', 'export const later = 1;\n');
  items.push({ rel: 'gone/later.ts', stat: null });
  // a FIFO where a file was: opened without blocking, found to be no regular file
  if (process.platform !== 'win32') {
    execFileSync('mkfifo', [path.join(root, 'pipe.ts')]);
    items.push({ rel: 'pipe.ts', stat: null });
  }
  return { root, items };
}

async function readAll(root: string, items: ReadItem[], opts: Parameters<typeof readFiles>[3]): Promise<{ results: FileRead[]; chunks: number }> {
  const results: FileRead[] = [];
  let chunks = 0;
  for await (const chunk of readFiles(root, MAX, items, opts)) {
    chunks++;
    results.push(...chunk);
  }
  return { results, chunks };
}

describe('index read-ahead (worker thread)', function () {
  this.timeout(30_000);
  const roots: string[] = [];
  after(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

  before(function () {
    // the worker runs the compiled script next to readAhead.js (out/ here, dist/ in the bundles)
    if (!fs.existsSync(READ_AHEAD_WORKER)) throw new Error(`${READ_AHEAD_WORKER} is missing: run tsc -p .`);
  });

  it('reads in a worker exactly what this thread reads, in order, over several chunks', async () => {
    const { root, items } = mixedFolder(CHUNK_FILES * 4 + 37);
    roots.push(root);
    const mine = await readAll(root, items, { minFiles: Infinity });
    const stats = { workerFiles: 0 };
    const worker = await readAll(root, items, { minFiles: 0, stats });
    assert.strictEqual(stats.workerFiles, items.length, 'the worker read every file');
    assert.ok(worker.chunks >= 5, `several chunks (${worker.chunks})`);
    assert.deepStrictEqual(worker.results, mine.results);
    // a file the walk stat'ed keeps that stamp, ctime included (the index compares it on the next walk)
    const statted = items.findIndex((i) => i.stat && i.rel.endsWith('/file10.ts'));
    assert.deepStrictEqual(
      (({ size, mtimeMs, ctimeMs }) => ({ size, mtimeMs, ctimeMs }))(worker.results[statted] as FileStamp),
      items[statted].stat,
    );
    const kinds = new Map<string, number>();
    for (const r of mine.results) kinds.set(r.kind, (kinds.get(r.kind) ?? 0) + 1);
    assert.deepStrictEqual([...kinds.keys()].sort(), ['binary', 'gone', 'text'], 'the folder holds each kind of answer');
    const first = mine.results[1];
    assert.ok(first.kind === 'text' && first.symbols.includes('f1') && first.imports.includes('./file0'), 'symbols and imports come with the text');
    assert.strictEqual(mine.results[items.findIndex((i) => i.rel === 'link.ts')].kind, 'gone', 'a symlink is never followed');
    if (process.platform !== 'win32') assert.strictEqual(mine.results[items.findIndex((i) => i.rel === 'pipe.ts')].kind, 'gone', 'a FIFO is not waited on');
  });

  it('a worker that cannot start leaves the whole read to this thread', async () => {
    const { root, items } = mixedFolder(300);
    roots.push(root);
    const mine = await readAll(root, items, { minFiles: Infinity });
    const stats = { workerFiles: -1 };
    const missing = await readAll(root, items, { minFiles: 0, workerFile: path.join(root, 'no-such-worker.js'), stats });
    assert.deepStrictEqual(missing.results, mine.results);
    assert.strictEqual(stats.workerFiles, -1, 'no worker read anything');
    const broken = path.join(root, 'broken-worker.js');
    fs.writeFileSync(broken, "throw new Error('broken on start');\n");
    assert.deepStrictEqual((await readAll(root, items, { minFiles: 0, workerFile: broken })).results, mine.results);
  });

  it('a worker that dies midway: this thread reads from the first file it did not answer', async () => {
    const { root, items } = mixedFolder(CHUNK_FILES * 3);
    roots.push(root);
    const mine = await readAll(root, items, { minFiles: Infinity });
    // a worker that answers its first chunk through the real one's code, then exits
    const dying = path.join(root, 'dying-worker.js');
    fs.writeFileSync(
      dying,
      `const { parentPort, workerData } = require('worker_threads');
const { readForIndex } = require(${JSON.stringify(path.join(path.dirname(READ_AHEAD_WORKER), 'fileRead.js'))});
const results = workerData.rels.slice(0, 10).map((rel, i) => readForIndex(workerData.root + '/' + rel, rel, workerData.maxBytes, workerData.sizes[i] < 0 ? null : { size: workerData.sizes[i], mtimeMs: workerData.mtimes[i], ctimeMs: workerData.ctimes[i] }));
parentPort.postMessage({ from: 0, results });
process.exit(3);
`,
    );
    const stats = { workerFiles: 0 };
    const got = await readAll(root, items, { minFiles: 0, workerFile: dying, stats });
    assert.strictEqual(stats.workerFiles, 10, 'the chunk it answered is used');
    assert.deepStrictEqual(got.results, mine.results);
  });

  it('a worker answering out of order is not trusted: the rest is read here', async () => {
    const { root, items } = mixedFolder(200);
    roots.push(root);
    const mine = await readAll(root, items, { minFiles: Infinity });
    const liar = path.join(root, 'liar-worker.js');
    fs.writeFileSync(liar, "require('worker_threads').parentPort.postMessage({ from: 5, results: [{ kind: 'gone' }] });\nsetTimeout(() => {}, 60000);\n");
    const stats = { workerFiles: 0 };
    assert.deepStrictEqual((await readAll(root, items, { minFiles: 0, workerFile: liar, stats })).results, mine.results);
    assert.strictEqual(stats.workerFiles, 0);
  });

  it('a workspace index build past the threshold reads ahead on the worker and indexes every file', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-readahead-index-'));
    roots.push(root);
    for (let i = 0; i < 2100; i++) write(root, `pkg${i % 9}/src/unit${i}.ts`, `import { unit${i + 1} } from './unit${i + 1}';\nexport function unit${i}() { return 'quokka${i}'; }\n`);
    write(root, 'pkg0/src/blob.bin.ts', Buffer.from([1, 0, 2]));
    const { index, stats } = await WorkspaceIndex.open(root, { cacheFile: null });
    assert.strictEqual(stats.readAhead, 2101, 'the worker read the files');
    assert.strictEqual(index.size, 2100, 'every text file is indexed, the binary one is not');
    assert.deepStrictEqual(index.get('pkg3/src/unit12.ts')?.symbols, ['unit12']);
    assert.ok(index.textScores('quokka1234').has('pkg1/src/unit1234.ts'), 'content terms are indexed');
    // an update of a few files reads them on this thread
    write(root, 'pkg3/src/unit12.ts', 'export const renamed = 1;\n');
    const up = await index.update(['pkg3/src/unit12.ts']);
    assert.strictEqual(up.readAhead, 0);
    assert.deepStrictEqual(index.get('pkg3/src/unit12.ts')?.symbols, ['renamed']);
  });
});
