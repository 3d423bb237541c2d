// One run of a check command as the checks domain records it (CheckRun: how it ended, its trimmed output, the test
// cases it named, what did not build or load) and its parts (CheckStatus, TestCaseResult); split from ./types.ts,
// which re-exports them with the loop's configuration and outcome.
import type { ByTarget, CargoTarget } from './cargoTargetMatch';
import type { CTestPrograms } from './ctestPrograms';
import type { MissingName } from '../model/types';

/**
 * How one run ended: passed (exit 0), failed (another exit code or a signal), timeout (killed at the time limit),
 * cancelled (Stop), error (it could not be started at all).
 */
export type CheckStatus = 'passed' | 'failed' | 'timeout' | 'cancelled' | 'error';

/** One test case named in a check's output (testCases.ts says which runners' outputs are recognised). */
export interface TestCaseResult {
  name: string;
  passed: boolean;
  /** A failed case whose own message said only that this name was missing (failureMessages.ts); absent otherwise. */
  missing?: MissingName;
  /** A failed case's own message line as its runner wrote it, cut (failureMessages.ts FailureRecord.said); absent when none was read. */
  message?: string;
  /**
   * On a fail-first run (failFirst.ts): a failed case that failed on the unchanged workspace without DevA's test files
   * too (the loop's run there, baseline.ts) — a failure already there, not one of DevA's tests failing first. Absent
   * otherwise, and where the command never failed on the proposal (no such run to compare with).
   */
  already?: true;
}

/** One run of one check command in one round. */
export interface CheckRun {
  command: string;
  /** 0: DevA's proposal as first written; n: after fix round n. */
  round: number;
  status: CheckStatus;
  passed: boolean;
  /** The process's exit code (null when it was killed by a signal, timed out, was cancelled or never started). */
  exitCode: number | null;
  durationMs: number;
  /**
   * The output (stdout and stderr interleaved, colours removed, the scratch folder's path removed so paths read
   * workspace-relative), trimmed for the model: lines naming a file and line first, then the end of the rest.
   */
  output: string;
  /** Characters of output the process wrote in all (the kept part is capped). */
  outputChars: number;
  /**
   * Test cases recognised in the whole output, in order of first mention (absent when none was recognised). This and
   * the paths below are workspace-relative: a run in a sub-project's folder names its test files from there
   * (runFolder.ts).
   */
  tests?: TestCaseResult[];
  /**
   * The output names only failing cases (pytest's summary, `go test` without -v): a case it does not name did not
   * fail. Absent when it names passing ones too, or none.
   */
  onlyFailuresNamed?: boolean;
  /** The output named more test cases than a run keeps (testCases.ts MAX_NAMED): `tests` lacks the later ones. */
  testsIncomplete?: true;
  /**
   * Whether the whole output, read as it arrived, holds a test runner's summary line (testSummary.ts: mocha's "3
   * passing", pytest's "1 failed, 2 passed in 0.41s", each Go package's line after its test binary's verdict, each
   * cargo test binary's `test result:`…), wherever the kept output was cut: false for a test run that ended early
   * (testSummary.ts endedBeforeSummary). Absent on a run recorded before it was read so (testsRan then reads `output`).
   */
  testSummary?: boolean;
  /**
   * The kinds of summary line the whole output held (testSummary.ts SUMMARY_KINDS: `counts`, `cargo`, `go`…); absent
   * when none, or on a run recorded before they were read. A run that exits 0 without a kind its run on the unchanged
   * workspace wrote did not pass (testSummary.ts passedWithoutSummary).
   */
  summaryKinds?: string[];
  /**
   * A failed run whose output, read whole as it arrived, shows that code or a test did not build or load (buildFailures.ts: Go's
   * `[build failed]`, cargo's `could not compile`, pytest's collection errors, a compilation error of Maven, Gradle
   * or .NET, jest's `Test suite failed to run`, a JavaScript test file that did not load…). Absent otherwise.
   */
  unbuilt?: true;
  /**
   * The test files the whole output, read as it arrived, reports passed as a whole without naming their cases
   * (testCases.ts passedFileReader: jest's `PASS file`, vitest's `✓ file (3 tests)`), wherever the kept output was cut.
   * Set on a run that did not pass; absent on one that passed, or was recorded before it was read so (runPassedFiles
   * then reads `output`).
   */
  passedTestFiles?: string[];
  /**
   * The Go packages (by import path) and their folders that the whole output, read as it arrived, says `go test`
   * could not build (buildFailures.ts: `FAIL example.com/calc [build failed]`, the compiler naming `calc/sq_test.go:6:5`),
   * wherever the kept output was cut. Set on a run that did not pass; absent on one that passed, or was recorded
   * before it was read so (runUnbuiltGoPackages and runUnbuiltGoFolders then read `output`).
   */
  unbuiltGoPackages?: string[];
  unbuiltGoFolders?: string[];
  /** The cargo integration-test targets it could not compile (`(test "test_mul")`: buildFailures.ts), as the Go ones. */
  unbuiltCargoTests?: CargoTarget[];
  /** The test files a JavaScript runner reported did not load, no test of theirs run (buildFailures.ts), as the Go ones. */
  unbuiltTestFiles?: string[];
  /** A `cargo test` run once per test target (fail-first: cargoTargets.ts): its targets, those not compiled, its cases. */
  byTarget?: ByTarget;
  /**
   * What CTest said of its test programs (ctestPrograms.ts), read from the whole output as it arrived: how many passed
   * and failed, and those it could not run (not built). Set on a run that did not pass and whose output was CTest's.
   */
  ctestPrograms?: CTestPrograms;
  /**
   * The run failed before it reached the tests it was to show (notReached.ts): a fail-first run that ran none of
   * DevA's tests (failFirstNotReached; set as it ends, so its event says so), or — on the runs TSR reads
   * (metrics/checkRuns.ts lastRuns), never stored — a run on the proposal that ran no test where the unchanged
   * workspace's ran none either (proposalNotReached). Absent otherwise.
   */
  testsNotReached?: true;
  /**
   * On the runs TSR reads (metrics/checkRuns.ts lastRuns), never stored: a run on the proposal that failed as the
   * unchanged workspace's run did (baseline.ts failsAsBefore: every failing test case or problem already there, none
   * missing) — nothing it ran failed anew. Absent otherwise.
   */
  failedAsBefore?: true;
}
