// Whether a check's output holds a test runner's summary line — its report that test cases ran (RAN_TESTS) — read line
// by line as the output arrives: run.ts feeds it every line of the whole stream, as it feeds the test case reader
// (testCases.ts), so a summary in the part of a long output its kept head and tail leave out counts (CheckRun
// .testSummary), in a few flags of memory whatever the output's length. testsRan reads it: a failing run without one
// stopped before its tests (metrics/testStatus.ts). And endedBeforeSummary: a run without it, of a command whose run
// on the unchanged workspace wrote one, stopped before its tests finished (killed, crashed, ended by the code under
// test; one Go package's or cargo test binary's run among several without its own summary), so the cases it did not
// name never ran — a runner that names only failures (pytest -q, go test without -v, mocha's dot reporter, RSpec's
// progress) says nothing else of it: such a run is never a failure as before (baseline.ts), and the fix request says so
// (fixRequest.ts).
import type { CheckRun } from './types';
import { GO_PACKAGE } from './testLineFormats';
import { readAllLines } from '../text/lines';

/** A cargo test binary's summary line: `test result: ok. 2 passed; 0 failed; …`. */
const CARGO_RESULT = /^test result: /;

/**
 * A runner's report that test cases ran, by its summary or per-package line: mocha's "3 passing", jest's and vitest's
 * "Tests: 2 passed", pytest's "1 failed, 2 passed", unittest's "Ran 3 tests", node:test's "# tests 3" (or "ℹ tests 3"),
 * RSpec's "3 examples", cargo's "test result:", go test's "ok  example.com/calc  0.01s" (GO_PACKAGE), Gradle's "3 tests
 * completed", Maven Surefire's "Tests run: 3", dotnet's "Failed!  - Failed: 1, Passed: 2" or "Total tests: 3". Each is
 * tried on one line.
 */
const RAN_TESTS: readonly RegExp[] = [
  /\b[1-9]\d*\s+(?:passing|failing|passed|failed|pending)\b/i,
  /^[ \t]*Ran [1-9]\d* tests?\b/,
  /^[ \t]*(?:#|ℹ)[ \t]*(?:tests|pass|fail) [1-9]/,
  /\b[1-9]\d* examples?\b/,
  CARGO_RESULT,
  GO_PACKAGE,
  /\b[1-9]\d* tests? completed\b|\bTests run: [1-9]/,
  /\bTotal tests:\s*[1-9]|\b(?:Passed|Failed):\s+[1-9]/,
];

/**
 * A Go test binary's own verdict, once all its tests ran: `PASS` or `FAIL` alone on a line, before go's `FAIL  pkg
 * 0.01s` (GO_PACKAGE). A binary that exited mid-run (os.Exit in a test, a panic, `-timeout`) never writes it, and go
 * still writes the package's line.
 */
const GO_BINARY_VERDICT = /^(?:PASS|FAIL)\s*$/;

/**
 * cargo's line as it starts a test binary (`cargo test` runs one per test target, then the doc tests, each ending with
 * its `test result:` line): `     Running unittests src/lib.rs (target/debug/deps/calc-1f2e)`, `     Running
 * tests/api.rs (…)`, older cargo's `     Running target/debug/deps/calc-1f2e`, `   Doc-tests calc`. Cargo
 * right-aligns its status words: Maven's `Running calc.CalcTest` is not one, nor `cargo run`'s ``Running
 * `target/debug/calc` `` (its program, not a test binary). `cargo test -q` writes none of them.
 */
const CARGO_BINARY = /^ {5}Running [^`\s]|^ {3}Doc-tests \S/;

/**
 * A cargo test binary's first line, as its test harness (libtest, or libtest-mimic's) starts: `running 2 tests`, with
 * `-q` too. A line of its own: deno's `running 2 tests from ./a_test.ts` is not one.
 */
const CARGO_RUNNING = /^running \d+ tests?\s*$/;

/** Reads an output's lines as they arrive (`line`), and tells at the end whether a summary line came (`seen`). */
export interface SummaryReader {
  line: (line: string) => void;
  /** `exitedZero`: the run's command exited 0 (without it, a run that did not: the stricter reading). */
  seen: (exitedZero?: boolean) => boolean;
}

/**
 * The summary reader: RAN_TESTS on some line; every failing Go package's line after its binary's own verdict
 * (GO_BINARY_VERDICT); and a cargo `test result:` line for every test binary that started. A binary started is one
 * whose harness wrote `running N tests` (CARGO_RUNNING, what `-q` writes too) and, in a run that did not exit 0, one
 * cargo said it started (CARGO_BINARY): a `harness = false` binary writes neither `running N tests` nor a result, and
 * exited 0 if the run did, while in a failed run such a binary may be one that crashed before its first line. A Go
 * package without its verdict, or a cargo test binary without its result — one that crashed (SIGSEGV, an abort), which
 * `cargo test --no-fail-fast` goes on after — ended before its summary, whatever the others wrote. Cargo's are
 * counted, not paired in order: its own lines come on stderr, a binary's on stdout, and the two pipes are read as
 * their chunks come.
 */
export function summaryReader(): SummaryReader {
  let seen = false;
  let goVerdict = false; // since the last Go package line
  let goCut = false;
  let cargoStarted = 0; // cargo's `Running` lines
  let cargoRunning = 0; // the harnesses' `running N tests` lines
  let cargoResults = 0;
  return {
    line: (line) => {
      if (!seen && RAN_TESTS.some((r) => r.test(line))) seen = true;
      if (GO_BINARY_VERDICT.test(line)) goVerdict = true;
      else if (GO_PACKAGE.test(line)) {
        if (line.startsWith('FAIL') && !goVerdict) goCut = true;
        goVerdict = false;
      }
      if (CARGO_BINARY.test(line)) cargoStarted++;
      else if (CARGO_RUNNING.test(line)) cargoRunning++;
      else if (CARGO_RESULT.test(line)) cargoResults++;
    },
    seen: (exitedZero = false) => seen && !goCut && cargoResults >= cargoRunning && (exitedZero || cargoResults >= cargoStarted),
  };
}

/** Whether a whole text holds a test runner's summary line (summaryReader over its lines). */
export function hasTestSummary(text: string): boolean {
  return readAllLines(summaryReader(), text).seen();
}

/**
 * Whether a run shows that test cases ran: cases it names, or a summary line — of the whole output when the run was
 * read so (testSummary), else (a run recorded before) of its kept `output`. A failing run without one stopped before
 * its tests: a test module that does not load stops the whole run of mocha, pytest (collection) and RSpec, a `lint &&
 * test` script stops at the linter, and so the other files' tests never ran.
 */
export function testsRan(run: Pick<CheckRun, 'output' | 'tests' | 'testSummary'>): boolean {
  return !!run.tests?.length || (run.testSummary ?? hasTestSummary(run.output));
}

/**
 * Whether a failed run ended before its test runner's summary line: it wrote none (testSummary false), where the same
 * command's run on the unchanged workspace (`base`) wrote one — so the command runs tests, and their runner knows how
 * to end. A step before the tests failed, or the run was killed by a signal, crashed, or was ended by the code under
 * test (process.exit, os._exit, a Go test's os.Exit or panic): the cases after the last one named never ran. Not a
 * build failure, which says more (CheckRun.unbuilt), nor a run killed at the time limit, told by its status
 * (baseline.ts). Without the unchanged workspace's summary nothing is claimed: a project's own script that marks its
 * cases ✔ / ✖ writes none, and a run whose unchanged workspace's ended early too may have ended as it did.
 */
export function endedBeforeSummary(run: CheckRun, base?: CheckRun): boolean {
  return run.status === 'failed' && run.testSummary === false && !run.unbuilt && base?.testSummary === true;
}
