// A declaration found by its line, for its signature (signatures.ts, signaturesOther.ts): where it is (Site), its code
// read on from just after its name (over a header's few lines, or a type's body), the keyword it was declared with,
// and the shapes every language's signatures take — a function's parameters and return type, a type's members (a
// field with its type: `minor: Option<u64>`), an alias's text — built on signatureText.ts's scans.

import { bracketed, callParts, callText, closing, codeOf, HEADER_CHARS, HEADER_LINES, linesFrom, topIndex, afterTypeParams, TYPE_SIGNATURE_CHARS, type CallParts, type Lang } from './signatureText';

/** A type's body (its fields, variants or members) is read over this many lines at most … */
export const BODY_LINES = 120;
/** … and this many characters. */
export const BODY_CHARS = 6000;

/** Where a declaration was found: the file's lines, the line, and the column just after its name. */
export interface Site {
  lines: readonly string[];
  line: number;
  col: number;
  lang: Lang;
  /** How many of the work's words a member's own name holds (MemberFocus): a type's members that hold some go first where its signature is cut. */
  focus?: MemberFocus;
}

/**
 * How many of the work's words a type's member (`maxAge?: string | false`, `pub name: String`) holds in its own name
 * (memberName): where a type's signature cannot show all its members, those that hold some go first — in a trial on
 * h3, DA's map showed `H3CorsOptions { origin?: …, methods?: …, allowHeaders?: …, exposeHeaders?: …, … }`, cut just
 * before the `maxAge` the work was about.
 */
export type MemberFocus = (member: string) => number;

/** A member's own name: `maxAge` of `readonly maxAge?: string`, `name` of `pub(crate) name: String`, `Handler` of `Handler http.Handler`. */
export function memberName(member: string): string {
  return /^(?:readonly\s+|pub(?:\([^)]*\))?\s+)?([A-Za-z_$][\w$]*)/.exec(member)?.[1] ?? '';
}

/**
 * How far a declaration's code is read from its name: over its header (HEADER_LINES), its body (BODY_LINES), or the
 * body of a Rust trait or a Go interface, whose methods an interface line names after it (signaturesOther.ts
 * interfaceMethods): further, as their doc comments take most of its lines — up to its end (declarationSpan).
 */
type Reach = 'header' | 'body' | 'methods';
const REACH: Record<Reach, readonly [lines: number, chars: number]> = {
  header: [HEADER_LINES, HEADER_CHARS],
  body: [BODY_LINES, BODY_CHARS],
  methods: [2000, 100_000],
};

/**
 * A declaration's code from just after its name, as far as `reach` (its header by default), and over `span` of its
 * lines at most (declarationSpan: its own, not the declarations after it).
 */
export function codeAfter(at: Site, reach: Reach = 'header', span = Infinity): string {
  const [lines, chars] = REACH[reach];
  return codeOf(linesFrom(at.lines, at.line, at.col, Math.min(lines, span), chars), at.lang);
}

/**
 * How many lines the top-level declaration on `lines[line]` spans, found without reading its code: up to the first
 * unindented `}` after it (its closing brace, counted), or up to the next line `declares` (a declaration of its own,
 * not counted), or to the file's end. Reading a type's body no further keeps a file of a thousand types to one
 * reading of each type's own lines, not of the file after it.
 */
export function declarationSpan(lines: readonly string[], line: number, declares: (line: string) => boolean): number {
  for (let k = line + 1; k < lines.length; k++) {
    if (lines[k].startsWith('}')) return k + 1 - line;
    if (declares(lines[k])) return k - line;
  }
  return lines.length - line;
}

/** Takes a declaration's symbol and how to read its signature (read only for a symbol wanted and not seen yet). */
export type Add = (symbol: string, signature: () => string | null) => void;

/** The keyword a declaration's match names before its name: `function`, `struct`, `def`, … (`const enum` → enum). */
export function keywordOf(match: string, name: string): string {
  let end = match.length - name.length;
  while (end > 0 && /[\s*]/.test(match[end - 1])) end--;
  let start = end;
  while (start > 0 && /[\w!]/.test(match[start - 1])) start--;
  return match.slice(start, end);
}

/**
 * A function's parameters (its own type parameters left out) and its return type, read from its header (as far as
 * `reach`, over `span` of its lines at most: codeAfter); null without a parameter list.
 */
export function callOf(at: Site, reach: Reach = 'header', span = Infinity): CallParts | null {
  const s = codeAfter(at, reach, span);
  return callParts(s, afterTypeParams(s, 0, at.lang), at.lang);
}

/** A function's signature: its name, its parameters (its own type parameters left out) and its return type. */
export function fnSignature(name: string, at: Site): string | null {
  const parts = callOf(at);
  return parts && callText(name, parts, at.lang);
}

/**
 * `head { a: A, b: B }` of a type's members, `..` last where it has others not shown (Rust's private fields); `head`
 * alone without any. Within TYPE_SIGNATURE_CHARS: where they do not all fit, the members `focus` finds words of the
 * work in go first (the most first, file order among equals), then the others in file order.
 */
export function membersSignature(head: string, members: readonly string[], others = false, focus?: MemberFocus): string {
  const fits = () => `${head} { ${members.join(', ')}${others ? ', ..' : ''} }`.length <= TYPE_SIGNATURE_CHARS;
  let ordered = members;
  if (focus && members.length > 1 && !fits()) {
    const hits = members.map(focus);
    if (hits.some((h) => h > 0)) ordered = members.map((_, i) => i).sort((a, b) => hits[b] - hits[a] || a - b).map((i) => members[i]);
  }
  const items = [...ordered, ...(others ? ['..'] : [])];
  return items.length ? bracketed(`${head} `, '{ ', items.join(', '), ' }', '', true, TYPE_SIGNATURE_CHARS) : head;
}

/** Whether the line break at s[i] goes on with the same member: a type that starts on the next line or a union's `|` line. */
const memberGoesOn = (s: string, i: number): boolean => '|&'.includes(s[i + 1] ?? ',') || ':|&='.includes(s[i - 1] ?? ',');

/** `item` without the attributes before it (Rust's `#[serde(skip)]`), brackets and all. */
function withoutAttributes(item: string, lang: Lang): string {
  while (/^#!?\[/.test(item)) {
    const close = closing(item, item.indexOf('['), lang);
    if (close < 0) return '';
    item = item.slice(close + 1).trimStart();
  }
  return item;
}

/**
 * The top-level items of the body that opens at s[at] (a `{`), as written (code spaced by one: codeOf), split at `,`,
 * `;` or line breaks outside brackets and strings — a member's type that goes on over lines stays one — each without
 * its attributes; [] when none opens there.
 */
export function bodyItems(s: string, at: number, lang: Lang, seps = /[,;\n]/): string[] {
  if (s[at] !== '{') return [];
  const close = closing(s, at, lang);
  return topItems(s.slice(at + 1, close < 0 ? s.length : close), lang, seps);
}

/**
 * The items of a list's text (a body's inside, a parameter list's) split at `seps` outside brackets and strings, as
 * bodyItems splits them: trimmed, on one line, each without its attributes.
 */
export function topItems(inner: string, lang: Lang, seps = /[,;\n]/): string[] {
  const items: string[] = [];
  for (let from = 0; from < inner.length; ) {
    let end = topIndex(inner, from, lang, (c, i) => seps.test(c) && !(c === '\n' && memberGoesOn(inner, i)));
    if (end < 0) end = inner.length;
    const item = withoutAttributes(inner.slice(from, end).trim(), lang).replace(/\n/g, ' ');
    if (item) items.push(item);
    from = end + 1;
  }
  return items;
}

/**
 * The type a member's text gives after its first `:` (`minor: Option<u64>` → `Option<u64>`; a union begun on the next
 * line without its leading `|`, not a Rust reference's `&`); '' without one.
 */
export function memberType(item: string, lang: Lang): string {
  const colon = topIndex(item, 0, lang, (c, i) => c === ':' && item[i + 1] !== ':');
  return colon < 0 ? '' : item.slice(colon + 1).trim().replace(/^\|\s*/, '');
}

/** A member's `label` and its type (memberType): `minor: Option<u64>`; the label alone without one. */
export function typedMember(label: string, item: string, lang: Lang): string {
  const type = memberType(item, lang);
  return type ? `${label}: ${type}` : label;
}

/** A name declared with a type, `MAX_LEN: usize`, `Command.name: string`, within SIGNATURE_CHARS (its type cut with `…`). */
export const declaredType = (name: string, type: string): string => bracketed(`${name}: `, '', type, '');

/**
 * A member an interface line names after its type though the index does not (signatures.ts typeMembers): the type's
 * name, its symbol (`Command.option`, `new Command`: symbolNames.ts), and how to read its signature.
 */
export interface TypeMember {
  type: string;
  symbol: string;
  signature: () => string | null;
  /** A field a TypeScript constructor's parameter declares (`constructor(public name: string)`): a line keeps it after the constructor. */
  constructorField?: boolean;
}

/** `type Name = …`: the alias's text up to its `;` or its line's end (a union's `|` lines go on), shortened. */
export function typeAlias(name: string, rest: string, lang: Lang): string {
  const end = topIndex(rest, 0, lang, (c, i) => c === ';' || (c === '\n' && rest[i + 1] !== '|' && rest[i + 1] !== '&'));
  const text = (end < 0 ? rest : rest.slice(0, end)).replace(/\n/g, ' ').replace(/^[|&]\s*/, '').trim();
  return text ? bracketed(`type ${name} = `, '', text, '') : `type ${name}`;
}

