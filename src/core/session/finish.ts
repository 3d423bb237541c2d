// How a run ends without a failure: complete (finishSession: the retrospective's KPT merged into kpt_merged.md, the
// metrics computed from the record, never by the model, the roles' open questions gathered with the answers later
// roles gave them, the retrospective file written, the state marked complete)
// or paused for the Cape Master's blocking questions (paused: state `needs_answers`, resumable with the answers).
import { computeMetrics } from '../metrics/metrics';
import { historyFromRetrospectives } from '../metrics/history';
import { computeTsr, failFirstRuns, lastRuns, proposedOrInWorkspace } from '../metrics/tsr';
import { unreadableJudgements } from '../metrics/judgements';
import type { KptLists, SessionEvent } from '../model/types';
import type { SessionState } from '../store';
import type { SessionResult, StepOutcome } from './options';
import type { SessionRun } from './step';
import { collectOpenQuestions } from './openQuestions';

/** The retrospective's artifacts once every step is completed; returns the session's result. */
export async function finishSession(run: SessionRun, costUsd: number | null): Promise<SessionResult> {
  const { opts, store, state, record, emit, warn, now } = run;
  const { envelopes, checks, devaFiles } = record;
  const taskId = state.taskId;
  const repeatOf = opts.repeatOf;
  const retro = envelopes.cm_retro!;
  const kpt: KptLists = retro.kpt ?? { keep: [], problem: [], try: [] };
  if (!kpt.keep.length && !kpt.problem.length && !kpt.try.length) {
    warn(`The Cape Master's retrospective has no KPT items (keep, problem, try are all empty): nothing was added to ${store.relative(store.kptPath)}.`);
  }
  const unreadable = unreadableJudgements(retro.criteria);
  if (unreadable) warn(unreadable);
  if (!repeatOf) await store.mergeKpt(taskId, kpt, new Date(now()), { onWarning: warn });
  // The session's own earlier retrospective (a rerun from a step, a finish redone after a crash) is not another point.
  const history = await historyFromRetrospectives(store.retrospectiveDir, { excludeTaskId: taskId });
  const metricsAt = now();
  const metrics = computeMetrics({
    envelopes,
    usage: record.usage,
    startedAt: state.createdAt,
    retroSavedAt: metricsAt,
    contextChars: record.contextChars,
    history,
    tsr: computeTsr({
      poaOutput: envelopes.poa?.output,
      devaOutput: envelopes.deva?.output,
      judgements: retro.criteria,
      checks: checks ? lastRuns(checks) : null,
      before: checks ? failFirstRuns(checks) : null,
      fileExists: proposedOrInWorkspace(opts.workspace, devaFiles),
    }),
  });
  const openQuestions = collectOpenQuestions(envelopes);
  const retrospectivePath = await store.saveRetrospective(taskId, state.objective, envelopes, metrics, devaFiles, new Date(metricsAt), { questions: openQuestions, ...(repeatOf ? { repeatOf } : {}) });
  state.status = 'complete';
  await store.saveSessionState(state);
  // a reply kept for a step that has its record (a crash between the two) has nothing left to serve
  await store.removePendingReplies(taskId).catch((e) => warn(`A kept reply of this session could not be removed from ${store.relative(store.pendingDir)}: ${(e as Error).message}`));
  emit({ type: 'session-finished', taskId, retrospectivePath, kpt, metrics, files: devaFiles, openQuestions });
  return {
    taskId,
    ok: true,
    resumable: false,
    costUsd,
    steps: record.steps,
    files: devaFiles,
    kpt,
    metrics,
    retrospectivePath,
    openQuestions,
    ...(checks ? { checks } : {}),
    ...(record.feedback.length ? { feedback: record.feedback } : {}),
  };
}

/** The result of a session paused for the CM's blocking questions (also when a resume finds them unanswered). */
export function paused(state: SessionState, questions: string[], costUsd: number | null, emit: (e: SessionEvent) => void, steps: StepOutcome[] = []): SessionResult {
  emit({ type: 'needs-answers', step: 'cm_open', taskId: state.taskId, questions });
  return { taskId: state.taskId, ok: false, resumable: true, needsAnswers: questions, costUsd, steps, files: [], kpt: null, metrics: null, retrospectivePath: null };
}
