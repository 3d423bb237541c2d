// TSR and the criteria no test can prove (metrics/tsr.ts's header): a criterion DevA covered with files for review
// alone, each existing, is left to review — out of the computed TSR's count and said so in the retrospective file,
// the CLI's closing line, --json's metrics and the retrospective's request; a file that exists nowhere is no test;
// beside a test, the test decides. Metrics saved before (no `review` status, a file for review as `review: true`
// beside it) still read as they did.
import * as assert from 'assert';
import { Writable } from 'stream';
import { printer } from '../../src/cli/printer';
import { renderSources } from '../../src/core/session/sources';
import type { ContextInputs } from '../../src/core/session/context';
import { computeTsr, criterionStatus, type CheckOutcome } from '../../src/core/metrics/tsr';
import { computeMetrics, formatMetricsMarkdown } from '../../src/core/metrics/metrics';
import { formatTsr, namedTestOf, tsrSummary, type CriterionResult, type SessionEvent, type SessionMetrics } from '../../src/core/model/types';

const POA = {
  acceptance_criteria: [
    { id: 'AC-1', criterion: 'The theme follows the OS' },
    { id: 'AC-2', criterion: 'The toggle switches theme' },
    { id: 'AC-3', criterion: 'The changelog says so' },
  ],
};
const passing: CheckOutcome = { command: 'node --test', passed: true, output: '', tests: [{ name: 'follows the OS', passed: true }, { name: 'switches', passed: true }] };
const test1 = { criterion: 'AC-1', file: 'test/theme.test.js', test: 'follows the OS' };
const test2 = { criterion: 'AC-2', file: 'test/theme.test.js', test: 'switches' };
const inWorkspace = (rel: string) => rel !== 'docs/gone.md' && rel !== 'test/gone.test.js';
const tsrOf = (criteriaTests: unknown[], checks: CheckOutcome[] | null = [passing]) =>
  computeTsr({ poaOutput: POA, devaOutput: { criteria_tests: criteriaTests }, judgements: ['AC-1', 'AC-2', 'AC-3'].map((id) => ({ id, status: 'met' as const, reason: '' })), checks, fileExists: inWorkspace });
const metricsOf = (tsr: ReturnType<typeof computeTsr>) => computeMetrics({ envelopes: {}, usage: {}, startedAt: 0, retroSavedAt: 1, contextChars: {}, tsr });

describe('TSR: criteria left to review', () => {
  it('files for review alone, each existing: `review`; one that exists nowhere: no test; beside a test: the test decides', () => {
    const review = (file: string) => ({ review: file });
    const test = { file: 'test/theme.test.js', name: 'follows the OS' };
    assert.strictEqual(criterionStatus([review('CHANGES.md')], inWorkspace, [passing]), 'review');
    assert.strictEqual(criterionStatus([review('CHANGES.md'), review('README.md')], inWorkspace, [passing]), 'review');
    assert.strictEqual(criterionStatus([review('docs/gone.md')], inWorkspace, [passing]), 'no_test', 'a file that exists nowhere is nothing to review');
    assert.strictEqual(criterionStatus([review('CHANGES.md'), review('docs/gone.md')], inWorkspace, [passing]), 'no_test', 'each file must exist');
    assert.strictEqual(criterionStatus([test, review('CHANGES.md')], inWorkspace, [passing]), 'pass');
    const failing: CheckOutcome = { ...passing, passed: false, tests: [{ name: 'follows the OS', passed: false }] };
    assert.strictEqual(criterionStatus([test, review('CHANGES.md')], inWorkspace, [failing]), 'fail', 'a file for review does not save a failed test');
    assert.strictEqual(criterionStatus([{ file: 'test/gone.test.js', name: 'x' }, review('CHANGES.md')], inWorkspace, [passing]), 'no_test', 'nor a test whose file is missing');
  });

  it('the computed TSR counts the criteria a test can prove: passed ÷ (criteria − those left to review)', () => {
    const r = tsrOf([test1, test2, { criterion: 'AC-3', review: 'CHANGES.md' }]);
    assert.deepStrictEqual(r.criteria.map((c) => c.computed), ['pass', 'pass', 'review']);
    assert.strictEqual(r.tsr, 1, 'every criterion a test can prove passed (it was 2 of 3)');
    assert.strictEqual(r.tsrJudged, 1, 'the judged TSR counts every criterion');
    const m = metricsOf(r);
    assert.strictEqual(m.tsr, 1);
    assert.strictEqual(m.tsrReview, 1, '--json says how many were left to review');
    const md = formatMetricsMarkdown(m);
    assert.match(md, /\| TSR \| 100% \(2 of 2 tested, 1 to review\) \|/);
    assert.match(md, /\| TSR \(judged\) \| 100% \(3 of 3\) \|/);
    assert.match(md, /\| AC-3 The changelog says so \| CHANGES\.md \(for review\) \| to review \| met \|/);

    const gone = tsrOf([test1, test2, { criterion: 'AC-3', review: 'docs/gone.md' }]);
    assert.strictEqual(gone.criteria[2].computed, 'no_test');
    assert.strictEqual(gone.tsr, 2 / 3, 'a file that exists nowhere counts against the criterion');
    assert.strictEqual(metricsOf(gone).tsrReview, 0);
    assert.match(formatMetricsMarkdown(metricsOf(gone)), /\| TSR \| 67% \(2 of 3\) \|/);

    const failed = tsrOf([test1, { ...test2, test: 'is missing from the run' }, { criterion: 'AC-2', review: 'README.md' }, { criterion: 'AC-3', review: 'CHANGES.md' }], [
      { ...passing, passed: false, output: 'test/theme.test.js:3 is missing from the run', tests: [{ name: 'follows the OS', passed: true }, { name: 'is missing from the run', passed: false }] },
    ]);
    assert.deepStrictEqual(failed.criteria.map((c) => c.computed), ['pass', 'fail', 'review'], 'a test and a file for review: by the test');
    assert.strictEqual(failed.tsr, 1 / 2);
  });

  it('every criterion left to review: no computed TSR, and the tables say why', () => {
    const r = tsrOf(['AC-1', 'AC-2', 'AC-3'].map((criterion) => ({ criterion, review: 'README.md' })));
    assert.ok(r.criteria.every((c) => c.computed === 'review'));
    assert.strictEqual(r.tsr, null);
    const m = metricsOf(r);
    assert.strictEqual(m.tsrReview, 3);
    assert.match(formatMetricsMarkdown(m), /\| TSR \| — \(all 3 to review\) \|/);
    assert.strictEqual(tsrSummary(m), 'TSR — of 3 criteria, all to review (judged 100%)');
    // no check ran: no verdict, nothing left to review
    const unchecked = metricsOf(tsrOf(['AC-1', 'AC-2', 'AC-3'].map((criterion) => ({ criterion, review: 'README.md' })), null));
    assert.strictEqual(unchecked.tsr, null);
    assert.strictEqual(unchecked.tsrReview, 0);
    assert.match(formatMetricsMarkdown(unchecked), /\| TSR \| — \|/);
  });

  it("the CLI's closing line says how many criteria were tested and how many left to review", () => {
    let shown = '';
    const print = printer(new Writable({ write: (chunk: Buffer, _enc, done) => ((shown += chunk.toString('utf8')), done()) }));
    const m = metricsOf(tsrOf([test1, test2, { criterion: 'AC-3', review: 'CHANGES.md' }]));
    print({ type: 'session-finished', taskId: 't', retrospectivePath: 'r.md', kpt: { keep: [], problem: [], try: [] }, metrics: m, files: [], openQuestions: [] } as SessionEvent);
    assert.match(shown, / · TSR 100% of 2 tested criteria, 1 to review \(judged 100%\)\n/);
    // nothing left to review: as before
    assert.strictEqual(tsrSummary(metricsOf(tsrOf([test1, test2]))), 'TSR 67% (judged 100%) of 3 criteria');
    assert.strictEqual(tsrSummary({ tsr: null, tsrJudged: null, criteria: [] }), 'TSR — (judged —) of 0 criteria');
  });

  it('metrics saved before `review` existed read and show as they did', () => {
    // a criterion covered by a file for review was `no_test`, and counted in TSR's denominator; no tsrReview
    const old = [
      { id: 'AC-1', text: '', tests: [{ file: 'test/a.test.js', name: 'a' }], computed: 'pass', judged: 'met' },
      { id: 'AC-2', text: '', tests: [{ file: 'CHANGES.md', name: '', review: true }], computed: 'no_test', judged: 'met' },
    ] as CriterionResult[];
    const m = { tsr: 0.5, tsrJudged: 1, criteria: old } as SessionMetrics;
    assert.strictEqual(formatTsr(m.tsr, old, 'computed'), '50% (1 of 2)');
    assert.strictEqual(formatTsr(m.tsrJudged, old, 'judged'), '100% (2 of 2)');
    assert.strictEqual(tsrSummary(m), 'TSR 50% (judged 100%) of 2 criteria');
    assert.strictEqual(formatTsr('0.5', old, 'computed'), '—', 'a rate a record kept in another shape is none');
  });

  it('named tests read back from metrics of either shape are one kind each, no field empty', () => {
    const read = (tests: unknown[]) => tests.map(namedTestOf);
    // the shape metrics held before 2026-12-06: every kind with a file and a name, empty where it had none
    assert.deepStrictEqual(read([{ file: '', name: '', check: 'npm test' }, { file: 'CHANGES.md', name: '', review: true }, { file: 'test/a.test.js', name: '', expect: 'fail' }]), [
      { check: 'npm test' },
      { review: 'CHANGES.md' },
      { file: 'test/a.test.js', expect: 'fail' },
    ]);
    // today's, as --json gives it
    const now = [{ check: 'npm test' }, { review: 'CHANGES.md' }, { file: 'test/a.test.js', name: 'adds', expect: 'pass' }];
    assert.deepStrictEqual(read(now), now);
    assert.deepStrictEqual(read([null, 'x', {}, { name: 'no file' }, { file: '', name: '', review: true }, { expect: 'fail' }]), [null, null, null, null, null, null]);
    assert.deepStrictEqual(read([{ file: 'test/a.test.js', name: 'a', expect: 'maybe' }]), [{ file: 'test/a.test.js', name: 'a' }], 'an expectation it does not know is none');
  });

  it("the retrospective's request says a criterion left to review had no test, not how the checks' run went", () => {
    const checks = { commands: ['node --test'], runs: [{ ...passing, round: 0, status: 'passed' as const, exitCode: 0, durationMs: 1, outputChars: 0 }], fixRounds: [], maxFixRounds: 0, passed: true };
    const text = renderSources('cm_retro', ['retro:criteria'], {
      envelopes: { poa: { output: POA }, deva: { output: { criteria_tests: [test1, { criterion: 'AC-2', review: 'docs/gone.md' }, { criterion: 'AC-3', review: 'CHANGES.md' }] } } },
      checks,
      fileExists: inWorkspace,
    } as unknown as ContextInputs);
    assert.match(text, /- AC-1: .* — in the checks' last run: passed\n/);
    assert.match(text, /- AC-2: .* — DevA's test: docs\/gone\.md \(for review\) — in the checks' last run: no test\n/);
    assert.match(text, /- AC-3: .* — DevA's test: CHANGES\.md \(for review\) — no test proves it: to review(\n|$)/);
  });
});
