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
//  4. Validate every incoming message with `isWebviewMessage` before acting on it: the webview renders model
//     output, so the host never trusts it blindly (paths are re-checked against the proposed files, links are
//     re-checked to be http(s) before `vscode.env.openExternal`).
//
// Messages are plain JSON (structured-clone safe): no class instances, functions or undefined-only fields.

import { isPlainObject as isObject, STEP_IDS, type FileAction, type KptLists, type OpenQuestion, type SessionEvent, type SessionMetrics, type StepId } from '../core/model/types';
import { MAX_LINE } from '../core/session/evidence';

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

// ─── Guards ─────────────────────────────────────────────────────────────────────────────────────────────────

/** Upper bounds that keep a misbehaving webview from sending megabytes in a path or link. */
export const MAX_PATH_LENGTH = 4096;
export const MAX_HREF_LENGTH = 8192;
export const MAX_TEXT_LENGTH = 1_000_000;
/** Answers one message may carry (the Cape Master asks a few questions) and characters of one answer. */
export const MAX_ANSWERS = 20;
export const MAX_ANSWER_LENGTH = 20_000;

function isBoundedString(x: unknown, max: number, nonEmpty = false): x is string {
  return typeof x === 'string' && x.length <= max && (!nonEmpty || x.trim().length > 0);
}

export function isStepId(x: unknown): x is StepId {
  return typeof x === 'string' && (STEP_IDS as readonly string[]).includes(x);
}

/** true for an absolute http(s) URL without credentials — the only links the host may open externally. */
export function isSafeExternalHref(href: string): boolean {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
}

/** A non-empty, bounded path without NUL or control characters (they have no business in a path). */
function isTaskId(x: unknown): x is string {
  return isBoundedString(x, 256, true) && /^[\w.-]+$/.test(x);
}

/** A 1-based line number of a file. */
function isLineNumber(x: unknown): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x >= 1 && x <= MAX_LINE;
}

function isPlainPath(x: unknown): x is string {
  // eslint-disable-next-line no-control-regex
  return isBoundedString(x, MAX_PATH_LENGTH, true) && !/[\u0000-\u001f]/.test(x);
}

/**
 * Validates a message received from the webview. The host must call this before acting on any message.
 * Checks the type, every field's type and bounds, and that links are http(s). It does NOT check that a path
 * belongs to the proposed files — the host does that against its own list.
 */
export function isWebviewMessage(x: unknown): x is WebviewMessage {
  if (!isObject(x) || typeof x.type !== 'string') return false;
  switch (x.type) {
    case 'ready':
    case 'stop':
    case 'applyFiles':
    case 'reviewHunks':
    case 'discardFiles':
      return true;
    case 'retry':
      return isStepId(x.step);
    case 'resume':
    case 'skipQuestions':
      return isTaskId(x.taskId);
    case 'answerQuestions':
      return (
        isTaskId(x.taskId) &&
        Array.isArray(x.answers) &&
        x.answers.length > 0 &&
        x.answers.length <= MAX_ANSWERS &&
        x.answers.every((a) => isBoundedString(a, MAX_ANSWER_LENGTH)) &&
        x.answers.some((a) => (a as string).trim() !== '')
      );
    case 'openDiff':
      return isPlainPath(x.path);
    case 'openFile':
      return isPlainPath(x.path) && (x.line === undefined || isLineNumber(x.line)) && (x.endLine === undefined || isLineNumber(x.endLine));
    case 'setFileDecision':
      return isPlainPath(x.path) && (x.decision === 'accept' || x.decision === 'reject');
    case 'submitObjective':
      return isBoundedString(x.text, MAX_TEXT_LENGTH);
    case 'openLink':
      return isBoundedString(x.href, MAX_HREF_LENGTH, true) && isSafeExternalHref(x.href);
    case 'copy':
      return isBoundedString(x.text, MAX_TEXT_LENGTH);
    default:
      return false;
  }
}

const EVENT_TYPES = new Set([
  'session-started',
  'step-started',
  'voice-delta',
  'tool-call',
  'output-delta',
  'retry',
  'repair',
  'continued',
  'warning',
  'envelope',
  'file-proposed',
  'usage',
  'cost',
  'step-finished',
  'blocker',
  'blocker-answer',
  'needs-answers',
  'error',
  'session-finished',
  'check',
]);

/** Events whose `step` must be a StepId (for 'error' it may also be null). */
const STEP_EVENTS = new Set(['step-started', 'voice-delta', 'tool-call', 'output-delta', 'retry', 'repair', 'continued', 'warning', 'envelope', 'file-proposed', 'usage', 'step-finished', 'blocker', 'blocker-answer', 'check']);

const CHECK_EVENT_TYPES = new Set(['check-started', 'check-finished', 'formatted', 'not-written', 'fix-round', 'fix-applied', 'checks-finished']);

/**
 * A structural check of a PanelEvent: known type, valid step, and the fields the panel relies on have the right
 * primitive types. Nested model content (envelope fields) is still rendered defensively by the app.
 */
export function isPanelEvent(x: unknown): x is PanelEvent {
  if (!isObject(x) || typeof x.type !== 'string' || !EVENT_TYPES.has(x.type)) return false;
  if (STEP_EVENTS.has(x.type) && !isStepId(x.step)) return false;
  switch (x.type) {
    case 'session-started':
      return typeof x.taskId === 'string' && Array.isArray(x.steps) && x.steps.every(isStepId);
    case 'voice-delta':
      return typeof x.text === 'string';
    case 'warning':
      return typeof x.message === 'string';
    case 'tool-call':
      return isObject(x.call) && typeof x.call.tool === 'string' && typeof x.call.target === 'string' && typeof x.call.chars === 'number';
    case 'output-delta':
      return typeof x.chars === 'number' && Number.isSafeInteger(x.chars) && x.chars >= 0;
    case 'envelope':
      return isObject(x.envelope);
    case 'check':
      // A check's output is plain text the panel shows as text (never as markup); the fields are coerced on use.
      return isObject(x.event) && typeof x.event.type === 'string' && CHECK_EVENT_TYPES.has(x.event.type);
    case 'file-proposed':
      return isFileView(x.file);
    case 'blocker':
      return Array.isArray(x.questions) && x.questions.every((q) => typeof q === 'string') && typeof x.from === 'string' && typeof x.to === 'string';
    case 'blocker-answer':
      return typeof x.from === 'string' && typeof x.voice === 'string' && typeof x.answer === 'string';
    case 'needs-answers':
      return typeof x.taskId === 'string' && Array.isArray(x.questions) && x.questions.every((q) => typeof q === 'string');
    case 'error':
      return (x.step === null || isStepId(x.step)) && typeof x.message === 'string';
    case 'cost': {
      const usd = (v: unknown) => v === null || (typeof v === 'number' && Number.isFinite(v) && v >= 0);
      return usd(x.spentUsd) && usd(x.capUsd);
    }
    case 'session-finished':
      return typeof x.taskId === 'string' && (x.files === undefined || (Array.isArray(x.files) && x.files.every(isFileView)));
    default:
      return true;
  }
}

function isFileView(x: unknown): x is FileView {
  return (
    isObject(x) &&
    typeof x.path === 'string' &&
    (x.action === 'create' || x.action === 'modify') &&
    typeof x.status === 'string' &&
    (FILE_VIEW_STATUSES as readonly string[]).includes(x.status) &&
    (x.reason === undefined || typeof x.reason === 'string') &&
    (x.warning === undefined || typeof x.warning === 'string')
  );
}

/** Validates a message received from the host (the webview ignores anything else arriving on `window`). */
export function isHostMessage(x: unknown): x is HostMessage {
  if (!isObject(x) || typeof x.type !== 'string') return false;
  switch (x.type) {
    case 'event':
      return isPanelEvent(x.event);
    case 'reset':
      return x.state === undefined || (isObject(x.state) && typeof x.state.version === 'number');
    case 'files':
      return Array.isArray(x.files) && x.files.every(isFileView);
    case 'capabilities':
      return typeof x.trusted === 'boolean' && typeof x.provider === 'string' && typeof x.model === 'string';
    case 'busy':
      return typeof x.running === 'boolean';
    case 'askObjective':
      return typeof x.prompt === 'string';
    default:
      return false;
  }
}

/** Re-exported so host code can type the retro payload without importing core directly. */
export type { KptLists, SessionMetrics };
