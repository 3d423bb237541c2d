// src/core/checks/testSummary.ts: a test run that ended before its runner's summary line (killed, crashed, or ended by
// the code under test) is never a failure as before, and the fix request says it ended early — with runners that name
// only their failures too, where nothing else shows the cases it never reached. Outputs as the runners write them.
import * as assert from 'assert';
import { endedBeforeSummary, failsAsBefore, fixRequest, hasTestSummary, runCheckLoop, summaryReader } from '../../src/core';
import { failedRun } from '../helpers/failedRun';
import { runAround } from '../helpers/longOutput';
import { calcProposal, calcWorkspace } from '../helpers/calcWorkspace';

const run = failedRun;

const lines = (...l: string[]) => l.join('\n');

/**
 * `cargo test --no-fail-fast`: one test binary per target and the doc tests, each ending with its `test result:` line;
 * the proposal adds tests/ffi.rs, whose binary crashes (SIGSEGV) before its result, and cargo goes on to the next.
 */
const cargo = (crash: boolean) =>
  lines(
    '   Compiling calc v0.1.0 (/w)',
    '    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.84s',
    '     Running unittests src/lib.rs (target/debug/deps/calc-1f2e3d4c5b6a7980)',
    '',
    'running 2 tests',
    'test tests::adds ... ok',
    'test tests::subs ... ok',
    '',
    'test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s',
    '',
    ...(crash
      ? [
          '     Running tests/ffi.rs (target/debug/deps/ffi-0a1b2c3d4e5f6071)',
          '',
          'running 2 tests',
          'error: test failed, to rerun pass `--test ffi`',
          '',
          'Caused by:',
          "  process didn't exit successfully: `/w/target/debug/deps/ffi-0a1b2c3d4e5f6071` (signal: 11, SIGSEGV: invalid memory reference)",
        ]
      : []),
    '     Running tests/legacy.rs (target/debug/deps/legacy-9f8e7d6c5b4a3921)',
    '',
    'running 1 test',
    'test legacy_rounding ... FAILED',
    '',
    'failures:',
    '',
    '---- legacy_rounding stdout ----',
    '',
    "thread 'legacy_rounding' panicked at tests/legacy.rs:4:5:",
    'assertion `left == right` failed',
    '  left: 3',
    ' right: 4',
    'note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace',
    '',
    '',
    'failures:',
    '    legacy_rounding',
    '',
    'test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s',
    '',
    'error: test failed, to rerun pass `--test legacy`',
    '   Doc-tests calc',
    '',
    'running 0 tests',
    '',
    'test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s',
    '',
    ...(crash ? ['error: 2 targets failed:', '    `--test ffi`', '    `--test legacy`'] : ['error: 1 target failed:', '    `--test legacy`']),
  );

/** Each runner's output on the unchanged workspace (one old failure, the run complete), and with the proposal ending it mid-run. */
const RUNS: Record<string, { complete: string; ended: string }> = {
  'pytest -q (os._exit in a test)': {
    complete: lines(
      'F...                                                                     [100%]',
      '=================================== FAILURES ===================================',
      '____________________________________ test_a ____________________________________',
      '',
      '    def test_a():',
      '>       assert 1 == 2',
      'E       assert 1 == 2',
      '',
      'test_calc.py:3: AssertionError',
      '=========================== short test summary info ============================',
      'FAILED test_calc.py::test_a - assert 1 == 2',
      '1 failed, 3 passed in 1.60s',
    ),
    ended: 'F.',
  },
  "mocha's dot reporter (process.exit in the code under test)": {
    complete: lines('', '', '  !...', '', '  3 passing (8ms)', '  1 failing', '', '  1) calc', '       adds:', '', '      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:', '', '2 !== 3', '', '      at Context.<anonymous> (t.test.js:3:27)', ''),
    ended: lines('', '', '  !.'),
  },
  "mocha's spec reporter": {
    complete: lines('', '', '  calc', '    1) adds', '    ✔ subs', '    ✔ muls', '    ✔ divs', '', '', '  3 passing (9ms)', '  1 failing', '', '  1) calc', '       adds:', '     AssertionError: 2 !== 3'),
    ended: lines('', '', '  calc', '    1) adds', '    ✔ subs'),
  },
  "RSpec's progress (exit! in an example)": {
    complete: lines('.F..', '', 'Failures:', '', '  1) Calc adds', '     Failure/Error: expect(1 + 1).to eq(3)', '', 'Finished in 0.01 seconds (files took 0.08 seconds to load)', '4 examples, 1 failure', '', 'Failed examples:', '', 'rspec ./spec/calc_spec.rb:4 # Calc adds'),
    ended: '.F',
  },
  'go test without -v (os.Exit in a test)': {
    complete: lines('--- FAIL: TestLegacy (0.00s)', '    calc_test.go:9: legacy rounding, known broken', 'FAIL', 'FAIL\texample.com/calc\t0.004s', 'FAIL'),
    ended: lines('--- FAIL: TestLegacy (0.00s)', '    calc_test.go:9: legacy rounding, known broken', 'exit status 1', 'FAIL\texample.com/calc\t0.004s', 'FAIL'),
  },
  'go test ./... (a panic in one package, the other complete)': {
    complete: lines('--- FAIL: TestLegacy (0.00s)', '    calc_test.go:9: legacy rounding, known broken', 'FAIL', 'FAIL\texample.com/calc\t0.004s', 'ok  \texample.com/calc/util\t0.002s', 'FAIL'),
    ended: lines(
      '--- FAIL: TestLegacy (0.00s)',
      '    calc_test.go:9: legacy rounding, known broken',
      'FAIL',
      'FAIL\texample.com/calc\t0.004s',
      '--- FAIL: TestSplit (0.00s)',
      'panic: runtime error: index out of range [3] with length 3 [recovered]',
      '\tpanic: runtime error: index out of range [3] with length 3',
      '',
      'goroutine 7 [running]:',
      'testing.tRunner.func1.2({0x5180a0, 0xc000016138})',
      'exit status 2',
      'FAIL\texample.com/calc/util\t0.003s',
      'FAIL',
    ),
  },
  'cargo test (a test that overflows its stack)': {
    complete: lines('running 3 tests', 'test tests::adds ... FAILED', 'test tests::subs ... ok', 'test tests::muls ... ok', '', 'failures:', '', 'failures:', '    tests::adds', '', 'test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s'),
    ended: lines('running 3 tests', 'test tests::adds ... FAILED', '', "thread 'tests::muls' has overflowed its stack", "fatal runtime error: stack overflow", 'error: test failed, to rerun pass `--lib`', '', 'Caused by:', "  process didn't exit successfully: `/w/target/debug/deps/calc-1f2e` (signal: 6, SIGABRT: process abort signal)"),
  },
  'cargo test --no-fail-fast (a SIGSEGV in one of its test binaries, the others complete)': { complete: cargo(false), ended: cargo(true) },
  "jest (killed: the OOM killer's SIGKILL)": {
    complete: lines('FAIL tests/calc.test.js', '  ● calc › adds', '', '    expect(received).toBe(expected)', '', 'Tests:       1 failed, 2 passed, 3 total', 'Time:        0.5 s'),
    ended: lines('FAIL tests/calc.test.js', '  ● calc › adds', '', '    expect(received).toBe(expected)'),
  },
  "unittest (os._exit in a test)": {
    complete: lines('F...', '======================================================================', 'FAIL: test_a (test_calc.T.test_a)', '----------------------------------------------------------------------', 'AssertionError: 2 != 3', '', '----------------------------------------------------------------------', 'Ran 4 tests in 0.001s', '', 'FAILED (failures=1)'),
    ended: 'F.',
  },
};

describe('checks: a run that ended before its test runner\'s summary line', () => {
  it('each runner: the complete output holds its summary, the one that ended early does not', () => {
    for (const [runner, o] of Object.entries(RUNS)) {
      assert.strictEqual(hasTestSummary(o.complete), true, runner);
      assert.strictEqual(hasTestSummary(o.ended), false, runner);
    }
  });

  it('each runner: ended early is never a failure as before, whatever it named; the complete run failing the same way is', () => {
    for (const [runner, o] of Object.entries(RUNS)) {
      const base = run(o.complete);
      assert.strictEqual(failsAsBefore(run(o.complete), base), true, `${runner}: the control`);
      assert.strictEqual(endedBeforeSummary(run(o.ended), base), true, runner);
      assert.strictEqual(failsAsBefore(run(o.ended), base), false, runner);
    }
  });

  it('the fix request says the run ended before its summary, before what the runner reported', () => {
    const o = RUNS['go test without -v (os.Exit in a test)'];
    const ended = run(o.ended);
    const request = fixRequest([ended], 1, 2, [], [], () => run(o.complete));
    assert.match(request, /\(exited with code 1\)\nThe run ended before its test runner's summary line \(mocha's "N passing", pytest's "N passed in …", a Go test binary's PASS\/FAIL…\), which it writes on the unchanged workspace: a step before the tests failed, or the run was killed, crashed, or the code under test ended the process \(process\.exit, os\._exit, os\.Exit, a panic\)\. The test cases after the last one named never ran, so a failure of theirs is not in the output\.\nTest cases the runner reported: 1 failed/);
    assert.doesNotMatch(fixRequest([run(o.complete)], 1, 2, [], [], () => run(o.complete)), /ended before/);
    assert.doesNotMatch(fixRequest([ended], 1, 2), /ended before/, 'nothing to compare with: nothing claimed');
  });

  it('nothing is claimed without the unchanged workspace\'s summary (a script of its own, a linter), nor for a build failure or a time limit', () => {
    // a project's own script marks its cases ✔ / ✖ and writes no summary, on the unchanged workspace too
    const script = (...cases: string[]) => run(lines(...cases));
    assert.strictEqual(failsAsBefore(script('✖ legacy', '✔ adds', '✔ flag'), script('✖ legacy', '✔ adds', '✔ flag')), true);
    const lint = run('src/a.ts:3:1 error Unexpected any');
    assert.strictEqual(endedBeforeSummary(lint, run('src/a.ts:3:1 error Unexpected any')), false);
    const o = RUNS['pytest -q (os._exit in a test)'];
    assert.strictEqual(endedBeforeSummary(run(`${o.ended}\nImportError while importing test module 'tests/test_x.py'.\n!!! Interrupted: 1 error during collection !!!`), run(o.complete)), false, 'did not build: told as that');
    assert.strictEqual(endedBeforeSummary(run(o.ended, { status: 'timeout', exitCode: null }), run(o.complete)), false, 'killed at the time limit: told as that');
    assert.strictEqual(endedBeforeSummary({ ...run(o.ended), testSummary: undefined }, run(o.complete)), false, 'a run recorded before the summary was read');
  });

  it('the summary read line by line: a Go package line after its binary\'s own verdict, per package', () => {
    const read = (...l: string[]) => {
      const r = summaryReader();
      for (const line of l) r.line(line);
      return r.seen();
    };
    assert.strictEqual(read('ok  \texample.com/a\t0.01s', 'ok  \texample.com/b\t(cached)'), true, 'a passing package writes no verdict without -v');
    assert.strictEqual(read('=== RUN   TestX', '--- PASS: TestX (0.00s)', 'PASS', 'ok  \texample.com/a\t0.01s'), true);
    assert.strictEqual(read('FAIL', 'FAIL\texample.com/a\t0.01s', 'exit status 1', 'FAIL\texample.com/b\t0.01s'), false, "b's binary ended early");
    assert.strictEqual(read('FAIL\texample.com/a [build failed]'), false, 'no package result: no summary');
    // cargo's lines (stderr) and a test binary's (stdout) arrive on two pipes: a binary's result may be read after the
    // next binary's `Running` line
    const running = (target: string) => `     Running ${target} (target/debug/deps/${target.replace(/\W/g, '_')}-1f2e)`;
    const result = 'test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s';
    assert.strictEqual(read(running('unittests src/lib.rs'), running('tests/api.rs'), result, result), true, 'each binary wrote its result');
    assert.strictEqual(read(running('unittests src/lib.rs'), result, running('tests/api.rs')), false, "api's binary ended before its result");
    assert.strictEqual(read(running('unittests src/lib.rs'), result, '   Doc-tests calc'), false, 'the doc tests ended before theirs');
    assert.strictEqual(read('     Running `target/debug/calc`', result), true, "cargo run's line starts no test binary");
    assert.strictEqual(read('Running calc.CalcTest', 'Tests run: 3, Failures: 0, Errors: 0, Skipped: 0'), true, "Maven Surefire's line is no cargo one");
  });

  it("a cargo test binary that crashed only in the middle of 3 MB of output, the others' results around it: the run ended before its summary", async () => {
    const o = RUNS['cargo test --no-fail-fast (a SIGSEGV in one of its test binaries, the others complete)'];
    const [ended, base] = [await runAround(o.ended), await runAround(o.complete)];
    assert.ok(!ended.output.includes('SIGSEGV') && ended.outputChars > 3_000_000, 'the kept output left it out');
    assert.strictEqual(base.testSummary, true, 'the control');
    assert.strictEqual(endedBeforeSummary(ended, base), true);
    assert.strictEqual(failsAsBefore(ended, base), false);
  });
});

describe('checks: the loop with a run that ended before its summary', () => {
  // a `go test` whose TestLegacy always fails; the proposal makes a later test call os.Exit(1) (src/calc.js `exits`)
  const check = (() => {
    const o = RUNS['go test without -v (os.Exit in a test)'];
    const script = `console.log(require('./src/calc').exits ? ${JSON.stringify(o.ended)} : ${JSON.stringify(o.complete)}); process.exit(1);`;
    return `node -e ${JSON.stringify(script)}`;
  })();

  it('the old failure alone in what it named, but the run ended early: a fix round is asked, saying so', async function () {
    if (process.platform === 'win32') this.skip();
    const files = calcProposal('exports.add = (a, b) => a + b;\nexports.exits = true;\n');
    const requests: string[] = [];
    const { outcome } = await runCheckLoop({ commands: [check], fixRounds: 1, workspace: calcWorkspace(), capeFolder: 'cape', files, askFix: async (r) => (requests.push(r), 'Not mine.') });
    assert.ok(!outcome.failsAsBefore, 'not a failure as before');
    assert.strictEqual(outcome.baseline![0].testSummary, true);
    assert.strictEqual(outcome.runs[0].testSummary, false);
    assert.strictEqual(requests.length, 1);
    assert.match(requests[0], /The run ended before its test runner's summary line/);
  });
});
