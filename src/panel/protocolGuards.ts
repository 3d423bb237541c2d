// The guards of the panel protocol (protocol.ts): each side validates what it receives before acting on it. The host
// checks every webview message (isWebviewMessage: types, bounds, http(s) links only), since the webview renders model
// output and is never trusted blindly; the webview checks every host message (isHostMessage, isPanelEvent) and
// ignores anything else arriving on `window`. Plain TypeScript: no `vscode` import, shared by both bundles.
import { isPlainObject as isObject, STEP_IDS, type StepId } from '../core/model/types';
import { MAX_LINE } from '../core/session/evidence';
import { FILE_VIEW_STATUSES, type FileView, type HostMessage, type PanelEvent, type WebviewMessage } from './protocol';

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
