// Runs CAPE sessions in the editor and owns the chat panel and DevA's proposed files.
//
//  - start/resume → provider.getClient('session') → core runSession, every SessionEvent forwarded to the panel;
//  - one session at a time (a second start asks: stop the running one, or start when it is done);
//  - Stop / CAPE: Cancel Session abort the HTTP request through an AbortController;
//  - context key `cape.sessionRunning`, a status bar item while running (click → the panel);
//  - untrusted workspace = read-only: no sessions (they write cape/5_sessions), no Apply;
//  - proposed files: accept/reject per file, diff preview from memory, Apply = one WorkspaceEdit after a path
//    re-check and a stale check. Nothing is written to the workspace before Apply.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { requireTrust } from '../commands/util';
import {
  runSession,
  type SessionResult,
  SessionStore,
  assertTaskId,
  proposeFiles,
  STEP_AGENT,
  STEP_IDS,
  type ProposedFile,
  type SessionEvent,
  type StepId,
} from '../core';
import { applyAcceptedFiles, findStaleFiles } from '../edits/applyEdits';
import { openProposedDiff } from '../edits/diff';
import { ProposalSet } from '../edits/proposals';
import { PROPOSED_SCHEME, ProposedContentProvider } from '../edits/proposedContent';
import { ChatPanel, type ChatPanelHandlers, type PanelRestorer } from '../panel/ChatPanel';
import type { FileView, HostMessage, WebviewMessage } from '../panel/protocol';
import type { Services, SessionControllerApi } from '../services';
import { Transcript } from './transcript';

export const RUNNING_CONTEXT_KEY = 'cape.sessionRunning';
/** How long a starting session waits for a loading chat panel. */
export const PANEL_READY_WAIT_MS = 5000;
export const NEXT_OBJECTIVE_PROMPT = 'What should the team work on next? Leave it empty to finish.';

const STEP_LABEL: Record<StepId, string> = {
  cm_open: 'CM opening',
  poa: 'POA',
  da: 'DA',
  deva: 'DevA',
  cm_retro: 'CM retrospective',
};

interface RunRequest {
  objective?: string;
  resumeTaskId?: string;
}

interface CurrentRun {
  abort: AbortController;
  taskId: string | null;
  step: StepId | null;
  done: Promise<void>;
}

/** Checks that a folder is open; offers "Open Folder" otherwise. */
export function requireWorkspaceRoot(services: Services): string | undefined {
  const root = services.workspaceRoot();
  if (root) return root;
  void vscode.window.showErrorMessage('CAPE works on a folder: open the project folder first.', 'Open Folder').then((choice) => {
    if (choice) void vscode.commands.executeCommand('workbench.action.files.openFolder');
  });
  return undefined;
}

export class SessionController implements SessionControllerApi, PanelRestorer {
  private panel: ChatPanel | undefined;
  private current: CurrentRun | undefined;
  private readonly transcript = new Transcript();
  private readonly proposals = new ProposalSet();
  private readonly content = new ProposedContentProvider();
  private readonly status: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  /** The prompt of the pending "next objective" question, re-sent to a panel that (re)loads. */
  private askPending: string | null = null;
  /** The last session that failed (Retry in the panel resumes it from the failed step). */
  private lastFailed: { taskId: string; step: StepId | null } | null = null;
  private applying = false;
  private disposed = false;

  constructor(private readonly services: Services) {
    this.status = vscode.window.createStatusBarItem('cape.session', vscode.StatusBarAlignment.Left, 100);
    this.status.name = 'CAPE Session';
    this.status.command = 'cape.showPanel';
    this.disposables.push(
      this.status,
      this.content,
      vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, this.content),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.postCapabilities()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('cape')) this.postCapabilities();
      }),
    );
    void vscode.commands.executeCommand('setContext', RUNNING_CONTEXT_KEY, false);
  }

  get running(): boolean {
    return this.current !== undefined;
  }

  /** The proposed files as the panel sees them (for tests and other views). */
  fileViews(): FileView[] {
    return this.proposals.views();
  }

  // ─── sessions ─────────────────────────────────────────────────────────────────────────────────────────────

  start(objective: string): Promise<void> {
    return this.run({ objective });
  }

  resume(taskId: string): Promise<void> {
    return this.run({ resumeTaskId: taskId });
  }

  cancel(): void {
    const cur = this.current;
    if (!cur) {
      void vscode.window.showInformationMessage('No CAPE session is running.');
      return;
    }
    if (!cur.abort.signal.aborted) {
      this.services.output.info(`session ${cur.taskId ?? '(starting)'}: cancelled by the user${cur.step ? ` during ${cur.step}` : ''}`);
      cur.abort.abort();
    }
  }

  private async run(req: RunRequest): Promise<void> {
    if (this.disposed) return;
    // One session at a time.
    while (this.current) {
      const cur = this.current;
      const stop = 'Stop It and Start';
      const wait = 'Start When It Ends';
      const what = req.resumeTaskId ? `resume ${req.resumeTaskId}` : 'start a new session';
      const choice = await vscode.window.showWarningMessage(
        `A CAPE session is running${cur.taskId ? ` (${cur.taskId}${cur.step ? `, ${STEP_LABEL[cur.step]}` : ''})` : ''}. Only one session runs at a time: stop it and ${what} now, or ${what} when it ends?`,
        { modal: true },
        stop,
        wait,
      );
      if (choice === stop) {
        if (this.current === cur) cur.abort.abort();
        await cur.done;
      } else if (choice === wait) {
        await cur.done;
      } else {
        return;
      }
    }

    const root = requireWorkspaceRoot(this.services);
    if (!root) return;
    if (!requireTrust(req.resumeTaskId ? 'resume a session' : 'start a session')) return;
    if (req.resumeTaskId) {
      try {
        assertTaskId(req.resumeTaskId);
      } catch (err) {
        void vscode.window.showErrorMessage(`CAPE: ${(err as Error).message}`);
        return;
      }
    } else if (!req.objective || !req.objective.trim()) {
      void vscode.window.showErrorMessage('CAPE: the objective is empty. Say what the team should work on.');
      return;
    }

    // Claim the single slot before the first await so a concurrent start sees it.
    let finish!: () => void;
    const run: CurrentRun = { abort: new AbortController(), taskId: req.resumeTaskId ?? null, step: null, done: new Promise<void>((r) => (finish = r)) };
    this.current = run;
    this.setRunning(true);
    this.askPending = null;
    try {
      try {
        this.showPanel();
      } catch (err) {
        // The session still runs (and is saved) without a panel; the log says why the panel failed.
        this.services.output.error(`the chat panel could not be opened: ${(err as Error).message}`);
      }
      const resolved = await this.services.provider.getClient('session');
      if (!resolved) {
        this.services.output.info('session not started: no model client (the prompt was cancelled)');
        return;
      }
      if (run.abort.signal.aborted) {
        this.services.output.info('session not started: cancelled before the first request');
        return;
      }
      // Let a panel that is still loading come up first, so the stream is seen from its first word (bounded: a
      // session never waits long for its view; anything missed is replayed when the panel says ready).
      if (this.panel && !this.panel.isReady) await this.panel.whenReady(PANEL_READY_WAIT_MS);
      const settings = this.services.settings();
      this.services.output.info(
        `${req.resumeTaskId ? `resuming ${req.resumeTaskId}` : 'starting a session'} with ${resolved.label} (model ${resolved.model}) in ${root}`,
      );
      const warnings: string[] = [];
      const result = await runSession({
        workspace: root,
        capeFolder: settings.capeFolder || 'cape',
        objective: req.objective,
        language: settings.language || 'English',
        model: resolved.model,
        llm: resolved.client,
        prompts: this.services.prompts,
        onEvent: (e) => this.onEvent(e, run),
        onWarning: (w) => {
          // The loader reports all its issues at once, before the first step: one notification for the batch.
          warnings.push(w);
          if (warnings.length === 1) setTimeout(() => this.reportCapeWarnings(warnings), 0);
        },
        signal: run.abort.signal,
        ...(req.resumeTaskId ? { resume: true, taskId: req.resumeTaskId } : {}),
      });
      this.afterRun(result, root, settings.capeFolder || 'cape');
    } catch (err) {
      // runSession reports model/config failures in its result; anything thrown is unexpected.
      const message = err instanceof Error ? err.message : String(err);
      this.services.output.error(`session failed unexpectedly: ${message}`);
      void vscode.window.showErrorMessage(`CAPE: the session failed unexpectedly: ${message}`, 'Show Log').then((c) => {
        if (c) this.services.output.show(true);
      });
    } finally {
      if (this.current === run) this.current = undefined;
      this.setRunning(false);
      this.services.refreshTrees();
      finish();
    }
  }

  /** cape/ files that were skipped or are missing: logged, and one notification that opens the log. */
  private reportCapeWarnings(warnings: string[]): void {
    for (const w of warnings) this.services.output.warn(w);
    const first = warnings[0];
    const more = warnings.length > 1 ? ` (and ${warnings.length - 1} more)` : '';
    void vscode.window.showWarningMessage(`CAPE: ${first}${more}`, 'Show Log').then((c) => {
      if (c) this.services.output.show(true);
    });
  }

  private afterRun(result: SessionResult, root: string, capeFolder: string): void {
    const out = this.services.output;
    if (result.ok) {
      this.lastFailed = null;
      out.info(`session ${result.taskId} finished; retrospective ${result.retrospectivePath ?? '(none)'}; ${result.files.length} file(s) proposed`);
      const pending = this.proposals.pending().length;
      if (!this.panel?.visible) {
        void vscode.window
          .showInformationMessage(`CAPE session ${result.taskId} finished${pending ? `: ${pending} file(s) proposed for review` : ''}.`, 'Show Panel')
          .then((c) => {
            if (c) this.showPanel();
          });
      }
      return;
    }
    const error = result.error ?? { step: null, kind: 'unknown' as const, message: 'The session failed.' };
    out.error(`session ${result.taskId || '(not started)'} failed at ${error.step ?? 'setup'} (${error.kind}): ${error.message}`);
    if (result.taskId) this.lastFailed = { taskId: result.taskId, step: error.step };
    const resumable = !!result.taskId && fs.existsSync(new SessionStore(root, capeFolder).statePath(result.taskId));
    switch (error.kind) {
      case 'auth':
        void vscode.window.showErrorMessage(`CAPE: ${error.message}`, 'Set API Key').then((c) => {
          if (c) void vscode.commands.executeCommand('cape.setApiKey');
        });
        return;
      case 'cancelled':
        void vscode.window
          .showInformationMessage(`CAPE session cancelled. Completed steps are saved${resumable ? '; resume it any time' : ''}.`, ...(resumable ? ['Resume'] : []))
          .then((c) => {
            if (c && result.taskId) void this.resume(result.taskId);
          });
        return;
      case 'config':
        if (!fs.existsSync(path.join(root, capeFolder))) {
          void vscode.window.showErrorMessage(`CAPE: ${error.message}`, 'Initialize Project').then((c) => {
            if (c) void vscode.commands.executeCommand('cape.initProject');
          });
          return;
        }
        void vscode.window.showErrorMessage(`CAPE: ${error.message}`);
        return;
      default:
        // The panel shows Retry / Resume on the failed step; a notification helps when the panel is hidden.
        if (!this.panel?.visible || !resumable) {
          void vscode.window
            .showErrorMessage(`CAPE: ${error.message}`, ...(resumable ? ['Resume', 'Show Panel'] : ['Show Panel']))
            .then((c) => {
              if (c === 'Resume' && result.taskId) void this.resume(result.taskId);
              else if (c === 'Show Panel') this.showPanel();
            });
        }
    }
  }

  private onEvent(e: SessionEvent, run: CurrentRun): void {
    this.transcript.push(e);
    switch (e.type) {
      case 'session-started':
        run.taskId = e.taskId;
        if (!e.resumed || this.proposals.taskId !== e.taskId) this.resetProposals(e.taskId);
        this.updateStatus(run);
        break;
      case 'step-started':
        run.step = e.step;
        this.updateStatus(run);
        break;
      case 'file-proposed':
        this.proposals.add(e.file);
        break;
      case 'session-finished':
        // A resumed session past DevA announces its files only here.
        for (const f of e.files) this.proposals.add(f);
        this.askPending = NEXT_OBJECTIVE_PROMPT;
        break;
      case 'error':
        this.services.output.warn(`${e.step ?? 'session'}: ${e.kind}: ${e.message}`);
        break;
      case 'retry':
        this.services.output.info(`${e.step}: retrying (attempt ${e.attempt}) in ${e.delayMs} ms: ${e.reason}`);
        break;
      case 'repair':
        this.services.output.info(`${e.step}: the reply did not validate, asking for a repair: ${e.error}`);
        break;
      case 'step-finished':
        this.services.output.info(`${e.step}: saved ${e.artifactPath} (${e.durationMs} ms)`);
        break;
    }
    this.post({ type: 'event', event: e });
    if (e.type === 'file-proposed' || e.type === 'session-finished') this.postFiles();
    if (e.type === 'session-finished') this.post({ type: 'askObjective', prompt: NEXT_OBJECTIVE_PROMPT });
  }

  private resetProposals(taskId: string | null): void {
    this.proposals.reset(taskId);
    this.content.retainOnly(this.proposals.generation);
  }

  private setRunning(running: boolean): void {
    void vscode.commands.executeCommand('setContext', RUNNING_CONTEXT_KEY, running);
    if (running) {
      this.updateStatus(this.current);
      this.status.show();
    } else {
      this.status.hide();
    }
    this.post({ type: 'busy', running });
  }

  private updateStatus(run: CurrentRun | undefined): void {
    if (!run) return;
    this.status.text = `$(sync~spin) CAPE: ${run.step ? STEP_LABEL[run.step] : 'starting'}…`;
    this.status.tooltip = `CAPE session${run.taskId ? ` ${run.taskId}` : ''} is running. Click to show the chat panel.`;
  }

  // ─── panel ────────────────────────────────────────────────────────────────────────────────────────────────

  showPanel(): void {
    if (this.disposed) return;
    if (this.panel && !this.panel.isDisposed) {
      this.panel.reveal(false);
      return;
    }
    this.panel = ChatPanel.create(this.services.context.extensionUri, this.panelHandlers());
  }

  /** Adopts the panel VS Code restored after a reload (called by the panel serializer). */
  restorePanel(panel: vscode.WebviewPanel, state: unknown): void {
    if (this.panel && !this.panel.isDisposed) {
      // Already have one (e.g. a session started before the restore): keep a single panel.
      panel.dispose();
      this.panel.reveal(true);
      return;
    }
    this.panel = ChatPanel.restore(panel, this.services.context.extensionUri, this.panelHandlers());
    void this.restoreProposals(state);
  }

  private panelHandlers(): ChatPanelHandlers {
    return {
      onMessage: (msg) => void this.onMessage(msg),
      onReady: (panel, first) => this.onPanelReady(panel, first),
      onDispose: (panel) => {
        if (this.panel === panel) this.panel = undefined;
      },
      workspaceRoot: () => this.services.workspaceRoot(),
      log: this.services.output,
    };
  }

  private post(msg: HostMessage): void {
    this.panel?.post(msg);
  }

  private postFiles(): void {
    this.post({ type: 'files', files: this.proposals.views() });
  }

  private postCapabilities(): void {
    const s = this.services.settings();
    this.post({
      type: 'capabilities',
      trusted: vscode.workspace.isTrusted,
      provider: s.provider === 'vscode-lm' ? 'VS Code Language Model' : 'Anthropic API',
      model: s.model,
    });
  }

  private onPanelReady(panel: ChatPanel, first: boolean): void {
    // A new panel (not restored) gets the current session replayed; a restored or reloaded webview has its state.
    if (first && !panel.restored && this.transcript.list().length > 0) {
      panel.post({ type: 'reset' });
      for (const event of this.transcript.list()) panel.post({ type: 'event', event });
    }
    this.postCapabilities();
    if (this.proposals.taskId !== null || this.proposals.size > 0) this.postFiles();
    panel.post({ type: 'busy', running: this.running });
    if (this.askPending && !this.running) panel.post({ type: 'askObjective', prompt: this.askPending });
  }

  /** After a reload: rebuild the proposals from DevA's saved step record and the decisions the webview kept. */
  private async restoreProposals(state: unknown): Promise<void> {
    const session = (state && typeof state === 'object' ? (state as { session?: unknown }).session : undefined) as
      | { taskId?: unknown; files?: unknown }
      | undefined;
    const taskId = typeof session?.taskId === 'string' ? session.taskId : '';
    const views = Array.isArray(session?.files) ? (session!.files as FileView[]) : [];
    const root = this.services.workspaceRoot();
    if (!taskId || views.length === 0 || !root || this.proposals.size > 0 || this.running) return;
    try {
      assertTaskId(taskId);
      const capeFolder = this.services.settings().capeFolder || 'cape';
      const rec = await new SessionStore(root, capeFolder).loadStep(taskId, 'deva');
      if (!rec || this.proposals.size > 0 || this.running) return;
      const files = await proposeFiles(root, rec.files.map((f) => ({ path: f.path, content: f.content })), { capeFolder });
      this.resetProposals(taskId);
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
      this.postFiles();
    } catch (err) {
      this.services.output.warn(`chat panel restored without its proposed files: ${(err as Error).message}`);
    }
  }

  private async onMessage(msg: WebviewMessage): Promise<void> {
    try {
      switch (msg.type) {
        case 'stop':
          if (this.running) this.cancel();
          return;
        case 'retry':
          if (this.lastFailed) await this.resume(this.lastFailed.taskId);
          else if (this.transcript.currentTaskId) await this.resume(this.transcript.currentTaskId);
          else void vscode.window.showWarningMessage('CAPE: there is no failed session to retry.');
          return;
        case 'resume':
          await this.resume(msg.taskId);
          return;
        case 'openDiff':
          await this.openDiff(msg.path);
          return;
        case 'setFileDecision':
          if (!this.proposals.decide(msg.path, msg.decision)) {
            this.services.output.warn(`ignored a ${msg.decision} for ${JSON.stringify(msg.path.slice(0, 200))}: not a pending proposed file`);
          }
          this.postFiles();
          return;
        case 'applyFiles':
          await this.applyFiles();
          return;
        case 'discardFiles':
          this.discardFiles();
          return;
        case 'submitObjective': {
          this.askPending = null;
          const text = msg.text.trim();
          if (text) await this.start(text);
          else this.services.output.info('interactive loop ended (empty objective)');
          return;
        }
        default:
          return;
      }
    } catch (err) {
      this.services.output.error(`chat panel action ${msg.type} failed: ${(err as Error).message}`);
      void vscode.window.showErrorMessage(`CAPE: ${(err as Error).message}`);
    }
  }

  // ─── proposed files ───────────────────────────────────────────────────────────────────────────────────────

  /** Records a decision for one proposed file (same as the panel's Accept / Reject). */
  setFileDecision(key: string, decision: 'accept' | 'reject'): boolean {
    const ok = this.proposals.decide(key, decision);
    this.postFiles();
    return ok;
  }

  /** Opens the read-only diff of a proposed file. */
  async openDiff(key: string): Promise<void> {
    const entry = this.proposals.get(key);
    const root = this.services.workspaceRoot();
    if (!entry || !root) {
      void vscode.window.showWarningMessage(`CAPE: ${key} is not among the current proposed files.`);
      return;
    }
    await openProposedDiff(entry, root, this.proposals.generation, this.content);
  }

  /** Drops every proposed file that was not applied. */
  discardFiles(): void {
    const n = this.proposals.discard();
    this.services.output.info(`discarded ${n} proposed file(s)`);
    this.postFiles();
  }

  /**
   * Writes the accepted files as one WorkspaceEdit. Refused in an untrusted workspace. Asks before overwriting
   * files that changed since the proposal (`confirmStale` decides; by default a modal dialog).
   */
  async applyFiles(confirmStale: (lines: string[]) => Thenable<boolean> = (l) => this.askApplyStale(l)): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      void vscode.window
        .showWarningMessage(
          'CAPE will not write files in Restricted Mode. Trust this workspace to apply the accepted files; you can still review the diffs.',
          'Manage Workspace Trust',
        )
        .then((c) => {
          if (c) void vscode.commands.executeCommand('workbench.trust.manage');
        });
      this.postCapabilities();
      return;
    }
    const root = this.services.workspaceRoot();
    if (!root) return;
    if (this.applying) return;
    const accepted = this.proposals.accepted();
    if (accepted.length === 0) {
      void vscode.window.showInformationMessage('CAPE: accept at least one proposed file before applying.');
      return;
    }
    this.applying = true;
    try {
      const ctx = { root, capeFolder: this.services.settings().capeFolder || 'cape' };
      const stale = findStaleFiles(accepted, ctx);
      if (stale.length > 0 && !(await confirmStale(stale.map((s) => `${s.key} ${s.why}`)))) {
        this.services.output.info('apply cancelled: files changed since the proposal');
        return;
      }
      const report = await applyAcceptedFiles(accepted, ctx);
      for (const o of report.outcomes) this.proposals.setStatus(o.key, o.status === 'failed' ? 'accepted' : o.status, o.reason);
      const applied = report.outcomes.filter((o) => o.status === 'applied');
      const problems = report.outcomes.filter((o) => o.status !== 'applied');
      this.services.output.info(`applied ${applied.length} file(s) in one edit; ${problems.length} not applied`);
      for (const p of problems) this.services.output.warn(`not applied: ${p.key}: ${p.reason ?? p.status}`);
      if (problems.length > 0) {
        void vscode.window.showWarningMessage(
          `CAPE applied ${applied.length} file(s); ${problems.length} could not be applied: ${problems.map((p) => `${p.key} (${p.reason ?? p.status})`).join('; ')}`,
        );
      } else {
        void vscode.window.showInformationMessage(`CAPE applied ${applied.length} file(s). Undo (Ctrl+Z / Cmd+Z in an editor) reverts them in one step.`);
      }
    } finally {
      this.applying = false;
      this.postFiles();
    }
  }

  private async askApplyStale(lines: string[]): Promise<boolean> {
    const go = 'Apply Anyway';
    const choice = await vscode.window.showWarningMessage(
      'Some files changed after DevA proposed them. Applying overwrites those changes.',
      { modal: true, detail: lines.join('\n') },
      go,
    );
    return choice === go;
  }

  /** The proposed files of the current session (with their content), e.g. for other views. */
  proposedFiles(): ProposedFile[] {
    return this.proposals.all().map((e) => e.file);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.current?.abort.abort();
    this.panel?.dispose();
    this.panel = undefined;
    for (const d of this.disposables.splice(0)) d.dispose();
    void vscode.commands.executeCommand('setContext', RUNNING_CONTEXT_KEY, false);
  }
}

/** Step labels for other UI (status bar, quick picks). */
export function stepLabel(step: StepId | null | undefined): string {
  return step && (STEP_IDS as readonly string[]).includes(step) ? `${STEP_LABEL[step]} (${STEP_AGENT[step]})` : 'setup';
}
