// The step records of pair/: one JSON file per finished step (`<task>_<n>_<agent>_<epoch ms>.json`, DevA's file
// bodies included so they survive a crash), written atomically, found again (the file a state names, else the
// newest of that task and step) and read back defensively (a damaged record, or a field of the wrong type
// (stepRecordSchema.ts), is a StoreError naming its file and the field).
// Also the raw replies that could not be used, kept in failed/ for the user to inspect.
import { promises as fsp } from 'fs';
import * as path from 'path';
import { STEP_AGENT, STEP_IDS, ZERO_USAGE, type Envelope, type StepId, type ToolCallRecord } from '../model/types';
import { ensureDir, writeFileAtomic } from '../files/fsAtomic';
import { isChecksOutcome } from '../checks/storedOutcome';
import { PAIR_NAME, StoreError, assertTaskId, isStepId, type StepRecord, type StoredFile } from './records';
import { jsonFileText, readJsonFile } from './jsonFile';
import { stepRecordProblems } from './stepRecordSchema';
import type { SessionLayout } from './layout';

/** Step number 1..5 of a step (the `n` of its pair file). */
function stepNumber(step: StepId): number {
  return STEP_IDS.indexOf(step) + 1;
}

function assertStep(step: StepId): void {
  if (!isStepId(step)) throw new StoreError(`Unknown step ${JSON.stringify(step)}.`);
}

export class StepRecords {
  constructor(private readonly layout: SessionLayout) {}

  /** Writes one step's record atomically and returns its absolute path. */
  async save(taskId: string, step: StepId, record: StepRecord): Promise<string> {
    assertStep(step);
    if (record.step !== step) throw new StoreError(`Step record for ${record.step} passed as ${step}.`);
    const n = stepNumber(step);
    const file = this.layout.pairPath(taskId, n, STEP_AGENT[step], record.finishedAt);
    await ensureDir(this.layout.pairDir);
    const body = { format: 'cape-step/1', taskId, ...record, agent: STEP_AGENT[step], n };
    await writeFileAtomic(file, jsonFileText(body));
    return file;
  }

  /**
   * Reads a step record back: the file `namedByState` gives (workspace-relative, as a session state names it) when it
   * exists inside 5_sessions/, else the newest pair file of that task and step. Null when there is none.
   */
  async load(taskId: string, step: StepId, namedByState: () => Promise<string | undefined>): Promise<StepRecord | null> {
    assertTaskId(taskId);
    assertStep(step);
    let file: string | null = null;
    const fromState = await namedByState();
    if (fromState) {
      const abs = this.layout.resolveRelative(fromState);
      if (abs && (await fsp.stat(abs).then(() => true, () => false))) file = abs;
    }
    if (!file) file = await this.findPairFile(taskId, step);
    if (!file) return null;
    return parseStepRecord(await readJsonFile(file), step, file, taskId);
  }

  /** The newest pair file of a task's step (absolute), or null. */
  async findPairFile(taskId: string, step: StepId): Promise<string | null> {
    let names: string[];
    try {
      names = await fsp.readdir(this.layout.pairDir);
    } catch {
      return null;
    }
    const n = String(stepNumber(step));
    let best: { name: string; ts: number } | null = null;
    for (const name of names) {
      const m = PAIR_NAME.exec(name);
      if (!m || m[1] !== taskId || m[2] !== n || m[3] !== STEP_AGENT[step]) continue;
      const ts = Number(m[4]);
      if (!best || ts > best.ts) best = { name, ts };
    }
    return best ? path.join(this.layout.pairDir, best.name) : null;
  }

  /** Keeps an unusable reply's raw text as `failed/<task>_<n>_<agent>_<epoch ms>.txt`; returns the absolute path. */
  async saveFailedRaw(taskId: string, step: StepId, raw: string, at: number): Promise<string> {
    assertStep(step);
    const name = path.basename(this.layout.pairPath(taskId, stepNumber(step), STEP_AGENT[step], at)).replace(/\.json$/, '.txt');
    const dir = this.layout.failedDir;
    await ensureDir(dir);
    const file = path.join(dir, name);
    await writeFileAtomic(file, raw);
    return file;
  }
}

/** A step record as read from `file`: missing optional parts get their defaults; an incomplete one is a StoreError. */
function parseStepRecord(data: unknown, step: StepId, file: string, taskId: string): StepRecord {
  const rec = data as Partial<StepRecord> & { taskId?: unknown };
  if (!rec || typeof rec !== 'object' || rec.step !== step || typeof rec.raw !== 'string' || !rec.envelope || typeof rec.envelope !== 'object') {
    throw new StoreError(`Step record ${file} is not a complete ${step} record of CAPE.`, file);
  }
  // a record of another session (a state file naming another task's pair file) is not this session's step
  if (typeof rec.taskId === 'string' && rec.taskId !== taskId) {
    const reason = `it is a record of session "${rec.taskId}", not "${taskId}". Point the state's step file at this session's record, or run step ${step} again.`;
    throw new StoreError(`Step record ${file}: ${reason}`, file, reason);
  }
  const problems = stepRecordProblems(data);
  if (problems) {
    const shown = problems.slice(0, 3).join('; ') + (problems.length > 3 ? `; … (${problems.length} problems)` : '');
    const many = problems.length > 1;
    const reason = `${many ? 'fields have' : 'a field has'} the wrong type (${shown}). Fix ${many ? 'those fields' : 'that field'} in the file, or run step ${step} again.`;
    throw new StoreError(`Step record ${file}: ${reason}`, file, reason);
  }
  const files = Array.isArray(rec.files)
    ? rec.files.filter((f): f is StoredFile => !!f && typeof f === 'object' && typeof f.path === 'string' && typeof f.content === 'string')
    : [];
  const usage = rec.usage && typeof rec.usage === 'object' ? { ...ZERO_USAGE, ...rec.usage } : { ...ZERO_USAGE };
  const ctx = rec.context;
  return {
    step,
    agent: STEP_AGENT[step],
    n: stepNumber(step),
    raw: rec.raw,
    envelope: rec.envelope as Envelope,
    files,
    summary: typeof rec.summary === 'string' ? rec.summary : null,
    usage,
    ...(ctx && typeof ctx === 'object' && typeof ctx.input === 'number' && typeof ctx.passed === 'number' ? { context: { input: ctx.input, passed: ctx.passed } } : {}),
    model: typeof rec.model === 'string' ? rec.model : '',
    startedAt: typeof rec.startedAt === 'number' ? rec.startedAt : 0,
    finishedAt: typeof rec.finishedAt === 'number' ? rec.finishedAt : 0,
    ...(typeof rec.continuations === 'number' && rec.continuations > 0 ? { continuations: rec.continuations } : {}),
    ...(isChecksOutcome(rec.checks) ? { checks: rec.checks } : {}),
    ...(Array.isArray(rec.warnings) && rec.warnings.length > 0 ? { warnings: rec.warnings.filter((w): w is string => typeof w === 'string') } : {}),
    ...(Array.isArray(rec.feedback) && rec.feedback.length ? { feedback: rec.feedback.filter((f) => !!f && typeof f === 'object' && Array.isArray(f.questions)) } : {}),
    ...(Array.isArray(rec.toolCalls) && rec.toolCalls.length ? { toolCalls: rec.toolCalls.filter(isToolCallRecord) } : {}),
    ...(typeof rec.editRepair === 'string' ? { editRepair: rec.editRepair } : {}),
    ...(Array.isArray(rec.dorAnswers) && rec.dorAnswers.length
      ? { dorAnswers: rec.dorAnswers.filter((a) => !!a && typeof a === 'object' && typeof a.question === 'string' && typeof a.answer === 'string') }
      : {}),
  };
}

function isToolCallRecord(c: unknown): c is ToolCallRecord {
  const r = c as Partial<ToolCallRecord> | null;
  return !!r && typeof r === 'object' && typeof r.tool === 'string' && typeof r.target === 'string' && typeof r.chars === 'number';
}
