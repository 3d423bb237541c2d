// SessionStore: the one object the engine, the CLI and the extension use for a workspace's session records, in the
// original CAPE CLI's layout under <workspace>/<capeFolder>/5_sessions/:
//   pair/<task>_<n>_<agent>_<timestamp>.json      one record per step (n = 1..5 in step order), timestamp = epoch ms
//   state/<task>.json                             session state, so an interrupted session can be resumed
//   retrospective/YYYY-MM-DD_HH-MM_<task>.md      human-readable retrospective (local time) + frontmatter
//   retrospective/kpt_merged.md                   accumulated KPT (see kpt/)
//   failed/<task>_<n>_<agent>_<timestamp>.txt     raw replies that could not be used
//   pending/<task>_<n>_<agent>.json               a validated reply whose step has not finished (resume goes on from it)
// It is the layout (layout.ts: every path and name, whether the folders may be used) plus a thin front over the
// parts that own each kind of file: stepRecords.ts (pair/, failed/), pendingReplies.ts (pending/), sessionStates.ts
// (state/), retrospectives.ts (the dated retrospectives), taskTraces.ts (what a task id left on disk, leftovers of
// killed writes) and kpt/ (kpt_merged.md). It adds only what spans two of them (completeStep; loadStep's use of the state). Every write is
// atomic (fsAtomic.ts). Plain Node: nothing in src/core may import 'vscode'.
import { STEP_IDS, type Envelope, type KptLists, type ProposedFile, type SessionMetrics, type StepId, DEFAULT_CAPE_FOLDER } from '../model/types';
import { acquireFileLock, type LockOptions } from '../files/lock';
import { mergeKptFile, parseKpt, readKptText, type KptMergeResult } from '../kpt';
import { listKptItems, markKptFile, KptStatusError, type KptListedItem, type KptMarkPlan, type KptMarkRequest } from '../kpt/status';
import { housekeepKptFile, type HousekeepingResult } from '../kpt/housekeeping';
import { StoreError, assertTaskId, type RetrospectiveInfo, type SessionState, type SessionSummary, type StepRecord } from './records';
import { SessionLayout } from './layout';
import { StepRecords } from './stepRecords';
import { PendingReplies, type PendingReply } from './pendingReplies';
import { SessionStates } from './sessionStates';
import { Retrospectives, type RetrospectiveExtras } from './retrospectives';
import { removeLeftovers, taskTraces } from './taskTraces';

export class SessionStore extends SessionLayout {
  private readonly steps = new StepRecords(this);
  private readonly pending = new PendingReplies(this);
  private readonly states = new SessionStates(this);
  private readonly retros = new Retrospectives(this);

  constructor(workspace: string, capeFolder = DEFAULT_CAPE_FOLDER) {
    super(workspace, capeFolder);
  }

  // -------------------------------------------------------------------------------------------
  // Step records (pair/, failed/)

  /** Writes one step's record atomically and returns its absolute path. Await it before starting the next step. */
  saveStep(taskId: string, step: StepId, record: StepRecord): Promise<string> {
    return this.steps.save(taskId, step, record);
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
  loadStep(taskId: string, step: StepId): Promise<StepRecord | null> {
    return this.steps.load(taskId, step, async () => (await this.loadSessionState(taskId).catch(() => null))?.stepFiles[step]);
  }

  /** The newest pair file of a task's step (absolute), or null. */
  findPairFile(taskId: string, step: StepId): Promise<string | null> {
    return this.steps.findPairFile(taskId, step);
  }

  /**
   * Keeps the raw text of a reply that could not be used (e.g. invalid even after the repair request) in
   * `5_sessions/failed/<task>_<n>_<agent>_<epoch ms>.txt`, so the user can inspect it. Returns the absolute path.
   */
  saveFailedRaw(taskId: string, step: StepId, raw: string, at: number = Date.now()): Promise<string> {
    return this.steps.saveFailedRaw(taskId, step, raw, at);
  }

  // -------------------------------------------------------------------------------------------
  // Pending replies (pending/)

  /** Keeps (or replaces) a step's validated reply until its record is saved; returns the absolute path. */
  savePendingReply(taskId: string, reply: PendingReply): Promise<string> {
    return this.pending.save(taskId, reply);
  }

  /** A step's pending reply and its path, or null. A damaged one is a StoreError naming the file. */
  loadPendingReply(taskId: string, step: StepId): Promise<{ reply: PendingReply; file: string } | null> {
    return this.pending.load(taskId, step);
  }

  /** Removes a step's pending reply, if any. */
  removePendingReply(taskId: string, step: StepId): Promise<void> {
    return this.pending.remove(taskId, step);
  }

  /** Removes every pending reply of a session (and pending/ once empty). */
  removePendingReplies(taskId: string): Promise<void> {
    return this.pending.removeAll(taskId);
  }

  // -------------------------------------------------------------------------------------------
  // Session states (state/)

  /** Writes `state/<task>.json` atomically (updatedAt is set to now). */
  saveSessionState(state: SessionState): Promise<string> {
    return this.states.save(state);
  }

  /** Writes the first state of a new session; a StoreError when the task id is taken (see SessionStates.create). */
  createSessionState(state: SessionState): Promise<string> {
    return this.states.create(state);
  }

  /** The saved state of a session, or null when it has none. A damaged file is a StoreError naming it. */
  loadSessionState(taskId: string): Promise<SessionState | null> {
    return this.states.load(taskId);
  }

  /** Every saved session, newest first (by creation time). Damaged state files are skipped. */
  listSessions(): Promise<SessionSummary[]> {
    return this.states.list();
  }

  /**
   * Takes the session's run lock (`state/<task>.json.lock`) for a whole run and returns its release: a second run of
   * the same session (a resume in the CLI while VS Code resumes it, two terminals) is refused at once with `busy`'s
   * error instead of writing the same records. Only a holder of this host that no longer runs makes it stale (then it
   * is broken with a warning): a run may take many minutes, so age says nothing.
   */
  lockSession(taskId: string, busy: (holder: string, lockPath: string) => Error, onWarning?: (message: string) => void): Promise<() => Promise<void>> {
    return acquireFileLock(this.statePath(taskId), { staleMs: Number.POSITIVE_INFINITY, timeoutMs: 0, onWarning }, { holderDoing: `a run of session ${taskId}`, busy });
  }

  /**
   * What a task id already has on disk (workspace-relative paths): its state file, step records and retrospectives.
   * Empty for an unused id. A new session must not reuse an id that has any of them.
   */
  traces(taskId: string): Promise<string[]> {
    return taskTraces(this, taskId);
  }

  /**
   * Removes what a killed process left behind in 5_sessions/ (the hidden temporary files of interrupted atomic
   * writes, older than `minAgeMs`). Returns the workspace-relative paths removed.
   */
  removeLeftovers(minAgeMs?: number): Promise<string[]> {
    return removeLeftovers(this, minAgeMs);
  }

  // -------------------------------------------------------------------------------------------
  // Retrospectives (retrospective/)

  /**
   * Writes the dated retrospective (atomically) and returns its absolute path. `envelope` is the cm_retro envelope,
   * or the map of all envelopes (then cm_retro and cm_open are taken from it). Human-readable: objective, the CM
   * opening summary (from cm_open or `opts.opening`), the conversation, KPT, the computed metrics and DevA's files
   * (paths and statuses, never bodies). Machine-readable frontmatter: task_id, objective, date (ISO), ass_average.
   * Saving the same task in the same minute replaces the file.
   */
  saveRetrospective(
    taskId: string,
    objective: string,
    envelope: Envelope | Partial<Record<StepId, Envelope>>,
    metrics: SessionMetrics,
    files: ProposedFile[],
    now: Date = new Date(),
    opts: RetrospectiveExtras = {},
  ): Promise<string> {
    return this.retros.save(taskId, objective, envelope, metrics, files, now, opts);
  }

  /** Retrospective files, newest first (see Retrospectives.list for the original CLI's files). */
  listRetrospectives(): Promise<RetrospectiveInfo[]> {
    return this.retros.list();
  }

  // -------------------------------------------------------------------------------------------
  // KPT (retrospective/kpt_merged.md, owned by kpt/)

  /**
   * Merges a session's KPT into kpt_merged.md (locked, atomic, idempotent per task, keeping every line it does not
   * understand; refused when the file leads outside the workspace). The result carries the warnings to show.
   */
  async mergeKpt(taskId: string, kpt: KptLists, now: Date = new Date(), opts: LockOptions = {}): Promise<KptMergeResult & { path: string }> {
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
  markKpt(req: KptMarkRequest, opts: LockOptions & { lenient?: boolean } = {}): Promise<KptMarkPlan> {
    return markKptFile(this.kptPath, req, { ...opts, workspaceRoot: this.workspace });
  }

  /** Moves closed items older than `olderThan` sessions to kpt_archive.md under the KPT lock (see housekeepKptFile). */
  housekeepKpt(olderThan?: number, opts: LockOptions = {}): Promise<HousekeepingResult> {
    return housekeepKptFile(this.kptPath, { ...opts, olderThan, workspaceRoot: this.workspace });
  }
}
