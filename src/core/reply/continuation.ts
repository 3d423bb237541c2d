// Replies cut at the output limit (stop_reason "max_tokens"): the step asks the model to continue where it stopped and
// stitches the parts into the one reply that is parsed and stored. The continuation request repeats the conversation,
// then the partial reply as an assistant turn, then a user turn asking to go on. Not a prefill (a conversation
// ending with the assistant turn): Claude 4.6 models reject prefills with a 400, and a user turn works with every
// model and provider. A model that repeats the end of what it wrote is tolerated: the overlap is removed.

/** At most this many continuation requests per step; a reply still cut after them fails the step, unless it already holds a valid reply. */
export const MAX_CONTINUATIONS = 2;

export const CONTINUE_PROMPT =
  'Your reply was cut off by the output limit. Continue it exactly where it stopped: write only the rest, starting ' +
  'with the very next character. Do not repeat anything already written, do not start over, add nothing before it.';

/** Shortest repeated run that counts as an overlap (shorter matches are likely coincidence, e.g. `"}`). */
const MIN_OVERLAP = 16;
/** Longest overlap looked for (a model repeats at most its last line or so). */
const MAX_OVERLAP = 400;

/** `prefix` + `more`, without the start of `more` that only repeats the end of `prefix`. */
export function stitchContinuation(prefix: string, more: string): string {
  for (let k = Math.min(MAX_OVERLAP, prefix.length, more.length); k >= MIN_OVERLAP; k--) {
    if (prefix.endsWith(more.slice(0, k))) return prefix + more.slice(k);
  }
  return prefix + more;
}

/**
 * Whether a reply was cut at the output limit. A provider that cannot tell (stopReason null, e.g. VS Code's
 * language models) counts as cut when the parser found the reply ending too early (its error names max_tokens).
 */
export function replyWasCut(stopReason: string | null, parseError: string | null): boolean {
  if (stopReason === 'max_tokens') return true;
  return stopReason === null && parseError !== null && parseError.includes('max_tokens');
}
