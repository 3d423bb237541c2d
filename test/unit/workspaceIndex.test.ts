// The workspace index, its symbols and imports, the ranking and the budgeted map DevA and DA receive.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
// the module object itself (the namespace import's properties are read-only getters), to fake a failing open
import fsModule from 'fs';
import * as os from 'os';
import * as path from 'path';
import { splitIdentifier, termSpellings, terms } from '../../src/core/workspace/tokens';
import { scanFile, scanMembers } from '../../src/core/workspace/symbols';
import { isUiFile } from '../../src/core/workspace/fileKinds';
import { filesByStem, isTestFile, nameStem } from '../../src/core/workspace/testFiles';
import { defaultCacheFile, WorkspaceIndex } from '../../src/core/workspace/workspaceIndex';
import { rankFiles } from '../../src/core/workspace/rank';
import { racyRead } from '../../src/core/workspace/fileRead';
import { packWorkspace } from '../../src/core/workspace/pack';
import { ascending } from '../../src/core/text/ascending';
import { HistoryWatch, recencyFromLog } from '../../src/core/workspace/history';
import { TermIndex } from '../../src/core/workspace/termIndex';
import { Vocabulary, wordMarks } from '../../src/core/workspace/vocabulary';
import { CACHE_VERSION, SECTIONS } from '../../src/core/workspace/indexCache';
import { DIGEST_BYTES } from '../../src/core/workspace/cacheDigest';
import { FIELD_CONTENT, FIELD_PATH, FIELD_SYMBOLS, POSTING_SHIFT, postingChunks } from '../../src/core/workspace/termPostings';
import { joinRelative } from '../../src/core/workspace/specPath';

function write(root: string, rel: string, content: string | Buffer): void {
  const abs = path.join(root, ...rel.split('/'));
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
}

/** Runs a command; false when it is missing or fails (an optional part of a test is then skipped). */
function spawnOk(cmd: string, args: string[]): boolean {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function tmp(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A small app: a theme module, its test, a settings page using it, unrelated utilities. */
function demoWorkspace(): string {
  const root = tmp('cape-index-');
  write(root, 'package.json', '{"name":"demo"}\n');
  write(root, '.gitignore', 'dist/\n');
  write(root, 'src/theme/themeStore.ts', [
    "import { readSetting } from '../settings/storage';",
    'export type ThemeName = "light" | "dark";',
    'export interface ThemeState { name: ThemeName }',
    'export function getTheme(): ThemeName { return (readSetting("theme") as ThemeName) ?? "light"; }',
    'export function setTheme(name: ThemeName): void { /* persists the dark mode choice */ }',
    '',
  ].join('\n'));
  write(root, 'src/settings/storage.ts', 'export function readSetting(key: string): string | null { return localStorage.getItem(key); }\nexport const SETTINGS_PREFIX = "app.";\n');
  write(root, 'src/pages/SettingsPage.tsx', "import { getTheme, setTheme } from '../theme/themeStore';\nexport default function SettingsPage() { return <button onClick={() => setTheme('dark')}>{getTheme()}</button>; }\n");
  write(root, 'test/themeStore.test.ts', "import { getTheme } from '../src/theme/themeStore.js';\ndescribe('theme', () => { it('defaults', () => getTheme()); });\n");
  write(root, 'src/utils/math.ts', 'export function clamp(x: number, lo: number, hi: number) { return Math.min(hi, Math.max(lo, x)); }\n');
  write(root, 'src/utils/date.ts', 'export function formatDate(d: Date): string { return d.toISOString(); }\n');
  write(root, 'src/styles/app.css', '.button { color: red; }\n.dark-mode { background: black; }\n');
  write(root, 'dist/bundle.js', 'function getTheme(){}');
  write(root, '.env', 'THEME_SECRET=do-not-send');
  write(root, 'logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
  write(root, 'cape/1_product/1_mvv.md', '# theme theme theme');
  ageFiles(root);
  return root;
}

/**
 * Sets every file's and folder's mtime a minute back: a file or folder changed within a clock step of a read is read
 * (listed) again by the next run, whose counts would then depend on how fast the test ran. The utimes moves the
 * ctimes to now, which no call can set back: this waits a fine clock's step (fileRead.ts racyStamp) past them.
 */
function ageFiles(root: string): void {
  const past = new Date(Date.now() - 60_000);
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(dir, e.name));
      else if (e.isFile()) fs.utimesSync(path.join(dir, e.name), past, past);
    }
    fs.utimesSync(dir, past, past);
  };
  walk(root);
  pastRacyWindow();
}

/** Waits past a fine clock's step (fileRead.ts racyRead: 50 ms) after the last change made. */
function pastRacyWindow(): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60);
}

describe('workspace tokens', () => {
  it('splits camelCase, PascalCase, snake_case, acronyms and digits', () => {
    assert.deepStrictEqual(splitIdentifier('getThemeColor'), ['get', 'theme', 'color']);
    assert.deepStrictEqual(splitIdentifier('MAX_FILE_BYTES'), ['max', 'file', 'bytes']);
    assert.deepStrictEqual(splitIdentifier('parseHTTPHeaders2'), ['parse', 'http', 'headers', '2']);
    assert.deepStrictEqual(splitIdentifier('kebab-case-name'), ['kebab', 'case', 'name']);
  });
  it("reads an acronym's plural as the acronym, so a request's \"URLs\" meets the code's url (any script)", () => {
    assert.deepStrictEqual(splitIdentifier('URLs'), ['url']);
    assert.deepStrictEqual(splitIdentifier('parseURLsFor2'), ['parse', 'url', 'for', '2']);
    assert.deepStrictEqual(splitIdentifier('APIs_list'), ['api', 'list']);
    assert.deepStrictEqual(splitIdentifier('IDs'), ['id']);
    assert.deepStrictEqual(splitIdentifier('HTTPServer'), ['http', 'server'], 'a capital run before a word is still cut');
    assert.deepStrictEqual(splitIdentifier('HTTPSettings'), ['http', 'settings']);
    assert.deepStrictEqual(splitIdentifier('IDsort'), ['i', 'dsort'], 'an s that starts a word is no plural');
    assert.deepStrictEqual(splitIdentifier('getBs'), ['get', 'bs'], 'one capital is no acronym');
    assert.deepStrictEqual(splitIdentifier('ÉTATs'), ['état']);
    assert.deepStrictEqual(splitIdentifier(`é${'B'.repeat(100_000)}s`), [`é${'b'.repeat(100_000)}`], 'linear on a long run');
    for (const [request, term] of [['Strip tracking params from URLs', 'url'], ['accept IDs', 'id'], ['list the APIs', 'api']]) {
      assert.ok(terms(request).includes(term), `${request}: ${terms(request).join(' ')}`);
    }
    assert.ok(terms('normalizeURL').includes('url'));
  });
  it('splits a word with a long run of capitals or underscores in one pass (files and replies are untrusted)', () => {
    // splitAny's /([A-Z]+)([A-Z][a-z])/g tried each start of a run of capitals (9 s at this size, for a word with a
    // letter beyond ASCII), and termSpellings' /[_$]+$/ each start of a run of underscores
    assert.deepStrictEqual(splitIdentifier(`éA${'B'.repeat(100_000)}Cd`), [`éa${'b'.repeat(100_000)}`, 'cd']);
    assert.deepStrictEqual(terms(`é${'A'.repeat(100_000)}Bc`), ['bc'], 'a part over 40 letters is no term');
    assert.deepStrictEqual([...termSpellings(`_save${'_'.repeat(100_000)}Theme$`)], [['save', 'save'], ['theme', 'theme']]);
    assert.deepStrictEqual(splitIdentifier('ÉTATFinal'), ['état', 'final']);
  });
  it('stems and drops stop words so a request meets identifiers', () => {
    const t = terms('The user should be able to toggle themes; adding headers to requests');
    assert.ok(t.includes('theme') && t.includes('header') && t.includes('request') && t.includes('add'), t.join(' '));
    assert.ok(!t.includes('the') && !t.includes('should'));
    assert.ok(terms('getThemeColor').includes('getthemecolor'), 'the whole identifier is a term too');
  });
  it('the index holds exactly the terms() of a path, its symbols and its content (words split in place, any script)', () => {
    // deterministic pseudo-random text over letters that exercise every rule: case runs, digits, `_`, `$`, `-`,
    // stop words, one-letter parts, long words, non-ASCII letters (İ lower-cases to two characters), astral ones
    let seed = 7;
    const next = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const pieces = ['a', 'Z', 'x', 'Y', '_', '$', '0', '9', '-', '.', ' ', '\n', 'é', 'İ', 'ß', '日本', '𝒳', 'get', 'The', 'HTTPServer', '__init__', 'Ids', 'running', 'class', 'ab'.repeat(25)];
    const rnd = (n: number) => Array.from({ length: n }, () => pieces[Math.floor(next() * pieces.length)]).join('');
    const index = new TermIndex();
    const cases: [string, string[], string][] = [
      ['src/app/getThemeColor.ts', ['getThemeColor', 'MAX_FILE_BYTES', 'parseHTTPHeaders2'], `export const $el = _private_ + a1b2 + snake_case_name + ÜberCamelCase + 2fa + x_y;\n${'k'.repeat(40)} ${'m'.repeat(41)} ${'Ab'.repeat(20)} ${'Cd'.repeat(21)} _${'e_'.repeat(20)}\n`],
    ];
    for (let i = 0; i < 300; i++) cases.push([`r${i}/${rnd(4)}.ts`, [rnd(3), rnd(2)], rnd(120)]);
    const asSet = (xs: string[]) => [...new Set(xs)].sort();
    for (const [rel, symbols, content] of cases) {
      // twice: the second time every word comes from the memo of raw words
      for (let round = 0; round < 2; round++) {
        index.set(rel, symbols, content);
        const got = index.termsOf(rel)!;
        const pathTerms = terms(rel);
        const symbolTerms = terms(symbols.join(' '));
        assert.deepStrictEqual(asSet(got.path), asSet(pathTerms), rel);
        assert.deepStrictEqual(asSet(got.symbols), asSet(symbolTerms), rel);
        assert.deepStrictEqual(asSet(got.content), asSet([...pathTerms, ...symbolTerms, ...terms(content)]), rel);
        assert.strictEqual(got.content.length, new Set(got.content).size, 'each term once');
      }
    }
  });
});

/** A vocabulary serialised as the cache file stores it. */
function stored(words: string) {
  const bytes = Buffer.from(words, 'utf8');
  return { bytes, marks: wordMarks(bytes) };
}

describe('text index', () => {
  /** Deterministic files over a small vocabulary, so files share terms and scores differ. */
  const vocab = 'theme dark mode user account invoice export pdf parse header cache store query filter sort page route'.split(' ');
  const fileOf = (i: number, round: number): [string, string[], string] => {
    const w = (k: number) => vocab[(i * 7 + k * 3 + round) % vocab.length];
    return [`src/m${i % 17}/${w(1)}${i}.ts`, [`${w(2)}${w(3)}`, `get${w(4)}`], Array.from({ length: 30 + (i % 40) }, (_, k) => `${w(k)}_${w(k + 1)} ${w(k + 2)}`).join(' ')];
  };
  const same = (a: TermIndex, b: TermIndex, rels: string[]) => {
    for (const rel of rels) assert.deepStrictEqual(a.termsOf(rel), b.termsOf(rel), rel);
    for (const q of ['dark theme', 'export invoice pdf', 'user account cache', 'sort filter page route']) {
      const read = (rel: string) => fileOf(Number(/(\d+)\.ts$/.exec(rel)![1]), 0)[2];
      const sa = [...a.scores(q, { path: 3, symbols: 2, content: 1 }, read)].sort();
      const sb = [...b.scores(q, { path: 3, symbols: 2, content: 1 }, read)].sort();
      assert.deepStrictEqual(sa, sb, q);
    }
  };

  it('after many changes (re-indexed, deleted, compacted) holds and scores what a fresh build of the same files does, and so does its restored copy', () => {
    const live = new Map<string, [string, string[], string]>();
    const index = new TermIndex();
    // 350 files (all of them stage-2 candidates: no tie at the cut decides) of 100-200 ids, re-indexed over 30 rounds:
    // the arena passes its compaction threshold several times
    for (let round = 0; round < 30; round++) {
      for (let i = 0; i < 350; i++) {
        if ((i + round) % 5 === 0) {
          const f = fileOf(i, 0);
          index.delete(f[0]);
          live.delete(f[0]);
        } else if ((i * (round + 1)) % 3 !== 1 || round === 0) {
          // the same path with another round's content (round 0's is set back at the end: `read` returns that one)
          const f = fileOf(i, 0);
          index.set(f[0], f[1], fileOf(i, round)[2]);
          live.set(f[0], f);
        }
      }
    }
    for (const f of live.values()) index.set(...f);
    const fresh = new TermIndex();
    for (const f of live.values()) fresh.set(...f);
    const rels = [...live.keys()];
    assert.strictEqual(index.size, fresh.size);
    same(index, fresh, rels);
    // serialised in another order than the index holds its Docs (a copy), and in its own (the arena as it is)
    for (const order of [[...rels].reverse(), rels]) {
      const data = index.serialize(order);
      const back = new TermIndex();
      assert.ok(back.restore({ words: stored(data.words), docs: new Uint32Array(data.docs), df: new Int32Array(data.df), totalLen: data.totalLen }, order));
      same(back, fresh, rels);
      // a restored index takes changes too (its arena is a view of the cache file until then)
      const [rel, symbols, content] = fileOf(501, 0);
      back.set(rel, symbols, content);
      fresh.set(rel, symbols, content);
      same(back, fresh, [...rels, rel]);
      back.delete(rel);
      fresh.delete(rel);
    }
  });

  /** An index of the first n files of round 0, and their paths in order. */
  const indexOfFiles = (n: number) => {
    const index = new TermIndex();
    const rels: string[] = [];
    for (let i = 0; i < n; i++) {
      const f = fileOf(i, 0);
      index.set(...f);
      rels.push(f[0]);
    }
    return { index, rels };
  };

  it('inverts the Docs into postings: per term, the files in order with their fields, in pieces of any size', () => {
    const { index, rels } = indexOfFiles(60);
    const data = index.serialize(rels);
    const whole = [...postingChunks(data.docs, data.df)];
    assert.strictEqual(whole.length, 1);
    // the expected postings from termsOf(): file order within each term, a bit per field
    const expected: number[] = [];
    const ids = new Map<string, number>();
    const back = new TermIndex();
    assert.ok(back.restore({ words: stored(data.words), docs: new Uint32Array(data.docs), df: new Int32Array(data.df), totalLen: data.totalLen }, rels));
    const words = data.words.split('\n');
    words.forEach((w, id) => ids.set(w, id));
    const byTerm: number[][] = words.map(() => []);
    rels.forEach((rel, file) => {
      const t = back.termsOf(rel)!;
      for (const w of t.content) {
        const fields = FIELD_CONTENT | (t.path.includes(w) ? FIELD_PATH : 0) | (t.symbols.includes(w) ? FIELD_SYMBOLS : 0);
        byTerm[ids.get(w)!].push((file << POSTING_SHIFT) | fields);
      }
    });
    for (const list of byTerm) expected.push(...list);
    assert.deepStrictEqual([...whole[0]], expected);
    // pieces of a few entries (each at least one whole term): the same entries back to back
    const pieces = [...postingChunks(data.docs, data.df, 7)];
    assert.ok(pieces.length > 10);
    assert.deepStrictEqual(pieces.flatMap((p) => [...p]), expected);
  });

  it('refuses a damaged serialised index: bounds, term ids, length', () => {
    const { index, rels } = indexOfFiles(50);
    const good = index.serialize(rels);
    const restored = (docs: Uint32Array, paths = rels, df = new Int32Array(good.df)) => new TermIndex().restore({ words: stored(good.words), docs, df, totalLen: good.totalLen }, paths);
    assert.ok(restored(new Uint32Array(good.docs)));
    const broken = (edit: (d: Uint32Array) => void) => {
      const d = new Uint32Array(good.docs);
      edit(d);
      return d;
    };
    assert.ok(!restored(broken((d) => (d[d.length - 1] = 1 << 30))), 'a term id past the vocabulary');
    assert.ok(!restored(broken((d) => (d[0] = d.length + 10))), 'a Doc past the end');
    assert.ok(!restored(broken((d) => (d[2] = 1000))), 'a field past its Doc');
    assert.ok(!restored(broken((d) => (d[0] = 2))), 'a Doc shorter than its head');
    assert.ok(!restored(new Uint32Array(good.docs.subarray(0, good.docs.length - 1))), 'truncated');
    assert.ok(!restored(new Uint32Array(good.docs), rels.slice(1)), 'more Docs than paths');
    assert.ok(!restored(new Uint32Array(good.docs), [...rels, 'extra.ts']), 'fewer Docs than paths');
    const df = (edit: (d: Int32Array) => void) => {
      const d = new Int32Array(good.df);
      edit(d);
      return d;
    };
    assert.ok(!restored(new Uint32Array(good.docs), rels, df((d) => d[0]++)), 'frequencies that do not add up');
    assert.ok(!restored(new Uint32Array(good.docs), rels, new Int32Array(good.df.subarray(1))), 'frequencies of another vocabulary');
    assert.ok(!restored(new Uint32Array(good.docs), rels, df((d) => ((d[0] = -1), (d[1] += good.df[0] + 1)))), 'a negative frequency');
    const marks = (edit: (m: Uint32Array) => Uint32Array) => {
      const w = stored(good.words);
      return new TermIndex().restore({ words: { bytes: w.bytes, marks: edit(new Uint32Array(w.marks)) }, docs: new Uint32Array(good.docs), df: new Int32Array(good.df), totalLen: good.totalLen }, rels);
    };
    assert.ok(!marks((m) => m.subarray(1)), 'vocabulary marks missing');
    assert.ok(!marks((m) => ((m[0] = 3), m)), 'a vocabulary mark not at a term');
  });

  it('looks terms up in the stored vocabulary as the decoded one does: past the marks, non-ASCII, added terms', () => {
    // 3,000 terms (marks every 1,024), some of them non-ASCII, so byte and character offsets differ
    const words = Array.from({ length: 3000 }, (_, i) => (i % 7 === 3 ? `größe${i}` : i % 11 === 5 ? `変換${i}` : `term${i}`));
    const bytes = Buffer.from(words.join('\n'), 'utf8');
    const fresh = () => {
      const v = new Vocabulary();
      assert.ok(v.restore({ bytes, marks: wordMarks(bytes) }, words.length));
      return v;
    };
    const v = fresh();
    for (const i of [0, 1, 3, 5, 1023, 1024, 1025, 2047, 2048, 2999]) assert.strictEqual(v.get(words[i]), i, words[i]);
    for (const miss of ['term', 'term30000', 'erm1', 'größe', '']) assert.strictEqual(v.get(miss), undefined, miss);
    assert.strictEqual(v.idOf('brandneu'), 3000);
    assert.strictEqual(v.get('brandneu'), 3000);
    assert.strictEqual(v.term(2998), words[2998]);
    assert.strictEqual(v.get(words[2999]), 2999, 'after decoding');
    assert.strictEqual(v.serialize(), words.join('\n') + '\nbrandneu');
    // past the scan budget the table answers the same ids
    const t = fresh();
    for (let r = 0; r < 2; r++) for (let i = 0; i < words.length; i += 3) assert.strictEqual(t.get(words[i]), i);
    assert.ok(!new Vocabulary().restore({ bytes, marks: wordMarks(bytes) }, words.length + 1024), 'marks for fewer terms');
  });
});

describe('symbol extraction', () => {
  it('takes TS/JS top-level symbols, exported first, and import specifiers', () => {
    const r = scanFile('src/a.ts', [
      "import { x } from './x';",
      "import type { Y } from '../types/y';",
      "import './side-effect';",
      'import {',
      '  a,',
      "} from './multi';",
      "export * from './reexport';",
      "const lazy = () => import('./lazy');",
      "const cjs = require('./cjs');",
      'export default class Widget {}',
      'export async function load() {}',
      'export interface Options { a: number }',
      'export type Mode = "a";',
      'export const enum Flag { A }',
      'export const LIMIT = 3;',
      'export { helper as publicHelper, other };',
      'function helper() {}',
      'function other() {}',
      '/*',
      'export function commented() {}',
      '*/',
      '  export function nested() {}',
    ].join('\n'));
    assert.deepStrictEqual(r.symbols, ['Widget', 'load', 'Options', 'Mode', 'Flag', 'LIMIT', 'publicHelper', 'other', 'helper']);
    assert.deepStrictEqual(r.imports.sort(), ['../types/y', './cjs', './lazy', './multi', './reexport', './side-effect', './x']);
  });
  it('reads CommonJS exports', () => {
    const r = scanFile('lib/utils.js', "module.exports = { merge, forEach: each };\nexports.isArray = isArray;\nfunction merge() {}\n");
    assert.deepStrictEqual(r.symbols, ['merge', 'forEach', 'isArray']);
  });
  it('lists the members of classes and of top-level object literals apart from the symbols', () => {
    const text = [
      'export class Queue extends Base {',
      '  #items = [];',
      '  limit?: number;',
      '  static readonly DEFAULT = 3;',
      '  constructor(limit) {',
      '    super();',
      '    const inner = { notMember: 1 };',
      '  }',
      '  /**',
      '   * drain(): not a member, a comment',
      '   */',
      '  // pause(): not one either',
      '  @logged',
      '  async *drain<T>(n: T) {',
      '    if (n) {',
      '      return;',
      '    }',
      '  }',
      '  get size() { return 0; }',
      '}',
      'function build() {',
      '  class Local {',
      '    reset() {}',
      '  }',
      '  const hidden = {',
      '    insideFunction() {},',
      '  };',
      '}',
      'module.exports = {',
      '  build,',
      "  'quoted': 1,",
      '  create: function () {},',
      '  async load(path) {',
      '    return { nested: path };',
      '  },',
      '};',
      'const api = {',
      '\tretry: (n) => n,',
      '};',
    ].join('\n');
    assert.deepStrictEqual(scanMembers('src/queue.ts', text), ['items', 'limit', 'DEFAULT', 'drain', 'size', 'reset', 'build', 'quoted', 'create', 'load', 'retry']);
    // the symbols (index, map lines) stay top-level
    assert.deepStrictEqual(scanFile('src/queue.ts', text).symbols, ['Queue', 'build']);
    assert.deepStrictEqual(scanMembers('app.py', 'class A:\n    def run(self): pass\n'), []);
  });
  it('falls back to plain declarations for other languages, headings for markdown, selectors for CSS', () => {
    assert.deepStrictEqual(scanFile('app.py', 'import os\nclass Store:\n    def inner(self): pass\ndef main():\n    pass\nasync def fetch():\n  pass\n').symbols, ['Store', 'main', 'fetch']);
    assert.deepStrictEqual(scanFile('main.go', 'package main\nfunc (s *Server) Serve() {}\nfunc main() {}\ntype Server struct {}\n').symbols, ['Server.Serve', 'Server', 'main']);
    assert.deepStrictEqual(scanFile('lib.rs', 'pub fn parse() {}\npub(crate) struct Node;\nimpl Node {}\n').symbols, ['parse', 'Node']);
    assert.deepStrictEqual(scanFile('README.md', '# Demo\n```\n# not a heading\n```\n## Install\n').symbols, ['Demo', 'Install']);
    // the one set of Markdown rules (text/markdown.ts): a longer fence is closed only by one as long, a '#' ending a
    // word is part of the title, headings below level 3 and code indented by 4 spaces are not parts
    assert.deepStrictEqual(
      scanFile('docs/guide.md', '## Using C#\n````\n```\n# inside\n````\n#### Deep\n    # indented code\n### Setup ###\n').symbols,
      ['Using C#', 'Setup'],
    );
    const css = scanFile('a.scss', "@import './vars';\n.btn { }\n.card, .x {}\n  .nested {}\n");
    assert.deepStrictEqual(css.symbols, ['btn', 'card']);
    assert.deepStrictEqual(css.imports, ['./vars']);
  });
  it('pairs a source and its test by each language\'s convention', () => {
    for (const [a, b] of [
      ['src/parser.ts', 'test/parser.test.ts'],
      ['pkg/parser.py', 'tests/test_parser.py'],
      ['pkg/parser.py', 'pkg/parser_test.py'],
      ['internal/parser.go', 'internal/parser_test.go'],
      ['lib/parser.rb', 'spec/parser_spec.rb'],
      ['lib/parser.rb', 'lib/parser_test.rb'],
      ['src/version.rs', 'tests/test_version.rs'],
      ['src/version.rs', 'src/version_tests.rs'],
      ['src/parser.c', 'tests/test_parser.c'],
      ['src/parser.cpp', 'src/parser_test.cpp'],
    ]) {
      assert.strictEqual(nameStem(a), nameStem(b), `${a} ~ ${b}`);
      assert.ok(isTestFile(b) && !isTestFile(a), `${b} is the test of ${a}`);
    }
    for (const name of ['pkg/parser_test.py', 'pkg/test_parser.py', 'parser_test.go', 'lib/parser_spec.rb']) assert.ok(isTestFile(name), name);
    for (const name of ['pkg/latest.py', 'pkg/Test_parser.py', 'pkg/test_.py', 'contest.go', 'lib/inspect.rb', 'src/parser_test.ts']) assert.ok(!isTestFile(name), name);
    assert.strictEqual(nameStem('tests/test_.py'), 'test_');
    assert.strictEqual(nameStem('src/test_utils.ts'), 'test_utils', 'the Python prefix only for Python');
    assert.ok(!isTestFile('src/latest.rs') && !isTestFile('src/contest.rs') && isTestFile('src/parser_test.rs'));
    // a C suite named for what it is: a test, no subject's twin
    assert.ok(isTestFile('tests.c') && isTestFile('test.cpp') && !isTestFile('latest.c') && !isTestFile('contest.h'));
    assert.strictEqual(nameStem('tests.c'), 'tests');
  });

  it('finds the files of the stems asked for as a grouping of every file by nameStem does', () => {
    const paths = [
      'src/parser.ts', 'test/Parser.test.ts', 'pkg/parser.py', 'tests/test_parser.py', 'pkg/parser_test.py', 'internal/parser_test.go',
      'lib/parser_spec.rb', 'src/version.rs', 'tests/test_version.rs', 'src/version_tests.rs', 'src/test_utils.ts', 'tests/test_.py',
      'src/README', 'src/.env.d.ts', 'docs/parser.md', 'src/TEST_Utils.TS', 'src/subparser.ts', 'lib/PARSER.rb', 'src/Parser/index.ts',
      'src/ẞtraße.ts', 'test/straße.test.ts', 'src/İndex.ts', 'src/i̇ndex.py', 'src/a+b.ts', 'test/A+B.spec.ts',
    ];
    const all = new Map<string, string[]>();
    for (const p of paths) all.set(nameStem(p), [...(all.get(nameStem(p)) ?? []), p]);
    const stems = new Set(['parser', 'version', 'test_utils', 'test_', 'readme', '.env', 'nothing', 'ßtraße', 'i̇ndex', 'a+b', 'index']);
    const got = filesByStem(paths, stems);
    assert.deepStrictEqual([...got.keys()].sort(), [...stems].filter((s) => all.has(s)).sort());
    for (const [stem, files] of got) assert.deepStrictEqual(files, all.get(stem), stem);
    assert.strictEqual(filesByStem(paths, new Set()).size, 0);
  });

  it('takes paths in the order sort() gives them, however many are taken', () => {
    const words = ['a', 'B', 'b/', 'a/b', 'é', 'ẞ', '\u{1F600}', '\uFFFD', '.', '_', 'a.ts', 'A.ts', '10', '9'];
    let seed = 11;
    const pick = () => words[(seed = (seed * 1103515245 + 12345) % 2147483648) % words.length];
    const paths = [...new Set(Array.from({ length: 400 }, () => Array.from({ length: 1 + (seed % 4) }, pick).join('/')))];
    const sorted = [...paths].sort();
    assert.deepStrictEqual([...ascending([...paths])], sorted);
    const first: string[] = [];
    for (const p of ascending([...paths])) if (first.push(p) === 7) break;
    assert.deepStrictEqual(first, sorted.slice(0, 7));
    assert.deepStrictEqual([...ascending([])], []);
  });

  it('joins a relative specifier to its file\'s folder exactly as path.posix.normalize(join(dirname)) does', () => {
    const segs = ['a', 'b', '.', '..', '', 'x.ts', '...', '.hidden', 'index', '..a'];
    let seed = 7;
    const pick = () => segs[(seed = (seed * 1103515245 + 12345) % 2147483648) % segs.length];
    const froms = ['a.ts', 'src/a.ts', 'src/deep/er/a.ts', '.github/x.ts', 'a/b/c/d/e.ts'];
    for (let i = 0; i < 3000; i++) {
      const from = froms[i % froms.length];
      const n = 1 + (i % 5);
      const spec = (i % 2 ? './' : '../') + Array.from({ length: n }, pick).join('/') + (i % 7 === 0 ? '/' : '');
      const want = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)).replace(/(.)\/$/, '$1');
      assert.strictEqual(joinRelative(from, spec), want.replace(/^\.\/$/, '.'), `${from} + ${spec}`);
    }
    for (const [from, spec] of [['a.ts', '.'], ['a.ts', '..'], ['src/a.ts', './'], ['src/a.ts', '../'], ['src/a.ts', '../..']]) {
      assert.strictEqual(joinRelative(from, spec), path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)).replace(/(.)\/$/, '$1'), `${from} + ${spec}`);
    }
  });

  it('recognises UI files', () => {
    assert.ok(isUiFile('src/components/Button.ts'));
    assert.ok(isUiFile('src/App.tsx'));
    assert.ok(isUiFile('styles/main.scss'));
    assert.ok(!isUiFile('src/server/db.ts'));
    // not the product's own screens: examples, demos, fixtures, docs, tests
    // nor test support, mock servers and Storybook's stories (a React app's trial), benchmarks or fuzz targets
    for (const p of ['example/yargs.html', 'examples/react/App.tsx', 'demo/index.html', 'test/fixtures/page.html', 'docs/theme/main.css', 'src/components/Button.test.tsx', '__tests__/App.jsx', 'src/testing/test-utils.tsx', 'src/__mocks__/Icon.tsx', 'src/mocks/handlers.tsx', 'src/components/ui/button/button.stories.tsx', '.storybook/preview.tsx', 'src/Card.story.jsx', 'benches/report.html', 'fuzz/App.tsx', 'src/components/Grid.bench.tsx']) {
      assert.ok(!isUiFile(p), p);
    }
    assert.ok(isUiFile('packages/web/src/pages/Home.vue'));
  });
});

describe('workspace index', () => {
  it('reads an indexed file for ranking as a build reads it: no symlink swapped in, no FIFO, nothing past the limit', async () => {
    const root = tmp('cape-readindexed-');
    const outside = tmp('cape-readindexed-out-');
    for (const name of ['a', 'b', 'c', 'd']) write(root, `src/${name}.ts`, `export const ${name}Value = 1;\n`);
    write(outside, 'secret.ts', 'export const zanzibarToken = 1;\n');
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null, maxBytes: 1000 });
    assert.strictEqual(index.readIndexed('src/a.ts'), 'export const aValue = 1;\n');
    fs.rmSync(path.join(root, 'src/b.ts'));
    fs.symlinkSync(path.join(outside, 'secret.ts'), path.join(root, 'src/b.ts'));
    assert.strictEqual(index.readIndexed('src/b.ts'), null, 'a symlink swapped in is not followed');
    write(root, 'src/c.ts', 'x'.repeat(1001));
    assert.strictEqual(index.readIndexed('src/c.ts'), null, 'grown past the size limit');
    if (process.platform !== 'win32' && spawnOk('true', [])) {
      fs.rmSync(path.join(root, 'src/d.ts'));
      execFileSync('mkfifo', [path.join(root, 'src/d.ts')]);
      assert.strictEqual(index.readIndexed('src/d.ts'), null, 'a FIFO swapped in is not waited on');
    }
    assert.strictEqual(index.readIndexed('src/none.ts'), null, 'not indexed');
  });

  it('indexes what the policy admits, with symbols and resolved imports', async () => {
    const root = demoWorkspace();
    const { index, stats, fromCache } = await WorkspaceIndex.open(root, { cacheFile: null });
    assert.strictEqual(fromCache, false);
    const paths = [...index.all()].map((f) => f.path).sort();
    assert.deepStrictEqual(paths, [
      '.gitignore',
      'package.json',
      'src/pages/SettingsPage.tsx',
      'src/settings/storage.ts',
      'src/styles/app.css',
      'src/theme/themeStore.ts',
      'src/utils/date.ts',
      'src/utils/math.ts',
      'test/themeStore.test.ts',
    ]);
    assert.strictEqual(stats.read, paths.length + 1, 'logo.png was read once, found binary');
    const theme = index.get('src/theme/themeStore.ts')!;
    assert.deepStrictEqual(theme.symbols, ['ThemeName', 'ThemeState', 'getTheme', 'setTheme']);
    assert.deepStrictEqual(theme.imports, ['src/settings/storage.ts']);
    assert.deepStrictEqual(index.get('test/themeStore.test.ts')!.imports, ['src/theme/themeStore.ts'], './x.js names x.ts');
    assert.deepStrictEqual(index.importersOf('src/theme/themeStore.ts').sort(), ['src/pages/SettingsPage.tsx', 'test/themeStore.test.ts']);
  });

  it("resolves Python imports to the workspace's modules and packages: relative, absolute from a folder above, from src/", async () => {
    const root = tmp('cape-index-py-');
    const files: Record<string, string> = {
      'src/shop/__init__.py': 'from .app import create_app\n',
      'src/shop/app.py': 'from shop.db import models\nfrom .views import cart\nimport json\n',
      'src/shop/db/__init__.py': '',
      'src/shop/db/models.py': 'class Order: ...\n',
      'src/shop/views/__init__.py': '',
      'src/shop/views/cart.py': 'from ..db.models import Order\n',
      'tests/test_cart.py': 'from shop.views.cart import add\nimport shop\n',
    };
    for (const [rel, body] of Object.entries(files)) write(root, rel, body);
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const imports = (p: string) => index.get(p)!.imports;
    assert.deepStrictEqual(imports('src/shop/__init__.py'), ['src/shop/app.py']);
    assert.deepStrictEqual(imports('src/shop/app.py'), ['src/shop/db/__init__.py', 'src/shop/db/models.py', 'src/shop/views/__init__.py', 'src/shop/views/cart.py']);
    assert.deepStrictEqual(imports('src/shop/views/cart.py'), ['src/shop/db/models.py']);
    assert.deepStrictEqual(imports('tests/test_cart.py'), ['src/shop/views/cart.py', 'src/shop/__init__.py']);
    assert.deepStrictEqual(index.importersOf('src/shop/views/cart.py').sort(), ['src/shop/app.py', 'tests/test_cart.py']);
    // a module added later is resolved by the files that name it
    fs.writeFileSync(path.join(root, 'src', 'shop', 'views', 'add.py'), 'x = 1\n');
    fs.writeFileSync(path.join(root, 'tests', 'test_cart.py'), 'from shop.views.cart import add\nfrom shop.views import add\n');
    await index.refresh();
    assert.deepStrictEqual(imports('tests/test_cart.py'), ['src/shop/views/cart.py', 'src/shop/views/__init__.py', 'src/shop/views/add.py']);
  });

  it("resolves Go imports to the non-test files of the workspace's packages, under the go.mod whose module path prefixes them", async () => {
    const root = tmp('cape-index-go-');
    const files: Record<string, string> = {
      'go.mod': 'module example.com/app\n\ngo 1.22\n',
      'internal/store/store.go': 'package store\n\nfunc Save() {}\n',
      'internal/store/load.go': 'package store\n\nfunc Load() {}\n',
      'internal/store/store_test.go': 'package store\n\nimport "testing"\n',
      'cmd/app/main.go': 'package main\n\nimport (\n\t"fmt"\n\tst "example.com/app/internal/store"\n\t_ "example.com/app/tools/gen"\n)\n',
      'tools/go.mod': 'module example.com/app/tools\n',
      'tools/gen/gen.go': 'package gen\n\nimport "example.com/app/internal/store"\n',
      'api.go': 'package app\n',
      'api_test.go': 'package app_test\n\nimport app "example.com/app"\n',
    };
    for (const [rel, body] of Object.entries(files)) write(root, rel, body);
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const imports = (p: string) => [...index.get(p)!.imports].sort();
    assert.deepStrictEqual(imports('cmd/app/main.go'), ['internal/store/load.go', 'internal/store/store.go', 'tools/gen/gen.go'], 'the nested module owns tools/');
    assert.deepStrictEqual(imports('tools/gen/gen.go'), ['internal/store/load.go', 'internal/store/store.go']);
    assert.deepStrictEqual(imports('api_test.go'), ['api.go'], "the module's root package");
    assert.deepStrictEqual(imports('internal/store/store_test.go'), [], 'the standard library is no workspace file');
    assert.deepStrictEqual(index.importersOf('internal/store/load.go').sort(), ['cmd/app/main.go', 'tools/gen/gen.go']);
    // a file added to a package, and one to the root package, are resolved by the files that import them
    fs.writeFileSync(path.join(root, 'internal', 'store', 'cache.go'), 'package store\n');
    fs.writeFileSync(path.join(root, 'client.go'), 'package app\n');
    await index.refresh();
    assert.deepStrictEqual(imports('cmd/app/main.go'), ['internal/store/cache.go', 'internal/store/load.go', 'internal/store/store.go', 'tools/gen/gen.go']);
    assert.deepStrictEqual(imports('api_test.go'), ['api.go', 'client.go']);
    // a go.mod renaming the module: its old import paths name nothing
    fs.writeFileSync(path.join(root, 'go.mod'), 'module example.com/renamed\n');
    await index.refresh();
    assert.deepStrictEqual(imports('cmd/app/main.go'), ['tools/gen/gen.go']);
  });

  it('resolves C and C++ `#include "…"`: from the including folder, the root, else the nearest file of that path; `<…>` names none', async () => {
    const root = tmp('cape-index-c-');
    const files: Record<string, string> = {
      'include/app/str.h': '#pragma once\nint str_len(const char *s);\n',
      'src/str.c': '#include "app/str.h"\n#include <stdio.h>\n',
      'src/io/file.h': 'int file_open(void);\n',
      'src/io/file.c': '# include "file.h"\n#include "../str.h"\n',
      'src/main.c': '#include "io/file.h"\n#include "str.h"\n#include "missing.h"\n#include "util.h"\n',
      'src/common/util.h': '',
      'tools/util.h': '/* another util.h, farther from src/ */\n',
      'tests/test_str.cpp': '#include "str.h"\n',
    };
    for (const [rel, body] of Object.entries(files)) write(root, rel, body);
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const imports = (p: string) => index.get(p)!.imports;
    assert.deepStrictEqual(imports('src/str.c'), ['include/app/str.h'], 'a build\'s include folder; the system header is none');
    assert.deepStrictEqual(imports('src/io/file.c'), ['src/io/file.h'], 'the including folder first; ../str.h names no file');
    assert.deepStrictEqual(imports('src/main.c'), ['src/io/file.h', 'include/app/str.h', 'src/common/util.h'], 'the util.h nearest to src/');
    assert.deepStrictEqual(imports('tests/test_str.cpp'), ['include/app/str.h']);
    assert.deepStrictEqual(index.importersOf('src/io/file.h').sort(), ['src/io/file.c', 'src/main.c']);
    // a header added beside the includer is what the compiler finds first
    write(root, 'src/str.h', 'int str_len(const char *s);\n');
    await index.refresh();
    assert.deepStrictEqual(imports('src/main.c'), ['src/io/file.h', 'src/str.h', 'src/common/util.h']);
    assert.deepStrictEqual(imports('src/io/file.c'), ['src/io/file.h', 'src/str.h']);
  });

  it('indexes no name a workspace-relative path cannot address: every indexed path passes the read check', async function () {
    // names POSIX allows and the path rules refuse (a newline would also break a map line in two)
    if (process.platform === 'win32') this.skip();
    const root = tmp('cape-index-names-');
    const odd = ['src/new\nline.ts', 'src/tab\there.ts', 'src/back\\slash.ts', 'src/colon:name.ts', 'src/what?.ts', 'src/dot.ts.', 'dir./in.ts', 'sub/.git', 'src/zero\u200bwidth.ts', '~top.ts'];
    // Windows device names are files like others off Windows (the Linux kernel has aux.c); only creating one is refused
    const fine = ['src/with space.ts', 'src/#hash.ts', 'src/!bang.ts', 'src/-dash.ts', 'src/café.ts', 'src/trail .ts', 'src/~tilde.ts', 'src/aux.ts', 'nul/in.ts'];
    for (const rel of [...odd, ...fine]) write(root, rel, 'export const oddNameValue = 1;\n');
    // a path longer than the read check takes
    write(root, `${'long-folder-name/'.repeat(70)}deep.ts`, 'export const deepValue = 1;\n');
    const cacheFile = path.join(tmp('cape-index-names-cache-'), 'i.idx');
    for (const run of ['built', 'warm']) {
      const { index } = await WorkspaceIndex.open(root, { cacheFile });
      const paths = [...index.all()].map((f) => f.path);
      for (const p of paths) assert.ok(index.policy.check(p).ok, `${run}: ${JSON.stringify(p)} is indexed but refused by the read check`);
      assert.deepStrictEqual(paths.sort(), [...fine].sort(), run);
      assert.strictEqual(index.policy.excluded('src/what?.ts') !== null, true, 'excluded() says why');
    }
  });

  it("at a repository's top, sees on a warm run that .git/info/exclude changed, and then walks from the records again", async () => {
    const top = tmp('cape-index-exclude-');
    fs.mkdirSync(path.join(top, '.git', 'info'), { recursive: true });
    write(top, 'src/a.ts', 'export const aValue = 1;\n');
    write(top, 'notes/todo.md', '# todo\n');
    ageFiles(top);
    const cacheFile = path.join(tmp('cape-index-exclude-cache-'), 'i.idx');
    const open = async () => {
      const { index, stats } = await WorkspaceIndex.open(top, { cacheFile });
      return { paths: [...index.all()].map((f) => f.path).sort(), listed: stats.listed };
    };
    assert.deepStrictEqual((await open()).paths, ['notes/todo.md', 'src/a.ts']);
    assert.strictEqual((await open()).listed, 0, 'warm: the folder records hold');
    write(top, '.git/info/exclude', 'notes/\n');
    const changed = await open();
    assert.deepStrictEqual(changed.paths, ['src/a.ts'], 'the new rule applies although no walked folder changed');
    assert.ok(changed.listed > 0, 'the folders were listed again');
    assert.strictEqual((await open()).listed, 0, 'and the next run trusts the new records');
  });

  it('in a folder of a git repository, applies the .gitignore files above it as git does, and sees when they change', async () => {
    const top = tmp('cape-index-inrepo-');
    fs.mkdirSync(path.join(top, '.git', 'info'), { recursive: true });
    write(top, '.git/info/exclude', 'local-notes.md\n');
    write(top, '.gitignore', 'dist/\n/packages/app/gen.ts\n*.log\n!keep.log\nscratch/\n');
    write(top, 'packages/.gitignore', 'coverage/\n');
    const ws = path.join(top, 'packages', 'app');
    for (const rel of ['src/a.ts', 'dist/out.js', 'gen.ts', 'src/gen.ts', 'debug.log', 'keep.log', 'coverage/lcov.js', 'local-notes.md']) write(ws, rel, 'export const inRepoValue = 1;\n');
    ageFiles(top);
    const cacheFile = path.join(tmp('cape-index-inrepo-cache-'), 'i.idx');
    const paths = async (root: string) => [...(await WorkspaceIndex.open(root, { cacheFile })).index.all()].map((f) => f.path).sort();
    assert.deepStrictEqual(await paths(ws), ['keep.log', 'src/a.ts', 'src/gen.ts']);
    // a rule added above the workspace applies on the next run (the folders below did not change)
    write(top, '.gitignore', 'dist/\n/packages/app/gen.ts\n*.log\n!keep.log\nscratch/\npackages/app/src/gen.ts\n');
    assert.deepStrictEqual(await paths(ws), ['keep.log', 'src/a.ts']);
    // a workspace opened inside an ignored folder is the user's choice: the rules above it do not empty it
    write(top, 'scratch/try.ts', 'export const scratchValue = 1;\n');
    assert.deepStrictEqual(await paths(path.join(top, 'scratch')), ['try.ts']);
    // no repository above: a .gitignore above the workspace is not git's
    const loose = tmp('cape-index-loose-');
    write(loose, '.gitignore', '*.ts\n');
    write(loose, 'ws/a.ts', 'export const looseValue = 1;\n');
    assert.deepStrictEqual(await paths(path.join(loose, 'ws')), ['a.ts']);
  });

  it('does not index its own cache file when the cache folder is inside the workspace (a run does not read it back)', async () => {
    const root = demoWorkspace();
    const cacheFile = path.join(root, '.cache', 'cape', 'index.idx');
    const first = await WorkspaceIndex.open(root, { cacheFile });
    for (let run = 2; run <= 3; run++) {
      const again = await WorkspaceIndex.open(root, { cacheFile });
      assert.strictEqual(again.stats.read, 0, `run ${run}: nothing re-read (the cache file is not a workspace file)`);
      assert.strictEqual(again.index.size, first.index.size);
    }
    // the same through a symlink to the workspace
    const link = path.join(tmp('cape-own-cache-link-'), 'ws');
    fs.symlinkSync(root, link, 'dir');
    assert.strictEqual((await WorkspaceIndex.open(link, { cacheFile: path.join(link, '.cache', 'cape', 'index.idx') })).stats.read, 0);
  });

  it('remembers a file it cannot read (no permission): a warm run neither tries it again nor rewrites its cache, until its mode changes', async () => {
    const root = tmp('cape-index-unreadable-');
    write(root, 'src/a.ts', 'export const openValue = 1;\n');
    write(root, 'src/locked.ts', 'export const lockedValue = 1;\n');
    write(root, 'src/later.ts', 'export const laterValue = 1;\n');
    ageFiles(root);
    const locked = path.join(root, 'src', 'locked.ts');
    const cacheFile = path.join(tmp('cape-index-unreadable-cache-'), 'i.idx');
    // as a user without read permission sees them (the tests may run as root, which reads anything)
    const openSync = fsModule.openSync;
    const fsw = fsModule as { openSync: typeof fs.openSync };
    fsw.openSync = ((p: fs.PathLike, ...rest: unknown[]) => {
      if (String(p) === locked) throw Object.assign(new Error(`EACCES: permission denied, open '${String(p)}'`), { code: 'EACCES' });
      return (openSync as (...a: unknown[]) => number)(p, ...rest);
    }) as typeof fs.openSync;
    try {
      const first = await WorkspaceIndex.open(root, { cacheFile });
      assert.deepStrictEqual([...first.index.all()].map((f) => f.path).sort(), ['src/a.ts', 'src/later.ts']);
      const written = fs.statSync(cacheFile).ino;
      const second = await WorkspaceIndex.open(root, { cacheFile });
      assert.strictEqual(second.stats.read, 0, 'not tried again');
      assert.strictEqual(fs.statSync(cacheFile).ino, written, 'the cache is not rewritten');
    } finally {
      fsw.openSync = openSync;
    }
    // readable again: a chmod changes only the ctime, and the next run reads it
    fs.chmodSync(path.join(root, 'src', 'locked.ts'), 0o600);
    const third = await WorkspaceIndex.open(root, { cacheFile });
    assert.deepStrictEqual([...third.index.all()].map((f) => f.path).sort(), ['src/a.ts', 'src/later.ts', 'src/locked.ts']);
  });

  it('admits only regular files within the size limit, whether a file was stat\'ed by the walk or when it was read', async () => {
    const root = tmp('cape-index-kinds-');
    write(root, 'src/a.ts', 'export const a = 1;\n');
    write(root, 'src/big.ts', `export const big = "${'x'.repeat(3000)}";\n`);
    write(root, 'outside.ts', 'export const secretOutside = 1;\n');
    fs.symlinkSync(path.join(root, 'outside.ts'), path.join(root, 'src/link.ts'));
    const fifo = process.platform !== 'win32' && spawnOk('mkfifo', [path.join(root, 'src/pipe.ts')]);
    const cacheFile = path.join(tmp('cape-index-kinds-cache-'), 'i.idx');
    const first = await WorkspaceIndex.open(root, { cacheFile, maxBytes: 2048 });
    assert.deepStrictEqual([...first.index.all()].map((f) => f.path).sort(), ['outside.ts', 'src/a.ts']);
    assert.strictEqual(first.stats.read, 2, 'the over-size file, the symlink and the FIFO are not read');
    if (fifo) assert.ok(!first.index.get('src/pipe.ts'));
    // a known file that grows past the limit, or is replaced by a symlink, leaves the index on the next walk
    const later = new Date(Date.now() + 5000);
    write(root, 'src/a.ts', `export const a = "${'y'.repeat(3000)}";\n`);
    fs.utimesSync(path.join(root, 'src/a.ts'), later, later);
    fs.rmSync(path.join(root, 'outside.ts'));
    fs.symlinkSync(path.join(root, 'src/big.ts'), path.join(root, 'outside.ts'));
    const second = await WorkspaceIndex.open(root, { cacheFile, maxBytes: 2048 });
    assert.strictEqual(second.fromCache, true);
    assert.deepStrictEqual([...second.index.all()].map((f) => f.path), []);
    // and comes back when it shrinks under it again
    write(root, 'src/a.ts', 'export const a = 2;\n');
    fs.utimesSync(path.join(root, 'src/a.ts'), new Date(later.getTime() + 5000), new Date(later.getTime() + 5000));
    const third = await WorkspaceIndex.open(root, { cacheFile, maxBytes: 2048 });
    assert.deepStrictEqual([...third.index.all()].map((f) => f.path), ['src/a.ts']);
  });

  it('updates incrementally from mtimes (refresh) and from named paths (update), and keeps a cache file', async () => {
    const root = demoWorkspace();
    const cacheFile = path.join(tmp('cape-cache-'), 'index.idx');
    const first = await WorkspaceIndex.open(root, { cacheFile });
    assert.ok(fs.existsSync(cacheFile));
    const second = await WorkspaceIndex.open(root, { cacheFile });
    assert.strictEqual(second.fromCache, true);
    assert.strictEqual(second.stats.read, 0, 'nothing re-read when nothing changed');
    assert.strictEqual(second.index.size, first.index.size);
    assert.ok(second.index.textScores('clamp').has('src/utils/math.ts'), 'the text index survives the cache');

    write(root, 'src/utils/math.ts', 'export function lerp(a: number, b: number, t: number) { return a + (b - a) * t; }\n');
    fs.utimesSync(path.join(root, 'src/utils/math.ts'), new Date(), new Date(Date.now() + 5000));
    fs.unlinkSync(path.join(root, 'src/utils/date.ts'));
    write(root, 'src/utils/strings.ts', 'export function capitalize(s: string) { return s; }\n');
    const third = await WorkspaceIndex.open(root, { cacheFile });
    assert.strictEqual(third.stats.read, 2);
    assert.strictEqual(third.stats.removed, 1);
    assert.deepStrictEqual(third.index.get('src/utils/math.ts')!.symbols, ['lerp']);
    assert.ok(!third.index.textScores('clamp').has('src/utils/math.ts'), 'old content left the text index');
    assert.ok(third.index.textScores('capitalize').has('src/utils/strings.ts'));

    // the watcher path
    const idx = third.index;
    write(root, 'src/utils/strings.ts', 'export function slugify(s: string) { return s; }\n');
    write(root, 'credentials.json', '{"token":"x"}');
    const st = await idx.update(['src/utils/strings.ts', 'credentials.json', 'src/utils/math.ts']);
    assert.strictEqual(st.read, 2);
    assert.deepStrictEqual(idx.get('src/utils/strings.ts')!.symbols, ['slugify']);
    assert.strictEqual(idx.get('credentials.json'), undefined, 'a secret created later is still never indexed');
    fs.unlinkSync(path.join(root, 'src/utils/strings.ts'));
    await idx.update(['src/utils/strings.ts']);
    assert.strictEqual(idx.get('src/utils/strings.ts'), undefined);
    write(root, 'src/.gitignore', 'utils/\n');
    await idx.update(['src/.gitignore']);
    assert.strictEqual(idx.get('src/utils/math.ts'), undefined, 'a changed .gitignore re-applies');
  });

  it('reads again a file it read within the racy window: a change under the same size and mtime (a coarse clock) is seen', async () => {
    const root = tmp('cape-index-racy-');
    const cacheFile = path.join(tmp('cape-index-racy-cache-'), 'i.idx');
    // changed "now" on a coarse clock (whole seconds: FAT, HFS+), and long ago; the clock the index reads is held a
    // second after that whole second, so the test does not depend on how fast it runs
    const tick = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
    const realNow = Date.now;
    Date.now = () => tick + 1000;
    const put = (rel: string, text: string, whenMs: number) => {
      write(root, rel, text);
      fs.utimesSync(path.join(root, rel), whenMs / 1000, whenMs / 1000);
    };
    try {
      put('src/a.ts', 'export const alphaValue = 1;\n', tick);
      put('src/b.ts', 'export const betaValue = 1;\n', tick - 60_000);
      put('src/logo.bin', Buffer.from([1, 0, 2]).toString('latin1'), tick);
      const first = await WorkspaceIndex.open(root, { cacheFile });
      assert.ok(first.index.get('src/a.ts'));
      // edited again within the same clock tick: same size, same mtime
      put('src/a.ts', 'export const omegaValue = 1;\n', tick);
      put('src/logo.bin', 'export const gammaIsText;\n'.slice(0, 3), tick);
      assert.strictEqual(first.index.confirm('src/a.ts'), true);
      assert.deepStrictEqual(first.index.get('src/a.ts')!.symbols, ['omegaValue'], 'confirm() reads a racy file again');
      const second = await WorkspaceIndex.open(root, { cacheFile });
      assert.deepStrictEqual(second.index.get('src/a.ts')!.symbols, ['omegaValue'], 'the next run reads it again');
      assert.ok(second.index.textScores('omega').has('src/a.ts') && !second.index.textScores('alpha').has('src/a.ts'));
      assert.ok(second.index.get('src/logo.bin'), 'a file found binary is read again too');
      assert.strictEqual(second.stats.read, 2, 'a file changed long ago is not read again');
    } finally {
      Date.now = realNow;
    }
  });

  it('sees a rewrite that keeps the size and puts the mtime back (touch -r, rsync -t, cp -p): its ctime changed', async () => {
    const root = tmp('cape-index-ctime-');
    const cacheFile = path.join(tmp('cape-index-ctime-cache-'), 'i.idx');
    write(root, 'src/a.ts', 'export const alphaValue = 1;\n');
    write(root, 'src/b.ts', 'export const betaValue = 1;\n');
    write(root, 'src/logo.bin', Buffer.from([1, 0, 2]));
    ageFiles(root);
    // the clock the index reads held a minute ahead: no read is within a clock step of a change (racyRead), so only
    // the stamps tell what changed
    const realNow = Date.now;
    Date.now = () => realNow() + 60_000;
    try {
      const first = await WorkspaceIndex.open(root, { cacheFile });
      assert.deepStrictEqual(first.index.get('src/a.ts')!.symbols, ['alphaValue']);
      assert.strictEqual((await WorkspaceIndex.open(root, { cacheFile })).stats.read, 0, 'nothing changed: nothing read');
      // rewritten under the same size, the mtime put back; the ctime moves on (no user tool can set it), until the
      // file system's clock has stepped
      const rewrite = (rel: string, content: string | Buffer) => {
        const abs = path.join(root, rel);
        const before = fs.statSync(abs);
        do {
          write(root, rel, content);
          fs.utimesSync(abs, before.atime, before.mtime);
        } while (fs.statSync(abs).ctimeMs === before.ctimeMs);
        assert.deepStrictEqual([fs.statSync(abs).size, fs.statSync(abs).mtimeMs], [before.size, before.mtimeMs]);
      };
      rewrite('src/a.ts', 'export const omegaValue = 1;\n');
      rewrite('src/logo.bin', 'abc');
      const second = await WorkspaceIndex.open(root, { cacheFile });
      assert.strictEqual(second.fromCache, true);
      assert.deepStrictEqual(second.index.get('src/a.ts')!.symbols, ['omegaValue'], 'a warm open reads it again');
      assert.ok(second.index.textScores('omega').has('src/a.ts') && !second.index.textScores('alpha').has('src/a.ts'));
      assert.ok(second.index.get('src/logo.bin'), 'a file found binary is read again too');
      assert.strictEqual(second.stats.read, 2, 'the unchanged file is not read');
      assert.strictEqual((await WorkspaceIndex.open(root, { cacheFile })).stats.read, 0, 'the cache keeps the new ctimes');
      // confirm() (before a prompt names a file the watcher may have missed) compares the ctime too
      rewrite('src/a.ts', 'export const deltaValue = 1;\n');
      assert.strictEqual(second.index.confirm('src/a.ts'), true);
      assert.deepStrictEqual(second.index.get('src/a.ts')!.symbols, ['deltaValue']);
    } finally {
      Date.now = realNow;
    }
  });

  it('sees a file added to a folder whose mtime is then put back (cp -rp, rsync -t without --delete): its ctime changed', async () => {
    const root = tmp('cape-index-dir-ctime-');
    const cacheFile = path.join(tmp('cape-index-dir-ctime-cache-'), 'i.idx');
    write(root, 'src/a.ts', 'export const alphaValue = 1;\n');
    ageFiles(root);
    const realNow = Date.now;
    // no read within a clock step of a change (racyRead): only the stamps tell what changed
    Date.now = () => realNow() + 60_000;
    try {
      await WorkspaceIndex.open(root, { cacheFile });
      assert.strictEqual((await WorkspaceIndex.open(root, { cacheFile })).stats.listed, 0, 'nothing changed: nothing listed');
      const dir = path.join(root, 'src');
      const before = fs.statSync(dir);
      write(root, 'src/b.ts', 'export const betaValue = 1;\n');
      fs.utimesSync(dir, before.atime, before.mtime);
      // the ctime moved on, once the file system's clock has stepped (the loop waits for that)
      while (fs.statSync(dir).ctimeMs === before.ctimeMs) fs.utimesSync(dir, before.atime, before.mtime);
      assert.strictEqual(fs.statSync(dir).mtimeMs, before.mtimeMs);
      const after = await WorkspaceIndex.open(root, { cacheFile });
      assert.deepStrictEqual(after.index.get('src/b.ts')?.symbols, ['betaValue'], 'the folder is listed again');
    } finally {
      Date.now = realNow;
    }
  });

  it('takes a read as racy within one step of the file system clock: whole seconds up to 3 s, finer clocks 50 ms, not far in the future', () => {
    const t = 1_700_000_000_000;
    assert.strictEqual(racyRead(t, t + 2_500), true, 'whole-second mtime, read 2.5 s later');
    assert.strictEqual(racyRead(t, t + 3_500), false);
    assert.strictEqual(racyRead(t + 123.456, t + 150), true, 'fine mtime, read 27 ms later');
    assert.strictEqual(racyRead(t + 123.456, t + 400), false, 'fine mtime, read 277 ms later: a bulk checkout is not read twice');
    assert.strictEqual(racyRead(t + 60_000, t), false, 'an mtime a minute ahead (skewed clock) is not racy on every run');
    assert.strictEqual(racyRead(t + 1_000, t), true, 'a whole-second mtime just ahead is');
  });

  it('on a warm run stats the files of unchanged folders instead of listing them, and still sees every change', async () => {
    const root = demoWorkspace();
    const cacheFile = path.join(tmp('cape-cache-'), 'index.idx');
    // folders changed long ago (a folder changed within the clock's resolution is always listed again)
    const past = new Date(Date.now() - 60_000);
    const age = () => {
      const walk = (d: string) => {
        for (const e of fs.readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) walk(path.join(d, e.name));
        fs.utimesSync(d, past, past);
      };
      walk(root);
      pastRacyWindow();
    };
    age();
    const first = await WorkspaceIndex.open(root, { cacheFile });
    const second = await WorkspaceIndex.open(root, { cacheFile });
    assert.strictEqual(second.fromCache, true);
    assert.deepStrictEqual([second.stats.read, second.stats.removed, second.stats.listed], [0, 0, 0], 'nothing listed, nothing read');
    assert.deepStrictEqual([...second.index.all()].map((f) => f.path).sort(), [...first.index.all()].map((f) => f.path).sort());

    // a changed file in an unchanged folder: found by its mtime (changed before the racy window: read once)
    write(root, 'src/utils/math.ts', 'export function lerp(a: number, b: number, t: number) { return a + (b - a) * t; }\n');
    fs.utimesSync(path.join(root, 'src/utils/math.ts'), new Date(), new Date(Date.now() - 30_000));
    pastRacyWindow();
    const third = await WorkspaceIndex.open(root, { cacheFile });
    assert.deepStrictEqual([third.stats.read, third.stats.listed], [1, 0]);
    assert.deepStrictEqual(third.index.get('src/utils/math.ts')!.symbols, ['lerp']);
    assert.ok(third.index.textScores('lerp').has('src/utils/math.ts') && !third.index.textScores('clamp').has('src/utils/math.ts'));

    // added, deleted, a new secret and a new ignored file: their folders changed, so they are listed again
    write(root, 'src/utils/strings.ts', 'export function capitalize(s: string) { return s; }\n');
    fs.unlinkSync(path.join(root, 'src/utils/date.ts'));
    write(root, 'src/settings/.env.local', 'TOKEN=secret');
    write(root, 'dist/more.js', 'export const x = 1;\n');
    const fourth = await WorkspaceIndex.open(root, { cacheFile });
    assert.strictEqual(fourth.stats.read, 1);
    assert.strictEqual(fourth.stats.removed, 1);
    assert.ok(fourth.stats.listed >= 2);
    assert.ok(fourth.index.get('src/utils/strings.ts') && !fourth.index.get('src/utils/date.ts'));
    assert.strictEqual(fourth.index.get('src/settings/.env.local'), undefined, 'secrets still never indexed');
    assert.strictEqual(fourth.index.get('dist/more.js'), undefined, '.gitignore still applies');

    // a .gitignore whose content changed (its folder's mtime did not): every rule applies again
    age();
    await WorkspaceIndex.open(root, { cacheFile });
    assert.strictEqual((await WorkspaceIndex.open(root, { cacheFile })).stats.listed, 0);
    write(root, '.gitignore', 'dist/\nsrc/utils/\n');
    fs.utimesSync(path.join(root, '.gitignore'), new Date(), new Date(Date.now() + 5000));
    const fifth = await WorkspaceIndex.open(root, { cacheFile });
    assert.strictEqual(fifth.index.get('src/utils/math.ts'), undefined);
    assert.strictEqual(fifth.index.get('src/utils/strings.ts'), undefined);
    assert.ok(fifth.index.get('src/theme/themeStore.ts'));

    // a nested .gitignore added in a folder listed earlier
    age();
    await WorkspaceIndex.open(root, { cacheFile });
    write(root, 'src/theme/.gitignore', 'themeStore.ts\n');
    const sixth = await WorkspaceIndex.open(root, { cacheFile });
    assert.strictEqual(sixth.index.get('src/theme/themeStore.ts'), undefined);
    assert.ok(sixth.index.get('src/theme/.gitignore'));
  });

  it('restores from its cache file exactly what a build computes (symbols, specifiers, imports, text scores)', async () => {
    const root = demoWorkspace();
    write(root, 'docs/Guide Überblick.md', '# Getting started\n## Theme   colours\n');
    write(root, 'src/データ/読む.ts', "import { getTheme } from '../theme/themeStore';\nexport const 読む = getTheme;\nexport function readData() {}\n");
    write(root, 'src/empty.ts', '// nothing exported\n');
    const built = (await WorkspaceIndex.open(root, { cacheFile: null })).index;
    const cacheFile = path.join(tmp('cape-cache-'), 'index.idx');
    await WorkspaceIndex.open(root, { cacheFile });
    const restored = await WorkspaceIndex.open(root, { cacheFile });
    assert.strictEqual(restored.fromCache, true);
    const plain = (i: WorkspaceIndex) =>
      [...i.all()].map((f) => ({ path: f.path, size: f.size, mtimeMs: f.mtimeMs, chars: f.chars, symbols: f.symbols, specs: f.specs, imports: f.imports }));
    assert.deepStrictEqual(plain(restored.index), plain(built));
    assert.deepStrictEqual(restored.index.get('docs/Guide Überblick.md')!.symbols, ['Getting started', 'Theme   colours']);
    assert.deepStrictEqual(restored.index.get('src/データ/読む.ts')!.imports, ['src/theme/themeStore.ts']);
    assert.deepStrictEqual(restored.index.get('src/empty.ts')!.symbols, []);
    for (const p of ['src/theme/themeStore.ts', 'src/settings/storage.ts']) assert.deepStrictEqual(restored.index.importersOf(p), built.importersOf(p));
    for (const q of ['theme dark mode', 'read data', 'getting started', 'clamp']) assert.deepStrictEqual([...restored.index.textScores(q)], [...built.textScores(q)], q);
    // left in the file (a one-off query reads its terms' postings): the same scores, the same files
    const lazy = await WorkspaceIndex.open(root, { cacheFile, lazy: true });
    assert.strictEqual(lazy.fromCache, true);
    for (const q of ['theme dark mode', 'read data', 'getting started', 'clamp', 'データ 読む']) assert.deepStrictEqual([...lazy.index.textScores(q)], [...built.textScores(q)], q);
    assert.deepStrictEqual(plain(lazy.index), plain(built));
    // and a change reads the Docs in first
    write(root, 'src/theme/themeStore.ts', 'export function getTheme() { return "dark mode clamp"; }\n');
    await lazy.index.update(['src/theme/themeStore.ts']);
    const rebuilt = (await WorkspaceIndex.open(root, { cacheFile: null })).index;
    for (const q of ['theme dark mode', 'clamp']) assert.deepStrictEqual([...lazy.index.textScores(q)], [...rebuilt.textScores(q)], q);
  });

  it('after files are added or removed, resolves imports as a fresh build does (index files, `..`, `.js` twins)', async () => {
    const root = tmp('cape-resolve-');
    write(root, 'src/app.ts', "import { lib } from './lib';\nimport { b } from './b.js';\n");
    write(root, 'src/c.ts', "import { b } from './b';\n");
    write(root, 'src/lib/util.ts', 'export const util = 1;\n');
    write(root, 'src/lib/deep/user.ts', "import { lib } from '..';\nimport { util } from '../util';\n");
    write(root, 'src/b.ts', 'export const b = 1;\n');
    // enough other files that one change is resolved incrementally, not by resolving everything again
    for (let i = 0; i < 12; i++) write(root, `src/other/o${i}.ts`, `import { o } from './o${i + 1}';\n`);
    const imports = (i: WorkspaceIndex) => [...i.all()].map((f) => [f.path, f.imports.join(',')].join(' -> ')).sort();
    const fresh = async () => imports((await WorkspaceIndex.open(root, { cacheFile: null })).index);
    const cacheFile = path.join(tmp('cape-cache-'), 'index.idx');
    const watched = (await WorkspaceIndex.open(root, { cacheFile })).index;
    assert.deepStrictEqual(imports(watched), await fresh());
    const steps: [string, () => void][] = [
      ['src/lib/index.ts', () => write(root, 'src/lib/index.ts', 'export const lib = 1;\n')],
      ['src/b.ts', () => fs.unlinkSync(path.join(root, 'src/b.ts'))],
      ['src/b.tsx', () => write(root, 'src/b.tsx', 'export const b = 2;\n')],
      ['src/lib/index.ts', () => fs.unlinkSync(path.join(root, 'src/lib/index.ts'))],
      ['src/lib.ts', () => write(root, 'src/lib.ts', 'export const lib = 3;\n')],
    ];
    for (const [rel, change] of steps) {
      change();
      const expected = await fresh();
      assert.deepStrictEqual(imports((await WorkspaceIndex.open(root, { cacheFile })).index), expected, `warm run after ${rel}`);
      await watched.update([rel]);
      assert.deepStrictEqual(imports(watched), expected, `watcher update after ${rel}`);
      assert.deepStrictEqual(
        watched.importersOf('src/lib/util.ts'),
        (await WorkspaceIndex.open(root, { cacheFile: null })).index.importersOf('src/lib/util.ts'),
      );
    }
    assert.ok(imports(watched).includes('src/app.ts -> src/lib.ts,src/b.tsx'), imports(watched).join('\n'));
  });

  it('does not rewrite its cache file when a warm run finds nothing changed, even when it listed folders again', async () => {
    const root = demoWorkspace();
    const cacheFile = path.join(tmp('cape-cache-'), 'index.idx');
    // a folder changed too recently to trust its mtime is listed again on every run: the root's, made so here (a
    // whole-second mtime, and the clock the index reads held a second after it)
    const tick = Math.floor(Date.now() / 1000) * 1000 - 600_000;
    fs.utimesSync(root, tick / 1000, tick / 1000);
    const now = Date.now;
    Date.now = () => tick + 1000;
    let written: number;
    try {
      await WorkspaceIndex.open(root, { cacheFile });
      written = fs.statSync(cacheFile).ino;
      const again = await WorkspaceIndex.open(root, { cacheFile });
      assert.ok(again.fromCache && again.stats.listed > 0 && !again.stats.read, JSON.stringify(again.stats));
      assert.strictEqual(fs.statSync(cacheFile).ino, written, 'not rewritten (an atomic write makes a new file)');
    } finally {
      Date.now = now;
    }
    write(root, 'src/utils/strings.ts', 'export function capitalize(s: string) { return s; }\n');
    await WorkspaceIndex.open(root, { cacheFile });
    assert.notStrictEqual(fs.statSync(cacheFile).ino, written, 'rewritten after a change');
  });

  it('rebuilds from a cache file of another version or layout, never reads it as its own', async () => {
    const root = demoWorkspace();
    const cacheFile = path.join(tmp('cape-cache-'), 'index.idx');
    const first = await WorkspaceIndex.open(root, { cacheFile });
    const bytes = fs.readFileSync(cacheFile);
    // the version follows the 8-byte magic
    const older = Buffer.from(bytes);
    older.writeUInt32LE(older.readUInt32LE(8) - 1, 8);
    fs.writeFileSync(cacheFile, older);
    const r1 = await WorkspaceIndex.open(root, { cacheFile });
    assert.strictEqual(r1.fromCache, false);
    assert.strictEqual(r1.index.size, first.index.size);
    assert.strictEqual(fs.readFileSync(cacheFile).readUInt32LE(8), bytes.readUInt32LE(8), 'rewritten in the current version');
    assert.strictEqual(bytes.readUInt32LE(8), CACHE_VERSION);
    // this version's header over the previous version's numbers (size, mtime, characters: no ctime per file), laid out
    // well otherwise: refused, not read with the ctimes missing
    const jsonBytes = bytes.readUInt32LE(12);
    const header = JSON.parse(bytes.toString('utf8', 16, 16 + jsonBytes)) as { files: number; sections: number[] };
    const pad = (n: number) => Buffer.alloc((8 - (n % 8)) % 8);
    const sections: Buffer[] = [];
    let at = 16 + jsonBytes + pad(16 + jsonBytes).length;
    for (const size of header.sections) (sections.push(bytes.subarray(at, at + size)), (at += size + pad(size).length));
    const numbers = SECTIONS.indexOf('numbers');
    assert.strictEqual(sections[numbers].length, 4 * 8 * header.files, 'four numbers per file');
    sections[numbers] = sections[numbers].subarray(0, 3 * 8 * header.files);
    const oldJson = Buffer.from(JSON.stringify({ ...header, sections: sections.map((s) => s.length) }));
    const oldHead = Buffer.from(bytes.subarray(0, 16));
    oldHead.writeUInt32LE(oldJson.length, 12);
    fs.writeFileSync(cacheFile, Buffer.concat([oldHead, oldJson, pad(16 + oldJson.length), ...sections.flatMap((s) => [s, pad(s.length)])]));
    const r0 = await WorkspaceIndex.open(root, { cacheFile });
    assert.strictEqual(r0.fromCache, false);
    assert.strictEqual(r0.stats.read, first.stats.read, 'every file read again');
    assert.deepStrictEqual(r0.index.get('src/utils/math.ts')!.symbols, ['clamp']);
    // the previous layout: magic, JSON bytes, term ids, then the JSON with its version
    const json = Buffer.from(JSON.stringify({ version: 4, root: first.index.root, files: [['src/utils/math.ts', 1, 1, 1, ['bogus'], [], []]], words: '' }));
    const head = Buffer.alloc(16);
    head.write('CAPEIDX\n', 'latin1');
    head.writeUInt32LE(json.length, 8);
    fs.writeFileSync(cacheFile, Buffer.concat([head, json]));
    const r2 = await WorkspaceIndex.open(root, { cacheFile });
    assert.strictEqual(r2.fromCache, false);
    assert.deepStrictEqual(r2.index.get('src/utils/math.ts')!.symbols, ['clamp']);
    // a truncated file
    fs.writeFileSync(cacheFile, bytes.subarray(0, bytes.length - 8));
    const r3 = await WorkspaceIndex.open(root, { cacheFile });
    assert.strictEqual(r3.fromCache, false);
    assert.strictEqual(r3.index.size, first.index.size);
  });

  it('rebuilds when its cache file is damaged (a term id, a document frequency, a symbols end, a vocabulary mark, a Doc start)', async () => {
    const root = demoWorkspace();
    const cacheFile = path.join(tmp('cape-cache-'), 'index.idx');
    const first = await WorkspaceIndex.open(root, { cacheFile });
    const bytes = fs.readFileSync(cacheFile);
    // Each damage below is resealed: its digest (test/unit/indexCacheDigest.test.ts) made to match, as a file written
    // wrong would have it. The checks of the structure behind the digest still keep it away from the index.
    const reseal = (b: Buffer) => createHash('sha256').update(b.subarray(0, b.length - DIGEST_BYTES)).digest().copy(b, b.length - DIGEST_BYTES);
    // the layout: magic, version, JSON bytes, the JSON header (with each section's bytes), sections padded to 8, digest
    const jsonBytes = bytes.readUInt32LE(12);
    const header = JSON.parse(bytes.toString('utf8', 16, 16 + jsonBytes)) as { sections: number[] };
    const pad = (n: number) => (8 - (n % 8)) % 8;
    const starts: number[] = [];
    let at = 16 + jsonBytes + pad(16 + jsonBytes);
    for (const size of header.sections) (starts.push(at), (at += size + pad(size)));
    assert.strictEqual(at + DIGEST_BYTES, bytes.length);
    const [docs, df, symbolEnds, wordMarks] = (['docs', 'df', 'symbolEnds', 'wordMarks'] as const).map((s) => SECTIONS.indexOf(s));
    for (const [name, edit] of [
      ['a term id past the vocabulary', (b: Buffer) => b.writeUInt32LE(0xfffffff0, starts[docs] + header.sections[docs] - 4)],
      ['a document frequency off by one', (b: Buffer) => b.writeInt32LE(b.readInt32LE(starts[df]) + 1, starts[df])],
      ["a file's symbols ending past their section", (b: Buffer) => b.writeUInt32LE(header.sections[SECTIONS.indexOf('symbols')] + 5, starts[symbolEnds])],
      ['a vocabulary mark not at a term', (b: Buffer) => b.writeUInt32LE(1, starts[wordMarks])],
      ["a file's Doc starting past the Docs", (b: Buffer) => b.writeUInt32LE(0xfffffff0, starts[SECTIONS.indexOf('docStarts')] + 4)],
    ] as const) {
      const damaged = Buffer.from(bytes);
      edit(damaged);
      reseal(damaged);
      fs.writeFileSync(cacheFile, damaged);
      const r = await WorkspaceIndex.open(root, { cacheFile });
      assert.strictEqual(r.fromCache, false, name);
      assert.deepStrictEqual([...r.index.textScores('theme dark mode')], [...first.index.textScores('theme dark mode')], name);
    }
    // left in the file by a one-off query, the Docs and postings are checked when read: damage there never reaches a
    // score (damaged postings: the Docs decide; damaged Docs: every file's text is indexed again)
    const [docsAt, postingsAt] = [starts[SECTIONS.indexOf('docs')], starts[SECTIONS.indexOf('postings')]];
    const [docsEnd, postingsEnd] = [docsAt + header.sections[SECTIONS.indexOf('docs')], postingsAt + header.sections[SECTIONS.indexOf('postings')]];
    // every posting, every Doc's length: whatever a query reads is damaged
    const postings = (b: Buffer) => b.fill(0xff, postingsAt, postingsEnd);
    const docLengths = (b: Buffer) => {
      for (let at = docsAt; at < docsEnd; ) {
        const len = b.readUInt32LE(at);
        b.writeUInt32LE(len + 7, at);
        at += len * 4;
      }
    };
    for (const [name, edit] of [
      ['postings naming no file', postings],
      ['Docs longer than their place', docLengths],
      ['both', (b: Buffer) => (postings(b), docLengths(b))],
    ] as const) {
      const damaged = Buffer.from(bytes);
      edit(damaged);
      reseal(damaged);
      fs.writeFileSync(cacheFile, damaged);
      const r = await WorkspaceIndex.open(root, { cacheFile, lazy: true });
      assert.strictEqual(r.fromCache, true, name);
      for (const q of ['theme dark mode', 'clamp', 'user account']) assert.deepStrictEqual([...r.index.textScores(q)], [...first.index.textScores(q)], `${name}: ${q}`);
      assert.deepStrictEqual(r.index.importersOf('src/theme/themeStore.ts'), first.index.importersOf('src/theme/themeStore.ts'), `${name}: imports`);
      write(root, 'src/new.ts', 'export const added = 1;\n');
      await r.index.refresh();
      fs.rmSync(path.join(root, 'src/new.ts'));
      await r.index.refresh();
      assert.deepStrictEqual([...r.index.textScores('theme dark mode')], [...first.index.textScores('theme dark mode')], `${name}, after a change`);
    }
    fs.writeFileSync(cacheFile, bytes);
    assert.strictEqual((await WorkspaceIndex.open(root, { cacheFile })).fromCache, true, 'the rebuilt file is good');
  });

  it('ignores a cache file of another workspace or a damaged one', async () => {
    const a = demoWorkspace();
    const b = demoWorkspace();
    const cacheFile = path.join(tmp('cape-cache-'), 'index.json');
    await WorkspaceIndex.open(a, { cacheFile });
    assert.strictEqual((await WorkspaceIndex.open(b, { cacheFile })).fromCache, false);
    fs.writeFileSync(cacheFile, '{"version":1, "files": [');
    const r = await WorkspaceIndex.open(b, { cacheFile });
    assert.strictEqual(r.fromCache, false);
    assert.strictEqual(r.index.size, 9);
  });

  it('takes the cache of a workspace opened through a symlink for the same folder opened by its real path, and back', async () => {
    const real = demoWorkspace();
    const link = path.join(tmp('cape-link-'), 'ws');
    fs.symlinkSync(real, link, 'dir');
    assert.strictEqual(defaultCacheFile(link), defaultCacheFile(real), 'one cache file per real folder');
    const cacheFile = path.join(tmp('cape-cache-'), 'index.idx');
    const first = await WorkspaceIndex.open(link, { cacheFile });
    const byReal = await WorkspaceIndex.open(real, { cacheFile });
    assert.ok(byReal.fromCache && byReal.stats.read === 0, 'not rebuilt');
    const byLink = await WorkspaceIndex.open(link, { cacheFile });
    assert.ok(byLink.fromCache && byLink.stats.read === 0, 'not rebuilt');
    assert.deepStrictEqual([...byLink.index.all()].map((f) => f.path).sort(), [...first.index.all()].map((f) => f.path).sort());
    assert.strictEqual(byLink.index.root, path.resolve(link), 'the index keeps the path it was opened by');
  });
});

describe('ranking and the budgeted map', () => {
  const read = (root: string) => (rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

  it('ranks by text, then passes score along imports', async () => {
    const root = demoWorkspace();
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const ranked = rankFiles(index, { objective: 'Let the user switch to a dark theme' });
    assert.strictEqual(ranked[0].path, 'src/theme/themeStore.ts');
    const order = ranked.map((r) => r.path);
    for (const p of ['src/pages/SettingsPage.tsx', 'test/themeStore.test.ts', 'src/settings/storage.ts']) {
      assert.ok(order.includes(p), `${p} is reached through imports: ${order.join(', ')}`);
      assert.ok(order.indexOf(p) < (order.indexOf('src/utils/math.ts') === -1 ? Infinity : order.indexOf('src/utils/math.ts')));
    }
    assert.ok(!order.includes('src/utils/date.ts'), 'an unrelated file gets no score');
    const byName = rankFiles(index, { objective: 'clamp should accept NaN' });
    assert.strictEqual(byName[0].path, 'src/utils/math.ts', 'a symbol named in the objective');
    const byWork = rankFiles(index, { objective: 'Small fix', work: 'The formatDate helper must print the local date' });
    assert.strictEqual(byWork[0].path, 'src/utils/date.ts', "the upstream work counts when the objective says little");
  });

  it('gives DevA the best files whole, then map lines, within the budget', async () => {
    const root = demoWorkspace();
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const q = { objective: 'Let the user switch to a dark theme' };
    const ctx = packWorkspace(index, q, { step: 'deva', budget: 60_000, readText: read(root) });
    assert.ok(ctx.files[0].whole && ctx.files[0].path === 'src/theme/themeStore.ts');
    assert.ok(ctx.text.includes(fs.readFileSync(path.join(root, 'src/theme/themeStore.ts'), 'utf8')));
    assert.strictEqual(ctx.totalChars, ctx.text.length);
    assert.ok(ctx.totalChars <= 60_000);
    assert.strictEqual(new Set(ctx.files.map((f) => f.path)).size, ctx.files.length);
    assert.strictEqual(ctx.files.length, index.size, 'with room, every file appears (whole or as a map line)');
    assert.ok(!ctx.text.includes('do-not-send') && !ctx.text.includes('cape/1_product'));
    const firstMap = ctx.files.findIndex((f) => !f.whole);
    assert.ok(ctx.files.slice(firstMap).every((f) => !f.whole), 'whole files first, then the map');
    assert.strictEqual(ctx.mapChars, ctx.files.filter((f) => !f.whole).reduce((n, f) => n + f.chars, 0));

    // a tight budget: fewer whole files, map lines with symbols, never over the budget
    const small = packWorkspace(index, q, { step: 'deva', budget: 700, readText: read(root) });
    assert.ok(small.totalChars <= 700, String(small.totalChars));
    assert.ok(small.files.some((f) => !f.whole));
    assert.match(small.text, /src\/\S+ — \w+/);
    for (let budget = 0; budget < 1500; budget += 97) {
      const c = packWorkspace(index, q, { step: 'deva', budget, readText: read(root) });
      assert.ok(c.totalChars <= budget, `budget ${budget}: ${c.totalChars}`);
    }
  });

  it('never lists a file that vanished behind its back (a missed watcher event), and maps a changed one as it is now', async () => {
    const root = tmp('cape-missed-');
    write(root, 'src/notes.ts', 'export function saveNote() {}\n');
    write(root, 'src/archive.ts', 'export function archiveNote() {}\n');
    write(root, 'src/big.ts', `export function listNotes() {}\n${'// notes\n'.repeat(400)}`);
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    assert.strictEqual(index.size, 3);
    // no update() call: as if the file watcher never reported these
    fs.rmSync(path.join(root, 'src/archive.ts'));
    const later = new Date(Date.now() + 5000);
    fs.writeFileSync(path.join(root, 'src/big.ts'), `export function listAllNotes() {}\n${'// notes\n'.repeat(400)}`);
    fs.utimesSync(path.join(root, 'src/big.ts'), later, later);
    const ctx = packWorkspace(index, { objective: 'archive notes' }, { step: 'deva', budget: 400 });
    const paths = ctx.files.map((f) => f.path);
    assert.ok(!paths.includes('src/archive.ts') && !ctx.text.includes('archiveNote'), ctx.text);
    assert.ok(ctx.files.some((f) => f.path === 'src/big.ts' && !f.whole), ctx.text);
    assert.match(ctx.text, /src\/big\.ts — listAllNotes/);
    assert.strictEqual(index.size, 2, 'the index let the vanished file go');
    assert.strictEqual(index.get('src/archive.ts'), undefined);
  });

  it('never indexes a file through a symlinked folder, named by a file event or by a confirm: a folder swapped for a link out', async () => {
    const base = tmp('cape-linkswap-');
    const root = path.join(base, 'ws');
    write(root, 'src/notes.ts', 'export function saveNote() {}\n');
    write(base, 'outside/notes.ts', 'export function outsideSecretHelper() { return "hunter2"; }\n');
    write(base, 'outside/extra.ts', 'export function leakedFromOutside() {}\n');
    write(root, 'lib/inside.ts', 'export function insideTwice() {}\n');
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    assert.deepStrictEqual([...index.all()].map((f) => f.path).sort(), ['lib/inside.ts', 'src/notes.ts']);
    // src/ becomes a link out of the workspace, and alias/ a link to lib/ (the walk follows neither)
    fs.rmSync(path.join(root, 'src'), { recursive: true });
    fs.symlinkSync(path.join(base, 'outside'), path.join(root, 'src'));
    fs.symlinkSync(path.join(root, 'lib'), path.join(root, 'alias'));
    // the events of the links themselves, then of files below them, as a watcher may report them
    await index.update(['src', 'alias', 'src/extra.ts', 'alias/inside.ts']);
    assert.strictEqual(index.confirm('src/notes.ts'), false, 'a file reached through a link out is not confirmed');
    assert.deepStrictEqual([...index.all()].map((f) => f.path), ['lib/inside.ts']);
    const ctx = packWorkspace(index, { objective: 'outside secret helper leaked notes' }, { step: 'deva' });
    assert.ok(!/outsideSecretHelper|leakedFromOutside|hunter2/.test(ctx.text), ctx.text);
    // a walk agrees
    await index.refresh();
    assert.deepStrictEqual([...index.all()].map((f) => f.path), ['lib/inside.ts']);
  });

  it('uses a fence longer than any in the file', async () => {
    const root = tmp('cape-fence-');
    write(root, 'docs/guide.md', '# Theme guide\n```ts\ngetTheme()\n```\n');
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const ctx = packWorkspace(index, { objective: 'theme guide' }, { step: 'deva', readText: read(root) });
    assert.match(ctx.text, /````md\n# Theme guide/);
  });

  it("gives DA a map of UI files only; without any, the product's source files (its interface); nothing without code", async () => {
    const root = demoWorkspace();
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const ctx = packWorkspace(index, { objective: 'dark theme button' }, { step: 'da', readText: read(root) });
    assert.deepStrictEqual(ctx.files.map((f) => f.path).sort(), ['src/pages/SettingsPage.tsx', 'src/styles/app.css', 'src/theme/themeStore.ts']);
    assert.ok(ctx.files.every((f) => !f.whole));
    assert.match(ctx.text, /^UI files of the workspace/);
    // a library: no UI files, so its source files with their public names (not its tests, examples or docs)
    const lib = tmp('cape-noui-');
    write(lib, 'src/lib.rs', 'pub struct Version;\npub fn parse() {}\nfn helper() {}\n');
    write(lib, 'src/eval.rs', 'pub(crate) fn matches() {}\n');
    write(lib, 'tests/test_version.rs', '#[test]\nfn parses() {}\n');
    write(lib, 'examples/demo.rs', 'fn main() {}\n');
    write(lib, 'docs/index.html', '<h1>Docs</h1>\n');
    write(lib, 'README.md', '# lib\n');
    // nor a tool's configuration written as code (a URL library's trial: eslint.config.mjs among its source files)
    write(lib, 'eslint.config.mjs', 'export default [];\n');
    write(lib, 'vite.config.ts', 'export default defineConfig({});\n');
    write(lib, '.eslintrc.cjs', 'module.exports = {};\n');
    write(lib, 'build.rs', 'fn main() {}\n');
    // but under src/ the same names are the product's own code (a builder module, an app's configuration)
    write(lib, 'src/build.rs', 'pub struct Builder;\n');
    write(lib, 'src/app/app.config.ts', 'export const appConfig = {};\n');
    write(lib, 'setup.py', 'def main():\n    pass\n');
    write(lib, 'src/config.ts', 'export const defaults = {};\n');
    const { index: i2 } = await WorkspaceIndex.open(lib, { cacheFile: null });
    const api = packWorkspace(i2, { objective: 'parse a version' }, { step: 'da', readText: read(lib) });
    assert.deepStrictEqual(api.files.map((f) => f.path).sort(), ['src/app/app.config.ts', 'src/build.rs', 'src/config.ts', 'src/eval.rs', 'src/lib.rs']);
    assert.ok(api.files.every((f) => !f.whole));
    assert.match(api.text, /^No UI files \(components, styles\) in the workspace: its interface is its code\./);
    assert.match(api.text, /^src\/lib\.rs — struct Version, parse\(\), helper$/m);
    // its map lines name up to 40 symbols (DevA's and UI maps: 12)
    const many = tmp('cape-noui-');
    write(many, 'src/lib.rs', Array.from({ length: 30 }, (_, i) => `pub fn call${i}() {}\n`).join(''));
    const { index: i4 } = await WorkspaceIndex.open(many, { cacheFile: null });
    assert.match(packWorkspace(i4, { objective: 'call' }, { step: 'da', readText: read(many) }).text, /call29\(\)$/m);
    assert.match(packWorkspace(i4, { objective: 'call' }, { step: 'deva', budget: 1000, readText: () => null }).text, /call11, … \(\+18\)$/m);
    // no code at all: nothing
    const none = tmp('cape-noui-');
    write(none, 'docs/guide.md', '# Guide\n');
    const { index: i3 } = await WorkspaceIndex.open(none, { cacheFile: null });
    assert.strictEqual(packWorkspace(i3, { objective: 'guide' }, { step: 'da', readText: read(none) }).text, '');
  });
});

describe('git recency', () => {
  it('weighs recent and frequent changes, skips sweeping commits', () => {
    const log = ['', 'src/a.ts\nsrc/b.ts\n', 'src/a.ts\n', Array.from({ length: 20 }, (_, i) => `f${i}.ts`).join('\n'), 'src/c.ts\n'].join('\x01');
    const r = recencyFromLog(log);
    assert.strictEqual(r.get('src/a.ts'), 1);
    assert.ok(r.get('src/b.ts')! > r.get('src/c.ts')!, 'the newer commit weighs more');
    assert.ok(!r.has('f1.ts'), 'a commit touching 20 files is a sweep');
  });

  it('breaks a tie between equal text matches in favour of the file git changed lately; no git, no history', async () => {
    const root = tmp('cape-git-');
    write(root, 'src/export/pdf.ts', 'export function exportInvoice(id: string) { return id; }\n');
    write(root, 'src/export/csv.ts', 'export function exportInvoice(id: string) { return id; }\n');
    const git = (...args: string[]) => execFileSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { stdio: 'pipe' });
    const before = (await WorkspaceIndex.open(root, { cacheFile: null })).index;
    assert.strictEqual(before.recencyOf('src/export/pdf.ts'), 0);
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'both');
    write(root, 'src/export/pdf.ts', 'export function exportInvoice(id: string) { return id + ""; }\n');
    git('commit', '-q', '-am', 'pdf');
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    assert.ok(index.recencyOf('src/export/pdf.ts') > index.recencyOf('src/export/csv.ts'));
    assert.strictEqual(rankFiles(index, { objective: 'export invoice' })[0].path, 'src/export/pdf.ts');
    // a new commit is seen by the next update (HEAD moved), without a rebuild
    write(root, 'src/export/csv.ts', 'export function exportInvoice(id: string) { return "" + id; }\n');
    git('commit', '-q', '-am', 'csv');
    git('commit', '-q', '--allow-empty', '-m', 'empty');
    await index.update(['src/export/csv.ts']);
    assert.strictEqual(rankFiles(index, { objective: 'export invoice' })[0].path, 'src/export/csv.ts');
  });

  it('answers a history refresh that finds a read of the same history under way once that read is done', async () => {
    const root = tmp('cape-git-watch-');
    write(root, 'src/export/pdf.ts', 'export function exportInvoice(id: string) { return id; }\n');
    const git = (...args: string[]) => execFileSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { stdio: 'pipe' });
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'pdf');
    const watch = new HistoryWatch();
    // the index reads the history while it walks, and a file event's update may ask for it meanwhile
    const first = watch.refresh(root);
    await watch.refresh(root);
    assert.strictEqual(watch.current.recency.get('src/export/pdf.ts'), 1);
    await first;
    assert.strictEqual(watch.current.commits.length, 1);
  });

  it("runs no program a workspace's own git config names: log.showSignature with gpg.program is not honoured", async function () {
    if (process.platform === 'win32') this.skip();
    const root = tmp('cape-git-sig-');
    const outside = tmp('cape-git-sig-out-');
    const marker = path.join(outside, 'ran');
    const program = path.join(outside, 'fake-gpg.sh');
    fs.writeFileSync(program, `#!/bin/sh\ntouch '${marker}'\nexit 1\n`, { mode: 0o755 });
    write(root, 'src/export/pdf.ts', 'export function exportInvoice(id: string) { return id; }\n');
    const git = (...args: string[]) => execFileSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { stdio: 'pipe' }).toString();
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'pdf');
    // a commit that carries a signature (a hostile archive's .git can hold any), and config that verifies it on `git log`
    const head = git('rev-parse', 'HEAD').trim();
    const tree = git('rev-parse', 'HEAD^{tree}').trim();
    const signed = `tree ${tree}\nparent ${head}\nauthor t <t@t> 1700000000 +0000\ncommitter t <t@t> 1700000000 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n AAAA\n -----END PGP SIGNATURE-----\n\nsigned\n`;
    const sigFile = path.join(outside, 'commit.txt');
    fs.writeFileSync(sigFile, signed);
    git('update-ref', 'HEAD', git('hash-object', '-t', 'commit', '-w', sigFile).trim());
    git('config', 'log.showSignature', 'true');
    git('config', 'gpg.program', program);
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    assert.ok(!fs.existsSync(marker), 'the program named by the workspace\'s .git/config ran');
    assert.ok(index.recencyOf('src/export/pdf.ts') > 0, 'the history is still read');
  });

  it('reads the history of a linked worktree, of a submodule-style checkout (`.git` is a file naming the git folder) and of a folder of a repository', async function () {
    if (!spawnOk('git', ['--version'])) this.skip();
    const base = tmp('cape-git-linked-');
    const main = path.join(base, 'main');
    const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { stdio: 'pipe' });
    write(main, 'src/export/pdf.ts', 'export function exportInvoice(id: string) { return id; }\n');
    write(main, 'src/export/csv.ts', 'export function exportInvoice(id: string) { return id; }\n');
    git(main, 'init', '-q');
    git(main, 'add', '.');
    git(main, 'commit', '-q', '-m', 'both');
    const linked = path.join(base, 'linked');
    git(main, 'worktree', 'add', '-q', '-b', 'side', linked);
    write(linked, 'src/export/pdf.ts', 'export function exportInvoice(id: string) { return id + ""; }\n');
    git(linked, 'commit', '-q', '-am', 'pdf');
    // a submodule's checkout: `.git` is a file with a relative gitdir
    const sub = path.join(base, 'sub');
    fs.cpSync(main, sub, { recursive: true });
    fs.renameSync(path.join(sub, '.git'), path.join(base, 'sub-git'));
    fs.writeFileSync(path.join(sub, '.git'), 'gitdir: ../sub-git\n');
    write(sub, 'src/export/csv.ts', 'export function exportInvoice(id: string) { return "" + id; }\n');
    git(sub, 'commit', '-q', '-am', 'csv');
    // a folder of the repository opened alone: its own paths, from the commits that touched it
    const pkg = path.join(base, 'mono');
    write(pkg, 'packages/app/src/export/pdf.ts', 'export function exportInvoice(id: string) { return id; }\n');
    write(pkg, 'packages/app/src/export/csv.ts', 'export function exportInvoice(id: string) { return id; }\n');
    write(pkg, 'packages/other/x.ts', 'export const x = 1;\n');
    git(pkg, 'init', '-q');
    git(pkg, 'add', '.');
    git(pkg, 'commit', '-q', '-m', 'all');
    write(pkg, 'packages/app/src/export/pdf.ts', 'export function exportInvoice(id: string) { return id + ""; }\n');
    git(pkg, 'commit', '-q', '-am', 'pdf');
    const app = path.join(pkg, 'packages', 'app');
    // the repository's info/exclude holds for a linked worktree too (its git folder names the repository's), also when it changes
    write(linked, 'notes.md', '# my notes\n');
    write(linked, 'todo.md', '# my todo\n');
    fs.mkdirSync(path.join(main, '.git', 'info'), { recursive: true });
    fs.writeFileSync(path.join(main, '.git', 'info', 'exclude'), 'notes.md\n');
    const cacheFile = path.join(tmp('cape-git-linked-cache-'), 'i.idx');
    const linkedPaths = async () => [...(await WorkspaceIndex.open(linked, { cacheFile })).index.all()].map((f) => f.path).sort();
    assert.deepStrictEqual(await linkedPaths(), ['src/export/csv.ts', 'src/export/pdf.ts', 'todo.md']);
    fs.writeFileSync(path.join(main, '.git', 'info', 'exclude'), 'notes.md\ntodo.md\n');
    assert.deepStrictEqual(await linkedPaths(), ['src/export/csv.ts', 'src/export/pdf.ts']);
    for (const [root, changed, other] of [[linked, 'pdf', 'csv'], [sub, 'csv', 'pdf'], [app, 'pdf', 'csv']]) {
      const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
      assert.ok(index.recencyOf(`src/export/${changed}.ts`) > index.recencyOf(`src/export/${other}.ts`), root);
      assert.strictEqual(index.get('.git'), undefined, 'the .git file is not indexed');
      assert.ok([...index.recentFiles().keys()].every((p) => index.get(p) || !p.startsWith('packages/')), 'paths of the workspace');
    }
  });
});
