// Block tags DevA wrote in a form the block reader (./blocks.ts) does not read: `<file path=a.ts>` (no quotes),
// `<File path="a.ts">`, `<edit path=“a.ts”>` (typographic quotes), `<file name="a.ts">`. Such a block would be left out
// as prose: the user would get nothing and hear nothing. Each is a parse error instead, which goes to the reply's one
// repair round saying what to write.
//
// Only a tag that stands at block level counts, never text inside a block's content (an HTML, XML or JSX file, a
// Markdown page about this format) or the summary: a line that is one opening tag and nothing else, not self-closing,
// with a path attribute or followed by a closing tag (</file>, </edit>, any case), and
//  - outside every block that was read and outside <summary>…</summary>; or
//  - inside a block that was read, at the start of its line, with a path attribute, right after a line that is only
//    that block's closing tag (blank lines apart), and in an <edit> between its hunks: there the reader took the next
//    block for the rest of this one, because a block runs to the last closing tag before the next tag it reads.
// Or a block the model began mid-line in such a form ("Here it is: <File path="a.ts">"): a tag that ends its line,
// with a path attribute and a closing tag after it, outside every block and summary (the readable form mid-line is
// ./blocks.ts's looseTag).
import { trimmedEnd } from '../text/blanks';
import { shorten } from '../text/cut';
import { withoutCr } from '../text/lines';
import { HUNK_REPLACE, HUNK_SEARCH } from './hunkMarkers';

/** A block the reader read: from its tag to the end of its closing tag. */
export interface ReadBlock {
  from: number;
  to: number;
  kind: 'file' | 'edit';
}

/**
 * Where an opening <file>/<edit> tag (any case) may begin: found in one linear pass, each then tested where it stands
 * with TAG_ENDS_LINE (one regex from the line start through the tag would retry the line's text from every split).
 */
const TAG_START = /<[ \t]*(?:file|edit)/gi;
/** One opening <file>/<edit> tag (any case, any attributes) that ends its line (spaces after it), at lastIndex. */
const TAG_ENDS_LINE = /<[ \t]*(file|edit)((?:[ \t][^<>\r\n]*)?)>[ \t]*\r?$/imy;
const LINE_BREAK = /[\r\n]/g;
/** The form the block reader reads (its BLOCK_OPEN, at the start of a line). */
const READABLE = /^[ \t]*<(file|edit)\s+path\s*=\s*(?:"[^"\r\n]*"|'[^'\r\n]*')[^>\r\n]*>/;
const ANY_CLOSE = /<\/[ \t]*(?:file|edit)[ \t]*>/gi;
const PATH_ATTR = /(?:^|\s)path\s*=/i;
/** A path attribute's value, whatever its quotes: straight, typographic, backquotes, or none. */
const PATH_VALUE = /(?:^|\s)path\s*=\s*(?:"([^"]*)"|'([^']*)'|[“”„]([^“”„]*)[“”]|[‘’]([^‘’]*)[‘’]|`([^`]*)`|([^\s"'“”„‘’`]+))/i;
/** The one attribute of a tag without a path attribute (`name="a.ts"`), its value. */
const ONE_VALUE = /^\s*[\w:-]+\s*=\s*(?:"([^"]*)"|'([^']*)'|[“”„]([^“”„]*)[“”]|([^\s"'“”„]+))\s*$/;

export interface UnreadableTag {
  /** The tag as written (trimmed, shortened). */
  tag: string;
  /** 1-based line of the text. */
  line: number;
  /** Why the block reader does not read it. */
  why: string;
  /** The tag to write instead. */
  write: string;
}

function firstGroup(m: RegExpExecArray | null): string | null {
  return m ? (m.slice(1).find((g) => g !== undefined) ?? null) : null;
}

function whyUnread(kind: string, attrs: string): string {
  if (kind !== kind.toLowerCase()) return `the tag name must be lower case (${kind.toLowerCase()})`;
  if (!PATH_ATTR.test(attrs)) return 'it has no path attribute';
  if (!/(?:^|\s)path\s*=/.test(attrs)) return 'the attribute name must be lower case (path)';
  if (/path\s*=\s*[“”„‘’`]/i.test(attrs)) return 'its path is in typographic quotes, not straight double quotes';
  if (!/path\s*=\s*["']/i.test(attrs)) return 'its path is not in quotes';
  return `it is not in the form <${kind.toLowerCase()} path="…">`;
}

/**
 * Whether a tag at `at` inside block `b` ends it: right after a line that is only `b`'s closing tag (blank lines
 * apart), and in an <edit> not inside a hunk's text (its last marker line before is a REPLACE one, or there is none).
 * `markers`: each <edit> block's marker lines, found once (many such tags in one block cost one pass over it).
 */
function endsBlock(text: string, b: ReadBlock, at: number, markers: Map<ReadBlock, { at: number; search: boolean }[]>): boolean {
  const end = trimmedEnd(text, at, b.from);
  const start = Math.max(b.from, text.lastIndexOf('\n', end - 1) + 1);
  if (text.slice(start, end).trim() !== `</${b.kind}>`) return false;
  if (b.kind === 'file') return true;
  let list = markers.get(b);
  if (!list) {
    list = [];
    for (const m of text.slice(b.from, b.to).matchAll(/^[^\n]*/gm)) {
      const line = withoutCr(m[0]);
      const search = HUNK_SEARCH.test(line);
      if (search || HUNK_REPLACE.test(line)) list.push({ at: b.from + m.index, search });
    }
    markers.set(b, list);
  }
  let last: { at: number; search: boolean } | undefined;
  for (const m of list) {
    if (m.at >= at) break;
    last = m;
  }
  return !last?.search;
}

/**
 * The first tag at block level in text[from, to) that the block reader does not read (see the header), or null.
 * `blocks`: the blocks it read, each from its tag to the end of its closing tag.
 */
export function unreadableTag(text: string, from: number, to: number, blocks: readonly ReadBlock[] = []): UnreadableTag | null {
  const summaries = summarySpans(text, from, to, blocks);
  const markers = new Map<ReadBlock, { at: number; search: boolean }[]>();
  let lastClose = -1;
  for (const c of text.matchAll(ANY_CLOSE)) lastClose = c.index;
  for (const { at, indent, before, whole, kind, attrs } of oddOpens(text, from, to)) {
    if (READABLE.test(whole) || attrs.trimEnd().endsWith('/')) continue;
    const hasPath = PATH_ATTR.test(attrs);
    const inside = blocks.find((b) => at >= b.from && at < b.to);
    const inSummary = summaries.some(([a, b]) => at >= a && at < b);
    const atBlockLevel = before
      ? !inside && !inSummary && hasPath && lastClose > at
      : inside
        ? indent === '' && hasPath && endsBlock(text, inside, at, markers)
        : !inSummary && (hasPath || lastClose > at);
    if (!atBlockLevel) continue;
    const meant = firstGroup(PATH_VALUE.exec(attrs)) ?? firstGroup(ONE_VALUE.exec(attrs));
    return {
      tag: shorten(whole.trim(), 120),
      line: text.slice(0, at).split('\n').length,
      why: whyUnread(kind, attrs),
      write: `<${kind.toLowerCase()} path="${meant?.trim() || 'the/file/path'}">`,
    };
  }
  return null;
}

/** The index of the first line break (\r or \n) at or after `from`, or the text's length. */
function lineBreakAt(text: string, from: number): number {
  LINE_BREAK.lastIndex = from;
  return LINE_BREAK.exec(text)?.index ?? text.length;
}

/**
 * Each line starting in [from, to) that ends with one opening <file>/<edit> tag: `indent` (its leading spaces and
 * tabs), `before` (the text between them and the tag: a block begun mid-line), `whole` (the tag to the line's end).
 * Linear in the text: each tag candidate is tested once, the lines are walked once, nothing past `to`'s line is read.
 */
function* oddOpens(text: string, from: number, to: number) {
  const scope = text.slice(0, lineBreakAt(text, to));
  let lineStart = from === 0 || /[\r\n]/.test(text[from - 1] ?? '') ? from : lineBreakAt(text, from) + 1;
  let lineEnd = lineBreakAt(scope, lineStart);
  TAG_START.lastIndex = lineStart;
  for (let c = TAG_START.exec(scope); c !== null; c = TAG_START.exec(scope)) {
    while (c.index > lineEnd) {
      lineStart = lineEnd + 1;
      lineEnd = lineBreakAt(scope, lineStart);
    }
    if (lineStart >= to) return;
    TAG_ENDS_LINE.lastIndex = c.index;
    const m = TAG_ENDS_LINE.exec(scope);
    if (!m) continue;
    const indent = /^[ \t]*/.exec(scope.slice(lineStart, c.index))?.[0] ?? '';
    yield { at: c.index, indent, before: scope.slice(lineStart + indent.length, c.index), whole: m[0], kind: m[1], attrs: m[2] };
    TAG_START.lastIndex = lineEnd;
  }
}

/** The <summary>…</summary> parts of text[from, to) outside the blocks (to the text's end when not closed). */
function summarySpans(text: string, from: number, to: number, blocks: readonly ReadBlock[]): [number, number][] {
  const out: [number, number][] = [];
  for (let s = text.indexOf('<summary>', from); s !== -1 && s < to; s = text.indexOf('<summary>', s + 1)) {
    if (blocks.some((b) => s >= b.from && s < b.to)) continue;
    const close = text.indexOf('</summary>', s);
    out.push([s, close === -1 ? text.length : close]);
  }
  return out;
}

/** The error for an unreadable tag: what it is, where, why, and what to write instead. */
export function unreadableTagError(t: UnreadableTag, where = ''): string {
  return `the ${t.tag} tag on line ${t.line}${where} was not read as a block: ${t.why}; write ${t.write}`;
}
