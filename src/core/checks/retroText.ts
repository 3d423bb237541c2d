// What the retrospective hears of the checks (checksForRetro): per command its last verdict, per fix round what
// failed and what DevA's answer did, what the formatter or a check that fixes as it runs changed in DevA's files, the
// runs on the unchanged workspace after a first failure (baseline.ts) and the fail-first runs (failFirst.ts) — results
// only (the failing test cases, a linter's first problems by file and message), never a check's output.
import { lineWithin } from '../text';
import { summarizeChecks, type CheckRun, type ChecksOutcome } from './types';
import { markedFailFirstRuns } from './notReached';
import { problemKeys } from './output';
import { failFirstLeftOut } from './failFirst';
import { AS_BEFORE_BY, beforeFailureSaying, caseCount, failFirstFailing, notCheckedSaying, notRunReason, notRunSaying, runStatusWord, takenBy, takenSaying, unloadedSaying, WITHOUT_DEVA_TESTS } from './verdict';

/** Failing test cases named per fix round line, and the characters of DevA's answer quoted when it changed nothing. */
const RETRO_FAILING_TESTS = 3;
const RETRO_ANSWER_CHARS = 240;
/** A failed linter's or compiler's problems named per run (runSaying), and the characters of each. */
const RETRO_PROBLEMS = 2;
const RETRO_PROBLEM_CHARS = 160;
/** Failing test cases the fail-first line names: there the failures are the point (they are the tests of the change). */
const FAIL_FIRST_TESTS = 8;

/** "a, b and 3 more": the first `most` items, the others counted. */
const firstOf = (items: readonly string[], most: number): string => `${items.slice(0, most).join(', ')}${items.length > most ? ` and ${items.length - most} more` : ''}`;

/**
 * "`cmd` failed (failing: "a", "b" and 3 more; test/c.test.js did not load)": a run's verdict, the first `max` test
 * cases it reported failing and the test files it reported did not load (unloadedSaying); for a failed run that names
 * no test case (a linter, a compiler), the first problems it named, by file and message (output.ts problemKeys) — a
 * Vue trial's retrospective heard only that DevA changed a file after `eslint` failed, and could not say why.
 */
function runSaying(r: CheckRun, max: number): string {
  const failed = (r.tests ?? []).filter((t) => !t.passed).map((t) => `"${lineWithin(t.name, 120)}"`);
  const problems = failed.length || r.passed ? [] : problemKeys(r.output).map((p) => `"${lineWithin(p, RETRO_PROBLEM_CHARS)}"`);
  const parts = [
    ...(failed.length ? [`failing: ${firstOf(failed, max)}`] : []),
    ...(problems.length ? [`problems: ${firstOf(problems, RETRO_PROBLEMS)}`] : []),
    ...(r.unbuiltTestFiles?.length ? [unloadedSaying(r.unbuiltTestFiles)] : []),
  ];
  return `\`${r.command}\` ${runStatusWord(r.status)}${parts.length ? ` (${parts.join('; ')})` : ''}`;
}

/**
 * A fail-first run's verdict: one that failed before it ran DevA's tests says so with its first error line; one whose
 * output shows DevA's tests did not build or load there says so; else the cases it failed, those the unchanged
 * workspace's run failed too (TestCaseResult.already: the suite's own failures, not DevA's tests) counted, not named.
 */
function beforeRunSaying(r: CheckRun): string {
  const failure = beforeFailureSaying(r);
  if (failure) return `\`${r.command}\` ${failure}`;
  const { own, already } = failFirstFailing(r);
  if (!already) return runSaying(r, FAIL_FIRST_TESTS);
  const ofDevA = runSaying({ ...r, tests: r.tests!.filter((t) => !t.already) }, FAIL_FIRST_TESTS);
  const beside = `${caseCount(already)} failing ${WITHOUT_DEVA_TESTS}`;
  return own ? `${ofDevA}, beside ${beside}` : `${ofDevA}: only the ${beside}`;
}

/**
 * The commands fail-first left out, grouped by their reason (failFirstLeftOut): " (`npm run lint`, `tsc` not run: a
 * static check runs no test; `cd api && pytest` not run: no test file of DevA's under api/)"; '' for none.
 */
function leftOutSaying(skipped: readonly string[], testFiles: readonly string[]): string {
  const byReason = new Map<string, string[]>();
  for (const c of skipped) {
    const why = failFirstLeftOut(c, testFiles) ?? 'left out';
    byReason.set(why, [...(byReason.get(why) ?? []), `\`${c}\``]);
  }
  return byReason.size ? ` (${[...byReason].map(([why, cs]) => `${cs.join(', ')} not run: ${why}`).join('; ')})` : '';
}

/**
 * The fail-first runs in one line: what ran on the unchanged code, and how each command fared there (notReached.ts);
 * null when there were none (not asked for, or the loop was stopped).
 */
function failFirstSaying(outcome: ChecksOutcome): string | null {
  const { before } = outcome;
  if (!before) return null;
  if (!before.testFiles.length) return "- Fail-first: DevA's final proposal has no test file, so nothing ran on the unchanged code.";
  const files = firstOf(before.testFiles, 4);
  const skipped = before.notWritten.length ? ` (${before.notWritten.length} could not be written)` : '';
  const leftOut = leftOutSaying(before.skipped ?? [], before.testFiles);
  return `- Fail-first, DevA's test files alone (${files})${skipped} on the unchanged code: ${markedFailFirstRuns(outcome).map(beforeRunSaying).join('; ') || 'no run'}${leftOut}. A test of the change should fail here and pass on the proposal; a regression guard passes in both.`;
}

/**
 * The check results for the retrospective: per command, passed or not, exit code and runs; per fix round, what failed
 * (the command, and the first test cases the runner reported failing, or a linter's first problems) and what DevA's answer did (the files it
 * changed, or its one line when it changed none) — never the output. A check that passes on a rerun after an answer
 * that changed no file is named as such: the failure did not come from the proposal. Then what the formatter or a
 * check that fixes as it runs changed in DevA's files (taken into the proposal), the runs on the unchanged workspace
 * (after a command's first failure), and the fail-first runs, when they happened.
 */
export function checksForRetro(outcome: ChecksOutcome): string {
  const lines = summarizeChecks(outcome).map((s) => `- \`${s.command}\`: ${runStatusWord(s.status)} (exit code ${s.exitCode ?? 'none'}, ${s.rounds} run(s))`);
  for (const fix of outcome.fixRounds) {
    const failing = outcome.runs.filter((r) => r.round === fix.round - 1 && !r.passed);
    const what = failing.map((r) => runSaying(r, RETRO_FAILING_TESTS));
    const answer = fix.files.length
      ? `DevA changed ${fix.files.map((f) => f.path).join(', ')}`
      : `DevA changed no file${fix.reply.trim() ? `: "${lineWithin(fix.reply, RETRO_ANSWER_CHARS)}"` : ''}`;
    const unusable = fix.problems.length ? ` (${fix.problems.length} block(s) could not be used)` : '';
    const after = outcome.runs.filter((r) => r.round === fix.round);
    const flaky = !fix.files.length && after.length > 0 && failing.every((f) => after.find((r) => r.command === f.command)?.passed);
    const rerun = flaky ? ' The check run after it passed with nothing changed: the failure did not come from the proposal (a flaky test or the environment).' : '';
    lines.push(`- Fix round ${fix.round}, after ${what.join('; ') || 'a failing check'}: ${answer}${unusable}.${rerun}`);
  }
  for (const t of outcome.formatted ?? []) {
    const when = t.round ? `fix round ${t.round}` : 'the first proposal';
    lines.push(`- ${takenSaying(t)} (${takenBy(t)}, ${when}): the proposal the human reviews holds ${t.check ? 'its fixes' : 'its layout'}.`);
  }
  for (const b of outcome.baseline ?? []) lines.push(`- On the unchanged workspace (nothing of DevA's applied), after its first failure: ${runSaying(b, RETRO_FAILING_TESTS)}.`);
  const failFirst = failFirstSaying(outcome);
  if (failFirst) lines.push(failFirst);
  const notRun = notRunReason(outcome.runs);
  const end = outcome.passed
    ? outcome.notWritten?.length
      ? notCheckedSaying(outcome.notWritten.map((n) => n.path))
      : 'Every check passes on the final proposal.'
    : notRun
      ? `${notRunSaying(notRun)} It is kept for the human to review.`
    : outcome.failsAsBefore
      ? `The final proposal fails only as the unchanged workspace does (${AS_BEFORE_BY}): the failure was already there, so no fix round was asked for it.`
      : outcome.fixDeclined
        ? 'The final proposal still fails a check. DevA\'s last fix round changed no file (it held the failure not its own), so it was not asked again; the proposal is kept for the human to review.'
        : 'The final proposal still fails a check; it is kept for the human to review.';
  lines.push(`Fix rounds used: ${outcome.fixRounds.length} of ${outcome.maxFixRounds}. ${end}`);
  return lines.join('\n');
}
