// Which runs of a check loop the verdicts are read from (TSR and fail-first: ./tsr.ts, for the session's end and the
// retrospective's request alike): the last run of each command on the proposal (lastRuns), and the fail-first runs
// (failFirstRuns), each only if it started (checks/verdict.ts startedRuns) and with what checks/notReached.ts tells
// of a run that failed before it reached its tests.
import type { CheckRun, ChecksOutcome } from '../checks/types';
import { startedRuns } from '../checks/verdict';
import { markedFailFirstRuns, markedNotReached, proposalNotReached } from '../checks/notReached';
import { failsAsBefore } from '../checks/baseline';

/**
 * The last run of each command of a check loop, if it started (one that could not tested nothing): the verdict TSR
 * is computed from, each marked when it ran no test where the unchanged workspace's run ran none either
 * (CheckRun.testsNotReached: its criteria were not run); null when none started, as when no check ran.
 */
export function lastRuns(outcome: ChecksOutcome): CheckRun[] | null {
  const last = outcome.commands.flatMap((command) => {
    const runs = outcome.runs.filter((r) => r.command === command);
    return runs.length ? [runs[runs.length - 1]] : [];
  });
  const base = (r: CheckRun) => outcome.baseline?.find((b) => b.command === r.command);
  const started = startedRuns(last).map((r) => {
    const marked = markedNotReached(r, proposalNotReached(r, base(r)));
    return !marked.passed && !marked.testsNotReached && failsAsBefore(marked, base(r)) ? { ...marked, failedAsBefore: true as const } : marked;
  });
  return started.length ? started : null;
}

/**
 * The fail-first runs that started, each marked when it failed before it ran DevA's tests (checks/notReached.ts
 * markedFailFirstRuns, a run recorded before runs were marked too); null when none ran.
 */
export function failFirstRuns(outcome: ChecksOutcome): CheckRun[] | null {
  const runs = startedRuns(markedFailFirstRuns(outcome));
  return runs.length ? runs : null;
}
