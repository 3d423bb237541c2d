// Where a session's files live: the folders of <workspace>/<capeFolder>/5_sessions/ and the name of every file the
// store writes there (the original CAPE CLI's layout), the workspace-relative form used inside state files, and
// whether the folders may be used at all (no link out of the workspace, no file where a folder belongs).
// No reading or writing of session files here: stepRecords.ts, sessionStates.ts, retrospectives.ts do that.
import { statSync } from 'fs';
import * as path from 'path';
import { capeFolderRefusal, SESSIONS_FOLDER, STEP_IDS, type AgentId } from '../model/types';
import { retrospectiveStamp } from '../model/dates';
import { checkWorkspaceLocation, isInside } from '../files/pathSafety';
import { StoreError, assertTaskId } from './records';

export class SessionLayout {
  readonly workspace: string;
  readonly capeFolder: string;

  constructor(workspace: string, capeFolder: string) {
    this.workspace = path.resolve(workspace);
    const refused = capeFolderRefusal(capeFolder);
    if (refused) throw new StoreError(refused);
    this.capeFolder = capeFolder;
  }

  get sessionsDir(): string {
    return path.join(this.workspace, this.capeFolder, SESSIONS_FOLDER);
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
  /** Raw replies that could not be used (see saveFailedRaw). */
  get failedDir(): string {
    return path.join(this.sessionsDir, 'failed');
  }
  /** Validated replies of steps that did not finish (see PendingReplies). */
  get pendingDir(): string {
    return path.join(this.sessionsDir, 'pending');
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

  /** `pending/<task>_<n>_<agent>.json` (absolute): one per task and step, replaced by the next. */
  pendingPath(taskId: string, n: number, agent: AgentId): string {
    assertTaskId(taskId);
    return path.join(this.pendingDir, `${taskId}_${n}_${agent}.json`);
  }

  /** `state/<task>.json` (absolute). */
  statePath(taskId: string): string {
    assertTaskId(taskId);
    return path.join(this.stateDir, `${taskId}.json`);
  }

  /** `retrospective/YYYY-MM-DD_HH-MM_<task>.md` for a local time (absolute). */
  retrospectivePath(taskId: string, now: Date): string {
    assertTaskId(taskId);
    return path.join(this.retrospectiveDir, `${retrospectiveStamp(now)}_${taskId}.md`);
  }

  /** Workspace-relative form (forward slashes) used inside state files. */
  relative(absPath: string): string {
    return path.relative(this.workspace, absPath).split(path.sep).join('/');
  }

  /** A workspace-relative path read from a state file, made absolute; null unless it lies inside 5_sessions/. */
  resolveRelative(rel: string): string | null {
    const abs = path.resolve(this.workspace, rel);
    return isInside(this.sessionsDir, abs, { strict: true }) ? abs : null;
  }

  /**
   * Why CAPE must not use this workspace's cape/ folder, or null: cape/, 5_sessions/ or one of its folders is a
   * symbolic link (or lies below one) that leads outside the workspace — reading and writing the session records
   * there would go through it; or one of them is a file where CAPE needs a folder.
   * kpt_merged.md alone is checked when it is merged (a warning, not a failure).
   */
  locationProblem(): string | null {
    const dirs = [path.join(this.workspace, this.capeFolder), this.sessionsDir, this.pairDir, this.stateDir, this.retrospectiveDir, this.pendingDir, this.failedDir];
    for (const p of dirs.map((d) => this.relative(d))) {
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
}
