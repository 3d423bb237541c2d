// Which cargo integration-test target a workspace file is, and a run's result: a target is known by its crate's
// folder and its name (CargoTarget), so two members of a cargo workspace that each have a `tests/api.rs`, or a module
// under src/ named like a target, are not one (cargoTargetOf, sameCargoTarget). And what a run once per target ran
// (ByTarget: fail-first, cargoTargets.ts), so another file's tests are none of its, and what it observed: which of its
// targets did not build, how the others' test cases fared. Pure: the webview imports it.
import type { CheckRun } from './types';

/**
 * A cargo integration-test target: its name and its crate's folder, workspace-relative ('' for the workspace's own
 * crate). `crate` is absent where a run's output did not say where the package is (buildFailures.ts: `cargo test -q`
 * writes no `Compiling` line); such a target is matched by its name alone.
 */
export interface CargoTarget {
  crate?: string;
  name: string;
}

/**
 * What a run once per target ran (CheckRun.byTarget): its crate, its targets' names, those of them cargo could not
 * compile, and the test cases the others reported passed and failed. Another file's tests are none of its: it ran
 * these targets alone.
 */
export interface ByTarget {
  crate: string;
  targets: string[];
  unbuilt: string[];
  passed: number;
  failed: number;
}

/** An integration-test target's file at the end of a workspace path: `<crate>/tests/<name>.rs`, `<crate>/tests/<name>/main.rs`. */
const TARGET_FILE = /^(?:(.*)\/)?tests\/([\w-]+)(?:\.rs|\/main\.rs)$/;

/**
 * The integration-test target a workspace file is — `core/tests/a.rs` is `a` of the crate in `core`, `tests/a/main.rs`
 * `a` of the workspace's own — or null (`tests/util/mod.rs`, a module under src/).
 */
export function cargoTargetOf(file: string): Required<CargoTarget> | null {
  const m = TARGET_FILE.exec(file.replace(/^\.\//, ''));
  return m ? { crate: m[1] ?? '', name: m[2] } : null;
}

/** Whether a target a run named (its crate unknown: by its name alone) is `target`, of the same crate. */
export function sameCargoTarget(named: CargoTarget, target: Required<CargoTarget>): boolean {
  return named.name === target.name && (named.crate === undefined || named.crate === target.crate);
}

/**
 * A run of a crate's targets once each, read per target: which of them cargo could not compile (sameCargoTarget), and
 * how the test cases fared that the others reported (those that did not compile report none).
 */
export function byTargetOf(plan: { crate: string; targets: string[] }, run: Pick<CheckRun, 'unbuiltCargoTests' | 'tests'>): ByTarget {
  const unbuilt = plan.targets.filter((name) => run.unbuiltCargoTests?.some((u) => sameCargoTarget(u, { crate: plan.crate, name })));
  const passed = (run.tests ?? []).filter((t) => t.passed).length;
  return { crate: plan.crate, targets: plan.targets, unbuilt, passed, failed: (run.tests?.length ?? 0) - passed };
}

/** Whether a run per target (ByTarget) ran the workspace file `file`: it is one of its targets, of its crate. */
export function ranTargetFile(run: ByTarget, file: string): boolean {
  const target = cargoTargetOf(file);
  return !!target && target.crate === run.crate && run.targets.includes(target.name);
}
