// Symbols of C and C++ files for the index and the code map: the functions a file defines or declares at its top level
// (`JSON_Value * json_parse_string(const char *string);`, a definition whose type stands on the line above, GNU's
// way), the types it names (`typedef struct json_value_t JSON_Value;`, `typedef int (*Cmp)(…);`, `} Name;` closing a
// typedef's block, `struct`/`enum`/`union` tags), a header's macros (`#define PARSON_VERSION_MAJOR 1`, not its include
// guard) and C++'s out-of-class methods as `Type.method`. Public: a header's names, and a source file's functions that
// are not `static`; its `static` ones, types and macros are its own. The plain fallback (symbolsOther.ts) saw only
// the struct tags: a trial's init code map showed parson.c — a JSON library of eighty functions — as `json_value_t,
// json_object_t, json_array_t`.
// No parser: names by the line shapes C code is written in. A C++ namespace's block is the top level too (its names by
// their own, `strkit::split` as `split`; an anonymous namespace's as a `static` function's, the file's own), as an
// `extern "C" {` block is, its lines indented or not. A class is named as a struct's tag is (its members are not:
// symbols.ts's fallback rules add a C++ file's other types).
// The same walk gives each name its signature for the map lines (cDeclarations; signatures.ts): a function's
// declaration as written (`JSON_Value * json_parse_string(const char *string)`), a macro's short literal value
// (`PARSON_VERSION_STRING = "1.5.3"`, never a secret's by its name) or parameters, a typedef's type.
import { methodSymbol } from './symbolNames';
import { withoutCr } from '../text/lines';
import { oneLine, shorten } from '../text/cut';
import { C_HEADER_FILE } from './languageFiles';
import { bracketed, callParts, codeOf, HEADER_CHARS, HEADER_LINES, linesFrom, LITERAL_CHARS, TYPE_SIGNATURE_CHARS } from './signatureText';
import { SECRET_VARIABLE_NAME } from './secretNames';

/** An import specifier of a C/C++ `#include "…"` (the quoted form, the project's own headers): `c:util/str.h`. */
export const C_SPEC = 'c:';
/** `#include "x.h"` at a line's start (`# include` too); `<x.h>` names the system's or a library's header. */
const INCLUDE_QUOTED = /^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"/gm;

/** A C/C++ file's `#include "…"` as specifiers of C_SPEC, in order (resolved by importGraph.ts). */
export function cIncludes(text: string): string[] {
  return [...text.matchAll(INCLUDE_QUOTED)].map((m) => C_SPEC + m[1].trim());
}

/** Words that start a line at the top level without declaring a function there, or cannot be a function's name. */
const NOT_A_NAME = new Set(['if', 'else', 'for', 'while', 'do', 'switch', 'case', 'return', 'sizeof', 'typedef', 'goto', 'break', 'continue', 'default', 'using', 'template', 'namespace', 'operator', 'new', 'delete', 'alignof', 'decltype', 'static_assert', '_Static_assert', 'defined']);

/**
 * A function's declaration or definition on one unindented line: a type (words, `*`, `&`, `::`, template arguments)
 * then the name — C++'s `Type::name` too — and its opening parenthesis. Captures: the qualifying type, the name.
 */
const FUNCTION_LINE = /^(?:[A-Za-z_]\w*(?:::[A-Za-z_]\w*|<[^;()<>]*>)*[\s*&]+)+(?:([A-Za-z_]\w*)::)?(~?[A-Za-z_]\w*)\s*\(/;
/** A function whose type stands on the line above (GNU's style): its name at the line's start, then `(`. */
const NAME_FIRST = /^(?:([A-Za-z_]\w*)::)?(~?[A-Za-z_]\w*)\s*\(/;
/** A line that is a type alone (`static int`, `JSON_Value *`, `const char * const`), above a NAME_FIRST line. */
const TYPE_ONLY = /^[A-Za-z_]\w*(?:<[^;()<>]*>)?(?:[\s*&]+[A-Za-z_]\w*(?:<[^;()<>]*>)?)*[\s*&]*$/;
/** A typedef whose block opens here (`typedef struct {`, `typedef enum json_type {`): its name comes at `} Name;`. */
const TYPEDEF_BLOCK = /^typedef\s+(?:struct|enum|union)\b[^;{]*\{[^};]*$/;
const BLOCK_END_NAME = /^\}\s*(?:\*\s*)?([A-Za-z_]\w*)\s*(?:,[^;]*)?;/;
/**
 * A tag's definition at the top level: `struct json_value_t {`, `enum json_value_type {`, `union u {`, C++'s `enum class
 * Color : int {`, `class Parser final : public Base {`, `struct __attribute__ ((__packed__)) sdshdr8 {`.
 */
const TAG_LINE = /^(?:class|struct|union|enum(?:\s+(?:class|struct))?)\s+(?:(?:__attribute__\s*\(\([^)]*\)\)|alignas\([^)]*\)|\[\[[^\]]*\]\])\s*)*([A-Za-z_]\w*)(?:\s+final)?\s*(?::[^{;]*)?\{/;
const DEFINE = /^#\s*define\s+([A-Za-z_]\w*)/;
/** A macro's name by C's convention: upper case, digits and underscores. */
const MACRO_NAME = /^[A-Z][A-Z0-9_]*$/;
const IFNDEF = /^#\s*ifndef\s+([A-Za-z_]\w*)/;
/**
 * A C++ namespace's opening on a line of its own (`namespace strkit {`, `inline namespace v1 {`, `namespace a::b {`,
 * `namespace {`, or its brace on the next line): its name (none for an anonymous one), and its brace.
 */
const NAMESPACE_LINE = /^(?:inline\s+)?namespace\b(?:\s+([A-Za-z_][\w:]*))?\s*(?:\[\[[^\]]*\]\]\s*)?(\{|$)/;
/** Attributes written before a declaration's type (`__attribute__((…))`, `[[nodiscard]]`, `__declspec(…)`, `extern "C"`). */
const LEADING_ATTRIBUTES = /^(?:\[\[[^\]]*\]\]\s*|__attribute__\s*\(\([^)]*\)\)\s*|__declspec\s*\([^)]*\)\s*|extern\s+"C"\s+)+/;
/**
 * A library's export macro wrapping a declaration's type (cJSON's `CJSON_PUBLIC(cJSON *) cJSON_Parse(const char *value)`):
 * an upper-case macro's call whose argument is the type, a name after it.
 */
const EXPORT_WRAPPER = /^[A-Z][A-Z0-9_]*\(([^()]*)\)\s*(?=[A-Za-z_~])/;

/** A top-level line as a declaration reads: attributes before it left out, an export macro's type unwrapped. */
const declarationText = (line: string): string => line.replace(LEADING_ATTRIBUTES, '').replace(EXPORT_WRAPPER, '$1 ');

/** A line without its comments (`/* … */` as a space, `//` to its end), and whether a `/*` it opens runs on. */
function withoutComments(line: string): [code: string, opensComment: boolean] {
  let code = '';
  let at = 0;
  for (;;) {
    const block = line.indexOf('/*', at);
    const rest = line.indexOf('//', at);
    if (rest >= 0 && (block < 0 || rest < block)) return [code + line.slice(at, rest), false];
    if (block < 0) return [code + line.slice(at), false];
    const end = line.indexOf('*/', block + 2);
    if (end < 0) return [code + line.slice(at, block), true];
    code += line.slice(at, block) + ' ';
    at = end + 2;
  }
}

/** A one-line typedef's name: a function pointer's (`(*Cmp)(…);`), else the last word before `;` (`… JSON_Value;`, `… Buf[16];`). */
function typedefName(line: string): string | null {
  if (!/^typedef\b/.test(line) || line.includes('{')) return null;
  const semi = line.indexOf(';');
  if (semi < 0) return null;
  const head = line.slice(0, semi);
  const pointer = /\(\s*\*\s*([A-Za-z_]\w*)\s*\)/.exec(head);
  if (pointer) return pointer[1];
  const words = head.replace(/\[[^\][]*\]/g, ' ').split(/\W+/).filter(Boolean);
  const last = words[words.length - 1];
  return words.length > 2 && last && /^[A-Za-z_]/.test(last) ? last : null;
}

/** A declaration's name, whether it is public, how to read its signature and what it declares (cDeclarations). */
type Visit = (symbol: string, pub: boolean, signature: () => string | null, kind: 'function' | 'typedef' | 'tag' | 'macro') => void;

/**
 * Scans a C or C++ file's lines for its top-level names (the header comment says which), the public ones to
 * `exported`, the internal ones (`static` functions, a source file's macros) to `out`, each once, in file order.
 */
export function scanC(relPath: string, text: string, out: string[], exported: string[]): void {
  const seen = new Set<string>();
  // a header's macros after its functions and types: its first lines are often configuration (cJSON.h's
  // `__WINDOWS__`, `CJSON_CDECL`, `CJSON_EXPORT_SYMBOLS` before any call)
  const macros: string[] = [];
  cDeclarations(relPath, text, (symbol, pub, _signature, kind) => {
    if (seen.has(symbol)) return;
    seen.add(symbol);
    (!pub ? out : kind === 'macro' ? macros : exported).push(symbol);
  });
  exported.push(...macros);
}

/** Walks a C or C++ file's top-level declarations in file order (a name may come twice: a prototype, then its definition). */
export function cDeclarations(relPath: string, text: string, visit: Visit): void {
  const header = C_HEADER_FILE.test(relPath);
  const lines = text.split('\n').map(withoutCr);
  let guard: string | null = null;
  let typedefBlock = false;
  let depth = 0; // braces open at a line's start: only depth 0 (or an `extern "C" {` or namespace block) is the top level
  // the blocks around the line that are the top level too (`extern "C" {`, `namespace x {`): whether each is an
  // anonymous namespace, whose names are the file's own; their count is the depth of the top level
  const open: boolean[] = [];
  let comment = false;
  let pending: boolean | null = null; // the line before opened such a block without its brace (`extern "C"`, `namespace x`): anonymous?
  let previous = '';
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    if (comment) {
      const end = line.indexOf('*/');
      if (end < 0) continue;
      comment = false;
      line = ' '.repeat(end + 2) + line.slice(end + 2);
    }
    const [plain, opens] = withoutComments(line);
    comment = opens;
    // a typedef's block closes at the top level's brace: `} JSON_String;` names it
    const linkage = open.length;
    const inner = linkage > 0 ? plain.replace(/^\s+/, '') : plain;
    if (typedefBlock && depth === linkage + 1 && /^\}/.test(inner)) {
      const end = BLOCK_END_NAME.exec(inner);
      if (end) visit(end[1], header, () => null, 'typedef');
      typedefBlock = false;
    }
    const topLevel = depth === linkage;
    const ns = NAMESPACE_LINE.exec(inner);
    const own = open.includes(true); // inside an anonymous namespace
    if (topLevel && !ns && /^\S/.test(inner)) {
      const d = DEFINE.exec(inner);
      const ifndef = IFNDEF.exec(inner);
      if (ifndef) guard = ifndef[1];
      else if (d) {
        // an include guard (`#ifndef X` then `#define X`) names nothing
        if (d[1] !== guard) visit(d[1], header, () => macroSignature(d[1], inner.slice(d[0].length)), 'macro');
        guard = null;
      } else if (!inner.startsWith('#')) {
        const declaration = declarationText(inner);
        scanLine(declaration, previous, header, (symbol, pub, kind, typeAbove) => {
          visit(symbol, pub && !own, () => (kind === 'function' ? functionSignature(lines, i, declaration, typeAbove ?? null) : kind === 'typedef' ? typedefSignature(symbol, inner) : null), kind);
        }, () => (typedefBlock = true));
      }
    }
    // a block that is the top level too opens: `extern "C" {`, `namespace x {`, or either with its brace on the next
    // line (parson.h's `extern "C"`)
    let block: boolean | null = null;
    if (topLevel && /^\s*extern\s+"C(?:\+\+)?"\s*\{/.test(plain)) block = false;
    else if (topLevel && ns?.[2] === '{') block = !ns[1];
    else if (pending !== null && /^\s*\{/.test(plain)) block = pending;
    if (plain.trim()) pending = topLevel && /^\s*extern\s+"C(?:\+\+)?"\s*$/.test(plain) ? false : topLevel && ns && !ns[2] ? !ns[1] : null;
    let first = block !== null;
    for (const ch of plain.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')) {
      if (ch === '{') {
        depth++;
        // the block's own brace: the top level goes one deeper
        if (first) {
          open.push(block!);
          first = false;
        }
      } else if (ch === '}') {
        if (depth === open.length && open.length > 0) open.pop();
        depth = Math.max(0, depth - 1);
      }
    }
    if (plain.trim()) previous = plain.trim();
  }
}

/** A macro's value that is a literal: a number (with C's suffixes), a short string or a character. */
const MACRO_LITERAL = new RegExp(`^(?:-?(?:0[xX][\\da-fA-F]+|\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?)[uUlLfF]{0,3}|"[^"\\\\\\n]{0,${LITERAL_CHARS}}"|'(?:[^'\\\\]|\\\\.)')$`);

/**
 * A macro's signature: a function-like macro's parameters (`MAX(a, b)`), an object-like macro's literal value
 * (`PARSON_VERSION_MAJOR = 1`, `PARSON_VERSION_STRING = "1.5.3"`; a parenthesized one too) unless its name looks like a
 * secret's (SECRET_VARIABLE_NAME); null otherwise.
 */
function macroSignature(name: string, rest: string): string | null {
  const params = /^\(([^)]*)\)/.exec(rest);
  if (params) return `${name}(${params[1].split(',').map((p) => p.trim()).join(', ')})`;
  if (SECRET_VARIABLE_NAME.test(name)) return null;
  const value = rest.trim().replace(/^\((.*)\)$/, '$1').trim();
  return MACRO_LITERAL.test(value) ? `${name} = ${value}` : null;
}

/** A one-line typedef's signature: `JSON_Status = int`, `JSON_Value = struct json_value_t`, `Cmp = int (*)(const void *a, const void *b)`. */
function typedefSignature(name: string, line: string): string | null {
  const semi = line.indexOf(';');
  const body = line.slice(0, semi < 0 ? line.length : semi).replace(/^typedef\s+/, '');
  const pointer = /\(\s*\*\s*\w+\s*\)/;
  const type = pointer.test(body) ? body.replace(pointer, '(*)') : body.trimEnd().slice(0, -name.length);
  const clean = oneLine(type);
  return clean ? shorten(`${name} = ${clean}`, TYPE_SIGNATURE_CHARS) : null;
}

/**
 * A function's declaration as written, from its type (on its line, `first` as the walk read it: comments, attributes
 * and an export macro left out; or `typeAbove`, the line above in GNU's style) to its closing parenthesis, over a few
 * lines, `static`/`extern`/`inline` left out, spaced by one and cut inside its parentheses as the other languages'
 * signatures are (signatureText.ts callParts, bracketed).
 */
function functionSignature(lines: readonly string[], at: number, first: string, typeAbove: string | null): string | null {
  const code = codeOf(`${typeAbove === null ? '' : `${typeAbove} `}${first}\n${linesFrom(lines, at + 1, 0, HEADER_LINES - 1, HEADER_CHARS)}`, 'c');
  const open = code.indexOf('(');
  const parts = open < 0 ? null : callParts(code, open, 'c');
  if (!parts) return null;
  const head = code.slice(0, open).replace(/\n/g, ' ').replace(/^(?:(?:static|extern|inline)\s+)+/, '');
  return bracketed(head, '(', parts.params.replace(/\n/g, ' '), ')', '', parts.closed);
}

/** One unindented top-level line of code: the name it declares, if any (scanC). */
function scanLine(
  line: string,
  previous: string,
  header: boolean,
  push: (symbol: string, pub: boolean, kind: 'function' | 'typedef' | 'tag', typeAbove?: string) => void,
  openTypedef: () => void,
): void {
  if (TYPEDEF_BLOCK.test(line)) {
    openTypedef();
    return;
  }
  const alias = typedefName(line);
  if (alias) {
    push(alias, header, 'typedef');
    return;
  }
  const tag = TAG_LINE.exec(line);
  if (tag) {
    push(tag[1], header, 'tag');
    return;
  }
  // a statement or initializer at the top level (`int x = f(1);`, `FOO(bar);` a macro's use) declares no function
  const sameLine = FUNCTION_LINE.exec(line);
  const f = sameLine ?? (TYPE_ONLY.test(previous) && !NOT_A_NAME.has(previous.split(/\s/)[0]) ? NAME_FIRST.exec(line) : null);
  // an upper-case name is a macro's use (gtest's `TEST(suite, name) {`, `MODULE_INIT(x);`), not a function
  if (!f || NOT_A_NAME.has(f[2]) || MACRO_NAME.test(f[2]) || /=/.test(f[0])) return;
  // `static` on the declaration's line, or on the type's line above it
  const isStatic = /^static\b/.test(sameLine ? line : previous);
  push(f[1] ? methodSymbol(f[1], f[2]) : f[2], header || !isStatic, 'function', sameLine ? undefined : previous);
}
