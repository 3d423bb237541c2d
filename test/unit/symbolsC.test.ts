// src/core/workspace/symbolsC.ts: C and C++ files' top-level names for the index and the code map.
import * as assert from 'assert';
import { scanFile } from '../../src/core/workspace/symbols';
import { signaturesOf } from '../../src/core/workspace/signatures';

const HEADER = `/* lib.h: a small library */
#ifndef LIB_H
#define LIB_H
#include <stddef.h>
#define LIB_VERSION "1.2.0"
#ifdef __cplusplus
extern "C" {
#endif
typedef struct lib_value_t Lib_Value;
typedef int (*Lib_Compare)(const void *a, const void *b);
typedef enum {
    LIB_OK = 0,
    LIB_ERROR = -1
} Lib_Status;
/* Parses text; returns NULL on error. */
Lib_Value * lib_parse(const char *text);
LIB_API int lib_count(const Lib_Value *value, size_t *out);
void lib_free(Lib_Value *value);
#ifdef __cplusplus
}
#endif
#endif
`;

const SOURCE = `#include "lib.h"
#define MAX_DEPTH 64
struct lib_value_t {
    int type;
    char *text; /* { not a brace */
};
static int depth_of(const char *s);
static int helper = 0;
REGISTER_HOOK(lib_parse);
Lib_Value * lib_parse(const char *text) {
    if (text == NULL) {
        return NULL;
    }
    int x = compute('{');
    return make(x);
}

static int
depth_of(const char *s)
{
    return s[0] == '}' ? 0 : 1;
}

int
lib_count(const Lib_Value *value, size_t *out)
{
    *out = 1;
    return 0;
}
`;

describe('symbols: C and C++ files', () => {
  it("a header's functions, typedefs (a block's, a function pointer's) and macros are its API, the macros last; no include guard", () => {
    const r = scanFile('lib.h', HEADER);
    assert.deepStrictEqual(r.symbols, ['Lib_Value', 'Lib_Compare', 'Lib_Status', 'lib_parse', 'lib_count', 'lib_free', 'LIB_VERSION']);
    assert.strictEqual(r.internal, 0);
  });

  it("an export macro wrapping a declaration's type (cJSON's) and an attribute before a struct's tag (sds's)", () => {
    const h = '#define LIB_PUBLIC(type) extern type\nLIB_PUBLIC(cJSON *) cJSON_Parse(const char *value);\nLIB_PUBLIC(void) cJSON_Delete(cJSON *item);\nstruct __attribute__ ((__packed__)) sdshdr8 {\n    uint8_t len;\n};\n';
    assert.deepStrictEqual(scanFile('cjson.h', h).symbols, ['cJSON_Parse', 'cJSON_Delete', 'sdshdr8', 'LIB_PUBLIC']);
    assert.strictEqual(signaturesOf('cjson.h', h).get('cJSON_Parse'), 'cJSON * cJSON_Parse(const char *value)');
  });

  it('`extern "C"` with its brace on the next line keeps its declarations at the top level', () => {
    const h = '#ifndef X_H\n#define X_H\n#ifdef __cplusplus\nextern "C"\n{\n#endif\nint x_open(const char *path);\nvoid x_close(int fd);\n#ifdef __cplusplus\n}\n#endif\n#endif\n';
    assert.deepStrictEqual(scanFile('x.h', h).symbols, ['x_open', 'x_close']);
  });

  it("a source file's functions, on one line or below their type (GNU), public unless static; braces in strings and comments do not count", () => {
    const r = scanFile('src/lib.c', SOURCE);
    assert.deepStrictEqual(r.symbols, ['lib_parse', 'lib_count', 'MAX_DEPTH', 'lib_value_t', 'depth_of']);
    assert.strictEqual(r.internal, 3, "the static function, the macro and the struct are the file's own");
  });

  it("C++'s out-of-class methods as Type.method, its classes by the fallback's rules; statements and macro calls name nothing", () => {
    const cpp = [
      'namespace app {',
      'class Parser {',
      ' public:',
      '  int parse(const std::string &s);',
      '};',
      '}',
      'std::vector<int> Parser::parse_all(const std::string &s) {',
      '  return {};',
      '}',
      'int app_main(int argc, char **argv) { return 0; }',
      'int counter = compute(3);',
      'TEST(ParserTest, Parses) {',
      '}',
    ].join('\n');
    const r = scanFile('src/parser.cpp', cpp);
    assert.deepStrictEqual(r.symbols, ['Parser.parse_all', 'app_main', 'Parser']);
  });

  it("a C++ namespace's block is the top level: its functions by their names, indented or not, nested or inline; an anonymous one's the file's own", () => {
    const header = [
      '#pragma once',
      '#include <string>',
      'namespace strkit {',
      '// Splits text at sep.',
      'std::vector<std::string> split(std::string_view text, char sep);',
      'inline namespace v2 {',
      '    std::string trim(std::string_view text);',
      '}  // namespace v2',
      'namespace detail',
      '{',
      '    [[nodiscard]] bool is_space(char c) noexcept;',
      '}',
      'class Joiner final : public Base {',
      ' public:',
      '  std::string join(const std::vector<std::string> &parts) const;',
      '};',
      '}  // namespace strkit',
      'namespace a::b { int deep(int x); }',
      'int after_all(void);',
    ].join('\n');
    assert.deepStrictEqual(scanFile('include/strkit/strkit.hpp', header).symbols, ['split', 'trim', 'is_space', 'Joiner', 'after_all']);
    const sigs = signaturesOf('include/strkit/strkit.hpp', header);
    assert.strictEqual(sigs.get('split'), 'std::vector<std::string> split(std::string_view text, char sep)');
    assert.strictEqual(sigs.get('trim'), 'std::string trim(std::string_view text)');
    const source = [
      '#include "strkit/strkit.hpp"',
      'namespace strkit {',
      'namespace {',
      'bool blank(char c) { return c == 32; }',
      '}  // namespace',
      'std::string trim(std::string_view text) {',
      '  std::string out(text);',
      '  return out;',
      '}',
      '}  // namespace strkit',
    ].join('\n');
    assert.deepStrictEqual(scanFile('src/trim.cpp', source).symbols, ['trim', 'blank'], "the anonymous namespace's function after the public one");
  });
});

describe('imports: C and C++ includes', () => {
  it('`#include "…"` (spaced as written, in a C++ file too) as include specifiers; `<…>` and a commented-out line are none', () => {
    const text = ['#include "lib.h"', '#  include  "util/str.h"', '#include <stdio.h>', '// #include "old.h"', '  #include "inner.hpp"', 'int x;'].join('\n');
    assert.deepStrictEqual(scanFile('src/a.c', text).imports, ['c:lib.h', 'c:util/str.h', 'c:inner.hpp']);
    assert.deepStrictEqual(scanFile('src/a.cpp', text).imports, ['c:lib.h', 'c:util/str.h', 'c:inner.hpp']);
    assert.deepStrictEqual(scanFile('src/a.py', text).imports, [], 'only C and C++ files include');
  });
});

describe('signatures: C and C++ files', () => {
  it("a function's declaration as written (over lines, below its type in GNU's style), a macro's literal value or parameters, a typedef's type", () => {
    const header = HEADER + '#define LIB_MAX(a,b) ((a) > (b) ? (a) : (b))\n#define LIB_API_KEY "k-123"\n#define LIB_LIMIT (64u)\n#define LIB_NAME lib_name()\nint lib_fold(const Lib_Value *value,\n             Lib_Compare compare);\n';
    const sigs = signaturesOf('lib.h', header);
    assert.strictEqual(sigs.get('LIB_VERSION'), 'LIB_VERSION = "1.2.0"');
    assert.strictEqual(sigs.get('LIB_LIMIT'), 'LIB_LIMIT = 64u');
    assert.strictEqual(sigs.get('LIB_MAX'), 'LIB_MAX(a, b)');
    assert.ok(!sigs.has('LIB_API_KEY'), "a secret's value by its name is never quoted");
    assert.ok(!sigs.has('LIB_NAME'), 'a call is no literal');
    assert.strictEqual(sigs.get('Lib_Value'), 'Lib_Value = struct lib_value_t');
    assert.strictEqual(sigs.get('Lib_Compare'), 'Lib_Compare = int (*)(const void *a, const void *b)');
    assert.strictEqual(sigs.get('lib_parse'), 'Lib_Value * lib_parse(const char *text)');
    assert.strictEqual(sigs.get('lib_count'), 'LIB_API int lib_count(const Lib_Value *value, size_t *out)', 'as written, its export macro too');
    assert.strictEqual(sigs.get('lib_fold'), 'int lib_fold(const Lib_Value *value, Lib_Compare compare)');
    const source = signaturesOf('src/lib.c', SOURCE);
    assert.strictEqual(source.get('depth_of'), 'int depth_of(const char *s)', 'its prototype, static left out');
    assert.strictEqual(source.get('lib_count'), 'int lib_count(const Lib_Value *value, size_t *out)', "GNU's style: the type from the line above");
    assert.strictEqual(source.get('MAX_DEPTH'), 'MAX_DEPTH = 64');
  });
});
