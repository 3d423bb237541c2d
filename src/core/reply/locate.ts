// Locating the JSON envelope in a model's reply: string-aware brace matching over candidate `{` positions (never a
// regex over the JSON, so braces and ``` inside strings are harmless), strict JSON first, then jsonrepair for
// almost-JSON — but never for a cut-off object, which is reported as truncated, not completed by a guess. Invalid
// JSON is reported at the place it broke (line, column, a marked excerpt). JSON nested deeper than a model's JSON may
// (text/nesting.ts) is refused before any parser sees it, and so is what a repair reads as nesting that deep.
// parser.ts builds the parsed reply on it.
import { jsonrepair, JSONRepairError } from 'jsonrepair';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { sliceWhole } from '../text/cut';
import { lineColumn } from '../text/lines';
import { deeperThan, isStackOverflow, jsonDepthBeyond, MODEL_JSON_DEPTH } from '../text/nesting';
import { firstBlockTag } from './blocks';

export const TRUNCATED_ERROR =
  'the reply ends before the JSON envelope is complete — the model probably hit max_tokens';

export const NO_ENVELOPE_ERROR = 'no JSON envelope found: the reply must contain one JSON object (in a ```json block)';

// ---------------------------------------------------------------------------------------------
// JSON location

/** How many candidate `{` positions we try before giving up (bounds work on hostile input). */
const MAX_CANDIDATES = 32;

/**
 * From `start` (a `{`), returns the index just after the matching `}`, or -1 if the text ends first.
 * String-aware: braces inside "…" (with escapes) are ignored. `strayQuotes`: a `"` inside a string that is not
 * followed by what may follow a string (`,` `:` `}` `]` or the end) is taken as a quote the model forgot to escape,
 * as jsonrepair reads it; on valid JSON (or a cut-off prefix of it) that reads exactly like the strict scan.
 */
export function matchBalanced(text: string, start: number, strayQuotes = false): number {
  let depth = 0;
  let inString = false;
  const n = text.length;
  for (let i = start; i < n; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */ && (!strayQuotes || endsString(text, i + 1))) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) depth++;
    else if (c === 125 /* } */ || c === 93 /* ] */) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function isJsonSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** Whether what follows a quote at `from` is what follows the end of a JSON string (see matchBalanced). */
function endsString(text: string, from: number): boolean {
  let j = from;
  while (j < text.length && isJsonSpace(text.charCodeAt(j))) j++;
  const c = text.charCodeAt(j);
  return j === text.length || c === 44 /* , */ || c === 58 /* : */ || c === 125 /* } */ || c === 93 /* ] */;
}

/**
 * The end of the object starting at `start` (see matchBalanced), or -1 when the text ends first. An odd number of
 * unescaped quotes in a string flips the strict scan's idea of what is inside a string for the rest of the reply,
 * so the object seems never to close: a second, stray-quote-tolerant scan tells that apart from a reply really
 * cut off (which must be reported as such, never repaired).
 */
export function objectEnd(text: string, start: number): number {
  const end = matchBalanced(text, start);
  return end !== -1 ? end : matchBalanced(text, start, true);
}

export interface Located {
  json: unknown;
  /** Index of the envelope's `{`. */
  start: number;
  /** Index in the (BOM-stripped) text just after the envelope, including its closing fence. */
  end: number;
}

type LocateResult = { ok: true; found: Located } | { ok: false; error: string };

/**
 * Candidate start positions, in order of preference: a `{` right after a ```json / ``` fence, then
 * every other `{` that looks like the start of a JSON object (followed by a key or `}`), so prose
 * braces such as "{user}" are not mistaken for the envelope — those before the first <file>/<edit> block first.
 */
export function candidateStarts(text: string, from = 0, to = text.length): number[] {
  const fenced: number[] = [];
  const fence = /```[ \t]*(?:(?:json5?|jsonc|JSON)[ \t]*)?\r?\n/g;
  fence.lastIndex = from;
  let m: RegExpExecArray | null;
  while ((m = fence.exec(text)) !== null && m.index < to && fenced.length < MAX_CANDIDATES) {
    let j = m.index + m[0].length;
    while (j < text.length && isJsonSpace(text.charCodeAt(j))) j++;
    if (text.charCodeAt(j) === 123 && j < to) fenced.push(j);
  }
  const bare: number[] = [];
  for (let i = text.indexOf('{', from); i !== -1 && i < to && bare.length < MAX_CANDIDATES; i = text.indexOf('{', i + 1)) {
    let j = i + 1;
    while (j < text.length && isJsonSpace(text.charCodeAt(j))) j++;
    const c = text.charCodeAt(j);
    if ((c === 34 || c === 125 || j === text.length) && !fenced.includes(i)) bare.push(i);
  }
  // the envelope comes before DevA's blocks: a ```json example inside a <file> (a Markdown document's) is no envelope
  // while one before the first block may be; after it only when none before is (a reply with its blocks first is
  // then refused for that, by the parser)
  const firstTag = firstBlockTag(text, from);
  const before = (i: number) => i < firstTag;
  return [...fenced.filter(before), ...bare.filter(before), ...fenced.filter((i) => !before(i)), ...bare.filter((i) => !before(i))];
}

/** Keys that identify a CAPE envelope (as opposed to an example object in prose). */
export function looksLikeEnvelope(v: Record<string, unknown>): boolean {
  return 'agent' in v || 'voice' in v || 'output' in v || 'conversation' in v || 'kpt' in v;
}

/** Where one parser stopped: its message and the index in the slice (null when it does not say). */
interface JsonFailure {
  message: string;
  position: number | null;
}

/**
 * `strict`: the first place that is not JSON (comments and trailing commas allowed), from jsonc-parser, which gives the
 * offset of every error (V8's JSON.parse does not for its "Unexpected token" class); it may be a slip jsonrepair fixes,
 * such as a raw newline in a string. `repair`: where jsonrepair gave up, which may come after the real mistake.
 */
type Parsed =
  | { ok: true; value: unknown }
  | { ok: false; strict: JsonFailure; repair: JsonFailure | null }
  /** Nested deeper than MODEL_JSON_DEPTH: from that index of the slice on, or null when only a tolerant reading nests so. */
  | { ok: false; tooDeep: number | null };

export function tryParse(slice: string): Parsed {
  // before any parser: jsonrepair and jsonc-parser recurse once per level (a RangeError some thousands deep, and
  // jsonrepair minutes before it), and JSON.stringify does on what JSON.parse returns
  const deepAt = jsonDepthBeyond(slice, MODEL_JSON_DEPTH);
  if (deepAt !== -1) return { ok: false, tooDeep: deepAt };
  try {
    return { ok: true, value: JSON.parse(slice) };
  } catch (e) {
    let repair: JsonFailure | null = null;
    try {
      // jsonrepair: trailing commas, comments, raw newlines and unescaped quotes in strings, single quotes, Python
      // literals, missing commas. Only ever given a balanced slice: truncation is our own check (matchBalanced).
      const repaired = jsonrepair(slice);
      // a quote it reads otherwise than JSON does can turn what the scan took for a string into nesting
      if (jsonDepthBeyond(repaired, MODEL_JSON_DEPTH) !== -1) return { ok: false, tooDeep: null };
      const value: unknown = JSON.parse(repaired);
      // The slice is one object (it starts with `{`); a repair that makes it something else — a mismatched bracket
      // read as an array of its pieces — guessed wrong: the object is reported where it broke.
      if (isPlainJsonObject(value)) return { ok: true, value };
    } catch (r) {
      if (r instanceof JSONRepairError) repair = { message: withoutPosition(r.message), position: r.position };
      else if (isStackOverflow(r)) return { ok: false, tooDeep: null };
    }
    const errors: ParseError[] = [];
    try {
      parseJsonc(slice, errors, { allowTrailingComma: true });
    } catch (j) {
      // it ends a string at a line break, so the rest of a string JSON reads on may be nesting to it
      if (isStackOverflow(j)) return { ok: false, tooDeep: null };
      throw j;
    }
    const strict: JsonFailure = errors.length
      ? { message: sentenceOf(printParseErrorCode(errors[0].error)), position: errors[0].offset }
      : { message: withoutPosition(e instanceof Error ? e.message : String(e)), position: null };
    return { ok: false, strict, repair };
  }
}

/** "PropertyNameExpected" → "property name expected". */
function sentenceOf(code: string): string {
  return code.replace(/(?<=[a-z])(?=[A-Z])/g, ' ').toLowerCase();
}

/** A parser message without its "at position N" (relative to the slice, so meaningless to the reader). */
function withoutPosition(message: string): string {
  // (the lookbehind starts the match where a run of spaces starts, not again from each of its spaces)
  return message.replace(/(?<!\s)\s*(?:in JSON )?at position \d+(?:\s*\(line \d+ column \d+\))?/, '').trim();
}

/** Skips whitespace and a closing ``` fence after the JSON. */
export function skipClosingFence(text: string, end: number): number {
  let j = end;
  while (j < text.length && isJsonSpace(text.charCodeAt(j))) j++;
  return text.startsWith('```', j) ? j + 3 : end;
}

export function locateEnvelope(text: string): LocateResult {
  const starts = candidateStarts(text);
  if (starts.length === 0) {
    return { ok: false, error: NO_ENVELOPE_ERROR };
  }
  let firstFailure: string | null = null;
  let fallback: Located | null = null;
  /** Candidates nested inside an object already examined are skipped: the scan stays linear. */
  let examinedUpTo = -1;
  let examinedFrom = Infinity;
  for (const start of starts) {
    if (start >= examinedFrom && start < examinedUpTo) continue;
    const end = objectEnd(text, start);
    if (end === -1) {
      // The object starts but never closes: the reply was cut off (nothing after it can be complete).
      if (fallback) break;
      return { ok: false, error: TRUNCATED_ERROR };
    }
    examinedFrom = start;
    examinedUpTo = end;
    const parsed = tryParse(text.slice(start, end));
    if (!parsed.ok) {
      firstFailure ??= 'tooDeep' in parsed ? tooDeepError(text, start, parsed.tooDeep) : invalidJsonError(text, start, parsed);
      continue;
    }
    const v = parsed.value;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) continue;
    const found = { json: v, start, end: skipClosingFence(text, end) };
    if (looksLikeEnvelope(v as Record<string, unknown>)) return { ok: true, found };
    fallback ??= found;
  }
  if (fallback && !firstFailure) return { ok: true, found: fallback };
  return { ok: false, error: firstFailure ?? NO_ENVELOPE_ERROR };
}

/** Characters of context shown on each side of the place the JSON broke. */
export const EXCERPT_RADIUS = 60;
/** Marks the place the JSON broke inside the quoted excerpt. */
export const ERROR_MARK = '⟪HERE⟫';

function invalidJsonError(text: string, start: number, failure: { strict: JsonFailure; repair: JsonFailure | null }): string {
  const where = (f: JsonFailure) => {
    const at = Math.min(text.length, start + (f.position ?? 0));
    const { line, column } = lineColumn(text, at);
    return `at line ${line}, column ${column} of the reply, near: ${excerptAround(text, at)}`;
  };
  const { strict, repair } = failure;
  // The first place that is not strict JSON; without a position (V8's "Unexpected token" messages), jsonrepair's.
  const first = strict.position !== null ? strict : (repair ?? strict);
  let error = `the JSON envelope is not valid JSON (${first.message}) ${where(first)}`;
  if (first === strict && repair?.position != null && Math.abs(repair.position - (strict.position ?? 0)) > EXCERPT_RADIUS) {
    error += `; the repair stopped further on (${repair.message}) ${where(repair)}`;
  }
  return error;
}

/** The error of an envelope nested deeper than MODEL_JSON_DEPTH (`at`: the index in the slice from `start`, if known). */
function tooDeepError(text: string, start: number, at: number | null): string {
  const what = `the JSON envelope nests ${deeperThan(MODEL_JSON_DEPTH)}`;
  if (at === null) return `${what} as a tolerant JSON reader reads it (no envelope needs more than a few)`;
  const { line, column } = lineColumn(text, start + at);
  return `${what} at line ${line}, column ${column} of the reply, near: ${excerptAround(text, start + at)} (no envelope needs more than a few)`;
}

/**
 * Up to EXCERPT_RADIUS characters on each side of `at`, whitespace runs shown as one space, ERROR_MARK at `at`,
 * "…" where the text goes on; never splits a surrogate pair.
 */
export function excerptAround(text: string, at: number): string {
  const from = Math.max(0, at - EXCERPT_RADIUS);
  const to = Math.min(text.length, at + EXCERPT_RADIUS);
  const flat = (s: string) => s.replace(/\s+/g, ' ');
  return `"${from > 0 ? '…' : ''}${flat(sliceWhole(text, from, at))}${ERROR_MARK}${flat(sliceWhole(text, at, to))}${to < text.length ? '…' : ''}"`;
}

/** A JSON value that is an object (not null, not an array). */
export function isPlainJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
