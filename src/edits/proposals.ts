// DevA's proposed files and the user's per-file decisions, as the host keeps them between the proposal and Apply.
// Plain TypeScript (no `vscode` import): edits/proposedFiles.ts owns one ProposalSet and the panel is sent `views()` as
// the authoritative `{type:'files'}` list.
import type { FileDecision, FileView, FileViewStatus } from '../panel/protocol';
import { fileView } from '../panel/viewData';
import { samePathKey, type ProposedFile } from '../core';

export interface ProposalEntry {
  /** The key the panel uses: the FileView path (relPath when the path was safe, else the raw path). */
  key: string;
  file: ProposedFile;
  status: FileViewStatus;
  reason?: string;
}

export class ProposalSet {
  private entries: ProposalEntry[] = [];
  private _taskId: string | null = null;
  /** Bumped whenever the set is replaced, so virtual documents of an older proposal are never confused with it. */
  private _generation = 0;

  get taskId(): string | null {
    return this._taskId;
  }
  get generation(): number {
    return this._generation;
  }
  get size(): number {
    return this.entries.length;
  }

  /** Drops everything and starts a new proposal for `taskId`. */
  reset(taskId: string | null): void {
    this.entries = [];
    this._taskId = taskId;
    // Time-based so two controllers (or an extension restart) never reuse a generation for different content.
    this._generation = Math.max(this._generation + 1, Date.now());
  }

  /**
   * Adds (or replaces) one proposal. The same key twice (DevA wrote a path twice): core already refused the
   * earlier block as a duplicate, so a refused entry never replaces a live one, and a live one replaces a refused
   * duplicate. Returns false when the file was not added.
   */
  add(file: ProposedFile): boolean {
    const view = fileView(file);
    if (!view.path) return false;
    const key = view.path;
    const next: ProposalEntry = { key, file, status: view.status, ...(view.reason ? { reason: view.reason } : {}) };
    const i = this.entries.findIndex((e) => e.key === key);
    if (i < 0) {
      this.entries.push(next);
      return true;
    }
    const prev = this.entries[i];
    if (next.status === 'refused' && prev.status !== 'refused') return false;
    // A decision already taken on the same content survives a repeated announcement (resume, session-finished).
    if (prev.file.content === file.content && prev.status !== 'refused' && next.status === 'proposed') return false;
    this.entries[i] = next;
    return true;
  }

  get(key: string): ProposalEntry | undefined {
    return this.entries.find((e) => e.key === key);
  }

  /** Records accept/reject. Refused and applied files cannot change; returns false for those and unknown keys. */
  decide(key: string, decision: FileDecision): boolean {
    const e = this.get(key);
    if (!e || e.status === 'refused' || e.status === 'applied') return false;
    e.status = decision === 'accept' ? 'accepted' : 'rejected';
    // A failed earlier apply attempt leaves a reason behind; a new decision clears it.
    if (e.file.status !== 'refused') delete e.reason;
    return true;
  }

  accepted(): ProposalEntry[] {
    return this.entries.filter((e) => e.status === 'accepted');
  }

  /** Files still waiting for Apply (proposed or accepted). */
  pending(): ProposalEntry[] {
    return this.entries.filter((e) => e.status === 'proposed' || e.status === 'accepted');
  }

  setStatus(key: string, status: FileViewStatus, reason?: string): void {
    const e = this.get(key);
    if (e) setEntryStatus(e, status, reason);
  }

  /** Apply's outcome for `entry`, when it is still listed (not replaced by a newer proposal); false otherwise. */
  settle(entry: ProposalEntry, status: FileViewStatus, reason?: string): boolean {
    if (!this.entries.includes(entry)) return false;
    setEntryStatus(entry, status, reason);
    return true;
  }

  /** Discard: drops every file that was not applied; the applied ones stay listed. Returns how many were dropped. */
  discard(): number {
    const before = this.entries.length;
    this.entries = this.entries.filter((e) => e.status === 'applied');
    return before - this.entries.length;
  }

  /** The panel rows. */
  views(): FileView[] {
    return this.entries.map((e) => fileView(e.file, { status: e.status, reason: e.reason }));
  }
}

function setEntryStatus(e: ProposalEntry, status: FileViewStatus, reason?: string): void {
  e.status = status;
  if (reason) e.reason = reason;
  else delete e.reason;
}

/** One file that changed since DevA proposed it, and how (applyEdits.ts findStaleFiles). */
export interface StaleFile {
  key: string;
  why: string;
}

/** How many times Apply asks about files that keep changing before it gives up (nothing applied). */
const MAX_STALE_QUESTIONS = 5;

/**
 * Whether Apply may go on: true when no file changed since the proposal, or the user approved overwriting each one
 * (`confirm` is shown one line per file and change). The question may stay open long (a modal dialog): the files
 * are looked at again after each answer, and a change the answers did not name is asked about too.
 */
export async function confirmStale(findStale: () => StaleFile[], confirm: (lines: string[]) => PromiseLike<boolean>): Promise<boolean> {
  const approved = new Set<string>();
  for (let asked = 0; asked < MAX_STALE_QUESTIONS; asked++) {
    const lines = findStale()
      .map((s) => `${s.key} ${s.why}`)
      .filter((l) => !approved.has(l));
    if (lines.length === 0) return true;
    if (!(await confirm(lines))) return false;
    for (const l of lines) approved.add(l);
  }
  return false;
}

/** What Apply does with a document its edit touched: save it, nothing to save, none of its hunks ticked, or refused. */
export type SaveStep = 'save' | 'saved' | 'unticked' | { refused: string };

/**
 * What Apply does with a document after its edit (`before`: the document's text when the edit was built). Review
 * Hunks (`perHunk`) that left it as it was (none of its hunks ticked): not saved, its unsaved changes are the user's.
 * Otherwise the pre-write check (`writable`) runs again right before the save, which is the write: the refactor
 * preview can stay open for minutes, and a folder on the way may have become a link out of the workspace meanwhile.
 */
export function saveStep(
  doc: { isDirty: boolean; text: string },
  before: string | null | undefined,
  perHunk: boolean,
  writable: () => { ok: true } | { ok: false; reason: string },
): SaveStep {
  if (!doc.isDirty) return 'saved';
  if (perHunk && typeof before === 'string' && doc.text === before) return 'unticked';
  const again = writable();
  return again.ok ? 'save' : { refused: again.reason };
}

/** A document as VS Code lists it (workspace.textDocuments), as far as finding one by its file goes. */
export interface DocumentLike {
  uri: { scheme: string; fsPath: string };
}

/**
 * The open document of the file `target` among `docs`: the same name, else the same name as samePathKey folds it
 * (case, Unicode normalization). On macOS and Windows an editor may show the file under another case than DevA wrote,
 * and its unsaved changes must still be seen; on a case-sensitive file system the fold at worst asks once too often.
 */
export function openDocumentOf<T extends DocumentLike>(docs: readonly T[], target: DocumentLike['uri']): T | undefined {
  const same = docs.filter((d) => d.uri.scheme === target.scheme);
  const key = samePathKey(target.fsPath);
  return same.find((d) => d.uri.fsPath === target.fsPath) ?? same.find((d) => samePathKey(d.uri.fsPath) === key);
}
