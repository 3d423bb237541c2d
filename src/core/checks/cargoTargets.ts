// Fail-first's runs of a `cargo test` command once per integration-test target (failFirst.ts). `cargo test` builds
// every test target before it runs any, so one of DevA's test files that needs the change (it calls a method the
// change adds) stops the whole run, and DevA's other file — a regression guard that uses the existing API — never
// runs. When every one of DevA's test files is an integration-test target of the command's crate
// (`tests/<name>.rs`, `tests/<name>/main.rs`: cargoTargetOf) and there are two or more, the command runs once per
// target with `--test <name>` (before any ` -- `), as one run (run.ts RunCheckOptions.steps). Whatever is unsure —
// another command joined to it, a target, package or workspace already chosen, a manifest declaring its own test
// targets (`[[test]]`, `autotests`), a test file elsewhere (a unit test module under src/ cannot run apart) — keeps
// the command's one run. Which target a file is, and what a run per target ran: cargoTargetMatch.ts.
import { promises as fsp } from 'fs';
import * as path from 'path';
import { parseToml, tableAt } from '../text/toml';
import { afterFolder, runFolder } from './runFolder';
import { cargoTargetOf } from './cargoTargetMatch';

/** A `cargo test` command's run once per test target: its crate, the targets' names, and the command for each, in their order. */
export interface PerTarget {
  crate: string;
  targets: string[];
  steps: string[];
}

/** Options that choose what `cargo test` builds or which packages: with them, the targets are not ours to choose. */
const CHOSEN = new Set(['--test', '--tests', '--lib', '--bin', '--bins', '--example', '--examples', '--bench', '--benches', '--all-targets', '--doc', '-p', '--package', '--workspace', '--all', '--exclude']);

/** The argument separator ` -- ` of a command, after which the words are the test binaries'. */
const SEPARATOR = /\s--(?=\s|$)/;

/**
 * The crate folder (workspace-relative, '' for the workspace) a plain `cargo test` command tests — `cargo test
 * --offline`, `cd sub && cargo test`, `cargo +stable test --manifest-path sub/Cargo.toml -- --nocapture` — or null
 * for any other command, or one that chooses its targets or packages itself (CHOSEN).
 */
function cargoTestCrate(command: string): string | null {
  const rest = afterFolder(command);
  const sep = SEPARATOR.exec(rest);
  const own = sep ? rest.slice(0, sep.index) : rest;
  if (/[;&|`<>]|\$\(/.test(own)) return null;
  const words = own.trim().split(/\s+/).filter((w) => !/^\w+=/.test(w));
  if (words[0] !== 'cargo') return null;
  const at = words[1]?.startsWith('+') ? 2 : 1;
  if (words[at] !== 'test') return null;
  let manifest = 'Cargo.toml';
  for (let i = at + 1; i < words.length; i++) {
    const [flag, value] = words[i].split('=', 2);
    if (CHOSEN.has(flag)) return null;
    if (flag === '--manifest-path') manifest = value ?? words[++i] ?? '';
  }
  const folder = path.posix.normalize(`${runFolder(command) || '.'}/${path.posix.dirname(manifest.replace(/\\/g, '/'))}`);
  if (path.posix.basename(manifest) !== 'Cargo.toml' || path.posix.isAbsolute(manifest) || folder.split('/').includes('..')) return null;
  return folder === '.' ? '' : folder;
}

/** Whether fail-first may run `command` once per test target (a plain `cargo test`: cargoTestCrate), as DevA is told. */
export function mayRunPerTarget(command: string): boolean {
  return cargoTestCrate(command) !== null;
}

/**
 * How fail-first runs `command` for DevA's `testFiles` (workspace-relative), by the header's rule: once per target
 * (PerTarget), or null for the command's one run. Pure: the crate's manifest is discoversTestTargets's.
 */
export function perTargetPlan(command: string, testFiles: readonly string[]): PerTarget | null {
  const crate = cargoTestCrate(command);
  if (crate === null) return null;
  const names = testFiles.map((f) => cargoTargetOf(f)).map((t) => (t?.crate === crate ? t.name : null));
  if (names.some((n) => n === null)) return null;
  const targets = [...new Set(names as string[])];
  if (targets.length < 2) return null;
  const sep = SEPARATOR.exec(command);
  const at = sep ? sep.index : command.trimEnd().length;
  return { crate, targets, steps: targets.map((t) => `${command.slice(0, at)} --test ${t}${command.slice(at)}`) };
}

/**
 * Whether the crate's manifest (`<workspace>/<crate>/Cargo.toml`) leaves its test targets to cargo's own discovery:
 * a package, no `[[test]]` of its own, `autotests` not turned off. False for a manifest missing or not valid TOML.
 */
async function discoversTestTargets(workspace: string, crate: string): Promise<boolean> {
  const text = await fsp.readFile(path.join(workspace, crate, 'Cargo.toml'), 'utf8').catch(() => null);
  const doc = text === null ? null : parseToml(text);
  if (!doc || !Object.keys(tableAt(doc, 'package')).length) return false;
  return doc.test === undefined && tableAt(doc, 'package').autotests !== false;
}

/** perTargetPlan, where the crate's manifest leaves its test targets to cargo (discoversTestTargets); null otherwise. */
export async function perTargetRuns(workspace: string, command: string, testFiles: readonly string[]): Promise<PerTarget | null> {
  const plan = perTargetPlan(command, testFiles);
  if (!plan || !(await discoversTestTargets(workspace, plan.crate))) return null;
  return plan;
}
