// Symbols of the languages symbols.ts has no scanner of its own for: a plain line scan of declarations (FALLBACK_DECL:
// `def`, `class`, `func`, `fun`, `fn`, `struct`, `trait`, `interface`, … behind their languages' modifiers), Go's
// methods and Rust's (symbolsRust.ts), each named with its type (`Router.HandleFunc`), a block namespace's types, and
// Go's and Rust's public constants — the public ones apart where the language says which are (PUBLIC_RULES); and
// Python's and Go's import statements (a Python module's `__all__` too). No parser: names, not structure.

import { oneLine } from '../text/cut';
import { RUST_FILE } from './languageFiles';
import { methodSymbol } from './symbolNames';
import { RUST_PUB, RustImpls } from './symbolsRust';
import type { ImportClause, ImportedName } from './importClauses';

/**
 * A scoped enum (`enum class Color`: C++, Kotlin), a Kotlin `fun interface` and a Scala `case class` are named after
 * their second keyword; a Kotlin function after its type parameters and receiver type (`fun <T> List<T>.second()`).
 */
export const FALLBACK_DECL =
  /^(?:pub(?:\([^)]*\))?\s+|export\s+|public\s+|internal\s+|private\s+|protected\s+|static\s+|final\s+|abstract\s+|sealed\s+|partial\s+|readonly\s+|data\s+|async\s+|open\s+|const\s+|unsafe\s+|extern\s+(?:"[^"]*"\s+)?|suspend\s+|inline\s+|tailrec\s+|operator\s+|infix\s+|case\s+|fun\s+(?=interface\s))*(?:fun\s+(?:<[^>]*>\s*)?(?:[A-Za-z_][\w.]*(?:<[^>]*>)?\??\.)?|(?:enum\s+(?=(?:class|struct)\s))?(?:def|class|func|fn|struct|trait|interface|enum|type|module|object|record|protocol|macro_rules!|sub|proc)\s+)([A-Za-z_][\w]*)/;
export const GO_METHOD = /^func\s+\([^)]*\)\s+([A-Za-z_]\w*)/;
/** A Go method's receiver type: `(r *Router)`, `(Router)`, `(*Router)`, `(l *List[T])` → the type's name. */
export const GO_RECEIVER = /^func\s+\(\s*(?:[A-Za-z_]\w*\s+)?(?:\*\s*)?([A-Za-z_]\w*)/;

/** A Rust constant or static of the file (`pub const MAX_LEN: usize`, `pub(crate) static mut N: u8`): its name. */
export const RUST_CONST = /^pub(?:\([^)]*\))?\s+(?:const|static)\s+(?:mut\s+)?([A-Za-z_]\w*)\s*:/;

/** A Go symbol with a part not capitalised: its own name, or a method's type (`router.Handle`, `Router.handle`). */
const GO_UNEXPORTED = /(?:^|\.)[^A-Z]/;

/**
 * Whether a declaration (its name, its line and its symbol) is public, by the languages whose names or keywords say so:
 * Go's capitalised names (a method's only on a capitalised type: each part of its symbol), Python's names without a
 * leading underscore, Rust's `pub` items (not `pub(crate)`). Their public symbols come first (a map line names the API
 * before the helpers); the other languages' keep their file order.
 */
const PUBLIC_RULES: readonly (readonly [ext: RegExp, isPublic: (name: string, line: string, symbol: string) => boolean])[] = [
  [/\.go$/i, (_name, _line, symbol) => !GO_UNEXPORTED.test(symbol)],
  [/\.pyi?$/i, (name) => !name.startsWith('_')],
  [RUST_FILE, (_name, line) => RUST_PUB.test(line)],
];

/**
 * Other languages: unindented declarations (FALLBACK_DECL; Go's methods as `Type.Method`, public when both names are
 * exported) and the methods of Rust's impl blocks (symbolsRust.ts; an impl line itself names nothing). Inside a block
 * namespace (C#'s `namespace App {`, C++'s), whose types are indented one level, declarations at that level too — not
 * deeper, where a class's members are. Go's exported constants and variables (alone or in a `const (` / `var (`
 * group) and Rust's public ones (`pub const MAX_LEN`, `pub static`) are the API too. The public ones (PUBLIC_RULES) go
 * to `exported`, the others to `out`; true when the language has a rule (those in `out` are then internal), false when
 * every name went to `out`.
 */
export function scanFallback(relPath: string, text: string, out: string[], exported: string[]): boolean {
  const go = /\.go$/i.test(relPath);
  const rust = RUST_FILE.test(relPath);
  const isPublic = PUBLIC_RULES.find(([ext]) => ext.test(relPath))?.[1];
  // a Go method is listed as `symbol` (its type's name and its own), public when both are (PUBLIC_RULES)
  const push = (name: string, line: string, symbol = name) => (isPublic?.(name, line, symbol) ? exported : out).push(symbol);
  const lines = text.split('\n');
  const impls = rust ? new RustImpls(lines) : null;
  const addRust = (symbol: string, pub: boolean) => (pub ? exported : out).push(symbol);
  let nsIndent: string | null = null; // the indentation of a block namespace's declarations, once seen
  let inNamespace = false;
  let goGroup = false;
  for (const line of lines) {
    if (go) {
      if (goGroup) {
        if (/^\)/.test(line)) goGroup = false;
        else {
          const g = /^\s+([A-Z]\w*)\b/.exec(line);
          if (g) push(g[1], line);
        }
        continue;
      }
      const c = /^(?:const|var)\s+(?:([A-Z]\w*)\b|(\())/.exec(line);
      if (c) {
        if (c[1]) push(c[1], line);
        else goGroup = true;
        continue;
      }
    }
    if (impls?.read(line, addRust)) continue;
    if (rust) {
      const r = RUST_CONST.exec(line);
      if (r) {
        push(r[1], line);
        continue;
      }
    }
    if (/^namespace\s+[\w.:]+\s*(?:\{\s*)?$/.test(line)) {
      inNamespace = true;
      continue;
    }
    const method = GO_METHOD.exec(line);
    if (method) {
      const receiver = GO_RECEIVER.exec(line)?.[1];
      push(method[1], line, receiver ? methodSymbol(receiver, method[1]) : method[1]);
      continue;
    }
    let m = FALLBACK_DECL.exec(line);
    if (!m && inNamespace) {
      const indent = /^[ \t]+/.exec(line)?.[0];
      if (indent && (nsIndent === null || indent === nsIndent)) {
        m = FALLBACK_DECL.exec(line.slice(indent.length));
        if (m) nsIndent = indent;
      }
    }
    if (m) push(m[1], line);
  }
  return isPublic !== undefined;
}

/** The prefix of a Python import's specifier: the import graph resolves these the Python way (importGraph.ts). */
export const PY_SPEC = 'py:';
/** Names of one `from … import a, b` taken as possible submodules (`from . import views, models`). */
const PY_NAMES = 24;
// the module (dots, a name or both) starts right after the white space: no `from  import`, whose two runs of white
// space split a long run every way; a parenthesised list is read within 4,000 characters (an unclosed `(`
// read to the end of the file for each such line, so a file of many took time in the square of their number)
const PY_FROM = /^[ \t]*from[ \t]+(?=[\w.])(\.*)(\w[\w.]*|)[ \t]+import[ \t]+(\([^)]{0,4000}\)|[^\n#;]*)/gm;
const PY_IMPORT = /^[ \t]*import[ \t]+([^\n#;]+)/gm;
const PY_NAME = /^[A-Za-z_]\w*$/;

/**
 * A Python file's import statements (importClauses.ts ImportClause): `from m import a, b as c` (kind 'from', each name
 * with the specifier it has as a submodule of m: `from app import views` imports a module as often as a name; `*`:
 * names null), `import m` (kind 'import', names null: the module is used by its name). The module as a specifier of
 * PY_SPEC: a relative one as the path it names from the file's folder (`from ..db.models import User`: `py:../db/models`;
 * `from . import x`: `py:./`, the package itself), an absolute one as a module path (`import app.db`: `py:app/db`).
 */
export function pythonImportClauses(text: string): ImportClause[] {
  const out: ImportClause[] = [];
  const modulePath = (dots: string, mod: string): string | null => {
    const rel = mod.split('.').filter(Boolean).join('/');
    if (!dots) return rel || null;
    const up = dots.length === 1 ? './' : '../'.repeat(dots.length - 1);
    return up + rel;
  };
  for (const m of text.matchAll(PY_FROM)) {
    if (m[1] === '' && m[2] === '__future__') continue;
    const base = modulePath(m[1], m[2]);
    if (base === null) continue;
    const dir = base.endsWith('/') ? base : base + '/';
    const names: ImportedName[] = [];
    for (const s of m[3].replace(/[()\\]/g, ' ').split(',')) {
      const [name, as] = oneLine(s).split(' as ');
      if (PY_NAME.test(name)) names.push({ name, as: as && PY_NAME.test(as) ? as : name, module: PY_SPEC + dir + name });
    }
    out.push({ kind: 'from', spec: PY_SPEC + base, names: oneLine(m[3]) === '*' ? null : names });
  }
  for (const m of text.matchAll(PY_IMPORT)) {
    for (const part of m[1].replace(/\\/g, ' ').split(',')) {
      const mod = oneLine(part).split(' as ')[0];
      if (/^[A-Za-z_][\w.]*$/.test(mod)) out.push({ kind: 'import', spec: PY_SPEC + mod.split('.').join('/'), names: null });
    }
  }
  return out;
}

/**
 * A Python file's imports as specifiers of PY_SPEC (pythonImportClauses): each statement's module (not the package a
 * `from . import x` names: its names are its submodules), and the names a `from` imports as possible submodules
 * (`py:app/views`, PY_NAMES of a statement at most). Which of them are files of the workspace is the graph's to find.
 */
export function pythonImports(text: string): string[] {
  const out: string[] = [];
  for (const c of pythonImportClauses(text)) {
    if (!c.spec.endsWith('/')) out.push(c.spec);
    for (const n of c.names?.slice(0, PY_NAMES) ?? []) out.push(n.module!);
  }
  return out;
}

/**
 * `__all__ = [...]` or `(...)`, and `__all__ += [...]`, at a line's start: the quoted names inside (no bracket inside,
 * so an unclosed list is read up to the next bracket, not to the file's end for each).
 */
const PY_ALL = /^__all__[ \t]*(?::[^=\n]*)?\+?=[ \t]*[[(]([^[\]()]*)[\])]/gm;

/** The names a Python module's `__all__` lists (its public API as `from m import *` takes it), or null when it has none. */
export function pythonAll(text: string): string[] | null {
  let out: string[] | null = null;
  for (const m of text.matchAll(PY_ALL)) {
    out ??= [];
    for (const q of m[1].matchAll(/['"]([A-Za-z_]\w*)['"]/g)) out.push(q[1]);
  }
  return out;
}

/** The prefix of a Go import's specifier: the import path, resolved to a package folder by the graph (importGraph.ts). */
export const GO_SPEC = 'go:';
/** `import "a/b"`, `import name "a/b"`, and the start of an `import ( … )` group. */
const GO_IMPORT = /^import[ \t]+(?:[\w.]+[ \t]+)?"([^"\n]+)"|^import[ \t]*\(/gm;
/** The line that closes an import group (a `)` in a comment is no end). */
const GO_GROUP_END = /^[ \t]*\)/gm;
const GO_GROUP_LINE = /^[ \t]*(?:[\w.]+[ \t]+)?"([^"\n]+)"/gm;

/**
 * A Go file's imports as specifiers of GO_SPEC (`go:github.com/org/app/internal/store`): which are packages of the
 * workspace (a folder under a go.mod whose module path prefixes it) is the graph's to find; the standard library's
 * and other modules' are none.
 */
export function goImports(text: string): string[] {
  const out: string[] = [];
  const starts = new RegExp(GO_IMPORT);
  const end = new RegExp(GO_GROUP_END);
  for (let m = starts.exec(text); m; m = starts.exec(text)) {
    if (m[1]) {
      out.push(GO_SPEC + m[1]);
      continue;
    }
    // a group's lines, up to its closing line; the next import is looked for after it (linear in the text)
    end.lastIndex = starts.lastIndex;
    const close = end.exec(text);
    if (!close) break;
    for (const l of text.slice(starts.lastIndex, close.index).matchAll(GO_GROUP_LINE)) out.push(GO_SPEC + l[1]);
    starts.lastIndex = close.index + close[0].length;
  }
  return out;
}
