// Python's classes for the interface lines (signatures.ts): a class's signature — its bases and the annotated public
// names of its body with their types (`class User(Base) { id: int, name: str }`) — and its public methods named after
// it (classMethods: `User.rename(name: str) -> None`, its `__init__` as the call that makes one, `User(name: str)`, a
// property by its type, `User.size: int`), all read from the lines of the class's body at its first indentation
// (classBody): not a method's own lines, where its nested functions and classes are, nor a docstring's.

import { FALLBACK_DECL } from './symbolsOther';
import { methodSymbol } from './symbolNames';
import { callParts, callText, codeOf, headingUntil, skipSpace, topIndex } from './signatureText';
import { BODY_LINES, callOf, codeAfter, declaredType, keywordOf, membersSignature, typedMember, type Site, type TypeMember } from './signatureDecls';

/** The line a Python heading (`class A(`, `def f(`) ends on: where its `:` stands outside brackets; its own line when none is found. */
function headingEnd(lines: readonly string[], line: number): number {
  const { at, lines: read } = headingUntil((k) => lines[line + k], 'py', (c) => c === ':');
  return at < 0 ? line : line + read - 1;
}

/**
 * The lines of the body of the class declared on lines[line] at the body's first indentation, each handed to `visit`
 * with its index and without its indentation, `limit` lines at most: from the line after its heading (headingEnd) to
 * the first line indented no deeper than the class (none for a class on one line, `class A: pass`). Blank lines and
 * comments are no end; the lines of a string over lines (a docstring) are skipped.
 */
function classBody(lines: readonly string[], line: number, limit: number, visit: (k: number, code: string) => void): void {
  const from = headingEnd(lines, line) + 1;
  let indent: string | null = null;
  let inString = false;
  for (let k = from; k < lines.length && k < from + limit; k++) {
    const text = lines[k];
    const lead = /^[ \t]*/.exec(text)![0];
    const rest = text.slice(lead.length);
    const wasInString = inString;
    if (!wasInString) {
      if (!rest.trim() || rest.startsWith('#')) continue;
      indent ??= lead;
      if (!indent || lead.length < indent.length) return;
    }
    if ((text.match(/"""|'''/g)?.length ?? 0) % 2) inString = !inString;
    if (!wasInString && !inString && lead === indent) visit(k, rest);
  }
}

/** `class User(Base) { id: int, name: str }`: its bases, and the annotated names of its body with their types (a dataclass's, a model's fields), public ones. */
export function pyClass(name: string, at: Site): string {
  const s = codeAfter(at);
  const parts = callParts(s, skipSpace(s, 0), 'py');
  const head = parts ? callText(`class ${name}`, { ...parts, returns: '' }, 'py') : `class ${name}`;
  const fields: string[] = [];
  classBody(at.lines, at.line, BODY_LINES, (_k, rest) => {
    const code = codeOf(rest, 'py');
    const f = /^([A-Za-z]\w*)\s*:\s*[^\s=]/.exec(code);
    // the annotation up to its default's `=`
    const eq = f ? topIndex(code, 0, 'py', (c, k) => c === '=' && code[k + 1] !== '=') : -1;
    if (f) fields.push(typedMember(f[1], eq < 0 ? code : code.slice(0, eq), 'py'));
  });
  return membersSignature(head, fields, false, at.focus);
}

/** A decorator that makes a method a property read by its name: `@property`, `@functools.cached_property`, `@abc.abstractproperty`. */
const PROPERTY = /^@(?:\w+\.)*(?:cached_|abstract)?property\s*(?:#.*)?$/;
/** A decorator that makes a method a property's setter or deleter (`@size.setter`): the property names it already. */
const ACCESSOR = /^@\w+\.(?:setter|deleter)\b/;
/** The instance or class a method is handed first (`self`, `cls`), left out of its parameters: a caller never writes it. */
const RECEIVER = /^\s*(?:self|cls)\s*(?:,|$)/;

/** How a method reads: its name's, `__init__` as the call of its class, a property by its type. */
type MethodKind = 'method' | 'init' | 'property';

/**
 * The public methods of the file's top-level classes, in file order, each once (an overload's first `def` gives it),
 * named after their class (`Foo.name`: methodSymbol; `Foo.__init__` too), with how to read their signature
 * (pyMethod). Public: not `_private`, no dunder but `__init__`. Only `def` lines at a class body's first indentation
 * (classBody): a nested class's methods and a method's nested functions are not the class's.
 */
export function classMethods(lines: readonly string[]): TypeMember[] {
  const out: TypeMember[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    const c = FALLBACK_DECL.exec(lines[i]);
    if (!c || keywordOf(c[0], c[1]) !== 'class') continue;
    const type = c[1];
    // the decorators above the line read
    let property = false;
    let accessor = false;
    classBody(lines, i, Infinity, (k, rest) => {
      if (rest.startsWith('@')) {
        property ||= PROPERTY.test(rest);
        accessor ||= ACCESSOR.test(rest);
        return;
      }
      const kind: MethodKind = property ? 'property' : 'method';
      const skip = accessor;
      property = accessor = false;
      const m = FALLBACK_DECL.exec(rest);
      if (skip || !m || keywordOf(m[0], m[1]) !== 'def' || (m[1] !== '__init__' && m[1].startsWith('_'))) return;
      const symbol = methodSymbol(type, m[1]);
      if (seen.has(symbol)) return;
      seen.add(symbol);
      const at: Site = { lines, line: k, col: lines[k].length - rest.length + m[0].length, lang: 'py' };
      out.push({ type, symbol, signature: () => pyMethod(m[1] === '__init__' ? 'init' : kind, type, symbol, at) });
    });
  }
  return out;
}

/**
 * A method's signature, its `self` or `cls` left out: `Foo.name(a: int) -> str`; `__init__` as its class is called,
 * `Foo(a: int)`; a property by its return type, `Foo.size: int` (its name alone without one).
 */
function pyMethod(kind: MethodKind, type: string, symbol: string, at: Site): string | null {
  const parts = callOf(at);
  if (!parts) return null;
  if (kind === 'property') {
    const returns = parts.returns.replace(/^->\s*/, '');
    return returns ? declaredType(symbol, returns) : null;
  }
  const call = { ...parts, params: parts.params.replace(RECEIVER, '') };
  return kind === 'init' ? callText(type, { ...call, returns: '' }, 'py') : callText(symbol, call, 'py');
}
