// DevA's proposed files of the current session in the editor: the per-file decisions (ProposalSet), the diff
// preview from memory (cape-proposed: documents), Apply (one WorkspaceEdit after the shared pre-write check and a
// stale check), Discard, and the rebuild after a window reload. Nothing is written to the workspace before Apply;
// an untrusted workspace is read-only. The panel learns of every change through `onChange`.
import * as vscode from 'vscode';
import { reloadProposals, SessionStore, assertTaskId, type ProposedFile, type SessionEvent } from '../core';
import type { FileDecision, FileView } from '../panel/protocol';
import type { Services } from '../services';
import { applyAcceptedFiles, findStaleFiles, type ApplyContext, type ApplyOptions } from './applyEdits';
import { openProposedDiff } from './diff';
import { confirmStale, ProposalSet, type ProposalEntry } from './proposals';
import { warnRestricted } from '../commands/util';
import { PROPOSED_SCHEME, ProposedContentProvider } from './proposedContent';
import { showInformation, showWarning } from '../notify';

/** What changed, for the panel: the file list, or the trust state (Apply refused in Restricted Mode). */
export type ProposedFilesChange = 'files' | 'trust';

export class ProposedFilesService implements vscode.Disposable {
  private readonly proposals = new ProposalSet();
  private readonly content = new ProposedContentProvider();
  private readonly registration: vscode.Disposable;
  /** What the running Apply is doing (undefined when none runs). */
  private applying: string | undefined;

  constructor(
    private readonly services: Services,
    private readonly onChange: (what: ProposedFilesChange) => void,
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, this.content);
  }

  /** The panel rows (the authoritative `files` list). */
  views(): FileView[] {
    return this.proposals.views();
  }

  /** True once a session announced a task or files (then the panel is sent the list). */
  get hasProposal(): boolean {
    return this.proposals.taskId !== null || this.proposals.size > 0;
  }

  /** What the running Apply is doing now ("saving index.html"), or undefined when no Apply runs. */
  get applyStage(): string | undefined {
    return this.applying;
  }

  /** Files still waiting for a decision or Apply. */
  get pendingCount(): number {
    return this.proposals.pending().length;
  }

  /** Follows the runner's events: a new session starts a new proposal; DevA's files are added as they come. */
  track(e: SessionEvent): void {
    if (e.type === 'session-started') {
      if (!e.resumed || this.proposals.taskId !== e.taskId) this.reset(e.taskId);
    } else if (e.type === 'file-proposed') {
      this.proposals.add(e.file);
    } else if (e.type === 'session-finished') {
      // A resumed session past DevA announces its files only here.
      for (const f of e.files) this.proposals.add(f);
    }
  }

  /** Records accept/reject for one file (the panel's buttons); false for an unknown, refused or applied file. */
  decide(key: string, decision: FileDecision): boolean {
    const ok = this.proposals.decide(key, decision);
    if (!ok) this.services.output.warn(`ignored a ${decision} for ${JSON.stringify(key.slice(0, 200))}: not a pending proposed file`);
    this.onChange('files');
    return ok;
  }

  /** Opens the read-only diff of a proposed file (in `viewColumn`, else the active editor group). */
  async openDiff(key: string, viewColumn?: vscode.ViewColumn): Promise<void> {
    const entry = this.proposals.get(key);
    const root = this.services.workspaceRoot();
    if (!entry || !root) {
      void showWarning(`CAPE: ${key} is not among the current proposed files.`);
      return;
    }
    await openProposedDiff(entry, root, this.proposals.generation, this.content, viewColumn);
  }

  /** Drops every proposed file that was not applied. */
  discard(): void {
    const n = this.proposals.discard();
    this.services.output.info(`discarded ${n} proposed file(s)`);
    this.onChange('files');
  }

  /**
   * Writes the accepted files as one WorkspaceEdit. Refused in an untrusted workspace. Asks before overwriting
   * files that changed since the proposal (`ask` decides, again for a file that changed while it asked; by default a
   * modal dialog).
   */
  async apply(ask: (lines: string[]) => Thenable<boolean> = askApplyStale, opts: ApplyOptions = {}): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      warnRestricted('CAPE will not write files in Restricted Mode. Trust this workspace to apply the accepted files; you can still review the diffs.');
      this.onChange('trust');
      return;
    }
    const root = this.services.workspaceRoot();
    if (!root) return;
    if (this.applying !== undefined) {
      void showInformation(`CAPE is still applying the accepted files (${this.applying}).`);
      return;
    }
    const accepted = this.proposals.accepted();
    if (accepted.length === 0) {
      void showInformation('CAPE: accept at least one proposed file before applying.');
      return;
    }
    const out = this.services.output;
    this.applying = 'checking the accepted files';
    try {
      // The stage shows in the status bar while VS Code works (the refactor preview can stay open for minutes).
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: "CAPE: applying DevA's files" }, async (progress) => {
        const onStage = (stage: string) => {
          this.applying = stage;
          out.trace(`apply: ${stage}`);
          progress.report({ message: stage });
        };
        await this.applyNow(accepted, { root, capeFolder: this.services.settings().capeFolder, onStage }, ask, opts);
      });
    } finally {
      this.applying = undefined;
      this.onChange('files');
    }
  }

  private async applyNow(accepted: ProposalEntry[], ctx: ApplyContext, ask: (lines: string[]) => Thenable<boolean>, opts: ApplyOptions): Promise<void> {
    const out = this.services.output;
    // asked again for a file that changed while the question was open
    if (!(await confirmStale(() => findStaleFiles(accepted, ctx), ask))) {
      out.info('apply cancelled: files changed since the proposal');
      return;
    }
    const report = await applyAcceptedFiles(accepted, ctx, opts);
    // Each outcome goes to the entry that was applied: a session that proposed the same path again while the
    // refactor preview was open has a new entry, which keeps its own status.
    const byKey = new Map(accepted.map((e) => [e.key, e]));
    for (const o of report.outcomes) {
      const entry = byKey.get(o.key);
      if (entry && !this.proposals.settle(entry, o.status === 'failed' ? 'accepted' : o.status, o.reason)) {
        out.info(`${o.key}: proposed again while it was being applied; the new proposal keeps its status`);
      }
    }
    const applied = report.outcomes.filter((o) => o.status === 'applied');
    const problems = report.outcomes.filter((o) => o.status !== 'applied');
    out.info(`applied ${applied.length} file(s) in one edit; ${problems.length} not applied`);
    for (const p of problems) out.warn(`not applied: ${p.key}: ${p.reason ?? p.status}`);
    if (problems.length > 0) {
      void showWarning(
        `CAPE applied ${applied.length} file(s); ${problems.length} could not be applied: ${problems.map((p) => `${p.key} (${p.reason ?? p.status})`).join('; ')}`,
      );
    } else {
      void showInformation(`CAPE applied ${applied.length} file(s). Undo (Ctrl+Z / Cmd+Z in an editor) reverts them in one step.`);
    }
  }

  /**
   * After a window reload: rebuilds the proposal from DevA's saved step record (contents never went to the
   * webview) and the decisions the webview kept in its state (`views`). Does nothing once a session is running
   * or files are listed. `stillWanted` is asked again after each await.
   */
  async restore(taskId: string, views: readonly FileView[], stillWanted: () => boolean): Promise<void> {
    const root = this.services.workspaceRoot();
    if (!taskId || views.length === 0 || !root || this.proposals.size > 0 || !stillWanted()) return;
    try {
      assertTaskId(taskId);
      const capeFolder = this.services.settings().capeFolder;
      const rec = await new SessionStore(root, capeFolder).loadStep(taskId, 'deva');
      if (!rec || this.proposals.size > 0 || !stillWanted()) return;
      // refused files (e.g. an <edit> that never matched) have no content to propose; the others keep what DevA
      // proposed them against, for the stale check
      const files: ProposedFile[] = await reloadProposals(root, rec.files, { capeFolder });
      this.reset(taskId);
      for (const f of files) this.proposals.add(f);
      for (const v of views) {
        if (!v || typeof v.path !== 'string') continue;
        const entry = this.proposals.get(v.path);
        if (!entry || entry.status === 'refused') continue;
        if (v.status === 'accepted') this.proposals.decide(v.path, 'accept');
        else if (v.status === 'rejected') this.proposals.decide(v.path, 'reject');
        else if (v.status === 'applied') this.proposals.setStatus(v.path, 'applied');
      }
      this.services.output.info(`chat panel restored: ${files.length} proposed file(s) of ${taskId} reloaded from its DevA record`);
      this.onChange('files');
    } catch (err) {
      this.services.output.warn(`chat panel restored without its proposed files: ${(err as Error).message}`);
    }
  }

  private reset(taskId: string | null): void {
    this.proposals.reset(taskId);
    this.content.retainOnly(this.proposals.generation);
  }

  dispose(): void {
    this.registration.dispose();
    this.content.dispose();
  }
}

async function askApplyStale(lines: string[]): Promise<boolean> {
  const go = 'Apply Anyway';
  const choice = await showWarning(
    'Some files changed after DevA proposed them. Applying overwrites those changes.',
    { modal: true, detail: lines.join('\n') },
    go,
  );
  return choice === go;
}
