// The session runner: CM opening → POA → DA → DevA → CM retrospective, as typed events. This file owns the
// session's course: the setup checks, a new or resumed state (./prepare.ts, ./dorQuestions.ts), the order of the
// steps, the pause for the CM's blocking questions, Stop between steps, and the failure recorded so resume can
// continue. What a step does is ./step.ts's; what a run loads is ./inputs.ts's and ./record.ts's, its spend
// ./cost.ts's, its end ./finish.ts's.
//
// Guarantees:
//  - each step's artifact is written (atomically) before the next step starts, so nothing completed is lost;
//  - a session that failed can be resumed from its last completed step (resume: true);
//  - the engine never writes a workspace file: DevA's files are only *proposed* (apply is the caller's decision);
//  - metrics are computed here from envelopes and timings, never by the model.

import * as fs from 'fs';
import * as path from 'path';
import type { CostTracker } from '../llm/costCap';
import { capeFolderRefusal, DEFAULT_CAPE_FOLDER, STEP_IDS, ZERO_USAGE, type SessionEvent, type StepId, type Usage } from '../model/types';
import { SessionStore, type SessionState } from '../store';
import { sessionSpend } from './cost';
import { prepareAnswers, questionsToPause } from './dorQuestions';
import { asFailure, StepFailure } from './failure';
import { finishSession, paused } from './finish';
import { loadSharedInputs, WorkspaceSection } from './inputs';
import type { SessionOptions, SessionResult } from './options';
import { createSession, loadSessionToResume } from './prepare';
import { emptyRecord, reloadCompletedSteps } from './record';
import { runStep, type SessionRun } from './step';

export { DEFAULT_MAX_TOKENS, type SessionOptions, type SessionResult, type StepOutcome } from './options';
export { capeWarnings } from './inputs';
/** Thrown (and reported as an error event) when a step cannot produce a valid envelope. */
export { StepFailure } from './failure';

/** Runs (or resumes) a session. Never throws for model/config failures: they come back in the result + events. */
export async function runSession(opts: SessionOptions): Promise<SessionResult> {
  const emit = (e: SessionEvent) => {
    try {
      opts.onEvent?.(e);
    } catch {
      /* a listener's bug must not break the session */
    }
  };
  const now = opts.now ?? Date.now;
  const capeFolder = opts.capeFolder ?? DEFAULT_CAPE_FOLDER;
  const capeDir = path.join(opts.workspace, capeFolder);
  // made first thing in the try below: a folder name it refuses is a result like every other configuration problem
  let store!: SessionStore;
  const record = emptyRecord();
  let state: SessionState | null = null;
  /** True once this run has written the session's state: only then may a failure be recorded in it. */
  let stateSaved = false;
  let currentStep: StepId | null = null;
  let run: SessionRun | null = null;
  /** A resumed, answered opening: the usage of the first opening (the one that asked), added to the second's. */
  let openingCarry: Usage | null = null;
  let cost: CostTracker | null = null;
  /** Releases the session's run lock (store.lockSession) once this run ends, however it ends. */
  const held: { release?: () => Promise<void> } = {};
  const warn = (message: string) => {
    try {
      opts.onWarning?.(message);
    } catch {
      /* a listener's bug must not break the session */
    }
  };

  try {
    const refused = capeFolderRefusal(capeFolder);
    if (refused) throw new StepFailure(null, 'config', refused);
    store = new SessionStore(opts.workspace, capeFolder);
    if (!fs.existsSync(capeDir)) {
      throw new StepFailure(
        null,
        'config',
        `No ${capeFolder}/ folder in ${opts.workspace}. Create it first: run \`cape init --workspace ${opts.workspace}\` (CLI) or "CAPE: Initialize Project" (VS Code).`,
      );
    }
    const outside = store.locationProblem();
    if (outside) throw new StepFailure(null, 'config', outside);

    // --- session state: new or resumed ---------------------------------------------------------------------------
    // One run of a session at a time: a task id named (a resume, an explicit id) is locked before its state is read;
    // a new id made here is locked once made (no other process can know it before).
    const lock = async (taskId: string) => {
      held.release = await store.lockSession(
        taskId,
        (holder, lockPath) =>
          new StepFailure(
            null,
            'config',
            `Session ${taskId} is already running (${holder}): a second run would write the same step records. Wait for that run to ` +
              `finish, or stop it there, then resume if it did not complete. If no CAPE session is running, delete ${path.relative(opts.workspace, lockPath)} and try again.`,
            undefined,
            false,
          ),
        warn,
      );
    };
    if (opts.taskId) await lock(opts.taskId);
    // What a killed process left (hidden temporary files of interrupted writes) goes first.
    const leftovers = await store.removeLeftovers().catch(() => [] as string[]);
    if (leftovers.length) warn(`Removed ${leftovers.length} leftover temporary file(s) of an interrupted write: ${leftovers.join(', ')}.`);
    if (opts.resume) {
      const loaded = await loadSessionToResume(store, opts.taskId, opts.fromStep);
      state = loaded.state;
      // Blocking questions of the CM opening (session/dorQuestions.ts): still unanswered → nothing runs.
      const wasWaiting = state.status === 'needs_answers';
      const waiting = prepareAnswers(state, { answers: opts.answers, skipQuestions: opts.skipQuestions, fromStep: opts.fromStep });
      if (waiting) return paused(state, waiting, state.costUsd ?? null, emit);
      // Answered (prepareAnswers took the opening out of the completed steps): the opening runs again, and its step
      // usage counts the first opening's request too.
      if (wasWaiting && !state.completedSteps.includes('cm_open')) {
        openingCarry = (await store.loadStep(state.taskId, 'cm_open').catch(() => null))?.usage ?? null;
      }
      for (const s of loaded.adopted) {
        warn(`Step ${s} was saved before the previous run stopped (${state.stepFiles[s]}); it is taken as completed and not run again.`);
      }
      state.status = 'running';
      state.error = undefined;
      await store.saveSessionState(state);
    } else {
      state = await createSession(store, {
        objective: opts.objective ?? '',
        language: opts.language ?? 'English',
        model: opts.model,
        taskId: opts.taskId,
        now,
      });
    }
    stateSaved = true;
    const taskId = state.taskId;
    if (!held.release) await lock(taskId);

    const remaining = STEP_IDS.filter((s) => !state!.completedSteps.includes(s));
    emit({ type: 'session-started', taskId, objective: state.objective, language: state.language, steps: remaining, resumed: !!opts.resume });

    // --- what the steps draw from: cape/ files and KPT, the completed steps (resume), the spend -----------------
    const shared = await loadSharedInputs({ workspace: opts.workspace, capeFolder, store, prompts: opts.prompts, repeatOf: opts.repeatOf, warn });
    await reloadCompletedSteps(record, store, state, { workspace: opts.workspace, capeFolder });
    const spend = sessionSpend({ llm: opts.llm, model: opts.model, maxCostUsd: opts.maxCostUsd, state, usage: record.usage, currentStep: () => currentStep, emit, warn, save: (s) => store.saveSessionState(s) });
    cost = spend.cost;
    run = {
      opts,
      capeFolder,
      store,
      state,
      llm: spend.llm,
      record,
      shared,
      workspace: new WorkspaceSection({
        workspace: opts.workspace,
        capeFolder,
        index: opts.workspaceIndex,
        devaBudget: opts.workspaceBudget,
        onWarning: opts.onWarning,
      }),
      openingCarry,
      emit,
      warn,
      now,
    };

    // --- the steps -------------------------------------------------------------------------------------------------
    // Blocking questions: the session pauses after the opening (saved, resumable) until the user answers or skips them.
    const pauseAfter = (step: StepId) =>
      step === 'cm_open' && opts.pauseForQuestions !== false && record.envelopes.cm_open ? questionsToPause(state!, record.envelopes.cm_open) : null;
    const pause = async (questions: string[]) => {
      state!.status = 'needs_answers';
      state!.dor = { questions };
      await store.saveSessionState(state!);
      return paused(state!, questions, cost!.spentUsd, emit, record.steps);
    };
    // A resume after the process died between saving an opening that asked questions and saving the pause asks them
    // now, before POA starts (a rerun from a step is a decision to go on, as prepareAnswers says).
    const unasked = opts.resume && !opts.fromStep && remaining[0] === 'poa' ? pauseAfter('cm_open') : null;
    if (unasked) return await pause(unasked);
    for (const step of remaining) {
      currentStep = step;
      if (opts.signal?.aborted) throw new StepFailure(step, 'cancelled', 'Session cancelled.');
      run.current = null;
      await runStep(run, step);
      const questions = pauseAfter(step);
      if (questions) return await pause(questions);
    }
    currentStep = null;
    return await finishSession(run, cost.spentUsd);
  } catch (err) {
    const failure = asFailure(err, currentStep);
    emit({ type: 'error', step: failure.step, kind: failure.kind, message: failure.message, raw: failure.raw });
    // what the failed step's requests used (tool turns, retries, a request that broke off): the spend counts it too
    const used = currentStep ? run?.current : null;
    if (currentStep) record.steps.push({ step: currentStep, ok: false, usage: used ? { ...used.usage } : { ...ZERO_USAGE }, model: used?.model ?? opts.model });
    // Resume can continue exactly when this run recorded the failure in a state it wrote itself (never a state it
    // could not read, a completed one, or one of another session) and the failure is not one resume repeats.
    let resumable = false;
    if (state && stateSaved) {
      state.status = 'failed';
      state.error = { step: failure.step, kind: failure.kind, message: failure.message };
      try {
        await store.saveSessionState(state);
        resumable = failure.resumable;
      } catch {
        /* keep the original error */
      }
    }
    return {
      taskId: state?.taskId ?? opts.taskId ?? '',
      ok: false,
      resumable,
      costUsd: cost ? cost.spentUsd : (state?.costUsd ?? null),
      steps: record.steps,
      files: [],
      kpt: null,
      metrics: null,
      retrospectivePath: null,
      error: { step: failure.step, kind: failure.kind, message: failure.message },
    };
  } finally {
    await held.release?.().catch(() => undefined);
  }
}
