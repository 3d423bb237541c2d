// How deep the JSON and YAML CAPE reads may nest, and the checks that keep anything deeper away from the code that
// recurses once per level: jsonrepair, jsonc-parser and js-yaml while they parse, JSON.stringify, zod and YAML's dump
// on what they return. A few thousand levels exhaust the stack (a RangeError), and jsonrepair takes minutes first.
// The two bounds (a model's JSON; a file), the linear scan of a JSON text every reader runs before it parses
// (jsonDepthBeyond, parseJsonWithin), the walk of a value that came without such a text (valueDepthBeyond: a YAML
// document's aliases, the LM API's tool input) and the error they give (TooDeepError, deeperThan) are here; each
// reader says what it then does.
import { lineColumn } from './lines';

/** A model's JSON (a reply's envelope, a tool call's input): a real envelope nests about 6 levels. */
export const MODEL_JSON_DEPTH = 64;

/**
 * A file CAPE reads: its own store files, which hold a model's envelope a few levels down (a step record's
 * feedback[].answer.output), cape/ frontmatter, init's answers file.
 */
export const FILE_DEPTH = 100;

/** "deeper than 64 levels": how every refusal of a deep text or value says why ("it nests deeper than …"). */
export function deeperThan(max: number): string {
  return `deeper than ${max} levels`;
}

/** A text or value that nests deeper than `max` levels, with where in the text (1-based) when known. */
export class TooDeepError extends Error {
  constructor(
    readonly max: number,
    readonly where: { line: number; column: number } | null = null,
  ) {
    super(`nests ${deeperThan(max)}${where ? ` (line ${where.line}, column ${where.column})` : ''}`);
    this.name = 'TooDeepError';
  }
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

/** `text` parsed by JSON.parse, after jsonDepthBeyond: a TooDeepError when it nests deeper than `max`. */
export function parseJsonWithin(text: string, max: number): unknown {
  const at = jsonDepthBeyond(text, max);
  if (at !== -1) throw new TooDeepError(max, lineColumn(text, at));
  return JSON.parse(text) as unknown;
}

/** An array or a plain object: what JSON and YAML nest (a Date, a Buffer or a class instance is a leaf). */
function isContainer(v: unknown): v is object {
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

interface Frame {
  node: object;
  kids: unknown[];
  next: number;
  /** Levels of the deepest child walked so far. */
  below: number;
}

/**
 * Whether a parsed value nests deeper than `max` levels of arrays and plain objects, or contains itself (a YAML
 * document's `&a [*a]`). For a value that came without a text jsonDepthBeyond could scan: a YAML document, whose
 * aliases nest a list in itself once per line (`b: &b [*a]`), or an object another program parsed. Without
 * recursion, and each container walked once however many aliases repeat it.
 */
export function valueDepthBeyond(value: unknown, max: number): boolean {
  if (!isContainer(value)) return false;
  /** Containers walked to the end: the levels each holds, itself included. */
  const levels = new Map<object, number>();
  const onPath = new Set<object>();
  const path: Frame[] = [];
  const enter = (node: object) => {
    onPath.add(node);
    path.push({ node, kids: Array.isArray(node) ? node : Object.values(node), next: 0, below: 0 });
  };
  enter(value);
  while (path.length > 0) {
    const top = path[path.length - 1];
    if (top.next < top.kids.length) {
      const kid = top.kids[top.next++];
      if (!isContainer(kid)) continue;
      const known = levels.get(kid);
      if (known !== undefined) {
        if (path.length + known > max) return true;
        top.below = Math.max(top.below, known);
      } else if (onPath.has(kid) || path.length === max) {
        return true;
      } else {
        enter(kid);
      }
      continue;
    }
    path.pop();
    onPath.delete(top.node);
    const held = top.below + 1;
    levels.set(top.node, held);
    if (path.length > 0) path[path.length - 1].below = Math.max(path[path.length - 1].below, held);
  }
  return false;
}
