// Apply: the accepted proposals become ONE vscode.WorkspaceEdit (one undo step), applied with
// workspace.applyEdit and then saved. Every file goes through core's checkProposalWrite (the same pre-write check as
// the CLI's --apply) right before the edit is built (a symlink or a protected folder that appeared since the
// proposal is still caught, and so is a proposal made for another workspace folder); refused files are never part
// of the edit. The check runs again right before each save, and after the edit for the new files VS Code wrote.
import * as fs from 'fs';
import * as vscode from 'vscode';
import { changedSinceProposal, checkFilePath, checkProposalWrite, documentHunks, hunkPlace, inDocumentForm } from '../core';
import { openDocumentOf, saveStep, type ProposalEntry, type StaleFile } from './proposals';
import { workspaceFileUri } from './diff';

/** The undo/redo label of the edit. */
export const APPLY_LABEL = "CAPE: apply DevA's files";

export interface ApplyOptions {
  /**
   * Review Hunks: one TextEdit per hunk (a new file is one entry), each needing confirmation and labelled with its
   * file so the file's hunks group in VS Code's refactor preview, where the user ticks the ones to keep (VS Code
   * opens it with them unticked). Still one WorkspaceEdit: one undo step.
   */
  perHunk?: boolean;
}

export interface ApplyContext {
  root: string;
  capeFolder: string;
  /** Told each step as it starts (reading a file, VS Code applying the edit, saving a file), for progress and logs. */
  onStage?: (stage: string) => void;
}

export interface ApplyOutcome {
  key: string;
  status: 'applied' | 'refused' | 'failed';
  reason?: string;
  /** The file's URI when it was part of the edit. */
  uri?: vscode.Uri;
}

export interface ApplyReport {
  outcomes: ApplyOutcome[];
  /** How many files went into the single WorkspaceEdit (0 = nothing was applied). */
  editedFiles: number;
  /** workspace.applyEdit's answer (false when nothing was applied). */
  applied: boolean;
}

function readOrNull(p: string): string | null {
  try {
    return fs.readFileSync(p, 'utf8');
  } catch {
    return null;
  }
}

function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  return openDocumentOf(vscode.workspace.textDocuments, uri);
}

/**
 * Files that changed since DevA proposed them: created meanwhile, deleted, edited on disk, or with unsaved
 * changes in an editor. Applying would overwrite those changes, so the caller asks first.
 */
export function findStaleFiles(entries: readonly ProposalEntry[], ctx: ApplyContext): StaleFile[] {
  const out: StaleFile[] = [];
  for (const e of entries) {
    const rel = e.file.relPath;
    if (!rel) continue;
    const check = checkFilePath(ctx.root, rel, { capeFolder: ctx.capeFolder });
    if (!check.ok) continue; // refused at apply time anyway
    const why = changedSinceProposal(e.file, readOrNull(check.absPath));
    if (why) out.push({ key: e.key, why });
    const doc = openDocument(workspaceFileUri(ctx.root, check.relPath));
    if (doc?.isDirty) out.push({ key: e.key, why: 'has unsaved changes in an editor' });
  }
  return out;
}

/**
 * Takes back a new file the edit created where it must not be: only the file with exactly the proposed content (the
 * edit created it, refusing to overwrite), so nothing else is ever removed. Says what became of it.
 */
function removeCreated(absPath: string, content: string): string {
  const there = readOrNull(absPath);
  if (there === null) return 'the new file is not there';
  if (normalise(there) !== normalise(content)) return `a file is there that is not the proposed one; it was left as it is: ${absPath}`;
  try {
    fs.unlinkSync(absPath);
    return 'the new file VS Code had created there was removed again';
  } catch (err) {
    return `the new file VS Code created there could not be removed (${(err as Error).message}); remove ${absPath} yourself`;
  }
}

const normalise = (s: string) => s.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');

/** How long Apply waits for VS Code to reload an open document whose file changed on disk (a busy machine can
 * take several seconds to report the change; an up-to-date document does not wait at all). */
const DOCUMENT_SYNC_WAIT_MS = 10_000;

/**
 * The document of an existing file, once VS Code has caught up with the disk: a clean document whose text still
 * differs from the file (the file changed, the reload is pending) would be edited in its stale state and then
 * fail to save with a conflict. Bounded wait; a dirty document is returned at once (the stale check asked).
 */
async function settledDocument(uri: vscode.Uri, absPath: string): Promise<vscode.TextDocument> {
  let doc = await vscode.workspace.openTextDocument(uri);
  const deadline = Date.now() + DOCUMENT_SYNC_WAIT_MS;
  while (!doc.isDirty && Date.now() < deadline) {
    const disk = readOrNull(absPath);
    if (disk === null || normalise(disk) === normalise(doc.getText())) break;
    await new Promise((r) => setTimeout(r, 100));
    doc = await vscode.workspace.openTextDocument(uri);
  }
  return doc;
}

/**
 * Builds and applies one WorkspaceEdit for `entries` (the accepted ones), saves the touched documents and reports
 * each file as applied, refused (safety re-check) or failed (the edit or the save did not go through).
 */
export async function applyAcceptedFiles(entries: readonly ProposalEntry[], ctx: ApplyContext, opts: ApplyOptions = {}): Promise<ApplyReport> {
  const outcomes: ApplyOutcome[] = [];
  const meta: vscode.WorkspaceEditEntryMetadata = { needsConfirmation: false, label: APPLY_LABEL };
  const hunkMeta = (relPath: string, description?: string): vscode.WorkspaceEditEntryMetadata => ({
    needsConfirmation: true,
    label: relPath,
    ...(description ? { description } : {}),
  });
  const stage = (what: string) => ctx.onStage?.(what);
  const before = new Map<string, string | null>();
  const planned: { key: string; uri: vscode.Uri; absPath: string; relPath: string; content: string; file: ProposalEntry['file'] }[] = [];

  for (const e of entries) {
    const check = checkProposalWrite(ctx.root, e.file, { capeFolder: ctx.capeFolder });
    if (!check.ok) {
      outcomes.push({ key: e.key, status: 'refused', reason: check.reason });
      continue;
    }
    planned.push({ key: e.key, uri: workspaceFileUri(ctx.root, check.relPath), absPath: check.absPath, relPath: check.relPath, content: e.file.content, file: e.file });
  }
  if (planned.length === 0) return { outcomes, editedFiles: 0, applied: false };

  // applyEdit refuses an edit made against a document version that changed meanwhile (e.g. VS Code reloading a
  // file that changed on disk): build the edit again from fresh documents once before giving up.
  let included: ((typeof planned)[number] & { replaced: boolean })[] = [];
  let ok = false;
  let why = 'VS Code did not apply the edit (another extension or a read-only file system may have blocked it)';
  // A cancelled refactor preview is the user's answer: never shown twice.
  const attempts = opts.perHunk ? 1 : 2;
  for (let attempt = 1; attempt <= attempts && !ok; attempt++) {
    if (attempt > 1) await new Promise((r) => setTimeout(r, 300));
    const edit = new vscode.WorkspaceEdit();
    const failedOpen: ApplyOutcome[] = [];
    included = [];
    for (const p of planned) {
      try {
        if (fs.existsSync(p.absPath)) {
          // Existing file (whatever DevA thought): replace the whole text of its document.
          stage(`reading ${p.relPath}`);
          const doc = await settledDocument(p.uri, p.absPath);
          const text = doc.getText();
          const eol = doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
          before.set(p.key, text);
          if (opts.perHunk) {
            for (const h of documentHunks(text, eol, p.content)) {
              edit.replace(p.uri, new vscode.Range(doc.positionAt(h.start), doc.positionAt(h.end)), h.text, hunkMeta(p.relPath, `${hunkPlace(h)}: −${h.removed} +${h.added}`));
            }
          } else {
            // the document keeps the file's BOM and line breaks: a BOM in the text would be a second one on save
            edit.replace(p.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(text.length)), inDocumentForm(p.content, text, eol), meta);
          }
          included.push({ ...p, replaced: true });
        } else {
          before.set(p.key, null);
          edit.createFile(p.uri, { overwrite: false, ignoreIfExists: false, contents: Buffer.from(p.content, 'utf8') }, opts.perHunk ? hunkMeta(p.relPath, 'new file') : meta);
          included.push({ ...p, replaced: false });
        }
      } catch (err) {
        failedOpen.push({ key: p.key, status: 'failed', reason: `could not open ${p.relPath}: ${(err as Error).message}` });
      }
    }
    if (included.length === 0) return { outcomes: [...outcomes, ...failedOpen], editedFiles: 0, applied: false };
    stage(
      opts.perHunk
        ? 'waiting for the refactor preview: tick the changes to keep, then Apply or Discard'
        : `VS Code is applying the edit to ${included.length} file(s)${attempt > 1 ? ' (second attempt)' : ''}`,
    );
    try {
      ok = await vscode.workspace.applyEdit(edit, opts.perHunk ? { isRefactoring: true } : undefined);
      if (!ok && opts.perHunk) why = 'the refactor preview was cancelled (or VS Code did not apply the edit)';
    } catch (err) {
      why = `the edit failed: ${(err as Error).message}`;
    }
    // Files VS Code could not open are told once: with the edit that went through, or after the last attempt.
    if (ok || attempt === attempts) outcomes.push(...failedOpen);
  }
  if (!ok) {
    for (const f of included) outcomes.push({ key: f.key, status: 'failed', reason: why, uri: f.uri });
    return { outcomes, editedFiles: included.length, applied: false };
  }

  const untickedReason = 'no change of this file was ticked in the refactor preview';
  for (const f of included) {
    const writable = () => checkProposalWrite(ctx.root, f.file, { capeFolder: ctx.capeFolder });
    stage(`checking ${f.relPath} again`);
    if (!f.replaced) {
      // VS Code wrote a new file's bytes itself, when the user applied (the refactor preview can stay open for
      // minutes): a folder on the way that became a link out of the workspace meanwhile took them outside.
      const again = writable();
      if (!again.ok) {
        outcomes.push({ key: f.key, status: 'refused', reason: `${again.reason} (checked again after the edit: ${removeCreated(f.absPath, f.content)})` });
        continue;
      }
    }
    const doc = f.replaced ? await vscode.workspace.openTextDocument(f.uri) : openDocument(f.uri);
    const was = before.get(f.key);
    const step = doc ? saveStep({ isDirty: doc.isDirty, text: doc.getText() }, was, !!opts.perHunk, writable) : 'saved';
    if (step === 'unticked') {
      // left as the user had it, unsaved changes included
      outcomes.push({ key: f.key, status: 'failed', reason: untickedReason, uri: f.uri });
      continue;
    }
    if (typeof step === 'object') {
      outcomes.push({ key: f.key, status: 'refused', reason: `${step.refused} (checked again before saving: the change is in its editor, not saved; undo it there)`, uri: f.uri });
      continue;
    }
    if (doc && step === 'save') {
      let saved = false;
      stage(`saving ${f.relPath}`);
      try {
        saved = await doc.save();
      } catch {
        saved = false;
      }
      if (!saved) {
        outcomes.push({ key: f.key, status: 'failed', reason: 'the edit was applied in the editor but could not be saved; save the file yourself', uri: f.uri });
        continue;
      }
    }
    const disk = readOrNull(f.absPath);
    if (opts.perHunk && (disk === null ? was === null : was !== undefined && was !== null && normalise(disk) === normalise(was))) {
      // Nothing of this file was ticked in the preview: it stays accepted, unchanged on disk.
      outcomes.push({ key: f.key, status: 'failed', reason: untickedReason, uri: f.uri });
    } else if (disk === null) {
      outcomes.push({ key: f.key, status: 'failed', reason: 'the file is not on disk after the edit', uri: f.uri });
    } else if (opts.perHunk && normalise(disk) !== normalise(f.content)) {
      outcomes.push({ key: f.key, status: 'applied', reason: 'applied the hunks ticked in the refactor preview; the others were left out', uri: f.uri });
    } else if (normalise(disk) !== normalise(f.content)) {
      // Save participants (format on save, final newline, trimming) may legitimately change the text.
      outcomes.push({ key: f.key, status: 'applied', reason: 'saved; the editor adjusted the text on save (formatting settings)', uri: f.uri });
    } else {
      outcomes.push({ key: f.key, status: 'applied', uri: f.uri });
    }
  }
  return { outcomes, editedFiles: included.length, applied: true };
}
