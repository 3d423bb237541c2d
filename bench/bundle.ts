// The extension's weight: bundle sizes of a production build (what `npm run package` puts in the .vsix), the
// module-load time of its dist/extension.js — what VS Code pays when it activates CAPE before activate() runs —,
// the time of activate() itself (with a stub context carrying the real package.json), and, for information, what
// the first command pays later to load dist/session.js and run the real activation.
//
// The build goes to a temp folder (`node esbuild.mjs --production --outdir DIR`), so the dev build in dist/ that
// the tests run is left alone. The load is timed as an installed extension meets it: the extension's bundles
// copied alone into an empty folder (the .vsix carries no node_modules), `vscode` answered by a
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
  { file: 'session.js', when: 'loaded by the first command, visible view or restored panel' },
  { file: 'anthropic-sdk.js', when: 'loaded on the first request (by the extension and by the CLI)' },
  { file: 'indexWorker.js', when: 'a worker thread of a large workspace index build (by the extension and by the CLI)' },
  { file: 'webview.js', when: 'loaded by the session panel' },
  { file: 'webview-style.css', when: 'loaded by the session panel' },
  { file: 'cli.js', when: 'the CLI: dispatch, help, context (not in the .vsix; without the SDK)' },
  { file: 'cli-kpt.js', when: 'the CLI: kpt, housekeeping, loaded when one runs (not in the .vsix)' },
  { file: 'cli-session.js', when: 'the CLI: init, start, resume, repeat, loaded when one runs (not in the .vsix)' },
];

/**
 * A `vscode` stand-in: every export of the real API (its names read from @types/vscode) and every property below
 * it is a callable, constructible stub, so the extension's code runs through. The names are listed because an ES
 * module import of a CommonJS module (esbuild's __toESM) copies the module's own properties only.
 */
function vscodeStub(): string {
  const dts = fs.readFileSync(require.resolve('@types/vscode/index.d.ts'), 'utf8');
  const names = [...new Set([...dts.matchAll(/^\s{1,4}export (?:namespace|class|enum|const|function|let) ([A-Za-z_]\w*)/gm)].map((m) => m[1]))];
  return `'use strict';
function stub() {
  const f = function () { return stub(); };
  return new Proxy(f, {
    get: (_t, key) => (key === 'then' ? undefined : key === Symbol.toPrimitive ? () => '' : key === Symbol.iterator ? [][Symbol.iterator] : stub()),
    set: () => true,
    construct: () => stub(),
  });
}
for (const name of ${JSON.stringify(names)}) exports[name] = stub();
exports.version = '1.0.0-stub';
`;
}

/**
 * One measured activation, in a fresh process: argv[1] = the extension bundle, argv[2] = the vscode stub,
 * argv[3] = package.json. Times the module load, then activate() with a stub context carrying the manifest, then
 * the first use (reading the exports' services loads dist/session.js and runs the real activation, as the first
 * command does). Which bundles the require cache holds is recorded after each phase.
 */
const PROBE = `
const Module = require('module');
const fs = require('fs');
const [bundle, stub, manifest] = process.argv.slice(1);
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) { return request === 'vscode' ? stub : resolve.call(this, request, ...rest); };
const loaded = () => Object.keys(require.cache).map((k) => require('path').basename(k)).filter((f) => f === 'session.js' || f === 'anthropic-sdk.js').sort();
function timed(fn) {
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  let value, error;
  try { value = fn(); } catch (e) { error = String(e && e.message || e); }
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  return { value, error, wallMs, cpuMs: (cpu.user + cpu.system) / 1000, loaded: loaded() };
}
const vscode = require(stub); // the host's API object exists before the extension loads: not the extension's cost
const load = timed(() => require(bundle));
const ext = load.value;
const own = { subscriptions: [], extension: { packageJSON: JSON.parse(fs.readFileSync(manifest, 'utf8')) }, extensionPath: require('path').dirname(bundle) };
const anyStub = vscode.window; // any stub answers every property with another stub
const context = new Proxy(own, { get: (t, k) => (k in t ? t[k] : anyStub[k]) });
const activate = timed(() => ext.activate(context));
const firstUse = timed(() => activate.value.services);
const phase = (p) => ({ wallMs: p.wallMs, cpuMs: p.cpuMs, loaded: p.loaded, error: p.error });
process.stdout.write(JSON.stringify({ load: phase(load), activate: phase(activate), firstUse: phase(firstUse), activateType: typeof (ext && ext.activate) }));
`;

export interface BundleSize {
  file: string;
  bytes: number;
  when: string;
}

/** One phase of one run: its times and the lazily loaded bundles (session.js, anthropic-sdk.js) loaded by then. */
export interface Phase {
  wallMs: number;
  cpuMs: number;
  loaded: string[];
  error?: string;
}

export interface LoadRun {
  /** require('dist/extension.js') */
  load: Phase;
  /** activate(context) */
  activate: Phase;
  /** the first use of the API: loads dist/session.js and runs the real activation (with the stub vscode) */
  firstUse: Phase;
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
    for (const f of ['extension.js', 'session.js', 'anthropic-sdk.js']) fs.copyFileSync(path.join(out, f), path.join(installed, f));
    const stub = path.join(dir, 'vscode-stub.js');
    fs.writeFileSync(stub, vscodeStub());
    const loads: LoadRun[] = [];
    for (let i = 0; i < runs; i++) {
      const r = spawnSync(process.execPath, ['-e', PROBE, path.join(installed, 'extension.js'), stub, path.join(root, 'package.json')], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`loading the production extension.js failed (exit ${r.status}): ${r.stderr}`);
      const run = JSON.parse(r.stdout) as LoadRun & { activateType: string };
      if (run.load.error) throw new Error(`loading the production extension.js failed: ${run.load.error}`);
      if (run.activateType !== 'function') throw new Error(`the production extension.js exports no activate() (got ${run.activateType})`);
      if (run.activate.error) throw new Error(`activate() of the production extension.js failed with a stub context: ${run.activate.error}`);
      loads.push({ load: run.load, activate: run.activate, firstUse: run.firstUse });
    }
    return { sizes, loads };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Prints the figures; false when the bundle-size target is missed or activation loads a lazy bundle (load times are
 * printed, never failing: noisy).
 */
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
  const figure = (what: string, phases: Phase[], target?: number): void => {
    const wall = median(phases.map((p) => p.wallMs));
    const cpu = median(phases.map((p) => p.cpuMs));
    const minWall = Math.min(...phases.map((p) => p.wallMs));
    // judged on the wall median, the figure (printed, never failing the bench: timings are noisy)
    const judged = target === undefined ? '' : `; target <= ${target} ms${wall <= target ? ', met' : ', MISSED'}`;
    console.log(`  ${what.padEnd(34)} median ${wall.toFixed(1).padStart(6)} ms wall (min ${minWall.toFixed(1)}), ${cpu.toFixed(1).padStart(6)} ms CPU${judged}`);
  };
  const loadedBy = (phases: Phase[]): string => [...new Set(phases.flatMap((p) => p.loaded))].join(', ') || 'nothing lazy';
  console.log(`activation of the production extension (stub vscode, fresh process, ${loads.length} runs):`);
  figure('module load of dist/extension.js', loads.map((l) => l.load), LOAD_TARGET_MS);
  figure('activate() (stub context)', loads.map((l) => l.activate));
  const firstUseError = loads.find((l) => l.firstUse.error)?.firstUse.error;
  if (firstUseError) console.log(`  first use (loads dist/session.js): failed with the stub vscode: ${firstUseError}`);
  else figure('first use (loads dist/session.js)', loads.map((l) => l.firstUse));
  const atActivation = loadedBy(loads.flatMap((l) => [l.load, l.activate]));
  console.log(`  loaded by module load + activate(): ${atActivation}; by the first use: ${loadedBy(loads.map((l) => l.firstUse))}`);
  // Activation must load neither bundle: a figure that says so is a result, not a timing.
  if (atActivation !== 'nothing lazy') ok = false;
  return ok;
}

if (require.main === module) {
  if (!benchBundles(Number(process.env.CAPE_BENCH_LOAD_RUNS) || 15)) process.exitCode = 1;
}
