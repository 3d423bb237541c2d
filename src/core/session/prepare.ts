// Getting a session's state ready before any model call: a new session gets an id nobody used (never overwriting an
// earlier session's state, retrospective or KPT items), a resumed one is loaded (optionally from a given step on) and
// takes over a step that was saved just before a crash without its state being updated (so it is not paid twice).
// Every refusal is a StepFailure whose message says what is wrong and how to go on.
import * as path from 'path';
import { STEP_IDS, type StepId } from '../model/types';
import { SessionStore, StoreError, type SessionState, type StepRecord } from '../store';
import { objectiveProblem } from './objective';
import { StepFailure } from './failure';

export interface NewSessionOptions {
  objective: string;
  language: string;
  model: string;
  taskId?: string;
  now: () => number;
}

function rel(store: SessionStore, file: string): string {
  return store.relative(path.resolve(file));
}

function notResumable(message: string, kind: 'config' | 'io' = 'config', step: StepId | null = null): StepFailure {
  return new StepFailure(step, kind, message, undefined, false);
}

async function alreadyUsed(store: SessionStore, taskId: string, traces: string[]): Promise<StepFailure> {
  const state = await store.loadSessionState(taskId).catch(() => null);
  const shown = traces.slice(0, 3).join(', ') + (traces.length > 3 ? `, … (${traces.length} files)` : '');
  const resume =
    state && state.status !== 'complete' ? `Resume that session with \`cape resume --task ${taskId}\`, or choose` : 'Choose';
  return notResumable(
    `Task id ${taskId} is already used by an earlier session (${shown}); starting a new session with it would overwrite ` +
      `that session's state, retrospective and KPT items. ${resume} a new id (leave out --task and CAPE picks a fresh one).`,
  );
}

/** Creates the state of a new session (status running) on disk and returns it. */
export async function createSession(store: SessionStore, o: NewSessionOptions): Promise<SessionState> {
  const objective = o.objective.trim();
  const problem = objectiveProblem(objective);
  if (problem) throw notResumable(problem);
  const given = o.taskId;
  if (given !== undefined) {
    try {
      const traces = await store.traces(given);
      if (traces.length > 0) throw await alreadyUsed(store, given, traces);
    } catch (err) {
      if (err instanceof StoreError) throw notResumable(err.message);
      throw err;
    }
  }
  // The default id is the start time; two sessions started in the same millisecond (even in two processes, one
  // taking the id between the other's check and its write) get the next free one.
  const base = o.now();
  for (let k = 0; ; k++) {
    const taskId = given ?? `task-${base + k}`;
    if (given === undefined && (await store.traces(taskId)).length > 0) continue;
    const state: SessionState = {
      taskId,
      objective,
      language: o.language,
      model: o.model,
      createdAt: o.now(),
      status: 'running',
      completedSteps: [],
      stepFiles: {},
    };
    try {
      await store.createSessionState(state);
    } catch (err) {
      // Another process took the id between the check and the write.
      if (!(err instanceof StoreError && err.file)) throw err;
      if (given === undefined) continue;
      throw await alreadyUsed(store, taskId, await store.traces(taskId));
    }
    return state;
  }
}

/**
 * Loads the state of the session to resume. With `fromStep`, that step and every later one run again (their earlier
 * records stay in pair/ as history). Otherwise a step whose record was written after the last state update (the
 * process died between the two writes) is taken over as completed; what its requests cost is in the state already
 * (./cost.ts writes the spend after every request, before the record). `adopted` lists those steps.
 */
export async function loadSessionToResume(
  store: SessionStore,
  taskId: string | undefined,
  fromStep?: StepId,
): Promise<{ state: SessionState; adopted: StepId[] }> {
  if (!taskId) throw notResumable('Resume needs the task id of the failed session.');
  let state: SessionState | null;
  try {
    state = await store.loadSessionState(taskId);
  } catch (err) {
    if (!(err instanceof StoreError)) throw err;
    if (!err.file) throw notResumable(err.message);
    throw notResumable(
      `The state file of session ${taskId} (${rel(store, err.file)}) is damaged: ${err.message.replace(err.file, 'it')} ` +
        'It holds the objective and the list of completed steps, so the session cannot be resumed without it. Repair the ' +
        `JSON by hand, or start a new session with the same objective (the saved step records stay in ${rel(store, store.pairDir)}/).`,
      'io',
    );
  }
  if (!state) {
    throw notResumable(`No saved session "${taskId}" under ${rel(store, store.stateDir)}/. Start a new session instead.`);
  }
  if (fromStep) {
    const at = STEP_IDS.indexOf(fromStep);
    state.completedSteps = state.completedSteps.filter((s) => STEP_IDS.indexOf(s) < at);
    for (const s of STEP_IDS) if (STEP_IDS.indexOf(s) >= at) delete state.stepFiles[s];
    return { state, adopted: [] };
  }
  if (state.status === 'complete') {
    throw notResumable(
      `Session ${taskId} already completed; nothing to resume. To run part of it again, use \`cape resume --task ${taskId} --from-step <step>\` (steps: ${STEP_IDS.join(', ')}).`,
    );
  }
  const adopted: StepId[] = [];
  const since = state.updatedAt ?? Number.POSITIVE_INFINITY;
  for (const step of STEP_IDS) {
    if (state.completedSteps.includes(step)) continue;
    const file = await store.findPairFile(taskId, step);
    if (!file) break;
    let rec: StepRecord | null = null;
    try {
      rec = await store.loadStep(taskId, step);
    } catch {
      break; // a half-written or damaged record is not a saved step: the step runs again
    }
    if (!rec || rec.finishedAt < since) break;
    state.completedSteps.push(step);
    state.stepFiles[step] = store.relative(file);
    adopted.push(step);
  }
  return { state, adopted };
}

/** A completed step's record for a resume; a missing or damaged one says how to re-run from that step. */
export async function loadCompletedStep(store: SessionStore, taskId: string, step: StepId): Promise<StepRecord> {
  const redo = `Re-run the session from that step with \`cape resume --task ${taskId} --from-step ${step}\`.`;
  let rec: StepRecord | null;
  try {
    rec = await store.loadStep(taskId, step);
  } catch (err) {
    if (!(err instanceof StoreError)) throw err;
    const where = err.file ? rel(store, err.file) : `${rel(store, store.pairDir)}/`;
    const what = err.reason ?? (err.file ? err.message.split(err.file).join('it') : err.message);
    throw notResumable(`The saved record of step ${step} (${where}) is damaged: ${what} ${redo}`, 'io', step);
  }
  if (!rec) throw notResumable(`The saved record of step ${step} is missing from ${rel(store, store.pairDir)}/. ${redo}`, 'io', step);
  return rec;
}
