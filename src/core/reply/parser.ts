// Tolerant parser of one model reply: the JSON envelope (fenced or bare), then DevA's
// <file path="…">…</file> and <edit path="…">…</edit> blocks and an optional <summary>…</summary>.
//
// The envelope is located by string-aware brace matching (never a regex over the JSON), so braces
// and ``` inside JSON strings are harmless. File blocks are searched only AFTER the envelope ends,
// so `<file …>` text quoted inside a JSON string is never picked up. Failures are reported with a
// concrete reason (truncation, invalid JSON, schema problems, unterminated file block): nothing is
// silently dropped. Almost-JSON is repaired by the jsonrepair library; the truncation check stays ours, because
// jsonrepair would "complete" a cut-off reply by closing it, and a cut-off reply must be reported, not guessed.
// Invalid JSON is quoted around the place it broke (line, column, a marked excerpt), not from the object's start.
// A reply with several complete envelopes (a model that corrects itself) uses the last one and says so.
import type { Hunk, ParsedReply, StepId } from '../model/types';
import { jsonrepair, JSONRepairError } from 'jsonrepair';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { envelopeShapeHint, validateEnvelope } from './envelope';
import { sliceWhole } from '../text/cut';

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
 * String-aware: braces inside "…" (with escapes) are ignored.
 */
export function matchBalanced(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  const n = text.length;
  for (let i = start; i < n; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
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
    try {
      // jsonrepair: trailing commas, comments, raw newlines and unescaped quotes in strings, single quotes, Python
      // literals, missing commas. Only ever given a balanced slice: truncation is our own check (matchBalanced).
      return { ok: true, value: JSON.parse(jsonrepair(slice)) };
    } catch (r) {
      const errors: ParseError[] = [];
      parseJsonc(slice, errors, { allowTrailingComma: true });
      const strict: JsonFailure = errors.length
        ? { message: sentenceOf(printParseErrorCode(errors[0].error)), position: errors[0].offset }
        : { message: withoutPosition(e instanceof Error ? e.message : String(e)), position: null };
      return { ok: false, strict, repair: r instanceof JSONRepairError ? { message: withoutPosition(r.message), position: r.position } : null };
    }
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
    const end = matchBalanced(text, start);
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
    const end = matchBalanced(text, start);
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
// File blocks and summary

/** An opening <file> or <edit> tag at the start of a line (or right after a closing tag); extra attributes tolerated. */
const BLOCK_OPEN = /(?<=^|\n|<\/file>|<\/edit>)[ \t]*<(file|edit)\s+path\s*=\s*(?:"([^"\r\n]*)"|'([^'\r\n]*)')[^>\r\n]*>/g;

/**
 * An opening tag that ends its line wherever it starts: a block the model began mid-line ("Here it is: <file path=…>"),
 * which BLOCK_OPEN does not read as one (a tag named in prose goes on in its line).
 */
const LOOSE_OPEN = /<(file|edit)\s+path\s*=\s*(?:"([^"\r\n]*)"|'([^'\r\n]*)')[^>\r\n]*>[ \t]*\r?$/gm;

/** The first opening tag in text[from, to) that ends its line outside the spans, or null. */
function looseTag(text: string, from: number, to: number, spans: readonly [number, number][] = []): { kind: string; path: string } | null {
  LOOSE_OPEN.lastIndex = from;
  for (let m = LOOSE_OPEN.exec(text); m !== null && m.index < to; m = LOOSE_OPEN.exec(text)) {
    const at = m.index;
    if (!spans.some(([a, b]) => at >= a && at < b)) return { kind: m[1], path: m[2] ?? m[3] ?? '' };
  }
  return null;
}

/** One <edit path="…"> block: its SEARCH/REPLACE hunks (see src/core/edits/match.ts for how they are matched). */
export interface EditBlock {
  path: string;
  hunks: Hunk[];
}

interface FileScan {
  files: { path: string; content: string }[];
  edits: EditBlock[];
  /** Index just after the last closing tag (or `from` when there are no blocks). */
  end: number;
  /** Index of the first <file>/<edit> tag (or the end of the text when there are none). */
  firstTag: number;
}

const HUNK_SEARCH = /^[ \t]*<{5,9}[ \t]*SEARCH[ \t]*$/;
const HUNK_DIVIDER = /^[ \t]*={5,9}[ \t]*$/;
const HUNK_REPLACE = /^[ \t]*>{5,9}[ \t]*REPLACE[ \t]*$/;

/**
 * The hunks of an <edit> body; lines outside hunks (blank lines, stray fences) are ignored, but for a >>>>>>> REPLACE
 * line after a hunk (a REPLACE text with a marker line of its own, which cut the hunk short). A hunk runs from its
 * SEARCH marker to its REPLACE marker; the divider is its one ======= line. When the text itself has divider-like
 * lines (a Markdown heading's underline), the one that is exactly ======= is the divider; when several are, every
 * split is kept as a reading and the matcher (src/core/edits/match.ts) applies the one that fits the file.
 */
export function parseHunks(body: string, path: string): { ok: true; hunks: Hunk[] } | { ok: false; error: string } {
  const lines = body.split(/\r?\n/);
  const hunks: Hunk[] = [];
  let inside: string[] | null = null;
  const noDivider = () => `hunk ${hunks.length + 1} of the <edit path="${path}"> block has no ======= line between SEARCH and REPLACE`;
  for (const line of lines) {
    if (inside === null) {
      if (HUNK_SEARCH.test(line)) inside = [];
      // the REPLACE text had a marker line of its own, which ended the hunk early: applying it would drop lines
      else if (HUNK_REPLACE.test(line) && hunks.length > 0) {
        return {
          ok: false,
          error: `the <edit path="${path}"> block has a >>>>>>> REPLACE line after hunk ${hunks.length} ends: its text has marker lines of its own; send this file whole in a <file path="${path}"> block instead`,
        };
      }
    } else if (HUNK_REPLACE.test(line)) {
      const dividers = inside.flatMap((l, i) => (HUNK_DIVIDER.test(l) ? [i] : []));
      if (dividers.length === 0) return { ok: false, error: noDivider() };
      const exact = dividers.filter((i) => inside![i].trim() === '=======');
      const at = dividers.length === 1 ? dividers : exact.length > 0 ? exact : dividers;
      const body = inside;
      const readings = at.map((i) => ({ search: body.slice(0, i), replace: body.slice(i + 1) }));
      hunks.push(readings.length === 1 ? readings[0] : { ...readings[0], readings });
      inside = null;
    } else if (HUNK_SEARCH.test(line) && !inside.some((l) => HUNK_DIVIDER.test(l))) {
      return { ok: false, error: noDivider() };
    } else inside.push(line);
  }
  if (inside !== null) return { ok: false, error: `hunk ${hunks.length + 1} of the <edit path="${path}"> block is not closed with >>>>>>> REPLACE` };
  if (hunks.length === 0) return { ok: false, error: `the <edit path="${path}"> block has no <<<<<<< SEARCH / ======= / >>>>>>> REPLACE hunk` };
  return { ok: true, hunks };
}

/** Index of the first <file>/<edit> opening tag at or after `from`, or the end of the text. */
function firstBlockTag(text: string, from: number): number {
  BLOCK_OPEN.lastIndex = from;
  const m = BLOCK_OPEN.exec(text);
  return m ? m.index + m[0].indexOf('<') : text.length;
}

/** What follows a closing tag that ends its block: the end of its line, of the text, or the next tag. */
const CLOSE_END = /[ \t]*(?:\r?\n|<|$)/y;

/**
 * Where the block whose content starts at `from` closes (`tag` before `limit`), or -1: the last such tag that ends its
 * line (CLOSE_END), else the last one. A tag in running text after the block (a summary naming `</file>`) is no end.
 */
function closingTagAt(text: string, tag: string, from: number, limit: number): number {
  const last = text.lastIndexOf(tag, limit - tag.length);
  for (let at = last; at >= from; at = at > 0 ? text.lastIndexOf(tag, at - 1) : -1) {
    CLOSE_END.lastIndex = at + tag.length;
    if (CLOSE_END.test(text)) return at;
  }
  return last;
}

/**
 * Extracts <file> and <edit> blocks from `text` starting at `from`. A block ends at the LAST closing tag of its kind
 * before the next opening tag (or the end of the text) that ends its line (closingTagAt), so file contents may
 * themselves contain `</file>`, and prose after the last block may name it.
 * File content keeps every byte except one leading newline: the newline before `</file>` ends the file's last line,
 * as a text file's last line ends (`<file path="a">\nx\n</file>` is "x\n").
 */
export function extractFiles(text: string, from = 0): { ok: true; scan: FileScan } | { ok: false; error: string } {
  const opens: { kind: 'file' | 'edit'; path: string; tagStart: number; contentStart: number }[] = [];
  // NOTE: BLOCK_OPEN is shared (global flag): set lastIndex before every use.
  BLOCK_OPEN.lastIndex = from;
  let m: RegExpExecArray | null;
  while ((m = BLOCK_OPEN.exec(text)) !== null) {
    const tagStart = m.index + m[0].indexOf('<');
    opens.push({ kind: m[1] as 'file' | 'edit', path: m[2] ?? m[3] ?? '', tagStart, contentStart: m.index + m[0].length });
  }
  const files: { path: string; content: string }[] = [];
  const edits: EditBlock[] = [];
  /** Each block from its tag to the end of its closing tag. */
  const spans: [number, number][] = [];
  let end = from;
  for (let k = 0; k < opens.length; k++) {
    const o = opens[k];
    const closeTag = `</${o.kind}>`;
    const limit = k + 1 < opens.length ? opens[k + 1].tagStart : text.length;
    const close = closingTagAt(text, closeTag, o.contentStart, limit);
    if (close < o.contentStart) {
      const where = k + 1 < opens.length ? `before the next <${opens[k + 1].kind}> block starts` : 'before the reply ends (probably cut off by max_tokens)';
      return { ok: false, error: `the <${o.kind} path="${o.path}"> block is not closed with ${closeTag} ${where}` };
    }
    if (o.path.trim() === '') return { ok: false, error: `a <${o.kind}> block has an empty path attribute` };
    let content = text.slice(o.contentStart, close);
    if (o.kind === 'edit') {
      const hunks = parseHunks(content, o.path);
      if (!hunks.ok) return { ok: false, error: hunks.error };
      edits.push({ path: o.path, hunks: hunks.hunks });
    } else {
      // the newline after the opening tag is the tag's; the one before the closing tag ends the file's last line
      if (content.startsWith('\r\n')) content = content.slice(2);
      else if (content.startsWith('\n')) content = content.slice(1);
      files.push({ path: o.path, content });
    }
    end = close + closeTag.length;
    spans.push([o.tagStart, end]);
  }
  const stray = looseTag(text, from, text.length, spans);
  if (stray) {
    return { ok: false, error: `the <${stray.kind} path="${stray.path}"> tag does not start its line, so its block was not read: put each <file> and <edit> tag on a line of its own` };
  }
  return { ok: true, scan: { files, edits, end, firstTag: opens.length > 0 ? opens[0].tagStart : text.length } };
}

/**
 * The text of `<summary>…</summary>` within [from, to) (trimmed), tolerating a missing closing tag.
 */
export function extractSummary(text: string, from = 0, to = text.length): string | null {
  const open = text.indexOf('<summary>', from);
  if (open === -1 || open >= to) return null;
  const start = open + '<summary>'.length;
  const close = text.lastIndexOf('</summary>', to);
  const body = close >= start ? text.slice(start, close) : text.slice(start, to);
  return body.trim();
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
