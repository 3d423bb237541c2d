// The session states of state/: `<task>.json`, what an interrupted session needs to resume (status, completed steps
// and their pair files, cost so far, the Cape Master's open questions). Written atomically; a new session's first
// state is created exclusively (a task id is never taken twice, even by two processes at once); read back
// defensively (a damaged state is a StoreError naming its file) and listed for the resume pickers.
import { promises as fsp } from 'fs';
import * as crypto from 'crypto';
import * as path from 'path';
import { STEP_IDS, type StepId } from '../model/types';
import { ensureDir, isAtomicTempName, writeFileAtomic } from '../files/fsAtomic';
import { StoreError, dorPauseOf, isStepId, type SessionState, type SessionStatus, type SessionSummary } from './records';
import { jsonFileText, readJsonFile, readJsonFileIfAny } from './jsonFile';
import type { SessionLayout } from './layout';

export class SessionStates {
  constructor(private readonly layout: SessionLayout) {}

  /** Writes `state/<task>.json` atomically (updatedAt is set to now). */
  async save(state: SessionState): Promise<string> {
    const file = this.layout.statePath(state.taskId);
    for (const s of state.completedSteps) if (!isStepId(s)) throw new StoreError(`Unknown step ${JSON.stringify(s)} in completedSteps.`);
    await ensureDir(this.layout.stateDir);
    const body: SessionState = { ...state, updatedAt: Date.now() };
    await writeFileAtomic(file, jsonFileText(body));
    return file;
  }

  /**
   * Writes the first state of a new session, refusing (StoreError) when `state/<task>.json` already exists, even if
   * another process creates it at the same moment: the file is written aside and hard-linked into place, which fails
   * instead of replacing an existing file.
   */
  async create(state: SessionState): Promise<string> {
    const file = this.layout.statePath(state.taskId);
    const stateDir = this.layout.stateDir;
    await ensureDir(stateDir);
    const text = jsonFileText({ ...state, updatedAt: Date.now() });
    const aside = path.join(stateDir, `.${state.taskId}.json.${crypto.randomBytes(6).toString('hex')}.tmp`); // a temp name: removeLeftovers knows it
    const taken = () => new StoreError(`A session with task id ${state.taskId} already exists (${this.layout.relative(file)}).`, file);
    await writeFileAtomic(aside, text);
    try {
      await fsp.link(aside, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw taken();
      // A filesystem without hard links: an exclusive create gives the same guarantee.
      const fh = await fsp.open(file, 'wx').catch((e: NodeJS.ErrnoException) => {
        if (e.code === 'EEXIST') throw taken();
        throw e;
      });
      try {
        await fh.writeFile(text);
      } finally {
        await fh.close();
      }
    } finally {
      await fsp.rm(aside, { force: true }).catch(() => undefined);
    }
    return file;
  }

  /** The saved state of a session, or null when it has none. A damaged file is a StoreError naming it. */
  async load(taskId: string): Promise<SessionState | null> {
    const file = this.layout.statePath(taskId);
    const data = await readJsonFileIfAny(file);
    if (data === undefined) return null;
    const state = parseSessionState(data, file);
    // a state file copied or edited to name another session: resuming it would write over that session's state
    if (state.taskId !== taskId) {
      const reason = `names session "${state.taskId}", not "${taskId}" (copied or edited by hand?); set its "taskId" back to "${taskId}".`;
      throw new StoreError(`${file} ${reason}`, file, `it ${reason}`);
    }
    return state;
  }

  /** Every saved session, newest first (by creation time). Damaged state files are skipped. */
  async list(): Promise<SessionSummary[]> {
    const stateDir = this.layout.stateDir;
    let names: string[];
    try {
      names = await fsp.readdir(stateDir);
    } catch {
      return [];
    }
    const out: SessionSummary[] = [];
    for (const name of names) {
      if (!name.endsWith('.json') || isAtomicTempName(name)) continue;
      const file = path.join(stateDir, name);
      try {
        const s = parseSessionState(await readJsonFile(file), file);
        out.push({
          taskId: s.taskId,
          objective: s.objective,
          status: s.status,
          createdAt: s.createdAt,
          updatedAt: s.updatedAt ?? s.createdAt,
          completedSteps: s.completedSteps,
          ...(s.error ? { error: s.error } : {}),
          statePath: file,
        });
      } catch {
        // damaged or foreign file: not a resumable session
      }
    }
    return out.sort((a, b) => b.createdAt - a.createdAt || b.updatedAt - a.updatedAt || (a.taskId < b.taskId ? 1 : -1));
  }
}

/** A session state as read from `file`: unknown steps dropped, defaults filled in; without taskId or status a StoreError. */
function parseSessionState(data: unknown, file: string): SessionState {
  const s = data as Partial<SessionState>;
  if (!s || typeof s !== 'object' || typeof s.taskId !== 'string' || !['running', 'failed', 'complete', 'needs_answers'].includes(String(s.status))) {
    throw new StoreError(`${file} is not a CAPE session state (missing taskId or status).`, file);
  }
  const stepFiles: Partial<Record<StepId, string>> = {};
  if (s.stepFiles && typeof s.stepFiles === 'object') {
    for (const [k, v] of Object.entries(s.stepFiles)) if (isStepId(k) && typeof v === 'string') stepFiles[k] = v;
  }
  return {
    taskId: s.taskId,
    objective: typeof s.objective === 'string' ? s.objective : '',
    language: typeof s.language === 'string' ? s.language : '',
    model: typeof s.model === 'string' ? s.model : '',
    createdAt: typeof s.createdAt === 'number' ? s.createdAt : 0,
    updatedAt: typeof s.updatedAt === 'number' ? s.updatedAt : undefined,
    status: s.status as SessionStatus,
    completedSteps: Array.isArray(s.completedSteps) ? STEP_IDS.filter((x) => s.completedSteps!.includes(x)) : [],
    ...(s.error && typeof s.error === 'object' ? { error: s.error } : {}),
    stepFiles,
    ...(typeof s.retrospectivePath === 'string' ? { retrospectivePath: s.retrospectivePath } : {}),
    ...(s.costUsd === null || (typeof s.costUsd === 'number' && Number.isFinite(s.costUsd) && s.costUsd >= 0) ? { costUsd: s.costUsd } : {}),
    ...(dorPauseOf(s.dor) ? { dor: dorPauseOf(s.dor)! } : {}),
  };
}
