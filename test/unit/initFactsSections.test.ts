// Init's workspace facts beyond the manifests (src/core/cape/initFacts.ts and its parts): the sub-folders where the code
// is with their tests and a few file names (initFactsLayout.ts), the style sources of a workspace with a user
// interface (initFactsStyle.ts), the CI configuration and the commands its steps run (initFactsCi.ts), and
// package.json's entry points — on a Vue-like app, a library without a user interface and a monorepo, each written
// here; with their controls (no entry page or style file: no style part; no CI file: no CI part), their bounds, and
// the read policy (a secret or an ignored file is never named or read).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { describeFacts, readWorkspaceFacts } from '../../src/core/cape/initFacts';
import { packageJsonLines, scriptCommand } from '../../src/core/cape/initManifests';
import { shorten } from '../../src/core/text/cut';
import { tempDir } from '../helpers/cli';
import { factsPart, HIDDEN, putFile, writeCodebase } from '../helpers/codebase';

const put = putFile;
const part = factsPart;

const SECRET = 'VUE-SECRET-VALUE-4242';
const IGNORED_STYLE = 'built-bundle-style';

/** A small Vue 3 single-page app: components, pages, composables, a store, services, Cypress, a GitHub workflow. */
function writeVueApp(ws: string): void {
  put(
    ws,
    'package.json',
    JSON.stringify({
      name: 'shop-vue',
      private: true,
      type: 'module',
      scripts: { dev: 'vite', build: 'vue-tsc --noEmit && vite build', 'test:unit': 'vitest run', 'test:e2e': 'cypress run' },
      dependencies: { vue: '^3.4.0', 'vue-router': '^4.3.0', pinia: '^2.1.0' },
      devDependencies: { vite: '^5.2.0', vitest: '^1.6.0', cypress: '^13.8.0', tailwindcss: '^3.4.0' },
    }),
  );
  put(
    ws,
    'index.html',
    '<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="utf-8">\n    <meta name="theme-color" content="#5cb85c">\n' +
      '    <title>Shop</title>\n    <link rel="preconnect" href="https://fonts.googleapis.com">\n' +
      '    <link href="https://fonts.googleapis.com/css?family=Titillium+Web:700" rel="stylesheet">\n' +
      "    <link rel='stylesheet' href='//cdn.example.com/main.css'>\n  </head>\n  <body>\n    <div id=\"app\"></div>\n" +
      '    <script type="module" src="/src/main.ts"></script>\n  </body>\n</html>\n',
  );
  put(ws, 'tailwind.config.js', "export default {\n  content: ['./index.html', './src/**/*.vue'],\n  theme: { extend: { colors: { primary: '#5cb85c' } } },\n};\n");
  const files: Record<string, string> = {
    'src/main.ts': "import { createApp } from 'vue';\n",
    'src/App.vue': '<template><RouterView /></template>\n',
    'src/composable/useArticles.ts': 'export function useArticles() {}\n',
    'src/composable/useTags.ts': 'export function useTags() {}\n',
    'src/store/user.ts': 'export const user = {};\n',
    'src/services/api.ts': 'export const api = {};\n',
    'src/styles/main.css': 'body { margin: 0; }\n',
    'src/styles/_variables.scss': '$primary: #5cb85c;\n',
    'src/assets/logo.svg': '<svg />\n',
    'cypress/e2e/article.cy.ts': "describe('article', () => {});\n",
    'cypress/e2e/login.cy.ts': "describe('login', () => {});\n",
    'cypress/support/commands.ts': 'export {};\n',
    '.github/workflows/ci.yml':
      'name: CI\non:\n  push:\n  pull_request:\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n' +
      '      - run: npm ci\n      - run: |\n          npm run build\n          npm run test:unit\n      - uses: cypress-io/github-action@v6\n        with:\n          start: npm run dev\n',
  };
  for (const c of ['AppFooter', 'AppLink', 'ArticleDetail', 'ArticleList', 'NavBar']) files[`src/components/${c}.vue`] = '<template><div /></template>\n';
  for (const c of ['AppLink', 'ArticleDetail']) files[`src/components/${c}.spec.ts`] = "import { it } from 'vitest';\n";
  for (const p of ['Article', 'Home', 'Login']) files[`src/pages/${p}.vue`] = '<template><main /></template>\n';
  files['src/pages/Home.spec.ts'] = "import { it } from 'vitest';\n";
  for (const [rel, text] of Object.entries(files)) put(ws, rel, text);
  // what the facts must never show: a secret file, and an ignored build folder with a page and a style sheet
  put(ws, '.env', `API_TOKEN=${SECRET}\n`);
  put(ws, '.gitignore', 'dist/\n');
  put(ws, `dist/assets/${IGNORED_STYLE}.css`, 'a{}\n');
  put(ws, 'dist/index.html', '<title>built</title>\n');
}

describe('init: the workspace facts of the folders, styles and CI', function () {
  this.timeout(20000);

  it('a Vue-like app: its sub-folders with file names and tests, its style sources, its CI commands; no secret or ignored file', async () => {
    const ws = tempDir('cape-facts-vue-');
    writeVueApp(ws);
    const facts = (await readWorkspaceFacts(ws))!;
    const t = facts.text;
    const layout = part(t, 'Layout');
    for (const line of [
      '- src/ — 19 source files (20 in all), 3 of them tests (*.spec.ts); e.g. App.vue, main.ts',
      '  - src/components/ — 7 source files, 2 of them tests (*.spec.ts); e.g. AppFooter.vue, AppLink.vue, ArticleDetail.vue',
      '  - src/pages/ — 4 source files, 1 of them a test (*.spec.ts); e.g. Article.vue, Home.vue, Login.vue',
      '  - src/composable/ — 2 source files; e.g. useArticles.ts, useTags.ts',
      '  - src/styles/ — 2 source files; e.g. _variables.scss, main.css',
      '- cypress/ — 3 source files, 2 of them tests (*.cy.ts)',
      '  - cypress/support/ — 1 source file; e.g. commands.ts',
      '- (files at the root) — 2 source files (4 in all); e.g. index.html, tailwind.config.js',
      '  - cypress/e2e/ — 2 source files, all tests (*.cy.ts)',
    ]) {
      assert.ok(layout.split('\n').includes(line), `the layout says\n${line}\nin:\n${layout}`);
    }
    // the biggest folders first, and a folder without code (src/assets/) is not listed
    assert.ok(layout.indexOf('src/components/') < layout.indexOf('src/pages/') && layout.indexOf('src/pages/') < layout.indexOf('src/composable/'), layout);
    assert.doesNotMatch(layout, /src\/assets\//);

    const style = part(t, 'Style sources');
    assert.match(style, /^- index\.html: title "Shop"; lang en; stylesheets: \/\/cdn\.example\.com\/main\.css; fonts: https:\/\/fonts\.googleapis\.com\/css\?family=Titillium\+Web:700; theme-color #5cb85c$/m);
    assert.match(style, /^- style files \(2: 1 \.css, 1 \.scss\): src\/styles\/_variables\.scss, src\/styles\/main\.css$/m);
    // the Sass variable a style file declares, and how the components style themselves (here: none of them)
    assert.match(style, /^- src\/styles\/_variables\.scss: tokens \(Sass variables 1\): \$primary: #5cb85c$/m);
    assert.match(style, /^- components with their own <style>: 0 of 9 \.vue files$/m);
    assert.match(t, /## tailwind\.config\.js \(its head\)\n```\nexport default \{\n {2}content: \['\.\/index\.html', '\.\/src\/\*\*\/\*\.vue'\],\n {2}theme: \{ extend: \{ colors: \{ primary: '#5cb85c' \} \} \},\n\};\n```/);

    const ci = part(t, 'CI configuration');
    assert.match(ci, /^- \.github\/workflows\/ci\.yml \(GitHub Actions; "CI", on push, pull_request\): npm run build; npm run test:unit; uses cypress-io\/github-action$/m);

    // the parts in their order of importance
    const order = ['## package.json', '## Check commands', '## CI configuration', '## Layout', '## Style sources', '## tailwind.config.js'].map((h) => t.indexOf(h));
    assert.deepStrictEqual([...order].sort((a, b) => a - b), order, t);
    assert.deepStrictEqual(facts.files, ['package.json', '.github/workflows/ci.yml', 'index.html', 'src/styles/_variables.scss', 'tailwind.config.js']);
    assert.strictEqual(
      describeFacts(facts, 10).replace(/^.*\): /, ''),
      "package.json, .github/workflows/ci.yml, index.html, src/styles/_variables.scss, tailwind.config.js, the detected check commands, the folder layout, the components' style blocks, the style files' names",
    );
    for (const hidden of [SECRET, '.env', IGNORED_STYLE, 'dist/', 'built']) assert.ok(!t.includes(hidden), `the facts do not show ${hidden}`);
  });

  it('a library without a user interface: its entry points, the folders below its one package folder; no style part, no CI part', async () => {
    const ws = tempDir('cape-facts-lib-');
    put(
      ws,
      'package.json',
      JSON.stringify({
        name: 'anvil-cli',
        main: './dist/index.cjs',
        module: './dist/index.mjs',
        types: './dist/index.d.ts',
        bin: { anvil: './bin/anvil.js', 'anvil-init': './bin/init.js' },
        exports: { '.': { import: './dist/index.mjs', require: './dist/index.cjs' }, './package.json': './package.json' },
      }),
    );
    // a lexer's tokens.ts is no design token file
    for (const f of ['index.ts', 'parse.ts', 'tokens.ts', 'cli/run.ts', 'cli/args.ts', 'cli/help.ts', 'io/read.ts']) put(ws, `src/anvil/${f}`, 'export {};\n');
    put(ws, 'test/test_parse.py', 'def test_parse(): ...\n');
    put(ws, 'test/parse.test.ts', 'export {};\n');
    // a docs site's theme and styles are not the product's
    put(ws, 'docs/.vitepress/theme/index.ts', 'export default {};\n');
    put(ws, 'docs/.vitepress/theme/custom.css', ':root { --brand: red; }\n');
    const facts = (await readWorkspaceFacts(ws))!;
    const t = facts.text;
    for (const line of [
      '- main: ./dist/index.cjs',
      '- module: ./dist/index.mjs',
      '- types: ./dist/index.d.ts',
      '- bin: anvil → ./bin/anvil.js, anvil-init → ./bin/init.js',
      '- exports: ., ./package.json → ./package.json',
      '- src/ — 7 source files',
      '  - src/anvil/ — 7 source files; e.g. index.ts, parse.ts, tokens.ts',
      '    - src/anvil/cli/ — 3 source files; e.g. args.ts, help.ts, run.ts',
      '    - src/anvil/io/ — 1 source file; e.g. read.ts',
      '- test/ — 2 source files, all tests (*.test.ts, test_*.py)',
    ]) {
      assert.ok(t.split('\n').includes(line), `the facts say\n${line}\nin:\n${t}`);
    }
    assert.doesNotMatch(t, /## Style sources|## CI configuration/);
    assert.deepStrictEqual(facts.listed, ['the detected check commands', 'the folder layout']);
  });

  it("a dependency list names the unscoped packages first and a scope of six or more once, with the whole count", () => {
    const deps = Object.fromEntries([
      ...['avatar', 'checkbox', 'dialog', 'label', 'select', 'slot', 'tabs'].map((n) => [`@radix-ui/react-${n}`, '^1.0.0']),
      ['@tanstack/react-query', '^5.0.0'],
      ['react', '^19.2.8'],
      ['vite', '^8.2.0'],
    ]);
    const line = packageJsonLines({ name: 'web', dependencies: deps }).find((l) => l.startsWith('- dependencies'));
    assert.strictEqual(line, '- dependencies (10): react ^19.2.8, vite ^8.2.0, @tanstack/react-query ^5.0.0, @radix-ui/* ×7');
  });

  it("a script's long chain keeps its first step and its last, saying how many it left out between them", () => {
    // Day.js's test: jest in four time zones, then the whole suite with its 100% coverage threshold
    const zones = ['Pacific/Auckland', 'Europe/London', 'America/Whitehorse'].map((tz) => `cross-env TZ=${tz} npm run test-tz`);
    const test = [...zones, 'npm run test-tz', 'cross-env TZ=Europe/Paris npm run test-tz-plugin', 'jest --coverage --coverageThreshold="{ \\"global\\": { \\"lines\\": 100} }"'].join(' && ');
    const line = packageJsonLines({ name: 'dayjs', scripts: { test, lint: 'eslint src/* test/*' } }).find((l) => l.startsWith('- scripts'));
    assert.strictEqual(line, '- scripts: test: cross-env TZ=Pacific/Auckland npm run test-tz && … 4 more steps … && jest --coverage --coverageThreshold="{ \\"global\\": { \\"lines\\": 100} }", lint: eslint src/* test/*');
    // as many last steps as fit; a line without a chain is cut at its end, as any field
    assert.strictEqual(scriptCommand(`tsc && ${'a'.repeat(60)} && vite build && vitest run`), `tsc && ${'a'.repeat(60)} && vite build && vitest run`);
    assert.strictEqual(scriptCommand(`tsc && ${'a'.repeat(130)} && vite build && vitest run --coverage`), 'tsc && … 1 more step … && vite build && vitest run --coverage');
    assert.strictEqual(scriptCommand('x'.repeat(200)), shorten('x'.repeat(200), 160));
    assert.strictEqual(scriptCommand('  '), null);
  });

  it("the root's line names the files that run and ship the project, not its other files", async () => {
    const ws = tempDir('cape-facts-run-');
    put(ws, 'pyproject.toml', '[project]\nname = "svc"\n');
    put(ws, 'svc/app.py', 'def main(): ...\n');
    for (const name of ['compose.yml', 'compose.override.yml', 'Dockerfile', 'Makefile', 'fly.toml', 'LICENSE', 'notes.txt', 'settings.yml']) put(ws, name, 'x\n');
    const layout = part((await readWorkspaceFacts(ws))!.text, 'Layout');
    assert.match(layout, /^- \(files at the root\) — .*; to run and ship it: Dockerfile, Makefile, compose\.override\.yml, compose\.yml, fly\.toml$/m, layout);
    const plain = tempDir('cape-facts-run-none-');
    put(plain, 'pyproject.toml', '[project]\nname = "lib"\n');
    put(plain, 'lib/core.py', 'def f(): ...\n');
    assert.doesNotMatch(part((await readWorkspaceFacts(plain))!.text, 'Layout'), /to run and ship it/);
  });

  it('a monorepo keeps its packages on one line each top folder, without their sub-folders; a CI file of another service is named', async () => {
    const ws = tempDir('cape-facts-mono-');
    writeCodebase(ws);
    put(ws, '.gitlab-ci.yml', 'test:\n  image: node:20\n  before_script:\n    - corepack enable\n  script:\n    - pnpm install --frozen-lockfile\n    - pnpm test\n');
    // an ignored CI configuration is neither named nor read
    fs.appendFileSync(path.join(ws, '.gitignore'), '.circleci/\n');
    put(ws, '.circleci/config.yml', 'jobs:\n  a:\n    steps:\n      - run: leak-ignored-ci\n');
    const t = (await readWorkspaceFacts(ws))!.text;
    const layout = part(t, 'Layout');
    assert.ok(layout.includes('- packages/ — 4 source files (6 in all), 1 of them a test (*.test.ts); packages (source files): packages/api/ 3, packages/web/ 1'), layout);
    assert.doesNotMatch(layout, /^ {2}- /m, 'no sub-folder lines under a folder of packages');
    assert.match(part(t, 'CI configuration'), /^- \.gitlab-ci\.yml \(GitLab CI\): pnpm test$/m);
    assert.ok(!t.includes('leak-ignored-ci') && !t.includes('.circleci'), t);
    assert.ok(!t.includes(HIDDEN.ignored));
    assert.doesNotMatch(t, /## Style sources/);
  });

  it("a folder's test naming leaves out a helper's bare extension, which says nothing of a test's name", async () => {
    const ws = tempDir('cape-facts-test-names-');
    put(ws, 'package.json', '{"name":"names"}');
    put(ws, 'src/index.ts', 'export {};\n');
    for (const f of ['test/a.spec.ts', 'test/b.spec.ts', 'test/helpers.ts', 'test/date.utils.ts', 'setup/test/setup.ts']) put(ws, f, 'export {};\n');
    const layout = part((await readWorkspaceFacts(ws))!.text, 'Layout');
    // test/helpers.ts is named by no pattern: the patterns are counted, not claimed for every test
    assert.ok(layout.split('\n').includes('- test/ — 4 source files, all tests (2 named *.spec.ts, 1 named *.utils.ts)'), layout);
    // tests named by none: counted, with no pattern to show
    assert.ok(layout.split('\n').includes('- setup/ — 1 source file, a test'), layout);
  });

  it("a folder's test pattern is claimed alone only when every test it counts is named so", async () => {
    // dtolnay/semver's tests/: four test_*.rs and two modules they share (tests/node/mod.rs, tests/util/mod.rs)
    const ws = tempDir('cape-facts-test-all-named-');
    put(ws, 'Cargo.toml', '[package]\nname = "semver"\n');
    put(ws, 'src/lib.rs', 'pub struct Version;\n');
    for (const f of ['test_autotrait', 'test_identifier', 'test_version', 'test_version_req', 'node/mod', 'util/mod']) put(ws, `tests/${f}.rs`, 'mod util;\n');
    for (const f of ['a.spec.ts', 'b.spec.ts', 'c.test.ts']) put(ws, `web/test/${f}`, 'export {};\n');
    const lines = part((await readWorkspaceFacts(ws))!.text, 'Layout').split('\n');
    assert.ok(lines.includes('- tests/ — 6 source files, all tests (4 named test_*.rs)'), lines.join('\n'));
    // every test named by one of the patterns: the patterns alone
    assert.ok(lines.includes('- web/ — 3 source files, all tests (*.spec.ts, *.test.ts)'), lines.join('\n'));
  });

  it("a CI file's commands are listed once each, in the order first seen, though several jobs run them", async () => {
    const ws = tempDir('cape-facts-ci-dup-');
    put(ws, 'package.json', '{"name":"dup"}');
    put(ws, 'src/index.ts', 'export {};\n');
    const job = (last: string) => `    runs-on: ubuntu-latest\n    steps:\n      - run: pnpm install --no-frozen-lockfile\n      - run: pnpm lint\n      - run: ${last}\n`;
    put(ws, '.github/workflows/test.yml', `name: Test\non: push\njobs:\n  lint:\n${job('pnpm lint')}  unit:\n${job('pnpm test')}  build:\n${job('pnpm build')}`);
    const ci = part((await readWorkspaceFacts(ws))!.text, 'CI configuration');
    assert.match(ci, /^- \.github\/workflows\/test\.yml \(GitHub Actions; "Test", on push\): pnpm lint; pnpm test; pnpm build$/m);
  });

  it('each part is bounded: the sub-folders, the CI files and their commands, the style files, the links of the page', async () => {
    const ws = tempDir('cape-facts-bounds-');
    put(ws, 'package.json', '{"name":"big-app"}');
    for (let i = 0; i < 60; i++) for (let j = 0; j <= i % 4; j++) put(ws, `src/feature-${String(i).padStart(2, '0')}/part-${j}.ts`, 'export {};\n');
    for (let i = 0; i < 30; i++) {
      const steps = Array.from({ length: 40 }, (_, j) => `      - run: npm run task-${i}-${j}\n`).join('');
      put(ws, `.github/workflows/flow-${String(i).padStart(2, '0')}.yml`, `name: Flow ${i}\non: push\njobs:\n  a:\n    steps:\n${steps}`);
    }
    for (let i = 0; i < 200; i++) put(ws, `src/styles/sheet-${i}.scss`, 'a{}\n');
    const links = Array.from({ length: 100 }, (_, i) => `<link rel="stylesheet" href="/css/${'x'.repeat(30)}-${i}.css">`).join('');
    put(ws, 'index.html', `<html><head><title>${'T'.repeat(500)}</title>${links}</head></html>`);
    // guidance that fills the rest: the bounds are taken as written, at no larger scale
    for (const name of ['CLAUDE.md', 'AGENTS.md', 'CONTRIBUTING.md']) put(ws, name, 'A rule of the project.\n'.repeat(400));
    const t = (await readWorkspaceFacts(ws))!.text;
    const layout = part(t, 'Layout');
    assert.match(layout, /^ {2}- … \d+ more folders$/m);
    assert.ok(layout.length <= 2300, `${layout.length}`);
    const ci = part(t, 'CI configuration');
    assert.ok(ci.length <= 700, `${ci.length}`);
    assert.match(ci, /; … \d+ more$/m, 'a workflow\'s commands are cut with a count');
    assert.match(ci, /^- … \d+ more CI files$/m);
    const style = part(t, 'Style sources');
    assert.ok(style.length <= 1200, `${style.length}`);
    assert.match(style, /^- style files \(200: 200 \.scss\): .*, … \d+ more$/m);
    assert.match(style, /stylesheets: .*, … \d+ more$/m);
    assert.match(style, /title "T{100}…"/);
  });

  it('a page that never closes a tag, or whose head is all tags, is read in one pass', async () => {
    const ws = tempDir('cape-facts-html-');
    put(ws, 'package.json', '{"name":"odd"}');
    put(ws, 'index.html', '<html lang="de"><head><title>Odd</title><link rel="stylesheet" href="a.css"' + '<link '.repeat(50_000));
    const style = part((await readWorkspaceFacts(ws))!.text, 'Style sources');
    assert.match(style, /^- index\.html: title "Odd"; lang de$/m);
  });
});
