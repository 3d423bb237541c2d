// Init's workspace facts for a C library (a kgabis/parson-like workspace): the build definitions' heads (CMake's,
// Meson's), the Makefile's recipes with its variables in place, and the detected `make test` where make is installed.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { readWorkspaceFacts } from '../../src/core/cape/initFacts';
import { tempDir } from '../helpers/cli';
import { factsPart, putFile } from '../helpers/codebase';
import { WorkspaceIndex } from '../../src/core/workspace/workspaceIndex';
import { packWorkspace } from '../../src/core/workspace/pack';
import { headerDeclaring, interfaceLine } from '../../src/core/workspace/mapLines';
import { joinCMakeArguments } from '../../src/core/text/cmake';

/** `run`'s result with PATH holding only stand-ins for `names` (shell scripts that exit 0): what init sees on a machine with those tools alone. */
async function withOnlyPrograms<T>(names: readonly string[], run: () => Promise<T>): Promise<T> {
  const bin = tempDir('cape-facts-bin-');
  for (const name of names) {
    fs.writeFileSync(path.join(bin, name), '#!/bin/sh\nexit 0\n');
    fs.chmodSync(path.join(bin, name), 0o755);
  }
  const savedPath = process.env.PATH;
  process.env.PATH = bin;
  try {
    return await run();
  } finally {
    process.env.PATH = savedPath;
  }
}

describe("init: a C library's facts", function () {
  this.timeout(20000);

  it("quote CMakeLists.txt and meson.build, give make test's compiler flags and detect make test", async function () {
    if (process.platform === 'win32') this.skip(); // the fake make below is a shell script
    const ws = tempDir('cape-facts-c-');
    putFile(ws, 'CMakeLists.txt', 'cmake_minimum_required(VERSION 3.5)\nproject(minijson C)\ninclude(GNUInstallDirs)\nset(minijson_VERSION 1.5.3)\nadd_library(minijson minijson.c)\n');
    putFile(ws, 'meson.build', "project('minijson', 'c',\n  version : '1.5.3',\n  license : 'MIT')\n");
    putFile(ws, 'Makefile', 'CC = gcc\nCFLAGS = -O0 -Wall -std=c89\n.PHONY: test\ntest: tests.c minijson.c\n\t$(CC) $(CFLAGS) -o $@ tests.c minijson.c\n\t./$@\n');
    putFile(ws, 'minijson.h', '#define MINIJSON_VERSION "1.5.3"\ntypedef struct mj_value_t MJ_Value;\nMJ_Value * mj_parse(const char *text);\n');
    putFile(ws, 'minijson.c', '#include "minijson.h"\nMJ_Value * mj_parse(const char *text) {\n    return 0;\n}\n');
    putFile(ws, 'tests.c', '#include "minijson.h"\nint main(void) { return mj_parse("1") != 0; }\n');
    const text = await withOnlyPrograms(['make'], async () => (await readWorkspaceFacts(ws))!.text);
    assert.match(factsPart(text, 'CMakeLists.txt'), /project\(minijson C\)/);
    assert.match(factsPart(text, 'meson.build'), /version : '1\.5\.3'/);
    assert.match(factsPart(text, 'Makefile'), /^- `make test`: gcc -O0 -Wall -std=c89 -o test tests\.c minijson\.c; \.\/test$/m);
    assert.match(factsPart(text, 'Check commands'), /^- `make test` \(Makefile target "test"\)$/m);
  });

  it("say that a CMake check's build folder is CAPE's own, and a C++ header's namespaced functions are in the code map", async function () {
    if (process.platform === 'win32') this.skip(); // the fake cmake and ctest below are shell scripts
    const ws = tempDir('cape-facts-cpp-');
    putFile(ws, 'CMakeLists.txt', 'cmake_minimum_required(VERSION 3.14)\nproject(strs CXX)\nadd_library(strs src/split.cpp)\nenable_testing()\nadd_subdirectory(tests)\n');
    putFile(ws, 'include/strs/strs.hpp', '#pragma once\n#include <string>\nnamespace strs {\nstd::vector<std::string> split(std::string_view text, char sep);\n}  // namespace strs\n');
    putFile(ws, 'src/split.cpp', '#include "strs/strs.hpp"\nnamespace strs {\nstd::vector<std::string> split(std::string_view text, char sep) { return {}; }\n}\n');
    putFile(ws, 'tests/CMakeLists.txt', 'add_executable(test_split split_tests.cpp)\nadd_test(NAME split COMMAND test_split)\n');
    putFile(ws, 'tests/split_tests.cpp', '#include "strs/strs.hpp"\nint main() { return 0; }\n');
    const code = async () => ({ index: (await WorkspaceIndex.open(ws, { cacheFile: null })).index, query: 'split' });
    const text = await withOnlyPrograms(['cmake', 'ctest'], async () => (await readWorkspaceFacts(ws, undefined, code))!.text);
    const checks = factsPart(text, 'Check commands');
    assert.match(checks, /^- `cmake -S \. -B \.cape-cmake-build && .*ctest --output-on-failure`/m, checks);
    assert.match(checks, /^- \(`\.cape-cmake-build` is the folder CAPE builds in, in its own copy of the workspace, for this check: not the project's build folder\)$/m, checks);
    assert.match(factsPart(text, 'Code map'), /include\/strs\/strs\.hpp — std::vector<std::string> split\(std::string_view text, char sep\)/);
  });

  it("the code map names a source file's functions its header declares by the header, once; DA's map likewise", async () => {
    const ws = tempDir('cape-facts-c-map-');
    putFile(ws, 'minijson.h', 'typedef struct mj_value_t MJ_Value;\nMJ_Value * mj_parse(const char *text);\nvoid mj_free(MJ_Value *value);\n');
    putFile(ws, 'minijson.c', '#include "minijson.h"\nstatic int skip_space(const char *s) {\n    return 0;\n}\nMJ_Value * mj_parse(const char *text) {\n    return 0;\n}\nvoid mj_free(MJ_Value *value) {\n}\nint mj_extra(void) {\n    return 1;\n}\n');
    putFile(ws, 'other.c', '#include "minijson.h"\nint other_thing(void) {\n    return mj_parse("1") != 0;\n}\n');
    const { index } = await WorkspaceIndex.open(ws, { cacheFile: null });
    const map = factsPart((await readWorkspaceFacts(ws, 'cape', { index, query: 'parse text, free value' }))!.text, 'Code map');
    assert.match(map, /^minijson\.h — .*MJ_Value \* mj_parse\(const char \*text\)/m, "the header's line keeps the signatures");
    const line = map.split('\n').find((l) => l.startsWith('minijson.c'));
    assert.ok(line, map);
    assert.match(line, /^minijson\.c — defines 2 names of minijson\.h; int mj_extra\(void\)/, 'its own public function after the header\'s');
    assert.doesNotMatch(line, /mj_parse/, 'not named twice');

    const da = packWorkspace(index, { objective: 'parse numbers' }, { step: 'da' }).text;
    const daLine = da.split('\n').find((l) => l.startsWith('minijson.c'));
    assert.match(daLine ?? '', /^minijson\.c — defines 2 names of minijson\.h; int mj_extra\(void\), skip_space/, da);
    assert.match(da, /^minijson\.h — .*mj_parse/m);
    // a header not on the map: the source file's line names its functions itself
    const text = fs.readFileSync(path.join(ws, 'minijson.c'), 'utf8');
    const alone = headerDeclaring('minijson.c', (h) => (h === 'other.h' ? ['x'] : null));
    assert.strictEqual(alone, null);
    assert.match(interfaceLine('minijson.c', text, [], 40, 1500, new Set(), undefined, alone), /^minijson\.c — MJ_Value \* mj_parse\(const char \*text\), void mj_free/);
    assert.deepStrictEqual(headerDeclaring('minijson.h', () => ['x']), null, "a header is no header's twin");
  });

  it("joins a CMake command's one-per-line arguments onto its line, so the quoted head holds more of a flag list", () => {
    const cmake = [
      'project(mini',
      '    VERSION 1.0',
      '    LANGUAGES C)',
      'list(APPEND flags',
      '    -std=c89',
      '    -Wall',
      '    # a comment stays',
      '    "-D X=1"',
      '    -Wextra',
      ')',
      '-Wnot-in-a-command',
      'set(A "a(b" c)',
      '    -Wafter-a-closed-command',
    ].join('\n');
    assert.strictEqual(
      joinCMakeArguments(cmake),
      [
        'project(mini',
        '    VERSION 1.0',
        '    LANGUAGES C)',
        'list(APPEND flags -std=c89 -Wall',
        '    # a comment stays',
        '    "-D X=1" -Wextra',
        ')',
        '-Wnot-in-a-command',
        'set(A "a(b" c)',
        '    -Wafter-a-closed-command',
      ].join('\n'),
    );
    const long = ['list(APPEND flags', ...Array.from({ length: 60 }, (_, i) => `    -Wflag-number-${i}`), ')'].join('\n');
    assert.ok(joinCMakeArguments(long).split('\n').every((l) => l.length <= 300), 'a joined line stays within its bound');
  });
});
