// What a run says of itself, read from the whole of its output as it arrives (run.ts): a fact stated only in the
// middle of an output longer than the kept one (output.ts KeptOutput, ~1 MB) counts as much as one in its head or tail.
import * as assert from 'assert';
import { type CheckRun } from '../../src/core';
import { testStatus } from '../../src/core/metrics/testStatus';
import { runAround as around } from '../helpers/longOutput';

describe('checks: what a run says of its build and its tests, from all of its output', () => {
  it('a build failure only in the middle of 3 MB of output, which the kept output leaves out: the run did not build', async () => {
    for (const marker of ['error: could not compile `calc` (lib test) due to 1 previous error', '[ERROR] COMPILATION ERROR :', 'FAIL\texample.com/calc [build failed]']) {
      const run = await around(marker);
      assert.ok(run.outputChars > 3_000_000 && !run.output.includes(marker.slice(0, 12)), 'the kept output left it out');
      assert.strictEqual(run.unbuilt, true, marker);
    }
    const fine = await around('log: all compiled');
    assert.strictEqual(fine.unbuilt, undefined);
  });

  it("a runner's summary only in the middle of 3 MB of output (a teardown's log after it): tests ran, so a test it does not name failed", async () => {
    const test = { criterion: 'multiplies', file: 'tests/test_calc.py', name: 'test_mul' };
    const ran = await around('1 failed, 12 passed in 0.41s');
    const stopped = await around('log: collecting');
    assert.ok(!ran.output.includes('12 passed'), 'the kept output left the summary out');
    const status = (run: CheckRun) => testStatus(test, true, [{ ...run, command: 'pytest -q' }], 'no_test', 'no_test');
    assert.strictEqual(status(ran), 'fail', 'it ran, and the run failed');
    assert.strictEqual(status(stopped), 'no_test', 'no test ran: nothing is known of it');
  });
});
