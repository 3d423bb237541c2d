// The bridge between the session and the chat panel: owns the one ChatPanel (create, adopt after a reload,
// dispose), sends it what it shows (view-shaped: see ./viewData.ts), brings a (re)loaded webview up to date on
// `ready`, and dispatches the webview's session messages to typed actions, one handler per message type (like
// vscode-pull-request-github's webviews). Link, file and clipboard messages stay in ChatPanel.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { ChatPanel, type ChatPanelHandlers } from './ChatPanel';
import type { FileView, HostMessage, PanelEvent, SessionMessage } from './protocol';
import { showError } from '../notify';

/** How long a starting session waits for a loading chat panel. */
export const PANEL_READY_WAIT_MS = 5000;

/** One handler per session message type; the compiler checks that every type has one. */
export type PanelActions = { [K in SessionMessage['type']]: (msg: Extract<SessionMessage, { type: K }>) => unknown };

/** What the bridge reads from the session when a panel (re)loads. */
export interface PanelSource {
  running(): boolean;
  /** The current session's events so far (replayed to a new panel). */
  transcript(): readonly PanelEvent[];
  /** The proposed files, or null before any session proposed a task. */
  files(): FileView[] | null;
  /** A restored panel's saved state: the session may rebuild what it needs from it (e.g. the proposed files). */
  adoptState(state: unknown): void;
}

export class PanelBridge implements vscode.Disposable {
  private panel: ChatPanel | undefined;
  /** The prompt of the pending "next objective" question, re-sent to a panel that (re)loads. */
  private askPending: string | null = null;
  private disposed = false;
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly services: Services,
    private readonly source: PanelSource,
    private readonly actions: PanelActions,
  ) {
    this.disposables = [
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.postCapabilities()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('cape')) this.postCapabilities();
      }),
    ];
  }

  get visible(): boolean {
    return !!this.panel?.visible;
  }

  /** Where the panel opens a file or diff so as not to cover itself (undefined without a panel: the active group). */
  besideColumn(): vscode.ViewColumn | undefined {
    return this.panel && !this.panel.isDisposed ? this.panel.besideColumn() : undefined;
  }

  show(): void {
    if (this.disposed) return;
    if (this.panel && !this.panel.isDisposed) {
      this.panel.reveal(false);
      return;
    }
    this.panel = ChatPanel.create(this.services.context.extensionUri, this.handlers());
  }

  /** Adopts the panel VS Code restored after a reload (called by the panel serializer). */
  restore(panel: vscode.WebviewPanel, state: unknown): void {
    if (this.panel && !this.panel.isDisposed) {
      // Already have one (e.g. a session started before the restore): keep a single panel.
      panel.dispose();
      this.panel.reveal(true);
      return;
    }
    this.panel = ChatPanel.restore(panel, this.services.context.extensionUri, this.handlers());
    this.source.adoptState(state);
    // The next-objective box the panel shows again after a window reload is still a question the host asked.
    const ask = state && typeof state === 'object' ? (state as { ask?: { prompt?: unknown } | null }).ask : undefined;
    if (this.askPending === null && !this.source.running() && typeof ask?.prompt === 'string') this.askPending = ask.prompt;
  }

  /** Waits (bounded) until a panel that is still loading said ready; anything missed is replayed on ready. */
  async whenReady(): Promise<void> {
    if (this.panel && !this.panel.isReady) await this.panel.whenReady(PANEL_READY_WAIT_MS);
  }

  post(msg: HostMessage): void {
    this.panel?.post(msg);
  }

  postEvent(event: PanelEvent): void {
    this.post({ type: 'event', event });
  }

  postFiles(): void {
    const files = this.source.files();
    if (files) this.post({ type: 'files', files });
  }

  postBusy(running: boolean): void {
    this.post({ type: 'busy', running });
  }

  /** Asks for the next objective (the interactive loop); kept until answered or a session starts. */
  ask(prompt: string | null): void {
    this.askPending = prompt;
    if (prompt) this.post({ type: 'askObjective', prompt });
  }

  /** Whether the next objective was asked for (then no longer): the panel's answer counts only once, and only then. */
  takeAsk(): boolean {
    const asked = this.askPending !== null;
    this.askPending = null;
    return asked;
  }

  postCapabilities(): void {
    this.post({ type: 'capabilities', trusted: vscode.workspace.isTrusted, ...this.services.provider.describe() });
  }

  private handlers(): ChatPanelHandlers {
    return {
      onMessage: (msg) => void this.dispatch(msg),
      onReady: (panel, first) => this.onReady(panel, first),
      onDispose: (panel) => {
        if (this.panel === panel) this.panel = undefined;
      },
      workspaceRoot: () => this.services.workspaceRoot(),
      log: this.services.output,
    };
  }

  private onReady(panel: ChatPanel, first: boolean): void {
    // A new panel (not restored) gets the current session replayed; a restored or reloaded webview has its state.
    const transcript = this.source.transcript();
    if (first && !panel.restored && transcript.length > 0) {
      panel.post({ type: 'reset' });
      for (const event of transcript) panel.post({ type: 'event', event });
    }
    this.postCapabilities();
    this.postFiles();
    const running = this.source.running();
    panel.post({ type: 'busy', running });
    if (this.askPending && !running) panel.post({ type: 'askObjective', prompt: this.askPending });
  }

  private async dispatch(msg: SessionMessage): Promise<void> {
    const handler = this.actions[msg.type] as ((m: SessionMessage) => unknown) | undefined;
    if (!handler) return;
    try {
      await handler(msg);
    } catch (err) {
      this.services.output.error(`chat panel action ${msg.type} failed: ${(err as Error).message}`);
      void showError(`CAPE: ${(err as Error).message}`);
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.panel?.dispose();
    this.panel = undefined;
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
