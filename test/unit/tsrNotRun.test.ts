// TSR when the test command failed before it ran any test, as it did on the unchanged workspace (a package manager
// refusing to start): a criterion whose named tests appear nowhere in that run was not tested — `not_run`, out of the
// computed TSR's count like `review`, and said so in the CLI's line, the retrospective's tables and --json's
// metrics. A named test that ran and failed stays a failure, and so does a run that ran no test only with DevA's
// proposal (the unchanged workspace ran its tests).
import * as assert from 'assert';
import { Writable } from 'stream';
import { printer } from '../../src/cli/printer';
import { computeTsr, lastRuns } from '../../src/core/metrics/tsr';
import { computeMetrics, formatMetricsMarkdown } from '../../src/core/metrics/metrics';
import { formatTsr, tsrCounts, tsrSummary, type SessionEvent, type SessionMetrics } from '../../src/core/model/types';
import type { CheckRun, ChecksOutcome } from '../../src/core/checks/types';
import { failedRun } from '../helpers/failedRun';

const run = (command: string, output: string, extra: Partial<CheckRun> = {}): CheckRun => failedRun(output, { command, ...extra });
const REFUSED = '> pnpm test:coverage\n\u2009ERROR\u2009 Refusing to run pnpm@11.14.0: its npm registry signature could not be verified\n\u2009ELIFECYCLE\u2009 Test failed.';
const lint = run('pnpm run lint', '', { status: 'passed', passed: true, exitCode: 0 });
const outcome = (last: CheckRun, base: CheckRun): ChecksOutcome => ({ commands: ['pnpm run lint', 'pnpm run test'], runs: [lint, last], fixRounds: [], maxFixRounds: 2, passed: false, baseline: [base] });

const POA = { acceptance_criteria: ['AC-1', 'AC-2', 'AC-3'].map((id) => ({ id, criterion: `criterion ${id}` })) };
const DEVA = {
  criteria_tests: [
    { criterion: 'AC-1', file: 'tests/core/onError.test.ts', test: 'declares a plain-text body', expect: 'fail' },
    { criterion: 'AC-2', file: 'tests/core/onError.test.ts', test: 'tells the browser not to sniff', expect: 'fail' },
    { criterion: 'AC-3', check: 'pnpm run test' },
  ],
};
const tsrOf = (o: ChecksOutcome) =>
  computeTsr({ poaOutput: POA, devaOutput: DEVA, judgements: [{ id: 'AC-1', status: 'met', reason: '' }, { id: 'AC-2', status: 'met', reason: '' }, { id: 'AC-3', status: 'unknown', reason: '' }], checks: lastRuns(o), fileExists: () => true });

describe('TSR: a test command that failed before any test, as on the unchanged workspace', () => {
  it('its criteria were not run: out of the computed TSR, not failed', () => {
    const r = tsrOf(outcome(run('pnpm run test', REFUSED), run('pnpm run test', REFUSED)));
    assert.deepStrictEqual(r.criteria.map((c) => [c.id, c.computed]), [
      ['AC-1', 'not_run'],
      ['AC-2', 'not_run'],
      ['AC-3', 'not_run'],
    ]);
    assert.strictEqual(r.tsr, null, 'no criterion was tested');
    assert.deepStrictEqual(tsrCounts(r.criteria), { passed: 0, tested: 0, noTest: 0, review: 0, notRun: 3 });
  });

  it('a run that ran no test only with the proposal (the unchanged workspace ran its tests) is a failure of the proposal', () => {
    const ranThere = run('pnpm run test', '  3 passing', { status: 'passed', passed: true, exitCode: 0, testSummary: true });
    const r = tsrOf(outcome(run('pnpm run test', REFUSED), ranThere));
    assert.deepStrictEqual(r.criteria.map((c) => c.computed), ['fail', 'fail', 'fail']);
    assert.strictEqual(r.tsr, 0);
    // a silent failure on both (a bare assertion script) says nothing of whether a test ran: a failure, as it was
    assert.deepStrictEqual(tsrOf(outcome(run('pnpm run test', ''), run('pnpm run test', ''))).criteria.map((c) => c.computed), ['fail', 'fail', 'fail']);
  });

  it('a named test that ran and failed stays failed; one the output names stays failed; the others were not run', () => {
    // the unit tests ran (one of them failed); the e2e command stopped before any test, as on the unchanged workspace
    const unit = run('npx mocha', '  1 failing\n  1) declares a plain-text body\n     at tests/unit/body.test.ts:3:1', { tests: [{ name: 'declares a plain-text body', passed: false }], testSummary: true });
    const e2e = run('pnpm run test', REFUSED);
    const o: ChecksOutcome = { commands: ['npx mocha', 'pnpm run test'], runs: [unit, e2e], fixRounds: [], maxFixRounds: 2, passed: false, baseline: [unit, e2e] };
    const r = tsrOf(o);
    assert.deepStrictEqual(r.criteria.map((c) => c.computed), ['fail', 'not_run', 'not_run']);
    assert.strictEqual(r.tsr, 0, '0 of the 1 criterion tested');
    const named = tsrOf(outcome(run('pnpm run test', `${REFUSED}\nwhile loading tests/core/onError.test.ts`), run('pnpm run test', REFUSED)));
    assert.deepStrictEqual(named.criteria.map((c) => c.computed).slice(0, 2), ['fail', 'fail'], 'the output names their file');
  });

  it('says so: the CLI line, the retrospective tables, --json metrics', () => {
    const r = tsrOf(outcome(run('pnpm run test', REFUSED), run('pnpm run test', REFUSED)));
    const m = computeMetrics({ envelopes: {}, usage: {}, startedAt: 0, retroSavedAt: 1, contextChars: {}, tsr: r });
    assert.strictEqual(m.tsrNotRun, 3);
    assert.strictEqual(formatTsr(m.tsr, m.criteria, 'computed'), '— (all 3 not run)');
    assert.strictEqual(tsrSummary(m), 'TSR — of 3 criteria, all not run (judged 67%)');
    const md = formatMetricsMarkdown(m);
    assert.match(md, /\| TSR \| — \(all 3 not run\) \|/);
    assert.match(md, /\| AC-1 criterion AC-1 \| tests\/core\/onError\.test\.ts › declares a plain-text body \(fail-first\) \| not run \(no test ran\) \|/);
    // mixed with a tested criterion and one to review
    const mixed = [{ computed: 'pass' }, { computed: 'fail' }, { computed: 'not_run' }, { computed: 'review' }];
    assert.strictEqual(formatTsr(0.5, mixed, 'computed'), '50% (1 of 2 tested, 1 to review, 1 not run)');
    assert.strictEqual(tsrSummary({ tsr: 0.5, tsrJudged: null, criteria: mixed } as unknown as SessionMetrics), 'TSR 50% of 2 tested criteria, 1 to review, 1 not run (judged —)');
    assert.strictEqual(formatTsr(null, [{ computed: 'not_run' }, { computed: 'review' }], 'computed'), '— (1 to review, 1 not run)');
    // the only criteria counted had no test (a trial: 16 not run, the 2 DevA named no test for): not "2 tested"
    const untested = [{ computed: 'no_test' }, { computed: 'no_test' }, { computed: 'not_run' }];
    assert.strictEqual(formatTsr(0, untested, 'computed'), '0% (0 of 2 counted, 2 with no test, 1 not run)');
    assert.strictEqual(tsrSummary({ tsr: 0, tsrJudged: 1, criteria: untested } as unknown as SessionMetrics), 'TSR 0% of 2 counted criteria (2 with no test), 1 not run (judged 100%)');
    const some = [{ computed: 'pass' }, { computed: 'no_test' }, { computed: 'review' }];
    assert.strictEqual(formatTsr(0.5, some, 'computed'), '50% (1 of 2 counted, 1 with no test, 1 to review)');
    let shown = '';
    const print = printer(new Writable({ write: (chunk: Buffer, _enc, done) => ((shown += chunk.toString('utf8')), done()) }));
    print({ type: 'session-finished', taskId: 't', retrospectivePath: 'r.md', kpt: { keep: [], problem: [], try: [] }, metrics: m, files: [], openQuestions: [] } as unknown as SessionEvent);
    assert.match(shown, / · TSR — of 3 criteria, all not run \(judged 67%\)/);
  });
});
