// StepFailure: how the session runner reports a step (or the setup) that cannot go on. It carries the error kind
// the UIs react to and whether a plain resume can continue the session afterwards (a damaged file, an id already
// used, a complete session cannot: their messages name the way out instead). asFailure turns whatever a run threw
// (an LlmError, a file system error, a bug) into one.
import * as path from 'path';
import { LlmError } from '../llm/errors';
import { SESSIONS_FOLDER, type ErrorKind, type StepId } from '../model/types';

export class StepFailure extends Error {
  constructor(
    readonly step: StepId | null,
    readonly kind: ErrorKind,
    message: string,
    readonly raw?: string,
    /** false when resuming would only fail again the same way. */
    readonly resumable = true,
  ) {
    super(message);
  }
}

/** What the runner reports for an error thrown during `step` (null: the setup). */
export function asFailure(err: unknown, step: StepId | null): StepFailure {
  if (err instanceof StepFailure) return err;
  if (err instanceof LlmError) return new StepFailure(step, err.kind, err.message);
  const e = err as NodeJS.ErrnoException;
  if (e && typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code)) {
    if ((e.code === 'EACCES' || e.code === 'EPERM' || e.code === 'EROFS') && e.path) {
      // The path of a failed atomic write is its hidden temporary file: name the folder instead.
      const dir = path.basename(e.path).startsWith('.') ? path.dirname(e.path) : e.path;
      return new StepFailure(step, 'io', `Cannot write ${dir} (${e.code}: ${e.code === 'EROFS' ? 'read-only file system' : 'permission denied'}). CAPE keeps every session under ${SESSIONS_FOLDER}/ of the cape folder: make it writable, then try again.`);
    }
    return new StepFailure(step, 'io', `File system error: ${e.message}`);
  }
  return new StepFailure(step, 'unknown', err instanceof Error ? err.message : String(err));
}
