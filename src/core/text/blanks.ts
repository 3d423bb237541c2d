// Trailing blanks, cut by a walk back from the end, never by a regexp anchored at `$` (`/\s+$/` is tried from every
// blank of a long run inside the text: quadratic in it). Three rules: where the white space before an index starts
// (what trimEnd would cut there, without slicing), a line without its trailing spaces and tabs, and a text ending in
// exactly one line feed. A whole text without its trailing white space is String.prototype.trimEnd, which is linear.

/** One character of what trimEnd cuts (the same set: WhiteSpace and LineTerminator). */
const BLANK = /\s/;

/**
 * `end` moved back over the white space just before it, never below `from`: `text.slice(from, trimmedEnd(text, end,
 * from))` is `text.slice(from, end).trimEnd()`.
 */
export function trimmedEnd(text: string, end = text.length, from = 0): number {
  while (end > from && BLANK.test(text[end - 1])) end--;
  return end;
}

/**
 * The line without the spaces and tabs at its end. Other white space stays: a no-break or ideographic space, a `\r`
 * (a CRLF line's, or a lone one that is text).
 */
export function withoutTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && (line.charCodeAt(end - 1) === 32 || line.charCodeAt(end - 1) === 9)) end--;
  return end === line.length ? line : line.slice(0, end);
}

/** The text ending in exactly one `\n`: its final run of them made one, or one added when it has none. */
export function withOneFinalNewline(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 10) end--;
  return `${text.slice(0, end)}\n`;
}
