// Runs CAPE sessions in the editor: wires the parts that each do one thing —
//  - ./sessionRunner.ts    the run queue (one session at a time, cancel) over core's runSession;
//  - ./runOutcome.ts       how a run ended, told to the user;
//  - ./statusBar.ts        the status bar item and the `cape.sessionRunning` context key;
//  - ./transcript.ts       the current session's view-shaped events, replayed to a new panel;
//  - ../panel/panelBridge.ts   the chat panel (show, restore, post, typed message dispatch);
//  - ../edits/proposedFiles.ts DevA's proposed files (decisions, diff, apply, discard, restore).
// Every SessionEvent goes to the proposals (full data) and, view-shaped (../panel/viewData.ts), to the panel.
import * as vscode from 'vscode';
import { formatDuration, type SessionEvent } from '../core';
import { ProposedFilesService } from '../edits/proposedFiles';
import type { PanelRestorer } from '../panel/ChatPanel';
import { PanelBridge, type PanelActions } from '../panel/panelBridge';
import type { FileView } from '../panel/protocol';
import { toPanelEvent } from '../panel/viewData';
import type { Services, SessionControllerApi } from '../services';
import { reportCapeWarnings, reportRunOutcome } from './runOutcome';
import { SessionRunner } from './sessionRunner';
import { SessionStatusBar } from './statusBar';
import { Transcript } from './transcript';
import { showWarning } from '../notify';

export const NEXT_OBJECTIVE_PROMPT = 'What should the team work on next? Leave it empty to finish.';

export class SessionController implements SessionControllerApi, PanelRestorer {
  /** DevA's proposed files of the current session (also what tests drive: decide, openDiff, apply, discard). */
  readonly files: ProposedFilesService;
  private readonly runner: SessionRunner;
  private readonly panel: PanelBridge;
  private readonly status = new SessionStatusBar();
  private readonly transcript = new Transcript();
  /** The last session that failed (Retry in the panel resumes it from the failed step). */
  private lastFailedTaskId: string | null = null;
  private disposed = false;

  constructor(private readonly services: Services) {
    this.files = new ProposedFilesService(services, (what) => (what === 'files' ? this.panel.postFiles() : this.panel.postCapabilities()));
    this.panel = new PanelBridge(
      services,
      {
        running: () => this.running,
        transcript: () => this.transcript.list(),
        files: () => (this.files.hasProposal ? this.files.views() : null),
        adoptState: (state) => void this.adoptPanelState(state),
      },
      this.panelActions(),
    );
    this.runner = new SessionRunner(services, {
      onRunning: (run) => {
        this.status.setRunning(run);
        if (run) this.panel.ask(null);
        this.panel.postBusy(!!run);
      },
      onProgress: (run) => this.status.update(run),
      openView: () => this.showPanel(),
      whenViewReady: () => this.panel.whenReady(),
      onEvent: (e) => this.onEvent(e),
      onCapeWarnings: (w) => reportCapeWarnings(w, services.output),
      onEnded: (result, where) => {
        this.lastFailedTaskId = !result.ok && result.resumable && !result.needsAnswers ? result.taskId : null;
        reportRunOutcome(result, {
          ...where,
          output: services.output,
          panelVisible: this.panel.visible,
          pendingFiles: this.files.pendingCount,
          showPanel: () => this.showPanel(),
          resume: (taskId) => void this.resume(taskId),
        });
      },
    });
  }

  get running(): boolean {
    return this.runner.running;
  }

  start(objective: string): Promise<void> {
    return this.runner.run({ objective });
  }

  resume(taskId: string): Promise<void> {
    return this.runner.run({ resumeTaskId: taskId });
  }

  cancel(): void {
    this.runner.cancel();
  }

  showPanel(): void {
    if (!this.disposed) this.panel.show();
  }

  /** Adopts the panel VS Code restored after a reload (called by the panel serializer). */
  restorePanel(panel: vscode.WebviewPanel, state: unknown): void {
    this.panel.restore(panel, state);
  }

  private onEvent(e: SessionEvent): void {
    this.files.track(e);
    const shown = toPanelEvent(e, this.services.workspaceRoot());
    this.transcript.push(shown);
    this.log(e);
    this.panel.postEvent(shown);
    if (e.type === 'file-proposed' || e.type === 'session-finished') this.panel.postFiles();
    if (e.type === 'session-finished') this.panel.ask(NEXT_OBJECTIVE_PROMPT);
  }

  private log(e: SessionEvent): void {
    const out = this.services.output;
    if (e.type === 'error') out.warn(`${e.step ?? 'session'}: ${e.kind}: ${e.message}`);
    else if (e.type === 'retry') out.info(`${e.step}: retrying (attempt ${e.attempt}) in ${formatDuration(e.delayMs)}: ${e.reason}`);
    else if (e.type === 'continued') out.info(`${e.step}: the reply reached the output limit; continuation ${e.continuation} of at most ${e.max}`);
    else if (e.type === 'warning') out.warn(`${e.step}: ${e.message}`);
    else if (e.type === 'repair') out.info(`${e.step}: the reply did not validate, asking for a repair: ${e.error}`);
    else if (e.type === 'step-finished') out.info(`${e.step}: saved ${e.artifactPath} (${formatDuration(e.durationMs)})`);
  }

  /** What the panel's buttons do. */
  private panelActions(): PanelActions {
    return {
      stop: () => {
        if (this.running) this.cancel();
      },
      retry: async () => {
        const taskId = this.lastFailedTaskId ?? this.transcript.currentTaskId;
        if (taskId) await this.resume(taskId);
        else void showWarning('CAPE: there is no failed session to retry.');
      },
      resume: (msg) => this.resume(msg.taskId),
      answerQuestions: (msg) => this.runner.run({ resumeTaskId: msg.taskId, answers: msg.answers }),
      skipQuestions: (msg) => this.runner.run({ resumeTaskId: msg.taskId, skipQuestions: true }),
      openDiff: (msg) => this.files.openDiff(msg.path, this.panel.besideColumn()),
      setFileDecision: (msg) => this.files.decide(msg.path, msg.decision),
      applyFiles: () => this.files.apply(),
      reviewHunks: () => this.files.apply(undefined, { perHunk: true }),
      discardFiles: () => this.files.discard(),
      submitObjective: async (msg) => {
        // Only an answer to the host's question starts a session: the panel's box exists only then.
        if (!this.panel.takeAsk()) {
          this.services.output.warn('the chat panel sent an objective that was not asked for; ignored');
          return;
        }
        const text = msg.text.trim();
        if (text) await this.start(text);
        else this.services.output.info('interactive loop ended (empty objective)');
      },
    };
  }

  /** After a reload: the proposed files come back from DevA's record and the decisions the webview kept. */
  private async adoptPanelState(state: unknown): Promise<void> {
    const session = (state && typeof state === 'object' ? (state as { session?: unknown }).session : undefined) as
      | { taskId?: unknown; files?: unknown }
      | undefined;
    const taskId = typeof session?.taskId === 'string' ? session.taskId : '';
    const views = Array.isArray(session?.files) ? (session.files as FileView[]) : [];
    await this.files.restore(taskId, views, () => !this.running);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.runner.dispose();
    this.panel.dispose();
    this.files.dispose();
    this.status.dispose();
  }
}
