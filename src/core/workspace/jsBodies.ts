// The class and object literal bodies of a TS/JS text and their members' lines, met line by line as symbols.ts's walk
// (scanJs) reads the text: a body opens on a line ending with `{` — a class's at any depth (`class X extends Y {`,
// `const X = class {`), a top-level object literal's (`const api = {`, `module.exports = {`) — and, for the interface
// lines (BodyRules), on the line where a top-level class's heading written over lines ends (Prettier's `export class
// HttpClient` / `  extends Base<Options>` / `{`, type parameters over lines), the lines inside a template literal
// read as text; its members sit at the body's first indentation, and a line back at the opening line's ends it; for
// the interface lines too, the fields a class's constructor assigns (`this.flags = flags`: constructorFields.ts),
// read from the code characters of its lines. No parser: indentation, a heading's brackets matched (signatureText.ts)
// with its strings and comments dropped, and each line's quotes followed for the template literals that go on over
// lines (and for a constructor's brackets).

import { HEADER_CHARS, headingUntil } from './signatureText';
import { ConstructorFields } from './constructorFields';

/**
 * A member's line in a class or an object literal body (`inClass`, else an object's): its name as written (`#secret`,
 * `constructor`), the words before it (`static async `, `private `, `get `), its line (from 0), the column just after
 * its name, and the line its body's heading starts on (`class X {`, or `export class X` of a heading over lines).
 */
export interface MemberLine {
  name: string;
  modifiers: string;
  inClass: boolean;
  line: number;
  col: number;
  opener: number;
  /** A field the class's constructor assigns (`this.flags = flags`), not a line of the body: `line` and `col` its name's there. */
  assigned?: boolean;
}

/**
 * How the bodies are read: 'ranking' — a class's body opens on its heading's line only, where that ends with `{`, and
 * every line is code (the ranking's members, as its bench measured them); 'interface' — also a top-level class's
 * heading over lines or with a `{` inside it (`class X<T = {}> {`) opens its body, and the lines inside a template
 * literal are text, no member nor a body's end (the interface lines').
 */
export type BodyRules = 'ranking' | 'interface';

/** The start of a class's heading: `class`, `export default class`, `const X = class`, `module.exports = class`. */
const CLASS_START = /^(?:(?:export|default|declare|abstract)\s+)*(?:(?:const|let|var)\s+[A-Za-z_$][\w$]*\s*=\s*|module\.exports\s*=\s*)?class\b/;
/** A line that opens a class body (at any depth): `class X extends Y {`, `export default class {`, `const X = class {`. */
const CLASS_OPEN = new RegExp(String.raw`${CLASS_START.source}[^{;]*\{\s*$`);
/** A line that starts a class's heading, its name or type parameters next (not an attribute's `class="…"`). */
const CLASS_HEAD = new RegExp(String.raw`${CLASS_START.source}(?=\s|<|$)`);
/** A top-level line that opens an object literal: `const api = {`, `module.exports = {`, `export default {`. */
const OBJECT_OPEN =
  /^(?:(?:export\s+)?(?:const|let|var)\s+[A-Za-z_$][\w$]*\s*(?::[^=]+)?=|module\.exports\s*=|export\s+default|(?:module\.)?exports\.[A-Za-z_$][\w$]*\s*=)\s*(?:Object\.freeze\(\s*)?\{\s*$/;
/** A class member's line, its modifiers and its name: methods, accessors, fields (`static async *name<T>(`, `#count = 0`, `name?: string;`). */
const CLASS_MEMBER =
  /^((?:(?:public|private|protected|static|readonly|override|abstract|declare|async|accessor|get|set)\s+)+(?:\*\s*)?|\*\s*|\s*)(#?[A-Za-z_$][\w$]*)\s*(?:[?!]\s*)?(?:<[^>]*>\s*)?[(=:;]/;
/** An object literal's member line, its modifiers and its name (quoted or not): `name(…) {`, `async name(`, `get name()`, `name: …`, `name,`. */
const OBJECT_MEMBER =
  /^((?:(?:async|get|set)\s+)+(?:\*\s*)?|\*\s*|\s*)(?:['"]([A-Za-z_$][\w$]*)['"]|([A-Za-z_$][\w$]*))\s*(?:<[^>]*>\s*)?(?:[(:,]|$)/;

/** The next place of `word` in `text` at or after `from` (text.length when there is none). */
export function nextOf(text: string, word: string, from: number): number {
  const at = text.indexOf(word, from);
  return at < 0 ? text.length : at;
}

/** Reads a TS/JS text's lines in order (line()) and hands the members of its class and object literal bodies to `visit`. */
export class JsBodies {
  /** The body the lines are in: 0 none, 1 a class's, 2 an object literal's. */
  private body = 0;
  private bodyIndent = 0;
  private memberIndent = -1;
  private opener = -1;
  /** The next place of `class` in the text, searched once for the whole text. */
  private cls = -1;
  /** The line that opens the body of a class whose heading spans lines (-1 none), and the line its heading starts on. */
  private openAt = -1;
  private headingAt = -1;
  /** The last line a heading over lines was read to: a heading is looked for after it only, each line read once. */
  private headingRead = -1;
  /** The template literals open at the last line's end ('interface' only: openTemplates). */
  private templates: number[] = [];
  /** The constructor whose assigned fields are being read ('interface' only), and the line being read (its start, its row). */
  private ctor: ConstructorFields | null = null;
  private pos = 0;
  private row = 0;

  constructor(
    private readonly text: string,
    private readonly visit: (m: MemberLine) => void,
    private readonly rules: BodyRules,
  ) {}

  /** Reads the line text[pos, stop) (its '\r' dropped), the file's `row`th, not in a block comment. */
  line(pos: number, stop: number, row: number): void {
    if (this.rules === 'ranking') return this.code(pos, stop, row);
    this.pos = pos;
    this.row = row;
    // a line begun inside a template literal is its text: neither a member nor the end of a body
    if (!this.templates.length) this.code(pos, stop, row);
    this.templates = openTemplates(this.text, pos, stop, this.templates, this.ctor?.read);
    if (this.ctor?.done) this.ctor = null;
  }

  /** Reads a line of code: a member of the body the lines are in, the body's end, or a body's opening. */
  private code(pos: number, stop: number, row: number): void {
    const text = this.text;
    let ind = 0;
    while (pos + ind < stop && (text.charCodeAt(pos + ind) === 32 || text.charCodeAt(pos + ind) === 9)) ind++;
    if (this.body && ind < stop - pos) {
      const c = text.charCodeAt(pos + ind);
      if (ind <= this.bodyIndent) {
        this.body = 0;
        this.ctor = null;
      } else {
        if (this.memberIndent < 0) this.memberIndent = ind;
        // not a comment (`//`, ` * `) nor a decorator
        if (ind === this.memberIndent && c !== 47 && c !== 42 && c !== 64) {
          const m = (this.body === 1 ? CLASS_MEMBER : OBJECT_MEMBER).exec(text.slice(pos + ind, stop));
          const name = m && (m[2] ?? m[3]);
          if (name) {
            const col = ind + m[0].indexOf(name, m[1].length) + name.length;
            this.visit({ name, modifiers: m[1], inClass: this.body === 1, line: row, col, opener: this.opener });
            this.ctor = this.rules === 'interface' && this.body === 1 && name === 'constructor' ? this.fieldsOf(pos + col) : null;
          }
        }
      }
    }
    if (this.body) return;
    if (row === this.openAt) return this.open(1, 0, this.headingAt);
    // a heading's own lines open no other body
    if (row < this.openAt) return;
    let last = stop - 1;
    while (last > pos && (text.charCodeAt(last) === 32 || text.charCodeAt(last) === 9)) last--;
    const endsOpen = last > pos + ind && text.charCodeAt(last) === 123;
    const spanning = this.rules === 'interface' && ind === 0 && row > this.headingRead;
    if (!endsOpen && !spanning) return;
    if (this.cls < pos) this.cls = nextOf(text, 'class', pos);
    const hasClass = this.cls < stop;
    // only a line with `class` in it opens a class body, only an unindented one ending with `{` an object's
    if (!hasClass && !(endsOpen && ind === 0)) return;
    const line = text.slice(pos + ind, stop);
    if (hasClass && endsOpen && CLASS_OPEN.test(line)) this.open(1, ind, row);
    else if (hasClass && spanning && CLASS_HEAD.test(line)) this.heading(pos, row);
    else if (endsOpen && ind === 0 && OBJECT_OPEN.test(line)) this.open(2, ind, row);
  }

  /** Reads the fields assigned by the constructor whose name ends at text[from], and visits each as its class's member. */
  private fieldsOf(from: number): ConstructorFields {
    const opener = this.opener;
    return new ConstructorFields(this.text, from, (name, end) => this.visit({ name, modifiers: '', inClass: true, line: this.row, col: end - this.pos, opener, assigned: true }));
  }

  private open(body: number, indent: number, opener: number): void {
    this.body = body;
    this.bodyIndent = indent;
    this.memberIndent = -1;
    this.opener = opener;
  }

  /**
   * The heading of a top-level class that starts at text[pos] (row `row`), read line by line (headingUntil) to its
   * first `{` or `;` outside brackets, strings and template literals: a `{` that ends its line opens the body (a class
   * on one line, `class A { m() {} }`, has no member lines); a `;` (a declaration without a body) or none opens none.
   */
  private heading(pos: number, row: number): void {
    const text = this.text;
    let from = pos;
    const lineAt = () => {
      if (from > text.length) return undefined;
      let end = text.indexOf('\n', from);
      if (end < 0) end = text.length;
      const line = text.slice(from, Math.min(end, from + HEADER_CHARS));
      from = end + 1;
      return line;
    };
    const { code, at, lines } = headingUntil(lineAt, 'ts', (c) => c === '{' || c === ';');
    const last = row + lines - 1;
    this.headingRead = last;
    if (at < 0 || code[at] === ';' || code.slice(at + 1).trim()) return;
    if (last === row) this.open(1, 0, row);
    else {
      this.openAt = last;
      this.headingAt = row;
    }
  }
}

/** The characters after which a `/` starts a regular expression (as at a line's start), not a division. */
const BEFORE_REGEX = new Set([...'(,=:[!&|?{};+-*%<>~^'].map((c) => c.charCodeAt(0)));

/**
 * The characters openTemplates has read, its scans to a string's, a comment's or a regular expression's end included,
 * summed over the process: how a test bounds the work a hostile line takes (a count of work, not of time). Nothing
 * in the product reads it.
 */
export const templatesScanned = { chars: 0 };

/**
 * Follows the template literals of the line text[pos, stop) from `open`, those the lines before it left open (each a
 * -1, or the depth of the braces inside one's `${…}`, innermost last), and returns those still open at its end: a
 * backtick opens a template and closes it, `${` in one opens code until its `}`; in code a quoted string and a
 * regular expression end on their line, a `//` comment ends the line's code and a `/* *\/` on it is skipped. A
 * backslash escapes the next character. Once a `/` that may start a regular expression finds no closing `/` on the
 * line, every later `/` of the line is read as a division: the line is searched to its end once, not once per `/`
 * (a line of `x=/[` repeated took time growing with its length squared). `code`, when given, takes the line's code
 * characters outside template literals in order, white space and comments left out, of a string or a regular
 * expression its first: a constructor's (constructorFields.ts).
 */
function openTemplates(text: string, pos: number, stop: number, open: number[], code?: (i: number, c: number) => void): number[] {
  const stack = open;
  let prev = 0; // the code's last character before i on the line, not a space (0: none)
  let regexes = true; // false once a regular expression found no end on this line
  templatesScanned.chars += stop - pos;
  for (let i = pos; i < stop; i++) {
    const c = text.charCodeAt(i);
    if (stack.length && stack[stack.length - 1] < 0) {
      if (c === 92) i++;
      else if (c === 96) stack.pop(), (prev = c);
      else if (c === 36 && text.charCodeAt(i + 1) === 123) stack.push(0), i++, (prev = 123);
      continue;
    }
    if (c === 32 || c === 9) continue;
    if (c === 47) {
      const next = text.charCodeAt(i + 1);
      if (next === 47) break;
      if (next === 42) {
        // to the comment's end on this line (a comment left open is scanJs's to follow)
        const end = closingOnLine(text, i + 1, stop, (k) => text.charCodeAt(k) === 42 && text.charCodeAt(k + 1) === 47);
        if (end >= stop) break;
        i = end + 1;
        continue;
      }
    }
    // a code character outside template literals (of a string or a regular expression, its first)
    if (code && !stack.length) code(i, c);
    if (c === 96) stack.push(-1);
    else if (c === 123 && stack.length) stack[stack.length - 1]++;
    else if (c === 125 && stack.length) {
      if (stack[stack.length - 1] > 0) stack[stack.length - 1]--;
      else stack.pop();
    } else if (c === 39 || c === 34) i = closingOnLine(text, i, stop, (k) => text.charCodeAt(k) === c);
    else if (c === 47 && regexes && (!prev || BEFORE_REGEX.has(prev))) {
      const end = regexEnd(text, i, stop);
      regexes = end > i;
      i = end;
    }
    prev = c;
  }
  return stack;
}

/** The index after `from` on the line (before `stop`) where `ends` holds, a backslash escaping the next character; `stop` when none. */
function closingOnLine(text: string, from: number, stop: number, ends: (k: number) => boolean): number {
  let k = from + 1;
  while (k < stop && !ends(k)) k += text.charCodeAt(k) === 92 ? 2 : 1;
  templatesScanned.chars += Math.min(k, stop) - from;
  return Math.min(k, stop);
}

/** The index of the `/` that closes the regular expression opening at text[at] (outside its `[…]` classes), or `at` itself when none on its line closes it (a division). */
function regexEnd(text: string, at: number, stop: number): number {
  let inClass = false;
  const end = closingOnLine(text, at, stop, (k) => {
    const c = text.charCodeAt(k);
    if (c === 91) inClass = true;
    else if (c === 93) inClass = false;
    return c === 47 && !inClass;
  });
  return end < stop ? end : at;
}
