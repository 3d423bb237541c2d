// src/core/checks/reportedFailures.ts: a test program that reports failed tests and still exits 0 (kgabis/parson's
// tests.c returned 0 whatever its assertions did) fails its check, the reporting line quoted first; every runner's
// passing output, and a count of other things that failed, pass as before.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCheck } from '../../src/core';
import { reportedFailureReader } from '../../src/core/checks/reportedFailures';

const lines = (...l: string[]) => l.join('\n');

/** The line the reader keeps of `output`, or null. */
function reported(output: string): string | null {
  const r = reportedFailureReader();
  for (const line of output.split('\n')) r.line(line);
  return r.first();
}

describe('checks: a run that exits 0 while its output reports failed tests', () => {
  it('reads counts of failed tests in the shapes harnesses print them, never a zero or a count of something else', () => {
    const parson = lines('Running parson tests', '75 json_parse_string("[1]") != NULL   - FAILED', 'Testing failing allocations: OK (tested 536 failing allocations)', 'Tests failed: 1', 'Tests passed: 348');
    assert.strictEqual(reported(parson), 'Tests failed: 1');
    assert.strictEqual(reported('50% tests passed, 1 tests failed out of 2'), '50% tests passed, 1 tests failed out of 2', "CTest's words");
    assert.strictEqual(reported('Failures: 2'), 'Failures: 2');
    assert.strictEqual(reported('# failed = 3'), '# failed = 3');
    assert.strictEqual(reported('ERROR: 2 test(s) failed'), 'ERROR: 2 test(s) failed');
    for (const passing of [
      lines('Running parson tests', 'Testing failing allocations: OK (tested 536 failing allocations)', 'Tests failed: 0', 'Tests passed: 349'),
      '100% tests passed, 0 tests failed out of 20',
      'Tests run: 3, Failures: 0, Errors: 0, Skipped: 0',
      '100%: Checks: 3, Failures: 0, Errors: 0',
      '3 Tests 0 Failures 0 Ignored',
      lines('ℹ tests 2', 'ℹ pass 2', 'ℹ fail 0'),
      'Tests:       2 passed, 2 total',
      '2 passed, 1 xfailed in 0.02s',
      'Failed: 0.5% of requests (a load test report)',
    ]) assert.strictEqual(reported(passing), null, passing);
  });

  it('runCheck: such a run is failed, exit code 0, the line quoted first; the same harness reporting none passes', async () => {
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-unit-reported-'));
    const printing = (out: string) => `node -e ${JSON.stringify(`process.stdout.write(${JSON.stringify(out)}, () => process.exit(0))`)}`;
    const failing = await runCheck({ command: printing(lines('Running tests', 'Tests failed: 1', 'Tests passed: 348', '')), cwd, round: 1 });
    assert.deepStrictEqual([failing.status, failing.passed, failing.exitCode], ['failed', false, 0]);
    assert.match(failing.output, /^\[exit code 0, but its output reports failed tests \("Tests failed: 1"\): not counted as passed\]\n/);
    const passing = await runCheck({ command: printing(lines('Running tests', 'Tests failed: 0', 'Tests passed: 349', '')), cwd, round: 1 });
    assert.deepStrictEqual([passing.status, passing.passed], ['passed', true]);
  });
});
