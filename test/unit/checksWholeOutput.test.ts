// What a run says of itself, read from the whole of its output as it arrives (run.ts): a fact stated only in the
// middle of an output longer than the kept one (output.ts KeptOutput, ~1 MB) counts as much as one in its head or tail.
import * as assert from 'assert';
import { failsAsBefore, fixRequest, passedTestFiles, unbuiltGoFolders, unbuiltGoPackages, type CheckRun } from '../../src/core';
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

  it('a Go package that did not build only in the middle of 3 MB of output: new with the proposal, and its tests did not run', async () => {
    // go test -v ./... on the unchanged workspace: TestLegacy fails, package legacy does not build; the proposal's
    // calc package does not build either (its new test calls what the change adds)
    const tests = ['=== RUN   TestLegacy', '--- FAIL: TestLegacy (0.00s)', '    old_test.go:9: known broken', '=== RUN   TestSplit', '--- PASS: TestSplit (0.00s)', 'FAIL', 'FAIL\texample.com/m/old\t0.004s'];
    const unbuilt = (pkg: string) => [`# example.com/m/${pkg} [example.com/m/${pkg}.test]`, `${pkg}/sq_test.go:6:5: undefined: Sq`, `FAIL\texample.com/m/${pkg} [build failed]`];
    const base = await around([...unbuilt('legacy'), ...tests].join('\n'));
    const same = await around([...unbuilt('legacy'), ...tests].join('\n'));
    const run = await around([...unbuilt('legacy'), ...unbuilt('calc'), ...tests].join('\n'));
    assert.ok(!run.output.includes('[build failed]') && run.unbuilt, 'the kept output left it out');
    assert.strictEqual(failsAsBefore(same, base), true, 'the control: the same package did not build there');
    assert.strictEqual(failsAsBefore(run, base), false, 'calc did not build only with the proposal');
    // fail-first: a named test in the package that did not build did not run (nothing is known of it)
    const test = { criterion: 'squares', file: 'calc/sq_test.go', name: 'TestSq' };
    assert.strictEqual(testStatus(test, true, [{ ...run, command: 'go test -v ./...' }], 'fail', 'no_test'), 'no_test');
  });

  it('the Go packages and folders a run could not build are kept within a bound: 10,000 of each', () => {
    const many = Array.from({ length: 10_001 }, (_, i) => `p${i}/x_test.go:1:2: undefined: X\nFAIL\texample.com/m/p${i} [build failed]`).join('\n');
    assert.strictEqual(unbuiltGoPackages(many).size, 10_000);
    assert.strictEqual(unbuiltGoFolders(many).size, 10_000);
    assert.ok(unbuiltGoFolders(many).has('p9999') && !unbuiltGoPackages(many).has('example.com/m/p10000'), 'the first ones');
  });
});
