// Runs that failed before they reached the tests they were to show — a test command that stops at once in this
// environment (a package manager refusing to start, a tool missing), or never returns here (a watcher, a server: killed
// at the time limit) — told from runs whose tests failed, so that no
// such failure is read as a verdict on a test: a fail-first run (failFirst.ts) that ran none of DevA's tests observes
// nothing (failFirstNotReached); a run on the proposal that ran no test, where the unchanged workspace's run ran none
// either, tested nothing (proposalNotReached: the runs TSR reads, metrics/checkRuns.ts lastRuns). A run that ran no
// test only with DevA's proposal is the proposal's failure, and stays one; so is a time-out only with it, or a quick
// failure of its own where the unchanged workspace's run was killed at the time limit.
import type { CheckRun, ChecksOutcome } from './types';
import { testsRan } from './testSummary';
import { failsAsBefore } from './baseline';
import { namesTestFile } from './testNames';

/**
 * A failed run that recognised no test case, wrote no test runner's summary and printed why it failed: it ran no
 * test. A silent one is not told so: a bare assertion script (`node -e "process.exit(ok ? 0 : 1)"`) is a test that
 * failed, and prints nothing either. A run killed at the time limit says why (run.ts writes it).
 */
function ranNoTest(run: CheckRun): boolean {
  return (run.status === 'failed' || run.status === 'timeout') && !testsRan(run) && run.output.trim() !== '';
}

/** The runs a fail-first run is read beside: the command's run on the unchanged workspace, and its last on the proposal. */
export interface FailFirstReference {
  /** Taken when the command first failed on the proposal (baseline.ts); absent when it never failed. */
  base?: CheckRun;
  /** The command's last run on DevA's proposal. */
  last?: CheckRun;
}

/**
 * Whether a fail-first run failed before it ran DevA's tests: it recognised no test case, its output names none of
 * DevA's test files (`testFiles`: a test file that does not build or load without the change is named, and that is
 * its failure there), and it failed as the unchanged workspace's run did (DevA's test files changed nothing of what
 * it printed), or ran no test at all while the command ran none on the proposal either. A command that ran on the
 * proposal (passed, or reached its tests) works here: a silent failure without the change is the change's absence
 * (an assertion script that prints nothing), which fail-first observes; so is a run killed at the time limit only
 * here (DevA's tests hang without the change). One killed there too, or on the proposal, observed nothing.
 */
export function failFirstNotReached(run: CheckRun, testFiles: readonly string[], ref: FailFirstReference): boolean {
  if ((run.status !== 'failed' && run.status !== 'timeout') || run.tests?.length || testFiles.some((f) => namesTestFile(run.output, f))) return false;
  return failsAsBefore(run, ref.base) || (ranNoTest(run) && !!ref.last && ranNoTest(ref.last));
}

/**
 * Whether a failed run on the proposal never reached a test, and not by the proposal's doing: it ran no test (no test
 * case, no runner's summary), and the command's run on the unchanged workspace (`base`) failed having run none either;
 * where one of them was killed at the time limit, both were, and the proposal's named nothing new (baseline.ts
 * failsAsBefore).
 */
export function proposalNotReached(run: CheckRun, base: CheckRun | undefined): boolean {
  if (!base || !ranNoTest(run) || !ranNoTest(base)) return false;
  return run.status === 'timeout' || base.status === 'timeout' ? failsAsBefore(run, base) : true;
}

/** A command's reference runs (FailFirstReference) among a loop's runs on the proposal and on the unchanged workspace. */
export function referenceOf(command: string, runs: { proposal: readonly CheckRun[]; unchanged?: readonly CheckRun[] } | undefined): FailFirstReference {
  return { base: runs?.unchanged?.find((r) => r.command === command), last: runs?.proposal.filter((r) => r.command === command).at(-1) };
}

/** `run`, marked when it did not reach its tests (CheckRun.testsNotReached). */
export function markedNotReached(run: CheckRun, notReached: boolean): CheckRun {
  return notReached ? { ...run, testsNotReached: true } : run;
}

/**
 * A loop's fail-first runs, each marked when it failed before it ran DevA's tests: the mark it was recorded with, or —
 * a run recorded before runs were marked — the same rule, beside the loop's runs (for TSR and the retrospective alike).
 */
export function markedFailFirstRuns(outcome: ChecksOutcome): CheckRun[] {
  const before = outcome.before;
  const loop = { proposal: outcome.runs, unchanged: outcome.baseline };
  return (before?.runs ?? []).map((r) => markedNotReached(r, !!r.testsNotReached || failFirstNotReached(r, before!.testFiles, referenceOf(r.command, loop))));
}
