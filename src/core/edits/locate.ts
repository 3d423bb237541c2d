// Where a SEARCH text stands in a file's lines, for the edit matcher (./match.ts, which says the rules: exactly, else
// ignoring trailing whitespace and a uniform indentation shift). Plain Node: nothing in src/core may import 'vscode'.
//
// Cost: linear in the file's and the SEARCH's lines, whatever they hold. Comparing the SEARCH at every line of the
// file costs lines × SEARCH lines when most places agree for a long while (a file of `}` lines against a SEARCH of
// `}` lines: seconds for 50,000 × 500). Instead, each line becomes a key and the SEARCH's keys are looked for in the
// file's by Knuth–Morris–Pratt, which never compares a line twice for one place (occurrences below: a dozen lines,
// for which no package is worth a dependency).
//  - exactly: the key is the line;
//  - with trailing whitespace and a uniform shift ignored: the key is the line's text after its indentation, with how
//    its indentation differs from the previous non-blank line's (what is left of each once their common start is cut
//    off). A uniform shift keeps those differences, and keeping them makes the shift uniform: the lines after the
//    SEARCH's first non-blank one are found by key, and that first line, whose previous line lies outside the place,
//    is checked on its own (its indentation is the other one's with some added or removed).
// The places found are the ones comparing line by line finds (test/unit/editLocate.test.ts compares the two).

export interface Shift {
  /** Whitespace the file has in front of each non-blank SEARCH line ('' when removed). */
  add: string;
  /** Whitespace the SEARCH lines have in front that the file does not ('' when added). */
  remove: string;
}

export interface Located {
  level: 'exact' | 'tolerant';
  places: { at: number; shift?: Shift }[];
}

/** Lines looked at (keys made, comparisons, places checked) since the last reset: how tests bound the cost. */
export const locateWork = { steps: 0 };

export function leading(s: string): string {
  return /^[ \t]*/.exec(s)![0];
}

/**
 * Every index where `needle` (non-empty) starts in `hay`, overlapping ones too, ascending: Knuth–Morris–Pratt, at most
 * 2 × (hay + needle) steps. Keys are numbers; a hay key of -1 matches nothing.
 */
function occurrences(hay: ArrayLike<number>, needle: ArrayLike<number>): number[] {
  const fail = new Int32Array(needle.length);
  for (let i = 1, k = 0; i < needle.length; i++) {
    while (k > 0 && needle[i] !== needle[k]) {
      k = fail[k - 1];
      locateWork.steps++;
    }
    if (needle[i] === needle[k]) k++;
    fail[i] = k;
    locateWork.steps++;
  }
  const out: number[] = [];
  for (let i = 0, k = 0; i < hay.length; i++) {
    while (k > 0 && hay[i] !== needle[k]) {
      k = fail[k - 1];
      locateWork.steps++;
    }
    if (hay[i] === needle[k]) k++;
    if (k === needle.length) {
      out.push(i - k + 1);
      k = fail[k - 1];
    }
    locateWork.steps++;
  }
  return out;
}

/** Where the keys of `search` occur in the keys of `file` (each line's key by `key`). */
function keyedOccurrences(file: readonly string[], search: readonly string[], key: (line: string, i: number) => string): number[] {
  const ids = new Map<string, number>();
  const needle = search.map((l, i) => {
    const k = key(l, i);
    if (!ids.has(k)) ids.set(k, ids.size);
    return ids.get(k)!;
  });
  const hay = new Int32Array(file.length);
  for (let i = 0; i < file.length; i++) hay[i] = ids.get(key(file[i], i)) ?? -1;
  locateWork.steps += file.length + search.length;
  return occurrences(hay, needle);
}

/** A line as the tolerant level sees it: blank, or its indentation and the text after it (trailing whitespace cut). */
interface Shape {
  lead: string;
  rest: string;
}

function shape(line: string): Shape | null {
  const t = line.trimEnd();
  if (t === '') return null;
  const lead = leading(t);
  return { lead, rest: t.slice(lead.length) };
}

/**
 * The tolerant keys of `lines`: '\n' for a blank line (no line holds one), else how the line's indentation differs
 * from the previous non-blank line's (each cut after their common start; only spaces and tabs, so '|' separates)
 * and its text after the indentation.
 */
function tolerantKeys(lines: readonly string[]): { keys: string[]; shapes: (Shape | null)[] } {
  let prev = '';
  const shapes = lines.map(shape);
  const keys = shapes.map((s) => {
    if (!s) return '\n';
    let c = 0;
    while (c < prev.length && c < s.lead.length && prev[c] === s.lead[c]) c++;
    const key = `${prev.slice(c)}|${s.lead.slice(c)}|${s.rest}`;
    prev = s.lead;
    return key;
  });
  return { keys, shapes };
}

/** The shift under which file line `f` is SEARCH line `s` (both non-blank), or null. */
function lineShift(f: Shape, s: Shape): Shift | null {
  if (f.rest !== s.rest) return null;
  if (f.lead.length >= s.lead.length) return f.lead.endsWith(s.lead) ? { add: f.lead.slice(0, f.lead.length - s.lead.length), remove: '' } : null;
  return s.lead.endsWith(f.lead) ? { add: '', remove: s.lead.slice(0, s.lead.length - f.lead.length) } : null;
}

/** Places where `search` (not all blank) equals the file with trailing whitespace and one uniform shift ignored. */
function tolerantPlaces(file: readonly string[], search: readonly string[]): { at: number; shift: Shift }[] {
  const last = file.length - search.length;
  if (last < 0) return [];
  const s = tolerantKeys(search);
  const f = tolerantKeys(file);
  locateWork.steps += file.length + search.length;
  // blank lines before each line, to check the SEARCH's leading blank lines at a place at once
  const blanksBefore = new Int32Array(file.length + 1);
  for (let i = 0; i < file.length; i++) blanksBefore[i + 1] = blanksBefore[i] + (f.shapes[i] ? 0 : 1);
  const first = s.shapes.findIndex((x) => x !== null);
  if (first === -1) {
    // an all-blank SEARCH (the matcher refuses one before): every place of as many blank lines
    const all = Array.from({ length: last + 1 }, (_, at) => at);
    return all.filter((at) => blanksBefore[at + search.length] - blanksBefore[at] === search.length).map((at) => ({ at, shift: { add: '', remove: '' } }));
  }
  const after = search.slice(first + 1);
  const starts = after.length === 0 ? Array.from({ length: last + 1 }, (_, i) => i) : keyedOccurrences(f.keys, s.keys.slice(first + 1), (k) => k).map((j) => j - first - 1);
  const out: { at: number; shift: Shift }[] = [];
  for (const at of starts) {
    locateWork.steps++;
    if (at < 0 || at > last || blanksBefore[at + first] - blanksBefore[at] !== first) continue;
    const line = f.shapes[at + first];
    const shift = line ? lineShift(line, s.shapes[first]!) : null;
    if (shift) out.push({ at, shift });
  }
  return out;
}

/** Places where the hunk matches, and the level that found them (exact ones first; see match.ts). */
export function locate(file: readonly string[], search: readonly string[]): Located {
  if (search.length > file.length) return { level: 'tolerant', places: [] };
  // an empty SEARCH (the matcher refuses one before) is everywhere
  if (search.length === 0) return { level: 'exact', places: Array.from({ length: file.length + 1 }, (_, at) => ({ at })) };
  const exact = keyedOccurrences(file, search, (l) => l);
  if (exact.length > 0) return { level: 'exact', places: exact.map((at) => ({ at })) };
  return { level: 'tolerant', places: tolerantPlaces(file, search) };
}

/**
 * For a hunk that matches nowhere: when it would match with every line's indentation ignored, how the file's
 * indentation differs from the SEARCH's (tabs against spaces, or not one uniform shift), to tell the model. Only a
 * hint: such a match is never applied (re-indenting the REPLACE lines would be a guess).
 */
export function indentationHint(file: readonly string[], search: readonly string[]): string | null {
  if (search.length === 0 || search.length > file.length) return null;
  const [i] = keyedOccurrences(file, search, (l) => l.trim());
  if (i === undefined) return null;
  const indents = (ls: readonly string[]) => ls.filter((l) => l.trim() !== '').map(leading).join('');
  const f = indents(file.slice(i, i + search.length));
  const s = indents(search);
  if (f.includes('\t') && !s.includes('\t') && s.includes(' ')) return 'the file indents these lines with tabs where the SEARCH has spaces';
  if (s.includes('\t') && !f.includes('\t') && f.includes(' ')) return 'the file indents these lines with spaces where the SEARCH has tabs';
  return "the SEARCH lines are indented differently from the file's (not by one uniform shift)";
}

/** For a hunk that matches nowhere now: the earlier hunk that replaced lines where it matched the original, or null. */
export function overlapped(original: readonly string[], replacedBy: readonly number[], search: readonly string[]): number | null {
  // the first replaced line at or after each line of the original
  const next = new Int32Array(original.length + 1).fill(original.length);
  for (let k = original.length - 1; k >= 0; k--) next[k] = replacedBy[k] !== undefined ? k : next[k + 1];
  for (const p of locate(original, search).places) {
    const k = next[p.at];
    if (k < p.at + search.length) return replacedBy[k];
  }
  return null;
}
