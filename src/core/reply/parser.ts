// Tolerant parser of one model reply: the JSON envelope (fenced or bare), then DevA's
// <file path="…">…</file> and <edit path="…">…</edit> blocks and an optional <summary>…</summary> (cut out by
// ./blocks.ts).
//
// The envelope is located by string-aware brace matching (never a regex over the JSON), so braces
// and ``` inside JSON strings are harmless. File blocks are searched only AFTER the envelope ends,
// so `<file …>` text quoted inside a JSON string is never picked up. Failures are reported with a
// concrete reason (truncation, invalid JSON, schema problems, unterminated file block): nothing is
// silently dropped. Almost-JSON is repaired by the jsonrepair library; the truncation check stays ours, because
// jsonrepair would "complete" a cut-off reply by closing it, and a cut-off reply must be reported, not guessed.
// Invalid JSON is quoted around the place it broke (line, column, a marked excerpt), not from the object's start.
// A reply with several complete envelopes (a model that corrects itself) uses the last one and says so.
import type { ParsedReply, StepId } from '../model/types';
import { jsonrepair, JSONRepairError } from 'jsonrepair';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { envelopeShapeHint, validateEnvelope } from './envelope';
import { sliceWhole } from '../text/cut';
import { extractFiles, extractSummary, firstBlockTag, looseTag } from './blocks';
import { unreadableTag, unreadableTagError } from './unreadableTags';

/**
 * `warnings`: what the parser decided that the user should know (e.g. which of several envelopes it used); each is
 * one sentence, shown with the step and kept in its pair artifact.
 */
export type ParseResult = { ok: true; reply: ParsedReply; warnings: string[] } | { ok: false; error: string; raw: string };

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
function objectEnd(text: string, start: number): number {
  const end = matchBalanced(text, start);
  return end !== -1 ? end : matchBalanced(text, start, true);
}

interface Located {
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
 * braces such as "{user}" are not mistaken for the envelope.
 */
function candidateStarts(text: string, from = 0, to = text.length): number[] {
  const fenced: number[] = [];
  const fence = /```[ \t]*(?:json5?|jsonc|JSON)?[ \t]*\r?\n/g;
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
  return [...fenced, ...bare];
}

/** Keys that identify a CAPE envelope (as opposed to an example object in prose). */
function looksLikeEnvelope(v: Record<string, unknown>): boolean {
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
type Parsed = { ok: true; value: unknown } | { ok: false; strict: JsonFailure; repair: JsonFailure | null };

function tryParse(slice: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(slice) };
  } catch (e) {
    let repair: JsonFailure | null = null;
    try {
      // jsonrepair: trailing commas, comments, raw newlines and unescaped quotes in strings, single quotes, Python
      // literals, missing commas. Only ever given a balanced slice: truncation is our own check (matchBalanced).
      const value: unknown = JSON.parse(jsonrepair(slice));
      // The slice is one object (it starts with `{`); a repair that makes it something else — a mismatched bracket
      // read as an array of its pieces — guessed wrong: the object is reported where it broke.
      if (isPlainJsonObject(value)) return { ok: true, value };
    } catch (r) {
      if (r instanceof JSONRepairError) repair = { message: withoutPosition(r.message), position: r.position };
    }
    const errors: ParseError[] = [];
    parseJsonc(slice, errors, { allowTrailingComma: true });
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
  return message.replace(/\s*(?:in JSON )?at position \d+(?:\s*\(line \d+ column \d+\))?/, '').trim();
}

/** "line L, column C" of index `at` in `text` (1-based). */
export function lineColumn(text: string, at: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: at - lineStart + 1 };
}

/** Skips whitespace and a closing ``` fence after the JSON. */
function skipClosingFence(text: string, end: number): number {
  let j = end;
  while (j < text.length && isJsonSpace(text.charCodeAt(j))) j++;
  return text.startsWith('```', j) ? j + 3 : end;
}

function locateEnvelope(text: string): LocateResult {
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
      firstFailure ??= invalidJsonError(text, start, parsed);
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

/**
 * Further complete envelopes after `first` and before DevA's first <file>/<edit> block (JSON inside a file is never
 * an envelope): top-level objects that parse and validate as this step's envelope, in reply order.
 */
function laterEnvelopes(step: StepId, text: string, first: Located): { found: (Located & { envelope: ParsedReply['envelope'] })[]; incompleteAt: number | null } {
  const found: (Located & { envelope: ParsedReply['envelope'] })[] = [];
  let incompleteAt: number | null = null;
  const to = firstBlockTag(text, first.end);
  let examinedUpTo = first.end;
  for (const start of [...new Set(candidateStarts(text, first.end, to))].sort((a, b) => a - b)) {
    if (start < examinedUpTo) continue;
    const end = objectEnd(text, start);
    if (end === -1 || end > to) {
      // An object that never closes (before the files): the complete envelopes before it stand; say so if it is one.
      if (ENVELOPE_KEY.test(text.slice(start, Math.min(to, start + 2000)))) incompleteAt = start;
      break;
    }
    examinedUpTo = end;
    const parsed = tryParse(text.slice(start, end));
    if (!parsed.ok || !isPlainJsonObject(parsed.value) || !looksLikeEnvelope(parsed.value)) continue;
    const valid = validateEnvelope(step, parsed.value);
    if (valid.ok) found.push({ json: parsed.value, start, end: skipClosingFence(text, end), envelope: valid.envelope });
  }
  return { found, incompleteAt };
}

/** A key of an envelope (see looksLikeEnvelope), as it starts in JSON text. */
const ENVELOPE_KEY = /^\{\s*"(?:agent|voice|output|conversation|kpt)"\s*:|[{,]\s*"(?:agent|voice)"\s*:/;

function isPlainJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// ---------------------------------------------------------------------------------------------
// Public API

/**
 * Parses one reply of `step`: finds the JSON envelope, validates it (envelope.ts), then extracts the
 * <file> blocks and <summary> that follow it. Never throws.
 */
export function parseReply(step: StepId, raw: string): ParseResult {
  if (typeof raw !== 'string' || raw.trim() === '') {
    return { ok: false, error: 'the reply is empty: expected a JSON envelope', raw: typeof raw === 'string' ? raw : '' };
  }
  const text = raw.replace(/^\uFEFF/, '');
  const located = locateEnvelope(text);
  if (!located.ok) return { ok: false, error: located.error, raw };

  const warnings: string[] = [];
  let found = located.found;
  let valid = validateEnvelope(step, found.json);
  // A model that corrects itself writes a second envelope: the last complete one is the reply.
  const { found: later, incompleteAt } = isPlainJsonObject(found.json) && looksLikeEnvelope(found.json) ? laterEnvelopes(step, text, found) : { found: [], incompleteAt: null };
  const lineOf = (l: { start: number }) => lineColumn(text, l.start).line;
  if (later.length > 0) {
    const last = later[later.length - 1];
    const ignored = [found, ...later.slice(0, -1)].map(lineOf);
    warnings.push(
      `The reply contains ${later.length + 1} JSON envelopes; the last complete one (line ${lineOf(last)}) was used and ` +
        `the earlier one${ignored.length > 1 ? 's' : ''} (line${ignored.length > 1 ? 's' : ''} ${ignored.join(', ')}) ignored.`,
    );
    found = last;
    valid = { ok: true, envelope: last.envelope };
  }
  if (incompleteAt !== null && valid.ok) {
    warnings.push(
      `The reply starts another JSON envelope at line ${lineOf({ start: incompleteAt })} that is not complete; ` +
        `it was ignored and the complete one (line ${lineOf(found)}) was used.`,
    );
  }
  if (!valid.ok) return { ok: false, error: `the JSON envelope does not match the required format:\n${valid.error}`, raw };

  // blocks follow the envelope (the text before it is not searched: a block there would be dropped unseen)
  const early = looseTag(text, 0, found.start);
  if (early) {
    return { ok: false, error: `the <${early.kind} path="${early.path}"> block comes before the JSON envelope: put every <file> and <edit> block after it`, raw };
  }
  const earlyUnread = unreadableTag(text, 0, found.start);
  if (earlyUnread) return { ok: false, error: `${unreadableTagError(earlyUnread, ', before the JSON envelope,')}, after the envelope`, raw };
  const files = extractFiles(text, found.end);
  if (!files.ok) return { ok: false, error: files.error, raw };
  // The summary normally follows the files; a model may also put it between the JSON and the files
  // (never searched inside a file, where HTML can contain <summary>).
  const summary =
    extractSummary(text, files.scan.end) ??
    (files.scan.files.length + files.scan.edits.length > 0 ? extractSummary(text, found.end, files.scan.firstTag) : null);
  return { ok: true, reply: { envelope: valid.envelope, files: files.scan.files, edits: files.scan.edits, summary }, warnings };
}

/**
 * The user message of the single repair request after `parseReply` failed: quotes the problem
 * and asks for the complete corrected reply in the same format, and nothing else.
 */
export function repairPrompt(step: StepId, error: string, raw: string): string {
  const truncated = error.includes('max_tokens') || error.includes('cut off');
  const lines = [
    'Your previous reply could not be used:',
    '',
    ...error.split('\n').map((l) => `> ${l}`),
    '',
    'Send the corrected reply again, complete and in the same format: one ```json block containing the whole envelope',
    step === 'deva'
      ? 'followed by every <file path="…">…</file> and <edit path="…">…</edit> block (each closed) and one <summary>…</summary>.'
      : 'and nothing else.',
    '',
    `The envelope must have this shape: ${envelopeShapeHint(step)}`,
  ];
  if (truncated) {
    lines.push('', 'Your reply was too long and was cut off: keep the same content but be more concise so that it fits.');
  } else if (raw.trim() !== '') {
    lines.push('', 'Keep your content; only fix the problems listed above.');
  }
  lines.push('Do not add any explanation before or after the reply.');
  return lines.join('\n');
}
