// The extension's weight: bundle sizes of a production build (what `npm run package` puts in the .vsix) and the
// module-load time of its dist/extension.js — what VS Code pays when it activates CAPE before activate() runs.
//
// The build goes to a temp folder (`node esbuild.mjs --production --outdir DIR`), so the dev build in dist/ that
// the tests run is left alone. The load is timed as an installed extension meets it: extension.js and
// anthropic-sdk.js copied alone into an empty folder (the .vsix carries no node_modules), `vscode` answered by a
// stub module, each run in a fresh Node process (a second require would hit the module cache). Wall time is what
// the figure measures; CPU time is printed next to it because on a shared machine wall time mostly measures
// the other processes. Run directly: `node out/bench/bundle.js`.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { repoRoot } from '../test/helpers/fixtures';

/** dist/extension.js after a production build, at most (issue 11 §3). */
export const EXTENSION_BUNDLE_TARGET_KIB = 700;
/** Module-load time of the production dist/extension.js with a stub vscode, at most. */
export const LOAD_TARGET_MS = 20;

/** The files of a production dist/, in the order printed, and when each is loaded. */
const BUNDLES: { file: string; when: string }[] = [
  { file: 'extension.js', when: 'loaded at activation' },
  { file: 'anthropic-sdk.js', when: 'loaded on the first request' },
  { file: 'webview.js', when: 'loaded by the session panel' },
  { file: 'webview-style.css', when: 'loaded by the session panel' },
  { file: 'cli.js', when: 'the CLI (not in the .vsix)' },
];

/** A `vscode` stand-in: every property is a callable, constructible stub, so module-level code runs through. */
const VSCODE_STUB = `'use strict';
function stub() {
  const f = function () { return stub(); };
  return new Proxy(f, {
    get: (_t, key) => (key === 'then' ? undefined : key === Symbol.toPrimitive ? () => '' : stub()),
    construct: () => stub(),
  });
}
module.exports = stub();
`;

/** One measured load, in a fresh process: argv[1] = the extension bundle, argv[2] = the vscode stub. */
const PROBE = `
const Module = require('module');
const [bundle, stub] = process.argv.slice(1);
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) { return request === 'vscode' ? stub : resolve.call(this, request, ...rest); };
const cpu0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
const ext = require(bundle);
const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
const cpu = process.cpuUsage(cpu0);
const sdkLoaded = Object.keys(require.cache).some((k) => k.endsWith('anthropic-sdk.js'));
process.stdout.write(JSON.stringify({ wallMs, cpuMs: (cpu.user + cpu.system) / 1000, sdkLoaded, activate: typeof ext.activate }));
`;

export interface BundleSize {
  file: string;
  bytes: number;
  when: string;
}

export interface LoadRun {
  wallMs: number;
  cpuMs: number;
  sdkLoaded: boolean;
}

export interface BundleBench {
  sizes: BundleSize[];
  loads: LoadRun[];
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Builds for production into a temp folder, then measures the sizes and `runs` loads of extension.js. */
export function measureBundles(runs = 15): BundleBench {
  const root = repoRoot();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-bench-bundle-'));
  try {
    const out = path.join(dir, 'dist');
    const build = spawnSync(process.execPath, ['esbuild.mjs', '--production', '--outdir', out], { cwd: root, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`production build failed (exit ${build.status}): ${build.stderr || build.stdout}`);
    const sizes = BUNDLES.filter((b) => fs.existsSync(path.join(out, b.file))).map((b) => ({ ...b, bytes: fs.statSync(path.join(out, b.file)).size }));

    const installed = path.join(dir, 'installed');
    fs.mkdirSync(installed);
    for (const f of ['extension.js', 'anthropic-sdk.js']) fs.copyFileSync(path.join(out, f), path.join(installed, f));
    const stub = path.join(dir, 'vscode-stub.js');
    fs.writeFileSync(stub, VSCODE_STUB);
    const loads: LoadRun[] = [];
    for (let i = 0; i < runs; i++) {
      const r = spawnSync(process.execPath, ['-e', PROBE, path.join(installed, 'extension.js'), stub], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`loading the production extension.js failed (exit ${r.status}): ${r.stderr}`);
      const run = JSON.parse(r.stdout) as LoadRun & { activate: string };
      if (run.activate !== 'function') throw new Error(`the production extension.js exports no activate() (got ${run.activate})`);
      loads.push({ wallMs: run.wallMs, cpuMs: run.cpuMs, sdkLoaded: run.sdkLoaded });
    }
    return { sizes, loads };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Prints the figures; false when the bundle-size target is missed (load times are printed, never judged: noisy). */
export function benchBundles(runs = 15): boolean {
  const { sizes, loads } = measureBundles(runs);
  console.log('\nbundles (production build, as `npm run package` makes it):');
  let ok = true;
  for (const s of sizes) {
    const kib = s.bytes / 1024;
    const target = s.file === 'extension.js' ? ` (target <= ${EXTENSION_BUNDLE_TARGET_KIB} KiB${kib <= EXTENSION_BUNDLE_TARGET_KIB ? ', met' : ', MISSED'})` : '';
    if (s.file === 'extension.js' && kib > EXTENSION_BUNDLE_TARGET_KIB) ok = false;
    console.log(`  dist/${s.file.padEnd(18)} ${kib.toFixed(0).padStart(5)} KiB  ${s.when}${target}`);
  }
  const wall = median(loads.map((l) => l.wallMs));
  const cpu = median(loads.map((l) => l.cpuMs));
  const minWall = Math.min(...loads.map((l) => l.wallMs));
  const sdk = loads.some((l) => l.sdkLoaded);
  console.log(
    `module load of dist/extension.js (stub vscode, fresh process, ${loads.length} runs): median ${wall.toFixed(1)} ms wall ` +
      `(min ${minWall.toFixed(1)}), ${cpu.toFixed(1)} ms CPU; target <= ${LOAD_TARGET_MS} ms; SDK bundle loaded: ${sdk ? 'YES' : 'no'}`,
  );
  if (sdk) ok = false;
  return ok;
}

if (require.main === module) {
  if (!benchBundles(Number(process.env.CAPE_BENCH_LOAD_RUNS) || 15)) process.exitCode = 1;
}
