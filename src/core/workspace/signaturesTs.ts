// TS/JS signatures (signatures.ts): the top-level declarations symbols.ts names (EXPORT_DECL, TOP_DECL) — functions,
// classes with their heritage, interfaces and object types with their members, enums, aliases, constants — and the
// public members of the top-level classes (classMembers), named after their class as Rust's methods are after their
// type (symbolNames.ts: `Command.option(flags: string): this`, a static one alike, the constructor
// `new Command(name?: string)`, a getter or a field by its type `Command.name: string`, and after the constructor the
// fields its parameters declare, `constructor(public readonly name: string)` → `Command.name: string`; after all its
// members, the fields its constructor assigns that it does not declare, `this.flags = flags` → `Option.flags`, as a
// plain JavaScript class holds its state). The members are those the ranking's walk finds, read as interface lines
// read them (symbols.ts jsMembers, jsBodies.ts: a member at its class body's first indentation, under a heading on one
// line or over several, outside template literals; constructorFields.ts: a constructor's own `this.name =`
// statements); not the private ones — `private`, `protected`, `#secret`, and `_internal` as JavaScript marks them by
// convention. The index keeps none of them: a class's hundred methods would crowd the ranking.

import { EXPORT_DECL, jsMembers, TOP_DECL } from './symbols';
import { SECRET_VARIABLE_NAME } from './secretNames';
import type { MemberLine } from './jsBodies';
import { constructorSymbol, methodSymbol } from './symbolNames';
import { bracketed, callParts, callText, flatten, skipSpace, topIndex, afterTypeParams, LITERAL_CHARS } from './signatureText';
import { bodyItems, callOf, codeAfter, declaredType, fnSignature, keywordOf, membersSignature, memberType, topItems, typeAlias, typedMember, type Add, type MemberFocus, type Site, type TypeMember } from './signatureDecls';

/** An interface's or object type's member (code spaced by one: codeOf): `name?: T`, `readonly name: T`, `name(…)`. */
const TS_MEMBER = /^(?:readonly )?([A-Za-z_$][\w$]*) ?(\?)? ?([:(<])/;

/** TS/JS: the top-level declarations symbols.ts names (EXPORT_DECL, TOP_DECL). */
export function tsDeclarations(lines: readonly string[], add: Add, focus?: MemberFocus): void {
  for (let i = 0; i < lines.length; i++) {
    const m = EXPORT_DECL.exec(lines[i]) ?? TOP_DECL.exec(lines[i]);
    if (!m) continue;
    const name = m[1];
    const at: Site = { lines, line: i, col: m[0].length, lang: 'ts', focus };
    const keyword = keywordOf(m[0], name);
    if (keyword === 'function') add(name, () => fnSignature(name, at));
    else if (keyword === 'class') add(name, () => tsClass(name, at));
    else if (keyword === 'interface' || keyword === 'type' || keyword === 'enum') add(name, () => tsType(keyword, name, at));
    else if (keyword === 'const' || keyword === 'let' || keyword === 'var') add(name, () => tsConstant(name, at, true));
  }
}

/** The text from `at` to the body's `{` (or `=`, `;`), without type arguments: `extends Base implements Api`. */
function heritage(s: string, at: number): string {
  const flat = flatten(s.slice(at), 'ts');
  const end = flat.search(/[{=;]/);
  return (end < 0 ? flat : flat.slice(0, end)).replace(/<>/g, '').replace(/\s+/g, ' ').trim();
}

/** `class Foo extends Bar implements Baz` (type arguments dropped). */
function tsClass(name: string, at: Site): string {
  const s = codeAfter(at);
  const more = heritage(s, afterTypeParams(s, 0, 'ts'));
  return bracketed(`class ${name}`, more ? ' ' : '', more, '');
}

/**
 * `Options { loose?: boolean, readonly id: string, compare() }` (an interface or an object type: its fields with their
 * types, its methods by name), `enum Color { Red, Green }`, `type Id = string | number`.
 */
function tsType(keyword: string, name: string, at: Site): string | null {
  const s = codeAfter(at, 'body');
  let i = afterTypeParams(s, 0, 'ts');
  const more = heritage(s, i);
  const head = keyword === 'enum' ? `enum ${name}` : more && keyword === 'interface' ? `${name} ${more}` : name;
  i = topIndex(s, i, 'ts', (c) => c === (keyword === 'type' ? '=' : '{'));
  if (i < 0) return null;
  if (keyword === 'type') {
    i = skipSpace(s, i + 1);
    if (s[i] !== '{') return typeAlias(name, s.slice(i), 'ts');
  }
  const members = bodyItems(s, i, 'ts').flatMap((item) => {
    if (keyword === 'enum') return /^[A-Za-z_$][\w$]*/.exec(item)?.[0] ?? [];
    const m = TS_MEMBER.exec(flatten(item, 'ts'));
    if (!m) return [];
    const label = `${item.startsWith('readonly ') ? 'readonly ' : ''}${m[1]}${m[2] ?? ''}`;
    return m[3] === ':' ? typedMember(label, item, 'ts') : `${label}()`;
  });
  return membersSignature(head, members, false, keyword === 'enum' ? undefined : at.focus);
}

/** A constant holding a function (`f = (a, b) => …`, `f = function (a) {`) as `f(a, b)`; else its declared type, `x: T`. */
/**
 * A constant's value when it is a short literal that ends its statement: a number, a boolean, null, or a string of at
 * most LITERAL_CHARS without escapes or interpolation (`limit = 10`, `indigo = '#3f51b5'`) — the page size or the
 * colour a map line otherwise names without (an init trial's model guessed both) —; never for a name that looks like a
 * secret's (SECRET_VARIABLE_NAME: `apiKey`, `AUTH_TOKEN`). Null otherwise.
 */
function literalValue(name: string, s: string, at: number): string | null {
  if (SECRET_VARIABLE_NAME.test(name)) return null;
  const m = LITERAL.exec(s.slice(at, at + LITERAL_CHARS + 3));
  // the statement ends there: `;`, `,` (the next declarator), the line's end or a comment — not `10 * 60`, `'a' + b`
  return m && /^[ \t]*(?:[;,\n]|\/[/*]|$)/.test(s.slice(at + m[0].length)) ? m[0] : null;
}

const LITERAL = new RegExp(`^(?:-?(?:0[xXbBoO][\\da-fA-F_]+|\\d[\\d_]*(?:\\.\\d+)?(?:[eE][-+]?\\d+)?)n?|true|false|null|'[^'\\\\\\n]{0,${LITERAL_CHARS}}'|"[^"\\\\\\n]{0,${LITERAL_CHARS}}"|\`[^\`\\\\$\\n]{0,${LITERAL_CHARS}}\`)`);

/**
 * A constant's or a field's signature: an arrow or function expression's parameters, else its declared type; with
 * `value` (a top-level declaration: not a class's field, whose initial value is state, not configuration), a short
 * literal value (literalValue).
 */
export function tsConstant(name: string, at: Site, value = false): string | null {
  const s = codeAfter(at);
  let i = skipSpace(s, 0);
  let declared = '';
  if (s[i] === ':') {
    const eq = topIndex(s, i + 1, 'ts', (c, k) => c === ';' || c === '\n' || (c === '=' && s[k + 1] !== '>'));
    declared = (eq < 0 ? s.slice(i + 1) : s.slice(i + 1, eq)).replace(/\n/g, ' ').trim();
    i = eq < 0 ? s.length : eq;
  }
  if (s[i] === '=') {
    i = skipSpace(s, i + 1);
    const literal = value ? literalValue(name, s, i) : null;
    if (literal !== null) return `${declared ? declaredType(name, declared) : name} = ${literal}`;
    const fn = /^(?:async\s+)?(?:function\b\s*\*?\s*(?:[A-Za-z_$][\w$]*)?\s*)?/.exec(s.slice(i, i + 40))![0];
    i = afterTypeParams(s, i + fn.length, 'ts');
    const single = /^[A-Za-z_$][\w$]*(?=\s*=>)/.exec(s.slice(i, i + 80));
    if (single) return `${name}(${single[0]})`;
    const parts = callParts(s, i, 'ts');
    // a call's parentheses (`= make(a)`) are no parameters: a function's are followed by its arrow or its body
    if (parts && (!parts.closed || s.startsWith('=>', parts.end) || (fn.includes('function') && s[parts.end] === '{'))) return callText(name, parts, 'ts');
  }
  return declared ? declaredType(name, declared) : null;
}

/** Modifiers that keep a class member out of the interface. */
const PRIVATE_MEMBER = /\b(?:private|protected)\s/;
/** A member's name that keeps it out: a `#secret`, or `_internal` as JavaScript marks it by convention. */
const INTERNAL_NAME = /^[#_]/;

/**
 * The public members of the file's top-level named classes (`class Command {`, `export default class Command
 * extends Base {`, `export const Command = class {`, a heading over lines), in file order, each once (an overload's or
 * a getter's first line gives it): named after their class, with how to read their signature; after a constructor,
 * the public fields its parameters declare (parameterFields); after all the classes' members, the public fields their
 * constructors assign (`this.flags = flags`: constructorFields.ts) by a name no member of the class has, a private
 * one's included — a field the class declares is listed as declared, with its type, and a method or an accessor of
 * the same name stands for it — read as a field's signature (an arrow function's parameters: `Option.parse(value)`).
 */
export function classMembers(text: string): TypeMember[] {
  const lines = text.split('\n');
  // the class a body's heading declares: an unindented declaration's name (none for a nested or anonymous class)
  const classes = new Map<number, string | null>();
  const classOf = (opener: number): string | null => {
    if (!classes.has(opener)) classes.set(opener, (EXPORT_DECL.exec(lines[opener]) ?? TOP_DECL.exec(lines[opener]))?.[1] ?? null);
    return classes.get(opener)!;
  };
  const found: MemberLine[] = [];
  const assigned: MemberLine[] = [];
  jsMembers(text, (m) => m.inClass && (m.assigned ? assigned : found).push(m));
  // every member's symbol, a private one's too: a field the constructor assigns by a member's name is that member
  const declared = new Set<string>();
  const seen = new Set<string>();
  const out: TypeMember[] = [];
  const add = (type: string, symbol: string, signature: () => string | null, constructorField = false) => {
    if (seen.has(symbol)) return;
    seen.add(symbol);
    out.push({ type, symbol, signature, ...(constructorField && { constructorField }) });
  };
  found.forEach((m, k) => {
    const type = classOf(m.opener);
    if (!type) return;
    const ctor = m.name === 'constructor';
    declared.add(methodSymbol(type, m.name));
    if (!PRIVATE_MEMBER.test(m.modifiers) && !INTERNAL_NAME.test(m.name)) {
      const symbol = ctor ? constructorSymbol(type) : methodSymbol(type, m.name);
      add(type, symbol, () => memberSignature(symbol, m, lines));
    }
    if (!ctor) return;
    // read over the constructor's own lines: up to the next member's
    const span = k + 1 < found.length ? found[k + 1].line - m.line : Infinity;
    for (const f of parameterFields({ lines, line: m.line, col: m.col, lang: 'ts' }, span)) {
      const symbol = methodSymbol(type, f.name);
      declared.add(symbol);
      if (f.public) add(type, symbol, () => (f.type ? declaredType(f.optional ? `${symbol}?` : symbol, f.type) : null), true);
    }
  });
  // then the fields the constructors assign that the class does not declare, after all its members: a plain
  // JavaScript class's many of them (commander's Option: eighteen) would otherwise stand before the methods users call
  for (const m of assigned) {
    const type = classOf(m.opener);
    const symbol = type && methodSymbol(type, m.name);
    if (symbol && !declared.has(symbol) && !INTERNAL_NAME.test(m.name)) add(type, symbol, () => memberSignature(symbol, m, lines));
  }
  return out;
}

/**
 * A constructor's parameter that declares a field (code spaced by one, brackets emptied: flatten), decorators before
 * it (`@Inject() private readonly db: Db`): its modifiers, its name, and `?` when optional.
 */
const PARAMETER_FIELD = /^(?:@[\w$.]+(?:\(\))? ?)*((?:(?:public|private|protected|readonly|override) )+)([A-Za-z_$][\w$]*) ?(\?)?/;

/**
 * The fields a TypeScript constructor's parameters declare (`public readonly name: string`, `readonly id = 0`,
 * `public label?: string`, `private db: Db`), in their order: each one's name, whether it is public (not `private` nor
 * `protected`, nor `_internal`), whether it is optional, and its declared type ('' without one). Read as far as a body
 * is (a list of injected services takes more lines than a header's), over `span` of its lines at most (callOf).
 */
function parameterFields(at: Site, span: number): { name: string; public: boolean; optional: boolean; type: string }[] {
  const parts = callOf(at, 'body', span);
  return topItems(parts?.params ?? '', 'ts', /,/).flatMap((param) => {
    const f = PARAMETER_FIELD.exec(flatten(param, 'ts'));
    if (!f) return [];
    // the type up to the default's `=` (not an arrow's)
    const eq = topIndex(param, 0, 'ts', (c, i) => c === '=' && param[i + 1] !== '>');
    const isPublic = !PRIVATE_MEMBER.test(f[1]) && !INTERNAL_NAME.test(f[2]);
    return [{ name: f[2], public: isPublic, optional: !!f[3], type: memberType(eq < 0 ? param : param.slice(0, eq), 'ts') }];
  });
}

/**
 * A class member's signature: a method's (or the constructor's) parameters and return type, a getter's return type
 * or a setter's parameter's as its type (`Command.name: string`), a field's declared type (or an arrow function's
 * parameters: tsConstant); an optional one's name marked `?`.
 */
function memberSignature(symbol: string, m: MemberLine, lines: readonly string[]): string | null {
  const mark = /^\s*([?!])/.exec(lines[m.line].slice(m.col));
  const label = mark?.[1] === '?' ? `${symbol}?` : symbol;
  const at: Site = { lines, line: m.line, col: m.col + (mark?.[0].length ?? 0), lang: 'ts' };
  const s = codeAfter(at);
  const accessor = /\b([gs]et)\s/.exec(m.modifiers)?.[1];
  if (accessor) {
    const parts = callParts(s, afterTypeParams(s, 0, 'ts'), 'ts');
    const type = parts ? memberType(accessor === 'get' ? parts.returns : parts.params, 'ts') : '';
    return type ? declaredType(label, type) : null;
  }
  const next = s[skipSpace(s, 0)];
  return next === '(' || next === '<' ? fnSignature(label, at) : tsConstant(label, at);
}
