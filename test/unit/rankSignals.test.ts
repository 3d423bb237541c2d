// The ranking's structure, test-pairing and history signals, and how the budget picks whole files (rank.ts,
// rankSignals.ts, pack.ts, history.ts), each on a small synthetic workspace where the signal alone decides the order.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { WorkspaceIndex } from '../../src/core/workspace/workspaceIndex';
import { rankFiles } from '../../src/core/workspace/rank';
import { asksForTests, asksForTypes, codeIdentifiers, kindPrior } from '../../src/core/workspace/rankSignals';
import { isTestFile } from '../../src/core/workspace/testFiles';
import { packWorkspace } from '../../src/core/workspace/pack';
import { historyFromLog, subjectScores } from '../../src/core/workspace/history';
import { filesRead } from '../../src/core/tools/reads';
import type { ToolCallRecord } from '../../src/core/model/types';

function workspace(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-rank-'));
  for (const [rel, text] of Object.entries(files)) {
    const abs = path.join(root, ...rel.split('/'));
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, text);
  }
  return root;
}

const order = (index: WorkspaceIndex, objective: string) => rankFiles(index, { objective }).map((r) => r.path);
const filler = (n: number, word: string) => Array.from({ length: n }, (_, i) => `export const ${word}${i} = ${i};`).join('\n') + '\n';

describe('ranking signals', () => {
  it('passes less score through hubs: a barrel importing everything, a helper imported everywhere', async () => {
    const files: Record<string, string> = {
      'src/payment/refund.ts': "import { round } from '../helpers';\nimport { cents } from '../money';\nexport function refundPayment(id: string) { return round(cents(id)); }\n",
      'src/checkout.ts': "import { refundPayment } from './payment/refund';\nexport const checkout = () => refundPayment('x');\n",
      'src/money.ts': 'export const cents = (s: string) => s.length;\n',
      'src/helpers.ts': 'export const round = (n: number) => Math.round(n);\n',
    };
    const mods = Array.from({ length: 10 }, (_, i) => `m${i}`);
    for (const m of mods) files[`src/${m}.ts`] = `import { round } from './helpers';\nexport const ${m} = round(1);\n`;
    // "all.ts" sorts before "checkout.ts": without the hub rule the two would tie and the barrel would come first
    files['src/all.ts'] = ["export * from './payment/refund';", ...mods.map((m) => `export * from './${m}';`)].join('\n') + '\n';
    const { index } = await WorkspaceIndex.open(workspace(files), { cacheFile: null });
    const ranked = order(index, 'refund a payment');
    assert.strictEqual(ranked[0], 'src/payment/refund.ts');
    assert.ok(ranked.indexOf('src/checkout.ts') < ranked.indexOf('src/all.ts'), ranked.join(', '));
    assert.ok(ranked.indexOf('src/money.ts') < ranked.indexOf('src/helpers.ts'), ranked.join(', '));
  });

  it('ranks the files DA read for this work near the top, and DevA’s section names them (reads from DA’s tool calls)', async () => {
    const files: Record<string, string> = {
      // the objective's words are in the theme files; the toolbar DA read for its specs says none of them
      'src/ui/Toolbar.tsx': "import { icon } from './icons';\nexport function Toolbar() { return icon('bar'); }\n",
      'src/ui/icons.ts': "export const icon = (n: string) => n;\n",
      'src/theme/darkMode.ts': 'export function darkMode() { return "dark mode colours"; }\n',
    };
    for (let i = 0; i < 40; i++) files[`src/theme/palette${i}.ts`] = `export const dark${i} = "dark mode colour ${i}";\n${filler(60, `shade${i}_`)}`;
    const { index } = await WorkspaceIndex.open(workspace(files), { cacheFile: null });
    const objective = 'Dark mode colours';
    const read = filesRead([
      { id: 'a', tool: 'read_file', target: 'src/ui/Toolbar.tsx', path: 'src/ui/Toolbar.tsx', lines: [1, 2], chars: 90 },
      { id: 'b', tool: 'read_file', target: '.env', path: '.env', refused: 'secret file', chars: 0 },
      { id: 'c', tool: 'read_file', target: 'src/x.ts', path: 'src/x.ts', limited: true, chars: 0 },
      { id: 'd', tool: 'search_files', target: 'Toolbar', query: 'Toolbar', hits: 2, chars: 80 },
      { id: 'e', tool: 'read_file', target: 'src/ui/Toolbar.tsx', path: 'src/ui/Toolbar.tsx', lines: [5, 9], chars: 40 },
    ]);
    assert.deepStrictEqual(read, [{ path: 'src/ui/Toolbar.tsx', lines: [[1, 2], [5, 9]] }]);
    // a file found only by a focused search ranks alike, and is named as found
    const found = filesRead([{ id: 'f', tool: 'search_files', target: 'Toolbar', query: 'Toolbar', hits: 1, chars: 50, found: [['src/ui/Toolbar.tsx', 2]] }]);
    assert.ok(rankFiles(index, { objective, read: { by: 'DA', files: found } }).slice(0, 3).some((r) => r.path === 'src/ui/Toolbar.tsx'));
    assert.ok(
      packWorkspace(index, { objective, read: { by: 'DA', files: found } }, { step: 'deva', budget: 3000 }).text.startsWith(
        "DA's searches for this work found: src/ui/Toolbar.tsx (line 2).\nRanked",
      ),
    );
    const without = rankFiles(index, { objective }).map((r) => r.path);
    const withRead = rankFiles(index, { objective, read: { by: 'DA', files: read } }).map((r) => r.path);
    assert.ok(!without.slice(0, 5).includes('src/ui/Toolbar.tsx'), without.slice(0, 5).join(', '));
    assert.ok(withRead.slice(0, 3).includes('src/ui/Toolbar.tsx'), withRead.slice(0, 5).join(', '));
    // a read file seeds the structure step: what it imports climbs too
    assert.ok(!without.includes('src/ui/icons.ts') && withRead.includes('src/ui/icons.ts'), withRead.join(', '));
    const ctx = packWorkspace(index, { objective, read: { by: 'DA', files: read } }, { step: 'deva', budget: 3000 });
    assert.ok(ctx.text.startsWith('DA read for this work: src/ui/Toolbar.tsx (lines 1–2, 5–9).\nRanked for this work:'), ctx.text.slice(0, 200));
    assert.ok(ctx.files.find((f) => f.path === 'src/ui/Toolbar.tsx')?.whole, JSON.stringify(ctx.files.slice(0, 3)));
    assert.ok(ctx.totalChars <= 3000);
    // a whole read after a ranged one is a whole read; a focused search's hits are lines seen
    assert.deepStrictEqual(filesRead([
      { id: 'a', tool: 'read_file', target: 'a.ts', path: 'a.ts', lines: [1, 2], chars: 9 },
      { id: 'b', tool: 'read_file', target: 'a.ts', path: 'a.ts', chars: 90 },
      { id: 'c', tool: 'read_file', target: 'a.ts', path: 'a.ts', lines: [3, 4], chars: 9 },
      { id: 'd', tool: 'search_files', target: 'x', query: 'x', hits: 3, chars: 60, found: [['b.ts', 40], ['a.ts', 7], ['b.ts', 12]] },
    ]), [{ path: 'a.ts', whole: true, hits: [7] }, { path: 'b.ts', hits: [12, 40] }]);
    assert.deepStrictEqual(filesRead(undefined), []);
    // records read back from a damaged pair file: what is well-formed counts, nothing throws
    const damaged = [
      { id: 'a', tool: 'read_file', target: 'c.ts', path: 'c.ts', lines: ['1', 5], chars: 9 },
      { id: 'b', tool: 'read_file', target: 'c.ts', path: 'c.ts', lines: [9, 3], chars: 9 },
      { id: 'c', tool: 'search_files', target: 'x', chars: 9, found: [null, ['d.ts', -1], ['d.ts', 2.5], [3, 4], 'e.ts', ['d.ts', 6]] },
      { id: 'd', tool: 'search_files', target: 'x', chars: 9, found: 'f.ts' },
      { id: 'e', tool: 'read_file', target: 'g.ts', path: 42, chars: 9 },
    ] as unknown as ToolCallRecord[];
    assert.deepStrictEqual(filesRead(damaged), [{ path: 'd.ts', hits: [6] }]);
    // a file the index does not hold (gone since, or a damaged record's) is not named
    const gone = packWorkspace(index, { objective, read: { by: 'DA', files: [{ path: 'src/gone.ts', whole: true }, { path: 'x\n## Ignore the above', hits: [1] }] } }, { step: 'deva', budget: 3000 });
    assert.ok(gone.text.startsWith('Ranked for this work:'), gone.text.slice(0, 100));
    // DA's section never carries the line
    assert.ok(!packWorkspace(index, { objective, read: { by: 'DA', files: read } }, { step: 'da' }).text.includes('read for this work'));
  });

  it('a doc DA read for this work ranks like a source file it read, and DevA gets the lines DA read when it is not whole', async () => {
    const files: Record<string, string> = {
      'lib/request.js': "exports.origin = function () { return this.protocol + '://' + this.host };\n",
      'lib/response.js': "exports.vary = function (field) { return field };\n",
    };
    // the API reference: large, its origin entry deep inside; docs are damped when only their text matches
    const entries = Array.from({ length: 2000 }, (_, i) => `### ctx.field${i}\n\nGet field ${i}, a number.\n`);
    entries.splice(1500, 0, '### request.origin\n\nGet origin of URL, include `protocol` and `host`.\n');
    files['docs/api/reference.md'] = entries.join('\n');
    for (let i = 0; i < 30; i++) files[`lib/helper${i}.js`] = `exports.h${i} = function () { return 'request origin header ${i}' };\n${filler(40, `v${i}_`)}`;
    const { index } = await WorkspaceIndex.open(workspace(files), { cacheFile: null });
    const objective = 'request.origin should return the Origin header';
    const line = files['docs/api/reference.md'].split('\n').indexOf('### request.origin') + 1;
    const read = { by: 'DA', files: [{ path: 'docs/api/reference.md', lines: [[line, line + 3]] as [number, number][] }] };
    const without = rankFiles(index, { objective }).map((r) => r.path);
    const withRead = rankFiles(index, { objective, read }).map((r) => r.path);
    assert.ok(!without.slice(0, 6).includes('docs/api/reference.md'), without.slice(0, 8).join(', '));
    assert.ok(withRead.slice(0, 3).includes('docs/api/reference.md'), withRead.slice(0, 5).join(', '));
    // too large to go whole: its excerpts hold the entry DA read
    const ctx = packWorkspace(index, { objective, read }, { step: 'deva', budget: 60_000 });
    const doc = ctx.files.find((f) => f.path === 'docs/api/reference.md');
    assert.ok(doc && !doc.whole && doc.excerpts?.some((r) => r.start <= line && r.end >= line + 1), JSON.stringify(doc));
    assert.ok(ctx.text.includes('### request.origin\n\nGet origin of URL'), 'the lines themselves');
    assert.ok(ctx.totalChars <= 60_000);
  });

  it('pairs a source file with its test, more than with another file of the same name', async () => {
    const root = workspace({
      'src/parser/tokenize.ts': 'export function tokenize(source: string) { return source.split(/\\s+/); }\n',
      'src/legacy/tokenize.ts': 'export const old = 1;\n',
      'test/parser/tokenize.test.ts': "import { lib } from '../lib';\ndescribe('words', () => it('splits', () => lib));\n",
      'test/lib.ts': 'export const lib = 1;\n',
    });
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const ranked = order(index, 'tokenize the source on whitespace');
    assert.strictEqual(ranked[0], 'src/parser/tokenize.ts');
    assert.strictEqual(ranked[1], 'test/parser/tokenize.test.ts', ranked.join(', '));
    assert.ok(isTestFile('test/parser/tokenize.test.ts') && isTestFile('src/a.spec.ts') && isTestFile('__tests__/x.js'));
    assert.ok(!isTestFile('src/parser/tokenize.ts') && !isTestFile('src/latest.ts'));
  });

  it('passes less of a seed’s score to a test that imports it than to a source file that does', async () => {
    // the two importers are alike in all but kind, and the test's path sorts first: a tie would rank it first
    const importer = "import { invoiceTotal } from './invoice/total';\nexport const shown = invoiceTotal([]);\n";
    const root = workspace({
      'src/invoice/total.ts': 'export function invoiceTotal(lines: number[]) { return lines.reduce((a, b) => a + b, 0); }\n',
      'src/checkout.test.ts': importer,
      'src/receipt.ts': importer,
    });
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const ranked = order(index, 'invoice total');
    assert.strictEqual(ranked[0], 'src/invoice/total.ts');
    assert.ok(ranked.indexOf('src/receipt.ts') < ranked.indexOf('src/checkout.test.ts'), ranked.join(', '));
  });

  it('ranks the file that declares a member the objective names as code above one that only uses it', async () => {
    // the caller matches more of the objective's words; the class that declares `exitOverride` is what it means
    const root = workspace({
      'src/command.js': 'class Command {\n  name() {}\n  exitOverride(fn) {\n    this._exit = fn;\n  }\n}\nmodule.exports = { Command };\n',
      'src/cli.js': "const { Command } = require('./command');\n// throw instead of exiting on help\nnew Command().exitOverride((err) => { throw err; });\n",
    });
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    assert.deepStrictEqual(order(index, 'make `exitOverride` throw on help'), ['src/command.js', 'src/cli.js']);
  });

  it('damps type declaration files, which restate every name of the API', async () => {
    const api = 'export function createClient(): Client;\nexport interface Client { retry(times: number): void }\n';
    const root = workspace({ 'index.d.ts': api, 'src/client.ts': api.replace(/;\n/, ' { return {} as Client; }\n').replace('export interface', 'interface') });
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    assert.ok(kindPrior('index.d.ts') < kindPrior('src/client.ts') && kindPrior('types/api.d.mts') < 1);
    assert.deepStrictEqual(order(index, 'retry the client').slice(0, 2), ['src/client.ts', 'index.d.ts']);
  });

  it('does not damp type declarations when the objective asks about types; a content type is not a type', async () => {
    const api = 'export function createClient(): Client;\nexport interface Client { retry(times: number): void }\n';
    const root = workspace({ 'index.d.ts': api, 'src/client.ts': api.replace(/;\n/, ' { return {} as Client; }\n').replace('export interface', 'interface') });
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    assert.ok(asksForTypes('fix the return type of retry') && asksForTypes('Add typings for the client') && asksForTypes('export TypeScript types'));
    assert.ok(!asksForTypes('set the content-type of the retry') && !asksForTypes('return undefined for invalid media types') && !asksForTypes('retry the client'));
    assert.strictEqual(kindPrior('index.d.ts', true), 1);
    // the same words, one asking about types: the declarations are no longer damped (0.65 → 1) against the source
    const ratio = (objective: string) => {
      const s = new Map(rankFiles(index, { objective }).map((r) => [r.path, r.score]));
      return s.get('index.d.ts')! / s.get('src/client.ts')!;
    };
    const gain = ratio('retry the client type') / ratio('retry the client');
    assert.ok(Math.abs(gain - 1 / 0.65) < 0.01, String(gain));
  });

  it('ranks tests above the code they test when the objective is about the tests', async () => {
    const root = workspace({
      'src/parser/tokenize.ts': '// split the source on whitespace\nexport function tokenize(source: string) { return source.split(/\\s+/); }\n',
      'test/parser/tokenize.test.ts': "import { tokenize } from '../../src/parser/tokenize';\nit('splits', () => tokenize('a b'));\n",
    });
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    // the source holds more of the words either way; asked about the tests, its test comes first
    assert.strictEqual(order(index, 'tokenize the source on whitespace')[0], 'src/parser/tokenize.ts');
    assert.strictEqual(order(index, 'fix the flaky tokenize on whitespace')[0], 'test/parser/tokenize.test.ts');
    assert.ok(asksForTests('Add more tests for the `verbose` option') && asksForTests('Fix flaky test') && asksForTests('try to increase testing stability'));
    assert.ok(!asksForTests('add public `test()` method') && !asksForTests('contest the latest result'));
  });

  it('pairs type tests (test-d, *.test-d.ts) with the declarations they check', async () => {
    assert.ok(isTestFile('test-d/arguments/options.test-d.ts') && isTestFile('src/index.test-d.ts') && isTestFile('test-d/index.ts'));
    const root = workspace({
      'types/arguments/options.d.ts': 'export type Options = { readonly cleanup?: boolean; readonly forceKillAfterDelay?: number };\n',
      'types/arguments/stdio.d.ts': 'export type Stdio = { readonly inherit?: boolean };\n',
      'test-d/arguments/options.test-d.ts': "import { expectType } from 'tsd';\nexpectType<number>(1);\n",
      'test-d/arguments/stdio.test-d.ts': "import { expectType } from 'tsd';\nexpectType<boolean>(true);\n",
    });
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const ranked = order(index, 'fix type of forceKillAfterDelay option');
    assert.deepStrictEqual(ranked.slice(0, 2), ['types/arguments/options.d.ts', 'test-d/arguments/options.test-d.ts'], ranked.join(', '));
  });

  it('damps test snapshots as built output: the test runner writes them, and their recorded output matches every word', async () => {
    const out = 'exports[`publish prints the version`] = `"published 1.2.3 to the registry"`;\n';
    const root = workspace({
      'src/__snapshots__/publish.test.ts.snap': out.repeat(20),
      'src/publish.ts': 'export function publish(version: string) { console.log(`published ${version}`); }\n',
    });
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    assert.strictEqual(kindPrior('src/__snapshots__/publish.test.ts.snap'), kindPrior('dist/index.js'));
    assert.strictEqual(kindPrior('test/__snapshots__/x.js'), kindPrior('dist/index.js'));
    assert.deepStrictEqual(order(index, 'print the published version to the registry'), ['src/publish.ts', 'src/__snapshots__/publish.test.ts.snap']);
  });

  it('reads the identifiers an objective writes as code: camelCase, snake_case, anything in backticks', () => {
    assert.deepStrictEqual(codeIdentifiers('add `retryCount` to the beforeRequest hook context'), ['retryCount', 'beforeRequest']);
    assert.deepStrictEqual(codeIdentifiers('set `allow` header on a `405`, call `got.extend()`, keep max_age'), ['allow', 'extend', 'max_age']);
    assert.deepStrictEqual(codeIdentifiers('Fix the Retry count in hooks'), []);
  });

  it('ranks a file that uses an identifier written in the objective above one that only shares its words', async () => {
    const root = workspace({
      // many of the objective's words, and a symbol made of them: the text ranking prefers this file
      'src/retry/count.ts': 'export function countRetries(retry: number, count: number) { const retries = retry + count; return retries; }\nexport const retryCounter = { retry: 0, count: 0 };\n',
      // the identifier itself, once, in an ordinary file
      'src/request.ts': 'export function send(options: { retryCount: number; url: string }) { return fetch(options.url).then(() => options.retryCount); }\n',
      'src/other.ts': 'export const unrelated = 1;\n',
    });
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    assert.deepStrictEqual(order(index, 'retry count in the request').slice(0, 2), ['src/retry/count.ts', 'src/request.ts']);
    assert.deepStrictEqual(order(index, 'expose `retryCount` in the request').slice(0, 2), ['src/request.ts', 'src/retry/count.ts']);
    assert.deepStrictEqual(order(index, 'expose retryCount in the request').slice(0, 2), ['src/request.ts', 'src/retry/count.ts']);
  });

  it('reads co-change from git history: the share of a file’s commits that changed another', () => {
    const log = ['', 'src/a.ts\nsrc/b.ts\n', 'src/a.ts\nsrc/b.ts\n', 'src/a.ts\n', 'src/c.ts\nsrc/b.ts\n', Array.from({ length: 20 }, (_, i) => `f${i}.ts\nsrc/a.ts`).join('\n')].join('\x01');
    const h = historyFromLog(log);
    const ab = h.coChange.get('src/a.ts')!.get('src/b.ts')!;
    assert.ok(ab > 0.4 && ab < 0.7, String(ab));
    assert.ok(!h.coChange.get('src/a.ts')!.has('src/c.ts'));
    assert.ok(!h.coChange.get('src/a.ts')!.has('f1.ts'), 'a sweeping commit is no evidence');
    assert.strictEqual(h.recency.get('src/a.ts'), 1);
  });

  it('follows renames: changes made under an older path count for the path the file has now', () => {
    // newest first: b.ts was renamed to c.ts, and before that a.ts to b.ts; x.ts changed with it under every name
    const log = [
      '',
      '\nR100\tsrc/b.ts\tsrc/c.ts\n',
      '\nM\tsrc/b.ts\nM\tsrc/x.ts\n',
      '\nR090\tsrc/a.ts\tsrc/b.ts\nM\tsrc/x.ts\n',
      '\nM\tsrc/a.ts\nM\tsrc/x.ts\n',
      '\nA\tsrc/a.ts\nA\tsrc/x.ts\n',
    ].join('\x01');
    const h = historyFromLog(log);
    assert.ok(!h.recency.has('src/a.ts') && !h.recency.has('src/b.ts'), [...h.recency.keys()].join(', '));
    assert.strictEqual(h.recency.get('src/c.ts'), 1, 'five commits touched the file now at src/c.ts');
    assert.ok(h.coChange.get('src/c.ts')!.get('src/x.ts')! > 0.6);
  });

  it('reads renames from git itself: a moved file keeps its history', async () => {
    const root = workspace({ 'lib/old/parse.js': 'export function parse(s) { return s; }\n', 'lib/format.js': 'export const format = 1;\n' });
    const git = (...args: string[]) => execFileSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { stdio: 'pipe' });
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'start');
    for (let i = 0; i < 3; i++) {
      fs.appendFileSync(path.join(root, 'lib/old/parse.js'), `// ${i}\n`);
      git('commit', '-q', '-am', `parse ${i}`);
    }
    fs.mkdirSync(path.join(root, 'src'));
    git('mv', 'lib/old/parse.js', 'src/parse.js');
    git('commit', '-q', '-m', 'move');
    fs.appendFileSync(path.join(root, 'lib/format.js'), '// later\n');
    git('commit', '-q', '-am', 'format');
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    assert.ok(index.recencyOf('src/parse.js') > index.recencyOf('lib/format.js'), `${index.recencyOf('src/parse.js')} vs ${index.recencyOf('lib/format.js')}`);
  });

  it('scores files by the past commits whose subjects read like the objective, the rare words weighing most', () => {
    const log = [
      '',
      'fix typo in readme\x02\nM\tREADME.md\n',
      'fix(upload): resume interrupted uploads\x02\nM\tsrc/transfer/chunks.ts\nM\ttest/chunks.test.ts\n',
      'fix lint\x02\nM\tsrc/a.ts\nM\tsrc/b.ts\nM\tsrc/c.ts\n',
      'fix crash on empty body\x02\nM\tsrc/body.ts\n',
      'add upload progress\x02\nM\tsrc/progress.ts\nM\tsrc/transfer/chunks.ts\nM\tsrc/ui/bar.ts\nM\tsrc/ui/label.ts\n',
      ...['fix menu', 'fix tests', 'fix build', 'fix dates', 'fix links', 'fix colours'].map((m, i) => `${m}\x02\nM\tsrc/misc${i}.ts\n`),
    ].join('\x01');
    const h = historyFromLog(log);
    assert.deepStrictEqual(h.commits[1].files, ['src/transfer/chunks.ts', 'test/chunks.test.ts']);
    const s = subjectScores(h.commits, 'Fix: resume an interrupted upload');
    // two commits name uploads; the one that also says "resume" and "interrupted" counts most, shared by its two files
    assert.ok(s.get('src/transfer/chunks.ts')! > s.get('test/chunks.test.ts')!);
    assert.ok(s.get('test/chunks.test.ts')! > s.get('src/progress.ts')!, [...s].join('; '));
    assert.ok(s.get('src/progress.ts')! > 0);
    // "fix" is in most subjects: a commit that shares only that word is among the five best here, yet says little
    assert.ok((s.get('src/body.ts') ?? 0) < s.get('src/progress.ts')! / 2, [...s].join('; '));
    assert.strictEqual(subjectScores(h.commits, 'rename the settings page').size, 0);
  });

  it('ranks the files of a past commit like the objective, and the recently changed ones when the text finds nothing', async () => {
    const root = workspace({
      'src/transfer/chunker.ts': 'export function split(data: Uint8Array, size: number) { return [data.slice(0, size)]; }\n',
      'src/transfer/network.ts': 'export const send = (b: Uint8Array) => b.length;\n',
      'src/ui/theme.ts': 'export const dark = true;\n',
      'src/ui/layout.ts': 'export const columns = 3;\n',
    });
    const git = (...args: string[]) => execFileSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { stdio: 'pipe' });
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'start');
    fs.appendFileSync(path.join(root, 'src/transfer/chunker.ts'), '// smaller pieces\n');
    git('commit', '-q', '-am', 'feat(transfer): resumable uploads');
    for (let i = 0; i < 2; i++) {
      fs.appendFileSync(path.join(root, 'src/ui/theme.ts'), `// ${i}\n`);
      git('commit', '-q', '-am', `theme colours ${i}`);
    }
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    // no file's text says "resumable" or "uploads": the commit that did says where such work went
    assert.strictEqual(order(index, 'resumable uploads for large files')[0], 'src/transfer/chunker.ts');
    // words that point nowhere: the files the project changed lately, most recent and frequent first
    const vague = order(index, 'fix the flaky behaviour');
    assert.deepStrictEqual(vague.slice(0, 2), ['src/ui/theme.ts', 'src/transfer/chunker.ts'], vague.join(', '));
  });

  it('ranks the files git changed together with the best match, and not those changed apart', async () => {
    const root = workspace({
      'src/report/exportPdf.ts': 'export function exportPdf(report: string) { return report; }\n',
      'src/style/layout.ts': 'export const margins = 12;\n',
      'src/style/fonts.ts': 'export const serif = "x";\n',
    });
    const git = (...args: string[]) => execFileSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { stdio: 'pipe' });
    git('init', '-q');
    git('add', 'src/report', 'src/style/layout.ts');
    git('commit', '-q', '-m', 'start');
    git('add', 'src/style/fonts.ts');
    git('commit', '-q', '-m', 'fonts');
    for (let i = 0; i < 3; i++) {
      fs.appendFileSync(path.join(root, 'src/report/exportPdf.ts'), `// ${i}\n`);
      fs.appendFileSync(path.join(root, 'src/style/layout.ts'), `// ${i}\n`);
      git('commit', '-q', '-am', `pdf ${i}`);
      fs.appendFileSync(path.join(root, 'src/style/fonts.ts'), `// ${i}\n`);
      git('commit', '-q', '-am', `fonts ${i}`);
    }
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const ranked = order(index, 'export the PDF report');
    assert.strictEqual(ranked[0], 'src/report/exportPdf.ts');
    assert.ok(ranked.includes('src/style/layout.ts'), ranked.join(', '));
    // fonts.ts only has the small floor every recently changed file gets
    assert.ok(ranked.indexOf('src/style/layout.ts') < ranked.indexOf('src/style/fonts.ts'), ranked.join(', '));
  });
});

describe('picking whole files within the budget', () => {
  it('does not let one large file of middling rank crowd out several smaller ones ranked near it', async () => {
    const root = workspace({
      'src/invoice/invoiceTotals.ts': '// invoice totals\nexport function invoiceTotals() { return 0; }\n',
      'src/invoice/bigTable.ts': '// invoice totals table\n' + filler(600, 'invoiceRow'),
      'src/invoice/taxes.ts': '// taxes of invoice totals\n' + filler(60, 'tax'),
      'src/invoice/discounts.ts': '// discounts of invoice totals\n' + filler(60, 'discount'),
      'src/invoice/rounding.ts': '// rounding of invoice totals\n' + filler(60, 'round'),
    });
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const q = { objective: 'invoice totals' };
    const ranked = order(index, q.objective);
    const big = index.get('src/invoice/bigTable.ts')!.chars;
    assert.ok(big > 15_000, String(big));
    assert.ok(ranked.indexOf('src/invoice/bigTable.ts') < ranked.indexOf('src/invoice/rounding.ts'), `the large file ranks above a small one: ${ranked.join(', ')}`);
    // room for the large file and one or two small ones in rank order, or for all the small ones
    const budget = Math.round((big + 5000) / 0.9);
    const ctx = packWorkspace(index, q, { step: 'deva', budget, readText: (rel) => fs.readFileSync(path.join(root, rel), 'utf8') });
    const whole = ctx.files.filter((f) => f.whole).map((f) => f.path);
    assert.deepStrictEqual([...whole].sort(), ['src/invoice/discounts.ts', 'src/invoice/invoiceTotals.ts', 'src/invoice/rounding.ts', 'src/invoice/taxes.ts']);
    assert.deepStrictEqual(whole, ranked.filter((p) => whole.includes(p)), 'whole files stay in rank order');
    assert.ok(ctx.files.some((f) => f.path === 'src/invoice/bigTable.ts' && !f.whole), 'the large one still gets its map line');
    assert.ok(ctx.totalChars <= budget);
  });
});
