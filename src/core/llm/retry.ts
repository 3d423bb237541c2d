// Step-level retry. The SDK retries HTTP errors before a stream starts; what it cannot retry is a
// failure once the reply is flowing (an `event: error`, a dropped connection, a stall) or a 429/529
// that outlasted its own retries. withStepRetry re-runs the whole step for those, with exponential
// backoff and jitter, honouring the server's retry-after, and stops at once on a cancel or on an
// error that retrying cannot fix (bad key, bad request). SDK-free: a client turns its own errors into LlmError
// (or passes `classify`, e.g. llm/anthropic/errors.ts's classifySdkError).
import { LlmError, retriesExhausted } from './errors';

export interface RetryInfo {
  /** The attempt about to start (2 for the first retry). */
  attempt: number;
  /** Why the previous attempt failed. */
  error: LlmError;
  /** How long we wait before that attempt. */
  delayMs: number;
}

export interface StepRetryOptions {
  /** Total attempts including the first (default 3). */
  maxAttempts?: number;
  /** Backoff base: attempt n waits about baseDelayMs × 2^(n-2) (default 1000). */
  baseDelayMs?: number;
  /** Upper bound of the computed backoff (default 30000). A server retry-after is honoured beyond it. */
  maxDelayMs?: number;
  signal?: AbortSignal;
  onRetry?: (info: RetryInfo) => void;
  /** Injectable for tests; the default is an abortable setTimeout. */
  sleep?: (ms: number) => Promise<void>;
  /** Jitter source in [0, 1) (default Math.random). */
  random?: () => number;
  /** Turns a thrown error into an LlmError, or null to rethrow it unchanged (default: LlmErrors only). */
  classify?: (err: unknown) => LlmError | null;
}

/** A server-requested wait longer than this is not worth waiting for inside one step. */
const MAX_RETRY_AFTER_MS = 5 * 60_000;

/** Backoff for the wait before `nextAttempt` (≥ 2): exponential, capped, with "equal jitter". */
export function backoffDelay(nextAttempt: number, baseDelayMs: number, maxDelayMs: number, random: () => number): number {
  const exp = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, nextAttempt - 2));
  return Math.round(exp / 2 + (random() * exp) / 2);
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(LlmError.cancelled());
    const onAbort = () => {
      clearTimeout(timer);
      reject(LlmError.cancelled());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Races a custom sleep against the signal so a cancel during the wait is immediate. */
function sleepWith(sleep: (ms: number) => Promise<void>, ms: number, signal?: AbortSignal): Promise<void> {
  if (!signal) return sleep(ms);
  if (signal.aborted) return Promise.reject(LlmError.cancelled());
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(LlmError.cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    sleep(ms).then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/**
 * Runs `fn(attempt)` (attempt is 1-based) and retries it while it throws a retryable LlmError.
 * Thrown errors are classified with `classify` first (default: only LlmErrors count); any other error (a bug, a
 * parse failure the caller did not mark retryable) is rethrown unchanged on the first occurrence.
 */
export async function withStepRetry<T>(fn: (attempt: number) => Promise<T>, opts: StepRetryOptions = {}): Promise<T> {
  const maxAttempts = Math.max(1, Math.floor(opts.maxAttempts ?? 3));
  const baseDelayMs = Math.max(0, opts.baseDelayMs ?? 1000);
  const maxDelayMs = Math.max(baseDelayMs, opts.maxDelayMs ?? 30_000);
  const random = opts.random ?? Math.random;
  const { signal } = opts;
  const classify = opts.classify ?? ((err: unknown) => (err instanceof LlmError ? err : null));

  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw LlmError.cancelled();
    try {
      return await fn(attempt);
    } catch (err) {
      const llm = classify(err);
      if (!llm) throw err;
      if (signal?.aborted || llm.kind === 'cancelled') throw llm.kind === 'cancelled' ? llm : LlmError.cancelled();
      if (!llm.retryable) throw llm;
      // A retryable error that is not retried any more must not say it will be.
      if (attempt >= maxAttempts || (llm.retryAfterMs !== undefined && llm.retryAfterMs > MAX_RETRY_AFTER_MS)) throw retriesExhausted(llm, attempt);
      const delayMs =
        llm.retryAfterMs !== undefined
          ? Math.max(0, Math.round(llm.retryAfterMs))
          : backoffDelay(attempt + 1, baseDelayMs, maxDelayMs, random);
      opts.onRetry?.({ attempt: attempt + 1, error: llm, delayMs });
      if (opts.sleep) await sleepWith(opts.sleep, delayMs, signal);
      else await abortableSleep(delayMs, signal);
    }
  }
}
