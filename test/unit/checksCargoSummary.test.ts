// src/core/checks/testSummary.ts, cargo's test binaries: `cargo test -q` writes no `Running …` line, only each binary's
// `running N tests`, its dots and its `test result:`, so a binary that crashed is told by a `running N tests` without
// its result; and a `harness = false` test binary writes neither, which is no crash when the run exited 0. Outputs as
// cargo 1.95 writes them (a crate with src/lib.rs, tests/api.rs, tests/crash.rs, tests/plain.rs with `harness =
// false`, and a doc test).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { endedBeforeSummary, hasTestSummary, runCheck, summaryReader, type CheckRun } from '../../src/core';

const lines = (...l: string[]) => l.join('\n');
const ok = (n: number) => `test result: ok. ${n} passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s`;

/** `cargo test -q --no-fail-fast`, the old failure in tests/api.rs; `crash`: tests/crash.rs aborts in its second test. */
const quiet = (crash: boolean) =>
  lines(
    '',
    'running 2 tests',
    '..',
    ok(2),
    '',
    '',
    'running 1 test',
    'F',
    'failures:',
    '',
    '---- api stdout ----',
    "thread 'api' panicked at tests/api.rs:1:20:",
    'assertion `left == right` failed',
    '',
    'failures:',
    '    api',
    '',
    'test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s',
    '',
    'error: test failed, to rerun pass `--test api`',
    '',
    '',
    'running 2 tests',
    ...(crash
      ? ['.error: test failed, to rerun pass `--test crash`', '', 'Caused by:', "  process didn't exit successfully: `/w/target/debug/deps/crash-e8b3fedf87889287 --quiet` (signal: 6, SIGABRT: process abort signal)"]
      : ['..', ok(2), '']),
    'plain harness ok',
    '',
    'running 1 test',
    '.',
    ok(1),
    '',
    'all doctests ran in 0.72s; merged doctests compilation took 0.69s',
    ...(crash ? ['error: 2 targets failed:', '    `--test api`', '    `--test crash`'] : ['error: 1 target failed:', '    `--test api`']),
  );

/** `cargo test`, every binary passing: tests/plain.rs (`harness = false`) writes its own line, no `running N tests`. */
const PASSING = lines(
  '    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.02s',
  '     Running unittests src/lib.rs (target/debug/deps/cprobe-67ebb4a467b46667)',
  '',
  'running 2 tests',
  'test tests::adds ... ok',
  'test tests::subs ... ok',
  '',
  ok(2),
  '',
  '     Running tests/api.rs (target/debug/deps/api-c7c66eec0ea511bf)',
  '',
  'running 1 test',
  'test api ... ok',
  '',
  ok(1),
  '',
  '     Running tests/plain.rs (target/debug/deps/plain-72c277f26126c8f3)',
  'plain harness ok',
  '   Doc-tests cprobe',
  '',
  'running 1 test',
  'test src/lib.rs - add (line 3) ... ok',
  '',
  ok(1),
  '',
  'all doctests ran in 0.54s; merged doctests compilation took 0.53s',
);

/** A failed run of `output` as run.ts records it. */
function failed(output: string): CheckRun {
  return { command: 'cargo test -q --no-fail-fast', round: 0, status: 'failed', passed: false, exitCode: 101, durationMs: 1, output, outputChars: output.length, testSummary: hasTestSummary(output) };
}

/** `output` written by a command that then exits with `code`, read by runCheck (the whole stream, line by line). */
function runPrinting(output: string, code: number): Promise<CheckRun> {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-unit-cargo-'));
  const script = `process.stdout.write(process.env.OUT, () => process.exit(${code}));`;
  return runCheck({ command: `node -e ${JSON.stringify(script)}`, cwd, round: 0, env: { ...process.env, OUT: output } });
}

describe("checks: cargo's test binaries, counted from what cargo writes", () => {
  it('cargo test -q: a binary that crashed after its `running N tests` ended the run before its summary', () => {
    assert.strictEqual(hasTestSummary(quiet(false)), true, 'the control: every binary wrote its result');
    assert.strictEqual(hasTestSummary(quiet(true)), false);
    const base = failed(quiet(false));
    assert.strictEqual(endedBeforeSummary(failed(quiet(true)), base), true);
  });

  it('`running N tests` opens a binary only as a line of its own: deno\'s `running 2 tests from ./a_test.ts` does not', () => {
    const read = (...l: string[]) => {
      const r = summaryReader();
      for (const line of l) r.line(line);
      return r.seen();
    };
    assert.strictEqual(read('running 2 tests from ./a_test.ts', 'adds ... ok (1ms)', 'ok | 2 passed | 0 failed (5ms)'), true);
    assert.strictEqual(read('running 2 tests', '..', ok(2), 'running 1 test'), false);
  });

  it('a `harness = false` test binary, which writes no `running N tests` nor result, is no crash in a run that exited 0', async () => {
    const passed = await runPrinting(PASSING, 0);
    assert.strictEqual(passed.status, 'passed');
    assert.strictEqual(passed.testSummary, true);
    // the same lines in a run that failed: a binary cargo started that wrote nothing of libtest's may have crashed first
    const crashed = await runPrinting(PASSING, 101);
    assert.strictEqual(crashed.testSummary, false);
  });
});
