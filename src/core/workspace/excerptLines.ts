// The lines of a file as the excerpts (excerpts.ts) read them: the name a line declares (declaredName) and how much
// the work weighs it (declaredWeight), a line's indentation (a window widens up to its block's header) and the file's
// leading imports (importHeader: an <edit> adding an import needs an import line to anchor its SEARCH).
import { trimmedEnd } from '../text/blanks';
import { LINE_BREAK, withoutCr } from '../text/lines';
import { wordTerms } from './tokens';
import type { ExcerptRange } from './excerpts';

/**
 * The name a line declares: after declaration keywords (`export async function save(`, `const save =`, `class Save`),
 * or a method (`save(value) {`, `async save(value) {` — a call statement does not end with `{`). null for other lines.
 */
export function declaredName(line: string): string | null {
  line = withoutCr(line);
  const m = DECLARATION.exec(line);
  if (!m) return null;
  const [, keywords, name] = m;
  // the rest of the line, as `.*$` once took it (white space before it is the match's): no line break in it
  const rest = line.slice(m[0].length);
  if (LINE_BREAK.test(rest)) return null;
  if (CONTROL.has(name)) return null;
  if (keywords || /^=|^:\s*(function|\(|async)|=>/.test(rest)) return name;
  return /^\(.*\)\s*(:[^{]*)?\{\s*$/.test(rest) ? name : null;
}
// words that start a line like a name but declare none: control keywords, and the heritage of an anonymous class
// (`export default class extends Vue {`)
const CONTROL = new Set(['if', 'for', 'while', 'switch', 'catch', 'with', 'return', 'do', 'else', 'try', 'elif', 'except', 'match', 'loop', 'foreach', 'extends', 'implements']);
const DECLARATION =
  /^\s*((?:(?:export|default|declare|abstract|async|static|public|private|protected|readonly|override|get|set|function\*?|const|let|var|class|interface|type|enum|def|fn|func|pub)\s+)*)[*#]?([A-Za-z_$][\w$]*)\s*/;

/**
 * How much the query weighs a declared name: as the identifier when the work writes it whole (`storeOptionsAsProperties`),
 * else, for a name of several words all in the work (`addOption` for "add an option"), as its lightest word; else 0.
 */
export function declaredWeight(name: string, queryTerms: ReadonlyMap<string, number>): number {
  const own = wordTerms(name);
  if (!own.length) return 0;
  const whole = queryTerms.get(own[own.length - 1]);
  if (whole !== undefined) return whole;
  const parts = own.slice(0, -1);
  if (parts.length < 2 || own.length < 3) return 0;
  let w = Infinity;
  for (const p of parts) w = Math.min(w, queryTerms.get(p) ?? 0);
  return w;
}

export function indentOf(line: string): number {
  let n = 0;
  while (n < line.length && (line.charCodeAt(n) === 32 || line.charCodeAt(n) === 9)) n++;
  return n === line.length ? -1 : n; // -1: blank
}

/** A line that imports (JS/TS, Python, Rust, Go, C), or a line that may sit among the imports (blank, comment, pragma). */
const IMPORT_LINE = /^\s*(?:import\b|export\s+(?:\*|\{[^}]*\}|type\s+\{[^}]*\})\s+from\b|(?:const|let|var)\s[\w${},:\s]+=\s*require\(|from\s+\S+\s+import\b|(?:pub\s+)?use\s+[\w:{]|#include\b|require(?:_relative)?\s*\(?['"])/;
const AMONG_IMPORTS = /^\s*(?:$|\/\/|\/\*|\*|#(?!include)|#!|['"]use strict['"]|package\s|\)|\}|[\w$]+,?\s*$|[\w$]+\s+as\s+[\w$]+,?\s*$)/;
/** How far down the imports are looked for. */
const HEADER_LINES = 80;

/** The file's leading imports (1-based lines, from its first import to its last), or null when it opens with none. */
export function importHeader(lines: readonly string[]): ExcerptRange | null {
  let first = -1;
  let last = -1;
  let inBlock = false; // inside an import that opened a bracket: Go's `import (`, Python's `import (`, Rust's `use a::{`
  for (let i = 0; i < Math.min(lines.length, HEADER_LINES); i++) {
    if (inBlock) {
      last = i; // its lines (Go's quoted paths, Rust's nested paths) are the import, up to the closing bracket
      if (/^\s*[)}]/.test(lines[i])) inBlock = false;
    } else if (IMPORT_LINE.test(lines[i])) {
      if (first < 0) first = i;
      last = i;
      inBlock = opensBlock(lines[i]);
    } else if (!AMONG_IMPORTS.test(lines[i])) break;
  }
  return last < 0 ? null : { start: first + 1, end: last + 1 };
}

/**
 * True when an import line opens a bracket its next lines continue (`import (`, `from a import (`, `use a::{`,
 * `import {`): a `(` or `{` last but for white space and a `//` comment (without a line break). A CRLF file's line
 * ends in its `\r`, which is no line break inside the comment: `import {  // a\r` opens a block as `import {  // a`
 * does. In one pass, not as /[({]\s*(?:\/\/.*)?$/, which V8 tries from each bracket.
 */
function opensBlock(line: string): boolean {
  line = withoutCr(line);
  const bracketEndsAt = (end: number): boolean => {
    const at = trimmedEnd(line, end);
    return at > 0 && (line[at - 1] === '(' || line[at - 1] === '{');
  };
  if (bracketEndsAt(line.length)) return true;
  let comment = line.length;
  while (comment > 0 && !LINE_BREAK.test(line[comment - 1])) comment--;
  for (let at = line.indexOf('//', comment); at >= 0; at = line.indexOf('//', at + 1)) if (bracketEndsAt(at)) return true;
  return false;
}
