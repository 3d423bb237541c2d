// A type's members in interface lines, in the order the project's own documentation calls them
// (src/core/workspace/docCalls.ts over the root README and docs/*.md; mapLines.ts fileNames and byCalls): the
// constructor first, then the most called, source order among equals — in DA's library map, DevA's signed map lines
// and init's code map alike. Without documentation, source order.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { callCounts, DOC_CALL_CHARS, docCalls, NO_CALLS, type DocFiles } from '../../src/core/workspace/docCalls';
import { fileNames, interfaceLine, workWords } from '../../src/core/workspace/mapLines';
import { packMapLines } from '../../src/core/workspace/mapSection';
import { packWorkspace, type PackedFile } from '../../src/core/workspace/pack';
import { packExcerpts } from '../../src/core/workspace/sectionBlocks';
import { WorkspaceIndex } from '../../src/core/workspace/workspaceIndex';
import { codeLines, codePart } from '../../src/core/cape/initFactsCode';
import { noSources } from '../../src/core/cape/initFactsText';
import { tempDir } from '../helpers/cli';

const put = (ws: string, rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
  fs.writeFileSync(path.join(ws, rel), text);
};

/** A class of 31 members: its constructor, 29 methods, op01 … op29, in that order, and the field its constructor assigns. */
const OPS = Array.from({ length: 29 }, (_, i) => `op${String(i + 1).padStart(2, '0')}`);
const SHELF_JS = ['export class Shelf {', '  constructor(name) {', '    this.name = name;', '  }', ...OPS.flatMap((n) => [`  ${n}(value) {`, '    return this;', '  }']), '}', ''].join('\n');
/** A README that calls three late members: op27 three times, op29 twice, op24 once. */
const SHELF_README = [
  '# shelf',
  '',
  'Keeps things in order.',
  '',
  '```js',
  "const shelf = new Shelf('books');",
  "shelf.op27('a').op29('b');",
  "shelf.op27('c');",
  '```',
  '',
  'Call `op27()` again, then op29(x) and `.op24(`.',
  '',
].join('\n');

/** The index's view docCalls takes, over files given as texts (their characters their length). */
function docFiles(files: Record<string, string>): DocFiles & { read: (rel: string) => string | null; reads: string[] } {
  const reads: string[] = [];
  return {
    paths: () => Object.keys(files),
    get: (rel) => (rel in files ? { chars: files[rel].length } : undefined),
    read: (rel) => (reads.push(rel), files[rel] ?? null),
    reads,
  };
}

const none = workWords('');

describe("interface lines: a type's members in the order the project's documentation calls them", () => {
  it('counts a call as the whole name right before `(`, once per occurrence', () => {
    const counts = callCounts("program.option('-d'); .option( x.options(1) $option( reoption( option_( 2option( option (late) option()");
    assert.strictEqual(counts.get('option'), 3);
    assert.strictEqual(counts.get('options'), 1);
    assert.ok(!counts.has('2option'), 'a word starting with a digit is no name');
    assert.strictEqual(counts.get('$option'), 1, '`$option(` calls `$option`, not `option`');
  });

  it('puts the three late members the README calls right after the constructor, so they survive a short line; without a README, source order', () => {
    const files = docFiles({ 'README.md': SHELF_README, 'lib/shelf.js': SHELF_JS });
    const calls = docCalls(files, files.read);
    const { names } = fileNames('lib/shelf.js', SHELF_JS, [], calls);
    assert.deepStrictEqual(names.slice(0, 6), ['Shelf', 'new Shelf', 'Shelf.op27', 'Shelf.op29', 'Shelf.op24', 'Shelf.op01']);
    assert.strictEqual(names.length, 32, 'the same names, in another order');
    // the field its constructor assigns comes after the methods, as the README never calls it
    assert.strictEqual(names[31], 'Shelf.name');
    // no README: source order
    const bare = fileNames('lib/shelf.js', SHELF_JS, [], docCalls(docFiles({ 'lib/shelf.js': SHELF_JS }), () => null)).names;
    assert.deepStrictEqual(bare, ['Shelf', 'new Shelf', ...OPS.map((n) => `Shelf.${n}`), 'Shelf.name']);
    assert.deepStrictEqual(fileNames('lib/shelf.js', SHELF_JS, []).names, bare);
    // a line with room for a few names keeps the called ones
    const short = interfaceLine('lib/shelf.js', SHELF_JS, [], 40, 120, none, calls);
    assert.match(short, /^lib\/shelf\.js — .*new Shelf.*, Shelf\.op27.*, Shelf\.op29.*, Shelf\.op24/);
    assert.ok(short.length <= 120 && !short.includes('op25'), short);
    const shortBare = interfaceLine('lib/shelf.js', SHELF_JS, [], 40, 120, none, NO_CALLS);
    assert.ok(!/op2[4-9]/.test(shortBare) && shortBare.includes('Shelf.op01'), shortBare);
  });

  it("keeps a Python class's `__init__` first, and a TypeScript constructor's parameter fields right after it", () => {
    const py = ['class Client:', '    def __init__(self, url: str) -> None:', '        pass', '', '    def get(self, path: str) -> str:', '        pass', '', '    def post(self, path: str) -> str:', '        pass', ''].join('\n');
    const pyFiles = docFiles({ 'README.md': "client.post('/a')\nclient.post('/b')\nclient.get('/c')\n", 'client.py': py });
    assert.deepStrictEqual(fileNames('client.py', py, [], docCalls(pyFiles, pyFiles.read)).names, ['Client', 'Client.__init__', 'Client.post', 'Client.get']);
    const ts = ['export class User {', '  constructor(public name: string, public age: number) {}', '  greet(): string {', "    return '';", '  }', '}', ''].join('\n');
    // the README calls greet more than the fields: they still follow the constructor, the called one first
    const tsFiles = docFiles({ 'README.md': 'user.greet();\nuser.greet();\nuser.age();\n', 'src/user.ts': ts });
    assert.deepStrictEqual(fileNames('src/user.ts', ts, [], docCalls(tsFiles, tsFiles.read)).names, ['User', 'new User', 'User.age', 'User.name', 'User.greet']);
  });

  it("gives an excerpted file's Declares line under DevA's excerpts in the README's order, as the map does", () => {
    const files = docFiles({ 'README.md': SHELF_README, 'lib/shelf.js': SHELF_JS });
    const st = { budget: 20_000, used: 0, readText: files.read, blocks: [] as string[], files: [] as PackedFile[], calls: docCalls(files, files.read) };
    packExcerpts([{ path: 'lib/shelf.js' }], { objective: 'make op12 return the value' }, st, 0);
    const declares = /\nDeclares: ([^\n]+)\n/.exec(st.blocks.join('\n'))?.[1] ?? '';
    assert.match(declares, /new Shelf[^,]*, Shelf\.op27[^,]*, Shelf\.op29[^,]*, Shelf\.op24[^,]*, Shelf\.op01/);
    assert.strictEqual(files.reads.filter((r) => r === 'README.md').length, 1);
  });

  it('does not count `options(` for a member `option`', () => {
    const cli = ['export class Cli {', '  help() {}', '  options() {}', '  option(flag) {}', '}', ''].join('\n');
    const files = docFiles({ 'Readme.md': 'cli.options();\ncli.options({ strict: true });\n', 'src/cli.ts': cli });
    assert.deepStrictEqual(fileNames('src/cli.ts', cli, [], docCalls(files, files.read)).names, ['Cli', 'Cli.options', 'Cli.help', 'Cli.option']);
  });

  it('counts the calls of the Markdown files directly under docs/, reading no other file and none past the bound, at the first ask and once', () => {
    const files = docFiles({
      'lib/shelf.js': SHELF_JS,
      'docs/guide.md': 'Use `shelf.op28()`.\n',
      'docs/old/guide.md': 'shelf.op03(); shelf.op03();\n',
      'docs/notes.txt': 'shelf.op04();\n',
      'docs/huge.md': `shelf.op05();\n${' '.repeat(DOC_CALL_CHARS)}`,
      'src/other.md': 'shelf.op06();\n',
    });
    const calls = docCalls(files, files.read);
    assert.deepStrictEqual(files.reads, [], 'nothing read before a line asks');
    assert.deepStrictEqual(fileNames('lib/shelf.js', SHELF_JS, [], calls).names.slice(0, 4), ['Shelf', 'new Shelf', 'Shelf.op28', 'Shelf.op01']);
    fileNames('lib/shelf.js', SHELF_JS, [], calls);
    assert.deepStrictEqual(files.reads, ['docs/guide.md'], 'one read, of docs/*.md within the bound');
  });

  it("bounds the documentation read in characters, as the index counts them, not in bytes: a README of accented letters within the bound counts", async () => {
    const ws = tempDir('cape-member-chars-');
    put(ws, 'lib/shelf.js', SHELF_JS);
    // within the bound in characters, twice over it in bytes (each `ü` two bytes in UTF-8)
    const readme = `${'ü'.repeat(DOC_CALL_CHARS - 100)}\nshelf.op27();\n`;
    assert.ok(Buffer.byteLength(readme) > DOC_CALL_CHARS && readme.length <= DOC_CALL_CHARS);
    put(ws, 'README.md', readme);
    const { index } = await WorkspaceIndex.open(ws, { cacheFile: null });
    const calls = docCalls(index, (rel) => fs.readFileSync(path.join(ws, rel), 'utf8'));
    assert.strictEqual(calls('op27'), 1);
  });

  it("orders DA's library map, DevA's signed map lines and init's code map by the README's calls, the README read once for each", async () => {
    const ws = tempDir('cape-member-order-');
    put(ws, 'package.json', '{"name":"shelf"}\n');
    put(ws, 'lib/shelf.js', SHELF_JS);
    put(ws, 'lib/index.js', "export { Shelf } from './shelf.js';\nexport function openShelf(name) { return name; }\n");
    put(ws, 'README.md', SHELF_README);
    const { index } = await WorkspaceIndex.open(ws, { cacheFile: null });
    const reads: string[] = [];
    const read = (rel: string) => (reads.push(rel), fs.readFileSync(path.join(ws, rel), 'utf8'));
    const shelfLine = (text: string) => text.split('\n').find((l) => l.startsWith('lib/shelf.js — '))!;
    const calledFirst = (line: string) => /new Shelf.*, Shelf\.op27.*, Shelf\.op29.*, Shelf\.op24.*, Shelf\.op01/.test(line);
    // DA's map of a workspace without UI files: every line an interface line
    const da = packWorkspace(index, { objective: 'keep things on a shelf' }, { step: 'da', budget: 1200, readText: read });
    assert.ok(calledFirst(shelfLine(da.text)), da.text);
    assert.strictEqual(reads.filter((r) => r === 'README.md').length, 1);
    // DevA's first map lines are signed (twelve names at most: the called ones among them)
    reads.length = 0;
    const st = { budget: 2000, used: 0, readText: read, files: [] as PackedFile[], calls: docCalls(index, read) };
    const cands = [{ path: 'lib/shelf.js', score: 2 }, { path: 'lib/index.js', score: 1 }];
    const deva = packMapLines(index, cands, { objective: 'keep things on a shelf' }, st, { step: 'deva', daApi: false });
    assert.ok(calledFirst(shelfLine(deva.lines.join('\n'))), deva.lines.join('\n'));
    assert.strictEqual(reads.filter((r) => r === 'README.md').length, 1);
    // DevA's whole section reads it once too, for its excerpts and its map alike
    reads.length = 0;
    packWorkspace(index, { objective: 'keep things on a shelf' }, { step: 'deva', budget: 2000, readText: read });
    assert.ok(reads.filter((r) => r === 'README.md').length <= 1, JSON.stringify(reads));
    // init's code map
    reads.length = 0;
    const map = codePart(codeLines(index, 'keep things on a shelf', read), noSources(), 700)!;
    assert.ok(calledFirst(shelfLine(map)), map);
    assert.strictEqual(reads.filter((r) => r === 'README.md').length, 1);
    // an app without a README: source order
    fs.rmSync(path.join(ws, 'README.md'));
    const { index: app } = await WorkspaceIndex.open(ws, { cacheFile: null });
    const appMap = codePart(codeLines(app, 'keep things on a shelf', read), noSources(), 700)!;
    assert.match(shelfLine(appMap), /new Shelf[^,]*, Shelf\.op01[^,]*, Shelf\.op02/);
  });
});
