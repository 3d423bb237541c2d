// The typed message protocol between the extension host (src/panel/ChatPanel.ts) and the chat panel webview
// (media/app/). Plain TypeScript: no `vscode` import, so the webview bundle and unit tests can use it too.
//
// ─── How the host wires a panel ─────────────────────────────────────────────────────────────────────────────
//  1. Create the WebviewPanel with `enableScripts: true`, `localResourceRoots: [<extension>/dist]` and set
//     `webview.html = renderPanelHtml({ cspSource: webview.cspSource, nonce, scriptUri, styleUri, codiconsUri })`
//     (src/panel/html.ts) where the URIs are `webview.asWebviewUri(...)` of dist/webview.js,
//     dist/webview-style.css and dist/codicons/codicon.css. The page skeleton is:
//
//        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-N';
//              style-src CSP; font-src CSP; img-src CSP data:">
//        <link rel="stylesheet" href="codicon.css">  <link rel="stylesheet" href="webview-style.css">
//        <div id="cape-root"></div>                          ← PANEL_ROOT_ID; the app renders everything in it
//        <script nonce="N" src="webview.js"></script>
//
//  2. Wait for the webview's `{type:'ready'}` (sent once per load, also after a reload/restore). Then send
//     `capabilities`, the current `files` and `busy` state. A webview restored by the panel serializer already
//     has its own state (vscode.getState()); to replace it send `{type:'reset', state}` or `{type:'reset'}`.
//  3. Forward every SessionEvent of the runner as `{type:'event', event: toPanelEvent(e)}` in order. Send `busy` when a run starts
//     and ends, `files` whenever the file decisions or the apply result change (the host is authoritative: the
//     webview updates optimistically on Accept/Reject and is corrected by the next `files`), and `askObjective`
//     after the retrospective to continue the interactive loop.
//  4. Validate every incoming message with `isWebviewMessage` (protocolGuards.ts, with the webview's own guards)
//     before acting on it: the webview renders model output, so the host never trusts it blindly (paths are
//     re-checked against the proposed files, links are re-checked to be http(s) before `vscode.env.openExternal`).
//
// Messages are plain JSON (structured-clone safe): no class instances, functions or undefined-only fields.

import type { FileAction, KptLists, OpenQuestion, SessionEvent, SessionMetrics, StepId } from '../core/model/types';

/** id of the element the host page must contain; the app renders into it. */
export const PANEL_ROOT_ID = 'cape-root';

// ─── Shared shapes ──────────────────────────────────────────────────────────────────────────────────────────

/**
 * The status of one proposed file as shown in the panel.
 *  proposed – waiting for a decision; accepted / rejected – the user's decision, not yet applied;
 *  applied – written to the workspace; refused – blocked by the safety checks (see `reason`), cannot be accepted.
 */
export type FileViewStatus = 'proposed' | 'accepted' | 'rejected' | 'applied' | 'refused';
export const FILE_VIEW_STATUSES: readonly FileViewStatus[] = ['proposed', 'accepted', 'rejected', 'applied', 'refused'];

/** One row of the DevA files list. `path` is the key used in openDiff / setFileDecision / openFile. */
export interface FileView {
  path: string;
  action: FileAction;
  status: FileViewStatus;
  /** Why the file was refused (or why applying it failed). */
  reason?: string;
  /** A caution shown with the file, e.g. "rewrites a file that was not read". */
  warning?: string;
}

export type FileDecision = 'accept' | 'reject';

/** What the host tells the panel about its environment. */
export interface PanelCapabilities {
  /** false in an untrusted workspace: Apply is disabled with an explanation. */
  trusted: boolean;
  /** e.g. "Anthropic API" or "VS Code Language Model". */
  provider: string;
  model: string;
}

/**
 * The webview's serialisable view-state (what it stores with vscode.setState and what `reset` may carry).
 * Its exact shape belongs to the webview (media/app/viewState.ts, `PanelViewState`); the host treats it as opaque
 * JSON and only passes it back. `version` lets the webview discard states written by an older build.
 */
export interface OpaqueViewState {
  version: number;
  [key: string]: unknown;
}

/**
 * A runner event in the form the panel is sent (made by src/panel/viewData.ts `toPanelEvent`): proposed files as
 * FileViews (no absolute path, no contents), the streamed output as a character count (the panel shows progress,
 * never the raw JSON; the parsed envelope follows), artifact and retrospective paths workspace-relative, errors
 * without the raw reply. Every other event is forwarded as the runner emitted it.
 */
export type PanelEvent =
  | Exclude<SessionEvent, { type: 'file-proposed' | 'session-finished' | 'error' | 'output-delta' }>
  | { type: 'output-delta'; step: StepId; chars: number }
  | { type: 'file-proposed'; step: StepId; file: FileView }
  | { type: 'error'; step: StepId | null; kind: Extract<SessionEvent, { type: 'error' }>['kind']; message: string }
  | { type: 'session-finished'; taskId: string; retrospectivePath: string; kpt: KptLists; metrics: SessionMetrics; files: FileView[]; openQuestions: OpenQuestion[] };

// ─── Host → webview ─────────────────────────────────────────────────────────────────────────────────────────

export type HostMessage =
  /** One event of the session runner, in order and view-shaped (see PanelEvent). */
  | { type: 'event'; event: PanelEvent }
  /** Clear the panel (no state) or replace its whole view-state (e.g. the serializer's saved state). */
  | { type: 'reset'; state?: OpaqueViewState }
  /** The complete, authoritative list of proposed files and their statuses. */
  | { type: 'files'; files: FileView[] }
  | ({ type: 'capabilities' } & PanelCapabilities)
  /** A run started (true) or ended (false); enables the Stop button. */
  | { type: 'busy'; running: boolean }
  /** Ask the user for the next objective (the interactive loop after the retrospective). */
  | { type: 'askObjective'; prompt: string };

// ─── Webview → host ─────────────────────────────────────────────────────────────────────────────────────────

export type WebviewMessage =
  /** The app has loaded (and restored any saved state); the host may now send capabilities/files/busy. */
  | { type: 'ready' }
  /** Cancel the running session. */
  | { type: 'stop' }
  /** Run a failed step again. */
  | { type: 'retry'; step: StepId }
  /** Resume an interrupted session from its saved artifacts. */
  | { type: 'resume'; taskId: string }
  /** The user's answers to the Cape Master's blocking questions (in their order): the opening runs once more with them. */
  | { type: 'answerQuestions'; taskId: string; answers: string[] }
  /** "Continue anyway": the session goes on without answers to the Cape Master's questions. */
  | { type: 'skipQuestions'; taskId: string }
  /** Show the diff of a proposed file (both sides read-only). */
  | { type: 'openDiff'; path: string }
  | { type: 'setFileDecision'; path: string; decision: FileDecision }
  /** Write the accepted files to the workspace. */
  | { type: 'applyFiles' }
  /** Write the accepted files hunk by hunk: VS Code's refactor preview, where the user ticks single hunks. */
  | { type: 'reviewHunks' }
  /** Drop all proposed files. */
  | { type: 'discardFiles' }
  /** The next objective; an empty (or whitespace-only) text ends the interactive loop. */
  | { type: 'submitObjective'; text: string }
  /** A link the user clicked in rendered output (always http: or https:). */
  | { type: 'openLink'; href: string }
  /** A workspace-relative path the user clicked (a relative link in rendered output, an answer's evidence at its lines). */
  | { type: 'openFile'; path: string; line?: number; endLine?: number }
  /** Copy text to the clipboard. */
  | { type: 'copy'; text: string };

/** The webview messages that concern the session (the panel host answers ready, openLink, openFile and copy). */
export type SessionMessage = Exclude<WebviewMessage, { type: 'ready' | 'openLink' | 'openFile' | 'copy' }>;

/** Re-exported so host code can type the retro payload without importing core directly. */
export type { KptLists, SessionMetrics };
