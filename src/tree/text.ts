// Text helpers of the tree views' node model: label and tooltip bounds, markdown escaping for tooltips, short stable
// node ids. No `vscode` import.
import { oneLine } from '../core';


/** Longest tree label (code points) before it is cut with an ellipsis. */
export const MAX_LABEL_CHARS = 100;
/** Longest description (objective) in the Retrospectives view. */
export const MAX_DESCRIPTION_CHARS = 60;
/** A group tooltip lists at most this many occurrences, then "… and N more". */
export const MAX_TOOLTIP_OCCURRENCES = 20;
/** Full texts inside tooltips are cut at this many code points (a tooltip is not a reader). */
export const MAX_TOOLTIP_TEXT_CHARS = 600;

/**
 * Escapes text for a MarkdownString (rendered with isTrusted false, supportHtml false): every ASCII punctuation
 * character that markdown could interpret (emphasis, links, headings, lists, HTML, autolinks via `:`) is
 * backslash-escaped, which CommonMark allows for any ASCII punctuation; newlines become spaces.
 */
export function escapeMarkdown(text: string): string {
  return oneLine(text).replace(/[\\`*_{}\[\]()<>#+\-.!|~&:"'=$%@^]/g, '\\$&');
}

/** 32-bit FNV-1a as 8 hex digits: short, stable ids for tree nodes. */
export function fnv1a(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
