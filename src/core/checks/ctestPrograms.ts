// CTest's test programs in fail-first: a CMake project builds each test program before CTest runs any, and a build
// stops at its first error, so one of DevA's test files that needs the change (it calls a function the change adds)
// stopped the whole build, and DevA's other file — a regression guard that uses the existing API — never ran (a cJSON
// trial). keepGoingSteps runs such a command as two steps (run.ts RunCheckOptions.steps): the build, keeping going past
// a program that does not compile (make's `-k`, through MAKEFLAGS), then CTest whatever the build did, so every program
// that built runs and one that did not is CTest's `***Not Run` (a build with Ninja, which reads no MAKEFLAGS, keeps going
// with its own `-k 0`).
// ctestProgramReader reads what CTest said of each program (CheckRun.ctestPrograms); programOf names the program a C or
// C++ test file is, by the convention CMake projects follow (`add_executable(misc_tests misc_tests.c)`, `add_test(NAME
// misc_tests …)`): its file name without the extension; programsOf, by the project's CMake files where they name a test
// otherwise (cmakeTests.ts, kept in CTestPrograms.sources). Pure: the webview imports it.
import { C_FAMILY_FILE, C_HEADER_FILE } from '../workspace/languageFiles';

/**
 * CTest's line for a test it ran: ` 3/19 Test  #3: parse_number .....................***Failed    0.01 sec`
 * (`   Passed`, `***Exception: SegFault`, `***Timeout`, `***Not Run`; a test it skipped, or disabled, `***Skipped` /
 * `***Not Run (Disabled)`): the name, then the verdict.
 */
export const CTEST_TEST_LINE = /^\s*\d+\/\d+ Test\s+#\d+: (\S+) \.*\s*(Passed|\*\*\*(?:Failed|Timeout|Skipped|Not Run(?: \(Disabled\))?|Exception: \w+))(?=\s)/;

/** A verdict of CTEST_TEST_LINE for a program it could not run (its executable was not built). */
const NOT_RUN = '***Not Run';
/**
 * The stand-in test CMake's GoogleTest, Catch2 and doctest modules declare for a program whose cases they could not
 * list because it was not built (`gtest_discover_tests(calc_tests)` → `calc_tests_NOT_BUILT`, Catch2's with a hash):
 * taken off, the program's own name.
 */
const NOT_BUILT = /_NOT_BUILT(?:-[0-9a-f]+)?$/;
/** CTEST_TEST_LINE's verdicts of a test it skipped or that is disabled: neither passed nor failed. */
export const CTEST_SKIPPED = /^\*\*\*(?:Skipped|Not Run \(Disabled\))/;

/** What CTest said of its programs in one run (CheckRun.ctestPrograms): how many passed and failed, and those it could not run. */
export interface CTestPrograms {
  passed: number;
  failed: number;
  /** The programs CTest could not run (`***Not Run`: no executable, as when its build failed), by name. */
  notRun: string[];
  /**
   * The tests the project's CMake files name otherwise than their source files (checks/cmakeTests.ts): each one's C
   * and C++ files, workspace-relative (`parser` → `tests/test_parser.c`). Absent when every test is named after its
   * file, or the files could not be read; a test file not listed here is its program by its name (programOf).
   */
  sources?: Record<string, string[]>;
  /**
   * The CMake files make a program's test cases CTest's tests (`gtest_discover_tests`, Catch2's, doctest's:
   * cmakeTests.ts), so `passed` and `failed` count cases, and a program not built is one test: the run is told by its
   * tests, not its programs (checks/verdict.ts).
   */
  cases?: true;
}

/** Programs whose names a reader keeps: an output of any length is read within it. */
const MAX_NOT_RUN = 10_000;

/**
 * Reads CTest's lines (CTEST_TEST_LINE) as the output arrives (run.ts feeds it the whole stream); `result` is
 * undefined when no line was CTest's. A skipped or disabled test counts neither way.
 */
export function ctestProgramReader(): { line: (line: string) => void; result: () => CTestPrograms | undefined } {
  let seen = false;
  let passed = 0;
  let failed = 0;
  const notRun = new Set<string>();
  return {
    line: (line) => {
      const m = CTEST_TEST_LINE.exec(line);
      if (!m) return;
      seen = true;
      if (m[2] === 'Passed') passed++;
      else if (m[2] === NOT_RUN) {
        if (notRun.size < MAX_NOT_RUN) notRun.add(m[1].replace(NOT_BUILT, ''));
      } else if (!CTEST_SKIPPED.test(m[2])) failed++;
    },
    result: () => (seen ? { passed, failed, notRun: [...notRun] } : undefined),
  };
}

/** The program a C or C++ test source file builds, as CTest names it by the usual convention (see the header); null for another file (a header too). */
export function programOf(file: string): string | null {
  const base = file.slice(file.lastIndexOf('/') + 1);
  return C_FAMILY_FILE.test(base) && !C_HEADER_FILE.test(base) ? base.replace(/\.[^.]+$/, '') : null;
}

/** The tests of `sources` (checks/cmakeTests.ts) named otherwise than each of their files (programOf): those a file's program needs; undefined when none. */
export function testsNamedOtherwise(sources: ReadonlyMap<string, readonly string[]>): Record<string, string[]> | undefined {
  const out: Record<string, string[]> = {};
  for (const [test, files] of sources) if (!files.some((f) => programOf(f) === test)) out[test] = [...files];
  return Object.keys(out).length ? out : undefined;
}

/** The CTest tests that run a C or C++ test file: those the CMake files say build it, or else the one named after it (programOf); [] for another file. */
export function programsOf(programs: Pick<CTestPrograms, 'sources'> | undefined, file: string): string[] {
  const rel = file.replace(/^\.\//, '');
  const named = Object.entries(programs?.sources ?? {})
    .filter(([, files]) => files.includes(rel))
    .map(([test]) => test);
  if (named.length) return named;
  const own = programOf(rel);
  return own ? [own] : [];
}

/** What a shell gives a meaning beyond a list of commands joined by `&&` (tried with the `&&` taken out). */
const OTHER_SHELL = /[;|&`<>]|\$\(/;

/** Commands whose effect lasts to the commands after them in one shell: repeated before the second step. */
const CARRIED = new Set(['cd', 'pushd', 'export']);

/** A segment's words, the leading `NAME=value` assignments left out. */
const commandWords = (segment: string): string[] => {
  const words = segment.trim().split(/\s+/);
  let at = 0;
  while (at < words.length && /^\w+=/.test(words[at])) at++;
  return words.slice(at);
};

/**
 * A `cmake --build DIR …` that keeps going past a target that does not build, in a POSIX shell: Ninja's `-k 0` where
 * DIR's cache says CMake generates for Ninja (CMAKE_GENERATOR, a preset or `-G` may choose it), else make's `-k`
 * through MAKEFLAGS (which Ninja does not read). Without a DIR (`--preset`), MAKEFLAGS alone.
 */
function keepGoingBuild(segment: string): string {
  const make = `MAKEFLAGS="-k $MAKEFLAGS" ${segment}`;
  const dir = commandWords(segment)[2];
  if (!dir || dir.startsWith('-')) return make;
  const ninja = `${segment}${/\s--(?=\s|$)/.test(segment) ? '' : ' --'} -k 0`;
  return `{ if grep -qs '^CMAKE_GENERATOR:INTERNAL=Ninja' ${dir}/CMakeCache.txt; then ${ninja}; else ${make}; fi; }`;
}

/**
 * The two steps fail-first runs a CTest command as (see the header): the commands up to its `cmake --build`, that
 * build keeping going past a failing program (keepGoingBuild; on Windows, whose CMake builds with Visual Studio's
 * tools, as it is), then the commands from its `ctest` on — `cmake -S . -B b && cmake --build b && cd b && ctest` runs
 * as `cmake -S . -B b && MAKEFLAGS="-k $MAKEFLAGS" cmake --build b` (for make) and `cd b && ctest`; a `cd` or `export`
 * before the build is repeated before the second step (`cd build && cmake --build . && ctest` tests in build/). Null
 * for any other command: one without a `cmake --build` followed by a `ctest`, one joined otherwise than by `&&`, or
 * one whose build sets MAKEFLAGS itself. `platform`: the machine's (process.platform).
 */
export function keepGoingSteps(command: string, platform: string): [string, string] | null {
  if (OTHER_SHELL.test(command.replace(/&&/g, ''))) return null;
  const segments = command.split('&&').map((s) => s.trim());
  if (segments.some((s) => !s)) return null;
  const build = segments.findIndex((s) => {
    const w = commandWords(s);
    return w[0] === 'cmake' && w[1] === '--build';
  });
  if (build < 0 || /(^|\s)MAKEFLAGS=/.test(segments[build])) return null;
  const test = segments.findIndex((s, i) => i > build && commandWords(s)[0] === 'ctest');
  if (test < 0) return null;
  const keepGoing = platform === 'win32' ? segments[build] : keepGoingBuild(segments[build]);
  // the second step is a shell of its own: the folder and the variables the commands before it set, set again
  const carried = segments.slice(0, build).filter((s) => CARRIED.has(commandWords(s)[0]));
  return [[...segments.slice(0, build), keepGoing].join(' && '), [...carried, ...segments.slice(build + 1)].join(' && ')];
}

/** Whether fail-first runs `command` keeping going past a test program that does not build (keepGoingSteps), as DevA is told. */
export function mayKeepGoing(command: string): boolean {
  return keepGoingSteps(command, 'any') !== null;
}
