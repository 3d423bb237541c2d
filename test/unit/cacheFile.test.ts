// Parts of the index's cache file a one-off query reads in place (src/core/workspace/cacheFile.ts): the vocabulary's
// terms found through the table the file stores (wordsInFile.ts) as a vocabulary read whole finds them, the files'
// symbols and specifiers read piece by piece as whole (indexEntry.ts StoredPieces), the file closed once every part let
// go of it; and an index opened for a one-off query and then changed writes the cache file an index read whole writes.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { OpenCacheFile } from '../../src/core/workspace/cacheFile';
import { WordsInFile } from '../../src/core/workspace/wordsInFile';
import { termStarts, termTable, Vocabulary, wordMarks } from '../../src/core/workspace/vocabulary';
import { StoredPieces } from '../../src/core/workspace/indexEntry';
import { WorkspaceIndex } from '../../src/core/workspace/workspaceIndex';

function tmp(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A file holding `parts` back to back, open; where each starts. */
function fileOf(parts: Uint8Array[]): { file: OpenCacheFile; at: number[]; fd: number } {
  const p = path.join(tmp('cape-cachefile-'), 'f');
  fs.writeFileSync(p, Buffer.concat(parts));
  const at: number[] = [];
  parts.reduce((n, b) => (at.push(n), n + b.length), 0);
  const fd = fs.openSync(p, 'r');
  return { file: new OpenCacheFile(fd), at, fd };
}

const isOpen = (fd: number) => {
  try {
    fs.fstatSync(fd);
    return true;
  } catch {
    return false;
  }
};

describe('cache file parts read in place (a one-off query)', () => {
  it('finds every term through the stored table as a vocabulary read whole does, and no other', () => {
    const terms = Array.from({ length: 3000 }, (_, i) => (i % 11 === 0 ? `é${i}` : i % 13 === 0 ? `日本${i}` : `term${i}x`));
    const words = terms.join('\n');
    const bytes = Buffer.from(words, 'utf8');
    const table = termTable(words, termStarts(words, terms.length), terms.length);
    const { file, at } = fileOf([Buffer.from('header'), bytes, Buffer.from(table.buffer)]);
    const marks = wordMarks(bytes);
    const inFile = new WordsInFile({ words: { file, at: at[1], length: bytes.length }, table: { file, at: at[2], length: table.byteLength }, marks }, 1024);
    assert.ok(inFile.valid(terms.length));
    const whole = new Vocabulary();
    assert.ok(whole.restore({ bytes, marks }, terms.length));
    for (const [i, t] of terms.entries()) assert.strictEqual(inFile.find(t, terms.length), i, t);
    for (const t of ['term1', 'erm1x', 'term3000x', '', 'é', '日本13x']) assert.strictEqual(inFile.find(t, terms.length), whole.get(t), t);
    assert.ok(!inFile.valid(terms.length + 1024), 'marks for other terms');
    const small = new WordsInFile({ words: { file, at: at[1], length: bytes.length }, table: { file, at: at[2], length: 4096 }, marks }, 1024);
    assert.ok(!small.valid(terms.length), 'a table without room for the terms');
    const shifted = new WordsInFile({ words: { file, at: at[1] + 1, length: bytes.length - 1 }, table: { file, at: at[2], length: table.byteLength }, marks }, 1024);
    assert.ok(!shifted.valid(terms.length), 'marks not after a separator');
  });

  it('writes the table a vocabulary built for its look-ups, with the terms added since, as the table built anew', () => {
    const terms = Array.from({ length: 1500 }, (_, i) => `term${i}ö`);
    const bytes = Buffer.from(terms.join('\n'), 'utf8');
    const fresh = (v: Vocabulary) => {
      const w = v.serialize();
      return termTable(w, termStarts(w, v.size), v.size);
    };
    const v = new Vocabulary();
    assert.ok(v.restore({ bytes, marks: wordMarks(bytes) }, terms.length));
    assert.deepStrictEqual(v.serializedTable(), fresh(v), 'no table built yet');
    v.idOf('added0');
    v.idOf('added1');
    assert.deepStrictEqual(v.serializedTable(), fresh(v), 'built, two terms added');
    for (let i = 2; i < 600; i++) v.idOf(`added${i}`);
    assert.deepStrictEqual(v.serializedTable(), fresh(v), 'built, too many added for its room');
    const built = new Vocabulary();
    for (let i = 0; i < 700; i++) built.idOf(`built${i}é`);
    assert.deepStrictEqual(built.serializedTable(), fresh(built), 'every term added (a build)');
  });

  it('reads pieces one by one as read whole, and closes the file once every part has let it go', () => {
    const pieces = ['a\nb', '', 'ü', 'last'];
    const bytes = Buffer.from(pieces.join('\0'), 'utf8');
    let end = 0;
    const ends = Uint32Array.from(pieces, (p, i) => (end += (i ? 1 : 0) + Buffer.byteLength(p)));
    const { file, at, fd } = fileOf([Buffer.from('xx'), bytes]);
    const other = file.hold();
    const lazy = new StoredPieces({ file, at: at[1], length: bytes.length }, ends);
    const whole = new StoredPieces(bytes, ends);
    assert.ok(lazy.valid() && whole.valid());
    assert.deepStrictEqual(pieces.map((_, i) => lazy.get(i)), pieces);
    lazy.load();
    assert.ok(isOpen(fd), 'another part still holds the file');
    other();
    other();
    assert.ok(!isOpen(fd), 'closed once no part holds it');
    assert.deepStrictEqual(pieces.map((_, i) => lazy.get(i)), pieces, 'read from memory after load()');
    assert.ok(!new StoredPieces({ file, at: 0, length: 3 }, ends).valid(), 'pieces past the section');
  });

  it('an index opened for a one-off query, then changed, writes the cache file an index read whole writes', async () => {
    const root = tmp('cape-lazy-');
    const write = (rel: string, text: string) => (fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true }), fs.writeFileSync(path.join(root, rel), text));
    for (let i = 0; i < 30; i++) write(`src/m${i}.ts`, `import { f${i + 1} } from './m${i + 1}';\nexport function f${i}(é${i}: string) { return 'word${i} ünï'; }\n`);
    const past = new Date(Date.now() - 60_000);
    for (const n of fs.readdirSync(path.join(root, 'src'))) fs.utimesSync(path.join(root, 'src', n), past, past);
    fs.utimesSync(path.join(root, 'src'), past, past);
    // past a fine clock's step after the ctimes the utimes moved (fileRead.ts racyStamp)
    const settle = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60);
    settle();
    const cacheDir = tmp('cape-lazy-cache-');
    const [lazyFile, wholeFile] = ['lazy.idx', 'whole.idx'].map((n) => path.join(cacheDir, n));
    await WorkspaceIndex.open(root, { cacheFile: lazyFile });
    fs.copyFileSync(lazyFile, wholeFile);
    write('src/m3.ts', 'export function changed(): number { return 3; }\n');
    fs.utimesSync(path.join(root, 'src/m3.ts'), past, new Date(Date.now() - 30_000));
    settle();
    const lazy = await WorkspaceIndex.open(root, { cacheFile: lazyFile, lazy: true });
    const whole = await WorkspaceIndex.open(root, { cacheFile: wholeFile });
    assert.deepStrictEqual([lazy.stats.read, whole.stats.read], [1, 1]);
    assert.ok(fs.readFileSync(lazyFile).equals(fs.readFileSync(wholeFile)), 'the same cache file');
    assert.deepStrictEqual(lazy.index.get('src/m7.ts')!.symbols, ['f7']);
    assert.deepStrictEqual([...lazy.index.textScores('word7 changed')], [...whole.index.textScores('word7 changed')]);
  });
});
