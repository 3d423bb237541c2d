// What a run says of itself, read from the whole of its output as it arrives (run.ts): a fact stated only in the
// middle of an output longer than the kept one (output.ts KeptOutput, ~1 MB) counts as much as one in its head or tail.
import * as assert from 'assert';
import { fixRequest, passedTestFiles, type CheckRun } from '../../src/core';
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

  it('a test file reported passed as a whole only in the middle of 3 MB of output: a named test in it passed, though the run failed elsewhere', async () => {
    // vitest 3: a passing file is one line, a failing file's cases are all listed
    const vitest = await around([' ✓ test/excess.test.ts (2 tests) 3ms', ' ❯ test/colour.test.ts (2 tests | 1 failed) 10ms', '   ✓ colour > adds 1ms', '   × colour > multiplies 8ms'].join('\n'));
    assert.ok(!vitest.output.includes('excess'), 'the kept output left it out');
    const test = { criterion: 'extra arguments', file: 'test/excess.test.ts', name: 'lists the extra arguments' };
    assert.strictEqual(testStatus(test, true, [{ ...vitest, command: 'npx vitest run' }]), 'pass');
    assert.match(fixRequest([vitest], 1, 2, [], [{ name: test.name, file: test.file }]), /Of the 1 test\(s\) you named in criteria_tests: 1 passed, 0 failed\./);
    // jest's default reporter over several files: `PASS file`
    const jest = await around(['PASS tests/help.test.js', 'FAIL tests/colour.test.js (5.2 s)', '  ● colour › multiplies'].join('\n'));
    assert.deepStrictEqual(jest.passedTestFiles, ['tests/help.test.js']);
  });

  it('the test files a run reports passed are kept within a bound: 10,000 of them, a name of at most 500 characters', () => {
    const many = Array.from({ length: 10_001 }, (_, i) => `PASS tests/t${i}.test.js`).join('\n');
    const kept = passedTestFiles(many);
    assert.strictEqual(kept.size, 10_000);
    assert.ok(kept.has('tests/t9999.test.js') && !kept.has('tests/t10000.test.js'), 'the first ones');
    assert.strictEqual(passedTestFiles(`PASS tests/${'a'.repeat(490)}.test.js`).size, 0, 'a name longer than a name');
  });
});
