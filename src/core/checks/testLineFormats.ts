// The runners whose lines name one case each, plainly: pytest (-v and its summary), Python's unittest, `go test`,
// `cargo test` (and its failures under -q), RSpec's failed examples, Gradle, Maven Surefire 2 and 3, vitest's failed
// tests, CTest, C's Unity, C++'s GoogleTest and `dotnet test`; and
// go test's package line, which names the package of the cases before it. readTestCases (testCases.ts) tries them on
// each line after jest's failure headers and TAP, before the spec reporters' marks and mocha's numbered failures.

import { CTEST_SKIPPED, CTEST_TEST_LINE } from './ctestPrograms';

/**
 * `head`, then the rest of the line up to its trailing blanks as the last group: `(\S(?:.*\S)?)\s*$`, where the
 * obvious `(.+?)\s*$` retried the blanks after each character it took, time quadratic in a long run of blanks inside
 * the line (`✓ x`, 100,000 spaces, `y`).
 */
export function toLineEnd(head: string): RegExp {
  return new RegExp(`${head}(\\S(?:.*\\S)?)\\s*$`);
}

/**
 * One line, one case, for the runners whose lines say it plainly: the `name` group is the case, the `verdict` group
 * (absent: a list of failures) is tested by `failed` and `skipped` (no verdict at all). `listsPassed`: the format
 * always names passing cases too (for the others, a passing case named says so: `go test -v`, Gradle's and dotnet's
 * verbose logging).
 */
export interface LineFormat {
  re: RegExp;
  name: number;
  /** The case's name when the match holds it in pieces (Surefire 2's `testMul(calc.CalcTest)` → calc.CalcTest.testMul). */
  label?: (m: RegExpExecArray) => string;
  verdict?: number;
  failed?: RegExp;
  skipped?: RegExp;
  listsPassed: boolean;
  /** The group of the failure's message on the case's own line (pytest's summary: failureMessages.ts messageSays). */
  message?: number;
  /** The case belongs to the Go package the `ok` / `FAIL` line after it names (GO_PACKAGE). */
  goPackaged?: true;
  /** The failure's traceback follows the line (unittest's headers: failureMessages.ts reads the exception it ends with). */
  traceback?: true;
  /** The test's captured output follows (cargo's `---- name stdout ----`: failureMessages.ts reads its panic's message). */
  panic?: true;
}

/**
 * go test's line for a package's result, after its cases: `FAIL\texample.com/calc\t0.01s`, `ok  \texample.com/calc\t(cached)`.
 * Each Go case before it is named with its package (`example.com/calc.TestTable`): two packages' TestTable are two
 * cases, and one failing before the change is not the other failing after it. Always, not only when the run names
 * several packages: the change may add a package with tests, and a case's name is the same in both runs.
 */
export const GO_PACKAGE = /^(?:ok|FAIL)\s+(\S+)\s+(?:\(cached\)|\d+(?:\.\d+)?s\b)/;

/** A Go case named with its package (GO_PACKAGE): `example.com/calc` and `TestTable/two` → `example.com/calc.TestTable/two`. */
export function goCaseName(pkg: string, name: string): string {
  return `${pkg}.${name}`;
}

/** The package before a Go case's name (goCaseName): up to the first `.` a test, example, fuzz test or benchmark follows. */
const GO_QUALIFIER = /^[^\s.]\S*?\.(?=(?:Test|Example|Fuzz|Benchmark)\w*(?:\/|$))/;

/** A reported case's name without the Go package goCaseName put before it (the name itself when it has none). */
export function withoutGoPackage(name: string): string {
  return name.replace(GO_QUALIFIER, '');
}

export const LINE_FORMATS: readonly LineFormat[] = [
  // pytest -v: `tests/test_calc.py::test_mul FAILED  [ 28%]`
  { re: /^(\S+?\.py::\S.*?) (PASSED|FAILED|ERROR|XFAIL|XPASS|SKIPPED)\b/, name: 1, verdict: 2, failed: /^(FAILED|ERROR)$/, skipped: /^(SKIPPED|XFAIL)$/, listsPassed: true },
  // pytest's short summary: `FAILED tests/test_calc.py::test_mul - assert 5 == 6`, `ERROR tests/test_x.py - ImportError`;
  // a parametrized id may hold spaces, `::` and ` - ` (`test_words[x - y]`): it ends at the first `]` the message follows
  // eslint-disable-next-line regexp/no-super-linear-backtracking -- a line of output, cut to 2,000 characters (testCases.ts cutLine) before it is read
  { re: /^(?:FAILED|ERROR) (\S+?\.py(?:::[^\s[]+)*(?:\[.*?\])?)(?: - (.*))?$/, name: 1, message: 2, listsPassed: false },
  // unittest -v: `test_bad (tests.test_u.TestU.test_bad) ... FAIL`; a subTest's line is indented and adds its
  // parameters, `  test_loop (tests.t.T.test_loop) (obj=1) ... FAIL`: it counts for its test
  { re: /^\s*(\w+ \([\w.]+\))(?: \(.*\))? \.\.\. (ok|FAIL|ERROR|skipped.*|expected failure|unexpected success)$/, name: 1, verdict: 2, failed: /^(FAIL|ERROR|unexpected success)$/, skipped: /^(skipped|expected failure)/, listsPassed: true },
  // unittest's failure headers: `FAIL: test_bad (tests.test_u.TestU.test_bad)`, a subTest's with its parameters
  { re: /^(?:FAIL|ERROR): (\w+ \([\w.]+\))(?: \(.*\))?$/, name: 1, listsPassed: false, traceback: true },
  // go test: `--- FAIL: TestMul (0.00s)`, subtests indented: `    --- PASS: TestTable/two (0.00s)` (-v lists passes)
  { re: /^\s*--- (PASS|FAIL|SKIP): (\S+) \([\d.]+s\)$/, name: 2, verdict: 1, failed: /^FAIL$/, skipped: /^SKIP$/, listsPassed: false, goPackaged: true },
  // cargo test: `test tests::it_muls ... FAILED`; a doc test, by its file and item: `test src/lib.rs - Version::parse (line 40) ... ok`
  { re: /^test (\S+|\S+\.rs - .+?) \.\.\. (ok|FAILED|ignored)$/, name: 1, verdict: 2, failed: /^FAILED$/, skipped: /^ignored$/, listsPassed: true },
  // cargo test -q: dots for the passing ones, and a failing test on a line of its own, `tests::it_muls --- FAILED`
  { re: /^(\S+|\S+\.rs - .+?) --- FAILED$/, name: 1, listsPassed: false },
  // cargo test's failures: `---- tests::it_muls stdout ----`, the test's captured output and its panic under it
  { re: /^---- (\S+|\S+\.rs - .+?) stdout ----$/, name: 1, listsPassed: false, panic: true },
  // RSpec's "Failed examples:": `rspec ./spec/calc_spec.rb:8 # Calc multiplies`
  { re: /^rspec \S+?:\d+ # (.+)$/, name: 1, listsPassed: false },
  // Gradle: `CalcTest > testMul() FAILED`
  { re: /^(\S.*? > \S.*?) (PASSED|FAILED|SKIPPED)$/, name: 1, verdict: 2, failed: /^FAILED$/, skipped: /^SKIPPED$/, listsPassed: false },
  // Maven Surefire 3: `[ERROR] calc.CalcTest.testMul -- Time elapsed: 0.005 s <<< FAILURE!` (or `<<< ERROR!`)
  { re: /^(?:\[ERROR\]\s+)?(\S+?)\s+--\s+Time elapsed: [\d.,]+ s\s+<<< (?:FAILURE|ERROR)!\s*$/, name: 1, listsPassed: false },
  // Maven Surefire 2: `[ERROR] testMul(calc.CalcTest)  Time elapsed: 0.004 s  <<< FAILURE!` (older ones: `sec`, no
  // `[ERROR]`), named as Surefire 3 names it
  {
    re: /^(?:\[ERROR\]\s+)?([^\s(]+)\(([\w.$]+)\)\s+Time elapsed: [\d.,]+ s(?:ec)?\s+<<< (?:FAILURE|ERROR)!\s*$/,
    name: 1,
    label: (m) => `${m[2]}.${m[1]}`,
    listsPassed: false,
  },
  // vitest's failed tests: ` FAIL  test/calc.test.ts > calc > multiplies`
  { re: toLineEnd(String.raw`^\s*FAIL\s+(?=\S+\.\w+ > \S)`), name: 1, listsPassed: false },
  // CTest: ` 3/19 Test  #3: parse_number .....................***Failed    0.01 sec` (ctestPrograms.ts CTEST_TEST_LINE)
  { re: CTEST_TEST_LINE, name: 1, verdict: 2, failed: /^\*\*\*/, skipped: CTEST_SKIPPED, listsPassed: true },
  // Unity (C): `tests/parse_number.c:56:parse_number_should_parse_zero:FAIL: Expected 1 Was 0`, `…:PASS`, `…:IGNORE`
  { re: /^(?:.+?\.\w+):\d+:(\w+):(PASS|FAIL|IGNORE)(?::[ \t]*(\S.*)?)?$/, name: 1, verdict: 2, failed: /^FAIL$/, skipped: /^IGNORE$/, listsPassed: true, message: 3 },
  // GoogleTest (C++): `[       OK ] CalcTest.Adds (0 ms)`, `[  FAILED  ] CalcTest.Muls (1 ms)`, `[  SKIPPED ] …`; a
  // parameterised test's `[  FAILED  ] Inst/ParamTest.Works/0, where GetParam() = 3 (0 ms)` (the summary's list after
  // `listed below:` repeats the names without a time, and is not read)
  { re: /^\[\s+(OK|FAILED|SKIPPED)\s+\] ([^\s,]+)(?:, where .*)? \(\d+ ms\)$/, name: 2, verdict: 1, failed: /^FAILED$/, skipped: /^SKIPPED$/, listsPassed: true },
  // dotnet test: `  Failed CalcTests.Mul [12 ms]`
  { re: /^\s*(Passed|Failed|Skipped) (\S.*?) \[<? ?[\d.]+ ?m?s\]$/, name: 2, verdict: 1, failed: /^Failed$/, skipped: /^Skipped$/, listsPassed: false },
];
