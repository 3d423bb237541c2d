// A file's lines as read_file numbers them and excerpts quote them: split at '\n' (a '\r' stays with its line, so a
// CRLF file's lines keep their bytes), and a final newline ends the last line rather than starting an empty one; and
// the line and column of an index, as a message that points into a text gives them; and a command file's lines with
// those a `\` continues joined, as make, tox and the shell read them.

/** A character that ends a line for a regexp (what `.` does not match and `$` with the m flag stops at). */
export const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * `reader` fed every line of a whole text, split at '\n' as a stream's lines are (the checks' line readers, which a
 * run feeds as its output arrives, reading a kept output or a test's text at once); `reader` is returned.
 */
export function readAllLines<R extends { line: (line: string) => void }>(reader: R, text: string): R {
  for (const line of text.split('\n')) reader.line(line);
  return reader;
}

/** A line of a text split at '\n' without the `\r` that ends it in a CRLF file (a lone `\r` before it stays). */
export function withoutCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/** The lines of `text`, 1-based line N at index N - 1. */
export function fileLines(text: string): string[] {
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

/** "line L, column C" of index `at` in `text` (1-based), as a message says where something is. */
export function lineColumn(text: string, at: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: at - lineStart + 1 };
}

/** `text` with each line a `\` ends joined to the next by a space (a Makefile's recipe, a tox command, a shell line). */
export const joinContinued = (text: string): string => text.replace(/\\\r?\n/g, ' ');

/** How many lines fileLines(text) gives, without splitting the text. */
export function lineCount(text: string): number {
  let n = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) n++;
  return text.endsWith('\n') ? n : n + 1;
}

// How read_file shows lines: each after its number and ': ' (the way search_files shows a hit's line), numbers
// right-aligned to the widest one shown; a blank line is its number and ':' alone (no trailing space). The model cites
// a line by the number it sees and copies the text after it into a SEARCH; a SEARCH copied with the numbers is taken
// without them (withoutLineNumbers, used by the edit matcher only when the SEARCH as written matches nowhere).

/** `lines` (line `first` at index 0) as read_file shows them. */
export function numberedLines(lines: readonly string[], first: number): string {
  const width = String(first + lines.length - 1).length;
  return lines.map((l, i) => `${String(first + i).padStart(width)}:${l === '' || l === '\r' ? '' : ' '}${l}`).join('\n');
}

const NUMBERED = /^ *(\d{1,7}):(?: |(?=\r?$))/;

/**
 * Lines copied from read_file's numbered view (numberedLines): the text after each number, and the first number —
 * when every line carries a number and they count up by one (with the padding dropped or kept). Null otherwise, so
 * a text whose lines merely start with digits and a colon is not mistaken for a copy (a YAML list of "1: a" rarely
 * counts up on every line, and the matcher tries the text as written first).
 */
export function withoutLineNumbers(lines: readonly string[]): { lines: string[]; first: number } | null {
  if (lines.length === 0) return null;
  const out: string[] = [];
  let first = 0;
  for (let i = 0; i < lines.length; i++) {
    const m = NUMBERED.exec(lines[i]);
    if (!m) return null;
    const n = Number(m[1]);
    if (i === 0) first = n;
    else if (n !== first + i) return null;
    out.push(lines[i].slice(m[0].length));
  }
  return { lines: out, first };
}

/** A line's text without read_file's number in front, when it has one (for a REPLACE line copied with its number). */
export function lineNumberOf(line: string): { n: number; text: string } | null {
  const m = NUMBERED.exec(line);
  return m ? { n: Number(m[1]), text: line.slice(m[0].length) } : null;
}
