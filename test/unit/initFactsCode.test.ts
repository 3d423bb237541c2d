// Init's workspace facts, the code map (src/core/cape/initFactsCode.ts): the source files the product's others import
// most (a test importing one is not counted; where no file stands out, those with the most symbols, said so), then
// those the ranking finds nearest the answers, each with its top-level symbols — as many as the room gives, the public
// ones first (initFactsCodeLines.ts) — names only, no test, docs, benchmark, fuzz target or built file, none twice,
// within its bound (a benchmark or a fuzz target importing a file is no product code depending on it); in the
// facts after the layout when the caller gives an index, and in init's requests through initCape's `index`.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { codeLines, codePart } from '../../src/core/cape/initFactsCode';
import { readWorkspaceFacts } from '../../src/core/cape/initFacts';
import { initCape } from '../../src/core/cape/init';
import { INIT_QUESTIONS, type InitAnswers } from '../../src/core/cape/initAnswers';
import { defaultPromptsDir, loadPromptAssets } from '../../src/core/cape/prompts';
import { noSources } from '../../src/core/cape/initFactsText';
import { WorkspaceIndex } from '../../src/core/workspace/workspaceIndex';
import { mapLine } from '../../src/core/workspace/mapLines';
import { contentText, type LlmRequest } from '../../src/core/model/types';
import { tempDir } from '../helpers/cli';
import { demoInitLlm } from '../helpers/demo';

const put = (ws: string, rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
  fs.writeFileSync(path.join(ws, rel), text);
};

/** A small app: a model module imported by three files, a helper by two, an export feature, tests and docs. */
function app(): string {
  const ws = tempDir('cape-code-map-');
  put(ws, 'package.json', '{"name":"tracker"}\n');
  put(ws, 'src/models.ts', 'export interface Item { title: string }\nexport class ItemStore {}\n');
  put(ws, 'src/util.ts', 'export function slugify(s: string) { return s; }\n');
  put(ws, 'src/api.ts', "import { Item } from './models';\nimport { slugify } from './util';\nexport function listItems(): Item[] { return []; }\n");
  put(ws, 'src/view.ts', "import { ItemStore } from './models';\nimport { slugify } from './util';\nexport function renderItems() { return new ItemStore(); }\n");
  put(ws, 'src/csvExport.ts', "import { Item } from './models';\nexport function exportItemsAsCsv(items: Item[]) { return items.map((i) => i.title).join('\\n'); }\n");
  put(ws, 'src/models.test.ts', "import { Item } from './models';\nimport { slugify } from './util';\nexport function itemsTest() {}\n");
  put(ws, 'docs/export.md', '# Export items as CSV\n');
  put(ws, 'dist/bundle.js', "export function exportItemsAsCsv() {}\nexport function bundled() {}\n");
  return ws;
}

describe('init: the facts\' code map', function () {
  this.timeout(30000);

  it('lists the most imported source files, then those nearest the answers, each once with its symbols; no test, doc or built file', async () => {
    const ws = app();
    const { index } = await WorkspaceIndex.open(ws, { cacheFile: null });
    const from = noSources();
    const text = codePart(codeLines(index, 'Export the items as CSV'), from, 2000)!;
    const lines = text.split('\n');
    assert.strictEqual(lines[0], '## Code map (path — its top-level symbols, public ones with their signatures as room allows; no code body quoted)');
    assert.strictEqual(lines[1], 'The most imported files (core modules):');
    // a test importing a module is no other code depending on it: models.test.ts is not counted; with room, the
    // public names' signatures (an interface's members, a function's parameters), no body
    assert.strictEqual(lines[2], 'src/models.ts — Item { title: string }, class ItemStore (imported by 3)', text);
    assert.strictEqual(lines[3], 'src/util.ts — slugify(s: string) (imported by 2)', text);
    assert.strictEqual(lines[4], 'The files nearest the product and the next release:');
    assert.strictEqual(lines[5], 'src/csvExport.ts — exportItemsAsCsv(items: Item[])', 'the file the answers name comes first');
    assert.ok(!text.includes('return'), 'no code body');
    for (const shown of ['src/models.ts', 'src/util.ts']) assert.strictEqual(text.split(shown).length - 1, 1, `${shown} once`);
    for (const never of ['models.test.ts', 'docs/export.md', 'dist/bundle.js', 'package.json']) assert.ok(!text.includes(never), `${never} is not listed`);
    assert.deepStrictEqual(from.listed, ['the code map (file names and their top-level symbols)']);
    assert.ok(codePart(codeLines(index, 'Export the items as CSV'), noSources(), 300)!.length <= 300, 'within its bound');
    assert.ok(!codePart(codeLines(index, ''), noSources(), 2000)!.includes('nearest'), 'no answers: the core modules only');
  });

  it("counts only the product's importers, and claims no most imported file where none stands out (a Go library's one package)", async () => {
    /** The code map's lines (no answers) of a workspace of these files. */
    const mapOf = async (files: Record<string, string>) => {
      const ws = tempDir('cape-code-map-go-');
      for (const [rel, text] of Object.entries(files)) put(ws, rel, text);
      const { index } = await WorkspaceIndex.open(ws, { cacheFile: null });
      return codePart(codeLines(index, ''), noSources(), 2000)!.split('\n').slice(1);
    };
    // gorilla/mux's shape: one package, whose example tests (package mux_test) import it, so the graph ties every file
    const example = 'package mux_test\n\nimport (\n\t"net/http"\n\n\t"example.com/mux"\n)\n\nfunc ExampleX() {}\n';
    assert.deepStrictEqual(
      await mapOf({
        'go.mod': 'module example.com/mux\n\ngo 1.20\n',
        'mux.go': 'package mux\n\nfunc NewRouter() {}\nfunc Vars() {}\nfunc CurrentRoute() {}\ntype Router struct{}\nfunc (r *Router) HandleFunc() {}\n',
        'route.go': 'package mux\n\ntype Route struct{}\nfunc (r *Route) Name() {}\n',
        ...Object.fromEntries(['route', 'vars', 'cors'].map((n) => [`example_${n}_test.go`, example])),
        'middleware.go': 'package mux\n\ntype MiddlewareFunc func()\n',
        'test_helpers.go': 'package mux\n\nfunc SetURLVars() {}\n',
        'mux_test.go': 'package mux\n\nfunc TestRouter() {}\n',
      }),
      [
        'The source files with the most top-level symbols (no file stands out by its importers):',
        // a method named with its type: the router's HandleFunc, no function of that name; route.go's Name is the route's
        'mux.go — NewRouter(), Vars(), CurrentRoute(), struct Router, Router.HandleFunc()',
        'route.go — struct Route, Route.Name()',
        'middleware.go — type MiddlewareFunc func()',
        'test_helpers.go — SetURLVars()',
      ],
      'no "most imported", no "imported by"',
    );
    // packages imported by the product's other packages stand out; a Go file counts its package's importers, not a test's
    assert.deepStrictEqual(
      await mapOf({
        'go.mod': 'module example.com/app\n\ngo 1.22\n',
        'store/store.go': 'package store\n\ntype Store struct{}\nfunc Open() {}\n',
        'store/cache.go': 'package store\n\ntype Cache struct{}\n',
        'store/store_test.go': 'package store_test\n\nimport "example.com/app/store"\n\nfunc TestOpen() { store.Open() }\n',
        'api/handler.go': 'package api\n\nimport "example.com/app/store"\n\nfunc Handle() {}\n',
        'cmd/app/main.go': 'package main\n\nimport (\n\t"example.com/app/api"\n\t"example.com/app/store"\n)\n\nfunc main() {}\n',
      }),
      ['The most imported files (core modules):', 'store/store.go — struct Store, Open() (its package imported by 2)', 'store/cache.go — struct Cache (its package imported by 2)'],
    );
  });

  it('takes fuzz targets and benchmarks for no product code: not listed, not counted among importers', async () => {
    /** The code map's lines for `query` of a workspace of these files. */
    const mapOf = async (files: Record<string, string>, query: string) => {
      const ws = tempDir('cape-code-map-bench-');
      for (const [rel, text] of Object.entries(files)) put(ws, rel, text);
      const { index } = await WorkspaceIndex.open(ws, { cacheFile: null });
      return codePart(codeLines(index, query), noSources(), 2000)!.split('\n').slice(1);
    };
    // dtolnay/semver's shape: the crate's modules, a fuzz target and a benchmark that sort versions
    const rust = await mapOf(
      {
        'Cargo.toml': '[package]\nname = "semver"\n',
        'src/lib.rs': 'pub struct Version;\npub struct VersionReq;\nmod parse;\n',
        'src/parse.rs': 'pub struct Error;\nfn version_req() {}\n',
        'fuzz/sort_version.rs': 'fn three_versions() {}\nfn sort_versions() {}\n',
        'benches/sort_versions.rs': 'fn bench_sort_versions() {}\n',
        'benches/parse_bench.rs': 'fn bench_parse_versions() {}\n',
      },
      'Sort versions; compute the next version',
    );
    assert.deepStrictEqual(rust.filter((l) => /fuzz|bench/.test(l)), [], rust.join('\n'));
    // a TypeScript library: its parser's importers are its own files, not its benchmarks (`*.bench.ts`, bench/) or fuzzers
    const ts = await mapOf(
      {
        'package.json': '{"name":"lexer"}\n',
        'src/tokens.ts': 'export const TOKENS = [];\n',
        'src/lex.ts': "import { TOKENS } from './tokens';\nexport function lex() { return TOKENS; }\n",
        'src/print.ts': "import { TOKENS } from './tokens';\nexport function print() { return TOKENS; }\n",
        'src/parse.ts': "import { lex } from './lex';\nexport function parse() { return lex(); }\n",
        'src/parse.bench.ts': "import { parse } from './parse';\nexport function benchParse() { parse(); }\n",
        'bench/parse_bench.ts': "import { parse } from '../src/parse';\nexport function benchParseLarge() { parse(); }\n",
        'fuzz/parse.ts': "import { parse } from '../src/parse';\nexport function fuzzParse() { parse(); }\n",
      },
      'Parse faster; a benchmark of the parser',
    );
    assert.deepStrictEqual(ts.slice(0, 2), ['The most imported files (core modules):', 'src/tokens.ts — TOKENS (imported by 2)'], ts.join('\n'));
    assert.deepStrictEqual(ts.filter((l) => /fuzz|bench/.test(l)), [], ts.join('\n'));
  });

  it("lets the room decide how many names a line shows: a Go library's public names all, its internal ones after them or counted", async () => {
    // gorilla/mux's shape: one file with most of the API (40 exported names among 10 helpers), one with helpers only
    const exported = Array.from({ length: 40 }, (_, i) => `Route${String(i).padStart(2, '0')}`);
    const helpers = Array.from({ length: 10 }, (_, i) => `helper${i}`);
    const regexps = Array.from({ length: 12 }, (_, i) => `regexpPart${i}`);
    const func = (n: string) => `func ${n}() {}`;
    const ws = tempDir('cape-code-map-room-');
    put(ws, 'go.mod', 'module example.com/mux\n\ngo 1.20\n');
    put(ws, 'mux.go', ['package mux', ...helpers.slice(0, 5).map(func), ...exported.map(func), ...helpers.slice(5).map(func)].join('\n'));
    put(ws, 'regexp.go', ['package mux', ...regexps.map(func)].join('\n'));
    put(ws, 'middleware.go', 'package mux\n\ntype MiddlewareFunc func()\nfunc Use() {}\n');
    const { index } = await WorkspaceIndex.open(ws, { cacheFile: null });
    const lines = codeLines(index, '');
    const at = (max: number) => {
      const text = codePart(lines, noSources(), max)!;
      assert.ok(text.length <= max, `within ${max}: ${text.length}`);
      return text.split('\n').slice(2);
    };
    const signed = exported.map((n) => `${n}()`);
    // room for all: every public name with its signature, then the internal ones; the file with no public name after those with some
    assert.deepStrictEqual(at(3000), [
      `mux.go — ${signed.join(', ')}; internal: ${helpers.join(', ')}`,
      'middleware.go — type MiddlewareFunc func(), Use()',
      `regexp.go — internal: ${regexps.join(', ')}`,
    ]);
    // less room: the public names still all shown with their signatures, the internal ones counted — in every file before any is named
    const publicSigned = [`mux.go — ${signed.join(', ')}; +10 internal`, 'middleware.go — type MiddlewareFunc func(), Use()', 'regexp.go — +12 internal'];
    const heading = codePart(lines, noSources(), 3000)!.split('\n').slice(0, 2);
    assert.deepStrictEqual(at([...heading, ...publicSigned].join('\n').length + 10), publicSigned);
    // less: every public name, the signatures only as far as they fit (the first of a line first)
    const publicOnly = [`mux.go — ${exported.join(', ')}; +10 internal`, 'middleware.go — MiddlewareFunc, Use', 'regexp.go — +12 internal'];
    const bare = at([...heading, ...publicOnly].join('\n').length + 10);
    assert.deepStrictEqual(
      bare.map((l) => l.replace(/\(\)/g, '').replace('type MiddlewareFunc func', 'MiddlewareFunc')),
      publicOnly,
    );
    assert.ok(bare.join('\n').length < publicSigned.join('\n').length, bare.join('\n'));
    for (const line of bare) assert.doesNotMatch(line, /\w, \w+\(\)/, `a signature only after signed names: ${line}`);
    // less still: as many public names as fit, the rest counted; no internal name anywhere
    const short = at(400);
    assert.match(short[0], /^mux\.go — Route00, Route01, .*, … \(\+\d+\); \+10 internal$/);
    assert.ok(!short.join('\n').includes('helper') && !short.join('\n').includes('regexpPart'), short.join('\n'));
  });

  it('leaves a TS file whose every name is an export as DevA\'s map line, and names its other top-level names as internal', async () => {
    const ws = tempDir('cape-code-map-ts-');
    const names = ['Item', 'ItemStore', 'listItems', 'saveItem', 'removeItem', 'ITEM_LIMIT', 'ItemEvent', 'onItem'];
    put(ws, 'package.json', '{"name":"tracker"}\n');
    put(ws, 'src/items.ts', names.map((n) => `export const ${n} = make();`).join('\n'));
    put(ws, 'src/util.ts', 'export function slugify() {}\nexport function trim() {}\nfunction normalize() {}\n');
    const { index } = await WorkspaceIndex.open(ws, { cacheFile: null });
    const lines = codePart(codeLines(index, ''), noSources(), 2000)!.split('\n');
    assert.strictEqual(lines[2], mapLine('src/items.ts', names));
    assert.strictEqual(lines[3], 'src/util.ts — slugify(), trim(); internal: normalize');
  });

  it('has no part for a workspace without symbols, and comes after the layout in the facts when an index is given', async () => {
    const bare = tempDir('cape-code-map-bare-');
    put(bare, 'run.sh', 'echo hi\n');
    const { index: none } = await WorkspaceIndex.open(bare, { cacheFile: null });
    assert.strictEqual(codePart(codeLines(none, 'anything'), noSources(), 2000), null);
    const ws = app();
    const { index } = await WorkspaceIndex.open(ws, { cacheFile: null });
    const facts = (await readWorkspaceFacts(ws, 'cape', { index, query: 'Export the items as CSV' }))!;
    const at = facts.text.indexOf('## Code map');
    assert.ok(at > facts.text.indexOf('## Layout'), facts.text);
    assert.ok(facts.listed.includes('the code map (file names and their top-level symbols)'));
    assert.ok(!(await readWorkspaceFacts(ws, 'cape'))!.text.includes('## Code map'), 'no index given: no map');
    // the index is asked for only once the workspace is known to hold code
    let opened = 0;
    const lazy = async () => {
      opened++;
      return { index, query: 'Export the items as CSV' };
    };
    const empty = tempDir('cape-code-map-empty-');
    put(empty, 'README.md', '# idea\n');
    assert.strictEqual(await readWorkspaceFacts(empty, 'cape', lazy), null);
    assert.strictEqual(opened, 0, 'no code: the index is never opened');
    assert.ok((await readWorkspaceFacts(ws, 'cape', lazy))!.text.includes('## Code map'));
    assert.strictEqual(opened, 1);
  });

  it("initCape ranks the caller's index for the product and the features, and every request that takes the facts carries the map", async () => {
    const ws = app();
    const prompts = loadPromptAssets(defaultPromptsDir());
    const answers = Object.fromEntries(INIT_QUESTIONS.map((q) => [q.id, `answer ${q.id}`])) as InitAnswers;
    answers.features = 'Export the items as CSV';
    const requests: LlmRequest[] = [];
    const llm = demoInitLlm(answers, requests);
    let asked = 0;
    const index = async () => {
      asked++;
      return (await WorkspaceIndex.open(ws, { capeFolder: 'cape', cacheFile: null })).index;
    };
    const res = await initCape({ workspace: ws, answers, llm, model: 'm', language: 'English', mode: 'fail-if-exists', prompts, index });
    assert.deepStrictEqual(res.failed, []);
    assert.strictEqual(asked, 1, 'the index is asked for once');
    const withMap = requests.filter((r) => contentText(r.messages[0].content).includes('src/csvExport.ts — exportItemsAsCsv'));
    // the decisions and each file written from the code map (all the facts, or a list naming it)
    const takesCode = prompts.inputs.filter((s) => s.facts === true || (Array.isArray(s.facts) && s.facts.includes('code'))).length;
    assert.strictEqual(withMap.length, 1 + takesCode, 'each request with the code part has the map, ranked for the features');
    assert.ok(takesCode > 1);
  });
});
