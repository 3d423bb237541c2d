// How deep a model's JSON may nest, and the check that keeps anything deeper away from the code that recurses once per
// level: jsonrepair and jsonc-parser while they parse, JSON.stringify and zod on what JSON.parse returns. A few
// thousand levels exhaust the stack (a RangeError), and jsonrepair takes minutes first. The bound, the linear scan of
// a JSON text a reader runs before it parses (jsonDepthBeyond) and the words of a refusal (deeperThan) are here; each
// reader says what it then does.

/** A model's JSON (a reply's envelope): a real envelope nests about 6 levels. */
export const MODEL_JSON_DEPTH = 64;

/** "deeper than 64 levels": how every refusal of a deep text says why ("it nests deeper than …"). */
export function deeperThan(max: number): string {
  return `deeper than ${max} levels`;
}

const QUOTE = 34;
const BACKSLASH = 92;
const SLASH = 47;
const STAR = 42;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;

/**
 * Index of the `{` or `[` in the JSON text `text` that opens level `max + 1`, or -1 when nothing nests deeper than
 * `max`. Linear, each character looked at once, and nothing else is allocated but `max` bytes. Read as JSON reads it,
 * and as jsonc-parser and jsonrepair read their usual input: strings in double quotes with backslash escapes,
 * `//` and `/* … *\/` comments outside them skipped, and a closing bracket closes only a container of its kind (a
 * mismatched one, which a tolerant parser skips, closes nothing). A tolerant parser may still read a malformed text
 * otherwise (jsonc-parser ends a string at a line break): what it returns is scanned again as JSON, and its own
 * RangeError is caught, by its caller.
 */
export function jsonDepthBeyond(text: string, max: number): number {
  const open = new Uint8Array(max);
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < n; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth === max) return i;
      open[depth++] = c;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth > 0 && open[depth - 1] === c - 2) depth--;
    } else if (c === SLASH && text.charCodeAt(i + 1) === SLASH) {
      const end = text.indexOf('\n', i + 2);
      i = end === -1 ? n : end;
    } else if (c === SLASH && text.charCodeAt(i + 1) === STAR) {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? n : end + 1;
    }
  }
  return -1;
}

/** Whether `err` is V8's RangeError for a recursion that ran out of stack (a parser deep in a nested text). */
export function isStackOverflow(err: unknown): boolean {
  return err instanceof RangeError && /call stack/i.test(err.message);
}
