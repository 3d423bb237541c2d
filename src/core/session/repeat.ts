// `cape repeat`: reruns a saved session's objective N times on the same inputs and measures how alike the runs are
// (RR, metrics/reproducibility.ts). Each rerun is a session of its own, `<task>-repeat-<n>`, saved like any other so it
// can be inspected; being a measurement rather than team work, it neither adds to kpt_merged.md nor counts in the
// satisfaction trend, and the KPT digest it reads leaves out the items of the saved session and of its reruns (the
// saved session did not see them either). Same inputs: the saved objective, language and model, the current cape/
// files and workspace.
import { SessionStore } from '../store';
import { acceptanceCriteria } from '../metrics/tsr';
import { reproducibility, type Reproducibility, type RunSignature } from '../metrics/reproducibility';
import { runSession, type SessionOptions, type SessionResult } from './runner';
import type { ProposedFile } from '../model/types';
import { checkFilePath } from '../files/pathSafety';
import { repeatTaskId } from './repeatOf';

export interface RepeatOptions extends Omit<SessionOptions, 'objective' | 'taskId' | 'resume' | 'fromStep' | 'language' | 'model' | 'repeatOf'> {
  /** The saved, complete session to repeat. */
  taskId: string;
  times: number;
  /** Defaults to the saved session's model. */
  model?: string;
  /** Before each rerun starts. */
  onRun?: (n: number, taskId: string) => void;
}

export interface RepeatRun extends RunSignature {
  ok: boolean;
  costUsd: number | null;
  error?: string;
}

export interface RepeatResult extends Reproducibility {
  taskId: string;
  objective: string;
  /** The saved session first, then the reruns. */
  runs: RepeatRun[];
}

/** The most reruns one command makes (each is a whole session, paid for). */
export const MAX_REPEATS = 20;

/** Proposed (not refused) paths, workspace-relative: a saved record keeps the path as DevA wrote it. */
function proposedPaths(workspace: string, files: Pick<ProposedFile, 'status' | 'relPath' | 'path'>[]): string[] {
  return files
    .filter((f) => f.status !== 'refused')
    .map((f) => {
      if (f.relPath) return f.relPath;
      const check = checkFilePath(workspace, f.path);
      return check.ok ? check.relPath : f.path;
    });
}

function signature(workspace: string, taskId: string, res: SessionResult): RepeatRun {
  const poa = res.steps.find((s) => s.step === 'poa' && s.ok)?.envelope;
  const deva = res.steps.find((s) => s.step === 'deva' && s.ok);
  return {
    taskId,
    ok: res.ok,
    criteria: poa ? acceptanceCriteria(poa.output).map((c) => c.text || c.id) : null,
    files: deva ? proposedPaths(workspace, res.files) : null,
    costUsd: res.costUsd,
    ...(res.error ? { error: res.error.message } : {}),
  };
}

export async function repeatSession(opts: RepeatOptions): Promise<RepeatResult> {
  if (!Number.isInteger(opts.times) || opts.times < 1 || opts.times > MAX_REPEATS) {
    throw new Error(`The number of reruns must be a whole number from 1 to ${MAX_REPEATS} (got ${opts.times}).`);
  }
  const store = new SessionStore(opts.workspace, opts.capeFolder);
  const state = await store.loadSessionState(opts.taskId);
  if (!state) throw new Error(`There is no saved session ${opts.taskId} in this workspace: \`cape repeat\` reruns a saved session's objective.`);
  if (state.status !== 'complete') {
    throw new Error(`Session ${opts.taskId} is not complete (${state.status}): resume it first (cape resume --task ${opts.taskId}), then repeat it.`);
  }
  const poa = await store.loadStep(opts.taskId, 'poa');
  const deva = await store.loadStep(opts.taskId, 'deva');
  const runs: RepeatRun[] = [
    {
      taskId: opts.taskId,
      ok: true,
      criteria: poa ? acceptanceCriteria(poa.envelope.output).map((c) => c.text || c.id) : null,
      files: deva ? proposedPaths(opts.workspace, deva.files.map((f) => ({ ...f, status: f.status ?? 'proposed' }))) : null,
      costUsd: state.costUsd ?? null,
    },
  ];
  // An id with any trace (a state, even a damaged one, a step record, a retrospective) is not taken again.
  const used = async (id: string) => (await store.traces(id)).length > 0;
  let n = 0;
  for (let k = 1; k <= opts.times; k++) {
    if (opts.signal?.aborted) break;
    do n++;
    while (await used(repeatTaskId(opts.taskId, n)));
    const id = repeatTaskId(opts.taskId, n);
    opts.onRun?.(k, id);
    const { times: _times, onRun: _onRun, taskId: _taskId, ...session } = opts;
    const res = await runSession({
      ...session,
      objective: state.objective,
      language: state.language || 'English',
      model: opts.model || state.model,
      taskId: id,
      repeatOf: opts.taskId,
      // nobody is there to answer the Cape Master's questions: a rerun goes on as a conditional go
      pauseForQuestions: false,
    });
    runs.push(signature(opts.workspace, id, res));
  }
  return { taskId: opts.taskId, objective: state.objective, runs, ...reproducibility(runs) };
}
