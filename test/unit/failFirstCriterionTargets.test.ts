// A criterion whose tests span two cargo test targets — a test of the change in a file that does not build without
// it, a regression guard in a file that builds — says what each part showed before the change (a trial on
// dtolnay/semver read "did not build or load without the change (… no test ran)" though the guard had run):
// `unbuilt` with how the guards fared (CriterionResult.guardsRan), in the words of model/metrics.ts
// UNBUILT_GUARDS_RAN_TEXT on every surface (the retrospective's request and file, the panel through beforeText).
// With the real cargo, offline.
import * as assert from 'assert';
import { onPath, runFailFirst, type CheckRun } from '../../src/core';
import { beforeText, computeTsr, failFirstOf } from '../../src/core/metrics/tsr';
import { computeMetrics, formatMetricsMarkdown } from '../../src/core/metrics/metrics';
import { BEFORE_TEXT, UNBUILT_GUARDS_RAN_TEXT, type FileTest } from '../../src/core/model/types';
import { cargoCrate, cargoTmp, proposedFile } from '../helpers/cargoCrate';

const yes = () => true;
const mul: FileTest = { file: 'tests/test_mul.rs', name: 'muls', expect: 'fail' };
const guard: FileTest = { file: 'tests/test_guard.rs', name: 'adds', expect: 'pass' };

/** Fail-first of DevA's tests/test_mul.rs (it calls `mul`, which the change adds) beside a guard asserting `1 + 2 == sum`. */
async function failFirst(sum: number): Promise<CheckRun> {
  const ws = cargoTmp();
  cargoCrate(ws, '', 'calc', 'pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n');
  const files = [proposedFile(mul.file, '#[test]\nfn muls() {\n    assert_eq!(calc::mul(2, 3), 6);\n}\n'), proposedFile(guard.file, `#[test]\nfn adds() {\n    assert_eq!(calc::add(1, 2), ${sum});\n}\n`)];
  const result = await runFailFirst({ commands: ['cargo test --offline'], workspace: ws, capeFolder: 'cape', files, emit: () => undefined });
  return result.runs[0];
}

describe('fail-first: a criterion whose tests span a target that did not build and one that ran', () => {
  it('with the real cargo: the guard passed beside the new-API file that did not build, and every surface says both', async function () {
    if (!(await onPath(['cargo']))) this.skip();
    const run = await failFirst(3);
    assert.deepStrictEqual(run.byTarget?.unbuilt, ['test_mul'], run.output);
    const first = failFirstOf([mul, guard], yes, [run]);
    assert.deepStrictEqual(first, { before: 'unbuilt', guardsRan: 'pass' });
    assert.strictEqual(beforeText(first!), UNBUILT_GUARDS_RAN_TEXT.pass);
    assert.doesNotMatch(beforeText(first!), /no test ran/);
    // a criterion of the new-API file alone did not build, and no test of it ran: as before
    assert.strictEqual(beforeText(failFirstOf([mul], yes, [run])!), BEFORE_TEXT.unbuilt);
    // the retrospective's file, from the TSR's criteria
    const poaOutput = { acceptance_criteria: [{ id: 'AC-1', criterion: 'multiply' }] };
    const devaOutput = { criteria_tests: [{ criterion: 'AC-1', file: mul.file, test: mul.name, expect: 'fail' }, { criterion: 'AC-1', file: guard.file, test: guard.name, expect: 'pass' }] };
    const tsr = computeTsr({ poaOutput, devaOutput, checks: [{ ...run, passed: true }], before: [run], fileExists: yes });
    assert.deepStrictEqual([tsr.criteria[0].before, tsr.criteria[0].guardsRan], ['unbuilt', 'pass']);
    const md = formatMetricsMarkdown(computeMetrics({ envelopes: {}, usage: {}, startedAt: 0, retroSavedAt: 1, contextChars: {}, tsr }));
    assert.ok(md.includes(`| ${UNBUILT_GUARDS_RAN_TEXT.pass} |`), md);
  });

  it('with the real cargo: a guard that failed there is said to have failed, and named as a surprise', async function () {
    if (!(await onPath(['cargo']))) this.skip();
    const run = await failFirst(4);
    const first = failFirstOf([mul, guard], yes, [run]);
    assert.deepStrictEqual(first, { before: 'unbuilt', guardsRan: 'fail', surprise: 'DevA meant adds as a regression guard: it fails without the change' });
    assert.strictEqual(beforeText(first!), `${UNBUILT_GUARDS_RAN_TEXT.fail} — DevA meant adds as a regression guard: it fails without the change`);
  });

  it('words saved by the panel or an older record: a value it does not know is not told', () => {
    assert.strictEqual(beforeText({ before: 'unbuilt', guardsRan: 'maybe' }), BEFORE_TEXT.unbuilt);
    assert.strictEqual(beforeText({ before: 'pass', guardsRan: 'pass' }), BEFORE_TEXT.pass, 'only beside tests of the change that did not build');
  });
});
