// Whether a check's output holds a test runner's summary line — its report that test cases ran (RAN_TESTS) — read line
// by line as the output arrives: run.ts feeds it every line of the whole stream, as it feeds the test case reader
// (testCases.ts), so a summary in the part of a long output its kept head and tail leave out counts (CheckRun
// .testSummary), in a few flags of memory whatever the output's length. testsRan reads it: a failing run without one
// stopped before its tests (metrics/testStatus.ts).
import type { CheckRun } from './types';
import { GO_PACKAGE } from './testLineFormats';

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
  /^test result: /,
  GO_PACKAGE,
  /\b[1-9]\d* tests? completed\b|\bTests run: [1-9]/,
  /\bTotal tests:\s*[1-9]|\b(?:Passed|Failed):\s+[1-9]/,
];

/** Reads an output's lines as they arrive (`line`), and tells at the end whether a summary line came (`seen`). */
export interface SummaryReader {
  line: (line: string) => void;
  seen: () => boolean;
}

export function summaryReader(): SummaryReader {
  let seen = false;
  return {
    line: (line) => {
      if (!seen && RAN_TESTS.some((r) => r.test(line))) seen = true;
    },
    seen: () => seen,
  };
}

/** Whether a whole text holds a test runner's summary line (summaryReader over its lines). */
export function hasTestSummary(text: string): boolean {
  const reader = summaryReader();
  for (const line of text.split('\n')) reader.line(line);
  return reader.seen();
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
