// Bundles the three deliverables: the extension host code, the webview app, and the headless CLI.
// usage: node esbuild.mjs [--watch] [--production] [--only extension,webview,cli,sdk,indexWorker] [--outdir DIR (default dist)]
//
// The extension is three files: dist/extension.js (what activation loads: stand-ins only, src/extension.ts),
// dist/session.js (the real activation and everything else, src/activation.ts, required by src/sessionBundle.ts
// the first time a command, a view or a restored panel needs it) and dist/anthropic-sdk.js, the Anthropic SDK on
// its own, required by src/core/llm/anthropic/sdk.ts on the first request. The CLI is split the same way (see
// src/cli/bundles.ts): dist/cli.js (the dispatcher, its flags, `cape help`, `cape context`), dist/cli-kpt.js
// (`cape kpt`, `cape housekeeping`) and dist/cli-session.js (`cape init/start/resume/repeat` and the session
// machinery), the last two required when one of their commands runs; the CLI requires the same dist/anthropic-sdk.js
// on its first request, so a command that sends none never parses the SDK. The SDK bundle is built whenever the
// extension or the CLI is, and so is dist/indexWorker.js, the workspace index's worker thread (src/core/workspace/
// readAhead.ts and statAhead.ts start it from the folder of the bundle that runs; without it a build reads and a warm
// open stats on one thread).
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

const args = process.argv.slice(2);
const watch = args.includes('--watch');
const production = args.includes('--production');
const onlyArg = args.find((a) => a.startsWith('--only'));
const only = onlyArg ? (onlyArg.includes('=') ? onlyArg.split('=')[1] : args[args.indexOf(onlyArg) + 1]).split(',') : null;
const outdirArg = args.find((a) => a.startsWith('--outdir'));
// Another folder than dist/ lets the bench measure a production build without replacing the one the tests run.
const outdir = outdirArg ? (outdirArg.includes('=') ? outdirArg.split('=')[1] : args[args.indexOf(outdirArg) + 1]) : 'dist';

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'warning',
  legalComments: 'none',
  // jsonc-parser's "main" is a UMD build whose internal requires esbuild cannot follow: bundle its ES module build.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
};

const SDK_BUNDLE = 'anthropic-sdk';

/**
 * Keeps the Anthropic SDK out of dist/extension.js and dist/cli.js: sdk.ts's lazy `require('@anthropic-ai/sdk')`
 * becomes `require('./anthropic-sdk.js')`, resolved next to the requiring bundle at run time. A static import of the
 * SDK would load it at activation (or with every CLI command), so it fails the build.
 */
const lazyAnthropicSdk = {
  name: 'lazy-anthropic-sdk',
  setup(build) {
    build.onResolve({ filter: /^@anthropic-ai\/sdk(\/.*)?$/ }, (args) => {
      if (args.importer.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      if (args.kind === 'require-call' && args.path === '@anthropic-ai/sdk') return { path: `./${SDK_BUNDLE}.js`, external: true };
      return {
        errors: [{ text: `${args.path} is imported statically by ${args.importer}; load it through src/core/llm/anthropic/sdk.ts (loadSdk) so activation does not load it` }],
      };
    });
  },
};

const SESSION_BUNDLE = 'session';
const srcModule = (m) => path.resolve(`src/${m}.ts`);

/**
 * Lazy bundles: a loader module's `require('./root')` of a bundle's root becomes `require('./<bundle>.js')`, resolved
 * next to the requiring bundle at run time. A bundle's module may be imported statically only by another module of
 * the same bundle (its root by none): imported by the entry's code, it would be loaded with it, so that fails the
 * build.
 */
function lazyBundles(name, loader, bundles) {
  return {
    name,
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        const target = path.resolve(args.resolveDir, args.path).replace(/\.ts$/, '') + '.ts';
        const lazy = bundles.find((b) => b.modules.includes(target));
        if (!lazy) return undefined;
        if (target === lazy.root && args.kind === 'require-call' && args.importer === loader) return { path: `./${lazy.bundle}.js`, external: true };
        if (target !== lazy.root && lazy.modules.includes(args.importer)) return undefined;
        return {
          errors: [
            {
              text: `${path.relative('.', target)} is imported statically by ${path.relative('.', args.importer)}; it belongs to dist/${lazy.bundle}.js: load it through ${path.relative('.', loader)} so it is loaded only when needed`,
            },
          ],
        };
      });
    },
  };
}

/** Keeps the session machinery out of dist/extension.js: src/sessionBundle.ts requires src/activation.ts as dist/session.js. */
const lazySessionBundle = lazyBundles('lazy-session-bundle', srcModule('sessionBundle'), [
  { bundle: SESSION_BUNDLE, root: srcModule('activation'), modules: [srcModule('activation')] },
]);

const cliModule = (m) => srcModule(`cli/${m}`);
/**
 * The CLI's lazy bundles (src/cli/bundles.ts requires their roots): the session commands as dist/cli-session.js and
 * kpt/housekeeping as dist/cli-kpt.js, each with every module of src/cli/ that belongs to it only, so that neither
 * the dispatcher nor `cape context` loads them.
 */
const CLI_LAZY_BUNDLES = [
  { bundle: 'cli-session', root: cliModule('sessionCommands'), modules: ['sessionCommands', 'init', 'session', 'repeat', 'settings', 'printer', 'terminal'].map(cliModule) },
  { bundle: 'cli-kpt', root: cliModule('kpt'), modules: [cliModule('kpt')] },
];
const lazyCliBundles = lazyBundles('lazy-cli-bundles', cliModule('bundles'), CLI_LAZY_BUNDLES);

const targets = {
  extension: {
    ...common,
    entryPoints: {
      extension: 'src/extension.ts',
      [SESSION_BUNDLE]: 'src/activation.ts',
    },
    outdir,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    plugins: [lazyAnthropicSdk, lazySessionBundle],
  },
  cli: {
    ...common,
    entryPoints: { cli: 'src/cli/main.ts', ...Object.fromEntries(CLI_LAZY_BUNDLES.map((b) => [b.bundle, b.root])) },
    outdir,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // on both files (esbuild has one banner per build); Node skips it in a required file
    banner: { js: '#!/usr/bin/env node' },
    plugins: [lazyAnthropicSdk, lazyCliBundles],
  },
  sdk: {
    ...common,
    entryPoints: { [SDK_BUNDLE]: createRequire(import.meta.url).resolve('@anthropic-ai/sdk') },
    outdir,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  indexWorker: {
    ...common,
    entryPoints: { indexWorker: 'src/core/workspace/indexWorker.ts' },
    outdir,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  webview: {
    ...common,
    entryPoints: { webview: 'media/app/main.ts', 'webview-style': 'media/app/style.css' },
    outdir,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
};

function copyCodicons() {
  const src = path.join('node_modules', '@vscode', 'codicons', 'dist');
  const dest = path.join(outdir, 'codicons');
  fs.mkdirSync(dest, { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) fs.copyFileSync(path.join(src, f), path.join(dest, f));
}

// A production build starts from an empty dist/ so no stale source maps end up in the .vsix.
if (production && !only) fs.rmSync(outdir, { recursive: true, force: true });

// the extension and the CLI both require the SDK bundle and start the index worker at run time
const runtimeOfBoth = ['sdk', 'indexWorker'];
const selected = Object.entries(targets).filter(([name]) => !only || only.includes(name) || (runtimeOfBoth.includes(name) && (only.includes('extension') || only.includes('cli'))));
if (watch) {
  for (const [, opts] of selected) await (await esbuild.context(opts)).watch();
  console.log('esbuild: watching', selected.map(([n]) => n).join(', '));
} else {
  await Promise.all(selected.map(([, opts]) => esbuild.build(opts)));
  if (!only || only.includes('webview')) copyCodicons();
  if (fs.existsSync(path.join(outdir, 'cli.js'))) fs.chmodSync(path.join(outdir, 'cli.js'), 0o755);
}
