// Fail-first whose command fails before it runs DevA's tests (a tool missing, a package manager refusing to start):
// no test case recognised, none of DevA's test files named, and it ran no test or failed as on the unchanged
// workspace. That is no fail-first observation: the run says so (checks/notReached.ts), the transcript and the
// retrospective quote its first error line, and no criterion's `before` is "fail". A run that names DevA's test file
// (it did not load without the change) or names test cases still observes.
import * as assert from 'assert';
import { Writable } from 'stream';
import { printer } from '../../src/cli/printer';
import { checksForRetro, failFirstNotReached, firstErrorLine, isTrimMark, runCheckLoop, trimForModel, type CheckEvent, type CheckRun } from '../../src/core';
import { failedRun } from '../helpers/failedRun';
import { failFirstRuns } from '../../src/core/metrics/tsr';
import { themeProposal, themeTsr } from '../helpers/themeProposal';

const run = (output: string, extra: Partial<CheckRun> = {}): CheckRun => failedRun(output, { command: 'pnpm run test', ...extra });
const REFUSED = '\n> @w/monorepo@0.0.1 test .\n> pnpm test:coverage\n\n\u2009ERROR\u2009 Refusing to run pnpm@11.14.0: its npm registry signature could not be verified\n\u2009ELIFECYCLE\u2009 Test failed.';
const TEST_FILES = ['tests/core/onError.test.ts'];

describe('checks: a fail-first run that failed before it ran DevA\'s tests', () => {
  it('tells it from a run that observed: a test file named, test cases named, a different failure there, a command that ran on the proposal', () => {
    const refused = { last: run(REFUSED) };
    assert.strictEqual(failFirstNotReached(run(REFUSED), TEST_FILES, refused), true, 'no test ran, nor on the proposal: nothing observed');
    assert.strictEqual(failFirstNotReached(run(REFUSED), TEST_FILES, { base: run(REFUSED) }), true, 'as on the unchanged workspace');
    assert.strictEqual(firstErrorLine(REFUSED), 'ERROR Refusing to run pnpm@11.14.0: its npm registry signature could not be verified');
    // DevA's test file did not load without the change: named, and that is its failure there
    const unloaded = run("Error: Cannot find module '../src/theme'\n    at Object.<anonymous> (tests/core/onError.test.ts:3:1)", { unbuilt: true });
    assert.strictEqual(failFirstNotReached(unloaded, TEST_FILES, refused), false);
    // test cases named: the run reached the tests
    assert.strictEqual(failFirstNotReached(run('✖ hides the message', { tests: [{ name: 'hides the message', passed: false }] }), TEST_FILES, refused), false);
    // a runner's summary (it ran tests) with a failure the unchanged workspace did not have: observed
    const summary = run('Tests: 1 failed, 3 passed', { testSummary: true });
    assert.strictEqual(failFirstNotReached(summary, TEST_FILES, { base: run('Tests: 3 passed', { testSummary: true }) }), false);
    assert.strictEqual(failFirstNotReached(summary, TEST_FILES, { base: summary }), true, "the same output as without DevA's files: they changed nothing there");
    // a silent assertion script that passed on the proposal: it runs here, and failing without the change is what it shows
    const passed = run('', { passed: true, status: 'passed', exitCode: 0 });
    assert.strictEqual(failFirstNotReached(run(''), TEST_FILES, { last: passed }), false);
    assert.strictEqual(failFirstNotReached(passed, TEST_FILES, refused), false);
    assert.strictEqual(failFirstNotReached(run(''), TEST_FILES, { last: run(''), base: run('') }), false, 'silent everywhere: nothing says it ran no test');
  });

  it("quotes a line of the run's own from a cut output, never a mark trimForModel wrote there (isTrimMark)", () => {
    const cut = trimForModel(`${'progress\n'.repeat(400)}src/a.js:3:1 boom\n${'progress\n'.repeat(400)}done`, 600);
    assert.deepStrictEqual(cut.split('\n').filter(isTrimMark).map((l) => l.replace(/\d+/, 'N')), ['[lines naming files]', '[end of the output; N line(s) left out]']);
    assert.strictEqual(firstErrorLine(cut), 'src/a.js:3:1 boom');
  });

  it('a fail-first run that passed says a regression guard should pass there, a test of the change should not', () => {
    let shown = '';
    const print = printer(new Writable({ write: (chunk: Buffer, _enc, done) => ((shown += chunk.toString('utf8')), done()) }));
    const passed = { ...run(''), passed: true, status: 'passed', exitCode: 0 } as CheckRun;
    print({ type: 'check', step: 'deva', event: { type: 'check-finished', run: passed, before: true } } as Parameters<typeof print>[0]);
    assert.match(shown, /· before the change, pnpm run test passed: DevA's tests pass without the change too \(as a regression guard should; a test of the change should not\) ·/);
  });

  it('in the loop: the run is marked, the transcript and the retrospective quote its error, no criterion failed before', async () => {
    const { ws, files } = themeProposal('cape-unit-not-reached-');
    const cannotStart = `node -e "console.error('ERROR  cannot start: tool missing'); process.exit(1)"`;
    const events: CheckEvent[] = [];
    const { outcome } = await runCheckLoop({ commands: [cannotStart], failFirst: true, workspace: ws, capeFolder: 'cape', files, askFix: async () => '', onEvent: (e) => events.push(e) });
    assert.strictEqual(outcome.failsAsBefore, true);
    assert.strictEqual(outcome.before!.runs[0].testsNotReached, true);
    const finished = events.find((e) => e.type === 'check-finished' && e.before);
    assert.ok(finished && finished.type === 'check-finished' && finished.run.testsNotReached, 'the event carries it');
    let shown = '';
    const print = printer(new Writable({ write: (chunk: Buffer, _enc, done) => ((shown += chunk.toString('utf8')), done()) }));
    for (const e of events) print({ type: 'check', step: 'deva', event: e } as Parameters<typeof print>[0]);
    assert.match(shown, /· before the change, node -e .* failed before it ran DevA's tests \("ERROR cannot start: tool missing"\): no fail-first observed ·/);
    assert.doesNotMatch(shown, /as a test of the change should/);
    assert.match(checksForRetro(outcome), /on the unchanged code: `node -e [^`]*` failed before it ran DevA's tests \("ERROR cannot start: tool missing"\): no fail-first observed\./);
    // the criteria: their tests were not observed before the change, not "fail-first observed"
    assert.strictEqual(themeTsr(null, failFirstRuns(outcome)).criteria[0].before, 'no_test');
  });

  it('a record kept before runs were marked is read by the same rule, for TSR and the retrospective', () => {
    const before = { testFiles: ['test/theme.test.js'], runs: [run(REFUSED)], notWritten: [] };
    const outcome = { commands: ['pnpm run test'], runs: [run(REFUSED)], fixRounds: [], maxFixRounds: 2, passed: false, baseline: [run(REFUSED)], before };
    assert.deepStrictEqual(failFirstRuns(outcome)?.map((r) => r.testsNotReached), [true]);
    assert.match(checksForRetro(outcome), /`pnpm run test` failed before it ran DevA's tests \("ERROR Refusing to run pnpm@11\.14\.0: [^"]*"\): no fail-first observed/);
    assert.strictEqual(failFirstRuns({ ...outcome, before: undefined }), null);
  });
});
