// go test without -v names only its failing cases (CheckRun.onlyFailuresNamed), which clears the tests it did not
// name — of the packages that built. A test in a package that did not build did not run, whether or not another
// package's failing case was named beside it: on the proposal a failure, on the unchanged code (fail-first) not told
// for a regression guard, `unbuilt` for a test of the change (`fail` beside one that ran and failed).
import * as assert from 'assert';
import { failFirstStatus, testStatus, type NamedTest } from '../../src/core/metrics/tsr';
import { failedRun } from '../helpers/failedRun';

/** `go test ./...`: mul built and its TestMulSmall failed; sq did not build (sq_test.go calls Sq, which is not there). */
const OUTPUT = [
  '--- FAIL: TestMulSmall (0.00s)',
  '    mul_test.go:6: TestMulSmall',
  'FAIL',
  'FAIL\texample.com/calc/mul\t0.01s',
  '# example.com/calc/sq [example.com/calc/sq.test]',
  'sq/sq_test.go:6:5: undefined: Sq',
  'FAIL\texample.com/calc/sq [build failed]',
  'FAIL',
].join('\n');

describe('TSR: go test naming only failing cases, beside a package that did not build', () => {
  const run = failedRun(OUTPUT, { command: 'go test ./...' });

  it('a test of the package that did not build did not run: not passed, whichever of its files the compiler names', () => {
    assert.strictEqual(run.onlyFailuresNamed, true, 'go test without -v names only its failing cases');
    assert.strictEqual(testStatus({ file: 'sq/sq_test.go', name: 'TestSq' }, true, [run]), 'fail', 'its file is named');
    assert.strictEqual(testStatus({ file: 'sq/sq_more_test.go', name: 'TestSqZero' }, true, [run]), 'fail', 'same package');
    const guard: NamedTest = { file: 'sq/sq_more_test.go', name: 'TestSqZero', expect: 'pass' };
    assert.strictEqual(failFirstStatus([guard], () => true, [run]), 'no_test', 'fail-first cannot tell');
    // the package that built: its failing case named, its others passed
    assert.strictEqual(testStatus({ file: 'mul/mul_test.go', name: 'TestMulSmall' }, true, [run]), 'fail');
    assert.strictEqual(testStatus({ file: 'mul/mul_test.go', name: 'TestMulTwo' }, true, [run]), 'pass');
  });

  it('fail-first: a test of the change in the package that did not build is `unbuilt`; one that ran and failed beside it decides `fail`', () => {
    assert.strictEqual(run.unbuilt, true);
    const mul: NamedTest = { file: 'mul/mul_test.go', name: 'TestMulSmall', expect: 'fail' };
    const sq: NamedTest = { file: 'sq/sq_test.go', name: 'TestSq', expect: 'fail' };
    assert.strictEqual(failFirstStatus([sq], () => true, [run]), 'unbuilt');
    assert.strictEqual(failFirstStatus([mul], () => true, [run]), 'fail');
    assert.strictEqual(failFirstStatus([mul, sq], () => true, [run]), 'fail', 'a test failed there for its own reason');
  });
});
