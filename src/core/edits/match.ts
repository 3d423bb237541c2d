// The edits domain (src/core/edits/) owns DevA's changes to existing files: matching the SEARCH/REPLACE hunks of an
// <edit> block against the current content (this file), and turning the blocks into proposals with one repair round
// (propose.ts). The reply parser (src/core/reply/parser.ts) only cuts the blocks out of the reply. Plain Node: nothing
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
// Line endings: the file's own, line by line (CRLF stays CRLF, a mixed file keeps each untouched line's ending, a
// missing final newline stays missing); the model's text is taken with LF. A UTF-8 byte-order mark stays in front.

import type { Hunk } from '../model/types';
import { sliceWhole } from '../text/cut';

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

export type MatchResult = { ok: true; content: string; applied: AppliedHunk[] } | { ok: false; failures: HunkFailure[]; applied: AppliedHunk[] };

export function hunkName(h: Hunk): string {
  const first = h.search.find((l) => l.trim() !== '') ?? '';
  const t = first.trim();
  return t.length > 80 ? sliceWhole(t, 0, 80) + '…' : t;
}

interface Shift {
  /** Whitespace the file has in front of each non-blank SEARCH line ('' when removed). */
  add: string;
  /** Whitespace the SEARCH lines have in front that the file does not ('' when added). */
  remove: string;
}

function leading(s: string): string {
  return /^[ \t]*/.exec(s)![0];
}

/** The uniform shift under which `search` equals `file` (trailing whitespace ignored), or null. */
function shiftMatch(file: string[], at: number, search: string[]): Shift | null {
  let shift: Shift | null = null;
  for (let k = 0; k < search.length; k++) {
    const f = file[at + k].trimEnd();
    const s = search[k].trimEnd();
    if (s === '' || f === '') {
      if (s !== f) return null;
      continue;
    }
    let here: Shift;
    const fl = leading(f);
    const sl = leading(s);
    if (fl.length >= sl.length && fl.endsWith(sl) && f.slice(fl.length - sl.length) === s) here = { add: fl.slice(0, fl.length - sl.length), remove: '' };
    else if (sl.length > fl.length && sl.endsWith(fl) && s.slice(sl.length - fl.length) === f) here = { add: '', remove: sl.slice(0, sl.length - fl.length) };
    else return null;
    if (shift && (shift.add !== here.add || shift.remove !== here.remove)) return null;
    shift = here;
  }
  return shift ?? { add: '', remove: '' };
}

function exactAt(file: string[], at: number, search: string[]): boolean {
  for (let k = 0; k < search.length; k++) if (file[at + k] !== search[k]) return false;
  return true;
}

function shifted(lines: string[], s: Shift): string[] {
  return lines.map((l) => {
    if (l.trim() === '') return l;
    if (s.remove && l.startsWith(s.remove)) return l.slice(s.remove.length);
    return s.add + l;
  });
}

/** Places where the hunk matches; the level that found them. */
function locate(file: string[], search: string[]): { level: 'exact' | 'tolerant'; places: { at: number; shift?: Shift }[] } {
  const last = file.length - search.length;
  const exact: { at: number }[] = [];
  for (let i = 0; i <= last; i++) if (exactAt(file, i, search)) exact.push({ at: i });
  if (exact.length > 0) return { level: 'exact', places: exact };
  const tolerant: { at: number; shift: Shift }[] = [];
  for (let i = 0; i <= last; i++) {
    const s = shiftMatch(file, i, search);
    if (s) tolerant.push({ at: i, shift: s });
  }
  return { level: 'tolerant', places: tolerant };
}

/**
 * For a hunk that matches nowhere: when it would match with every line's indentation ignored, how the file's
 * indentation differs from the SEARCH's (tabs against spaces, or not one uniform shift), to tell the model. Only a
 * hint: such a match is never applied (re-indenting the REPLACE lines would be a guess).
 */
function indentationHint(file: string[], search: string[]): string | null {
  const last = file.length - search.length;
  for (let i = 0; i <= last; i++) {
    let same = true;
    for (let k = 0; k < search.length && same; k++) same = file[i + k].trim() === search[k].trim();
    if (!same) continue;
    const indents = (ls: string[]) => ls.filter((l) => l.trim() !== '').map(leading).join('');
    const f = indents(file.slice(i, i + search.length));
    const s = indents(search);
    if (f.includes('\t') && !s.includes('\t') && s.includes(' ')) return 'the file indents these lines with tabs where the SEARCH has spaces';
    if (s.includes('\t') && !f.includes('\t') && f.includes(' ')) return 'the file indents these lines with spaces where the SEARCH has tabs';
    return "the SEARCH lines are indented differently from the file's (not by one uniform shift)";
  }
  return null;
}

/** For a hunk that matches nowhere now: the earlier hunk that replaced lines where it matched the original, or null. */
function overlapped(original: string[], replacedBy: number[], search: string[]): number | null {
  for (const p of locate(original, search).places) {
    for (let k = p.at; k < p.at + search.length; k++) if (replacedBy[k] !== undefined) return replacedBy[k];
  }
  return null;
}

/** Applies the hunks to `content` (see the header for the rules). Reports every failing hunk, not only the first. */
export function applyHunks(content: string, hunks: Hunk[]): MatchResult {
  // a byte-order mark is not part of the first line (read_file never shows it); it stays in front of the file
  const bom = content.startsWith('\uFEFF') ? '\uFEFF' : '';
  // each line with its own ending: a file that mixes CRLF and LF keeps the ending of every line the hunks leave alone
  const parts = content.slice(bom.length).split(/(\r?\n)/);
  let lines: string[] = [];
  let eols: string[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    lines.push(parts[i]);
    eols.push(parts[i + 1] ?? '');
  }
  if (lines.length > 1 && lines[lines.length - 1] === '' && eols[eols.length - 1] === '') {
    // the text after the final line break is not a line
    lines.pop();
    eols.pop();
  }
  // for the failure of a hunk that overlaps an earlier one: each line's index in the original, the hunk that replaced it
  const original = lines;
  let origin = lines.map((_, i) => i);
  const replacedBy: number[] = [];
  const crlf = eols.filter((e) => e === '\r\n').length;
  const usual = crlf > eols.filter((e) => e === '\n').length ? '\r\n' : '\n';
  const failures: HunkFailure[] = [];
  const applied: AppliedHunk[] = [];
  const clean = (t: string[]) => t.map((l) => l.replace(/\r$/, ''));
  const blank = (t: string[]) => t.every((l) => l.trim() === '');
  hunks.forEach((h, index) => {
    let search = clean(h.search);
    let replace = clean(h.replace);
    let found: ReturnType<typeof locate> | null = null;
    if (h.readings && h.readings.length > 1) {
      // several lines could be the divider: the one reading whose SEARCH matches exactly one place
      const fits = h.readings
        .map((r) => ({ search: clean(r.search), replace: clean(r.replace) }))
        .filter((r) => !blank(r.search))
        .map((r) => ({ ...r, found: locate(lines, r.search) }))
        .filter((r) => r.found.places.length === 1);
      if (fits.length > 1) {
        failures.push({
          index,
          firstLine: hunkName(h),
          reason:
            'has several ======= lines, and more than one way of splitting it into SEARCH and REPLACE matches the file; send this file whole in a <file path="…"> block instead',
        });
        return;
      }
      if (fits.length === 1) ({ search, replace, found } = fits[0]);
    }
    if (blank(search)) {
      failures.push({ index, firstLine: '', reason: 'the SEARCH text is empty (to create a file use a <file> block; to add lines, SEARCH for the lines next to them)' });
      return;
    }
    found ??= locate(lines, search);
    if (found.places.length === 0) {
      const earlier = applied.length > 0 ? overlapped(original, replacedBy, search) : null;
      const indent = earlier === null ? indentationHint(lines, search) : null;
      failures.push({
        index,
        firstLine: hunkName(h),
        reason:
          earlier !== null
            ? `matches nowhere once the earlier hunks are applied: it overlaps lines that hunk ${earlier + 1} already changed; make the two one hunk`
            : indent
              ? `matches nowhere in the current file as written: ${indent}; copy the lines with the file's exact indentation`
              : 'matches nowhere in the current file (copy the SEARCH lines exactly as they are in the file)',
      });
      return;
    }
    if (found.places.length > 1) {
      const at = found.places.slice(0, 5).map((p) => p.at + 1).join(', ');
      failures.push({
        index,
        firstLine: hunkName(h),
        reason: `matches ${found.places.length} places (lines ${at}${found.places.length > 5 ? ', …' : ''}); include more surrounding lines so it matches exactly one`,
      });
      return;
    }
    const place = found.places[0];
    const repl = place.shift ? shifted(replace, place.shift) : replace;
    const end = place.at + search.length;
    // the new lines end like the first line they replace; the last one like the last replaced (none at the file's end)
    const inner = eols[place.at] || usual;
    const lastEol = eols[end - 1];
    const replEols = repl.map((_, k) => (k === repl.length - 1 ? lastEol : inner));
    if (repl.length === 0 && end === lines.length && place.at > 0 && lastEol === '') eols[place.at - 1] = '';
    for (let k = place.at; k < end; k++) if (origin[k] >= 0) replacedBy[origin[k]] = index;
    origin = [...origin.slice(0, place.at), ...repl.map(() => -1), ...origin.slice(end)];
    lines = [...lines.slice(0, place.at), ...repl, ...lines.slice(end)];
    eols = [...eols.slice(0, place.at), ...replEols, ...eols.slice(end)];
    applied.push({ index, start: place.at, removed: search.length, added: repl.length, tolerant: found.level === 'tolerant' });
  });
  if (failures.length > 0) return { ok: false, failures, applied };
  return { ok: true, content: bom + lines.map((l, i) => l + eols[i]).join(''), applied };
}
