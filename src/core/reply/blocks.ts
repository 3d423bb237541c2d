// DevA's blocks in a reply (the part of src/core/reply/parser.ts after the JSON envelope, also the whole of a repair or
// fix-round reply, which has no JSON): <file path="…">…</file> and <edit path="…">…</edit> blocks with their
// SEARCH/REPLACE hunks (matched by src/core/edits/match.ts), and the optional <summary>…</summary>. Blocks are cut
// out, never interpreted: a file's content keeps every byte but the newline after its opening tag. A tag in a form
// not read here (`<File path=a.ts>`) is an error, not prose (./unreadableTags.ts).
import type { Hunk } from '../model/types';
import { HUNK_DIVIDER, HUNK_REPLACE, HUNK_SEARCH } from './hunkMarkers';
import { unreadableTag, unreadableTagError } from './unreadableTags';

/** An opening <file> or <edit> tag at the start of a line (or right after a closing tag); extra attributes tolerated. */
const BLOCK_OPEN = /(?<=^|\n|<\/file>|<\/edit>)[ \t]*<(file|edit)\s+path\s*=\s*(?:"([^"\r\n]*)"|'([^'\r\n]*)')[^>\r\n]*>/g;

/**
 * An opening tag that ends its line wherever it starts: a block the model began mid-line ("Here it is: <file path=…>"),
 * which BLOCK_OPEN does not read as one (a tag named in prose goes on in its line).
 */
const LOOSE_OPEN = /<(file|edit)\s+path\s*=\s*(?:"([^"\r\n]*)"|'([^'\r\n]*)')[^>\r\n]*>[ \t]*\r?$/gm;

/** The first opening tag in text[from, to) that ends its line outside the spans, or null. */
export function looseTag(text: string, from: number, to: number, spans: readonly [number, number][] = []): { kind: string; path: string } | null {
  LOOSE_OPEN.lastIndex = from;
  for (let m = LOOSE_OPEN.exec(text); m !== null && m.index < to; m = LOOSE_OPEN.exec(text)) {
    const at = m.index;
    if (!spans.some(([a, b]) => at >= a && at < b)) return { kind: m[1], path: m[2] ?? m[3] ?? '' };
  }
  return null;
}

/**
 * The most readings of one hunk (its possible ======= dividers) the matcher tries: each is searched through the whole
 * file, so a hunk with a thousand such lines took seconds on a large file (the extension host waits). Past this, the
 * hunk is an error asking for the file whole.
 */
export const MAX_HUNK_READINGS = 16;

/** Divider-like lines in a hunk up to which the one split that leaves as many on each side is taken (see parseHunks). */
const BALANCED_DIVIDERS = 5;

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

/**
 * The hunks of an <edit> body; lines outside hunks (blank lines, stray fences) are ignored, but for a >>>>>>> REPLACE
 * line after a hunk (a REPLACE text with a marker line of its own, which cut the hunk short). A hunk runs from its
 * SEARCH marker to its REPLACE marker (a SEARCH marker inside it is an error: a hunk left open); the divider is its one
 * ======= line. When the text itself has divider-like lines (a Markdown heading's underline), the one that is exactly
 * ======= is the divider; when several are, every split is kept as a reading and the matcher
 * (src/core/edits/match.ts) applies the one that fits the file — unless one split alone leaves as many divider-like
 * lines in SEARCH as in REPLACE (a heading kept on both sides), which is then the only reading.
 */
export function parseHunks(body: string, path: string): { ok: true; hunks: Hunk[] } | { ok: false; error: string } {
  const lines = body.split(/\r?\n/);
  const hunks: Hunk[] = [];
  let inside: string[] | null = null;
  const noDivider = () => `hunk ${hunks.length + 1} of the <edit path="${path}"> block has no ======= line between SEARCH and REPLACE`;
  for (const line of lines) {
    if (inside === null) {
      if (HUNK_SEARCH.test(line)) inside = [];
      // a hunk without its SEARCH marker: ignoring its lines would drop its change without a word
      else if (HUNK_REPLACE.test(line) && hunks.length === 0) {
        return {
          ok: false,
          error: `the <edit path="${path}"> block has a >>>>>>> REPLACE line before any <<<<<<< SEARCH line: begin each hunk with <<<<<<< SEARCH`,
        };
      }
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
      // the text's own divider-like lines (a heading's underline) are most often the same on both sides, SEARCH and
      // REPLACE: when one split alone leaves as many on each side, it is the divider (whatever its length), and no
      // other split is tried — a shorter SEARCH that matched by chance would write the hunk's markers into the file
      const balanced = dividers.length <= BALANCED_DIVIDERS ? dividers.filter((_, k) => k === dividers.length - 1 - k) : [];
      const at = dividers.length === 1 ? dividers : balanced.length === 1 ? balanced : exact.length > 0 ? exact : dividers;
      if (at.length > MAX_HUNK_READINGS) {
        return {
          ok: false,
          error: `hunk ${hunks.length + 1} of the <edit path="${path}"> block has ${at.length} ======= lines, so where its SEARCH text ends cannot be told (at most ${MAX_HUNK_READINGS} are tried); send this file whole in a <file path="${path}"> block instead`,
        };
      }
      const body = inside;
      const readings = at.map((i) => ({ search: body.slice(0, i), replace: body.slice(i + 1) }));
      hunks.push(readings.length === 1 ? readings[0] : { ...readings[0], readings });
      inside = null;
    } else if (HUNK_SEARCH.test(line)) {
      // a hunk left open: its REPLACE would take the next hunk's markers and lines as text, written into the file
      if (!inside.some((l) => HUNK_DIVIDER.test(l))) return { ok: false, error: noDivider() };
      return {
        ok: false,
        error: `hunk ${hunks.length + 1} of the <edit path="${path}"> block is not closed with >>>>>>> REPLACE before the next <<<<<<< SEARCH line (if the file's text has such marker lines, send it whole in a <file path="${path}"> block)`,
      };
    } else inside.push(line);
  }
  if (inside !== null) return { ok: false, error: `hunk ${hunks.length + 1} of the <edit path="${path}"> block is not closed with >>>>>>> REPLACE` };
  if (hunks.length === 0) return { ok: false, error: `the <edit path="${path}"> block has no <<<<<<< SEARCH / ======= / >>>>>>> REPLACE hunk` };
  return { ok: true, hunks };
}

/** Index of the first <file>/<edit> opening tag at or after `from`, or the end of the text. */
export function firstBlockTag(text: string, from: number): number {
  BLOCK_OPEN.lastIndex = from;
  const m = BLOCK_OPEN.exec(text);
  return m ? m.index + m[0].indexOf('<') : text.length;
}

/** What follows a closing tag that ends its block: the end of its line, of the text, or the next tag. */
const CLOSE_END = /[ \t]*(?:\r?\n|<|$)/y;

/**
 * Where the block whose content starts at `from` closes (`tag` before `limit`), or -1: the last such tag alone on its
 * line, else the last that ends its line (CLOSE_END: `last line</file>`), else the last one. A tag in running text
 * after the block (a summary naming `</file>`, even at the end of its line) is no end.
 */
function closingTagAt(text: string, tag: string, from: number, limit: number): number {
  const last = text.lastIndexOf(tag, limit - tag.length);
  let endsLine = -1;
  for (let at = last; at >= from; at = at > 0 ? text.lastIndexOf(tag, at - 1) : -1) {
    CLOSE_END.lastIndex = at + tag.length;
    if (!CLOSE_END.test(text)) continue;
    if (startsLine(text, at, from)) return at;
    if (endsLine === -1) endsLine = at;
  }
  return endsLine !== -1 ? endsLine : last;
}

/** Whether only blanks stand between the start of `at`'s line (or `from`) and `at`. */
function startsLine(text: string, at: number, from: number): boolean {
  for (let i = at - 1; i >= from; i--) {
    const c = text[i];
    if (c === '\n') return true;
    if (c !== ' ' && c !== '\t') return false;
  }
  return true;
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
  const read: { from: number; to: number; kind: 'file' | 'edit' }[] = [];
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
    read.push({ from: o.tagStart, to: end, kind: o.kind });
  }
  const stray = looseTag(text, from, text.length, spans);
  if (stray) {
    return { ok: false, error: `the <${stray.kind} path="${stray.path}"> tag does not start its line, so its block was not read: put each <file> and <edit> tag on a line of its own` };
  }
  const unread = unreadableTag(text, from, text.length, read);
  if (unread) return { ok: false, error: unreadableTagError(unread) };
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
