// The Anthropic SDK's errors → LlmError: HTTP status and API error type (`overloaded_error`, …) to a kind, a
// retryable flag and a message that says what to do. Only this folder imports the SDK; what is not an SDK error
// falls through to the SDK-free classification of llm/errors.ts.
import type { APIError } from '@anthropic-ai/sdk';
import type { ErrorKind } from '../../model/types';
import {
  type ErrorContext,
  LlmError,
  RETRY_NOTE,
  SET_KEY_HINT,
  isAbortLike,
  networkCode,
  retryAfterFromHeaders,
  unclassified,
} from '../errors';
import { loadSdk } from './sdk';
import { formatDuration } from '../../model/dates';

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
    const wait = retryAfterMs !== undefined ? ` The server asked to wait ${formatDuration(retryAfterMs)}.` : '';
    return {
      kind: 'rate_limit',
      retryable: true,
      message: `The Anthropic API rate limit was reached (429)${midstream}${said}.${wait} ${RETRY_NOTE}; if it keeps happening, wait a minute or check your plan's rate limits.`,
    };
  }
  if (status === 529 || type === 'overloaded_error') {
    return {
      kind: 'overloaded',
      retryable: true,
      message: `The Anthropic API is temporarily overloaded (529)${midstream}. ${RETRY_NOTE}; if it persists, try again in a few minutes or choose another model.`,
    };
  }
  if (status === 408 || status === 504 || type === 'timeout_error') {
    return {
      kind: 'network',
      retryable: true,
      message: `The Anthropic API timed out${code}${midstream}${said}. ${RETRY_NOTE}.`,
    };
  }
  if ((status !== undefined && status >= 500) || type === 'api_error') {
    return {
      kind: 'unknown',
      retryable: true,
      message: `The Anthropic API returned a server error${code}${midstream}${said}. This is usually temporary; ${RETRY_NOTE}.`,
    };
  }
  if (status === 409) {
    return { kind: 'unknown', retryable: true, message: `The Anthropic API reported a conflict (409)${said}. ${RETRY_NOTE}.` };
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
    // the API names the part of the request it refused: `messages.3.content…` is the conversation CAPE built, not a setting
    const conversation = /^messages\b|\b(tool_use|tool_result)\b/.test(detail);
    const what = conversation
      ? 'The conversation CAPE sent was refused: resume the session to run this step again (completed steps are kept), and please report it with the message above.'
      : 'Check the model name and settings.';
    return {
      kind: 'config',
      retryable: false,
      message: `The Anthropic API rejected the request${code || ' (400)'}${said}. ${what}`,
    };
  }
  if (status === undefined) {
    // An `event: error` of a type we do not know: transient unless proven otherwise.
    return {
      kind: 'unknown',
      retryable: true,
      message: `The Anthropic API reported an error in the middle of the reply${type ? ` (${type})` : ''}${said}. ${RETRY_NOTE}.`,
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
export function toLlmErrorFromSdk(err: unknown, ctx: ErrorContext = {}): LlmError {
  if (err instanceof LlmError) return err;
  const where = ctx.baseURL ? ` at ${ctx.baseURL}` : '';

  // Classifying SDK errors needs the SDK's classes (loaded by then whenever an SDK request failed).
  const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, AnthropicError } = loadSdk();
  if (err instanceof APIUserAbortError || isAbortLike(err)) return LlmError.cancelled();

  if (err instanceof APIConnectionTimeoutError) {
    const secs = ctx.headersTimeoutMs !== undefined ? ` within ${formatDuration(ctx.headersTimeoutMs)}` : '';
    return new LlmError(
      'stalled',
      `The Anthropic API${where} did not respond${secs}. The service may be slow or the connection stuck; ${RETRY_NOTE}.`,
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

  return unclassified(err, where, err instanceof AnthropicError);
}

/** For withStepRetry's `classify`: SDK errors thrown raw into a retried step are classified too. */
export function classifySdkError(err: unknown): LlmError | null {
  if (err instanceof LlmError) return err;
  return err instanceof loadSdk().AnthropicError ? toLlmErrorFromSdk(err) : null;
}
