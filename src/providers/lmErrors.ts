// How a VS Code Language Model's failure is told: a LanguageModelError (by its `code`: no permission, blocked,
// not found, cancelled) or anything else, mapped to an LlmError of the kind the runner acts on, with a message that
// says what to do. No `vscode` import: the error is read by its shape (lmClient.ts throws these).
import { LlmError } from '../core';

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Maps a VS Code LanguageModelError (by its `code`) or anything else to an LlmError with an actionable message. */
export function lmError(err: unknown, modelName: string): LlmError {
  if (err instanceof LlmError) return err;
  const msg = err instanceof Error ? err.message : String(err);
  const name = (err as { name?: unknown } | null)?.name;
  const code = errorCode(err);
  const said = msg ? `: ${msg}` : '';
  if (name === 'Canceled' || name === 'AbortError' || code === 'Canceled') return LlmError.cancelled();
  if (code === 'NoPermissions') {
    return new LlmError(
      'auth',
      `VS Code did not allow CAPE to use the language model "${modelName}"${said}. Allow access when VS Code asks ` +
        "(run the session again), or choose another model with 'CAPE: Select Model'.",
      { cause: err },
    );
  }
  if (code === 'Blocked') {
    return new LlmError(
      'rate_limit',
      `The language model "${modelName}" refused the request (quota or rate limit)${said}. Wait a while, or choose ` +
        "another model with 'CAPE: Select Model'.",
      { cause: err },
    );
  }
  if (code === 'NotFound') {
    return new LlmError(
      'config',
      `The language model "${modelName}" is no longer available${said}. Choose another one with 'CAPE: Select Model'.`,
      { cause: err },
    );
  }
  return new LlmError('unknown', `The language model "${modelName}" failed${said}.`, { retryable: true, cause: err });
}
