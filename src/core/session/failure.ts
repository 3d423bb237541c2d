// StepFailure: how the session runner reports a step (or the setup) that cannot go on. It carries the error kind
// the UIs react to and whether a plain resume can continue the session afterwards (a damaged file, an id already
// used, a complete session cannot: their messages name the way out instead).
import type { ErrorKind, StepId } from '../model/types';

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
