// Whether a check's output holds a test runner's summary line — its report that test cases ran — and of which kinds
// (SUMMARY_KINDS), read line by line as the output arrives: run.ts feeds it every line of the whole stream, as it feeds
// the test case reader (testCases.ts), so a summary in the part of a long output its kept head and tail leave out
// counts (CheckRun.testSummary, .summaryKinds), in a few flags of memory whatever the output's length. testsRan reads
// it: a failing run without one stopped before its tests (metrics/testStatus.ts). And endedBeforeSummary: a run
// without a summary its command's run on the unchanged workspace wrote stopped before its tests finished (killed,
// crashed, ended by the code under test; one Go package's or cargo test binary's run among several without its own
// summary), so the cases it did not name never ran — a runner that names only failures (pytest -q, go test without
// -v, mocha's dot reporter, RSpec's progress) says nothing else of it: such a run is never a failure as before
// (baseline.ts), and the fix request says so (fixRequest.ts). One that exited 0 so (process.exit(0) in the middle of
// the suite) did not pass (passedWithoutSummary, which run.ts applies).
import type { CheckRun } from './types';
import { GO_PACKAGE } from './testLineFormats';
import { readAllLines } from '../text/lines';

/** A cargo test binary's summary line: `test result: ok. 2 passed; 0 failed; …`. */
const CARGO_RESULT = /^test result: /;

/**
 * A runner's report that test cases ran, by its summary or per-package line, each kind by its name (CheckRun
 * .summaryKinds): `cargo`, "test result:"; `go`, go test's "ok  example.com/calc  0.01s" (GO_PACKAGE); `gradle`,
 * Gradle's "3 tests completed", which it writes only when a test failed (`failuresOnly`); `surefire`, Maven
 * Surefire's "Tests run: 3"; `dotnet`, "Failed!  - Failed: 1, Passed: 2" or "Total tests: 3"; `ran`, unittest's (and
 * bun's) "Ran 3 tests"; `tap`, node:test's "# tests 3" (or "ℹ tests 3"); `examples`, RSpec's "3 examples"; `counts`,
 * mocha's "3 passing", jest's and vitest's "Tests: 2 passed", pytest's "1 failed, 2 passed". Each is tried on one
 * line, and the first that matches is the line's kind: Gradle's "3 tests completed, 1 failed" and cargo's "test
 * result: FAILED. 0 passed; 1 failed" are not `counts` too.
 */
const SUMMARY_KINDS: readonly { kind: string; line: RegExp; failuresOnly?: true }[] = [
  { kind: 'cargo', line: CARGO_RESULT },
  { kind: 'go', line: GO_PACKAGE },
  { kind: 'gradle', line: /\b[1-9]\d* tests? completed\b/, failuresOnly: true },
  { kind: 'surefire', line: /\bTests run: [1-9]/ },
  { kind: 'dotnet', line: /\bTotal tests:\s*[1-9]|\b(?:Passed|Failed):\s+[1-9]/ },
  { kind: 'ran', line: /^[ \t]*Ran [1-9]\d* tests?\b/ },
  { kind: 'tap', line: /^[ \t]*(?:#|ℹ)[ \t]*(?:tests|pass|fail) [1-9]/ },
  { kind: 'examples', line: /\b[1-9]\d* examples?\b/ },
  { kind: 'counts', line: /\b[1-9]\d*\s+(?:passing|failing|passed|failed|pending)\b/i },
];

/** The summary kinds a run that passes writes too: every one but Gradle's. */
const WRITTEN_ON_PASS = new Set(SUMMARY_KINDS.filter((k) => !k.failuresOnly).map((k) => k.kind));

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

/**
 * Reads an output's lines as they arrive (`line`), and tells at the end whether a summary line came (`seen`) and of
 * which kinds (`kinds`, in SUMMARY_KINDS's order).
 */
export interface SummaryReader {
  line: (line: string) => void;
  /** `exitedZero`: the run's command exited 0 (without it, a run that did not: the stricter reading). */
  seen: (exitedZero?: boolean) => boolean;
  kinds: () => string[];
}

/**
 * The summary reader: a line of SUMMARY_KINDS; every failing Go package's line after its binary's own verdict
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
  const kinds = new Set<string>();
  let goVerdict = false; // since the last Go package line
  let goCut = false;
  let cargoStarted = 0; // cargo's `Running` lines
  let cargoRunning = 0; // the harnesses' `running N tests` lines
  let cargoResults = 0;
  return {
    line: (line) => {
      const kind = SUMMARY_KINDS.find((k) => k.line.test(line));
      if (kind) kinds.add(kind.kind);
      if (GO_BINARY_VERDICT.test(line)) goVerdict = true;
      else if (GO_PACKAGE.test(line)) {
        if (line.startsWith('FAIL') && !goVerdict) goCut = true;
        goVerdict = false;
      }
      if (CARGO_BINARY.test(line)) cargoStarted++;
      else if (CARGO_RUNNING.test(line)) cargoRunning++;
      else if (CARGO_RESULT.test(line)) cargoResults++;
    },
    seen: (exitedZero = false) => kinds.size > 0 && !goCut && cargoResults >= cargoRunning && (exitedZero || cargoResults >= cargoStarted),
    kinds: () => SUMMARY_KINDS.filter((k) => kinds.has(k.kind)).map((k) => k.kind),
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
 * Whether a run lacks a summary the same command's run on the unchanged workspace (`base`) wrote — so the command runs
 * tests, and their runner knows how to end: its summary is incomplete (testSummary false: none, a cargo test binary
 * without its result, a Go package without its verdict), or a kind of summary line the base wrote is not in it, of
 * those its runner writes when it ends as the run did (a run that exited 0: not Gradle's, written only with a failure).
 * Only the base's own kinds: a command that runs no tests (tsc, eslint, `vite build`) writes none on the unchanged
 * workspace, and nothing is claimed; nor without a base. A base recorded before its kinds were read: testSummary alone.
 */
function lacksBaseSummary(run: Pick<CheckRun, 'exitCode' | 'testSummary' | 'summaryKinds'>, base: CheckRun | undefined): boolean {
  if (base?.testSummary !== true || run.testSummary === undefined) return false;
  if (!base.summaryKinds) return !run.testSummary;
  const expected = base.summaryKinds.filter((k) => run.exitCode !== 0 || WRITTEN_ON_PASS.has(k));
  return expected.length > 0 && (!run.testSummary || expected.some((k) => !run.summaryKinds?.includes(k)));
}

/**
 * Whether a failed run ended before its test runner's summary line: it lacks one its run on the unchanged workspace
 * wrote (lacksBaseSummary). A step before the tests failed, or the run was killed by a signal, crashed, or was ended
 * by the code under test (process.exit, os._exit, a Go test's os.Exit or panic): the cases after the last one named
 * never ran. A run that exited 0 so is failed too (passedWithoutSummary). Not a build failure, which says more
 * (CheckRun.unbuilt), nor a run killed at the time limit, told by its status (baseline.ts). Without the unchanged
 * workspace's summary nothing is claimed: a project's own script that marks its cases ✔ / ✖ writes none, and a run
 * whose unchanged workspace's ended early too may have ended as it did.
 */
export function endedBeforeSummary(run: CheckRun, base?: CheckRun): boolean {
  return run.status === 'failed' && !run.unbuilt && lacksBaseSummary(run, base);
}

/**
 * What a run that exited 0 before its runner's summary says first in its output (the transcript shows a failed run's
 * first lines, the panel its output): why it failed with exit code 0.
 */
export const EXITED_BEFORE_SUMMARY = "[ended before its test runner's summary line, which the same command writes on the unchanged workspace: exit code 0, not counted as passed]";

/**
 * Whether a run that exited 0 did not pass: it lacks a summary its run on the unchanged workspace wrote
 * (lacksBaseSummary) — the code under test ended the process early (process.exit(0) in the middle of a mocha, jest or
 * node:test suite, std::process::exit(0) in a cargo test), and the cases after the last one named never ran. run.ts
 * records such a run as failed, its exit code 0, EXITED_BEFORE_SUMMARY first in its output; it then ended before its
 * summary (endedBeforeSummary). The loop has a base only for a command that failed once: a run without one is judged
 * by its exit code, as is one whose command writes no test summary.
 */
export function passedWithoutSummary(run: Pick<CheckRun, 'exitCode' | 'testSummary' | 'summaryKinds'>, base: CheckRun | undefined): boolean {
  return run.exitCode === 0 && lacksBaseSummary(run, base);
}
