// The map lines that show a product's interface with its signatures (src/core/workspace/mapLines.ts interfaceLine):
// DA's map of a workspace without UI files (pack.ts) — as many names as fit bare, then the first public ones with
// their signatures, each line within API_MAP_LINE_CHARS so one large file leaves room to the others; DevA's first few
// product source lines (mapSection.ts SIGNED_MAP_LINES), within a share of its map's room — and init's code map of a Rust crate (cape/initFactsCode.ts), within its room; in both, the signatures of
// the names whose words the work writes come first (signingPlaces).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { interfaceLine, mapLine, signingPlaces, workWords } from '../../src/core/workspace/mapLines';
import { packWorkspace } from '../../src/core/workspace/pack';
import { API_MAP_LINE_CHARS, packMapLines, SIGNED_MAP_LINES } from '../../src/core/workspace/mapSection';
import type { PackedFile } from '../../src/core/workspace/pack';
import { WorkspaceIndex } from '../../src/core/workspace/workspaceIndex';
import { codeLines, codePart } from '../../src/core/cape/initFactsCode';
import { noSources } from '../../src/core/cape/initFactsText';
import { NO_CALLS } from '../../src/core/workspace/docCalls';
import { tempDir } from '../helpers/cli';

const put = (ws: string, rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
  fs.writeFileSync(path.join(ws, rel), text);
};
const reader = (ws: string) => (rel: string) => fs.readFileSync(path.join(ws, rel), 'utf8');

/** A crate shaped like dtolnay/semver: a struct with public and private fields, an impl with multi-line parameters. */
const LIB_RS = [
  'pub struct Version {',
  '    pub major: u64,',
  '    pub minor: u64,',
  '    pub patch: u64,',
  '    raw: String,',
  '}',
  'impl Version {',
  '    pub const fn new(',
  '        major: u64,',
  '        minor: u64,',
  '        patch: u64,',
  '    ) -> Self {',
  '        Version { major, minor, patch, raw: String::new() }',
  '    }',
  "    pub fn parse(text: &'_ str) -> Result<Self, Error> {",
  '        todo!()',
  '    }',
  '}',
  'fn helper(input: &str) -> usize {',
  '    0',
  '}',
].join('\n');

describe('interface map lines: names, then signatures as the room allows', () => {
  /** No work: signatures in file order. */
  const none = workWords('');

  it('shows public names with their signatures and internal names bare after them, within the cap', () => {
    assert.strictEqual(
      interfaceLine('src/lib.rs', LIB_RS, [], 40, 1000, none),
      'src/lib.rs — struct Version { major: u64, minor: u64, patch: u64, .. }, Version.new(major: u64, minor: u64, patch: u64) -> Self, Version.parse(text: &str) -> Result<Self, Error>, helper',
    );
    // less room: every name still, the first with their signatures
    const bare = 'src/lib.rs — Version, Version.new, Version.parse, helper';
    assert.strictEqual(interfaceLine('src/lib.rs', LIB_RS, [], 40, bare.length + 70, none), 'src/lib.rs — struct Version { major: u64, minor: u64, patch: u64, .. }, Version.new, Version.parse, helper');
    // less still: as many names as fit, the rest counted
    const cut = 'src/lib.rs — Version, Version.new, … (+2)';
    assert.strictEqual(interfaceLine('src/lib.rs', LIB_RS, [], 40, cut.length, none), cut);
    assert.strictEqual(interfaceLine('src/lib.rs', LIB_RS, [], 1, 1000, none), 'src/lib.rs — struct Version { major: u64, minor: u64, patch: u64, .. }, … (+3)');
    // a file that does not read: the index's names, bare
    assert.strictEqual(interfaceLine('src/lib.rs', null, ['Version', 'parse'], 40, 1000, none), mapLine('src/lib.rs', ['Version', 'parse']));
  });

  it("a plugin whose default export installs its API by assignments: the members it assigns, with their parameters, before its helpers", () => {
    // as Day.js's timezone and utc plugins are written
    const plugin = [
      "import { MS } from '../../constant'",
      '',
      'const typeToPos = { year: 0 }',
      "function offsetFromString(value = '') {",
      '  return value.length',
      '}',
      '',
      'export default (o, c, d) => {',
      '  let defaultTimezone',
      '  const proto = c.prototype',
      '',
      '  proto.tz = function (timezone = defaultTimezone, keepLocalTime) {',
      '    const target = this.toDate()',
      '    ins.x = 1',
      '  }',
      '  proto._internal = () => 0',
      '  proto.offsetName = function (type) {',
      '    return type',
      '  }',
      '  d.tz = function (input, arg1, arg2) {',
      '    return input',
      '  }',
      '  d.tz.guess = function () {',
      '    return 0',
      '  }',
      '  d.tz.setDefault = (timezone) => {',
      '    defaultTimezone = timezone',
      '  }',
      '  if (proto.tz == null) proto.other = 1',
      '}',
      '',
    ].join('\n');
    assert.strictEqual(
      interfaceLine('src/plugin/timezone/index.js', plugin, [], 40, 1000, none),
      'src/plugin/timezone/index.js — proto.tz(timezone = defaultTimezone, keepLocalTime), proto.offsetName(type), d.tz(input, arg1, arg2), d.tz.guess(), d.tz.setDefault(timezone), offsetFromString(value = \'\')',
    );
    // alone: the file named nothing before
    const bare = plugin.replace(/^function [^]*?\n\}\n/m, '');
    assert.strictEqual(interfaceLine('src/p.js', bare, [], 2, 1000, none), 'src/p.js — proto.tz(timezone = defaultTimezone, keepLocalTime), proto.offsetName(type), … (+3)');
    // CommonJS alike; a file whose default export is no function, or another language, names none so
    assert.strictEqual(interfaceLine('lib/x.js', 'module.exports = function ($) {\n  $.fn.spoiler = function (opts) {}\n}\n', [], 40, 1000, none), 'lib/x.js — $.fn.spoiler(opts)');
    assert.strictEqual(interfaceLine('lib/y.js', 'export default {\n  a.b = 1\n}\n', [], 40, 1000, none), 'lib/y.js');
    assert.strictEqual(interfaceLine('lib/z.py', 'export default (o) => {\n  o.x = function (a) {}\n}\n', [], 40, 1000, none), 'lib/z.py');
  });

  it('gives the names whose words the work writes their signatures first (split, normalised and stemmed as the ranking reads it), then the others in file order', () => {
    const names = ['Version', 'Version.new', 'Version.bump_major', 'VersionReq.matches', 'parseURL', 'isEqual'];
    // bump_major: bump, major; Version and VersionReq.matches (matching → match): one word each; a method by its own name (new: none)
    assert.deepStrictEqual(signingPlaces(names, workWords('Bump the major version; explain why a requirement is not matching')), [1, 3, 0, 2, 4, 5]);
    // a name the work writes whole matches its parts and its whole (isequal): before one that shares a word (url)
    assert.deepStrictEqual(signingPlaces(names, workWords('compare two urls with `isEqual`')), [2, 3, 4, 5, 1, 0]);
    assert.deepStrictEqual(signingPlaces(names, workWords('')), [0, 1, 2, 3, 4, 5], 'no work: file order');
    // a line with room for one signature gives it to the name the work is about, wherever it is in the file
    const bare = 'src/lib.rs — Version, Version.new, Version.parse, helper';
    const one = interfaceLine('src/lib.rs', LIB_RS, [], 40, bare.length + 50, workWords('parse text'));
    assert.strictEqual(one, 'src/lib.rs — Version, Version.new, Version.parse(text: &str) -> Result<Self, Error>, helper');
    assert.strictEqual(interfaceLine('src/lib.rs', LIB_RS, [], 40, bare.length + 50, none), 'src/lib.rs — struct Version { major: u64, minor: u64, patch: u64, .. }, Version.new, Version.parse, helper');
  });

  it("gives DA's map of a library its signatures, each line within the cap, so a large file leaves room to the others", async () => {
    const ws = tempDir('cape-interface-map-');
    put(ws, 'Cargo.toml', '[package]\nname = "semver"\n');
    put(ws, 'src/lib.rs', LIB_RS);
    // a large module: 40 public functions with long parameter lists, each alone near the signature's bound
    const long = Array.from({ length: 40 }, (_, i) => `pub fn version_operation_${i}(first_version: &Version, second_version: &Version) -> Version {}`);
    put(ws, 'src/ops.rs', long.join('\n'));
    put(ws, 'src/parse.rs', 'pub fn parse_version(text: &str) -> Result<Version, Error> {}\n');
    const { index } = await WorkspaceIndex.open(ws, { cacheFile: null });
    const da = packWorkspace(index, { objective: 'parse a version, version operations' }, { step: 'da', readText: reader(ws) });
    const lines = da.text.split('\n');
    const lib = lines.find((l) => l.startsWith('src/lib.rs — '))!;
    assert.match(lib, /Version\.new\(major: u64, minor: u64, patch: u64\) -> Self/);
    assert.ok(!lib.includes('todo!'), 'no code body');
    const ops = lines.find((l) => l.startsWith('src/ops.rs — '))!;
    assert.ok(ops.length <= API_MAP_LINE_CHARS, `${ops.length}`);
    assert.match(ops, /^src\/ops\.rs — version_operation_0\(first_version: &Version, second_version: &Version\) -> Version, /);
    assert.match(ops, /version_operation_39$/, 'every name shown, the last ones bare');
    // the criteria (the pack's `work`) name the last one: its signature comes first
    const named = packWorkspace(index, { objective: 'parse a version', work: 'Given `version_operation_39`, it returns the next version' }, { step: 'da', readText: reader(ws) });
    const opsNamed = named.text.split('\n').find((l) => l.startsWith('src/ops.rs — '))!;
    assert.match(opsNamed, /, version_operation_39\(first_version: &Version, second_version: &Version\) -> Version$/);
    assert.ok(opsNamed.length <= API_MAP_LINE_CHARS, `${opsNamed.length}`);
    assert.ok(lines.some((l) => l.startsWith('src/parse.rs — parse_version(text: &str) -> Result<Version, Error>')), da.text);
    assert.ok(da.totalChars <= da.budget);
    // DevA's map lines of files that do not read name the symbols alone
    const deva = packWorkspace(index, { objective: 'parse a version' }, { step: 'deva', budget: 1000, readText: () => null });
    assert.ok(deva.text.split('\n').includes(mapLine('src/lib.rs', ['Version', 'Version.new', 'Version.parse', 'helper'])), deva.text);
  });

  it("gives DevA's first map lines of product source files their signatures, within a share of the map's room; tests and later lines stay names", async () => {
    const ws = tempDir('cape-deva-signed-');
    put(ws, 'Cargo.toml', '[package]\nname = "semver"\n');
    // more product files than get signatures, each named by the objective so each ranks, each too large to go whole
    const body = '// parses one part of a version\n'.repeat(60);
    put(ws, 'src/lib.rs', LIB_RS + body);
    for (let i = 0; i < SIGNED_MAP_LINES + 3; i++) put(ws, `src/version_part${i}.rs`, `pub fn version_part${i}(text: &str, strict: bool) -> Result<Version, Error> {}\n${body}`);
    put(ws, 'tests/version_test.rs', `#[test]\npub fn version_parses(text: &str) {}\n${body}`);
    const { index } = await WorkspaceIndex.open(ws, { cacheFile: null });
    const read: string[] = [];
    // a budget too small for whole files: everything is a map line
    const deva = packWorkspace(index, { objective: 'parse a version part' }, { step: 'deva', budget: 1200, readText: (rel) => (read.push(rel), reader(ws)(rel)) });
    assert.ok(deva.files.every((f) => !f.whole) && deva.totalChars <= deva.budget, deva.text);
    const lines = deva.text.split('\n').filter((l) => /^\S+ — /.test(l));
    const signed = lines.filter((l) => l.includes('('));
    assert.ok(signed.length >= 1 && signed.length <= SIGNED_MAP_LINES, deva.text);
    assert.ok(signed.some((l) => /version_part\d\(text: &str, strict: bool\) -> Result<Version, Error>/.test(l)), deva.text);
    assert.ok(!lines.some((l) => l.startsWith('tests/') && l.includes('(')), 'a test file is no interface');
    assert.ok(lines.length > signed.length, 'the map goes on past the signed lines');
    const bare = lines.filter((l) => !l.includes('(')).map((l) => l.split(' — ')[0]);
    assert.ok(!bare.some((p) => p.startsWith('src/') && read.includes(p)), `no file read for a line of names alone: ${read.join(', ')}`);
    // with room, exactly the first six product files' lines sign, and what signing adds stays within half the room
    for (const budget of [6000, 9000]) {
      const roomy = packWorkspace(index, { objective: 'parse a version part' }, { step: 'deva', budget, readText: reader(ws) });
      const mapped = roomy.text.split('\n').filter((l) => /^\S+ — /.test(l));
      const roomySigned = mapped.filter((l) => l.includes('('));
      assert.ok(mapped.length > SIGNED_MAP_LINES, `budget ${budget}: ${roomy.text}`);
      assert.strictEqual(roomySigned.length, SIGNED_MAP_LINES, `budget ${budget}: ${roomy.text}`);
      const added = roomySigned.reduce((n, l) => {
        const p = l.split(' — ')[0];
        return n + l.length - mapLine(p, index.get(p)!.symbols).length;
      }, 0);
      assert.ok(added > 0 && added <= budget / 2, `budget ${budget}: ${added}`);
    }
  });

  it("DevA's map keeps a file's plain line when its signed line would not fit in the room left (it never ends the map for it)", async () => {
    const ws = tempDir('cape-deva-signed-fit-');
    put(ws, 'tests/a_test.rs', 'pub fn checks_one_thing() {}\npub fn checks_another_thing() {}\n');
    put(ws, 'src/lib.rs', 'pub fn parse_version_text(text: &str) -> Version {}\n');
    const { index } = await WorkspaceIndex.open(ws, { cacheFile: null });
    const testLine = mapLine('tests/a_test.rs', index.get('tests/a_test.rs')!.symbols);
    const plain = mapLine('src/lib.rs', index.get('src/lib.rs')!.symbols);
    // 100 characters of room: half of it may go to signatures; the test file's line leaves room for the plain line only
    const st = { budget: 200, used: 100, readText: reader(ws), files: [] as PackedFile[], calls: NO_CALLS };
    const part = packMapLines(index, [{ path: 'tests/a_test.rs', score: 2 }, { path: 'src/lib.rs', score: 1 }], { objective: 'parse a version' }, st, { step: 'deva', daApi: false });
    assert.ok(100 + testLine.length + 1 + plain.length + 1 <= 200 && plain.length + 30 > 200 - 100 - testLine.length - 1, 'the case: only the plain line fits');
    assert.deepStrictEqual(part.lines, [testLine, plain]);
    // with room, the same file's line is signed
    const roomy = packMapLines(index, [{ path: 'src/lib.rs', score: 1 }], { objective: 'parse a version' }, { ...st, files: [] }, { step: 'deva', daApi: false });
    assert.deepStrictEqual(roomy.lines, ['src/lib.rs — parse_version_text(text: &str) -> Version']);
  });

  it("reads no more of a large library's files for DA's map than its lines can show: each is cut to the room left", async () => {
    const ws = tempDir('cape-interface-room-');
    for (let i = 0; i < 120; i++) {
      put(ws, `src/mod${i}.rs`, Array.from({ length: 12 }, (_, j) => `pub fn operation_${i}_${j}(first: &Version, second: &Version) -> Version {}`).join('\n'));
    }
    const { index } = await WorkspaceIndex.open(ws, { cacheFile: null });
    const read: string[] = [];
    const da = packWorkspace(index, { objective: 'version operation' }, { step: 'da', budget: 3000, readText: (rel) => (read.push(rel), reader(ws)(rel)) });
    const mapped = da.files.length;
    assert.ok(mapped >= 2 && da.totalChars <= da.budget, `${mapped} lines, ${da.totalChars} chars`);
    assert.ok(read.length <= mapped + 1, `${read.length} files read for ${mapped} lines`);
  });

  it("gives init's code map of a crate its signatures within the part's room, those of the names the answers write first", async () => {
    const ws = tempDir('cape-interface-init-');
    put(ws, 'Cargo.toml', '[package]\nname = "semver"\n');
    put(ws, 'src/lib.rs', LIB_RS);
    const { index } = await WorkspaceIndex.open(ws, { cacheFile: null });
    const lines = codeLines(index, 'parse versions');
    const roomy = codePart(lines, noSources(), 1500)!;
    assert.ok(
      roomy.includes('src/lib.rs — struct Version { major: u64, minor: u64, patch: u64, .. }, Version.new(major: u64, minor: u64, patch: u64) -> Self, Version.parse(text: &str) -> Result<Self, Error>; internal: helper'),
      roomy,
    );
    for (const max of [400, 330]) {
      const tight = codePart(lines, noSources(), max)!;
      assert.ok(tight.length <= max, `${tight.length} > ${max}`);
      assert.ok(tight.includes('Version.parse'), tight);
    }
    // room for one signature: the one whose name the answers write, else the first in the file
    const oneSigned = (query: string) => codePart(codeLines(index, query), noSources(), 330)!.split('\n')[2];
    assert.strictEqual(oneSigned('parse a string'), 'src/lib.rs — Version, Version.new, Version.parse(text: &str) -> Result<Self, Error>; +1 internal');
    assert.strictEqual(oneSigned(''), 'src/lib.rs — struct Version { major: u64, minor: u64, patch: u64, .. }, Version.new, Version.parse; +1 internal');
  });
});
