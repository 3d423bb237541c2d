// The step's tools (src/core/tools/): argument checks, the read policy on every call, the bounds per step, the
// records (never the bodies) and the wording for people.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { checkToolArgs } from '../../src/core/tools/args';
import { describeToolCall } from '../../src/core/tools/describe';
import { readLinesKept, resolveBounds, ToolRunner } from '../../src/core/tools/executor';
import { filesRead } from '../../src/core/tools/reads';
import { FOCUSED_SEARCH_HITS, MAX_SEARCH_HITS } from '../../src/core/tools/workspaceCalls';
import { LIMIT_REACHED, TOOL_NAMES, TOOL_SPECS, toolsOn } from '../../src/core/tools/specs';
import { toolBoundsFrom } from '../../src/cli/settings';
import type { ToolCall, ToolCallRecord } from '../../src/core/model/types';
import { repoRoot } from '../helpers/fixtures';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

let n = 0;
const call = (name: string, input: unknown): ToolCall => ({ id: `t${++n}`, name, input });

function workspace(): string {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-tools-'));
  const w = (rel: string, body: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), body);
  };
  w('src/app.ts', 'import { getTheme } from "./theme";\nexport const app = getTheme();\n');
  w('src/theme.ts', 'export function getTheme() {\n  return "dark";\n}\n');
  w('src/notes.md', 'one\ntwo\nthree\nfour\n');
  w('.gitignore', 'dist/\n*.log\n');
  w('dist/bundle.js', 'getTheme minified');
  w('debug.log', 'getTheme in a log');
  w('.env', 'API_KEY=secret-getTheme');
  w('cape/3_development/x.md', 'getTheme in cape');
  w('.git/config', '[core] getTheme');
  w('logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]));
  return ws;
}

describe('tools: bounds that turn them off', () => {
  it('0 calls or 0 characters of results: no tools at all (a spent budget would only answer "limit reached")', () => {
    assert.ok(toolsOn({}));
    assert.ok(toolsOn({ maxCalls: 3, maxChars: 120 }));
    assert.ok(!toolsOn({ maxCalls: 0 }));
    assert.ok(!toolsOn({ maxChars: 0 }));
    assert.strictEqual(toolBoundsFrom({ 'max-tool-chars': '0' }), false);
    assert.strictEqual(toolBoundsFrom({ 'max-tool-calls': '0', 'max-tool-chars': '500' }), false);
    assert.deepStrictEqual(toolBoundsFrom({ 'max-tool-calls': '4' }), { maxCalls: 4 });
  });
});

describe('tools: argument checks', () => {
  it('accepts the documented shapes and coerces numeric strings', () => {
    assert.deepStrictEqual(checkToolArgs('read_file', { path: 'a.ts', start_line: '2', end_line: 5 }), {
      ok: true,
      call: { tool: 'read_file', args: { path: 'a.ts', start_line: 2, end_line: 5 } },
    });
    assert.ok(checkToolArgs('list_files', undefined).ok);
    assert.ok(checkToolArgs('search_files', { query: 'x', path: 'src' }).ok);
  });

  it('an empty path means the default folder for search_files as for list_files (models fill optional fields with "")', async () => {
    assert.ok(checkToolArgs('list_files', { path: '' }).ok);
    assert.ok(checkToolArgs('search_files', { query: 'x', path: ' ' }).ok);
    const r = checkToolArgs('search_files', { query: 'x', path: '' });
    assert.ok(r.ok, r.ok ? '' : r.reason);
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-tools-empty-path-'));
    fs.writeFileSync(path.join(ws, 'a.ts'), 'export const needle = 1;\n');
    const [found] = await new ToolRunner({ workspace: ws }).execute([call('search_files', { query: 'needle', path: '' })]);
    assert.deepStrictEqual([found.isError, found.content], [false, 'a.ts:1: export const needle = 1;']);
    fs.rmSync(ws, { recursive: true, force: true });
  });

  it('refuses unknown tools, missing or wrong fields, and inverted ranges with a reason', () => {
    const reason = (name: string, input: unknown) => {
      const r = checkToolArgs(name, input);
      return r.ok ? '' : r.reason;
    };
    assert.match(reason('write_file', {}), /unknown tool "write_file"/);
    assert.match(reason('read_file', {}), /invalid arguments for read_file \(path:/);
    assert.match(reason('read_file', { path: 'a', start_line: 0 }), /start_line/);
    assert.match(reason('read_file', { path: 'a', start_line: 9, end_line: 2 }), /end_line must not be before start_line/);
    assert.match(reason('search_files', { query: '' }), /query/);
    assert.match(reason('search_files', { query: 'x'.repeat(201) }), /query/);
    assert.match(reason('list_files', { path: 7 }), /path/);
    // and what to send instead, from the tool's own definition
    assert.match(reason('read_file', { file: 'a.ts' }), /; read_file takes \{ path: string, start_line\?: integer ≥ 1, end_line\?: integer ≥ 1 \}$/);
    assert.match(reason('search_files', {}), /; search_files takes \{ query: string, path\?: string \}$/);
  });

  it('a line number is a number or a string of digits: booleans, arrays, null and hex strings are refused, not coerced', () => {
    const lineOf = (v: unknown) => {
      const r = checkToolArgs('read_file', { path: 'a.ts', start_line: v });
      return r.ok ? (r.call.args as { start_line?: number }).start_line : r.reason;
    };
    assert.strictEqual(lineOf(' 12 '), 12);
    assert.strictEqual(lineOf(7), 7);
    for (const bad of [true, [5], null, '0x10', 'two', 1.5]) assert.match(String(lineOf(bad)), /invalid arguments for read_file \(start_line: /, JSON.stringify(bad));
    assert.match(String(lineOf(null)), /expected number, received null/);
  });
});

describe('tools: execution under the read policy', () => {
  let ws: string;
  let records: ToolCallRecord[];
  let runner: ToolRunner;
  beforeEach(() => {
    ws = workspace();
    records = [];
    runner = new ToolRunner({ workspace: ws, onCall: (r) => records.push(r) });
  });
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('read_file returns the lines after their numbers (a whole file or a range) and remembers what was read', async () => {
    const [whole, range, past] = await runner.execute([
      call('read_file', { path: 'src/theme.ts' }),
      call('read_file', { path: './src/notes.md', start_line: 2, end_line: 3 }),
      call('read_file', { path: 'src/notes.md', start_line: 9 }),
    ]);
    assert.deepStrictEqual(whole, { toolUseId: whole.toolUseId, content: 'src/theme.ts, 3 line(s):\n1: export function getTheme() {\n2:   return "dark";\n3: }', isError: false });
    assert.strictEqual(range.content, 'src/notes.md lines 2–3 of 4:\n2: two\n3: three');
    assert.ok(past.isError && /has 4 lines/.test(past.content));
    assert.deepStrictEqual([...runner.readPaths].sort(), ['src/notes.md', 'src/theme.ts']);
    assert.deepStrictEqual(records[1], { id: range.toolUseId, tool: 'read_file', target: 'src/notes.md', path: 'src/notes.md', lines: [2, 3], chars: range.content.length });
  });

  it('search_files finds plain text case-insensitively as path:line: text, skipping ignored, secret, cape/, .git and binary files', async () => {
    const [hit, none, under] = await runner.execute([
      call('search_files', { query: 'GETTHEME' }),
      call('search_files', { query: 'no such text (' }),
      call('search_files', { query: 'gettheme', path: 'src/' }),
    ]);
    assert.strictEqual(
      hit.content,
      ['src/app.ts:1: import { getTheme } from "./theme";', 'src/app.ts:2: export const app = getTheme();', 'src/theme.ts:1: export function getTheme() {'].join('\n'),
    );
    assert.strictEqual(none.content, 'no matches for "no such text ("');
    assert.strictEqual(under.content, hit.content);
    assert.strictEqual(records[0].hits, 3);
    assert.strictEqual(describeToolCall('DevA', records[0]).text, 'DevA searched GETTHEME · 3 hits');
    // a search in a folder names it: two searches for one word in two folders read apart
    assert.strictEqual(describeToolCall('DevA', records[2]).text, 'DevA searched gettheme in src · 3 hits');
    // a focused search's record keeps where it hit (never the text); one with no hit keeps nothing
    assert.deepStrictEqual(records[0].found, [['src/app.ts', 1], ['src/app.ts', 2], ['src/theme.ts', 1]]);
    assert.strictEqual(records[1].found, undefined);
  });

  it('search_files shows a matching line with its indentation, as read_file does (a SEARCH hunk copied from it matches)', async () => {
    const [hit] = await runner.execute([call('search_files', { query: 'dark', path: 'src/theme.ts' })]);
    assert.strictEqual(hit.content, 'src/theme.ts:2:   return "dark";');
    fs.writeFileSync(path.join(ws, 'src', 'tabs.ts'), 'if (a) {\r\n\tif (b) {\r\n\t\tgetTheme();  \r\n\t}\r\n}\r\n');
    const [tabs] = await runner.execute([call('search_files', { query: 'gettheme', path: 'src/tabs.ts' })]);
    assert.strictEqual(tabs.content, 'src/tabs.ts:3: \t\tgetTheme();');
  });

  it('search_files with a query of several lines says a search matches within one line, never "no matches" (the text may be there)', async () => {
    const [two, crlf] = await runner.execute([
      call('search_files', { query: 'getTheme() {\n  return "dark";' }),
      call('search_files', { query: 'getTheme() {\r\n' }),
    ]);
    for (const a of [two, crlf]) {
      assert.ok(a.isError && !/no matches/.test(a.content), a.content);
      assert.match(a.content, /^refused: invalid arguments for search_files \(query: .*one line/);
    }
  });

  it('search_files keeps where it hit only for a focused search (at most FOCUSED_SEARCH_HITS hits)', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-tools-focus-'));
    fs.writeFileSync(path.join(root, 'many.ts'), Array.from({ length: FOCUSED_SEARCH_HITS + 1 }, (_, i) => `export const wide${i} = 1;`).join('\n') + '\n');
    const r = new ToolRunner({ workspace: root });
    await r.execute([call('search_files', { query: 'wide' }), call('search_files', { query: 'wide1' })]);
    assert.strictEqual(r.records[0].hits, FOCUSED_SEARCH_HITS + 1);
    assert.strictEqual(r.records[0].found, undefined);
    assert.deepStrictEqual(r.records[1].found, [['many.ts', 2], ['many.ts', 11]]);
  });

  it('search_files shows a very long matching line around the match, cut to a bounded excerpt', async () => {
    fs.writeFileSync(path.join(ws, 'src', 'min.js'), 'var a=1;'.repeat(2000) + 'getThemeFromBundle()' + ';b()'.repeat(2000) + '\n');
    const [hit] = await runner.execute([call('search_files', { query: 'getthemefrombundle', path: 'src' })]);
    const line = hit.content.split('\n').find((l) => l.startsWith('src/min.js:1: '));
    assert.ok(line, hit.content);
    assert.ok(line.includes('getThemeFromBundle()'), line);
    assert.ok(line.length < 300, `${line.length} characters`);
    assert.match(line, /^src\/min\.js:1: …[^…]*…$/);
    // a letter whose lower case is longer (Turkish İ → i̇) before the match: the excerpt still shows the match
    fs.writeFileSync(path.join(ws, 'src', 'tr.js'), `var s="${'İ'.repeat(1000)}";getThemeFromBundle();${'b()'.repeat(400)}\n`);
    const [tr] = await runner.execute([call('search_files', { query: 'getthemefrombundle', path: 'src/tr.js' })]);
    assert.match(tr.content, /^src\/tr\.js:1: …İ+";getThemeFromBundle\(\);[b()]+…$/);
  });

  it('list_files lists what the model may read, recursively', async () => {
    const [all, src] = await runner.execute([call('list_files', {}), call('list_files', { path: 'src' })]);
    // names only: a binary's name is listed (reading it is refused), ignored, secret, cape/ and .git entries are not
    assert.strictEqual(all.content, ['.gitignore', 'logo.png', 'src/app.ts', 'src/notes.md', 'src/theme.ts'].join('\n'));
    assert.strictEqual(src.content, ['src/app.ts', 'src/notes.md', 'src/theme.ts'].join('\n'));
  });

  it('list_files and search_files take the root written the Windows way (".\\") as they take "./"', async () => {
    const answers = await runner.execute(['./', '.\\', '.\\\\'].flatMap((p) => [call('list_files', { path: p }), call('search_files', { query: 'getTheme', path: p })]));
    const [list, search] = answers;
    assert.ok(!list.isError && !search.isError, `${list.content}\n${search.content}`);
    for (let i = 2; i < answers.length; i++) assert.deepStrictEqual([answers[i].isError, answers[i].content], [false, answers[i % 2].content], `call ${i}`);
  });

  it('list_files and search_files take "./." and ".//." as the root, and refuse ".." and a lone "\\"', async () => {
    const answers = await runner.execute(['./.', './/.', '..', '\\'].map((p) => call('list_files', { path: p })));
    const [dotted, doubled, up, drive] = answers;
    assert.ok(!dotted.isError && dotted.content.includes('src/app.ts'), dotted.content);
    assert.strictEqual(doubled.content, dotted.content);
    assert.ok(up.isError && drive.isError, `${up.content}\n${drive.content}`);
  });

  it('search_files matches Greek capitals whatever a final sigma lowers to (ΛΟΓΑΡΙΑΣ in ΛΟΓΑΡΙΑΣΜΟΣ)', async () => {
    fs.writeFileSync(path.join(ws, 'src', 'greek.ts'), 'export const label = "ΛΟΓΑΡΙΑΣΜΟΣ";\nexport const add = "ΠΡΟΣΘΗΚΗ";\n');
    const [word, inner] = await runner.execute([call('search_files', { query: 'ΛΟΓΑΡΙΑΣ' }), call('search_files', { query: 'προσ' })]);
    assert.strictEqual(word.content, 'src/greek.ts:1: export const label = "ΛΟΓΑΡΙΑΣΜΟΣ";');
    assert.strictEqual(inner.content, 'src/greek.ts:2: export const add = "ΠΡΟΣΘΗΚΗ";');
  });

  it('search_files says it stopped at MAX_SEARCH_HITS only when a match past it was seen', async () => {
    fs.writeFileSync(path.join(ws, 'src', 'a.md'), Array.from({ length: MAX_SEARCH_HITS }, (_, i) => `hit ${i}`).join('\n') + '\n');
    fs.writeFileSync(path.join(ws, 'src', 'b.md'), 'nothing here\n');
    const r = new ToolRunner({ workspace: ws, bounds: { maxChars: 1_000_000 } });
    const [exact] = await r.execute([call('search_files', { query: 'hit ', path: 'src' })]);
    assert.strictEqual(exact.content.split('\n').length, MAX_SEARCH_HITS, exact.content.slice(-200));
    assert.ok(!exact.content.includes('stopped at'), exact.content.slice(-200));
    fs.writeFileSync(path.join(ws, 'src', 'b.md'), 'one hit more\n');
    const [over] = await r.execute([call('search_files', { query: 'hit ', path: 'src' })]);
    assert.match(over.content, new RegExp(`\\n… \\(stopped at ${MAX_SEARCH_HITS} matches; search for something more specific\\)$`));
  });

  it('a folder reached through a symlinked folder is listed and searched where it really is, under the ignore rules of its real path', async () => {
    fs.writeFileSync(path.join(ws, '.gitignore'), 'dist/\n*.log\n/pkg/web/out/\n/pkg/web/src/private-notes.md\n');
    for (const [rel, body] of [['pkg/web/src/app.ts', 'TOKEN app'], ['pkg/web/src/private-notes.md', 'TOKEN notes'], ['pkg/web/out/bundle.js', 'TOKEN bundle']]) {
      fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
      fs.writeFileSync(path.join(ws, rel), body + '\n');
    }
    fs.symlinkSync('pkg', path.join(ws, 'alias'), 'dir');
    const [real, linked, search] = await runner.execute([call('list_files', { path: 'pkg/web' }), call('list_files', { path: 'alias/web' }), call('search_files', { query: 'TOKEN', path: 'alias/web' })]);
    assert.strictEqual(real.content, 'pkg/web/src/app.ts');
    assert.strictEqual(linked.content, 'pkg/web/src/app.ts', 'no ignored name offered through the link');
    assert.strictEqual(search.content, 'pkg/web/src/app.ts:1: TOKEN app');
  });

  it('list_files leaves out a name that is not UTF-8 on disk (it lists as no path a read finds), not one that holds U+FFFD', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-tools-latin1-'));
    // café.ts in Latin-1: the listing decodes it to caf\uFFFD.ts, which names no file
    fs.writeFileSync(Buffer.concat([Buffer.from(dir + '/caf'), Buffer.from([0xe9]), Buffer.from('.ts')]), 'export const latin1 = 1;\n');
    fs.writeFileSync(path.join(dir, 'real\uFFFD.ts'), 'export const replacement = 1;\n');
    fs.writeFileSync(path.join(dir, 'plain.ts'), 'export const plain = 1;\n');
    const r = new ToolRunner({ workspace: dir });
    const [list, read] = await r.execute([call('list_files', {}), call('read_file', { path: 'real\uFFFD.ts' })]);
    assert.strictEqual(list.content, ['plain.ts', 'real\uFFFD.ts'].join('\n'));
    assert.ok(!read.isError, read.content);
  });

  it('list_files and search_files stop after reading so many folders (a workspace of countless empty folders) or files, and say so', async () => {
    const big = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-tools-folders-'));
    fs.writeFileSync(path.join(big, 'a.ts'), 'export const needle = 1;\n');
    fs.writeFileSync(path.join(big, 'z.ts'), 'export const needle = 3;\n');
    for (let i = 0; i < 6; i++) fs.mkdirSync(path.join(big, 'empty', String(i)), { recursive: true });
    // walked after the empty folders (depth-first, a folder's files before its sub-folders, by name)
    fs.mkdirSync(path.join(big, 'late'));
    fs.writeFileSync(path.join(big, 'late', 'b.ts'), 'export const needle = 2;\n');
    const list = (dirs: number, files: number, p?: string) =>
      new ToolRunner({ workspace: big, walkBounds: { dirs, files } }).execute([call('list_files', p ? { path: p } : {}), call('search_files', { query: 'needle', ...(p ? { path: p } : {}) })]);
    // the root, empty/ and 3 of its 6 folders
    const [byDirs, searchByDirs] = await list(5, 100);
    assert.strictEqual(byDirs.content, 'a.ts\nz.ts\n… (stopped after reading 5 folders; list a sub-folder)');
    assert.strictEqual(searchByDirs.content, 'a.ts:1: export const needle = 1;\nz.ts:1: export const needle = 3;\n… (stopped after reading 5 folders; search a sub-folder)');
    const [byFiles, searchByFiles] = await list(100, 1);
    assert.strictEqual(byFiles.content, 'a.ts\n… (stopped after looking at 1 files; list a sub-folder)');
    assert.match(searchByFiles.content, /^a\.ts:1: .*\n… \(stopped after looking at 1 files; search a sub-folder\)$/);
    const [whole, searchWhole] = await list(9, 3);
    assert.strictEqual(whole.content, 'a.ts\nz.ts\nlate/b.ts', 'a walk within the bounds says nothing of them');
    assert.strictEqual(searchWhole.content.split('\n').length, 3, searchWhole.content);
    const [sub] = await list(1, 1, 'late');
    assert.strictEqual(sub.content, 'late/b.ts');
  });

  it('list_files past MAX_LIST_LINES counts the files of deeper folders, at the deepest level that fits', async () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-tools-data-'));
    const w = (rel: string) => {
      fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
      fs.writeFileSync(path.join(ws, rel), 'x\n');
    };
    w('README.md');
    w('src/pkg/parser.py');
    w('tests/test_parser.py');
    for (let i = 0; i < 320; i++) w(`tests/data/valid/case${String(i).padStart(3, '0')}.toml`);
    for (let i = 0; i < 150; i++) w(`tests/data/invalid/array/bad${String(i).padStart(3, '0')}.toml`);
    w('tests/data/invalid/one.toml');
    const found: ToolCallRecord[] = [];
    const r = new ToolRunner({ workspace: ws, onCall: (rec) => found.push(rec) });
    const [root, data] = await r.execute([call('list_files', {}), call('list_files', { path: 'tests/data' })]);
    // depth 3 would list valid/'s 320 files; depth 2 fits: src/pkg/parser.py is listed, valid/ and invalid/ counted
    assert.strictEqual(
      root.content,
      [
        'README.md',
        'src/pkg/parser.py',
        'tests/test_parser.py',
        'tests/data/invalid/ — 151 file(s)',
        'tests/data/valid/ — 320 file(s)',
        "… (474 files in all, each folder's files before its sub-folders; files more than 2 folder(s) down are counted per folder; list_files on one of them shows its files)",
      ].join('\n'),
    );
    assert.strictEqual(found.find((x) => x.path === '.')?.hits, 474, 'the record counts every file found');
    // below tests/data the depth is counted from the listed folder
    assert.strictEqual(data.content, ['tests/data/invalid/ — 151 file(s)', 'tests/data/valid/ — 320 file(s)', "… (471 files in all, each folder's files before its sub-folders; the files of each sub-folder are counted per folder; list_files on one of them shows its files)"].join('\n'));
    // a single folder of more files than fit: the first ones, and how many were left out
    const flat = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-tools-flat-'));
    for (let i = 0; i < 310; i++) fs.writeFileSync(path.join(flat, `f${String(i).padStart(3, '0')}.txt`), 'x');
    const [f] = await new ToolRunner({ workspace: flat }).execute([call('list_files', {})]);
    assert.strictEqual(f.content.split('\n').length, 301);
    assert.match(f.content, /^f000\.txt\n[\s\S]*f299\.txt\n… \(310 files in all, each folder's files before its sub-folders; 10 more line\(s\) left out; list a sub-folder\)$/);
  });

  it('search_files searches one file when its path names a file, under the same read rules', async () => {
    const [one, none, secret] = await runner.execute([
      call('search_files', { query: 'getTheme', path: 'src/theme.ts' }),
      call('search_files', { query: 'nothing here', path: 'src/theme.ts' }),
      call('search_files', { query: 'API_KEY', path: '.env' }),
    ]);
    assert.strictEqual(one.content, 'src/theme.ts:1: export function getTheme() {');
    assert.strictEqual(none.content, 'no matches for "nothing here" in src/theme.ts');
    assert.ok(secret.isError && /^refused: /.test(secret.content), secret.content);
    assert.doesNotMatch(secret.content, /secret-getTheme/);
  });

  it('search_files in one file the read policy refuses says why, never "no matches" (the file may hold the text)', async () => {
    fs.writeFileSync(path.join(ws, 'src', 'huge.ts'), 'export const getTheme = 1;\n' + '/'.repeat(1024 * 1024));
    fs.writeFileSync(path.join(ws, 'src', 'data.bin'), Buffer.from('getTheme\0\x01'));
    fs.mkdirSync(path.join(ws, 'config'));
    fs.writeFileSync(path.join(ws, 'config', 'credentials.json'), '{"getTheme":"secret-getTheme"}');
    fs.writeFileSync(path.join(ws, 'id_rsa'), 'secret-getTheme');
    const answers = await runner.execute(['src/huge.ts', 'src/data.bin', 'config/credentials.json', 'id_rsa'].map((p) => call('search_files', { query: 'getTheme', path: p })));
    const [huge, bin, creds, key] = answers.map((a) => a.content);
    for (const a of answers) assert.ok(a.isError && /^refused: /.test(a.content) && !/no matches|secret-getTheme/.test(a.content), a.content);
    assert.match(huge, /src\/huge\.ts is 1\.1 MB, over the 1 MB limit/);
    assert.match(bin, /src\/data\.bin is a binary file/);
    assert.match(creds, /config\/credentials\.json: secret file/);
    // a file's own name is judged as a file's, not as a folder's ("id_rsa/ holds credentials")
    assert.match(key, /^refused: id_rsa: secret file/);
    assert.deepStrictEqual(
      records.map((r) => [r.target, !!r.refused, r.hits]),
      ['src/huge.ts', 'src/data.bin', 'config/credentials.json', 'id_rsa'].map((p) => [p, true, undefined]),
    );
  });

  it('refuses ../, absolute, symlink-out, .git/config, .env, ignored, cape/, binary, oversized and folder reads — each with why, no byte of them', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-outside-'));
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'OUTSIDE-BYTES');
    fs.symlinkSync(outside, path.join(ws, 'linked'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'src', 'link.txt'));
    fs.writeFileSync(path.join(ws, 'big.txt'), 'x'.repeat(1024 * 1024 + 1));
    const cases: [unknown, RegExp][] = [
      [{ path: '../x' }, /"\.\." segments are not allowed/],
      [{ path: path.join(outside, 'secret.txt') }, /absolute path/],
      [{ path: 'linked/secret.txt' }, /outside the workspace/],
      [{ path: 'src/link.txt' }, /symbolic link/],
      [{ path: '.git/config' }, /\.git/],
      [{ path: '.env' }, /secret file/],
      [{ path: 'debug.log' }, /ignored by \.gitignore/],
      [{ path: 'dist/bundle.js' }, /ignored by \.gitignore/],
      [{ path: 'cape/3_development/x.md' }, /team's context/],
      [{ path: 'logo.png' }, /binary/],
      [{ path: 'big.txt' }, /big\.txt is 1\.1 MB, over the 1 MB limit$/],
      [{ path: 'src' }, /is a folder/],
    ];
    const answers = await new ToolRunner({ workspace: ws, bounds: { maxCalls: 50 } }).execute(cases.map(([input]) => call('read_file', input)));
    answers.forEach((a, i) => {
      assert.ok(a.isError, `call ${i} should be refused`);
      assert.match(a.content, cases[i][1]);
      assert.ok(!/OUTSIDE-BYTES|secret-getTheme|\[core\]|getTheme in|PNG|xxxx/.test(a.content), `no byte of the refused file in ${a.content}`);
    });
    const dirs = await runner.execute([call('list_files', { path: '.git' }), call('search_files', { query: 'a', path: 'linked' }), call('list_files', { path: 'cape' })]);
    assert.ok(dirs.every((d) => d.isError));
    assert.match(dirs[0].content, /\.git/);
    assert.match(dirs[1].content, /symbolic link/);
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('a symlinked folder inside the workspace leads where its target leads: not into cape/, a credentials folder or an ignored one', async () => {
    fs.mkdirSync(path.join(ws, 'keys', '.aws'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'keys', '.aws', 'config'), 'aws-key-bytes');
    fs.symlinkSync(path.join(ws, 'cape'), path.join(ws, 'src', 'team'), 'dir');
    fs.symlinkSync(path.join(ws, 'keys', '.aws'), path.join(ws, 'src', 'cloud'), 'dir');
    fs.mkdirSync(path.join(ws, 'dist', 'sub'));
    fs.writeFileSync(path.join(ws, 'dist', 'sub', 'chunk.js'), 'minified');
    fs.symlinkSync(path.join(ws, 'dist'), path.join(ws, 'src', 'built'), 'dir');
    fs.symlinkSync(path.join(ws, 'src'), path.join(ws, 'code'), 'dir');
    const r = new ToolRunner({ workspace: ws, bounds: { maxCalls: 50 } });
    const answers = await r.execute([
      call('read_file', { path: 'src/team/3_development/x.md' }),
      call('read_file', { path: 'src/cloud/config' }),
      call('read_file', { path: 'src/built/bundle.js' }),
      call('list_files', { path: 'src/team/3_development' }),
      call('search_files', { query: 'minified', path: 'src/built/sub' }),
      call('read_file', { path: 'code/theme.ts' }), // a link to an ordinary folder still reads
    ]);
    const [cape, cloud, built, list, search, fine] = answers;
    assert.match(cape.content, /^refused: .*team's context/);
    assert.match(cloud.content, /^refused: .*credentials/);
    assert.match(built.content, /^refused: .*ignored by \.gitignore/);
    assert.match(list.content, /^refused: .*team's context/);
    assert.match(search.content, /^refused: .*ignored by \.gitignore/);
    for (const a of [cape, cloud, built, list, search]) assert.ok(a.isError && !/getTheme in|aws-key-bytes|minified/.test(a.content), a.content);
    assert.ok(!fine.isError && fine.content.startsWith('code/theme.ts, 3 line(s):\n1: export function getTheme'), fine.content);
  });

  it('refusals of reads say why and what to do, in words that fit a read (the path rules are shared with writing)', async () => {
    fs.symlinkSync(path.join(ws, 'src', 'theme.ts'), path.join(ws, 'src', 'alias.ts'));
    const answers = await runner.execute([
      call('read_file', { path: '.GIT/config' }),
      call('read_file', { path: 'cape/5_sessions/s1/record.json' }),
      call('read_file', { path: 'src/alias.ts' }),
      call('read_file', { path: 'src/../.env' }),
      call('read_file', { path: '~/.bashrc' }),
      call('read_file', { path: '\\\\server\\share\\x' }),
    ]);
    const [git, sessions, link, dots, home, unc] = answers.map((a) => a.content);
    for (const c of answers.map((a) => a.content)) assert.doesNotMatch(c, /writing inside|write through|cannot be written/, c);
    assert.match(git, /\.git\/ holds the repository/);
    assert.match(sessions, /5_sessions\/ holds the session records/);
    assert.match(link, /symbolic link.*use the path it leads to, src\/theme\.ts$/);
    for (const c of [dots, home, unc]) assert.match(c, /use a workspace-relative path/, c);
  });

  it('a refused call with a path far past the length limit (a model\'s text in the path field) is recorded shortened, not verbatim', async () => {
    const huge = 'export const x = 1;'.repeat(5000);
    const answers = await runner.execute([
      call('read_file', { path: huge }),
      call('list_files', { path: huge }),
      call('search_files', { query: 'x', path: huge }),
    ]);
    for (const a of answers) assert.match(a.content, /^refused: path is too long \(95000 characters, limit 1024\)/);
    for (const r of records) {
      assert.ok(r.refused, JSON.stringify(r).slice(0, 300));
      assert.ok(r.target.length <= 1025 && (r.path ?? '').length <= 1025, `a record of ${JSON.stringify(r).length} characters`);
      assert.ok(r.target.startsWith('export const x = 1;') && r.target.endsWith('…'), r.target.slice(-40));
      assert.ok(describeToolCall('DevA', r).text.length < 2000);
    }
  });

  it('read_file of a path written as search_files shows a hit ("src/notes.md:3") says how to read from that line', async () => {
    const [hit, colon, secret] = await runner.execute([
      call('read_file', { path: 'src/notes.md:3' }),
      call('read_file', { path: 'src/notes.md:3:' }),
      call('read_file', { path: '.env:1' }),
    ]);
    for (const a of [hit, colon]) {
      assert.ok(a.isError, a.content);
      assert.match(a.content, /; to read from line 3, call read_file with path "src\/notes\.md" and start_line 3$/);
    }
    assert.ok(secret.isError && !/start_line/.test(secret.content), secret.content);
  });

  it('bounds: past maxCalls every call gets "limit reached"; results are cut at maxChars in call order', async () => {
    const small = new ToolRunner({ workspace: ws, bounds: { maxCalls: 3, maxChars: 120 }, onCall: (r) => records.push(r) });
    assert.strictEqual(small.usedText(), '[Tools used in this step: 0 of 3 calls, 0 of 120 characters of results.]');
    const answers = await small.execute([
      call('read_file', { path: 'src/theme.ts' }), // 81 chars
      call('read_file', { path: 'src/app.ts' }), // cut at the 39 left
      call('read_file', { path: 'src/notes.md' }), // budget used up
      call('list_files', {}), // past maxCalls
    ]);
    assert.strictEqual(answers[0].content.length, 81);
    assert.match(answers[1].content, /^src\/app\.ts, 2 line\(s\):\n1: import \{ getT\n\[… cut here: the step's tool budget of 120 characters is used up/);
    assert.deepStrictEqual(answers.slice(2).map((a) => [a.content, a.isError]), [[LIMIT_REACHED, true], [LIMIT_REACHED, true]]);
    assert.ok(small.spent());
    assert.strictEqual(small.usedChars, 120);
    assert.strictEqual(small.usedText(), '[Tools used in this step: 3 of 3 calls, 120 of 120 characters of results — the budget is spent: write your answer now.]');
    assert.deepStrictEqual(records.map((r) => [!!r.truncated, !!r.limited]), [[false, false], [true, false], [false, true], [false, true]]);
    assert.strictEqual(describeToolCall('DevA', records[3]).tone, 'warning');
    // the next turn gets nothing either
    const later = await small.execute([call('read_file', { path: 'src/theme.ts' })]);
    assert.strictEqual(later[0].content, LIMIT_REACHED);
  });

  it('a result cut at the budget (at a line break short of it) leaves the budget used up, as its note says', async () => {
    fs.writeFileSync(path.join(ws, 'src', 'lines.md'), 'aaaaaaaaa\n'.repeat(10));
    const small = new ToolRunner({ workspace: ws, bounds: { maxChars: 55 } });
    const [cut, next] = await small.execute([call('read_file', { path: 'src/lines.md' }), call('read_file', { path: 'src/notes.md' })]);
    assert.match(cut.content, /^src\/lines\.md, 10 line\(s\):\n 1: a{9}\n 2: a{9}\n\[… cut here: the step's tool budget of 55 characters is used up — limit reached/);
    assert.deepStrictEqual([next.content, next.isError], [LIMIT_REACHED, true]);
    assert.ok(small.spent(), 'the next turn forbids tools');
    const [later] = await small.execute([call('list_files', {})]);
    assert.strictEqual(later.content, LIMIT_REACHED);
    // and so it is for the same step resumed from these records (session/keptReply.ts)
    const resumed = new ToolRunner({ workspace: ws, bounds: { maxChars: 55 } });
    resumed.restore(small.records, small.readPaths);
    assert.ok(resumed.spent());
  });

  it('a file read cut at the budget records the lines the model got whole, not the lines it asked for', async () => {
    fs.writeFileSync(path.join(ws, 'src', 'ten.md'), Array.from({ length: 10 }, (_, i) => `line ${i + 1} xx`).join('\n') + '\n');
    const whole = new ToolRunner({ workspace: ws, bounds: { maxChars: 96 } });
    const [a] = await whole.execute([call('read_file', { path: 'src/ten.md' })]);
    assert.match(a.content, /^src\/ten\.md, 10 line\(s\):\n 1: line 1 xx\n 2: line 2 xx\n 3: line 3 xx\n 4: line 4 xx\n 5: line 5 xx\n\[… cut here/);
    assert.deepStrictEqual(whole.records[0].lines, [1, 5]);
    assert.deepStrictEqual(filesRead(whole.records), [{ path: 'src/ten.md', lines: [[1, 5]] }], 'read in part, not whole');
    const ranged = new ToolRunner({ workspace: ws, bounds: { maxChars: 60 } });
    const [b] = await ranged.execute([call('read_file', { path: 'src/ten.md', start_line: 4 })]);
    assert.match(b.content, /^src\/ten\.md lines 4–10 of 10:\n 4: line 4 xx\n 5: line 5 xx\n/);
    const kept = ranged.records[0].lines!;
    assert.strictEqual(kept[0], 4);
    assert.ok(kept[1] < 10 && b.content.includes(`line ${kept[1]} xx\n`) && !b.content.includes(`line ${kept[1] + 1} xx`), JSON.stringify(kept));
    // nothing whole: no lines, and not taken for a whole read either
    const tiny = new ToolRunner({ workspace: ws, bounds: { maxChars: 5 } });
    await tiny.execute([call('read_file', { path: 'src/ten.md' })]);
    assert.strictEqual(tiny.records[0].lines, undefined);
    assert.deepStrictEqual(filesRead(tiny.records), []);
    assert.deepStrictEqual(filesRead([{ id: 'old', tool: 'read_file', target: 'src/ten.md', path: 'src/ten.md', chars: 40, truncated: true }]), [], 'a cut whole read recorded before');
  });

  it('a search cut at the budget records only the hits the model got whole', async () => {
    for (const f of ['one', 'two', 'three']) fs.writeFileSync(path.join(ws, 'src', `${f}.md`), 'needle\n');
    const r = new ToolRunner({ workspace: ws, bounds: { maxChars: 40 } });
    const [cut] = await r.execute([call('search_files', { query: 'needle', path: 'src' })]);
    assert.match(cut.content, /^src\/one\.md:1: needle\nsrc\/three\.md:1: n/);
    assert.deepStrictEqual(r.records[0].found, [['src/one.md', 1]]);
    const none = new ToolRunner({ workspace: ws, bounds: { maxChars: 10 } });
    await none.execute([call('search_files', { query: 'needle', path: 'src' })]);
    assert.strictEqual(none.records[0].found, undefined, 'no hit whole');
  });

  it('an unknown tool with a name far past the length limit is answered and recorded with the name shortened', async () => {
    const name = 'x'.repeat(200_000);
    const [a] = await runner.execute([call(name, {})]);
    assert.ok(a.isError && a.content.length < 2_000 && !a.content.includes('x'.repeat(100)), String(a.content.length));
    assert.ok(records[0].tool.length < 100);
  });

  it('readLinesKept: whole lines only, a line ending in the cut or at the end of the file, CRLF too', () => {
    const f = 'f, 3 line(s):\n';
    assert.deepStrictEqual(readLinesKept(`${f}1: a\n2: b\n3: c`, `${f}1: a\n2: b`, undefined), [1, 2]);
    assert.deepStrictEqual(readLinesKept(`${f}1: a\n2: b\n3: c`, `${f}1: a\n2: b\n3: c`, undefined), [1, 3]);
    assert.deepStrictEqual(readLinesKept(`${f}1: a\r\n2: bb\r\n3: c`, `${f}1: a\r\n2: b`, undefined), [1, 1]);
    assert.deepStrictEqual(readLinesKept(`${f}1: a\r\n2: bb\r\n3: c`, `${f}1: a\r\n2: bb`, undefined), [1, 2]);
    assert.deepStrictEqual(readLinesKept(`${f}1: abc`, `${f}1: ab`, undefined), null);
    assert.deepStrictEqual(readLinesKept(`${f}1: abc`, 'f, 3 li', undefined), null, 'not even the heading');
    assert.deepStrictEqual(readLinesKept('f lines 7–9 of 9:\nx\ny\nz', 'f lines 7–9 of 9:\nx\ny', [7, 9]), [7, 8]);
    assert.deepStrictEqual(readLinesKept('f lines 7–9 of 9:\nx\ny\nz', 'f lines 7–9', [7, 9]), null);
  });

  it('a result cut at the budget never ends in half of a surrogate pair (a request with one is rejected as invalid JSON)', async () => {
    fs.writeFileSync(path.join(ws, 'src', 'emoji.md'), 'ok 😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀\n');
    const small = new ToolRunner({ workspace: ws, bounds: { maxChars: 'src/emoji.md, 1 line(s):\n1: '.length + 10 } });
    const [a] = await small.execute([call('read_file', { path: 'src/emoji.md' })]);
    assert.match(a.content, /^src\/emoji\.md, 1 line\(s\):\n1: ok 😀😀😀\n\[… cut here/);
    assert.doesNotMatch(a.content, LONE_SURROGATE);
  });

  it('40 calls in one turn: 12 are answered (in parallel), the other 28 get "limit reached"', async () => {
    const calls = Array.from({ length: 40 }, () => call('read_file', { path: 'src/theme.ts' }));
    const answers = await runner.execute(calls);
    assert.strictEqual(answers.filter((a) => !a.isError).length, 12);
    assert.strictEqual(answers.filter((a) => a.content === LIMIT_REACHED).length, 28);
    assert.deepStrictEqual(answers.map((a) => a.toolUseId), calls.map((c) => c.id));
  });

  it('bad arguments are refused results, not crashes; bounds fall back to the defaults', async () => {
    const [a] = await runner.execute([call('delete_everything', { path: 'x' })]);
    assert.ok(a.isError && /unknown tool/.test(a.content));
    // a name an object literal answers to (Object.prototype's) is unknown too, not a crash of the step
    const proto = await runner.execute(['constructor', 'toString', '__proto__', 'hasOwnProperty'].map((n) => call(n, { path: 'x' })));
    assert.deepStrictEqual(proto.map((r) => r.isError && /unknown tool/.test(r.content)), [true, true, true, true]);
    assert.deepStrictEqual(resolveBounds({ maxCalls: -1, maxChars: 1.5 }), { maxCalls: 12, maxChars: 80000 });
    assert.deepStrictEqual(resolveBounds({ maxCalls: 3 }), { maxCalls: 3, maxChars: 80000 });
  });

  it('the unknown-tool answer names every tool of TOOL_SPECS, the one list of them', () => {
    const names = TOOL_SPECS.map((t) => t.name);
    assert.deepStrictEqual(TOOL_NAMES, names);
    const r = checkToolArgs('delete_everything', {});
    assert.ok(!r.ok);
    assert.strictEqual(r.reason, `unknown tool "delete_everything"; the tools are ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`);
    for (const n of names) assert.ok(r.reason.includes(n), n);
    // the static texts that cannot be built from the list name every tool too
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { description?: string }> } } };
    const maxCalls = pkg.contributes.configuration.properties['cape.tools.maxCalls']?.description ?? '';
    for (const n of names) assert.ok(maxCalls.includes(n), `package.json cape.tools.maxCalls names ${n}`);
  });

  it('describes calls for people', () => {
    assert.deepStrictEqual(describeToolCall('DevA', { id: 'x', tool: 'read_file', target: 'src/app.ts', chars: 2150 }), { text: 'DevA read src/app.ts · 2.1 KB', tone: 'ok' });
    assert.strictEqual(describeToolCall('DevA', { id: 'x', tool: 'read_file', target: 'a.ts', chars: 812 }).text, 'DevA read a.ts · 812 B');
    assert.strictEqual(describeToolCall('DevA', { id: 'x', tool: 'read_file', target: 'a.ts', chars: 1024 * 1024 }).text, 'DevA read a.ts · 1 MB');
    assert.deepStrictEqual(describeToolCall('DA', { id: 'x', tool: 'read_file', target: '.env', chars: 0, refused: 'secret file' }), { text: 'DA read .env — refused: secret file', tone: 'warning' });
    // a made-up tool named like an Object property is "called", never Object's own function text
    for (const tool of ['constructor', '__proto__', 'toString']) {
      assert.strictEqual(describeToolCall('DevA', { id: 'x', tool, target: 'a', chars: 0, refused: 'unknown tool' }).text, `DevA called ${tool} a — refused: unknown tool`);
    }
  });
});
