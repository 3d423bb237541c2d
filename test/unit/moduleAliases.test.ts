// The workspace's own module names (moduleAliases.ts) and the import edges they give the index (importGraph.ts):
// tsconfig paths and baseUrl, package names of a monorepo, package.json imports; kept right as files and
// configurations change.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { isModuleConfig, ModuleAliases } from '../../src/core/workspace/moduleAliases';
import { joinWorkspace, MAX_PATH_RULES } from '../../src/core/workspace/moduleRules';
import { WorkspaceIndex } from '../../src/core/workspace/workspaceIndex';
import { rankFiles } from '../../src/core/workspace/rank';
import { ImportGraph } from '../../src/core/workspace/importGraph';
import { FileEntry } from '../../src/core/workspace/indexEntry';
import { FileTable } from '../../src/core/workspace/fileTable';

function write(root: string, rel: string, content: string): void {
  const abs = path.join(root, ...rel.split('/'));
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
}

function aliases(files: Record<string, string>): ModuleAliases {
  return new ModuleAliases(Object.keys(files), (rel) => files[rel] ?? null);
}

/** A small monorepo: two packages, an app with tsconfig paths extending a base config. */
function monorepo(root: string): void {
  write(root, 'package.json', '{ "name": "mono", "private": true, "workspaces": ["packages/*"] }\n');
  write(root, 'tsconfig.base.json', '{ "compilerOptions": { "strict": true } }\n');
  write(
    root,
    'packages/core/package.json',
    JSON.stringify({ name: '@acme/core', main: 'dist/index.js', exports: { '.': { types: './dist/index.d.ts', import: './dist/index.mjs' }, './format': './dist/format/index.js' }, imports: { '#internal/*': './src/internal/*.ts' } }),
  );
  write(root, 'packages/core/src/index.ts', "import { clamp } from '#internal/clamp';\nexport function invoiceTotal() { return clamp(1); }\n");
  write(root, 'packages/core/src/internal/clamp.ts', 'export function clamp(n: number) { return n; }\n');
  write(root, 'packages/core/src/format/index.ts', 'export function formatMoney() { return 1; }\n');
  write(root, 'packages/app/package.json', '{ "name": "@acme/app" }\n');
  write(
    root,
    'packages/app/tsconfig.json',
    '{\n  // the app\'s aliases\n  "extends": "../../tsconfig.base.json",\n  "compilerOptions": { "baseUrl": ".", "paths": { "@ui/*": ["src/ui/*"], "config": ["src/config.ts"], }, },\n}\n',
  );
  write(
    root,
    'packages/app/src/checkout.ts',
    "import { invoiceTotal } from '@acme/core';\nimport { formatMoney } from '@acme/core/format';\nimport { Button } from '@ui/button';\nimport settings from 'config';\nimport React from 'react';\nexport function checkoutPage() { return [invoiceTotal, formatMoney, Button, settings, React]; }\n",
  );
  write(root, 'packages/app/src/ui/button.tsx', 'export function Button() { return null; }\n');
  write(root, 'packages/app/src/config.ts', 'export default { currency: "EUR" };\n');
  write(root, 'packages/app/test/checkout.test.ts', "import { checkoutPage } from '@acme/app';\n");
  // a copy under node_modules never names a workspace package
  write(root, 'node_modules/@acme/core/package.json', '{ "name": "@acme/core", "main": "index.js" }\n');
}

function tmp(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

const importsOf = (i: WorkspaceIndex) => [...i.all()].map((f) => `${f.path} -> ${f.imports.join(',')}`).sort();

/** After each step's change, a warm run from `cacheFile` and the watched index's update hold a fresh build's edges. */
async function sameAsFreshAfterEach(root: string, cacheFile: string, watched: WorkspaceIndex, steps: [string, () => void][]): Promise<void> {
  for (const [rel, change] of steps) {
    change();
    const expected = importsOf((await WorkspaceIndex.open(root, { cacheFile: null })).index);
    assert.deepStrictEqual(importsOf((await WorkspaceIndex.open(root, { cacheFile })).index), expected, `warm run after ${rel}`);
    await watched.update([rel]);
    assert.deepStrictEqual(importsOf(watched), expected, `watcher update after ${rel}`);
  }
}

describe('module aliases', () => {
  it('knows the configuration files that name modules', () => {
    for (const p of ['package.json', 'a/b/package.json', 'tsconfig.json', 'tsconfig.build.json', 'packages/x/jsconfig.json']) assert.ok(isModuleConfig(p), p);
    for (const p of ['package-lock.json', 'src/config.json', 'tsconfig.ts', 'my-tsconfig.json']) assert.ok(!isModuleConfig(p), p);
    assert.strictEqual(joinWorkspace('a/b', '../c/./d'), 'a/c/d');
    assert.strictEqual(joinWorkspace('', '../x'), null);
  });

  it('maps tsconfig paths (exact names first, then the longest prefix) and baseUrl, relative to the config that sets them', () => {
    const a = aliases({
      'web/tsconfig.json': '{ "compilerOptions": { "baseUrl": "src", "paths": { "@/*": ["*"], "@/ui/*": ["components/ui/*", "legacy/*"], "env": ["../env.ts"] } } }',
    });
    assert.deepStrictEqual(a.bases('web/src/page.ts', '@/ui/button'), ['web/src/components/ui/button', 'web/src/legacy/button', 'web/src/@/ui/button']);
    assert.deepStrictEqual(a.bases('web/src/page.ts', '@/lib/api'), ['web/src/lib/api', 'web/src/@/lib/api']);
    assert.deepStrictEqual(a.bases('web/src/page.ts', 'env'), ['web/env.ts', 'web/src/env']);
    assert.deepStrictEqual(a.bases('web/src/page.ts', 'hooks/useCart'), ['web/src/hooks/useCart']);
    // a file outside the config's folder is not under its rules
    assert.deepStrictEqual(a.bases('server/main.ts', '@/lib/api'), []);
    // paths without baseUrl are relative to their config
    const b = aliases({ 'tsconfig.json': '{ "compilerOptions": { "paths": { "~lib/*": ["./lib/*"] } } }' });
    assert.deepStrictEqual(b.bases('src/x.ts', '~lib/date'), ['lib/date']);
    assert.deepStrictEqual(b.bases('src/x.ts', 'lodash'), []);
  });

  it('never maps outside the workspace, and reads a bounded number of patterns from a generated or hostile config', () => {
    const paths: Record<string, string[]> = { '@etc/*': ['../../etc/*'], 'secret': ['/etc/passwd'] };
    for (let i = 0; i < 5000; i++) paths[`@gen${i}/*`] = [`gen/${i}/*`];
    paths['@late/*'] = ['late/*'];
    const a = aliases({ 'app/tsconfig.json': JSON.stringify({ compilerOptions: { paths } }) });
    assert.deepStrictEqual(a.bases('app/x.ts', '@etc/passwd'), []);
    assert.deepStrictEqual(a.bases('app/x.ts', 'secret'), ['app/etc/passwd']);
    assert.deepStrictEqual(a.bases('app/x.ts', '@gen7/a'), ['app/gen/7/a']);
    assert.deepStrictEqual(a.bases('app/x.ts', `@gen${MAX_PATH_RULES + 10}/a`), [], 'patterns past the bound are not read');
    assert.deepStrictEqual(a.bases('app/x.ts', '@late/a'), []);
  });

  it('reads every exact name of a large generated paths map (an Nx workspace lists one per library)', () => {
    const paths: Record<string, string[]> = {};
    for (let i = 0; i < 2000; i++) paths[`@org/lib${i}`] = [`libs/lib${i}/src/index.ts`];
    paths['@org/tools/*'] = ['tools/*'];
    const files: Record<string, string> = { 'tsconfig.base.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths } }) };
    for (const p of ['apps/web', 'apps/api', 'libs/lib1']) files[`${p}/tsconfig.json`] = '{ "extends": "../../tsconfig.base.json" }';
    let baseReads = 0;
    const a = new ModuleAliases(Object.keys(files), (rel) => (rel === 'tsconfig.base.json' && baseReads++, files[rel] ?? null));
    // the base every project extends is read (and its map taken in) once, not once per project
    assert.strictEqual(baseReads, 1);
    assert.deepStrictEqual(a.bases('apps/web/src/a.ts', '@org/lib1999'), ['libs/lib1999/src/index.ts', '@org/lib1999']);
    assert.deepStrictEqual(a.bases('apps/web/src/a.ts', '@org/tools/x'), ['tools/x', '@org/tools/x']);
    // two configs of one folder with paths of their own: each file under its own config's
    const b = aliases({
      'tsconfig.base.json': '{ "compilerOptions": { "paths": { "@x": ["base/x"] } } }',
      'tsconfig.json': '{ "extends": "./tsconfig.base.json", "compilerOptions": { "paths": { "@x": ["root/x"] } } }',
      'apps/web/tsconfig.json': '{ "extends": "../../tsconfig.base.json" }',
    });
    assert.deepStrictEqual([b.bases('src/a.ts', '@x'), b.bases('apps/web/a.ts', '@x')], [['root/x'], ['base/x']]);
  });

  it('follows an extends written with Windows separators', () => {
    const a = aliases({
      'tsconfig.base.json': '{ "compilerOptions": { "baseUrl": ".", "paths": { "@shared/*": ["libs/shared/*"] } } }',
      'apps/web/tsconfig.json': '{ "extends": "..\\\\..\\\\tsconfig.base.json" }',
    });
    assert.deepStrictEqual(a.bases('apps/web/src/a.ts', '@shared/dates'), ['libs/shared/dates', '@shared/dates']);
  });

  it("takes the nearest config as TypeScript does: one without paths hides an outer one's, a solution config does not", () => {
    const a = aliases({
      'tsconfig.json': '{ "compilerOptions": { "baseUrl": ".", "paths": { "@lib/*": ["lib/*"] } } }',
      'tools/tsconfig.json': '{ "compilerOptions": { "strict": true } }',
      'apps/tsconfig.json': '{ "files": [], "references": [{ "path": "./web" }] }',
      'apps/web/tsconfig.json': '{ "extends": "../../tsconfig.json" }',
    });
    assert.deepStrictEqual(a.bases('src/a.ts', '@lib/x'), ['lib/x', '@lib/x']);
    assert.deepStrictEqual(a.bases('tools/gen.ts', '@lib/x'), [], 'its own config has no paths');
    assert.deepStrictEqual(a.bases('apps/other/a.ts', '@lib/x'), ['lib/x', '@lib/x'], 'a solution config owns no file');
    assert.deepStrictEqual(a.bases('apps/web/a.ts', '@lib/x'), ['lib/x', '@lib/x']);
    assert.ok(aliases({ 'tsconfig.json': '{ "compilerOptions": { "strict": true } }' }).empty, 'a config without names names nothing');
  });

  it('follows extends inside the workspace (comments, trailing commas), and not outside it', () => {
    const a = aliases({
      'tsconfig.base.json': '{ "compilerOptions": { /* shared */ "baseUrl": ".", "paths": { "@shared/*": ["libs/shared/*"], }, }, }',
      'apps/web/tsconfig.json': '{ "extends": "../../tsconfig.base.json", "compilerOptions": { "jsx": "react" } }',
      'apps/api/tsconfig.json': '{ "extends": ["@tsconfig/node20/tsconfig.json", "../../tsconfig.base"], "compilerOptions": { "paths": { "@api/*": ["src/*"] } } }',
      'apps/cycle/tsconfig.json': '{ "extends": "./tsconfig.json" }',
    });
    assert.deepStrictEqual(a.bases('apps/web/src/a.ts', '@shared/dates'), ['libs/shared/dates', '@shared/dates']);
    // its own paths replace the inherited ones, relative to the inherited baseUrl
    assert.deepStrictEqual(a.bases('apps/api/src/a.ts', '@api/users'), ['src/users', '@api/users']);
    assert.deepStrictEqual(a.bases('apps/api/src/a.ts', '@shared/dates'), ['@shared/dates']);
    assert.deepStrictEqual(a.bases('apps/cycle/a.ts', '@shared/x'), []);
  });

  it('follows an extends that names a workspace package, as a monorepo shares its configs (and not a package it does not hold)', () => {
    // no baseUrl: the paths are relative to the config that sets them, in the shared package
    const shared = '{ "compilerOptions": { "paths": { "@shared/*": ["../../libs/shared/*"] } } }';
    const a = aliases({
      'packages/typescript-config/package.json': '{ "name": "@repo/typescript-config" }',
      'packages/typescript-config/nextjs.json': shared,
      'packages/tsconfig/package.json': '{ "name": "tsconfig-base", "tsconfig": "./base.json" }',
      'packages/tsconfig/base.json': shared,
      'packages/plain/package.json': '{ "name": "@repo/plain" }',
      'packages/plain/tsconfig.json': shared,
      'apps/web/tsconfig.json': '{ "extends": "@repo/typescript-config/nextjs.json" }',
      'apps/docs/tsconfig.json': '{ "extends": "@repo/typescript-config/nextjs" }',
      'apps/api/tsconfig.json': '{ "extends": "tsconfig-base" }',
      'apps/cli/tsconfig.json': '{ "extends": "@repo/plain" }',
      'apps/other/tsconfig.json': '{ "extends": "@tsconfig/node20/tsconfig.json" }',
    });
    for (const app of ['web', 'docs', 'api', 'cli']) assert.deepStrictEqual(a.bases(`apps/${app}/src/a.ts`, '@shared/dates'), ['libs/shared/dates'], app);
    assert.deepStrictEqual(a.bases('apps/other/src/a.ts', '@shared/dates'), []);
    // a change to the shared config changes what resolves
    assert.ok(a.readsConfig('packages/typescript-config/nextjs.json') && a.readsConfig('packages/tsconfig/base.json'));
  });

  it('links an app to the library its shared config names, in the index, and again when that config changes', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-extends-'));
    write(root, 'packages/typescript-config/package.json', '{ "name": "@repo/typescript-config" }');
    write(root, 'packages/typescript-config/base.json', '{ "compilerOptions": { "paths": { "@shared/*": ["../../libs/shared/*"] } } }');
    write(root, 'apps/web/tsconfig.json', '{ "extends": "@repo/typescript-config/base.json" }');
    write(root, 'apps/web/src/page.ts', "import { formatDate } from '@shared/dates';\nexport const page = formatDate();\n");
    write(root, 'libs/shared/dates.ts', 'export function formatDate() { return 1; }\n');
    write(root, 'libs/common/dates.ts', 'export function formatDate() { return 2; }\n');
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    assert.deepStrictEqual(index.get('apps/web/src/page.ts')!.imports, ['libs/shared/dates.ts']);
    write(root, 'packages/typescript-config/base.json', '{ "compilerOptions": { "paths": { "@shared/*": ["../../libs/common/*"] } } }');
    await index.update(['packages/typescript-config/base.json']);
    assert.deepStrictEqual(index.get('apps/web/src/page.ts')!.imports, ['libs/common/dates.ts']);
  });

  it('survives a configuration nested deeper than the parser can recurse (a hostile package.json or tsconfig)', () => {
    const deep = '{ "name": "x", "exports": ' + '['.repeat(200_000);
    const a = aliases({ 'package.json': deep, 'tsconfig.json': deep, 'lib/package.json': '{ "name": "lib" }' });
    assert.deepStrictEqual(a.bases('x.ts', 'lib'), ['lib/src/index', 'lib/index']);
  });

  it('resolves inherited paths against the baseUrl of the config that extends them, as TypeScript does', () => {
    // TypeScript: paths are relative to the final baseUrl wherever it is set, else to the config that defines them
    const a = aliases({
      'tsconfig.base.json': '{ "compilerOptions": { "paths": { "@shared/*": ["libs/shared/*"] } } }',
      'apps/web/tsconfig.json': '{ "extends": "../../tsconfig.base.json", "compilerOptions": { "baseUrl": "." } }',
      'apps/api/tsconfig.json': '{ "extends": "../../tsconfig.base.json" }',
    });
    assert.deepStrictEqual(a.bases('apps/web/src/a.ts', '@shared/dates'), ['apps/web/libs/shared/dates', 'apps/web/@shared/dates']);
    assert.deepStrictEqual(a.bases('apps/api/src/a.ts', '@shared/dates'), ['libs/shared/dates']);
  });

  it('reads conditional package.json imports, and normalises a mapped specifier holding ..', () => {
    const a = aliases({
      'pkg/package.json': JSON.stringify({ name: 'pkg', imports: { '#crypto': { node: './src/crypto-node.js', default: './src/crypto-web.js' }, '#util/*': { types: './dist/util/*.d.ts', default: './dist/util/*.js' } } }),
      'tsconfig.json': '{ "compilerOptions": { "paths": { "@/*": ["src/*"] } } }',
    });
    assert.deepStrictEqual(a.bases('pkg/src/a.ts', '#crypto'), ['pkg/src/crypto-web.js', 'pkg/src/crypto-node.js']);
    assert.deepStrictEqual(a.bases('pkg/src/a.ts', '#util/dates'), ['pkg/src/util/dates', 'pkg/dist/util/dates.js', 'pkg/dist/util/dates.d.ts']);
    // a target that is no `./` path names a package (Node), not a file of this one
    const b = aliases({ 'pkg/package.json': JSON.stringify({ name: 'pkg', imports: { '#fetch': { node: 'undici', default: './src/fetch.js' }, '#dep': 'lodash' } }) });
    assert.deepStrictEqual(b.bases('pkg/src/a.ts', '#fetch'), ['pkg/src/fetch.js']);
    assert.deepStrictEqual(b.bases('pkg/src/a.ts', '#dep'), []);
    assert.deepStrictEqual(a.bases('src/a.ts', '@/../test/fixtures'), ['test/fixtures']);
    assert.deepStrictEqual(a.bases('src/a.ts', '@/../../etc/passwd'), []);
  });

  it('tries baseUrl before the workspace package names, as TypeScript tries it before node_modules', () => {
    const a = aliases({
      'apps/web/jsconfig.json': '{ "compilerOptions": { "baseUrl": "src" } }',
      'packages/ui/package.json': '{ "name": "ui" }',
    });
    assert.deepStrictEqual(a.bases('apps/web/src/page.js', 'ui/Button'), ['apps/web/src/ui/Button', 'packages/ui/Button', 'packages/ui/src/Button']);
    assert.deepStrictEqual(a.bases('apps/web/src/page.js', 'ui'), ['apps/web/src/ui', 'packages/ui/src/index', 'packages/ui/index']);
  });

  it('names a workspace package by its package.json: entry (source twin of built output first), exported subpaths, imports', () => {
    const files: Record<string, string> = {};
    const root = tmp('cape-alias-pkg-');
    monorepo(root);
    for (const rel of ['package.json', 'packages/core/package.json', 'packages/app/package.json', 'node_modules/@acme/core/package.json']) files[rel] = fs.readFileSync(path.join(root, rel), 'utf8');
    const a = aliases(files);
    const entry = a.bases('packages/app/src/checkout.ts', '@acme/core');
    // conditions most source-like first: import before types
    assert.deepStrictEqual(entry.slice(0, 4), ['packages/core/src/index', 'packages/core/dist/index.mjs', 'packages/core/dist/index.d.ts', 'packages/core/dist/index.js']);
    assert.ok(entry.includes('packages/core/src/index') && entry.includes('packages/core/index'));
    assert.deepStrictEqual(a.bases('x.ts', '@acme/core/format'), ['packages/core/src/format/index', 'packages/core/dist/format/index.js', 'packages/core/format', 'packages/core/src/format']);
    assert.deepStrictEqual(a.bases('packages/core/src/index.ts', '#internal/clamp'), ['packages/core/src/internal/clamp.ts']);
    // `#` imports belong to the nearest package only
    assert.deepStrictEqual(a.bases('packages/app/src/checkout.ts', '#internal/clamp'), []);
    assert.deepStrictEqual(a.bases('x.ts', '@acme/corex'), []);
    assert.deepStrictEqual(a.bases('x.ts', 'mono'), ['src/index', 'index']);
    // a broken package.json names nothing
    assert.ok(aliases({ 'package.json': '{ "name": ' }).empty);
  });

  it('gives the index the edges a monorepo imports by name, and the ranking follows them', async () => {
    const root = tmp('cape-alias-index-');
    monorepo(root);
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    assert.deepStrictEqual(index.get('packages/app/src/checkout.ts')!.imports, [
      'packages/core/src/index.ts',
      'packages/core/src/format/index.ts',
      'packages/app/src/ui/button.tsx',
      'packages/app/src/config.ts',
    ]);
    assert.deepStrictEqual(index.get('packages/core/src/index.ts')!.imports, ['packages/core/src/internal/clamp.ts']);
    assert.deepStrictEqual(index.get('packages/app/test/checkout.test.ts')!.imports, []);
    assert.deepStrictEqual(index.importersOf('packages/core/src/index.ts'), ['packages/app/src/checkout.ts']);
    // the checkout page's words name nothing in core: core's entry is ranked through the import alone
    const ranked = rankFiles(index, { objective: 'checkout page' }).map((r) => r.path);
    assert.strictEqual(ranked[0], 'packages/app/src/checkout.ts');
    assert.ok(ranked.includes('packages/core/src/index.ts'), ranked.join('\n'));
  });

  it('after files or configurations change, resolves bare specifiers as a fresh build does (warm run and watcher update)', async () => {
    const root = tmp('cape-alias-incr-');
    monorepo(root);
    // enough other files that one change is resolved incrementally, not by resolving everything again
    for (let i = 0; i < 12; i++) write(root, `packages/app/src/other/o${i}.ts`, `import { o } from '@ui/o${i + 1}';\nimport { c } from '@acme/core';\n`);
    // past the clock step within which a file read is taken as racy and read again (fileRead.ts racyRead)
    await new Promise((r) => setTimeout(r, 150));
    const fresh = async () => importsOf((await WorkspaceIndex.open(root, { cacheFile: null })).index);
    const cacheFile = path.join(tmp('cape-alias-cache-'), 'index.idx');
    const watched = (await WorkspaceIndex.open(root, { cacheFile })).index;
    assert.deepStrictEqual(importsOf(watched), await fresh());
    const steps: [string, () => void][] = [
      ['packages/app/src/index.ts', () => write(root, 'packages/app/src/index.ts', 'export const checkoutPage = 1;\n')],
      ['packages/app/src/ui/o3.ts', () => write(root, 'packages/app/src/ui/o3.ts', 'export const o = 3;\n')],
      ['packages/core/src/index.ts', () => fs.unlinkSync(path.join(root, 'packages/core/src/index.ts'))],
      ['packages/core/index.js', () => write(root, 'packages/core/index.js', 'module.exports = {};\n')],
      ['packages/app/tsconfig.json', () => write(root, 'packages/app/tsconfig.json', '{ "compilerOptions": { "paths": { "@ui/*": ["src/other/*"] } } }\n')],
      ['packages/core/package.json', () => write(root, 'packages/core/package.json', '{ "name": "@acme/money", "main": "index.js" }\n')],
      ['packages/app/tsconfig.json', () => fs.unlinkSync(path.join(root, 'packages/app/tsconfig.json'))],
    ];
    await sameAsFreshAfterEach(root, cacheFile, watched, steps);
    // the steps did change what resolves: the app's entry, then no core package by that name
    assert.ok(importsOf(watched).includes('packages/app/test/checkout.test.ts -> packages/app/src/index.ts'), importsOf(watched).join('\n'));
    assert.ok(importsOf(watched).includes('packages/app/src/other/o2.ts -> '), importsOf(watched).join('\n'));
  });

  it('after a change of a config that a tsconfig extends (any name), resolves as a fresh build does', async () => {
    const root = tmp('cape-alias-ext-');
    write(root, 'tsconfig.json', '{ "extends": "./configs/base.json", "compilerOptions": { "strict": true } }\n');
    write(root, 'configs/base.json', '{ "compilerOptions": { "baseUrl": "..", "paths": { "@ui/*": ["src/ui/*"] } } }\n');
    write(root, 'src/ui/button.ts', 'export const button = 1;\n');
    write(root, 'src/other/button.ts', 'export const button = 2;\n');
    write(root, 'src/page.ts', "import { button } from '@ui/button';\n");
    for (let i = 0; i < 12; i++) write(root, `src/more/m${i}.ts`, `export const m${i} = ${i};\n`);
    // past the clock step within which a file read is taken as racy and read again (fileRead.ts racyRead)
    await new Promise((r) => setTimeout(r, 150));
    const cacheFile = path.join(tmp('cape-alias-ext-cache-'), 'index.idx');
    const watched = (await WorkspaceIndex.open(root, { cacheFile })).index;
    assert.ok(importsOf(watched).includes('src/page.ts -> src/ui/button.ts'), importsOf(watched).join('\n'));
    const steps: [string, () => void][] = [
      ['configs/base.json', () => write(root, 'configs/base.json', '{ "compilerOptions": { "baseUrl": "..", "paths": { "@ui/*": ["src/other/*"] } } }\n')],
      ['configs/base.json', () => fs.unlinkSync(path.join(root, 'configs/base.json'))],
      ['configs/base.json', () => write(root, 'configs/base.json', '{ "compilerOptions": { "baseUrl": "..", "paths": { "@ui/*": ["src/ui/*"] } } }\n')],
    ];
    await sameAsFreshAfterEach(root, cacheFile, watched, steps);
  });

  it('looks at the files that resolved through a folder once per batch of changes, not once per changed file', () => {
    class CountingMap extends FileTable {
      gets = 0;
      override get(k: string): FileEntry | undefined {
        this.gets++;
        return super.get(k);
      }
    }
    const files = new CountingMap();
    const add = (p: string, specs: string[]) => files.set(p, new FileEntry(p, 1, 1, 1, 1, [], specs));
    // every file's `react` tries the root's baseUrl: all of them resolved through the root folder
    const texts: Record<string, string> = { 'tsconfig.json': '{ "compilerOptions": { "baseUrl": "." } }' };
    add('tsconfig.json', []);
    for (let i = 0; i < 2000; i++) add(`src/f${i}.ts`, ['react']);
    const graph = new ImportGraph(files, (rel) => texts[rel] ?? null);
    for (const p of files.keys()) graph.indexed(p, true);
    graph.resolveImports();
    for (let i = 0; i < 400; i++) {
      add(`src/added/a${i}.ts`, []);
      graph.indexed(`src/added/a${i}.ts`, true);
    }
    files.gets = 0;
    graph.resolveImports();
    assert.ok(files.gets < 10_000, `${files.gets} look-ups for 400 added files`);
  });

  it('re-resolves after an added file only the files whose bases lie in its folder or, for an index file, its parent', () => {
    const files = new FileTable();
    const add = (p: string, specs: string[]) => files.set(p, new FileEntry(p, 1, 1, 1, 1, [], specs));
    const texts: Record<string, string> = { 'tsconfig.json': '{ "compilerOptions": { "baseUrl": ".", "paths": { "@lib": ["vendor/zeta"] } } }' };
    add('tsconfig.json', []);
    for (let i = 0; i < 20; i++) add(`src/f${i}.ts`, ['react']);
    add('src/uses-lib.ts', ['@lib']);
    const graph = new ImportGraph(files, (rel) => texts[rel] ?? null);
    for (const p of files.keys()) graph.indexed(p, true);
    graph.resolveImports();
    const before = files.get('src/f0.ts')!.imports;
    // a file deep under the root: no base of `react` (the root's `react`) can name it
    add('src/deep/er/quartz.ts', []);
    graph.indexed('src/deep/er/quartz.ts', true);
    graph.resolveImports();
    assert.strictEqual(files.get('src/f0.ts')!.imports, before, 'resolved again');
    // an index file under a base's folder: its users are resolved again
    add('vendor/zeta/index.ts', []);
    graph.indexed('vendor/zeta/index.ts', true);
    graph.resolveImports();
    assert.deepStrictEqual(files.get('src/uses-lib.ts')!.imports, ['vendor/zeta/index.ts']);
  });
});
