// What a proposal was made against, and whether the file on disk is still that: the stale check before Apply
// (src/edits/applyEdits.ts findStaleFiles asks the user; the CLI's --apply refuses: refuseChangedSinceProposal) and the
// proposals reloaded from DevA's step record (a resume, a window reload).
// Plain Node: nothing in src/core may import 'vscode'.
import { createHash } from 'crypto';
import * as fs from 'fs';
import type { ProposedFile } from '../model/types';
import type { StoredFile } from '../store/records';
import { checkFilePath, type PathCheckOptions } from './pathSafety';
import { proposeFiles } from './proposals';

/** The digest of a proposal's base (ProposedFile.baseSha256). */
export function textDigest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The digest of the text a proposal was made against (undefined for a new file). */
function baseDigest(f: ProposedFile): string | undefined {
  if (f.action !== 'modify') return undefined;
  return f.baseSha256 ?? (f.currentContent !== undefined ? textDigest(f.currentContent) : undefined);
}

/** DevA's files as the step record keeps them: with the action and the digest of the base, not its text. */
export function storedFiles(files: readonly ProposedFile[]): StoredFile[] {
  return files.map((f) => {
    const base = f.status === 'refused' ? undefined : baseDigest(f);
    return {
      path: f.path,
      content: f.content,
      action: f.action,
      ...(base ? { baseSha256: base } : {}),
      ...(f.status === 'refused' ? { status: f.status, reason: f.reason } : {}),
      ...(f.edit ? { edit: true } : {}),
      ...(f.warning ? { warning: f.warning } : {}),
    };
  });
}

/**
 * The record's files that were not refused, as proposals again (nothing is written): checked against the workspace
 * now (proposeFiles), with what DevA proposed them against put back — the action (a file created or deleted since
 * stays a 'create' or a 'modify') and the base digest — so the stale check compares the disk with the file DevA
 * saw, not with the disk at reload (its text is kept only while the disk still matches that digest). A record without
 * them (older) is taken as the disk now. Whether it is an <edit> and its warning come back as recorded.
 */
export async function reloadProposals(workspace: string, stored: readonly StoredFile[], opts: PathCheckOptions = {}): Promise<ProposedFile[]> {
  const kept = stored.filter((f) => f.status !== 'refused');
  const now = await proposeFiles(workspace, kept.map((f) => ({ path: f.path, content: f.content })), opts);
  return now.map((g, i) => {
    const was = kept[i];
    // what the review shows of the proposal: that it is an <edit>, and the unread-rewrite warning
    const f: ProposedFile = { ...g, ...(was.edit ? { edit: true } : {}), ...(typeof was.warning === 'string' ? { warning: was.warning } : {}) };
    if (f.status === 'refused' || (was.action !== 'create' && was.action !== 'modify')) return f;
    const { currentContent: _readNow, ...rest } = f;
    if (was.action === 'create') return { ...rest, action: 'create' };
    if (typeof was.baseSha256 === 'string') {
      // the disk still holds the base: its text is the base's (the retrospective shows what the proposal changes)
      const base = f.currentContent !== undefined && textDigest(f.currentContent) === was.baseSha256 ? { currentContent: f.currentContent } : {};
      return { ...rest, action: 'modify', baseSha256: was.baseSha256, ...base };
    }
    // an older record: the disk now is the best guess of the base
    return f.action === 'modify' ? f : { ...rest, action: 'modify' };
  });
}

/**
 * Why the file on disk (`disk`: its text, null when missing) is no longer what the proposal was made against, or
 * null: created meanwhile, deleted, or edited.
 */
export function changedSinceProposal(f: ProposedFile, disk: string | null): string | null {
  if (f.action === 'create' && disk !== null) return 'was created on disk after DevA proposed it';
  if (f.action === 'modify' && disk === null) return 'was deleted after DevA proposed a change to it';
  if (f.action !== 'modify' || disk === null) return null;
  const changed = f.baseSha256 !== undefined ? textDigest(disk) !== f.baseSha256 : f.currentContent !== undefined && disk !== f.currentContent;
  if (changed) return 'changed on disk since DevA read it';
  return null;
}

/**
 * The proposals, each one whose file changed since DevA proposed it (changedSinceProposal) refused with the reason: an
 * Apply that has nobody to ask (the CLI's --apply, also of a session resumed days later) would write over that change.
 * A path that is refused, or an entry that is not a file, is left to the pre-write check (checkBeforeWrite).
 */
export function refuseChangedSinceProposal(files: readonly ProposedFile[], workspace: string, opts: PathCheckOptions = {}): ProposedFile[] {
  return files.map((f) => {
    if (f.status !== 'proposed') return f;
    const check = checkFilePath(workspace, f.relPath ?? f.path, opts);
    if (!check.ok) return f;
    let disk: string | null = null;
    try {
      if (!fs.lstatSync(check.absPath).isFile()) return f;
      disk = fs.readFileSync(check.absPath, 'utf8');
    } catch {
      // missing (or gone meanwhile): null
    }
    // the disk already holds the proposal (applied before, e.g. by a first --apply of a resumed session): nothing is lost
    const why = disk === f.content ? null : changedSinceProposal(f, disk);
    return why ? { ...f, status: 'refused', reason: `${check.relPath} ${why}; not written over that change (let DevA propose again)` } : f;
  });
}
