// The project's formatter on DevA's proposal before the checks (src/core/checks/format.ts, loop.ts): detected from
// the project's configuration and installation, run in the scratch copy on the files it leaves as they are on the
// unchanged code, its layout taken into the proposal; a fix may quote DevA's own version of a file it laid out.
// With the real Prettier and Biome (development dependencies of ours, linked into each workspace as the project's
// own), Debian's Black and gofmt where installed (scripts/install-black.sh, install-go.sh), and Ruff's detection only
// (Ruff is not packaged for this Debian).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import which from 'which';
import { detectFormatter, runCheckLoop, unformattedModified, type CheckEvent, type ProposedFile, type Scratch } from '../../src/core';

const PRETTIER = path.dirname(require.resolve('prettier/package.json'));
const BIOME = path.dirname(require.resolve('@biomejs/biome/package.json'));

function workspace(prettierConfig: Record<string, string> = { '.prettierrc': '{ "singleQuote": true }\n' }): string {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-format-'));
  for (const [rel, body] of Object.entries({ 'package.json': '{"name":"w","private":true}\n', ...prettierConfig })) fs.writeFileSync(path.join(ws, rel), body);
  fs.mkdirSync(path.join(ws, 'node_modules'));
  fs.symlinkSync(PRETTIER, path.join(ws, 'node_modules', 'prettier'), 'dir');
  fs.mkdirSync(path.join(ws, 'src'));
  return ws;
}

const file = (relPath: string, content: string, action: 'create' | 'modify'): ProposedFile => ({ path: relPath, relPath, content, status: 'proposed', action });
/** A lint that runs the formatter, as eslint-plugin-prettier or `prettier --check` does. */
const prettierCheck = 'node node_modules/prettier/bin/prettier.cjs --check src';

describe("checks: the project's formatter on DevA's proposal (format.ts)", function () {
  this.timeout(60_000);

  it('is Prettier where the project configures it (a config file or package.json) and installs it; else none', async () => {
    const ws = workspace();
    assert.strictEqual((await detectFormatter(ws))?.name, 'Prettier');
    const inPackage = workspace({ 'package.json': '{"name":"w","prettier":{"semi":false}}\n' });
    assert.strictEqual((await detectFormatter(inPackage))?.name, 'Prettier');
    const unconfigured = workspace({});
    assert.strictEqual(await detectFormatter(unconfigured), null, 'installed (a dependency of a dependency) but not configured');
    fs.rmSync(path.join(ws, 'node_modules', 'prettier'));
    assert.strictEqual(await detectFormatter(ws), null, 'configured but not installed');
    const f = (await detectFormatter(inPackage))!;
    assert.deepStrictEqual(['src/a.ts', 'src/b.tsx', 'README.md', 'src/c.py', 'src/d.go'].map((p) => f.handles(p)), [true, true, true, false, false]);
  });

  it('lays out new files and changed files the formatter left alone before; a file it never formatted stays as DevA wrote it; no fix round', async () => {
    const ws = workspace();
    fs.writeFileSync(path.join(ws, 'src', 'tidy.ts'), "export const a = { b: 1 };\n");
    const untidy = 'export const  legacy = {x:1}\n';
    fs.writeFileSync(path.join(ws, 'src', 'legacy.ts'), untidy);
    const files = [
      file('src/new.ts', 'export const n = {m:"x"}\n', 'create'),
      file('src/tidy.ts', 'export const a = {b:2}\n', 'modify'),
      file('src/legacy.ts', 'export const  legacy = {x:2}\n', 'modify'),
      file('src/notes.py', 'x  =  1\n', 'create'),
    ];
    const events: CheckEvent[] = [];
    let asked = 0;
    const { files: out, outcome } = await runCheckLoop({
      commands: ['node -e "process.exit(0)"'],
      workspace: ws,
      capeFolder: 'cape',
      files,
      askFix: async () => (asked++, ''),
      onEvent: (e) => events.push(e),
    });
    assert.strictEqual(outcome.passed, true);
    const content = (p: string) => out.find((f) => f.relPath === p)!.content;
    assert.strictEqual(content('src/new.ts'), "export const n = { m: 'x' };\n", 'a new file, in the project\'s layout (single quotes)');
    assert.strictEqual(content('src/tidy.ts'), 'export const a = { b: 2 };\n');
    assert.strictEqual(content('src/legacy.ts'), 'export const  legacy = {x:2}\n', 'not formatted on the unchanged code: left as DevA wrote it');
    assert.strictEqual(content('src/notes.py'), 'x  =  1\n', 'not a file Prettier formats');
    assert.deepStrictEqual(outcome.formatted, [{ round: 0, by: 'Prettier', files: ['src/new.ts', 'src/tidy.ts'] }]);
    assert.deepStrictEqual(events.filter((e) => e.type === 'formatted'), [{ type: 'formatted', round: 0, by: 'Prettier', files: ['src/new.ts', 'src/tidy.ts'] }]);
    assert.strictEqual(asked, 0);
    assert.strictEqual(fs.readFileSync(path.join(ws, 'src', 'legacy.ts'), 'utf8'), untidy, "the user's tree is never written");
    assert.ok(!fs.existsSync(path.join(ws, 'src', 'new.ts')));
  });

  it("a lint that runs Prettier passes without a fix round; with the formatter off it costs one", async () => {
    const ws = workspace();
    const files = [file('src/view.tsx', 'export const View = () => <div className="x">{items.map(i=>i.name)}</div>\n', 'create')];
    const on = await runCheckLoop({ commands: [prettierCheck], workspace: ws, capeFolder: 'cape', files, askFix: async () => assert.fail('no fix round') });
    assert.strictEqual(on.outcome.passed, true);
    assert.strictEqual(on.outcome.fixRounds.length, 0);
    const requests: string[] = [];
    const off = await runCheckLoop({ commands: [prettierCheck], format: false, workspace: ws, capeFolder: 'cape', files, fixRounds: 1, askFix: async (r) => (requests.push(r), '') });
    assert.strictEqual(off.outcome.passed, false);
    assert.strictEqual(requests.length, 1, 'the unformatted file failed the lint: a fix round');
    assert.strictEqual(off.outcome.formatted, undefined);
    assert.strictEqual(off.files[0].content, files[0].content);
  });

  it('is Biome where the project configures it (biome.json) and installs it; a file it formats is laid out, one it was not is left alone', async () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-format-biome-'));
    fs.writeFileSync(path.join(ws, 'package.json'), '{"name":"w","private":true}\n');
    fs.mkdirSync(path.join(ws, 'node_modules', '@biomejs'), { recursive: true });
    fs.mkdirSync(path.join(ws, 'src'));
    assert.strictEqual(await detectFormatter(ws), null, 'installed but not configured');
    fs.writeFileSync(path.join(ws, 'biome.json'), '{ "javascript": { "formatter": { "quoteStyle": "single" } } }\n');
    assert.strictEqual(await detectFormatter(ws), null, 'configured but not installed');
    fs.symlinkSync(BIOME, path.join(ws, 'node_modules', '@biomejs', 'biome'), 'dir');
    const f = (await detectFormatter(ws))!;
    assert.strictEqual(f.name, 'Biome');
    assert.deepStrictEqual(['src/a.ts', 'src/b.jsx', 'biome.json', 'README.md', 'src/c.py'].map((p) => f.handles(p)), [true, true, true, false, false]);
    fs.writeFileSync(path.join(ws, 'src', 'tidy.ts'), "export const a = { b: 'x' };\n");
    const untidy = 'export const  legacy = {x:1}\n';
    fs.writeFileSync(path.join(ws, 'src', 'legacy.ts'), untidy);
    const seen = path.join(os.tmpdir(), `cape-format-biome-seen-${process.pid}.txt`);
    const files = [
      file('src/new.ts', 'export const n = {m:"x"}\n', 'create'),
      file('src/tidy.ts', 'export const a = {b:"y"}\n', 'modify'),
      file('src/legacy.ts', 'export const  legacy = {x:2}\n', 'modify'),
    ];
    // the check records what it saw of legacy.ts: DevA's version, not one the formatter put back wrongly
    const check = `node -e "require('fs').writeFileSync(process.argv[1], require('fs').readFileSync('src/legacy.ts','utf8'))" ${JSON.stringify(seen)}`;
    const { files: out, outcome } = await runCheckLoop({ commands: [check], workspace: ws, capeFolder: 'cape', files, askFix: async () => assert.fail('no fix round') });
    assert.strictEqual(outcome.passed, true);
    const content = (p: string) => out.find((x) => x.relPath === p)!.content;
    assert.strictEqual(content('src/new.ts'), "export const n = { m: 'x' };\n");
    assert.strictEqual(content('src/tidy.ts'), "export const a = { b: 'y' };\n");
    assert.strictEqual(content('src/legacy.ts'), 'export const  legacy = {x:2}\n');
    assert.strictEqual(fs.readFileSync(seen, 'utf8'), 'export const  legacy = {x:2}\n');
    assert.deepStrictEqual(outcome.formatted, [{ round: 0, by: 'Biome', files: ['src/new.ts', 'src/tidy.ts'] }]);
    assert.strictEqual(fs.readFileSync(path.join(ws, 'src', 'legacy.ts'), 'utf8'), untidy, "the user's tree is never written");
    fs.rmSync(seen, { force: true });
  });

  it("is Black where pyproject.toml configures it; a file linked out of the workspace is never formatted through the link", async function () {
    if (!(await which('black', { nothrow: true }))) this.skip();
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-format-black-'));
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-format-outside-'));
    fs.writeFileSync(path.join(ws, 'pyproject.toml'), '[project]\nname = "w"\n');
    assert.strictEqual(await detectFormatter(ws), null, 'Black on PATH, but the project does not configure it');
    fs.writeFileSync(path.join(ws, 'pyproject.toml'), '[project]\nname = "w"\n\n[tool.black]\nline-length = 100\n');
    assert.strictEqual((await detectFormatter(ws))?.name, 'Black');
    fs.mkdirSync(path.join(ws, 'pkg'));
    fs.writeFileSync(path.join(ws, 'pkg', 'tidy.py'), 'x = {"a": 1}\n');
    const shared = 'y  =  {"a":1}\n';
    fs.writeFileSync(path.join(outside, 'shared.py'), shared);
    fs.utimesSync(path.join(outside, 'shared.py'), new Date('2001-01-01'), new Date('2001-01-01'));
    fs.symlinkSync(path.join(outside, 'shared.py'), path.join(ws, 'pkg', 'shared.py'));
    const files = [
      file('pkg/new.py', "def f( a ):\n    return {'a':a}\n", 'create'),
      file('pkg/tidy.py', "x = {'a': 2}\n", 'modify'),
      file('pkg/shared.py', 'y  =  {"a":2}\n', 'modify'),
    ];
    const { files: out, outcome } = await runCheckLoop({ commands: ['black --check pkg/new.py pkg/tidy.py'], workspace: ws, capeFolder: 'cape', files, askFix: async () => assert.fail('no fix round') });
    assert.strictEqual(outcome.passed, true);
    const content = (p: string) => out.find((x) => x.relPath === p)!.content;
    assert.strictEqual(content('pkg/new.py'), 'def f(a):\n    return {"a": a}\n');
    assert.strictEqual(content('pkg/tidy.py'), 'x = {"a": 2}\n');
    assert.strictEqual(content('pkg/shared.py'), 'y  =  {"a":2}\n', 'a link in the copy: left as DevA wrote it');
    assert.strictEqual(fs.readFileSync(path.join(outside, 'shared.py'), 'utf8'), shared, 'the file the link leads to is never written');
    assert.strictEqual(fs.statSync(path.join(outside, 'shared.py')).mtime.getUTCFullYear(), 2001, 'not even written and put back');
    assert.deepStrictEqual(outcome.formatted, [{ round: 0, by: 'Black', files: ['pkg/new.py', 'pkg/tidy.py'] }]);
  });

  it("is Ruff's formatter where the project configures formatting (not linting alone) and has ruff", async () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-format-ruff-'));
    fs.mkdirSync(path.join(ws, '.venv', 'bin'), { recursive: true });
    fs.writeFileSync(path.join(ws, '.venv', 'bin', 'ruff'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    fs.writeFileSync(path.join(ws, 'pyproject.toml'), '[tool.ruff]\nline-length = 100\n');
    assert.strictEqual(await detectFormatter(ws), null, 'ruff configured for linting only: `ruff check` is a check, not a formatter');
    fs.writeFileSync(path.join(ws, 'pyproject.toml'), '[tool.ruff]\nline-length = 100\n\n[tool.ruff.format]\nquote-style = "single"\n');
    const f = (await detectFormatter(ws))!;
    assert.strictEqual(f.name, 'Ruff');
    assert.strictEqual(f.writeCommand(['a b.py', 'c.py']), ".venv/bin/ruff format --quiet 'a b.py' c.py");
    assert.deepStrictEqual(['a.py', 'a.pyi', 'a.ts'].map((p) => f.handles(p)), [true, true, false]);
    fs.writeFileSync(path.join(ws, 'pyproject.toml'), '[project]\nname = "w"\n');
    fs.writeFileSync(path.join(ws, '.pre-commit-config.yaml'), 'repos:\n  - repo: https://github.com/astral-sh/ruff-pre-commit\n    hooks:\n      - id: ruff\n      - id: ruff-format\n');
    assert.strictEqual((await detectFormatter(ws))?.name, 'Ruff', 'the ruff-format pre-commit hook');
  });

  it('is gofmt for a Go module, when gofmt is on PATH', async function () {
    if (!(await which('gofmt', { nothrow: true }))) this.skip();
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-format-go-'));
    fs.writeFileSync(path.join(ws, 'go.mod'), 'module example.com/w\n\ngo 1.20\n');
    assert.strictEqual((await detectFormatter(ws))?.name, 'gofmt');
    const files = [file('w.go', 'package w\n\nfunc Add(a,b int) int {\nreturn a+b\n}\n', 'create')];
    const { files: out, outcome } = await runCheckLoop({ commands: ['gofmt -l . | grep -q . && exit 1 || exit 0'], workspace: ws, capeFolder: 'cape', files, askFix: async () => assert.fail('no fix round') });
    assert.strictEqual(outcome.passed, true);
    assert.strictEqual(out[0].content, 'package w\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n');
  });

  it("a fix round's hunk may quote DevA's own version of a file the formatter laid out; the fix is laid out too", async () => {
    const ws = workspace();
    const files = [file('src/flag.ts', 'export const flag = {on:false}\n', 'create')];
    const requests: string[] = [];
    const check = `node -e "process.exit(/on: true/.test(require('fs').readFileSync('src/flag.ts','utf8'))?0:1)"`;
    const fix = '<edit path="src/flag.ts">\n<<<<<<< SEARCH\nexport const flag = {on:false}\n=======\nexport const flag = {on:true}\n>>>>>>> REPLACE\n</edit>\n';
    const { files: out, outcome } = await runCheckLoop({ commands: [check], workspace: ws, capeFolder: 'cape', files, askFix: async (r) => (requests.push(r), fix) });
    assert.strictEqual(outcome.passed, true, JSON.stringify(outcome.fixRounds.map((f) => f.problems)));
    assert.match(requests[0], /The project's formatter \(Prettier\) laid out src\/flag\.ts before the checks ran, as the user will see them; a SEARCH may quote your own version or the formatted one\./);
    assert.deepStrictEqual(outcome.fixRounds[0].problems, []);
    assert.strictEqual(out[0].content, 'export const flag = { on: true };\n');
    assert.deepStrictEqual(outcome.formatted?.map((f) => [f.round, f.files]), [[0, ['src/flag.ts']], [1, ['src/flag.ts']]]);
  });

  it("every file a formatter's list names counts, however long the list: it is no output for DevA, cut to a few thousand characters", async () => {
    // 50 files (one command's worth) in a deep folder: the list is over 9,000 characters; each would be changed
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-format-'));
    const dir = `packages/${'generated-client'.repeat(10)}/src`;
    fs.mkdirSync(path.join(ws, dir), { recursive: true });
    const files = Array.from({ length: 50 }, (_, i) => file(`${dir}/model${i}.ts`, 'export const a = {b:1}\n', 'modify'));
    for (const f of files) fs.writeFileSync(path.join(ws, f.relPath!), 'export const a = {b:0}\n');
    const lister = `node -e "console.log(process.argv.slice(1).join('\\n')); process.exit(1)"`;
    const formatter = { name: 'Lister', handles: () => true, writeCommand: () => 'true', listCommand: (names: string[]) => `${lister} ${names.join(' ')}` };
    const left = await unformattedModified(files, { formatter, scratch: { dir: ws, env: {} } as unknown as Scratch });
    assert.strictEqual(left.size, 50, 'each listed file is left as DevA wrote it');
  });
});

describe("checks: the formatter never writes through a link of the scratch copy (format.ts)", function () {
  this.timeout(60_000);
  const untidy = 'const a={b:1}\nmodule.exports=a\n';

  /** A workspace with a vendored file the formatter would change (vendor/ is linked into the copy, not copied). */
  function vendored(ws: string): string {
    fs.mkdirSync(path.join(ws, 'vendor', 'lib'), { recursive: true });
    const real = path.join(ws, 'vendor', 'lib', 'x.js');
    fs.writeFileSync(real, untidy);
    fs.utimesSync(real, new Date('2001-01-01'), new Date('2001-01-01'));
    return real;
  }
  const untouched = (real: string) => {
    assert.strictEqual(fs.readFileSync(real, 'utf8'), untidy, "the user's file is as it was");
    assert.strictEqual(fs.statSync(real).mtime.getUTCFullYear(), 2001, 'not even written and put back');
  };

  it('a fix round that edits a file under a linked folder: not written to the copy, never formatted (Prettier)', async () => {
    const ws = workspace();
    const real = vendored(ws);
    const fix = '<edit path="vendor/lib/x.js">\n<<<<<<< SEARCH\nmodule.exports=a\n=======\nmodule.exports=a // FIXED\n>>>>>>> REPLACE\n</edit>\n';
    const { outcome } = await runCheckLoop({
      commands: ['node -e "process.exit(1)"'],
      fixRounds: 1,
      workspace: ws,
      capeFolder: 'cape',
      files: [file('src/new.js', 'module.exports = 1;\n', 'create')],
      askFix: async () => fix,
    });
    untouched(real);
    assert.ok(!outcome.formatted?.some((f) => f.files.includes('vendor/lib/x.js')), JSON.stringify(outcome.formatted));
  });

  it('a first proposal changing a file under a linked folder: the formatter without a list command never sees it; DevA\'s change stays (Biome)', async () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-format-biome-'));
    fs.writeFileSync(path.join(ws, 'package.json'), '{"name":"w","private":true}\n');
    fs.writeFileSync(path.join(ws, 'biome.json'), '{}\n');
    fs.mkdirSync(path.join(ws, 'node_modules', '@biomejs'), { recursive: true });
    fs.symlinkSync(BIOME, path.join(ws, 'node_modules', '@biomejs', 'biome'), 'dir');
    const real = vendored(ws);
    const proposed = 'const a={b:1}\na.d=3\nmodule.exports=a\n';
    const { files: out, outcome } = await runCheckLoop({
      commands: ['node -e "process.exit(0)"'],
      workspace: ws,
      capeFolder: 'cape',
      files: [file('vendor/lib/x.js', proposed, 'modify'), file('src/new.js', 'module.exports={n:1}\n', 'create')],
      askFix: async () => assert.fail('no fix round'),
    });
    untouched(real);
    assert.strictEqual(out[0].content, proposed, "DevA's change, as DevA wrote it");
    assert.deepStrictEqual(outcome.formatted, [{ round: 0, by: 'Biome', files: ['src/new.js'] }]);
  });

  it('a file a fix round changes first is left as DevA wrote it when the formatter would change it on the unchanged code', async () => {
    const ws = workspace();
    const legacy = 'function  legacy( a,b ){\n  return a+b\n}\nmodule.exports={legacy}\n';
    fs.writeFileSync(path.join(ws, 'src', 'legacy.js'), legacy);
    const fix = '<edit path="src/legacy.js">\n<<<<<<< SEARCH\n  return a+b\n=======\n  return a+b // FIXED\n>>>>>>> REPLACE\n</edit>\n';
    const { files: out, outcome } = await runCheckLoop({
      commands: [`node -e "process.exit(require('fs').readFileSync('src/legacy.js','utf8').includes('FIXED')?0:1)"`],
      workspace: ws,
      capeFolder: 'cape',
      files: [file('src/new.js', 'module.exports = 1;\n', 'create')],
      askFix: async () => fix,
    });
    assert.strictEqual(outcome.passed, true);
    assert.strictEqual(out.find((f) => f.relPath === 'src/legacy.js')!.content, legacy.replace('a+b', 'a+b // FIXED'), 'the one-line fix, not the whole file reformatted');
    assert.ok(!outcome.formatted?.some((f) => f.files.includes('src/legacy.js')), JSON.stringify(outcome.formatted));
  });
});
