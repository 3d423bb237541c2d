// A file's declarations as short signatures, for the map lines that show a product's interface (DA's map of a
// workspace without UI files, init's code map): `parse(text: string, opts?: Options): Version`,
// `Version.new(major: u64, minor: u64, patch: u64) -> Self`, `struct Version { major: u64, minor: u64, … }`,
// `class Foo(Base) { name: str, email: str }`. Keyed by the symbols scanFile gives (symbols.ts; `Type.method` for Go's
// and Rust's methods), found by the same line rules (signaturesTs.ts for TS/JS, signaturesOther.ts for Rust, Go and
// Python, signaturesPy.ts for Python's classes) and read on from there over a few lines (signatureDecls.ts,
// signatureText.ts); and the members those lines name after their type though the index does not (typeMembers: a
// TS/JS class's public members, a Rust trait's methods, a Go interface's, a Python class's), keyed `Command.option`.
// C's and C++'s come from their own walk (symbolsC.ts: a function's declaration as written, a macro's literal value).
// Other languages have none (their map shows names alone). Only the few files a map lists are read for them, when it
// is rendered: the index keeps none.

import { JS_EXT } from './symbols';
import { C_FAMILY_FILE, GO_FILE, PYTHON_FILE, RUST_FILE } from './languageFiles';
import { cDeclarations } from './symbolsC';
import type { Lang } from './signatureText';
import type { Add, MemberFocus, TypeMember } from './signatureDecls';
import { fallbackDeclarations, interfaceMethods, rustDeclarations } from './signaturesOther';
import { classMembers, tsDeclarations } from './signaturesTs';
import { classMethods } from './signaturesPy';

/** The language whose signatures a file's path gives, or null (names alone). */
function langOf(relPath: string): Lang | null {
  if (JS_EXT.test(relPath)) return 'ts';
  if (RUST_FILE.test(relPath)) return 'rust';
  if (GO_FILE.test(relPath)) return 'go';
  if (C_FAMILY_FILE.test(relPath)) return 'c';
  return PYTHON_FILE.test(relPath) ? 'py' : null;
}

/**
 * The members a file's interface lines name after their type (mapLines.ts fileNames), in file order, each with how
 * to read its signature: a TS/JS class's public members (`Command.option`, `new Command`), a Rust trait's methods
 * (`Show.show`), a Go interface's exported ones (`Handler.ServeHTTP`), a Python class's public methods (`Foo.name`,
 * `Foo.__init__`); none for other languages. Never throws.
 */
export function typeMembers(relPath: string, text: string): TypeMember[] {
  const lang = langOf(relPath);
  try {
    if (lang === 'ts') return classMembers(text);
    if (lang === 'py') return classMethods(text.split('\n'));
    return lang === 'rust' || lang === 'go' ? interfaceMethods(text.split('\n'), lang) : [];
  } catch {
    return []; // a rule's mistake on a strange file costs its members, not the map
  }
}

/**
 * The signatures of a file's declarations and of its types' members (`members`: typeMembers, found again unless given),
 * by symbol (scanFile's names, `Type.member`), for those that have one — a symbol missing here is shown by its name;
 * `only` the symbols given, when given (a map line shows a few: the others are not read); a type's members that hold
 * words of the work first where its signature is cut (`focus`: signatureDecls.ts MemberFocus). A declaration's first
 * appearance gives it (an overload's first line). Never throws: a file the rules misread keeps the signatures found
 * before it.
 */
export function signaturesOf(relPath: string, text: string, only?: Iterable<string>, members?: readonly TypeMember[], focus?: MemberFocus): Map<string, string> {
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
  const declarations = () => {
    if (lang === 'ts') tsDeclarations(lines, add, focus);
    else if (lang === 'rust') rustDeclarations(lines, add, focus);
    // C's and C++'s own walk: a name's first appearance (its prototype, before its definition) gives it
    else if (lang === 'c') cDeclarations(relPath, text, (symbol, _pub, signature) => add(symbol, signature));
    else fallbackDeclarations(lines, lang, add, focus);
  };
  const ofMembers = () => (members ?? typeMembers(relPath, text)).forEach((m) => add(m.symbol, m.signature));
  for (const read of [declarations, ofMembers]) {
    try {
      read();
    } catch {
      // a rule's mistake on a strange file costs the signatures after it, not the map
    }
  }
  return out;
}
