// The test case reader keeps the JavaScript test files a runner reported did not load (checks/unloadedFiles.ts) apart
// from the test cases it reads in the same pass: node:test's point for a whole file right after Node's crash footer,
// jest's `● Test suite failed to run` under its `FAIL` line, vitest's `❯ file (0 test)` — none of them a failing case.
import * as assert from 'assert';
import { buildFailed, testCaseReader } from '../../src/core';
import { readAllLines } from '../../src/core/text/lines';

/** What the reader makes of `lines`: its cases (undefined: none) and the files that did not load. */
function read(lines: string[]): { cases?: { name: string; passed: boolean }[]; unloaded: string[] } {
  const reader = readAllLines(testCaseReader(), lines.join('\n'));
  return { cases: reader.result()?.cases, unloaded: reader.unloadedFiles() };
}

const CRASH = ["Error: Cannot find module '../lib/rate'", '    at Object.<anonymous> (spec/rate.test.mjs:2:1)', '', 'Node.js v22.3.0'];

describe('checks: the test case reader keeps the test files that did not load', () => {
  it("node:test's spec reporter: the file's point and its repeat under `✖ failing tests:` are no case", () => {
    const spec = ['✔ rounds a rate (1.2ms)', ...CRASH, '✖ spec/rate.test.mjs (80.5ms)', "  'test failed'", '', '✖ failing tests:', '', '✖ spec/rate.test.mjs (80.5ms)'];
    assert.deepStrictEqual(read(spec), { cases: [{ name: 'rounds a rate', passed: true }], unloaded: ['spec/rate.test.mjs'] });
    assert.strictEqual(buildFailed(spec.join('\n')), true, 'a file that did not load is a load failure');
  });

  it("node:test's TAP reporter: the file's point alone names no case, and the run still lists its passing cases", () => {
    const tap = ['TAP version 13', ...CRASH.map((l) => `# ${l}`), '# Subtest: spec/rate.test.mjs', 'not ok 1 - spec/rate.test.mjs', '  ---', '  exitCode: 1', '  ...', '1..1'];
    assert.deepStrictEqual(read(tap), { cases: undefined, unloaded: ['spec/rate.test.mjs'] });
    const withCase = readAllLines(testCaseReader(), [...tap, 'FAILED tests/test_rate.py::test_round - assert 1 == 2'].join('\n')).result();
    assert.strictEqual(withCase?.listsPassed, true, 'a TAP run names every point');
  });

  it('only the point right after the crash footer is a file that did not load', () => {
    const later = [...CRASH, '✔ keeps the currency', '✖ spec/rate.test.mjs'];
    assert.deepStrictEqual(read(later), {
      cases: [
        { name: 'keeps the currency', passed: true },
        { name: 'spec/rate.test.mjs', passed: false },
      ],
      unloaded: [],
    });
    assert.deepStrictEqual(read([...CRASH, '✖ rounds a rate']).unloaded, [], 'a point named by no script file is a test');
    assert.deepStrictEqual(read([...CRASH, 'ok 1 - spec/rate.test.mjs']).unloaded, [], 'a file whose point passed loaded');
  });

  it("jest's header names the file of the `FAIL` line before it; with none, or after a `PASS` line, it stays a failure", () => {
    const jest = ['FAIL spec/rate.test.js', '  ● Test suite failed to run', 'FAIL spec/fee.test.js', '  ● fee › adds the tax'];
    assert.deepStrictEqual(read(jest), { cases: [{ name: 'fee › adds the tax', passed: false }], unloaded: ['spec/rate.test.js'] });
    for (const lines of [['  ● Test suite failed to run'], ['FAIL spec/rate.test.js', 'PASS spec/fee.test.js', '  ● Test suite failed to run']]) {
      assert.deepStrictEqual(read(lines), { cases: [{ name: 'a test file › Test suite failed to run', passed: false }], unloaded: [] }, lines.join(' / '));
    }
  });

  it("vitest's file that collected no test, marked ❯ or ×, is no case", () => {
    const vitest = [' ❯ spec/rate.test.ts (0 test)', ' × spec/fee.test.ts (0 tests)', ' ❯ spec/tax.test.ts (2 tests | 1 failed) 4ms', '   × adds the tax 3ms'];
    assert.deepStrictEqual(read(vitest), { cases: [{ name: 'adds the tax', passed: false }], unloaded: ['spec/rate.test.ts', 'spec/fee.test.ts'] });
  });
});
