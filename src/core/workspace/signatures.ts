// A file's declarations as short signatures, for the map lines that show a product's interface (DA's map of a
// workspace without UI files, init's code map): `parse(text: string, opts?: Options): Version`,
// `Version.new(major: u64, minor: u64, patch: u64) -> Self`, `struct Version { major: u64, minor: u64, … }`,
// `class Foo(Base) { name: str, email: str }`. Keyed by the symbols scanFile gives (symbols.ts; `Type.method` for Go's and Rust's
// methods), found by the same line rules (its regexes here for TS/JS, signaturesOther.ts's for Rust, Go and Python)
// and read on from there over a few lines (signatureDecls.ts, signatureText.ts). Other languages have none (their map
// shows names alone). Only the few files a map lists are read for them, when it is rendered: the index keeps none.

import { EXPORT_DECL, JS_EXT, TOP_DECL } from './symbols';
import { GO_FILE, PYTHON_FILE, RUST_FILE } from './fileKinds';
import { bracketed, callParts, callText, flatten, skipSpace, topIndex, afterTypeParams, type Lang } from './signatureText';
import { bodyItems, codeAfter, fnSignature, keywordOf, membersSignature, typeAlias, typedMember, type Add, type Site } from './signatureDecls';
import { fallbackDeclarations, rustDeclarations } from './signaturesOther';

/** The language whose signatures a file's path gives, or null (names alone). */
function langOf(relPath: string): Lang | null {
  if (JS_EXT.test(relPath)) return 'ts';
  if (RUST_FILE.test(relPath)) return 'rust';
  if (GO_FILE.test(relPath)) return 'go';
  return PYTHON_FILE.test(relPath) ? 'py' : null;
}

/**
 * The signatures of a file's declarations, by symbol (scanFile's names), for those that have one — a symbol missing
 * here is shown by its name; `only` the symbols given, when given (a map line shows a few: the others are not read).
 * A declaration's first appearance gives it (an overload's first line). Never throws: a file the rules misread keeps
 * the signatures found before it.
 */
export function signaturesOf(relPath: string, text: string, only?: Iterable<string>): Map<string, string> {
  const out = new Map<string, string>();
  const lang = langOf(relPath);
  const wanted = only && new Set(only);
  if (!lang || wanted?.size === 0) return out;
  const tried = new Set<string>();
  const add: Add = (symbol, signature) => {
    if (tried.has(symbol) || (wanted && !wanted.has(symbol))) return;
    tried.add(symbol);
    const s = signature();
    if (s && s !== symbol) out.set(symbol, s);
  };
  const lines = text.split('\n');
  try {
    if (lang === 'ts') tsDeclarations(lines, add);
    else if (lang === 'rust') rustDeclarations(lines, add);
    else fallbackDeclarations(lines, lang, add);
  } catch {
    // a rule's mistake on a strange file costs the signatures after it, not the map
  }
  return out;
}

/** An interface's or object type's member (code spaced by one: codeOf): `name?: T`, `readonly name: T`, `name(…)`. */
const TS_MEMBER = /^(?:readonly )?([A-Za-z_$][\w$]*) ?(\?)? ?([:(<])/;

/** TS/JS: the top-level declarations symbols.ts names (EXPORT_DECL, TOP_DECL). */
function tsDeclarations(lines: readonly string[], add: Add): void {
  for (let i = 0; i < lines.length; i++) {
    const m = EXPORT_DECL.exec(lines[i]) ?? TOP_DECL.exec(lines[i]);
    if (!m) continue;
    const name = m[1];
    const at: Site = { lines, line: i, col: m[0].length, lang: 'ts' };
    const keyword = keywordOf(m[0], name);
    if (keyword === 'function') add(name, () => fnSignature(name, at));
    else if (keyword === 'class') add(name, () => tsClass(name, at));
    else if (keyword === 'interface' || keyword === 'type' || keyword === 'enum') add(name, () => tsType(keyword, name, at));
    else if (keyword === 'const' || keyword === 'let' || keyword === 'var') add(name, () => tsConstant(name, at));
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
  const s = codeAfter(at, true);
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
  return membersSignature(head, members);
}

/** A constant holding a function (`f = (a, b) => …`, `f = function (a) {`) as `f(a, b)`; else its declared type, `x: T`. */
function tsConstant(name: string, at: Site): string | null {
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
    const fn = /^(?:async\s+)?(?:function\b\s*\*?\s*(?:[A-Za-z_$][\w$]*)?\s*)?/.exec(s.slice(i, i + 40))![0];
    i = afterTypeParams(s, i + fn.length, 'ts');
    const single = /^[A-Za-z_$][\w$]*(?=\s*=>)/.exec(s.slice(i, i + 80));
    if (single) return `${name}(${single[0]})`;
    const parts = callParts(s, i, 'ts');
    // a call's parentheses (`= make(a)`) are no parameters: a function's are followed by its arrow or its body
    if (parts && (!parts.closed || s.startsWith('=>', parts.end) || (fn.includes('function') && s[parts.end] === '{'))) return callText(name, parts, 'ts');
  }
  return declared ? bracketed(`${name}: `, '', declared, '') : null;
}
