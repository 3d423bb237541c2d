// How the end of the checks is told: the checks-finished event (built here only, for the loop and for a workspace not
// copied: copyLimit.ts), and the one rule and sentence of checks none of which could start — every run on the
// proposal with status 'error' (the workspace past the copy limit; a shell that could not be spawned: run.ts). Nothing
// tested the proposal then, which is not a proposal that fails: the panel (media/app/checks.ts), the CLI's transcript
// (cli/printer.ts) and the retrospective (retroText.ts) say so with notRunSaying, the computed TSR leaves such runs
// out (startedRuns; metrics/tsr.ts lastRuns). How one run ended, in words (runStatusWord), for the same surfaces
// and DevA's fix request; a fail-first run that failed otherwise than by its test cases failing (beforeFailureSaying;
// a cargo test run once per target where some did not build and the others ran, counted per target, and a CTest run
// that kept going past programs that did not build, per program: ctestPrograms.ts); test files that
// did not load (unloadedSaying).
// And checks that passed without seeing every proposed file (notCheckedSaying): they do not say "every check passes"
// then; what the formatter or a check that fixes as it runs changed in DevA's files (takenSaying). Pure: the webview
// imports it.
import { lineWithin } from '../text/cut';
import { isTrimMark } from './trimMarks';
import type { ByTarget } from './cargoTargetMatch';
import type { CTestPrograms } from './ctestPrograms';
import { summarizeChecks, type CheckEvent, type CheckRun, type CheckStatus, type ChecksOutcome, type NotWritten, type TakenChange } from './types';

/** Characters of the first run's reason the summary line keeps: its output, in the run's row, has it whole. */
const REASON_CHARS = 200;

const RUN_STATUS_WORDS: Record<CheckStatus, string> = {
  passed: 'passed',
  failed: 'failed',
  timeout: 'killed at the time limit',
  cancelled: 'stopped',
  error: 'could not start',
};

/**
 * How a run ended, in words after its command ("`npm test` could not start"), the same on every surface: the panel,
 * the CLI's transcript, the retrospective and DevA's fix request. Each adds what it tells of a failure (the exit code,
 * the failing test cases).
 */
export function runStatusWord(status: CheckStatus): string {
  return RUN_STATUS_WORDS[status];
}

/**
 * What a failure as before shares with the unchanged workspace's run (baseline.ts failsAsBefore), the same on every
 * surface that says the loop asked no fix round for it: the panel, the CLI's transcript and the retrospective.
 */
export const AS_BEFORE_BY = `the same failing test cases or problems, the same output where it names neither, or ${runStatusWord('timeout')} there too`;

/** The runs that started: one that could not (status 'error') tested nothing, and gives no verdict of the proposal. */
export function startedRuns<T extends Pick<CheckRun, 'status'>>(runs: readonly T[]): T[] {
  return runs.filter((r) => r.status !== 'error');
}

/**
 * Why no check could start, short: the first run's output (its first sentence, without the `[not run: …]` or
 * `[could not start: …]` wrapping); null when a run started, or none was made.
 */
export function notRunReason(runs: readonly CheckRun[]): string | null {
  if (!runs.length || startedRuns(runs).length) return null;
  const text = runs[0].output.trim().replace(/^\[(?:not run|could not start):\s*/, '').replace(/\]$/, '');
  const first = text.split(/(?<=[.!?])\s/)[0].replace(/[.!?]$/, '');
  return lineWithin(first, REASON_CHARS) || 'no reason given';
}

/** The sentence of checks none of which could start (notRunReason), the same on every surface; each adds what it keeps. */
export function notRunSaying(reason: string): string {
  return `No check could start (${reason}): nothing tested DevA's proposal.`;
}

/** Characters of a run's first error line a verdict quotes (firstErrorLine). */
const ERROR_LINE_CHARS = 200;

/**
 * A run's first line that reads as an error (`ERROR …`, `Error: …`, `fatal: …`, `npm ERR! …`), else its first line
 * with text, on one line within ERROR_LINE_CHARS; '' for an empty output.
 */
export function firstErrorLine(output: string): string {
  const lines = output.split('\n').filter((l) => l.trim() && !isTrimMark(l));
  return lineWithin(lines.find((l) => /\b(?:error|fatal|err!)/i.test(l)) ?? lines[0] ?? '', ERROR_LINE_CHARS);
}

/**
 * How a fail-first run that failed before it ran DevA's tests is told (CheckRun.testsNotReached), after its command,
 * the same on every surface (the CLI's transcript, the panel, the retrospective): with its first error line, and that
 * it observed nothing; one killed at the time limit, as the command is on the unchanged workspace or the proposal too
 * (notReached.ts), says that instead of an error line.
 */
export function notReachedSaying(output: string, status?: string): string {
  if (status === 'timeout') return `${runStatusWord('timeout')} before it ran DevA's tests, as on the unchanged workspace or the proposal too: no fail-first observed`;
  const line = firstErrorLine(output);
  return `failed before it ran DevA's tests${line ? ` ("${line}")` : ''}: no fail-first observed`;
}

/** A fail-first run's failing test cases: DevA's own, and those the unchanged workspace's run failed too (TestCaseResult.already). */
export function failFirstFailing(r: Pick<CheckRun, 'tests'>): { own: number; already: number } {
  const failing = (r.tests ?? []).filter((t) => !t.passed);
  const already = failing.filter((t) => t.already).length;
  return { own: failing.length - already, already };
}

/** `3 test cases`, `1 test case`: a count of test cases in words, for the transcript and the retrospective alike. */
export const caseCount = (n: number): string => `${n} test case${n === 1 ? '' : 's'}`;

/** What a fail-first run's case the unchanged workspace fails too does (TestCaseResult.already): it fails this way. */
export const WITHOUT_DEVA_TESTS = "without DevA's test files too";

/**
 * A fail-first run's failing test cases in words (failFirstFailing), for the CLI's transcript: "15 test cases failing",
 * "15 test cases failing, and 366 that fail without DevA's test files too", "only 2 test cases that fail without
 * DevA's test files too"; '' when none failed.
 */
export function failFirstFailingSaying(r: Pick<CheckRun, 'tests'>): string {
  const { own, already } = failFirstFailing(r);
  const beside = `${already === 1 ? 'fails' : 'fail'} ${WITHOUT_DEVA_TESTS}`;
  if (!already) return own ? `${caseCount(own)} failing` : '';
  return own ? `${caseCount(own)} failing, and ${already} that ${beside}` : `only ${caseCount(already)} that ${beside}`;
}

/**
 * How a fail-first run whose tests did not build or load is told (CheckRun.unbuilt): a test that calls what the change
 * adds does not build or load without it, which is its failure there.
 */
const UNBUILT_BEFORE = "failed: DevA's tests did not build or load without the change";

/**
 * The test files a run's runner reported failed before any test of theirs ran (CheckRun.unbuiltTestFiles: a syntax
 * error, a module or export they import that does not exist), in words, the same on every surface (a fail-first run's
 * line, the retrospective, DevA's fix request): `test/a.test.js, test/b.test.js did not load` — never a failing test.
 */
export function unloadedSaying(files: readonly string[]): string {
  return `${files.join(', ')} ${DID_NOT_LOAD}`;
}

/** What a test file its runner reported failed before any test of it ran did (unloadedSaying). */
export const DID_NOT_LOAD = 'did not load';

/**
 * How a fail-first `cargo test` run once per target is told when some of its targets did not build and the others ran
 * (ByTarget): "failed: 1 of 2 test targets did not build without the change (test_bump); the other ran: 2 passed, 0
 * failed" — its test cases counted. Said of the whole run, "did not build" hid that a guard beside the new-API file ran
 * (a Rust trial). A CTest run that kept going (ctestPrograms.ts) is told so by its programs: "1 of 20 test programs" —
 * or by its tests where each is a program's case (`gtest_discover_tests`): "1 of 41 CTest tests".
 */
function partlyUnbuiltSaying(t: { kind: string; total: number; unbuilt: readonly string[]; passed: number; failed: number }): string {
  const ran = t.total - t.unbuilt.length;
  return `failed: ${t.unbuilt.length} of ${t.total} ${t.kind} did not build without the change (${t.unbuilt.join(', ')}); the other${ran === 1 ? '' : 's'} ran: ${t.passed} passed, ${t.failed} failed`;
}

/**
 * How a fail-first run is told, after its command, when it failed otherwise than by DevA's test cases failing, the
 * same on every surface (the CLI's transcript, the panel, the retrospective): it failed before it ran them
 * (notReachedSaying), else they did not build or load without the change — counted per target for a run once per
 * cargo test target some of which ran, per program for a CTest run some of whose programs ran (partlyUnbuiltSaying),
 * the test files that did not load named when the run names them (unloadedSaying), with how many test cases failed
 * beside them; undefined for any other run, which each surface tells its own way (with its exit code, or the test
 * cases it reported failing).
 */
export function beforeFailureSaying(r: {
  readonly testsNotReached?: boolean;
  readonly unbuilt?: boolean;
  readonly output: string;
  readonly status?: string;
  readonly unbuiltTestFiles?: readonly string[];
  readonly tests?: readonly { readonly passed: boolean }[];
  readonly byTarget?: ByTarget;
  readonly ctestPrograms?: CTestPrograms;
}): string | undefined {
  if (r.testsNotReached) return notReachedSaying(r.output, r.status);
  if (!r.unbuilt) return undefined;
  const t = r.byTarget;
  if (t && t.unbuilt.length && t.unbuilt.length < t.targets.length) return partlyUnbuiltSaying({ kind: 'test targets', total: t.targets.length, ...t });
  const p = r.ctestPrograms;
  if (p && p.notRun.length && p.passed + p.failed > 0) return partlyUnbuiltSaying({ kind: p.cases ? 'CTest tests' : 'test programs', total: p.passed + p.failed + p.notRun.length, unbuilt: p.notRun, passed: p.passed, failed: p.failed });
  const files = r.unbuiltTestFiles ?? [];
  if (!files.length) return UNBUILT_BEFORE;
  const failing = (r.tests ?? []).filter((c) => !c.passed).length;
  return `failed: ${unloadedSaying(files)} without the change (no test of theirs ran)${failing ? `, and ${caseCount(failing)} failed` : ''}`;
}

/**
 * What the project's formatter or a check that fixes as it runs changed in DevA's files (TakenChange), the same on
 * every surface: the panel, the CLI's transcript, the retrospective and DevA's fix request.
 */
export function takenSaying(t: Pick<TakenChange, 'by' | 'files' | 'check'>): string {
  return t.check ? `\`${t.by}\` fixed ${t.files.join(', ')} as it ran` : `${t.by} laid out ${t.files.join(', ')}`;
}

/** What changed them, after takenSaying (the panel and the CLI's transcript add what the diff shows). */
export function takenBy(t: Pick<TakenChange, 'check'>): string {
  return t.check ? 'a check that fixes as it runs' : "the project's formatter, as on save";
}

/** A file the scratch copy could not take, in one line: its path and why (fix requests, fail-first, the surfaces). */
export function notWrittenLine(n: NotWritten): string {
  return `${n.path}: ${n.reason}`;
}

/**
 * What passing checks are worth when files of the proposal were not in the copy they ran on (ChecksOutcome.notWritten),
 * the same on every surface: they passed, but not on those files.
 */
export function notCheckedSaying(paths: readonly string[]): string {
  const n = paths.length;
  const which = n === 1 ? "one of DevA's proposed files was" : `${n} of DevA's proposed files were`;
  return `The checks passed, but ${which} not in the scratch copy they ran on (${paths.join(', ')}): no check tested ${n === 1 ? 'it' : 'them'}.`;
}

/** The event that ends the checks, with why none could start when none could, and the proposed files none saw. */
export function checksFinished(outcome: ChecksOutcome): Extract<CheckEvent, { type: 'checks-finished' }> {
  const notRun = notRunReason(outcome.runs);
  return {
    type: 'checks-finished',
    passed: outcome.passed,
    summary: summarizeChecks(outcome),
    fixRounds: outcome.fixRounds.length,
    ...(outcome.failsAsBefore ? { failsAsBefore: true } : {}),
    ...(outcome.fixDeclined ? { fixDeclined: true } : {}),
    ...(notRun ? { notRun } : {}),
    ...(outcome.notWritten?.length ? { notChecked: outcome.notWritten.map((n) => n.path) } : {}),
  };
}
