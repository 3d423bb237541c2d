// Classified model-call errors. Everything the LLM layer throws is an LlmError, so the session runner
// can tell a retryable hiccup (overloaded, dropped connection, stall) from a fatal problem (bad key,
// bad request, cancelled) and show the user a message that says what to do.
// SDK-free: the Anthropic SDK's error classes are classified in llm/anthropic/errors.ts, which falls back to
// toLlmError below for anything that is not an SDK error (network codes, aborts, truncated streams).
import type { ErrorKind, Usage } from '../model/types';
import { formatDuration } from '../model/dates';
import { CLI_KEY_WAYS } from './credentials';

export interface LlmErrorOptions {
  status?: number;
  retryable?: boolean;
  retryAfterMs?: number;
  /** The API's error type (`overloaded_error`, `rate_limit_error`, …) when known. */
  apiErrorType?: string;
  /** The `request-id` of the failed request, for support tickets. */
  requestId?: string;
  /** What the request used before it broke off (its reply had started): billed, so counted in the spend. */
  usage?: Usage;
  cause?: unknown;
}

export const SET_KEY_HINT = `Set a valid key: CLI ${CLI_KEY_WAYS}; in VS Code run 'CAPE: Set Anthropic API Key'.`;

/**
 * The phrase every retryable error's message carries while retries remain. When the step's attempts are used up,
 * retriesExhausted() replaces it, so the last message never promises a retry that will not happen.
 */
export const RETRY_NOTE = 'CAPE retries automatically';

export class LlmError extends Error {
  readonly kind: ErrorKind;
  readonly status?: number;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  readonly apiErrorType?: string;
  readonly requestId?: string;
  /** What the request used before it broke off (set by the client that saw its reply start). */
  usage?: Usage;

  constructor(kind: ErrorKind, message: string, opts: LlmErrorOptions = {}) {
    super(message, opts.cause !== undefined ? { cause: opts.cause } : undefined);
    this.name = 'LlmError';
    this.kind = kind;
    this.status = opts.status;
    this.retryable = opts.retryable ?? false;
    this.retryAfterMs = opts.retryAfterMs;
    this.apiErrorType = opts.apiErrorType;
    this.requestId = opts.requestId;
    this.usage = opts.usage;
  }

  /** No data arrived for `idleMs`: the request was aborted by the idle watchdog. Retryable. */
  static stalled(idleMs: number, baseURL?: string): LlmError {
    return new LlmError(
      'stalled',
      `The Anthropic API sent no data for ${formatDuration(idleMs)}${baseURL ? ` (${baseURL})` : ''}, ` +
        `so the request was aborted. The service may be slow or the connection stuck; ${RETRY_NOTE}.`,
      { retryable: true },
    );
  }

  /** The user (or the caller's AbortSignal) cancelled the request. Never retried. */
  static cancelled(): LlmError {
    return new LlmError('cancelled', 'The request was cancelled.', { retryable: false });
  }
}

/** The error to report after `attempts` attempts all failed with `err`: same kind, a message that says so. */
export function retriesExhausted(err: LlmError, attempts: number): LlmError {
  const gaveUp = `CAPE tried ${attempts} time${attempts === 1 ? '' : 's'} and gave up`;
  const message = err.message.includes(RETRY_NOTE) ? err.message.split(RETRY_NOTE).join(gaveUp) : `${err.message} ${gaveUp}.`;
  return new LlmError(err.kind, message, {
    status: err.status,
    retryable: err.retryable,
    retryAfterMs: err.retryAfterMs,
    apiErrorType: err.apiErrorType,
    requestId: err.requestId,
    cause: err,
  });
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
export function networkCode(err: unknown): string | undefined {
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

export function isAbortLike(err: unknown): boolean {
  const name = (err as any)?.name;
  return name === 'AbortError' || (name === 'DOMException' && (err as any)?.code === 20);
}

/** Messages of errors that mean "the stream ended before the reply was complete". */
export const TRUNCATED_STREAM = /terminated|other side closed|socket hang up|stream ended without producing|request ended without sending any chunks|premature close|aborted by the server/i;

/**
 * Turns anything thrown under a model call (fetch, a socket, a stream parser, a consumer) into an LlmError with a
 * kind, a retryable flag and an actionable message. An LlmError passes through unchanged. The Anthropic client
 * classifies its SDK's errors first (llm/anthropic/errors.ts) and ends here for the rest.
 */
export function toLlmError(err: unknown, ctx: ErrorContext = {}): LlmError {
  if (err instanceof LlmError) return err;
  const where = ctx.baseURL ? ` at ${ctx.baseURL}` : '';
  if (isAbortLike(err)) return LlmError.cancelled();
  return unclassified(err, where, false);
}

/**
 * The branches shared with the SDK classifier: a network code or a truncated body → retryable network error; a
 * malformed stream (SyntaxError, or `sdkJsonError`) → retryable; anything else → unknown, not retried.
 */
export function unclassified(err: unknown, where: string, sdkJsonError: boolean): LlmError {
  // Failures while reading the body: undici reports a reset or an early close as TypeError
  // "terminated" with a socket error as its cause; the SDK may wrap it in its own error class.
  const code = networkCode(err);
  const msg = err instanceof Error ? err.message : String(err);
  if (code || TRUNCATED_STREAM.test(msg)) {
    return new LlmError(
      'network',
      `The connection to the Anthropic API${where} was lost before the reply was complete${code ? ` (${code})` : ''}. ` +
        `${RETRY_NOTE}; if it keeps happening, check your network or proxy.`,
      { retryable: true, cause: err },
    );
  }

  if (err instanceof SyntaxError || (sdkJsonError && /JSON/i.test(msg))) {
    return new LlmError(
      'network',
      `The Anthropic API${where} sent a malformed stream (${msg}). ${RETRY_NOTE}; if it persists, check any proxy between you and the API.`,
      { retryable: true, cause: err },
    );
  }

  return new LlmError('unknown', `Unexpected error calling the Anthropic API${where}: ${msg}`, {
    retryable: false,
    cause: err,
  });
}
