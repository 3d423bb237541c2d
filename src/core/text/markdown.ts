// The few Markdown line rules CAPE reads documents by (team files, kpt_merged.md, an init file's sections), after
// CommonMark: a fence opens with 3+ backticks or tildes after at most 3 spaces and closes with a line of the same
// character, at least as long; an ATX heading is 1–6 `#`, a space and its title. One rule, so that a `#` line inside
// code is code for every reader alike. And a list written as one text read as its items (listItems).

import { LINE_BREAK } from './lines';

const FENCE_RE = /^\s{0,3}(`{3,}|~{3,})/;
// an ATX heading's opening run; the title after it is cut by code (headingOf), not by a regexp around `.*?`, whose
// white space on both sides made a long run of spaces quadratic
const HEADING_OPEN = /^\s{0,3}(#{1,6})(?=\s|$)/;

/** The fence a line opens (its run of backticks or tildes), or null. */
export function fenceOpening(line: string): string | null {
  return FENCE_RE.exec(line)?.[1] ?? null;
}

/** True when `line` closes the fence opened by `opening`: the same character, at least as many, nothing after. */
export function closesFence(line: string, opening: string): boolean {
  const f = FENCE_RE.exec(line)?.[1];
  return !!f && f[0] === opening[0] && f.length >= opening.length && line.trim() === f;
}

/**
 * An ATX heading's level and title (trimmed, closing `#`s dropped; may be empty), or null. A closing run of `#`
 * counts only after white space (`## Using C#` is titled `Using C#`); a title of only `#`s is the closing run of an
 * empty heading (`### ###`). Linear in the line.
 */
export function headingOf(line: string): { level: number; title: string } | null {
  const h = HEADING_OPEN.exec(line);
  if (!h) return null;
  let title = line.slice(h[0].length).trim();
  let end = title.length;
  while (end > 0 && title.charCodeAt(end - 1) === 35) end--;
  if (end > 0 && end < title.length && title.slice(end - 1, end).trim() === '') title = title.slice(0, end).trimEnd();
  // a title runs to the line's end: a line break inside it (a lone `\r`) makes the line no heading
  return LINE_BREAK.test(title) ? null : { level: h[1].length, title: title.replace(/^#+$/, '') };
}

/**
 * Reads lines in order and tells, for each, whether it is outside fenced code: a fence's own lines and the lines
 * between them are inside (a `#` there is not a heading). `open()`: the fence left open by the lines read so far.
 */
export function fenceTracker(): ((line: string) => boolean) & { open: () => string | null } {
  let fence: string | null = null;
  const outside = (line: string): boolean => {
    if (fence !== null) {
      if (closesFence(line, fence)) fence = null;
      return false;
    }
    fence = fenceOpening(line);
    return fence === null;
  };
  return Object.assign(outside, { open: () => fence });
}

/** The fence left open at the end of `text` (its opening run of backticks or tildes), or null when none is. */
export function openFenceAt(text: string): string | null {
  const track = fenceTracker();
  for (const line of text.split(/\r?\n/)) track(line);
  return track.open();
}

/**
 * The text with the fence it leaves open closed on a line of its own (as it is when none is open): a document joined
 * to others in a prompt must not turn everything after it into code.
 */
export function withFenceClosed(text: string): string {
  const fence = openFenceAt(text);
  return fence ? `${text}\n${fence}` : text;
}

/** A backtick fence longer than any run of backticks in `text`, so the text can never close it. */
export function fenceFor(text: string): string {
  let longest = 2;
  for (const m of text.matchAll(/`{3,}/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(longest + 1);
}

/** A Markdown table's separator line (`|---|:--:|`, spaces aside), the line under its header; no `---` rule without a `|`. */
const TABLE_SEPARATOR = /^\|?:?-+:?(?:\|:?-+:?)*\|?$/;
export const isTableSeparator = (line: string | undefined): boolean => !!line?.includes('|') && TABLE_SEPARATOR.test(line.replace(/\s+/g, ''));

/** The bullets of a Markdown list item, as regexp source: `-`, `*`, `+`, `1.`, `1)` (kpt/document.ts reads items by them). */
export const LIST_BULLET = String.raw`[-*+]|\d{1,3}[.)]`;

/** A list item's marker: a LIST_BULLET (a space or the line's end after it), or `・` / `•`. */
const LIST_MARKER = new RegExp(String.raw`^\s*(?:(?:${LIST_BULLET})(?:\s+|$)|[・•]\s*)`);

/** True when `line` starts with a list item's marker (listItems reads it as an item). */
export function isListItem(line: string): boolean {
  return LIST_MARKER.test(line);
}

/**
 * A list written as one text (`"- A\n- B"`, `"1. X\n2. Y"`, `"P\nQ"`) as its items: one per line, the marker removed,
 * blank lines dropped. When some lines have a marker, a line without one continues the item above (a wrapped item).
 */
export function listItems(text: string): string[] {
  const lines = text.split(/\r\n?|\n/).filter((l) => l.trim() !== '');
  const marked = lines.some(isListItem);
  const items: string[] = [];
  for (const line of lines) {
    const item = line.replace(LIST_MARKER, '').trim();
    if (marked && !isListItem(line) && items.length) items[items.length - 1] += `\n${item}`;
    else if (item) items.push(item);
  }
  return items;
}
