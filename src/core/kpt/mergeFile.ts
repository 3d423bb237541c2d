// The locked read-merge-write of kpt_merged.md (the lock itself: ../files/lock.ts): a session's KPT merged in without losing
// a line, the file kept aside when it cannot be parsed safely, refused when it leads outside the workspace; and the
// guarded read every other KPT reader uses. Plain Node.
import { promises as fsp } from 'fs';
import * as path from 'path';
import type { KptItem, KptLists } from '../model/types';
import { asideStamp } from '../model/dates';
import { fileReadError, writeFileAtomic, writePathThroughLink } from '../files/fsAtomic';
import { checkWorkspaceLocation } from '../files/pathSafety';
import { notTextReason } from '../files/text';
import { ensureUnionMerge } from './gitattributes';
import { withFileLock, type LockOptions } from '../files/lock';
import { mergeKptText } from './kpt';
import { parseKpt } from './document';

export interface KptMergeOptions extends LockOptions {
  /**
   * The workspace kpt_merged.md belongs to: the file is neither read nor written when it (or a folder above it)
   * is a symbolic link that leads outside (pathSafety's checkWorkspaceLocation).
   */
  workspaceRoot?: string;
}

export interface KptMergeResult {
  /** 'merged'; 'refused' when the file is outside the workspace (nothing written). */
  status: 'merged' | 'refused';
  /** Where an unreadable earlier file was kept, when it was. */
  keptAside?: string;
  /** What to tell the user (also passed to onWarning). */
  warnings: string[];
}

/**
 * Merges one session's KPT into kpt_merged.md: read → mergeKptText → atomic write, all under an exclusive lock so
 * that two sessions finishing at once never lose each other's items. Idempotent per taskId. Nothing is lost:
 *  - every line the parser does not understand stays where it was (mergeKptText);
 *  - a file that cannot be merged without losing bytes — it is not text (a NUL byte, or invalid UTF-8) — is never
 *    rewritten: it is renamed to `kpt_merged.md.unreadable-<YYYYMMDD-HHMMSS>` (UTC) and a new kpt_merged.md is
 *    started, with a warning naming both;
 *  - with `workspaceRoot`, a kpt_merged.md that leads outside the workspace is refused with a warning.
 */
export async function mergeKptFile(
  filePath: string,
  taskId: string,
  lists: KptLists,
  now: Date = new Date(),
  opts: KptMergeOptions = {},
): Promise<KptMergeResult> {
  if (!taskId || /[\s\[\]]/.test(taskId)) {
    throw new Error(`Invalid task id "${taskId}" for kpt_merged.md: it must be non-empty, without spaces or brackets.`);
  }
  const warnings: string[] = [];
  const warn = (m: string): void => {
    warnings.push(m);
    try {
      opts.onWarning?.(m);
    } catch {
      /* a listener's bug must not break the merge */
    }
  };
  /** Where the file really is, inside the workspace (null without a workspace root to check against). */
  const located = () => (opts.workspaceRoot ? checkWorkspaceLocation(opts.workspaceRoot, path.relative(opts.workspaceRoot, filePath)) : null);
  const refuse = (reason: string): void =>
    warn(`${filePath} was not updated: ${reason}. CAPE neither reads nor writes KPT through it; this session's KPT is in its retrospective file.`);
  const before = located();
  if (before && !before.ok) {
    refuse(before.reason);
    return { status: 'refused', warnings };
  }
  let keptAside: string | undefined;
  let status: KptMergeResult['status'] = 'merged';
  await withFileLock(
    filePath,
    async () => {
      // checked again under the lock, right before reading and writing
      const where = located();
      if (where && !where.ok) {
        refuse(where.reason);
        status = 'refused';
        return;
      }
      let bytes: Buffer | null = null;
      try {
        bytes = await fsp.readFile(filePath);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw fileReadError(filePath, err);
      }
      let existing = '';
      const notText = bytes ? notTextReason(bytes) : null;
      if (bytes && notText) {
        keptAside = await keepAside(filePath, now);
        warn(
          `${filePath} could not be merged (${notText}); it was kept unchanged as ${path.basename(keptAside)} and a new ` +
            'kpt_merged.md was started. Recover its items from there if you need them.',
        );
      } else if (bytes) {
        existing = bytes.toString('utf8');
      }
      // a link inside the workspace (checked above: where it leads is a place CAPE may write) is written through
      const target = where ? await writePathThroughLink(filePath, where.realPath) : filePath;
      await writeFileAtomic(target, mergeKptText(existing, taskId, lists, { updatedAt: now }));
      // teams: kpt_merged.md only grows by lines, so git's union driver merges two teammates' sessions
      if (opts.workspaceRoot) await ensureUnionMerge(opts.workspaceRoot, filePath, warn);
    },
    opts,
  );
  return { status, keptAside, warnings };
}

/** Renames `filePath` to `<name>.unreadable-<stamp>` (a free name) and returns the new path. */
async function keepAside(filePath: string, now: Date): Promise<string> {
  const base = `${filePath}.unreadable-${asideStamp(now)}`;
  for (let n = 0; ; n++) {
    const target = n ? `${base}-${n}` : base;
    try {
      await fsp.access(target);
      continue; // taken
    } catch {
      /* free */
    }
    await fsp.rename(filePath, target);
    return target;
  }
}

/**
 * Reads kpt_merged.md for the CM digest: a missing file is ''; a file outside the workspace (with `workspaceRoot`)
 * or one that is not text is not used, and `warning` says why (the merge keeps such a file aside later).
 */
export async function readKptText(filePath: string, workspaceRoot?: string): Promise<{ text: string; warning?: string }> {
  if (workspaceRoot) {
    const check = checkWorkspaceLocation(workspaceRoot, path.relative(workspaceRoot, filePath));
    if (!check.ok) return { text: '', warning: `${filePath} was not read: ${check.reason}. The Cape Master gets no KPT history.` };
  }
  let bytes: Buffer;
  try {
    bytes = await fsp.readFile(filePath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { text: '' };
    // a folder in its place: no history, as for a file that is not text; the session goes on (a merge says why)
    if ((err as NodeJS.ErrnoException).code === 'EISDIR') {
      return { text: '', warning: `${filePath} was not read: it is a folder, not a file. The Cape Master gets no KPT history; move the folder away so the next merge can write the file.` };
    }
    throw fileReadError(filePath, err);
  }
  const notText = notTextReason(bytes);
  if (notText) {
    return { text: '', warning: `${filePath} was not read: ${notText}. The Cape Master gets no KPT history; the next merge keeps the file aside.` };
  }
  return { text: bytes.toString('utf8') };
}

/** Reads and parses a kpt_merged.md; a missing file is an empty history. */
export async function readKptFile(filePath: string): Promise<KptItem[]> {
  try {
    return parseKpt(await fsp.readFile(filePath, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}
