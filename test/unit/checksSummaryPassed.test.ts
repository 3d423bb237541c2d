// src/core/checks/testSummary.ts, a run that exits 0: a test run the code under test ended with process.exit(0) in
// the middle of the suite exits 0 without its runner's summary line. Where the same command's run on the unchanged
// workspace (the baseline) wrote that kind of summary, the run did not pass: it ended before its runner's summary.
// A command that is no test runner (tsc, eslint, `vite build`), a summary its runner writes only with a failure
// (Gradle's), and a run with no baseline are judged as before. Outputs as the runners write them.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { endedBeforeSummary, passedWithoutSummary, runCheck, runCheckLoop, summaryReader, type CheckRun } from '../../src/core';
import { calcProposal, calcWorkspace } from '../helpers/calcWorkspace';

const lines = (...l: string[]) => l.join('\n');

/** A run of `output` that exited with `code`, its summary read as run.ts reads it (runCheck's status aside). */
function run(output: string, code: number): CheckRun {
  const r = summaryReader();
  for (const line of output.split('\n')) r.line(line);
  const kinds = r.kinds();
  return {
    command: 'npm test',
    round: 1,
    status: code === 0 ? 'passed' : 'failed',
    passed: code === 0,
    exitCode: code,
    durationMs: 1,
    output,
    outputChars: output.length,
    testSummary: r.seen(code === 0),
    ...(kinds.length ? { summaryKinds: kinds } : {}),
  };
}

/** Each runner's whole passing output, and its output when the code under test called process.exit(0) after one test. */
const RUNNERS: Record<string, { complete: string; ended: string }> = {
  "mocha's spec reporter": { complete: lines('', '  calc', '    ✔ adds', '    ✔ subs', '', '  2 passing (5ms)', ''), ended: lines('', '  calc', '    ✔ adds') },
  jest: {
    complete: lines('PASS tests/calc.test.js', '  calc', '    ✓ adds (2 ms)', '    ✓ subs', '', 'Test Suites: 1 passed, 1 total', 'Tests:       2 passed, 2 total', 'Snapshots:   0 total', 'Time:        0.51 s'),
    ended: lines('  calc', '    ✓ adds (2 ms)'),
  },
  'node --test': {
    complete: lines('✔ adds (0.51ms)', '✔ subs (0.12ms)', 'ℹ tests 2', 'ℹ suites 0', 'ℹ pass 2', 'ℹ fail 0', 'ℹ cancelled 0', 'ℹ skipped 0', 'ℹ todo 0', 'ℹ duration_ms 45.1'),
    ended: '✔ adds (0.51ms)',
  },
  vitest: {
    complete: lines('', ' RUN  v1.6.0 /w', '', ' ✓ test/calc.test.ts (2 tests) 3ms', '', ' Test Files  1 passed (1)', '      Tests  2 passed (2)', '   Start at  10:00:00', '   Duration  310ms'),
    ended: lines('', ' RUN  v1.6.0 /w', ''),
  },
  'pytest -q': { complete: lines('..                                                                       [100%]', '2 passed in 0.01s'), ended: '.' },
  unittest: { complete: lines('..', '----------------------------------------------------------------------', 'Ran 2 tests in 0.000s', '', 'OK'), ended: '.' },
  "RSpec's progress": { complete: lines('..', '', 'Finished in 0.00121 seconds (files took 0.05 seconds to load)', '2 examples, 0 failures'), ended: '.' },
  'cargo test -q (std::process::exit(0) in a test)': {
    complete: lines('', 'running 2 tests', '..', 'test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s', ''),
    ended: lines('', 'running 2 tests', '.'),
  },
};

/** A failing run of each, on the unchanged workspace: its summary says what failed. */
const FAILING_BASE: Record<string, string> = {
  "mocha's spec reporter": lines('', '  calc', '    1) adds', '    ✔ subs', '', '  1 passing (5ms)', '  1 failing', '', '  1) calc', '       adds:', '     AssertionError: 2 !== 3'),
  'pytest -q': lines('F.                                                                       [100%]', 'FAILED test_calc.py::test_adds - assert 2 == 3', '1 failed, 1 passed in 0.02s'),
};

describe('checks: a run that exits 0 before its runner\'s summary, which the unchanged workspace\'s run writes', () => {
  it('each runner: exit 0 without the summary the baseline wrote did not pass, and ended before its summary', () => {
    for (const [runner, o] of Object.entries(RUNNERS)) {
      const base = run(o.complete, 0);
      assert.strictEqual(base.testSummary, true, `${runner}: the control`);
      assert.strictEqual(passedWithoutSummary(run(o.complete, 0), base), false, `${runner}: the complete run passes`);
      assert.strictEqual(passedWithoutSummary(run(o.ended, 0), base), true, runner);
      assert.strictEqual(endedBeforeSummary({ ...run(o.ended, 0), status: 'failed', passed: false }, base), true, `${runner}: told as ended before its summary`);
    }
    for (const [runner, failing] of Object.entries(FAILING_BASE)) assert.strictEqual(passedWithoutSummary(run(RUNNERS[runner].ended, 0), run(failing, 1)), true, `${runner}: a failing baseline`);
  });

  it('only the summary kinds the baseline wrote: `node --test && pytest -q` with pytest ended early did not pass (nor end as before), though node wrote its own', () => {
    const both = (pytest: string) => lines(RUNNERS['node --test'].complete, pytest);
    const ended = run(both(RUNNERS['pytest -q'].ended), 0);
    assert.strictEqual(ended.testSummary, true, "node:test's summary is there");
    assert.strictEqual(passedWithoutSummary(ended, run(both(RUNNERS['pytest -q'].complete), 0)), true);
    assert.strictEqual(passedWithoutSummary(run(both(RUNNERS['pytest -q'].complete), 0), run(both(RUNNERS['pytest -q'].complete), 0)), false);
    // a failed run the same: pytest ended early (os._exit(1)) after node:test's summary, where both wrote theirs before
    const failedBase = run(both(FAILING_BASE['pytest -q']), 1);
    assert.strictEqual(endedBeforeSummary(run(both('F'), 1), failedBase), true);
    assert.strictEqual(endedBeforeSummary(run(both(FAILING_BASE['pytest -q']), 1), failedBase), false, 'the control');
  });

  it('no test runner (tsc, eslint, vite build), a summary written only with a failure (Gradle), no baseline: judged as before', () => {
    const vite = lines('vite v5.2.0 building for production...', '✓ 34 modules transformed.', 'dist/index.html                  0.46 kB │ gzip:  0.30 kB', 'dist/assets/index-4sK2Y1bN.js  142.50 kB │ gzip: 45.90 kB', '✓ built in 1.20s');
    for (const [check, out] of Object.entries({ tsc: '', eslint: '', 'vite build': vite })) {
      assert.strictEqual(run(out, 0).testSummary, false, `${check} writes no test summary`);
      assert.strictEqual(passedWithoutSummary(run('', 0), run(out, 0)), false, check);
      assert.strictEqual(passedWithoutSummary(run('', 0), run(`${out}\nsrc/a.ts(3,1): error TS2304: Cannot find name 'x'.`, 2)), false, `${check}, failing on the unchanged workspace`);
    }
    const gradleFailed = lines('> Task :test FAILED', '', 'CalcTest > adds() FAILED', '    org.opentest4j.AssertionFailedError at CalcTest.java:9', '', '3 tests completed, 1 failed', '', 'FAILURE: Build failed with an exception.');
    const gradlePassed = lines('> Task :compileTestJava', '> Task :test', '', 'BUILD SUCCESSFUL in 2s', '4 actionable tasks: 2 executed, 2 up-to-date');
    assert.strictEqual(run(gradleFailed, 1).testSummary, true, 'the control');
    assert.strictEqual(passedWithoutSummary(run(gradlePassed, 0), run(gradleFailed, 1)), false, 'Gradle writes no summary when every test passes');
    assert.strictEqual(passedWithoutSummary(run(RUNNERS['pytest -q'].ended, 0), undefined), false, 'no baseline');
    assert.strictEqual(passedWithoutSummary(run(RUNNERS['pytest -q'].ended, 0), { ...run(RUNNERS['pytest -q'].complete, 0), summaryKinds: undefined }), true, 'a baseline recorded before its kinds were read: its summary alone');
  });

  it('runCheck with the baseline: a run that exits 0 without its summary is failed, exit code 0, saying why first', async () => {
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-unit-exit0-'));
    const printing = (out: string) => `node -e ${JSON.stringify(`process.stdout.write(${JSON.stringify(out)}, () => process.exit(0))`)}`;
    const base = await runCheck({ command: printing(RUNNERS["mocha's spec reporter"].complete), cwd, round: 0 });
    assert.deepStrictEqual([base.status, base.testSummary, base.summaryKinds], ['passed', true, ['counts']]);
    const ended = await runCheck({ command: printing(RUNNERS["mocha's spec reporter"].ended), cwd, round: 1, base });
    assert.deepStrictEqual([ended.status, ended.passed, ended.exitCode], ['failed', false, 0]);
    assert.match(ended.output, /^\[ended before its test runner's summary line, which the same command writes on the unchanged workspace: exit code 0, not counted as passed\]\n/);
    assert.strictEqual((await runCheck({ command: printing(RUNNERS["mocha's spec reporter"].ended), cwd, round: 1 })).status, 'passed', 'no baseline');
  });
});

describe('checks: the loop with a run that exits 0 before its summary', () => {
  // mocha: src/calc.js's `broken` fails a test; its `exits` makes the code under test call process.exit(0) after one
  const check = (() => {
    const o = RUNNERS["mocha's spec reporter"];
    const script = `const c = require('./src/calc'); if (c.broken) { console.log(${JSON.stringify(FAILING_BASE["mocha's spec reporter"])}); process.exit(1); } console.log(c.exits ? ${JSON.stringify(o.ended)} : ${JSON.stringify(o.complete)});`;
    return `node -e ${JSON.stringify(script)}`;
  })();

  it('the fix ends the suite with process.exit(0): the checks do not pass, and the next fix request says it ended early', async function () {
    if (process.platform === 'win32') this.skip();
    const files = calcProposal('exports.add = (a, b) => a - b;\nexports.broken = true;\n');
    const requests: string[] = [];
    const fix = '<file path="src/calc.js">\nexports.add = (a, b) => a + b;\nexports.exits = true;\n</file>';
    const { outcome } = await runCheckLoop({ commands: [check], fixRounds: 2, workspace: calcWorkspace(), capeFolder: 'cape', files, askFix: async (r) => (requests.push(r), requests.length === 1 ? fix : 'Not mine.') });
    assert.strictEqual(outcome.baseline![0].status, 'passed', 'the unchanged workspace passes, with its summary');
    assert.strictEqual(outcome.runs[1].exitCode, 0);
    assert.strictEqual(outcome.runs[1].status, 'failed');
    assert.strictEqual(outcome.passed, false);
    assert.strictEqual(requests.length, 2, 'a second fix round is asked');
    assert.match(requests[1], /\(exited with code 0\)\nThe run ended before its test runner's summary line/);
  });
});
