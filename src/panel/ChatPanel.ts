// The chat panel host: one WebviewPanel ('cape.chat') showing the session as it streams. This file owns the
// webview plumbing only (HTML with a fresh nonce, resource roots, message validation, link/file/clipboard
// actions); what a message *means* for the session is decided by the PanelBridge (./panelBridge.ts) through
// `handlers`.
//
// Delivery rule: messages posted before the webview said `ready` are dropped, not queued: the controller keeps
// the session transcript and the bridge replays it on the first `ready` of a new panel, so nothing is sent twice.
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { renderPanelHtml } from './html';
import type { HostMessage, SessionMessage } from './protocol';
import { isSafeExternalHref, isWebviewMessage } from './protocolGuards';
import type { Services } from '../services';
import { isInside } from '../core';
import { showError, showWarning } from '../notify';

export const CHAT_VIEW_TYPE = 'cape.chat';
export const CHAT_TITLE = 'CAPE Session';

export interface ChatPanelHandlers {
  /** A validated message that concerns the session (stop, retry, resume, files, objective). */
  onMessage(msg: SessionMessage, panel: ChatPanel): void;
  /** The webview loaded (`first`: the first load of this panel; false after a webview reload). */
  onReady(panel: ChatPanel, first: boolean): void;
  onDispose(panel: ChatPanel): void;
  /** Workspace root for openFile (undefined without a folder). */
  workspaceRoot(): string | undefined;
  log: vscode.LogOutputChannel;
}

export class ChatPanel implements vscode.Disposable {
  private ready = false;
  private loads = 0;
  private readyWaiters: (() => void)[] = [];
  private disposed = false;
  private readonly disposables: vscode.Disposable[] = [];

  /** Creates a new panel beside the active editor. */
  static create(extensionUri: vscode.Uri, handlers: ChatPanelHandlers): ChatPanel {
    const panel = vscode.window.createWebviewPanel(
      CHAT_VIEW_TYPE,
      CHAT_TITLE,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      { ...ChatPanel.webviewOptions(extensionUri), retainContextWhenHidden: true },
    );
    return new ChatPanel(panel, extensionUri, handlers, false);
  }

  /** Adopts a panel VS Code restored after a reload (the webview restores its own state from getState()). */
  static restore(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, handlers: ChatPanelHandlers): ChatPanel {
    return new ChatPanel(panel, extensionUri, handlers, true);
  }

  static webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
    return {
      enableScripts: true,
      enableCommandUris: false,
      enableForms: false,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist')],
    };
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly extensionUri: vscode.Uri,
    private readonly handlers: ChatPanelHandlers,
    readonly restored: boolean,
  ) {
    const webview = panel.webview;
    webview.options = ChatPanel.webviewOptions(extensionUri);
    panel.title = CHAT_TITLE;
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'cape.svg');
    webview.html = this.html();
    this.disposables.push(
      webview.onDidReceiveMessage((m: unknown) => this.receive(m)),
      panel.onDidDispose(() => this.onPanelDisposed()),
    );
  }

  get visible(): boolean {
    return !this.disposed && this.panel.visible;
  }
  get isReady(): boolean {
    return this.ready && !this.disposed;
  }
  get isDisposed(): boolean {
    return this.disposed;
  }

  /**
   * Resolves true once the webview has loaded (said `ready`), false after `timeoutMs` or when the panel closes.
   * The controller waits briefly for it before the first request so the user sees the stream from its start.
   */
  whenReady(timeoutMs: number): Promise<boolean> {
    if (this.isReady) return Promise.resolve(true);
    if (this.disposed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(false), timeoutMs);
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.readyWaiters = this.readyWaiters.filter((w) => w !== wake);
        resolve(ok);
      };
      const wake = () => done(this.isReady);
      this.readyWaiters.push(wake);
    });
  }

  reveal(preserveFocus = false): void {
    if (!this.disposed) this.panel.reveal(undefined, preserveFocus);
  }

  /** Sends a message once the webview is ready; returns false when it was dropped (not ready or disposed). */
  post(msg: HostMessage): boolean {
    if (!this.isReady) return false;
    this.panel.webview.postMessage(msg).then(undefined, (err: unknown) => this.handlers.log.warn(`chat panel: postMessage failed: ${String(err)}`));
    return true;
  }

  private html(): string {
    const webview = this.panel.webview;
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const script = vscode.Uri.joinPath(dist, 'webview.js');
    if (!fs.existsSync(script.fsPath)) {
      this.handlers.log.error(`chat panel: ${script.fsPath} is missing; build the extension (npm run build).`);
    }
    return renderPanelHtml({
      cspSource: webview.cspSource,
      nonce: crypto.randomBytes(18).toString('base64'),
      scriptUri: webview.asWebviewUri(script).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview-style.css')).toString(),
      codiconsUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'codicons', 'codicon.css')).toString(),
      title: CHAT_TITLE,
    });
  }

  private receive(raw: unknown): void {
    if (!isWebviewMessage(raw)) {
      const type = raw && typeof raw === 'object' ? String((raw as { type?: unknown }).type).slice(0, 40) : typeof raw;
      this.handlers.log.warn(`chat panel: ignored an invalid message from the webview (type ${type})`);
      return;
    }
    const msg = raw;
    switch (msg.type) {
      case 'ready': {
        this.ready = true;
        this.loads++;
        this.handlers.onReady(this, this.loads === 1);
        for (const wake of this.readyWaiters.slice()) wake();
        return;
      }
      case 'openLink':
        // Validated as http(s) by isWebviewMessage; checked again here because it leaves the editor.
        // the URL as checked (normalised), not the raw text, which VS Code's parser may read otherwise (" https://x")
        if (isSafeExternalHref(msg.href)) void vscode.env.openExternal(vscode.Uri.parse(new URL(msg.href).toString(), true));
        return;
      case 'copy':
        void vscode.env.clipboard.writeText(msg.text);
        return;
      case 'openFile':
        void this.openWorkspaceFile(msg.path, msg.line, msg.endLine);
        return;
      default:
        this.handlers.onMessage(msg, this);
    }
  }

  /**
   * Opens a workspace file the user clicked, in an editor group beside the panel, with lines `line`–`endLine`
   * selected when given (past the file's end: its last line); anything resolving outside the workspace is refused.
   */
  private async openWorkspaceFile(p: string, line?: number, endLine?: number): Promise<void> {
    const root = this.handlers.workspaceRoot();
    if (!root) {
      void showWarning('CAPE: open a folder to open files from the session.');
      return;
    }
    const rel = p.replace(/\\/g, '/').replace(/^\.\//, '');
    const abs = path.resolve(root, rel);
    let real: string;
    let realRoot: string;
    try {
      real = fs.realpathSync.native(abs);
      realRoot = fs.realpathSync.native(root);
    } catch {
      void showWarning(`CAPE: ${rel} does not exist in the workspace.`);
      return;
    }
    // the one "is inside" rule of core: a name that merely starts with two dots (`..notes.md`) is inside
    if (path.isAbsolute(rel) || !isInside(realRoot, real, { strict: true })) {
      this.handlers.log.warn(`chat panel: refused to open ${JSON.stringify(p.slice(0, 200))}: outside the workspace`);
      void showWarning('CAPE: only files inside the workspace can be opened from the panel.');
      return;
    }
    if (!fs.statSync(real).isFile()) {
      void showWarning(`CAPE: ${rel} is not a file.`);
      return;
    }
    try {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(real));
      const last = doc.lineCount - 1;
      const from = line === undefined ? undefined : Math.min(line - 1, last);
      const to = from === undefined ? undefined : Math.max(from, Math.min((endLine ?? line!) - 1, last));
      const selection = from === undefined ? undefined : new vscode.Range(from, 0, to!, doc.lineAt(to!).text.length);
      // beside the panel, not over it: the user reads the file next to the answer that cited it
      const editor = await vscode.window.showTextDocument(doc, { preview: true, viewColumn: this.besideColumn(), ...(selection ? { selection } : {}) });
      if (selection) editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    } catch (err) {
      void showError(`CAPE: could not open ${rel}: ${(err as Error).message}`);
    }
  }

  /**
   * The editor group for what the panel opens (a file, a diff): not the panel's own, which it would cover — the
   * first group, or the second (made when missing) when the panel is in the first. Always the same one, so files
   * and diffs opened one after the other share a group instead of each opening a new one.
   */
  besideColumn(): vscode.ViewColumn {
    return this.panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
  }

  private onPanelDisposed(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.ready = false;
    for (const wake of this.readyWaiters.slice()) wake();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.handlers.onDispose(this);
  }

  dispose(): void {
    if (this.disposed) return;
    this.panel.dispose(); // fires onDidDispose → onPanelDisposed
    this.onPanelDisposed();
  }
}

/** What the serializer needs from the controller (implemented by SessionController). */
export interface PanelRestorer {
  restorePanel(panel: vscode.WebviewPanel, state: unknown): void;
}

function isPanelRestorer(x: unknown): x is PanelRestorer {
  return !!x && typeof (x as PanelRestorer).restorePanel === 'function';
}

/**
 * Restores the chat panel after a window reload: VS Code recreates the WebviewPanel and the webview reloads its
 * own state (vscode.getState()); the controller adopts the panel and re-sends capabilities/files/busy on `ready`.
 */
export function registerChatPanelSerializer(services: Services): vscode.Disposable {
  return vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, {
    async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
      restoreChatPanel(services, panel, state);
    },
  });
}

/** Hands a panel VS Code recreated to the controller (closes it when the controller cannot adopt it). */
export function restoreChatPanel(services: Services, panel: vscode.WebviewPanel, state: unknown): void {
  const controller = services.controller;
  if (!isPanelRestorer(controller)) {
    services.output.warn('chat panel: the session controller cannot restore panels; closing the restored panel');
    panel.dispose();
    return;
  }
  controller.restorePanel(panel, state);
}
