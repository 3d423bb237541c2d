// A failed check run as run.ts records it from an output (its test cases, whether a runner's summary came, whether
// code or a test did not build), for the unit tests that compare runs (baseline, fail-first, TSR) without running one.
import { buildFailed, hasTestSummary, readTestCases, type CheckRun } from '../../src/core';

/** A failed run of `npm test` that printed `output`; `extra` overrides what was read (the command, the status…). */
export function failedRun(output: string, extra: Partial<CheckRun> = {}): CheckRun {
  const tests = readTestCases(output);
  return {
    command: 'npm test',
    round: 0,
    status: 'failed',
    passed: false,
    exitCode: 1,
    durationMs: 1,
    output,
    outputChars: output.length,
    ...(tests ? { tests: tests.cases, ...(tests.listsPassed ? {} : { onlyFailuresNamed: true }) } : {}),
    testSummary: hasTestSummary(output),
    ...(buildFailed(output) ? { unbuilt: true as const } : {}),
    ...extra,
  };
}

/** A run of `command` as run.ts records it, passed or failed by its exit code, with nothing read from an output; `more` adds its parts. */
export function recordedRun(command: string, passed: boolean, more: Partial<CheckRun> = {}): CheckRun {
  return { command, round: 0, status: passed ? 'passed' : 'failed', passed, exitCode: passed ? 0 : 1, durationMs: 10, output: '', outputChars: 0, ...more };
}
