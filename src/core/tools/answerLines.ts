// What the workspace tools answer with, line by line: a search's hit lines (text compared case-folded, a long line
// cut to an excerpt around its match) and a listing's lines (past MAX_LIST_LINES, the deeper folders' files counted
// per folder). The calls themselves, under the read policy, are workspaceCalls.ts's.
import { sliceWhole } from '../text/cut';

/**
 * list_files answers with at most this many lines: past it, the files deeper than some level are summarized per
 * folder ("tests/data/valid/ — 312 files"), the deepest level that fits, so a folder of test data or fixtures does not
 * bury the sources (a trial's first listing of a TOML parser was 1,000 data files, cut off before its tests).
 */
export const MAX_LIST_LINES = 300;
/** A search hit's line is cut to this many characters around its match. */
const MAX_HIT_LINE_CHARS = 240;

/**
 * Text as a search compares it: lower case, with the final sigma as the other (a query's "ΛΟΓΑΡΙΑΣ" lowers to end in
 * ς, the same letters inside a word to σ). Each character keeps its length (hitExcerpt relies on it).
 */
export function fold(text: string): string {
  return text.toLowerCase().replace(/ς/g, 'σ');
}

/**
 * A matching line as a search hit: whole when short, else MAX_HIT_LINE_CHARS around the match (a minified line's
 * match may be thousands of characters in), with … where it was cut, never inside a surrogate pair.
 */
export function hitExcerpt(text: string, needle: string): string {
  if (text.length <= MAX_HIT_LINE_CHARS) return text;
  const lower = fold(text);
  const at = originalIndex(text, lower, Math.max(0, lower.indexOf(needle)));
  let start = Math.max(0, at - Math.floor((MAX_HIT_LINE_CHARS - needle.length) / 3));
  const end = Math.min(text.length, start + MAX_HIT_LINE_CHARS);
  start = Math.max(0, end - MAX_HIT_LINE_CHARS);
  return (start > 0 ? '…' : '') + sliceWhole(text, start, end) + (end < text.length ? '…' : '');
}

/**
 * Where in `text` the character at `loweredAt` of its lower case `lower` comes from: the same place, unless a letter
 * before it lowers to more characters (Turkish İ to i̇), which would put an excerpt cut there past the match.
 */
function originalIndex(text: string, lower: string, loweredAt: number): number {
  if (lower.length === text.length) return loweredAt;
  let low = 0;
  let i = 0;
  while (i < text.length && low < loweredAt) {
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    low += ch.toLowerCase().length;
    i += ch.length;
  }
  return i;
}

/**
 * A listing's lines, in the walk's order: every file when they fit in MAX_LIST_LINES; else the files at most `depth`
 * folders below the listed one, and for each deeper folder one line with its file count, at the deepest level that
 * fits (`depth` null when every file is listed). Even the shallowest level may not fit: then its lines past the limit
 * are left out (`cut` of them).
 */
export function listingLines(files: readonly string[], relDir: string): { lines: string[]; depth: number | null; cut: number } {
  if (files.length <= MAX_LIST_LINES) return { lines: [...files], depth: null, cut: 0 };
  const base = relDir ? relDir.split('/').length : 0;
  const parts = files.map((f) => f.split('/'));
  // folders below the listed one: a file's segments, less the listed folder's and its own name
  const depthOf = (p: readonly string[]) => p.length - 1 - base;
  const deepest = parts.reduce((d, p) => Math.max(d, depthOf(p)), 0);
  for (let depth = deepest - 1; depth >= 0; depth--) {
    const lines: string[] = [];
    const counted = new Map<string, { at: number; n: number }>(); // a summarized folder: its line, its files
    parts.forEach((p, i) => {
      if (depthOf(p) <= depth) {
        lines.push(files[i]);
        return;
      }
      const folder = p.slice(0, base + depth + 1).join('/');
      const c = counted.get(folder);
      if (c) c.n++;
      else {
        counted.set(folder, { at: lines.length, n: 1 });
        lines.push(folder);
      }
    });
    if (lines.length > MAX_LIST_LINES && depth > 0) continue;
    for (const [folder, c] of counted) lines[c.at] = `${folder}/ — ${c.n} file(s)`;
    return { lines: lines.slice(0, MAX_LIST_LINES), depth, cut: Math.max(0, lines.length - MAX_LIST_LINES) };
  }
  // every file is directly in the listed folder
  return { lines: files.slice(0, MAX_LIST_LINES), depth: null, cut: files.length - MAX_LIST_LINES };
}
