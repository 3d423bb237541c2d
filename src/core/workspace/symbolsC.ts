// Symbols of C and C++ files for the index and the code map: the functions a file defines or declares at its top level
// (`JSON_Value * json_parse_string(const char *string);`, a definition whose type stands on the line above, GNU's
// way), the types it names (`typedef struct json_value_t JSON_Value;`, `typedef int (*Cmp)(…);`, `} Name;` closing a
// typedef's block, `struct`/`enum`/`union` tags), a header's macros (`#define PARSON_VERSION_MAJOR 1`, not its include
// guard) and C++'s out-of-class methods as `Type.method`. Public: a header's names, and a source file's functions that
// are not `static`; its `static` ones, types and macros are its own. The plain fallback (symbolsOther.ts) saw only the struct tags: a trial's
// init code map showed parson.c — a JSON library of eighty functions — as `json_value_t, json_object_t, json_array_t`.
// No parser: names by the line shapes C code is written in; classes and namespaces are left to the fallback's rules.
import { methodSymbol } from './symbolNames';
import { withoutCr } from '../text/lines';


/** A header, whose declarations are the API its includers see. */
const HEADER = /\.(?:h|hh|hpp|hxx|h\+\+|ipp|inl)$/i;

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
/** A tag's definition at the top level: `struct json_value_t {`, `enum json_value_type {`, `union u {`, C++'s `enum class Color : int {`. */
const TAG_LINE = /^(?:struct|union|enum(?:\s+(?:class|struct))?)\s+([A-Za-z_]\w*)\s*(?::[^{;]*)?\{/;
const DEFINE = /^#\s*define\s+([A-Za-z_]\w*)/;
const IFNDEF = /^#\s*ifndef\s+([A-Za-z_]\w*)/;
/** Attributes and export macros written before a declaration's type (`PARSON_API`, `__attribute__((…))`, `[[nodiscard]]`). */
const LEADING_ATTRIBUTES = /^(?:\[\[[^\]]*\]\]\s*|__attribute__\s*\(\([^)]*\)\)\s*|__declspec\s*\([^)]*\)\s*|extern\s+"C"\s+)+/;

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

/**
 * Scans a C or C++ file's lines for its top-level names (the header comment says which), the public ones to
 * `exported`, the internal ones (`static` functions, a source file's macros) to `out`, each once, in file order.
 */
export function scanC(relPath: string, text: string, out: string[], exported: string[]): void {
  const header = HEADER.test(relPath);
  const seen = new Set<string>();
  const push = (symbol: string, pub: boolean) => {
    if (seen.has(symbol)) return;
    seen.add(symbol);
    (pub ? exported : out).push(symbol);
  };
  const lines = text.split('\n');
  let guard: string | null = null;
  let typedefBlock = false;
  let depth = 0; // braces open at a line's start: only depth 0 (or an `extern "C" {` block) is the top level
  let linkage = 0; // the depth of `extern "C" {` blocks around the line
  let comment = false;
  let previous = '';
  for (const raw of lines) {
    let line = withoutCr(raw);
    if (comment) {
      const end = line.indexOf('*/');
      if (end < 0) continue;
      comment = false;
      line = ' '.repeat(end + 2) + line.slice(end + 2);
    }
    const [plain, opens] = withoutComments(line);
    comment = opens;
    // a typedef's block closes at the top level's brace: `} JSON_String;` names it
    if (typedefBlock && depth === linkage + 1 && /^\}/.test(plain)) {
      const end = BLOCK_END_NAME.exec(plain);
      if (end) push(end[1], header);
      typedefBlock = false;
    }
    const topLevel = depth === linkage;
    if (topLevel && /^\S/.test(plain)) {
      const d = DEFINE.exec(plain);
      const ifndef = IFNDEF.exec(plain);
      if (ifndef) guard = ifndef[1];
      else if (d) {
        // an include guard (`#ifndef X` then `#define X`) names nothing
        if (d[1] !== guard) push(d[1], header);
        guard = null;
      } else if (!plain.startsWith('#')) scanLine(plain.replace(LEADING_ATTRIBUTES, ''), previous, header, push, () => (typedefBlock = true));
    }
    if (/^\s*extern\s+"C(?:\+\+)?"\s*\{/.test(plain)) linkage++;
    for (const ch of plain.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')) {
      if (ch === '{') depth++;
      else if (ch === '}') {
        if (depth === linkage && linkage > 0) linkage--;
        depth = Math.max(0, depth - 1);
      }
    }
    if (plain.trim()) previous = plain.trim();
  }
}

/** One unindented top-level line of code: the name it declares, if any (scanC). */
function scanLine(line: string, previous: string, header: boolean, push: (symbol: string, pub: boolean) => void, openTypedef: () => void): void {
  if (TYPEDEF_BLOCK.test(line)) {
    openTypedef();
    return;
  }
  const alias = typedefName(line);
  if (alias) {
    push(alias, header);
    return;
  }
  const tag = TAG_LINE.exec(line);
  if (tag) {
    push(tag[1], header);
    return;
  }
  // a statement or initializer at the top level (`int x = f(1);`, `FOO(bar);` a macro's use) declares no function
  const oneLine = FUNCTION_LINE.exec(line);
  const f = oneLine ?? (TYPE_ONLY.test(previous) && !NOT_A_NAME.has(previous.split(/\s/)[0]) ? NAME_FIRST.exec(line) : null);
  if (!f || NOT_A_NAME.has(f[2]) || /=/.test(f[0])) return;
  // `static` on the declaration's line, or on the type's line above it
  const isStatic = /^static\b/.test(oneLine ? line : previous);
  push(f[1] ? methodSymbol(f[1], f[2]) : f[2], header || !isStatic);
}
