// Persistence in the original CAPE CLI's layout, under <workspace>/<capeFolder>/5_sessions/:
//   pair/<task>_<n>_<agent>_<timestamp>.json      one record per step (n = 1..5 in step order), timestamp = epoch ms
//   state/<task>.json                             session state, so an interrupted session can be resumed
//   retrospective/YYYY-MM-DD_HH-MM_<task>.md      human-readable retrospective (local time) + frontmatter
//   retrospective/kpt_merged.md                   accumulated KPT (see kpt.ts)
// Every write is atomic (fsAtomic.ts). The records' types: records.ts; the retrospective's markdown:
// retrospectiveMarkdown.ts. Plain Node: nothing in src/core may import 'vscode'.
import { promises as fsp, statSync } from 'fs';
import * as crypto from 'crypto';
import * as path from 'path';
import {
  STEP_AGENT,
  STEP_IDS,
  type AgentId,
  type Envelope,
  ZERO_USAGE,
  type KptLists,
  type ProposedFile,
  type SessionMetrics,
  type StepId,
  DEFAULT_CAPE_FOLDER,
} from '../model/types';
import { retrospectiveStamp } from '../model/dates';
import { ensureDir, isAtomicTempName, readTextFile, removeStaleAtomicTemps, writeFileAtomic } from '../files/fsAtomic';
import { readHead } from '../metrics/metrics';
import { readFrontmatter } from '../cape/frontmatter';
import { mergeKptFile, parseKpt, readKptText, type KptLockOptions, type KptMergeResult } from '../kpt';
import { listKptItems, markKptFile, KptStatusError, type KptListedItem, type KptMarkPlan, type KptMarkRequest } from '../kpt/status';
import { housekeepKptFile, type HousekeepingResult } from '../kpt/housekeeping';
import { checkWorkspaceLocation } from '../files/pathSafety';
import { isChecksOutcome } from '../checks/types';
import {
  PAIR_NAME,
  RETRO_NAME,
  StoreError,
  assertTaskId,
  dorPauseOf,
  isEnvelope,
  isStepId,
  type RetrospectiveInfo,
  type SessionState,
  type SessionStatus,
  type SessionSummary,
  type StepRecord,
  type StoredFile,
} from './records';
import { renderRetrospective } from './retrospectiveMarkdown';


export class SessionStore {
  readonly workspace: string;
  readonly capeFolder: string;

  constructor(workspace: string, capeFolder = DEFAULT_CAPE_FOLDER) {
    this.workspace = path.resolve(workspace);
    if (!capeFolder || /[\\/]|^\.\.?$/.test(capeFolder)) {
      throw new StoreError(`Invalid CAPE folder name ${JSON.stringify(capeFolder)}: use a single folder name such as "cape".`);
    }
    this.capeFolder = capeFolder;
  }

  get sessionsDir(): string {
    return path.join(this.workspace, this.capeFolder, '5_sessions');
  }
  get pairDir(): string {
    return path.join(this.sessionsDir, 'pair');
  }
  get stateDir(): string {
    return path.join(this.sessionsDir, 'state');
  }
  get retrospectiveDir(): string {
    return path.join(this.sessionsDir, 'retrospective');
  }
  get kptPath(): string {
    return path.join(this.retrospectiveDir, 'kpt_merged.md');
  }

  /** `cape/5_sessions/pair/<task>_<n>_<agent>_<epoch ms>.json` (absolute). */
  pairPath(taskId: string, n: number, agent: AgentId, timestamp: number | Date): string {
    assertTaskId(taskId);
    if (!Number.isInteger(n) || n < 1 || n > STEP_IDS.length) throw new StoreError(`Step number ${n} is out of range 1..${STEP_IDS.length}.`);
    const ms = typeof timestamp === 'number' ? timestamp : timestamp.getTime();
    if (!Number.isFinite(ms) || ms < 0) throw new StoreError(`Invalid timestamp ${String(timestamp)} for the step record.`);
    return path.join(this.pairDir, `${taskId}_${n}_${agent}_${Math.floor(ms)}.json`);
  }

  /** Workspace-relative form (forward slashes) used inside state files. */
  relative(absPath: string): string {
    return path.relative(this.workspace, absPath).split(path.sep).join('/');
  }

  private resolveRelative(rel: string): string | null {
    const abs = path.resolve(this.workspace, rel);
    const back = path.relative(this.sessionsDir, abs);
    return back && !back.startsWith('..') && !path.isAbsolute(back) ? abs : null;
  }

  /** Writes one step's record atomically and returns its absolute path. Await it before starting the next step. */
  async saveStep(taskId: string, step: StepId, record: StepRecord): Promise<string> {
    if (!isStepId(step)) throw new StoreError(`Unknown step ${JSON.stringify(step)}.`);
    if (record.step !== step) throw new StoreError(`Step record for ${record.step} passed as ${step}.`);
    const file = this.pairPath(taskId, STEP_IDS.indexOf(step) + 1, STEP_AGENT[step], record.finishedAt);
    await ensureDir(this.pairDir);
    const body = { format: 'cape-step/1', taskId, ...record, agent: STEP_AGENT[step], n: STEP_IDS.indexOf(step) + 1 };
    await writeFileAtomic(file, JSON.stringify(body, null, 2) + '\n');
    return file;
  }

  /**
   * saveStep + record the step as completed in the session state (which must exist). Returns the new state.
   */
  async completeStep(taskId: string, step: StepId, record: StepRecord): Promise<SessionState> {
    const state = await this.loadSessionState(taskId);
    if (!state) throw new StoreError(`No session state for ${taskId}: call saveSessionState before the first step.`);
    const file = await this.saveStep(taskId, step, record);
    const completed = new Set([...state.completedSteps, step]);
    const next: SessionState = {
      ...state,
      completedSteps: STEP_IDS.filter((s) => completed.has(s)),
      stepFiles: { ...state.stepFiles, [step]: this.relative(file) },
    };
    await this.saveSessionState(next);
    return next;
  }

  /**
   * Reads a step record back: the file named in the session state, else the newest pair file of that task and
   * step. Null when there is none. A corrupt file is a StoreError naming it.
   */
  async loadStep(taskId: string, step: StepId): Promise<StepRecord | null> {
    assertTaskId(taskId);
    if (!isStepId(step)) throw new StoreError(`Unknown step ${JSON.stringify(step)}.`);
    let file: string | null = null;
    const state = await this.loadSessionState(taskId).catch(() => null);
    const fromState = state?.stepFiles[step];
    if (fromState) {
      const abs = this.resolveRelative(fromState);
      if (abs && (await fsp.stat(abs).then(() => true, () => false))) file = abs;
    }
    if (!file) file = await this.findPairFile(taskId, step);
    if (!file) return null;
    const data = await this.readJson(file);
    const rec = data as Partial<StepRecord> & { taskId?: unknown };
    if (!rec || typeof rec !== 'object' || rec.step !== step || typeof rec.raw !== 'string' || !rec.envelope || typeof rec.envelope !== 'object') {
      throw new StoreError(`Step record ${file} is not a complete ${step} record of CAPE.`, file);
    }
    const files = Array.isArray(rec.files)
      ? rec.files.filter((f): f is StoredFile => !!f && typeof f === 'object' && typeof f.path === 'string' && typeof f.content === 'string')
      : [];
    const usage = rec.usage && typeof rec.usage === 'object' ? { ...ZERO_USAGE, ...rec.usage } : { ...ZERO_USAGE };
    const ctx = rec.context;
    return {
      step,
      agent: STEP_AGENT[step],
      n: STEP_IDS.indexOf(step) + 1,
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
    };
  }

  /** The newest pair file of a task's step (absolute), or null. */
  async findPairFile(taskId: string, step: StepId): Promise<string | null> {
    let names: string[];
    try {
      names = await fsp.readdir(this.pairDir);
    } catch {
      return null;
    }
    const n = String(STEP_IDS.indexOf(step) + 1);
    let best: { name: string; ts: number } | null = null;
    for (const name of names) {
      const m = PAIR_NAME.exec(name);
      if (!m || m[1] !== taskId || m[2] !== n || m[3] !== STEP_AGENT[step]) continue;
      const ts = Number(m[4]);
      if (!best || ts > best.ts) best = { name, ts };
    }
    return best ? path.join(this.pairDir, best.name) : null;
  }

  private async readJson(file: string): Promise<unknown> {
    let text: string;
    try {
      text = await readTextFile(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw err;
      throw new StoreError((err as Error).message, file);
    }
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new StoreError(`${file} is not valid JSON (${(err as Error).message}); the file may be damaged.`, file);
    }
  }

  /**
   * Keeps the raw text of a reply that could not be used (e.g. invalid even after the repair request) in
   * `5_sessions/failed/<task>_<n>_<agent>_<epoch ms>.txt`, so the user can inspect it. Returns the absolute path.
   */
  async saveFailedRaw(taskId: string, step: StepId, raw: string, at: number = Date.now()): Promise<string> {
    if (!isStepId(step)) throw new StoreError(`Unknown step ${JSON.stringify(step)}.`);
    const name = path.basename(this.pairPath(taskId, STEP_IDS.indexOf(step) + 1, STEP_AGENT[step], at)).replace(/\.json$/, '.txt');
    const dir = path.join(this.sessionsDir, 'failed');
    await ensureDir(dir);
    const file = path.join(dir, name);
    await writeFileAtomic(file, raw);
    return file;
  }

  statePath(taskId: string): string {
    assertTaskId(taskId);
    return path.join(this.stateDir, `${taskId}.json`);
  }

  /** Writes `state/<task>.json` atomically (updatedAt is set to now). */
  async saveSessionState(state: SessionState): Promise<string> {
    const file = this.statePath(state.taskId);
    for (const s of state.completedSteps) if (!isStepId(s)) throw new StoreError(`Unknown step ${JSON.stringify(s)} in completedSteps.`);
    await ensureDir(this.stateDir);
    const body: SessionState = { ...state, updatedAt: Date.now() };
    await writeFileAtomic(file, JSON.stringify(body, null, 2) + '\n');
    return file;
  }

  /**
   * Writes the first state of a new session, refusing (StoreError) when `state/<task>.json` already exists, even if
   * another process creates it at the same moment: the file is written aside and hard-linked into place, which fails
   * instead of replacing an existing file.
   */
  async createSessionState(state: SessionState): Promise<string> {
    const file = this.statePath(state.taskId);
    await ensureDir(this.stateDir);
    const body: SessionState = { ...state, updatedAt: Date.now() };
    const aside = path.join(this.stateDir, `.${state.taskId}.json.${crypto.randomBytes(6).toString('hex')}.tmp`); // a temp name: removeLeftovers knows it
    await writeFileAtomic(aside, JSON.stringify(body, null, 2) + '\n');
    try {
      await fsp.link(aside, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
        throw new StoreError(`A session with task id ${state.taskId} already exists (${this.relative(file)}).`, file);
      }
      // A filesystem without hard links: an exclusive create gives the same guarantee.
      const fh = await fsp.open(file, 'wx').catch((e: NodeJS.ErrnoException) => {
        if (e.code === 'EEXIST') throw new StoreError(`A session with task id ${state.taskId} already exists (${this.relative(file)}).`, file);
        throw e;
      });
      try {
        await fh.writeFile(JSON.stringify(body, null, 2) + '\n');
      } finally {
        await fh.close();
      }
    } finally {
      await fsp.rm(aside, { force: true }).catch(() => undefined);
    }
    return file;
  }

  /**
   * What a task id already has on disk (workspace-relative paths): its state file, step records and retrospectives.
   * Empty for an unused id. A new session must not reuse an id that has any of them.
   */
  async traces(taskId: string): Promise<string[]> {
    assertTaskId(taskId);
    const out: string[] = [];
    const state = this.statePath(taskId);
    if (await fsp.lstat(state).then(() => true, () => false)) out.push(this.relative(state));
    const list = async (dir: string, match: (name: string) => boolean) => {
      const names = await fsp.readdir(dir).catch(() => [] as string[]);
      for (const name of names.sort()) if (!isAtomicTempName(name) && match(name)) out.push(this.relative(path.join(dir, name)));
    };
    await list(this.pairDir, (n) => PAIR_NAME.exec(n)?.[1] === taskId);
    await list(this.retrospectiveDir, (n) => RETRO_NAME.exec(n)?.[6] === taskId);
    return out;
  }

  /**
   * Removes what a killed process left behind in 5_sessions/ (the hidden temporary files of interrupted atomic
   * writes, older than `minAgeMs`). Returns the workspace-relative paths removed.
   */
  async removeLeftovers(minAgeMs?: number): Promise<string[]> {
    const out: string[] = [];
    for (const dir of [this.pairDir, this.stateDir, this.retrospectiveDir, path.join(this.sessionsDir, 'failed')]) {
      for (const name of await removeStaleAtomicTemps(dir, minAgeMs)) out.push(this.relative(path.join(dir, name)));
    }
    return out;
  }

  /** The saved state of a session, or null when it has none. A damaged file is a StoreError naming it. */
  async loadSessionState(taskId: string): Promise<SessionState | null> {
    const file = this.statePath(taskId);
    let data: unknown;
    try {
      data = await this.readJson(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    return this.validateState(data, file);
  }

  private validateState(data: unknown, file: string): SessionState {
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

  /** Every saved session, newest first (by creation time). Damaged state files are skipped. */
  async listSessions(): Promise<SessionSummary[]> {
    let names: string[];
    try {
      names = await fsp.readdir(this.stateDir);
    } catch {
      return [];
    }
    const out: SessionSummary[] = [];
    for (const name of names) {
      if (!name.endsWith('.json') || isAtomicTempName(name)) continue;
      const file = path.join(this.stateDir, name);
      try {
        const s = this.validateState(await this.readJson(file), file);
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

  /** `retrospective/YYYY-MM-DD_HH-MM_<task>.md` for a local time (absolute). */
  retrospectivePath(taskId: string, now: Date): string {
    assertTaskId(taskId);
    return path.join(this.retrospectiveDir, `${retrospectiveStamp(now)}_${taskId}.md`);
  }

  /**
   * Writes the dated retrospective (atomically) and returns its absolute path. `envelope` is the cm_retro envelope,
   * or the map of all envelopes (then cm_retro and cm_open are taken from it). Human-readable: objective, the CM
   * opening summary (from cm_open or `opts.opening`), the conversation, KPT, the computed metrics and DevA's files
   * (paths and statuses, never bodies). Machine-readable frontmatter: task_id, objective, date (ISO), ass_average.
   * Saving the same task in the same minute replaces the file.
   */
  async saveRetrospective(
    taskId: string,
    objective: string,
    envelope: Envelope | Partial<Record<StepId, Envelope>>,
    metrics: SessionMetrics,
    files: ProposedFile[],
    now: Date = new Date(),
    opts: { opening?: Envelope | null; devaSummary?: string | null; repeatOf?: string } = {},
  ): Promise<string> {
    const file = this.retrospectivePath(taskId, now);
    let retro: Envelope;
    let opening = opts.opening;
    if (isEnvelope(envelope)) retro = envelope;
    else {
      const map = envelope as Partial<Record<StepId, Envelope>>;
      if (!map.cm_retro) throw new StoreError(`Cannot write the retrospective of ${taskId}: the cm_retro envelope is missing.`);
      retro = map.cm_retro;
      opening = opening ?? map.cm_open ?? null;
    }
    const md = renderRetrospective(taskId, objective, retro, metrics, files, now, { ...opts, opening });
    await ensureDir(this.retrospectiveDir);
    await writeFileAtomic(file, md);
    return file;
  }

  /**
   * Merges a session's KPT into kpt_merged.md (locked, atomic, idempotent per task, keeping every line it does not
   * understand; refused when the file leads outside the workspace). The result carries the warnings to show.
   */
  async mergeKpt(taskId: string, kpt: KptLists, now: Date = new Date(), opts: KptLockOptions = {}): Promise<KptMergeResult & { path: string }> {
    assertTaskId(taskId);
    const result = await mergeKptFile(this.kptPath, taskId, kpt, now, { ...opts, workspaceRoot: this.workspace });
    return { ...result, path: this.kptPath };
  }

  /** kpt_merged.md's items with ids, status and recurrence (missing file: none); throws when it may not be read. */
  async listKpt(): Promise<KptListedItem[]> {
    const read = await readKptText(this.kptPath, this.workspace);
    if (read.warning) throw new KptStatusError(read.warning);
    return listKptItems(parseKpt(read.text));
  }

  /** Sets item statuses in kpt_merged.md under the KPT lock (see markKptFile). */
  async markKpt(req: KptMarkRequest, opts: KptLockOptions & { lenient?: boolean } = {}): Promise<KptMarkPlan> {
    return markKptFile(this.kptPath, req, { ...opts, workspaceRoot: this.workspace });
  }

  /** Moves closed items older than `olderThan` sessions to kpt_archive.md under the KPT lock (see housekeepKptFile). */
  async housekeepKpt(olderThan?: number, opts: KptLockOptions = {}): Promise<HousekeepingResult> {
    return housekeepKptFile(this.kptPath, { ...opts, olderThan, workspaceRoot: this.workspace });
  }

  /**
   * Why CAPE must not use this workspace's cape/ folder, or null: cape/, 5_sessions/ or one of its folders is a
   * symbolic link (or lies below one) that leads outside the workspace — reading and writing the session records
   * there would go through it; or one of them is a file where CAPE needs a folder.
   * kpt_merged.md alone is checked when it is merged (a warning, not a failure).
   */
  locationProblem(): string | null {
    const rel = (...parts: string[]) => [this.capeFolder, ...parts].join('/');
    for (const p of [rel(), rel('5_sessions'), rel('5_sessions', 'pair'), rel('5_sessions', 'state'), rel('5_sessions', 'retrospective')]) {
      const check = checkWorkspaceLocation(this.workspace, p);
      if (!check.ok) {
        return `${check.reason}. CAPE neither reads nor writes its files through a link that leaves the workspace: replace ${p} with a real folder (or a link inside the workspace).`;
      }
      if (statSync(check.realPath, { throwIfNoEntry: false })?.isDirectory() === false) {
        return `${p} is a file where CAPE needs a folder: move the file aside (CAPE does not read it), then run again.`;
      }
    }
    return null;
  }

  /**
   * Retrospective files, newest first. Ours carry frontmatter; files of the original CLI have none, so their
   * date and task come from the file name (objective and ASS average are then null). kpt_merged.md and files
   * matching neither are ignored.
   */
  async listRetrospectives(): Promise<RetrospectiveInfo[]> {
    let names: string[];
    try {
      names = await fsp.readdir(this.retrospectiveDir);
    } catch {
      return [];
    }
    const out: RetrospectiveInfo[] = [];
    for (const name of names) {
      if (!name.endsWith('.md') || name === 'kpt_merged.md' || isAtomicTempName(name)) continue;
      const file = path.join(this.retrospectiveDir, name);
      const m = RETRO_NAME.exec(name);
      let fm: Record<string, unknown> | null = null;
      try {
        fm = readFrontmatter(await readHead(file));
      } catch {
        continue;
      }
      const fmDate = typeof fm?.date === 'string' ? new Date(fm.date) : null;
      const date = fmDate && !isNaN(fmDate.getTime()) ? fmDate : m ? new Date(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]) : null;
      const taskId = typeof fm?.task_id === 'string' && fm.task_id ? fm.task_id : m ? m[6] : null;
      if (!date || !taskId) continue;
      out.push({
        path: file,
        taskId,
        date,
        objective: typeof fm?.objective === 'string' ? fm.objective : null,
        assAverage: typeof fm?.ass_average === 'number' && Number.isFinite(fm.ass_average) ? fm.ass_average : null,
      });
    }
    return out.sort((a, b) => b.date.getTime() - a.date.getTime() || (a.path < b.path ? 1 : -1));
  }
}
