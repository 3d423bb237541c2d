// Classified model-call errors. Everything the LLM layer throws is an LlmError, so the session runner
// can tell a retryable hiccup (overloaded, dropped connection, stall) from a fatal problem (bad key,
// bad request, cancelled) and show the user a message that says what to do.
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AnthropicError,
} from '@anthropic-ai/sdk';
import type { ErrorKind } from '../model/types';

export interface LlmErrorOptions {
  status?: number;
  retryable?: boolean;
  retryAfterMs?: number;
  /** The API's error type (`overloaded_error`, `rate_limit_error`, …) when known. */
  apiErrorType?: string;
  /** The `request-id` of the failed request, for support tickets. */
  requestId?: string;
  cause?: unknown;
}

export const SET_KEY_HINT =
  "Set a valid key: CLI --api-key or ANTHROPIC_API_KEY; in VS Code run 'CAPE: Set Anthropic API Key'.";

export class LlmError extends Error {
  readonly kind: ErrorKind;
  readonly status?: number;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  readonly apiErrorType?: string;
  readonly requestId?: string;

  constructor(kind: ErrorKind, message: string, opts: LlmErrorOptions = {}) {
    super(message, opts.cause !== undefined ? { cause: opts.cause } : undefined);
    this.name = 'LlmError';
    this.kind = kind;
    this.status = opts.status;
    this.retryable = opts.retryable ?? false;
    this.retryAfterMs = opts.retryAfterMs;
    this.apiErrorType = opts.apiErrorType;
    this.requestId = opts.requestId;
  }

  /** No data arrived for `idleMs`: the request was aborted by the idle watchdog. Retryable. */
  static stalled(idleMs: number, baseURL?: string): LlmError {
    return new LlmError(
      'stalled',
      `The Anthropic API sent no data for ${formatSeconds(idleMs)} s${baseURL ? ` (${baseURL})` : ''}, ` +
        'so the request was aborted. The service may be slow or the connection stuck; the step will be retried.',
      { retryable: true },
    );
  }

  /** The user (or the caller's AbortSignal) cancelled the request. Never retried. */
  static cancelled(): LlmError {
    return new LlmError('cancelled', 'The request was cancelled.', { retryable: false });
  }
}

export function isLlmError(err: unknown): err is LlmError {
  return err instanceof LlmError;
}

export interface ErrorContext {
  /** The API base URL in use, named in network error messages. */
  baseURL?: string;
  /** The idle timeout, named in stall messages. */
  idleMs?: number;
  /** The SDK's response-headers timeout, named in timeout messages. */
  headersTimeoutMs?: number;
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return Number.isInteger(s) ? String(s) : s.toFixed(1);
}

/** Reads retry-after-ms / retry-after (seconds or HTTP date) from response headers. */
export function retryAfterFromHeaders(headers: { get(name: string): string | null } | undefined | null): number | undefined {
  if (!headers || typeof headers.get !== 'function') return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms) {
    const n = parseFloat(ms);
    if (Number.isFinite(n) && n >= 0) return n;
  }
  const ra = headers.get('retry-after');
  if (ra) {
    const secs = parseFloat(ra);
    if (Number.isFinite(secs) && /^\s*[\d.]+\s*$/.test(ra)) return Math.max(0, secs * 1000);
    const date = Date.parse(ra);
    if (Number.isFinite(date)) return Math.max(0, date - Date.now());
  }
  return undefined;
}

/** Error codes of Node/undici network failures, searched through the `cause` chain. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
  'CERT_HAS_EXPIRED',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
]);

/** The first network error code found in the cause chain, if any. */
function networkCode(err: unknown): string | undefined {
  const seen = new Set<unknown>();
  let e: any = err;
  while (e && typeof e === 'object' && !seen.has(e)) {
    seen.add(e);
    if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return e.code;
    // undici wraps several causes in an AggregateError (e.g. IPv4 + IPv6 refused)
    if (Array.isArray(e.errors)) for (const inner of e.errors) {
      const c = networkCode(inner);
      if (c) return c;
    }
    e = e.cause;
  }
  return undefined;
}

function isAbortLike(err: unknown): boolean {
  if (err instanceof APIUserAbortError) return true;
  const name = (err as any)?.name;
  return name === 'AbortError' || (name === 'DOMException' && (err as any)?.code === 20);
}

/** Messages of errors that mean "the stream ended before the reply was complete". */
const TRUNCATED_STREAM = /terminated|other side closed|socket hang up|stream ended without producing|request ended without sending any chunks|premature close|aborted by the server/i;

function apiText(err: APIError): string {
  const m = err.apiMessage ?? (err.error as any)?.error?.message ?? (err.error as any)?.message;
  return typeof m === 'string' && m.trim() ? m.trim() : '';
}

function withRequestId(message: string, requestId?: string | null): string {
  return requestId ? `${message} (request-id ${requestId})` : message;
}

/** Classifies one API error type string (from the body of an error response or `event: error`). */
function classifyApiError(
  status: number | undefined,
  type: string | undefined,
  detail: string,
  retryAfterMs: number | undefined,
  ctx: ErrorContext,
): { kind: ErrorKind; retryable: boolean; message: string } {
  const code = status ? ` (${status})` : '';
  const said = detail ? `: ${detail}` : '';
  const midstream = status === undefined ? ' in the middle of the reply' : '';
  if (status === 401 || type === 'authentication_error') {
    return {
      kind: 'auth',
      retryable: false,
      message: `The Anthropic API rejected the API key (401). ${SET_KEY_HINT}`,
    };
  }
  if (status === 403 || type === 'permission_error') {
    return {
      kind: 'auth',
      retryable: false,
      message: `The Anthropic API refused access${code}${said}. Check that the API key has access to this model and workspace. ${SET_KEY_HINT}`,
    };
  }
  if (status === 402 || type === 'billing_error') {
    return {
      kind: 'config',
      retryable: false,
      message: `The Anthropic API reported a billing problem${code}${said}. Check your plan and credit balance in the Anthropic Console.`,
    };
  }
  if (status === 429 || type === 'rate_limit_error') {
    const wait = retryAfterMs !== undefined ? ` The server asked to wait ${formatSeconds(retryAfterMs)} s.` : '';
    return {
      kind: 'rate_limit',
      retryable: true,
      message: `The Anthropic API rate limit was reached (429)${midstream}${said}.${wait} CAPE retries automatically; if it keeps happening, wait a minute or check your plan's rate limits.`,
    };
  }
  if (status === 529 || type === 'overloaded_error') {
    return {
      kind: 'overloaded',
      retryable: true,
      message: `The Anthropic API is temporarily overloaded (529)${midstream}. CAPE retries automatically; if it persists, try again in a few minutes or choose another model.`,
    };
  }
  if (status === 408 || status === 504 || type === 'timeout_error') {
    return {
      kind: 'network',
      retryable: true,
      message: `The Anthropic API timed out${code}${midstream}${said}. CAPE retries automatically.`,
    };
  }
  if ((status !== undefined && status >= 500) || type === 'api_error') {
    return {
      kind: 'unknown',
      retryable: true,
      message: `The Anthropic API returned a server error${code}${midstream}${said}. This is usually temporary; CAPE retries automatically.`,
    };
  }
  if (status === 409) {
    return { kind: 'unknown', retryable: true, message: `The Anthropic API reported a conflict (409)${said}. CAPE retries automatically.` };
  }
  if (status === 404 || type === 'not_found_error') {
    return {
      kind: 'config',
      retryable: false,
      message: `The Anthropic API answered "not found"${code}${said}. Check the model name and the base URL${ctx.baseURL ? ` (${ctx.baseURL})` : ''}.`,
    };
  }
  if (status === 413 || type === 'request_too_large') {
    return {
      kind: 'config',
      retryable: false,
      message: `The request was too large for the Anthropic API${code}${said}. Reduce the context (fewer or smaller cape/ files).`,
    };
  }
  if ((status !== undefined && status >= 400 && status < 500) || type === 'invalid_request_error') {
    return {
      kind: 'config',
      retryable: false,
      message: `The Anthropic API rejected the request${code || ' (400)'}${said}. Check the model name and settings.`,
    };
  }
  if (status === undefined) {
    // An `event: error` of a type we do not know: transient unless proven otherwise.
    return {
      kind: 'unknown',
      retryable: true,
      message: `The Anthropic API reported an error in the middle of the reply${type ? ` (${type})` : ''}${said}. CAPE retries automatically.`,
    };
  }
  return {
    kind: 'unknown',
    retryable: false,
    message: `The Anthropic API returned an unexpected status${code}${said}.`,
  };
}

/**
 * Turns anything thrown by the SDK (or by fetch underneath it) into an LlmError with a kind, a
 * retryable flag and an actionable message. An LlmError passes through unchanged.
 */
export function toLlmError(err: unknown, ctx: ErrorContext = {}): LlmError {
  if (err instanceof LlmError) return err;
  const where = ctx.baseURL ? ` at ${ctx.baseURL}` : '';

  if (isAbortLike(err)) return LlmError.cancelled();

  if (err instanceof APIConnectionTimeoutError) {
    const secs = ctx.headersTimeoutMs !== undefined ? ` within ${formatSeconds(ctx.headersTimeoutMs)} s` : '';
    return new LlmError(
      'stalled',
      `The Anthropic API${where} did not respond${secs}. The service may be slow or the connection stuck; CAPE retries automatically.`,
      { retryable: true, cause: err },
    );
  }

  if (err instanceof APIConnectionError) {
    const code = networkCode(err);
    return new LlmError(
      'network',
      `Could not connect to the Anthropic API${where}${code ? ` (${code})` : ''}. ` +
        'Check your network connection and proxy, or the base URL if you use a custom endpoint.',
      { retryable: true, cause: err },
    );
  }

  if (err instanceof APIError) {
    const status = typeof err.status === 'number' ? err.status : undefined;
    const type = (err.type as string | null) ?? (err.error as any)?.error?.type ?? undefined;
    const retryAfterMs = retryAfterFromHeaders(status !== undefined ? err.headers : undefined);
    const c = classifyApiError(status, type ?? undefined, apiText(err), retryAfterMs, ctx);
    return new LlmError(c.kind, withRequestId(c.message, err.requestID), {
      status,
      retryable: c.retryable,
      retryAfterMs,
      apiErrorType: type ?? undefined,
      requestId: err.requestID ?? undefined,
      cause: err,
    });
  }

  // Failures while reading the body: undici reports a reset or an early close as TypeError
  // "terminated" with a socket error as its cause; the SDK may wrap it in an AnthropicError.
  const code = networkCode(err);
  const msg = err instanceof Error ? err.message : String(err);
  if (code || TRUNCATED_STREAM.test(msg)) {
    return new LlmError(
      'network',
      `The connection to the Anthropic API${where} was lost before the reply was complete${code ? ` (${code})` : ''}. ` +
        'CAPE retries automatically; if it keeps happening, check your network or proxy.',
      { retryable: true, cause: err },
    );
  }

  if (err instanceof SyntaxError || (err instanceof AnthropicError && /JSON/i.test(msg))) {
    return new LlmError(
      'network',
      `The Anthropic API${where} sent a malformed stream (${msg}). CAPE retries automatically; if it persists, check any proxy between you and the API.`,
      { retryable: true, cause: err },
    );
  }

  return new LlmError('unknown', `Unexpected error calling the Anthropic API${where}: ${msg}`, {
    retryable: false,
    cause: err,
  });
}
