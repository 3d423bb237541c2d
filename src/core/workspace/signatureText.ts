// The text work behind a declaration's signature (signatures.ts): a declaration's lines taken within a bound, its code
// without comments, its brackets matched, its parameter list and return type read, and the signature cut to its cap
// (SIGNATURE_CHARS, a type's with its members TYPE_SIGNATURE_CHARS) with `…` inside its brackets. Linear scans over bounded text, no regex that can backtrack on a long
// line: a minified file or an unbalanced bracket costs no more than a short one.

import { shorten, sliceWhole } from '../text/cut';

/** The languages with signatures: TS/JS, Rust, Go, Python (C and C++: symbolsC.ts, through the same brackets and cut). */
export type Lang = 'ts' | 'rust' | 'go' | 'py' | 'c';

/** The most characters a signature takes in a map line; a longer one is cut inside its brackets with `…`. */
export const SIGNATURE_CHARS = 100;
/**
 * The most a type's signature with its members takes (`struct Comparator { op: Op, major: u64, minor: Option<u64>, … }`,
 * `Options { loose?: boolean, … }`): its fields' types make it longer than a function's.
 */
export const TYPE_SIGNATURE_CHARS = 200;
/** Characters of a constant's string value a map line quotes at most (TS/JS constants, C macros). */
export const LITERAL_CHARS = 40;
/** A declaration's header (its parameters, its return type) is read over this many lines at most … */
export const HEADER_LINES = 8;
/** … and this many characters. */
export const HEADER_CHARS = 1500;

/** The characters that open a string in each language (Rust's `'` is a lifetime's mark, seldom a char in a header). */
const QUOTES: Record<Lang, string> = { ts: `'"\``, rust: '"', go: '"`', py: `'"`, c: `'"` };
const OPENERS = '([{';
const CLOSERS = ')]}';

/** `lines[i]` from column `col` and the lines after it, `maxLines` in all and `maxChars` at most, joined by '\n'. */
export function linesFrom(lines: readonly string[], i: number, col: number, maxLines: number, maxChars: number): string {
  let out = sliceWhole(lines[i], col, col + maxChars);
  for (let k = i + 1; k < lines.length && k < i + maxLines && out.length < maxChars; k++) out += '\n' + sliceWhole(lines[k], 0, maxChars - out.length);
  return out;
}

/** The index after the string that opens at `at` (its closing quote; a line's end closes all but a template). */
function stringEnd(s: string, at: number): number {
  const q = s[at];
  let i = at + 1;
  while (i < s.length && s[i] !== q && (s[i] !== '\n' || q === '`')) i += s[i] === '\\' ? 2 : 1;
  return Math.min(i + 1, s.length);
}

/** A character that may end a run of plain code: white space, a quote, a comment's start. */
const PLAIN_END = /[\s'"`/#]/;

/**
 * The characters codeOf has cleaned, summed over the process: how a test bounds the work a file's signatures take
 * (a count of work, not of time). Nothing in the product reads it.
 */
export const codeCleaned = { chars: 0 };

/**
 * The code of `raw`: comments dropped (`//` and `/* *\/`, Python's `#`), strings kept as written, each run of white
 * space one character — '\n' where it holds a line break (members are split there), else a space.
 */
export function codeOf(raw: string, lang: Lang): string {
  codeCleaned.chars += raw.length;
  const quotes = QUOTES[lang];
  const parts: string[] = [];
  let gap = ''; // the white space (or comment) owed before the next character
  for (let i = 0; i < raw.length; ) {
    const c = raw[i];
    const slash = lang !== 'py' && c === '/';
    if (slash && raw[i + 1] === '/') i = lineEnd(raw, i);
    else if (slash && raw[i + 1] === '*') {
      const close = raw.indexOf('*/', i + 2);
      i = close < 0 ? raw.length : close + 2;
      gap ||= ' ';
    } else if (c === '#' && lang === 'py') i = lineEnd(raw, i);
    else if (c === ' ' || c === '\t' || c === '\r' || c === '\n' || c === '\f' || c === '\v') {
      if (c === '\n') gap = '\n';
      else gap ||= ' ';
      i++;
    } else {
      if (gap && parts.length) parts.push(gap);
      gap = '';
      // a string whole, else the run of characters up to the next that may start a string, a comment or a space
      let end = i + 1;
      if (quotes.includes(c)) end = stringEnd(raw, i);
      else while (end < raw.length && !PLAIN_END.test(raw[end])) end++;
      parts.push(raw.slice(i, end));
      i = end;
    }
  }
  return parts.join('');
}

/** Where a heading read line by line stops (headingUntil): its code, the stop's index in it (-1 none), the lines read. */
export interface HeadingStop {
  code: string;
  at: number;
  lines: number;
}

/**
 * A heading read line by line (`lineAt(k)`: its k-th line, undefined past the text's end), HEADER_LINES and
 * HEADER_CHARS at most, each line's comments dropped (codeOf), up to the line of its first character outside brackets
 * and strings where `stop` holds: a class's body's `{`, a Python heading's `:`. Each line is cleaned once, and none
 * after the stop's.
 */
export function headingUntil(lineAt: (k: number) => string | undefined, lang: Lang, stop: (c: string) => boolean): HeadingStop {
  let code = '';
  let at = -1;
  let k = 0;
  for (let line: string | undefined; at < 0 && k < HEADER_LINES && code.length < HEADER_CHARS && (line = lineAt(k)) !== undefined; k++) {
    code += (k ? '\n' : '') + codeOf(sliceWhole(line, 0, HEADER_CHARS - code.length), lang);
    // what stops it is found on the line just read: the walk from the heading's start keeps the brackets' depth
    at = topIndex(code, 0, lang, stop);
  }
  return { code, at, lines: k };
}

/** The index of the line break ending the line `i` is on (the text's length when none). */
function lineEnd(s: string, i: number): number {
  const n = s.indexOf('\n', i);
  return n < 0 ? s.length : n;
}

/**
 * Walks `s` from `from`, strings skipped whole, handing each other character's index to `visit` with the depth of
 * brackets around it — (), [], {}, and <> where `angles` (not the `>` of `->` or `=>`); the depth never goes below 0.
 * Returns the index at which `visit` said stop, or -1 at the end.
 */
function walk(s: string, from: number, lang: Lang, angles: boolean, visit: (i: number, depth: number) => boolean): number {
  const quotes = QUOTES[lang];
  let depth = 0;
  for (let i = from; i < s.length; ) {
    const c = s[i];
    if (quotes.includes(c)) {
      i = stringEnd(s, i);
      continue;
    }
    if (visit(i, depth)) return i;
    if (OPENERS.includes(c) || (angles && c === '<')) depth++;
    else if (depth && closes(s, i, angles)) depth--;
    i++;
  }
  return -1;
}

/** Whether s[i] closes a bracket (`>` where `angles`, not an arrow's). */
function closes(s: string, i: number, angles: boolean): boolean {
  const c = s[i];
  return CLOSERS.includes(c) || (angles && c === '>' && s[i - 1] !== '-' && s[i - 1] !== '=');
}

/** The index of the bracket that closes the one at `at` (its kind not checked), or -1 when none does. */
export function closing(s: string, at: number, lang: Lang, angles = false): number {
  return walk(s, at, lang, angles, (i, depth) => depth === 1 && closes(s, i, angles));
}

/** Whether `<` and `>` bracket type arguments in the language's headers (TS, Rust; Go's are `[ ]`). */
const ANGLES: Record<Lang, boolean> = { ts: true, rust: true, go: false, py: false, c: false };

/**
 * The first index at or after `from`, outside brackets (<> where the language has them) and strings, where `stop`
 * holds; -1 when there is none.
 */
export function topIndex(s: string, from: number, lang: Lang, stop: (c: string, i: number) => boolean): number {
  return walk(s, from, lang, ANGLES[lang], (i, depth) => depth === 0 && stop(s[i], i));
}

/** `s` with what its brackets and strings hold dropped (the brackets and quotes kept empty): its top-level text. */
export function flatten(s: string, lang: Lang, angles = ANGLES[lang]): string {
  const quotes = QUOTES[lang];
  const parts: string[] = [];
  let depth = 0;
  for (let i = 0; i < s.length; ) {
    const c = s[i];
    if (quotes.includes(c)) {
      const end = stringEnd(s, i);
      if (!depth) parts.push(c + c);
      i = end;
      continue;
    }
    const opens = OPENERS.includes(c) || (angles && c === '<');
    if (depth && closes(s, i, angles)) depth--;
    if (!depth) parts.push(c);
    if (opens) depth++;
    i++;
  }
  return parts.join('');
}

/** The first index at or after `i` that is not a space or a line break. */
export function skipSpace(s: string, i: number): number {
  while (i < s.length && (s[i] === ' ' || s[i] === '\n')) i++;
  return i;
}

/** Where a declaration's type parameters open after its name: `<T>` (TS, Rust), `[T any]` (Go); Python has none. */
const TYPE_PARAMS: Record<Lang, string> = { ts: '<', rust: '<', go: '[', py: '', c: '' };

/** The index after the declaration's own type parameters at `at` (`<T: Ord>`, Go's `[T any]`), or `at` when none. */
export function afterTypeParams(s: string, at: number, lang: Lang): number {
  at = skipSpace(s, at);
  if (!TYPE_PARAMS[lang] || s[at] !== TYPE_PARAMS[lang]) return at;
  const end = closing(s, at, lang, ANGLES[lang]);
  return end < 0 ? s.length : skipSpace(s, end + 1);
}

/** Whether the return type that started at `from` ends at `i`: at its body, its `;`, a line's end or an arrow. */
function returnEnds(s: string, from: number, i: number, lang: Lang): boolean {
  const c = s[i];
  if (c === '\n') return true;
  if (lang === 'py') return c === ':';
  if (c === ';') return true;
  if (lang === 'ts') return (c === '{' && s.slice(from, i).trim() !== ':') || (c === '=' && s[i + 1] === '>');
  if (lang === 'rust') return c === '{' || (s.startsWith('where', i) && /\W/.test(s[i - 1] ?? ' ') && /\W|^$/.test(s[i + 5] ?? ''));
  // Go: a return type may be `interface{}` or `struct{…}`
  return c === '{' && !/\b(?:interface|struct)\s*$/.test(s.slice(from, i));
}

/** A call's parts: its parameters as written, whether their list closed, what follows it (its return type), and where that ends. */
export interface CallParts {
  params: string;
  closed: boolean;
  returns: string;
  end: number;
}

/** The parameter list opening at `at` (a `(`) and the return type after it, or null when no `(` is there. */
export function callParts(s: string, at: number, lang: Lang): CallParts | null {
  if (s[at] !== '(') return null;
  const close = closing(s, at, lang);
  // a list that never closes is read on its first line only: the lines after it are other declarations
  if (close < 0) return { params: s.slice(at + 1).split('\n', 1)[0], closed: false, returns: '', end: s.length };
  const from = close + 1;
  let end = topIndex(s, from, lang, (_c, i) => returnEnds(s, from, i, lang));
  if (end < 0) end = s.length;
  return { params: s.slice(at + 1, close), closed: true, returns: s.slice(from, end).trim(), end };
}

/** `name(params) -> T`, `name(params): T`, `name(params) T` — the return type as each language writes it, its own lifetimes gone. */
export function callText(name: string, { params, closed, returns }: CallParts, lang: Lang): string {
  const tidy = (t: string) => (lang === 'rust' ? withoutLifetimes(t) : t);
  const ret = tidy(returns.replace(/\n/g, ' '));
  const tail = !ret ? '' : ret.startsWith(':') ? `: ${ret.slice(1).trim()}` : ` ${ret}`;
  return bracketed(name, '(', tidy(params.replace(/\n/g, ' ')), ')', tail, closed);
}

/** Rust's lifetimes out of a signature: `&'a str` → `&str`, `Cow<'a, str>` → `Cow<str>`, `Foo<'a>` → `Foo`. */
export function withoutLifetimes(t: string): string {
  return t
    .replace(/'[A-Za-z_]\w*(?!['\w])\s*,?\s*/g, '')
    .replace(/ ?\+ ?(?=[,)>]|$)/g, '') // code is spaced by one (codeOf)
    .replace(/<\s*>/g, '');
}

/** The index of the last `, ` of `s` outside brackets (a generic's `HashMap<String, u8>` holds one), or -1. */
function lastTopComma(s: string): number {
  let last = -1;
  for (let i = 0; (i = topIndex(s, i, 'ts', (c, k) => c === ',' && s[k + 1] === ' ')) >= 0; i++) last = i;
  return last;
}

/**
 * `head`, then `inner` between `open` and `close`, then `tail`, within `max` characters: a longer one keeps its head
 * and (shortened if it must) its tail, and cuts `inner` with `…` — after its last whole item (outside brackets) where
 * that keeps half of the room. `complete` false (a list that never closed) ends `inner` with `…` too. A trailing comma goes.
 */
export function bracketed(head: string, open: string, inner: string, close: string, tail = '', complete = true, max = SIGNATURE_CHARS): string {
  const items = inner.trim().replace(/,$/, '').trimEnd();
  const end = complete ? '' : items ? ', …' : '…';
  const whole = `${head}${open}${items}${end}${close}${tail}`;
  if (whole.length <= max) return whole;
  const fixed = head.length + open.length + close.length + 3; // and the ', …' of a cut
  // the tail gives way first, to a few characters of the list
  const minInner = Math.min(items.length, 20);
  if (fixed + minInner + tail.length > max) tail = shorten(tail, Math.max(0, max - fixed - minInner - 1));
  const room = max - fixed - tail.length;
  if (room < 0) return shorten(whole, max - 1);
  if (items.length <= room) return `${head}${open}${items}${end}${close}${tail}`;
  const kept = sliceWhole(items, 0, room);
  const comma = lastTopComma(kept);
  return `${head}${open}${comma >= room / 2 ? `${kept.slice(0, comma)}, …` : `${kept.trimEnd()}…`}${close}${tail}`;
}
