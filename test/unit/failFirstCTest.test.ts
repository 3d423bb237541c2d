// Fail-first runs a CMake build and CTest keeping going past a test program that does not build (checks/ctestPrograms.ts):
// a build stops at its first error, so a test file calling the function the change adds stopped the whole build, and
// the regression guards DevA had put in another test program never ran (a cJSON trial: "the AC-1 guards were never
// seen passing on the unchanged code"). Which commands run so (keepGoingSteps), what CTest said of each program
// (ctestProgramReader), a C test's verdict by its program, how the run is told, DevA told up front — and with the real
// cmake, ctest and a C compiler: the guard's program runs and passes beside the one that did not build; with a C++
// compiler and GoogleTest (scripts/install-gtest.sh), a guard is read by its own case.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { beforeFailureSaying, ctestProgramReader, keepGoingSteps, onPath, programOf, programsOf, runFailFirst, testsNamedOtherwise, type CheckEvent, type CheckRun } from '../../src/core';
import { cmakeTestSources, withSources } from '../../src/core/checks/cmakeTests';
import { cmakeCommands } from '../../src/core/checks/cmakeScript';
import { execFileSync } from 'child_process';
import { failFirstOf, testStatus, type NamedTest } from '../../src/core/metrics/tsr';
import { cmakeTestCheck } from '../../src/core/checks/detectCMake';
import { printer } from '../../src/cli/printer';
import { proposedFile } from '../helpers/cargoCrate';
import { writeFiles } from '../helpers/cli';
import { contextInputs } from '../helpers/contextInputs';
import { renderSources } from '../../src/core/session/context';

const DETECTED = 'cmake -S . -B .cape-cmake-build && cmake --build .cape-cmake-build --parallel 2 && cd .cape-cmake-build && ctest --output-on-failure';

/** CTest's report of three programs: one passed, one failed, one it could not run (not built). */
const CTEST = [
  'Test project /tmp/ws/.cape-cmake-build',
  '    Start 1: misc_tests',
  '1/4 Test #1: misc_tests .......................   Passed    0.01 sec',
  '    Start 2: parse_number',
  '2/4 Test #2: parse_number .....................***Failed    0.01 sec',
  'tests/parse_number.c:56:parse_number_should_parse_zero:FAIL: Expected 1 Was 0',
  '    Start 3: nesting_limit_tests',
  'Could not find executable ./nesting_limit_tests',
  'Unable to find executable: ./nesting_limit_tests',
  '3/4 Test #3: nesting_limit_tests ..............***Not Run   0.00 sec',
  '4/4 Test #4: slow_tests .......................***Not Run (Disabled)   0.00 sec',
  '',
  '33% tests passed, 2 tests failed out of 3',
].join('\n');

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'cape-unit-ctest-'));

/** A criterion's named test: its file, its name, whether it is to fail without the change. */
const named = (file: string, name: string, expect: 'pass' | 'fail'): NamedTest => ({ file, name, expect });

/** Whether the real cmake, ctest and `compiler` are here. */
const cmakeHere = async (compiler: 'cc' | 'c++'): Promise<boolean> => !!(await onPath(['cmake'])) && !!(await onPath(['ctest'])) && !!(await onPath([compiler]));
/** Whether a C++ CMake build with GoogleTest's headers can run here (scripts/install-gtest.sh). */
const gtestHere = async (): Promise<boolean> => (await cmakeHere('c++')) && fs.existsSync('/usr/include/gtest/gtest.h');

/** A C++ library with one GoogleTest program (`tests/add_test.cpp`), its tests' CMake file `tests`, and its CTest check. */
async function gtestCalc(ws: string, tests: string): Promise<{ command: string }> {
  writeFiles(ws, {
    'CMakeLists.txt': 'cmake_minimum_required(VERSION 3.14)\nproject(calc CXX)\nset(CMAKE_CXX_STANDARD 17)\nadd_library(calc calc.cpp)\ntarget_include_directories(calc PUBLIC .)\nenable_testing()\nfind_package(GTest REQUIRED)\nadd_subdirectory(tests)\n',
    'calc.h': 'int add(int a, int b);\n',
    'calc.cpp': '#include "calc.h"\nint add(int a, int b) { return a + b; }\n',
    'tests/CMakeLists.txt': tests,
    'tests/add_test.cpp': '#include <gtest/gtest.h>\n#include "calc.h"\nTEST(Add, Adds) { EXPECT_EQ(add(1, 2), 3); }\n',
  });
  const [check] = await cmakeTestCheck(ws);
  return check;
}

describe('fail-first: a CMake build and CTest that keep going past a test program that does not build', () => {
  it('runs the build keeping going, then CTest whatever it built: only a cmake --build followed by a ctest', () => {
    // the build keeps going with make's -k (MAKEFLAGS), or Ninja's -k 0 where the build folder's cache says Ninja
    const either = (build: string, dir: string) => `{ if grep -qs '^CMAKE_GENERATOR:INTERNAL=Ninja' ${dir}/CMakeCache.txt; then ${build} -- -k 0; else MAKEFLAGS="-k $MAKEFLAGS" ${build}; fi; }`;
    assert.deepStrictEqual(keepGoingSteps(DETECTED, 'linux'), [
      `cmake -S . -B .cape-cmake-build && ${either('cmake --build .cape-cmake-build --parallel 2', '.cape-cmake-build')}`,
      'cd .cape-cmake-build && ctest --output-on-failure',
    ]);
    assert.deepStrictEqual(keepGoingSteps('cmake --build build && ctest --test-dir build -j2', 'darwin'), [either('cmake --build build', 'build'), 'ctest --test-dir build -j2']);
    // native options already passed: -k 0 joins them; a preset names no folder: MAKEFLAGS alone
    assert.match(keepGoingSteps('cmake --build b -- -v && ctest --test-dir b', 'linux')![0], /then cmake --build b -- -v -k 0; else/);
    assert.strictEqual(keepGoingSteps('cmake --build --preset dev && ctest --preset dev', 'linux')![0], 'MAKEFLAGS="-k $MAKEFLAGS" cmake --build --preset dev');
    // a folder or a variable set before the build holds for CTest too: the second step is a shell of its own
    assert.deepStrictEqual(keepGoingSteps('cd build && export CTEST_PARALLEL_LEVEL=2 && cmake --build . && ctest', 'linux'), [
      `cd build && export CTEST_PARALLEL_LEVEL=2 && ${either('cmake --build .', '.')}`,
      'cd build && export CTEST_PARALLEL_LEVEL=2 && ctest',
    ]);
    // Windows builds with Visual Studio's tools (no make): the build as it is, CTest after it whatever it did
    assert.deepStrictEqual(keepGoingSteps(DETECTED, 'win32')?.[0], 'cmake -S . -B .cape-cmake-build && cmake --build .cape-cmake-build --parallel 2');
    for (const other of [
      'make test',
      'cmake --build build',
      'ctest --test-dir build && cmake --build build',
      'cmake --build build; ctest --test-dir build',
      'cmake --build build || true && ctest --test-dir build',
      'cmake --build build && ctest --test-dir build | tee log',
      'MAKEFLAGS=-j4 cmake --build build && ctest --test-dir build',
      'cmake --build build && ctest --test-dir build &',
    ]) {
      assert.strictEqual(keepGoingSteps(other, 'linux'), null, other);
    }
  });

  it("reads CTest's programs: passed, failed, not run; a disabled one neither; a C or C++ test file's program is its name", () => {
    const reader = ctestProgramReader();
    for (const line of CTEST.split('\n')) reader.line(line);
    assert.deepStrictEqual(reader.result(), { passed: 1, failed: 1, notRun: ['nesting_limit_tests'] });
    const none = ctestProgramReader();
    none.line('ok 1 - adds');
    assert.strictEqual(none.result(), undefined);
    assert.deepStrictEqual(['tests/misc_tests.c', 'test/parser_test.cpp', 'tests/unity.h', 'tests/test_calc.py'].map(programOf), ['misc_tests', 'parser_test', null, null]);
  });

  it("a C test's verdict by its program where no case of it was named, and the run told per program", () => {
    const reader = ctestProgramReader();
    for (const line of CTEST.split('\n')) reader.line(line);
    const run = {
      command: DETECTED,
      passed: false,
      output: CTEST,
      unbuilt: true,
      tests: [
        { name: 'misc_tests', passed: true },
        { name: 'parse_number', passed: false },
        { name: 'parse_number_should_parse_zero', passed: false },
        { name: 'nesting_limit_tests', passed: false },
      ],
      ctestPrograms: reader.result(),
    } as CheckRun;
    const guard: NamedTest = { file: 'tests/misc_tests.c', name: 'parse_functions_should_parse_input_nested_to_the_limit', expect: 'pass' };
    const change: NamedTest = { file: 'tests/nesting_limit_tests.c', name: 'parse_with_nesting_limit_should_reject_deeper_input', expect: 'fail' };
    assert.strictEqual(testStatus(guard, true, [run], 'no_test', 'no_test'), 'pass', 'its program passed as a whole');
    assert.strictEqual(testStatus(change, true, [run], 'no_test', 'unbuilt'), 'unbuilt', 'its program was not built');
    assert.strictEqual(testStatus(change, true, [run]), 'fail', 'on the proposal, a test not built fails');
    assert.strictEqual(testStatus({ file: 'tests/parse_number.c', name: 'parse_number_should_parse_one' }, true, [run]), 'fail', 'its program failed');
    assert.strictEqual(testStatus({ file: 'tests/parse_number.c', name: 'parse_number_should_parse_zero' }, true, [run]), 'fail');
    const yes = () => true;
    assert.deepStrictEqual(failFirstOf([change, guard], yes, [run]), { before: 'unbuilt', guardsRan: 'pass' }, 'the guard ran beside the program that did not build');
    assert.deepStrictEqual(failFirstOf([guard], yes, [run]), { before: 'pass', guard: true });
    assert.strictEqual(
      beforeFailureSaying(run),
      'failed: 1 of 3 test programs did not build without the change (nesting_limit_tests); the others ran: 1 passed, 1 failed',
    );
    // every program not built: the run as a whole did not build
    assert.strictEqual(beforeFailureSaying({ ...run, ctestPrograms: { passed: 0, failed: 0, notRun: ['a', 'b'] } }), "failed: DevA's tests did not build or load without the change");
  });

  it("reads which source files each CTest test runs from the CMake files, where a project names its tests otherwise", () => {
    const files: Record<string, string> = {
      'CMakeLists.txt': [
        'cmake_minimum_required(VERSION 3.14) # a comment (with parens)',
        'project(calc C)',
        'set(TEST_DIR ${CMAKE_CURRENT_SOURCE_DIR}/tests)',
        '#[[ add_test(NAME commented COMMAND commented) ]]',
        'add_executable(test_parser ${TEST_DIR}/parser_test.c tests/util.h)',
        'add_test(NAME parser COMMAND $<TARGET_FILE:test_parser> --verbose)',
        'add_executable(unit_tests WIN32 tests/a_test.c)',
        'target_sources(unit_tests PRIVATE tests/b_test.cpp)',
        'add_test(unit ${CMAKE_BINARY_DIR}/unit_tests)',
        // the project's own test function and macro, called; one calling itself stops; a value doubling itself is dropped
        'function(add_unit_test name)\n  cmake_parse_arguments(T "" "PROGRAM" "SOURCES" ${ARGN})\n  add_executable(${T_PROGRAM} ${T_SOURCES})\n  add_test(NAME unit.${name} COMMAND ${T_PROGRAM})\nendfunction()',
        'add_unit_test(json PROGRAM t_json SOURCES tests/json_test.c tests/helpers.c)',
        'macro(simple_test n)\n  add_executable(st_${n} tests/${n}.c)\n  add_test(st.${n} st_${n})\nendmacro()\nsimple_test(io)',
        'function(forever)\n  forever()\nendfunction()\nforever()',
        'set(BIG x)\nforeach(i RANGE 40)\n  set(BIG "${BIG}${BIG}")\nendforeach()\nforeach(i a b c d e f g h i j k l m n o p q r s t u v w x y z)\n  set(BIG "${BIG}${BIG}")\nendforeach()',
        'if(BUILD_EXTRA)\n  add_subdirectory(extra)\nendif()',
        'add_executable(outside ../elsewhere/x.c)\nadd_test(NAME outside COMMAND outside)',
        'add_subdirectory(.)',
      ].join('\n'),
      // a folder sees its parent's variables; a foreach over a set() list, and IN LISTS / ITEMS
      'extra/CMakeLists.txt': [
        'set(suites "size;limit")',
        'list(APPEND suites nesting)',
        'foreach(suite ${suites})',
        '  add_executable("${suite}_prog" "${suite}_tests.c")',
        '  add_test(NAME "${PROJECT_NAME}_${suite}" COMMAND "${suite}_prog")',
        'endforeach()',
        'foreach(t IN LISTS suites ITEMS misc)',
        '  add_executable(${t}_tests ${t}_tests.c)',
        '  add_test(NAME ${t}_tests COMMAND ${t}_tests)',
        'endforeach()',
        'add_executable(alias_prog ALIAS size_prog)',
        'add_test(NAME loose COMMAND not_built_here)',
        'add_test(NAME no_command)',
      ].join('\n'),
    };
    const { sources, discovered } = cmakeTestSources((rel) => files[rel] ?? null);
    assert.strictEqual(discovered, false);
    assert.deepStrictEqual(Object.fromEntries(sources), {
      parser: ['tests/parser_test.c'],
      unit: ['tests/a_test.c', 'tests/b_test.cpp'],
      'unit.json': ['tests/helpers.c', 'tests/json_test.c'],
      'st.io': ['tests/io.c'],
      calc_size: ['extra/size_tests.c'],
      calc_limit: ['extra/limit_tests.c'],
      calc_nesting: ['extra/nesting_tests.c'],
      size_tests: ['extra/size_tests.c'],
      limit_tests: ['extra/limit_tests.c'],
      nesting_tests: ['extra/nesting_tests.c'],
      misc_tests: ['extra/misc_tests.c'],
    });
    // only the tests named otherwise than their files are kept on the run; a file's programs are those, or its name
    const otherwise = testsNamedOtherwise(sources)!;
    assert.deepStrictEqual(Object.keys(otherwise), ['parser', 'unit', 'unit.json', 'st.io', 'calc_size', 'calc_limit', 'calc_nesting']);
    assert.strictEqual(testsNamedOtherwise(new Map([['misc_tests', ['tests/misc_tests.c']]])), undefined);
    const programs = { sources: otherwise };
    assert.deepStrictEqual(programsOf(programs, 'tests/b_test.cpp'), ['unit']);
    assert.deepStrictEqual(programsOf(programs, './extra/size_tests.c'), ['calc_size']);
    assert.deepStrictEqual(programsOf(programs, 'extra/misc_tests.c'), ['misc_tests']);
    assert.deepStrictEqual(programsOf(undefined, 'tests/unity.h'), []);
    // no CMakeLists.txt, or one that does not parse as this reads it: nothing mapped, nothing thrown
    // a program whose cases CTest runs (GoogleTest's, Catch2's modules): its stand-in test, when not built, is its name
    const discovering = cmakeTestSources((rel) => (rel === 'CMakeLists.txt' ? 'add_executable(calc_x x_test.cpp)\ngtest_discover_tests(calc_x)\nadd_executable(calc_y y_test.cpp)\ngtest_add_tests(TARGET calc_y)\n' : null));
    assert.deepStrictEqual([Object.fromEntries(discovering.sources), discovering.discovered], [{ calc_x: ['x_test.cpp'], calc_y: ['y_test.cpp'] }, true]);
    const notBuilt = ctestProgramReader();
    notBuilt.line('2/3 Test #2: calc_x_NOT_BUILT .....***Not Run   0.00 sec');
    notBuilt.line('3/3 Test #3: catch_y_NOT_BUILT-b94f1a2c .....***Not Run   0.00 sec');
    assert.deepStrictEqual(notBuilt.result()?.notRun, ['calc_x', 'catch_y']);
    assert.strictEqual(cmakeTestSources(() => null).sources.size, 0);
    assert.strictEqual(cmakeTestSources((rel) => (rel === 'CMakeLists.txt' ? 'add_test(NAME "unterminated COMMAND (x' : null)).sources.size, 0);
    assert.deepStrictEqual(cmakeCommands('a(b "c d" e) # f(g)\nH (i)'), [
      { name: 'a', args: [{ text: 'b', quoted: false }, { text: 'c d', quoted: true }, { text: 'e', quoted: false }] },
      { name: 'h', args: [{ text: 'i', quoted: false }] },
    ]);
    // a test's verdict by the program the CMake files say it is
    const run = {
      command: DETECTED,
      passed: false,
      output: '',
      unbuilt: true,
      tests: [
        { name: 'unit', passed: true },
        { name: 'calc_size', passed: false },
      ],
      ctestPrograms: { passed: 1, failed: 1, notRun: ['parser'], sources: otherwise },
    } as CheckRun;
    assert.strictEqual(testStatus({ file: 'tests/a_test.c', name: 'adds', expect: 'pass' }, true, [run], 'no_test', 'no_test'), 'pass', 'its program passed as a whole');
    assert.strictEqual(testStatus({ file: 'tests/parser_test.c', name: 'parses', expect: 'fail' }, true, [run], 'no_test', 'unbuilt'), 'unbuilt', 'its program was not built');
    assert.strictEqual(testStatus({ file: 'extra/size_tests.c', name: 'sizes' }, true, [run]), 'fail', 'its program failed');
  });

  it('reads the CMake files of the run\'s folder, a regular file only: a FIFO in its place is not waited on', function () {
    if (process.platform === 'win32') this.skip();
    const ws = tmp();
    writeFiles(ws, {
      'sub/CMakeLists.txt': 'add_subdirectory(tests)\nadd_subdirectory(fifo)\n',
      'sub/tests/CMakeLists.txt': 'add_executable(t_guard guard.c)\nadd_test(NAME calc.guard COMMAND t_guard)\n',
    });
    fs.mkdirSync(path.join(ws, 'sub/fifo'));
    execFileSync('mkfifo', [path.join(ws, 'sub/fifo/CMakeLists.txt')]);
    const ctest = { passed: 1, failed: 0, notRun: [] };
    assert.deepStrictEqual(withSources(ctest, ws, 'sub'), { ...ctest, sources: { 'calc.guard': ['sub/tests/guard.c'] } }, 'workspace-relative');
    assert.deepStrictEqual(withSources(ctest, ws, ''), ctest, 'no CMakeLists.txt in the root: nothing added');
  });

  it('DevA is told, where its checks are announced, that the CMake build keeps going past a test program that does not build', () => {
    const planned = (plannedChecks: string[], plannedFailFirst = true) => renderSources('deva', ['checks:planned'], { ...contextInputs('deva', {}), plannedChecks, plannedFailFirst });
    assert.match(planned([DETECTED]), /fail-first\).* Its CMake build there keeps going past a test program that does not compile, and CTest runs the others, so a guard in a test program apart from the new API's tests \(an existing one fits\) runs even where one using the new API does not build\.$/);
    for (const [checks, failFirst] of [[['make test'], true], [[DETECTED], false]] as const) {
      assert.doesNotMatch(planned([...checks], failFirst), /keeps going/, checks.join());
    }
  });

  it('with the real cmake, ctest and a C compiler: the guard runs and passes beside a program that needs the change', async function () {
    if (!(await cmakeHere('cc'))) this.skip();
    this.timeout(180_000);
    const ws = tmp();
    writeFiles(ws, {
      'CMakeLists.txt': 'cmake_minimum_required(VERSION 3.10)\nproject(calc C)\nadd_library(calc calc.c)\nenable_testing()\nadd_subdirectory(tests)\n',
      'calc.h': 'int calc_add(int a, int b);\n',
      'calc.c': '#include "calc.h"\nint calc_add(int a, int b) { return a + b; }\n',
      'tests/CMakeLists.txt': 'foreach(t add_tests)\n  add_executable(${t} ${t}.c)\n  target_link_libraries(${t} calc)\n  target_include_directories(${t} PRIVATE ..)\n  add_test(NAME ${t} COMMAND ${t})\nendforeach()\n',
      'tests/add_tests.c': '#include "calc.h"\nint main(void) { return calc_add(1, 2) == 3 ? 0 : 1; }\n',
    });
    const [check] = await cmakeTestCheck(ws);
    assert.ok(check, 'the CTest check is detected');
    // DevA's proposal: a guard program of the existing API, a program using the function the change adds (a type
    // it adds too: no compiler takes it), both registered
    const files = [
      proposedFile('tests/CMakeLists.txt', 'foreach(t limit_tests add_tests guard_tests)\n  add_executable(${t} ${t}.c)\n  target_link_libraries(${t} calc)\n  target_include_directories(${t} PRIVATE ..)\n  add_test(NAME ${t} COMMAND ${t})\nendforeach()\n'),
      proposedFile('tests/limit_tests.c', '#include "calc.h"\nint main(void) { calc_limit_t l = calc_limit(3); return l.max == 3 ? 0 : 1; }\n'),
      proposedFile('tests/guard_tests.c', '#include "calc.h"\nint main(void) { return calc_add(2, 2) == 4 ? 0 : 1; }\n'),
    ];
    const events: CheckEvent[] = [];
    const result = await runFailFirst({ commands: [check.command], workspace: ws, capeFolder: 'cape', files, emit: (e) => events.push(e) });
    const run = result.runs[0];
    assert.deepStrictEqual([result.runs.length, run.command, run.unbuilt, run.ctestPrograms], [1, check.command, true, { passed: 2, failed: 0, notRun: ['limit_tests'] }], run.output);
    assert.strictEqual(testStatus({ file: 'tests/guard_tests.c', name: 'adds' }, true, [run], 'no_test', 'no_test'), 'pass');
    assert.strictEqual(testStatus({ file: 'tests/limit_tests.c', name: 'limits' }, true, [run], 'no_test', 'unbuilt'), 'unbuilt');
    let said = '';
    const print = printer({ write: (t: string) => ((said += t), true) } as unknown as NodeJS.WritableStream);
    for (const e of events) print({ type: 'check', step: 'deva', event: e });
    assert.match(said, /failed: 1 of 3 test programs did not build without the change \(limit_tests\); the others ran: 2 passed, 0 failed/, said);
    // with Ninja as CMake's generator (it reads no MAKEFLAGS): its own -k 0 keeps it going
    if (await onPath(['ninja'])) {
      const before = process.env.CMAKE_GENERATOR;
      process.env.CMAKE_GENERATOR = 'Ninja';
      try {
        const ninja = (await runFailFirst({ commands: [check.command], workspace: ws, capeFolder: 'cape', files, emit: () => {} })).runs[0];
        assert.match(ninja.output, /ninja/i, ninja.output);
        assert.deepStrictEqual(ninja.ctestPrograms, { passed: 2, failed: 0, notRun: ['limit_tests'] }, ninja.output);
      } finally {
        if (before === undefined) delete process.env.CMAKE_GENERATOR;
        else process.env.CMAKE_GENERATOR = before;
      }
    }
    // the workspace is untouched: the build was the scratch copy's
    assert.ok(!fs.existsSync(path.join(ws, '.cape-cmake-build')));
    assert.ok(!fs.existsSync(path.join(ws, 'tests/limit_tests.c')));
  });

  it('with the real cmake: a guard in a test program named otherwise than its file is read by the CMake files', async function () {
    if (!(await cmakeHere('cc'))) this.skip();
    this.timeout(180_000);
    const ws = tmp();
    const suites = (names: string) =>
      `add_executable(test_add add_tests.c)\ntarget_link_libraries(test_add calc)\nadd_test(NAME calc.add COMMAND test_add)\nset(SUITES ${names})\nforeach(s \${SUITES})\n  add_executable(test_\${s} \${s}_tests.c)\n  target_link_libraries(test_\${s} calc)\n  add_test(NAME calc.\${s} COMMAND $<TARGET_FILE:test_\${s}>)\nendforeach()\n`;
    writeFiles(ws, {
      'CMakeLists.txt': 'cmake_minimum_required(VERSION 3.10)\nproject(calc C)\nadd_library(calc calc.c)\ntarget_include_directories(calc PUBLIC .)\nenable_testing()\nadd_subdirectory(tests)\n',
      'calc.h': 'int calc_add(int a, int b);\n',
      'calc.c': '#include "calc.h"\nint calc_add(int a, int b) { return a + b; }\n',
      'tests/CMakeLists.txt': suites(''),
      'tests/add_tests.c': '#include "calc.h"\nint main(void) { return calc_add(1, 2) == 3 ? 0 : 1; }\n',
    });
    const [check] = await cmakeTestCheck(ws);
    const files = [
      proposedFile('tests/CMakeLists.txt', suites('limit guard')),
      proposedFile('tests/limit_tests.c', '#include "calc.h"\nint main(void) { calc_limit_t l = calc_limit(3); return l.max == 3 ? 0 : 1; }\n'),
      proposedFile('tests/guard_tests.c', '#include "calc.h"\nint main(void) { return calc_add(2, 2) == 4 ? 0 : 1; }\n'),
    ];
    const run = (await runFailFirst({ commands: [check.command], workspace: ws, capeFolder: 'cape', files, emit: () => {} })).runs[0];
    // the CMake files are the proposal's, as the run saw them: each test's file, the test named otherwise
    assert.deepStrictEqual(
      run.ctestPrograms,
      { passed: 2, failed: 0, notRun: ['calc.limit'], sources: { 'calc.add': ['tests/add_tests.c'], 'calc.limit': ['tests/limit_tests.c'], 'calc.guard': ['tests/guard_tests.c'] } },
      run.output,
    );
    assert.deepStrictEqual(failFirstOf([named('tests/limit_tests.c', 'limits', 'fail'), named('tests/guard_tests.c', 'adds', 'pass')], () => true, [run]), { before: 'unbuilt', guardsRan: 'pass' });
    assert.strictEqual(beforeFailureSaying(run), 'failed: 1 of 3 test programs did not build without the change (calc.limit); the others ran: 2 passed, 0 failed');
  });

  it('with the real GoogleTest (C++): a guard case passes in a program that fails, a new-API program is not built, a failing guard is named', async function () {
    if (!(await gtestHere())) this.skip();
    this.timeout(240_000);
    const ws = tmp();
    const tests = (names: string) => `foreach(t ${names})\n  add_executable(\${t} \${t}.cpp)\n  target_link_libraries(\${t} calc GTest::gtest_main)\n  add_test(NAME \${t} COMMAND \${t})\nendforeach()\n`;
    const check = await gtestCalc(ws, tests('add_test'));
    const files = [
      proposedFile('tests/CMakeLists.txt', tests('add_test guard_test mul_test')),
      proposedFile('tests/guard_test.cpp', '#include <gtest/gtest.h>\n#include "calc.h"\nTEST(Guard, AddsZero) { EXPECT_EQ(add(0, 2), 2); }\nTEST(Guard, AddsWrong) { EXPECT_EQ(add(2, 2), 5); }\n'),
      proposedFile('tests/mul_test.cpp', '#include <gtest/gtest.h>\n#include "calc.h"\nTEST(Mul, Muls) { EXPECT_EQ(mul(2, 3), 6); }\n'),
    ];
    const result = await runFailFirst({ commands: [check.command], workspace: ws, capeFolder: 'cape', files, emit: () => {} });
    const run = result.runs[0];
    assert.deepStrictEqual(run.ctestPrograms, { passed: 1, failed: 1, notRun: ['mul_test'] }, run.output);
    assert.deepStrictEqual(
      run.tests?.filter((t) => t.name.startsWith('Guard.')),
      [
        { name: 'Guard.AddsZero', passed: true },
        { name: 'Guard.AddsWrong', passed: false },
      ],
      run.output,
    );
    // the guard's own case decides, though its program failed; the new API's program did not build
    assert.deepStrictEqual(failFirstOf([named('tests/mul_test.cpp', 'Mul.Muls', 'fail'), named('tests/guard_test.cpp', 'Guard.AddsZero', 'pass')], () => true, [run]), { before: 'unbuilt', guardsRan: 'pass' });
    assert.strictEqual(failFirstOf([named('tests/guard_test.cpp', 'Guard.AddsWrong', 'pass')], () => true, [run])?.before, 'fail');
    assert.strictEqual(beforeFailureSaying(run), 'failed: 1 of 3 test programs did not build without the change (mul_test); the others ran: 1 passed, 1 failed');
  });

  it('with the real GoogleTest and gtest_discover_tests: a program named otherwise than its file, not built, reads "not built"', async function () {
    if (!(await gtestHere())) this.skip();
    this.timeout(240_000);
    const ws = tmp();
    // each program's cases become CTest's tests; one not built is CTest's `<program>_NOT_BUILT`
    const tests = (names: string) =>
      `include(GoogleTest)\nforeach(t ${names})\n  add_executable(calc_\${t} \${t}_test.cpp)\n  target_link_libraries(calc_\${t} calc GTest::gtest_main)\n  gtest_discover_tests(calc_\${t})\nendforeach()\n`;
    const check = await gtestCalc(ws, tests('add'));
    const files = [
      proposedFile('tests/CMakeLists.txt', tests('add guard mul')),
      proposedFile('tests/guard_test.cpp', '#include <gtest/gtest.h>\n#include "calc.h"\nTEST(Guard, AddsZero) { EXPECT_EQ(add(0, 2), 2); }\n'),
      proposedFile('tests/mul_test.cpp', '#include <gtest/gtest.h>\n#include "calc.h"\nTEST(Mul, Muls) { EXPECT_EQ(mul(2, 3), 6); }\n'),
    ];
    const run = (await runFailFirst({ commands: [check.command], workspace: ws, capeFolder: 'cape', files, emit: () => {} })).runs[0];
    assert.deepStrictEqual(run.ctestPrograms?.notRun, ['calc_mul'], run.output);
    assert.deepStrictEqual(run.ctestPrograms?.sources?.calc_mul, ['tests/mul_test.cpp'], run.output);
    assert.deepStrictEqual(run.tests?.find((t) => t.name === 'Guard.AddsZero'), { name: 'Guard.AddsZero', passed: true }, run.output);
    assert.deepStrictEqual(failFirstOf([named('tests/mul_test.cpp', 'Mul.Muls', 'fail'), named('tests/guard_test.cpp', 'Guard.AddsZero', 'pass')], () => true, [run]), { before: 'unbuilt', guardsRan: 'pass' });
    assert.strictEqual(run.ctestPrograms?.cases, true);
    assert.strictEqual(beforeFailureSaying(run), 'failed: 1 of 3 CTest tests did not build without the change (calc_mul); the others ran: 2 passed, 0 failed');
  });
});
