// The edits domain (src/core/edits/) owns DevA's changes to existing files: matching the SEARCH/REPLACE hunks of an
// <edit> block against the current content (this file), and turning the blocks into proposals with one repair round
// (propose.ts). The reply parser (src/core/reply/blocks.ts) only cuts the blocks out of the reply. Plain Node: nothing
// in src/core may import 'vscode'.
//
// Matching, hunk by hunk, each against the content as the earlier hunks left it. A hunk must match exactly one place:
//  1. exactly (line by line);
//  2. otherwise ignoring trailing whitespace and a uniform indentation shift (every non-blank line of the SEARCH text
//     is the file's line with the same leading whitespace added or removed); the REPLACE lines get the same shift.
// No match or several matches at the first level that finds any is a failure, named by the SEARCH text's first line.
// A hunk with several possible ======= dividers (the parser keeps each reading) applies the one reading that matches
// exactly one place; when several readings do, it is refused rather than guessed. A hunk that would match only with
// its indentation ignored (spaces for the file's tabs) is not applied either: its failure says how the indentation
// differs, for the repair.
// A SEARCH copied from read_file's numbered view with the numbers ("12: const a = 1;" on every line, counting up) that
// matches nowhere as written is matched without them (text/lines.ts withoutLineNumbers); of several places, the one
// at the numbers' lines in the file as read. Its REPLACE lines lose the numbers too: all of them when every non-blank
// one has one, else the ones copied from the SEARCH.
// Unicode normalization does not count: lines are compared by their NFC form, so a SEARCH with composed accents (é)
// matches a file that spells them decomposed (e + U+0301, as text copied from macOS file names does), and the other
// way round. The file keeps its own text: a line the hunk does not change (around it, or a context line the REPLACE
// repeats at the hunk's start or end) stays byte for byte; only the changed lines take the REPLACE text.
// Finding the places costs the file's lines plus the SEARCH's, not their product (./locate.ts).
// Line endings: the file's own, line by line (CRLF stays CRLF, a mixed file keeps each untouched line's ending, a
// missing final newline stays missing); the model's text is taken with LF. A UTF-8 byte-order mark stays in front.

import type { Hunk } from '../model/types';
import { shorten } from '../text/cut';
import { usualLineBreak } from '../files/text';
import { lineNumberOf, withoutCr, withoutLineNumbers } from '../text/lines';
import { indentationHint, locate, overlapped, type Located, type Shift } from './locate';

export type { Hunk };

export interface HunkFailure {
  /** 0-based index of the hunk in its block. */
  index: number;
  /** The SEARCH text's first non-blank line, to name the hunk to the model and the user. */
  firstLine: string;
  reason: string;
}

/** A hunk's place in the resulting content: lines [start, start + lines) replaced the matched ones. */
export interface AppliedHunk {
  index: number;
  /** 0-based first line in the content before this hunk (and after the earlier ones). */
  start: number;
  removed: number;
  added: number;
  tolerant: boolean;
}

/** The most hunk readings × file lines one block's hunks are matched on (about a second of work). */
export const MAX_HUNK_WORK = 3_000_000;

function countLines(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

export type MatchResult = { ok: true; content: string; applied: AppliedHunk[] } | { ok: false; failures: HunkFailure[]; applied: AppliedHunk[] };

export function hunkName(h: Hunk): string {
  const first = h.search.find((l) => l.trim() !== '') ?? '';
  const t = first.trim();
  return shorten(t, 80);
}

function shifted(lines: string[], s: Shift): string[] {
  return lines.map((l) => {
    if (l.trim() === '') return l;
    if (s.remove && l.startsWith(s.remove)) return l.slice(s.remove.length);
    return s.add + l;
  });
}

/** A file as lines: each line's text and its own ending ('' for a last line without one), the byte-order mark apart. */
interface FileLines {
  bom: string;
  lines: string[];
  eols: string[];
}

function splitFile(content: string): FileLines {
  // a byte-order mark is not part of the first line (read_file never shows it); it stays in front of the file
  const bom = content.startsWith('\uFEFF') ? '\uFEFF' : '';
  // each line with its own ending: a file that mixes CRLF and LF keeps the ending of every line the hunks leave alone
  const parts = content.slice(bom.length).split(/(\r?\n)/);
  const lines: string[] = [];
  const eols: string[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    lines.push(parts[i]);
    eols.push(parts[i + 1] ?? '');
  }
  if (lines.length > 1 && lines[lines.length - 1] === '' && eols[eols.length - 1] === '') {
    // the text after the final line break is not a line
    lines.pop();
    eols.pop();
  }
  return { bom, lines, eols };
}

function joinFile(f: FileLines): string {
  return f.bom + f.lines.map((l, i) => l + f.eols[i]).join('');
}

/** The content as the hunks so far left it, and where its lines came from (to name the hunk a later one overlaps). */
interface Progress extends FileLines {
  /** What the hunks are matched against: each line's NFC form. */
  keys: string[];
  /** The keys before any hunk. */
  original: string[];
  /** Each line's index in the original; -1 for a line a hunk put there. */
  origin: number[];
  /** By index in the original: the hunk that replaced the line. */
  replacedBy: number[];
  /** The ending of a new line that takes none from the lines it replaces: the file's more frequent one. */
  usual: string;
}

function startProgress(content: string): Progress {
  const f = splitFile(content);
  const usual = usualLineBreak(content);
  const keys = f.lines.map(nfc);
  return { ...f, keys, original: keys, origin: f.lines.map((_, i) => i), replacedBy: [], usual };
}

// a line's CR, and a byte-order mark copied at the start of a hunk's first line: a file's mark is not part of its first
// line (splitFile), and stays in front of the file whatever the REPLACE says
const clean = (t: string[]) => t.map((l, i) => withoutCr(i === 0 ? l.replace(/^\uFEFF/, '') : l));
// most lines are ASCII, whose NFC form is themselves
const nfc = (l: string) => (/[\u0080-\uFFFF]/.test(l) ? l.normalize('NFC') : l);
const blank = (t: string[]) => t.every((l) => l.trim() === '');

/** A hunk placed: the SEARCH and REPLACE lines of the reading that matched, and the one place it matched. */
interface Placed {
  /** In NFC, like the keys. */
  search: string[];
  replace: string[];
  at: number;
  shift?: Shift;
  level: 'exact' | 'tolerant';
  /** The SEARCH was matched without read_file's line numbers. */
  unnumbered?: true;
}

/**
 * The one place hunk `h` applies in the current lines, or why it cannot be applied (no place, several places,
 * several fitting readings, an empty SEARCH). `afterOthers`: earlier hunks were applied (a hunk may overlap them).
 */
function place(p: Progress, h: Hunk, afterOthers: boolean): Placed | string {
  let search = clean(h.search).map(nfc);
  let replace = clean(h.replace);
  let found: Located | null = null;
  if (h.readings && h.readings.length > 1) {
    // several lines could be the divider: the one reading whose SEARCH matches exactly one place
    const fits = h.readings
      .map((r) => ({ search: clean(r.search).map(nfc), replace: clean(r.replace) }))
      .filter((r) => !blank(r.search))
      .map((r) => ({ ...r, found: locate(p.keys, r.search) }))
      .filter((r) => r.found.places.length === 1);
    if (fits.length > 1) {
      return 'has several ======= lines, and more than one way of splitting it into SEARCH and REPLACE matches the file; send this file whole in a <file path="…"> block instead';
    }
    if (fits.length === 1) ({ search, replace, found } = fits[0]);
  }
  if (blank(search)) return EMPTY_SEARCH;
  found ??= locate(p.keys, search);
  if (found.places.length === 0) return unnumberedPlace(p, search, replace) ?? noPlaceReason(p, search, afterOthers);
  if (found.places.length > 1) {
    const at = found.places.slice(0, 5).map((x) => x.at + 1).join(', ');
    return `matches ${found.places.length} places (lines ${at}${found.places.length > 5 ? ', …' : ''}); include more surrounding lines so it matches exactly one`;
  }
  return { search, replace, ...found.places[0], level: found.level };
}

/**
 * A SEARCH copied with read_file's line numbers, placed without them (see the header); null when its lines do not all
 * carry counting numbers.
 */
function unnumberedPlace(p: Progress, search: string[], replace: string[]): Placed | string | null {
  const bare = withoutLineNumbers(search);
  if (!bare || blank(bare.lines)) return null;
  const found = locate(p.keys, bare.lines);
  // of several places, the one where the numbers put it in the file as read (earlier hunks may have moved it since)
  const places = found.places.length > 1 ? found.places.filter((x) => p.origin[x.at] === bare.first - 1) : found.places;
  if (places.length !== 1) {
    const what = found.places.length === 0 ? 'matches nowhere' : `matches ${found.places.length} places`;
    return `${what} in the current file, even without the line numbers its lines start with (copy the text after "N: " exactly, never the number)`;
  }
  const numbered = new Set(search);
  const nonBlank = replace.filter((l) => l.trim() !== '');
  const all = nonBlank.length > 0 && nonBlank.every((l) => lineNumberOf(l));
  // the SEARCH lines are in NFC (the keys'), the REPLACE lines as written
  const unnumbered = replace.map((l) => (all || numbered.has(nfc(l)) ? (lineNumberOf(l)?.text ?? l) : l));
  return { search: bare.lines, replace: unnumbered, ...places[0], level: found.level, unnumbered: true };
}

const EMPTY_SEARCH = 'the SEARCH text is empty (to create a file use a <file> block; to add lines, SEARCH for the lines next to them)';

/** Why a SEARCH that matches nowhere does not: it overlaps an earlier hunk, its indentation differs, or neither. */
function noPlaceReason(p: Progress, search: string[], afterOthers: boolean): string {
  const earlier = afterOthers ? overlapped(p.original, p.replacedBy, search) : null;
  if (earlier !== null) return `matches nowhere once the earlier hunks are applied: it overlaps lines that hunk ${earlier + 1} already changed; make the two one hunk`;
  const indent = indentationHint(p.keys, search);
  if (indent) return `matches nowhere in the current file as written: ${indent}; copy the lines with the file's exact indentation`;
  return 'matches nowhere in the current file (copy the SEARCH lines exactly as they are in the file)';
}

/**
 * The lines that take the place of the matched ones: the REPLACE lines (shifted like the match), except that a line
 * the REPLACE keeps as its SEARCH has it at the hunk's start or end (the same text in NFC) stays the file's own — also
 * after a tolerant match, whose SEARCH line may lack the file line's trailing whitespace (a Markdown line break).
 */
function replacement(p: Progress, x: Placed): string[] {
  const repl = x.shift ? shifted(x.replace, x.shift) : [...x.replace];
  const end = x.at + x.search.length;
  const n = Math.min(repl.length, x.search.length);
  const kept = (r: number, s: number) => nfc(x.replace[r]) === x.search[s];
  let head = 0;
  for (; head < n && kept(head, head); head++) repl[head] = p.lines[x.at + head];
  for (let k = 1; k <= n - head && kept(repl.length - k, x.search.length - k); k++) repl[repl.length - k] = p.lines[end - k];
  return repl;
}

/** Replaces the placed hunk's lines by their replacement, each with a fitting line ending. */
function replaceLines(p: Progress, x: Placed, index: number): AppliedHunk {
  const repl = replacement(p, x);
  const end = x.at + x.search.length;
  // the new lines end like the first line they replace; the last one like the last replaced (none at the file's end)
  const inner = p.eols[x.at] || p.usual;
  const lastEol = p.eols[end - 1];
  const replEols = repl.map((_, k) => (k === repl.length - 1 ? lastEol : inner));
  if (repl.length === 0 && end === p.lines.length && x.at > 0 && lastEol === '') p.eols[x.at - 1] = '';
  for (let k = x.at; k < end; k++) if (p.origin[k] >= 0) p.replacedBy[p.origin[k]] = index;
  p.origin = [...p.origin.slice(0, x.at), ...repl.map(() => -1), ...p.origin.slice(end)];
  p.lines = [...p.lines.slice(0, x.at), ...repl, ...p.lines.slice(end)];
  p.keys = [...p.keys.slice(0, x.at), ...repl.map(nfc), ...p.keys.slice(end)];
  p.eols = [...p.eols.slice(0, x.at), ...replEols, ...p.eols.slice(end)];
  return { index, start: x.at, removed: x.search.length, added: repl.length, tolerant: x.level === 'tolerant' || !!x.unnumbered };
}

/** Applies the hunks to `content` (see the header for the rules). Reports every failing hunk, not only the first. */
export function applyHunks(content: string, hunks: Hunk[]): MatchResult {
  // each hunk's reading is looked for through the whole file: thousands of hunks on a file of 50,000 lines took
  // minutes, with the extension host waiting
  const readings = hunks.reduce((n, h) => n + (h.readings?.length ?? 1), 0);
  const lines = countLines(content);
  if (hunks.length > 1 && readings * lines > MAX_HUNK_WORK) {
    const reason = `${hunks.length} hunks on a file of ${lines} lines are more than are matched in one block: send fewer, larger hunks (at most ${Math.max(1, Math.floor(MAX_HUNK_WORK / lines))} here), or the file whole in a <file> block`;
    return { ok: false, failures: [{ index: 0, firstLine: hunkName(hunks[0]), reason }], applied: [] };
  }
  const p = startProgress(content);
  const failures: HunkFailure[] = [];
  const applied: AppliedHunk[] = [];
  hunks.forEach((h, index) => {
    const x = place(p, h, applied.length > 0);
    if (typeof x === 'string') failures.push({ index, firstLine: x === EMPTY_SEARCH ? '' : hunkName(h), reason: x });
    else applied.push(replaceLines(p, x, index));
  });
  if (failures.length > 0) return { ok: false, failures, applied };
  return { ok: true, content: joinFile(p), applied };
}
