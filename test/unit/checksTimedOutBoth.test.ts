// A check command killed at the time limit on DevA's proposal and on the unchanged workspace alike — a test command
// that starts a watcher or a server and never returns here — was already there: no fix round, told as the other
// failures already there are (verdict.ts AS_BEFORE_BY), unless the proposal's run shows something the unchanged
// workspace's did not (a failing test case or a problem of its own, a case it never reached). A time-out only with the
// proposal keeps its fix round. Fail-first does not read such a time-out as its tests failing (notReached.ts), nor TSR
// a criterion as failed by it.
import * as assert from 'assert';
import {
  beforeFailureSaying,
  checksForRetro,
  failFirstNotReached,
  failsAsBefore,
  fixRequest,
  proposalNotReached,
  runCheckLoop,
  type CheckRun,
  TRIMMED_MARK,
} from '../../src/core';
import { failFirstRuns, lastRuns } from '../../src/core/metrics/tsr';
import { failedRun } from '../helpers/failedRun';
import { themeProposal, themeTsr } from '../helpers/themeProposal';

const KILLED = '[killed: the check ran longer than 2 s]';
/** A run killed at the time limit that printed `output` first. */
const timedOut = (output: string, extra: Partial<CheckRun> = {}): CheckRun => failedRun(`${output}${output ? '\n' : ''}${KILLED}`, { status: 'timeout', exitCode: null, ...extra });

describe('checks: a command killed at the time limit on the proposal and on the unchanged workspace', () => {
  it('fails as before, unless the proposal\'s run shows something the unchanged workspace\'s did not', () => {
    const watching = timedOut('watching for file changes…');
    assert.strictEqual(failsAsBefore(watching, timedOut('watching for file changes…')), true, 'killed on both sides, nothing named');
    assert.strictEqual(failsAsBefore(timedOut(''), timedOut('listening on http://localhost:3000')), true, 'what it printed before the kill aside');
    // the controls: a time-out only with the proposal, or a quick failure against a time-out there
    assert.strictEqual(failsAsBefore(watching, failedRun('Error: boom')), false, 'the unchanged workspace ended: the hang is new');
    assert.strictEqual(failsAsBefore(watching, { ...failedRun(''), status: 'passed', passed: true, exitCode: 0 }), false);
    assert.strictEqual(failsAsBefore(failedRun('Error: boom'), timedOut('')), false, 'it ended with the proposal, on an error of its own');
    // a failing test case only with the proposal
    const base = timedOut('  ✔ adds\n  ✖ old flaky');
    assert.strictEqual(failsAsBefore(timedOut('  ✔ adds\n  ✖ old flaky'), base), true, 'the same case failing there too');
    assert.strictEqual(failsAsBefore(timedOut('  ✔ adds\n  ✖ old flaky\n  ✖ multiplies'), base), false, 'a new failing case');
    assert.strictEqual(failsAsBefore(timedOut('  ✖ multiplies'), timedOut('watching')), false, 'failing cases where the unchanged workspace named none');
    assert.strictEqual(failsAsBefore(timedOut('  ✔ adds'), timedOut('watching')), true, 'passing cases only');
    // the run stopped before a case that passed there: it hung earlier than the unchanged workspace's
    assert.strictEqual(failsAsBefore(timedOut(''), timedOut('  ✔ adds\n  ✔ subtracts')), false);
    // a problem (a compiler's or linter's line) only with the proposal
    const tsc = "src/a.ts(3,1): error TS2304: Cannot find name 'x'.";
    assert.strictEqual(failsAsBefore(timedOut(tsc), timedOut('watching')), false, 'a new problem');
    assert.strictEqual(failsAsBefore(timedOut(tsc), timedOut(tsc.replace('(3,1)', '(2,1)'))), true, 'the same problem, lines aside');
  });

  it('cannot be compared by problems when either output was cut: the problems in the lines left out are unknown', () => {
    const tsc = "src/a.ts(3,1): error TS2304: Cannot find name 'x'.";
    const cut = `${tsc}\n${TRIMMED_MARK}120 lines left out]`;
    assert.strictEqual(failsAsBefore(timedOut(cut), timedOut(tsc)), false, "the proposal's output cut");
    assert.strictEqual(failsAsBefore(timedOut(tsc), timedOut(cut)), false, "the unchanged workspace's output cut");
    assert.strictEqual(failsAsBefore(timedOut(tsc), timedOut(tsc)), true, 'the control: neither cut');
    assert.doesNotMatch(fixRequest([timedOut(cut)], 1, 2, [], [], () => timedOut(tsc)), /leave it alone/);
  });

  it('a fix request that carries it says so: killed there too, not caused by DevA\'s files; a new failing case is still named', () => {
    const same = fixRequest([timedOut('watching')], 1, 2, [], [], () => timedOut('watching'));
    assert.match(same, /\(killed at the time limit\)\nOn the unchanged workspace \(nothing of yours applied\) this command is killed at the time limit too\.\nYour proposal's run names no failing test case or problem the unchanged workspace's did not: the time-out is not caused by your files; leave it alone\./);
    const fresh = fixRequest([timedOut('  ✖ multiplies')], 1, 2, [], [], () => timedOut('watching'));
    assert.match(fresh, /this command is killed at the time limit too\.\nNew with your proposal \(fix these\):\n- multiplies\n/);
    assert.doesNotMatch(fresh, /leave it alone/);
  });

  it('in the loop: no fix round, the retrospective told it was already there; fail-first observes nothing, TSR counts no failure', async () => {
    const { ws, files } = themeProposal('cape-unit-timed-out-');
    const watcher = `node -e "console.log('watching for file changes'); setInterval(() => {}, 1000)"`;
    let asked = 0;
    const { outcome } = await runCheckLoop({ commands: [watcher], timeoutMs: 500, failFirst: true, workspace: ws, capeFolder: 'cape', files, askFix: async () => (asked++, '') });
    assert.strictEqual(asked, 0, 'DevA is not asked to fix a command that never returns here');
    assert.strictEqual(outcome.failsAsBefore, true);
    assert.deepStrictEqual([...outcome.runs, ...outcome.baseline!, ...outcome.before!.runs].map((r) => r.status), ['timeout', 'timeout', 'timeout']);
    const retro = checksForRetro(outcome);
    assert.match(retro, /The final proposal fails only as the unchanged workspace does \(the same failing test cases or problems, the same output where it names neither, or killed at the time limit there too\): the failure was already there/);
    // fail-first: killed there as everywhere, its tests never reached
    assert.strictEqual(outcome.before!.runs[0].testsNotReached, true);
    assert.match(retro, /on the unchanged code: `node -e [^`]*` killed at the time limit before it ran DevA's tests, as on the unchanged workspace or the proposal too: no fail-first observed\./);
    const [criterion] = themeTsr(lastRuns(outcome), failFirstRuns(outcome)).criteria;
    assert.deepStrictEqual([criterion.computed, criterion.before], ['not_run', 'no_test']);

    // the control: a command that hangs only with DevA's file gets its fix round, which says the unchanged workspace passes
    const requests: string[] = [];
    const hangsWithDevA = `node -e "if (require('fs').existsSync('src/theme.js')) setInterval(() => {}, 1000)"`;
    const other = await runCheckLoop({ commands: [hangsWithDevA], timeoutMs: 3000, fixRounds: 1, workspace: ws, capeFolder: 'cape', files, askFix: async (r) => (requests.push(r), '') });
    assert.strictEqual(requests.length, 1);
    assert.ok(!other.outcome.failsAsBefore);
    assert.deepStrictEqual(other.outcome.baseline!.map((r) => r.status), ['passed']);
    assert.match(requests[0], /\(killed at the time limit\)\nOn the unchanged workspace \(nothing of yours applied\) this command passed\./);
  });

  it('fail-first: a time-out as on the unchanged workspace or the proposal observes nothing; one that names a failing case of DevA\'s, or hangs only there, does', () => {
    const files = ['test/theme.test.js'];
    const hung = timedOut('watching');
    assert.strictEqual(failFirstNotReached(hung, files, { base: timedOut('watching') }), true, 'killed on the unchanged workspace too');
    assert.strictEqual(failFirstNotReached(hung, files, { last: timedOut('') }), true, 'killed on the proposal too');
    assert.strictEqual(failFirstNotReached(timedOut('  ✖ follows the OS theme'), files, { base: timedOut('watching') }), false, "DevA's test failed before the kill");
    assert.strictEqual(failFirstNotReached(timedOut('at test/theme.test.js:3:1'), files, { base: timedOut('') }), false, "its test file named");
    // the command ends elsewhere: hanging without the change is what DevA's tests show
    const passed = { ...failedRun('  ✔ follows the OS theme'), status: 'passed' as const, passed: true, exitCode: 0 };
    assert.strictEqual(failFirstNotReached(hung, files, { last: passed }), false);
    assert.strictEqual(beforeFailureSaying({ ...hung, testsNotReached: true }), "killed at the time limit before it ran DevA's tests, as on the unchanged workspace or the proposal too: no fail-first observed");
  });

  it('TSR: a proposal run that ran no test, killed as the unchanged workspace\'s was, tested nothing; against another failure it did', () => {
    assert.strictEqual(proposalNotReached(timedOut('watching'), timedOut('')), true);
    assert.strictEqual(proposalNotReached(timedOut('watching'), failedRun('ERROR cannot start')), false, 'it ended there');
    assert.strictEqual(proposalNotReached(failedRun('SyntaxError: Unexpected token'), timedOut('')), false, 'it ended with the proposal');
    assert.strictEqual(proposalNotReached(timedOut("src/a.ts(3,1): error TS2304: Cannot find name 'x'."), timedOut('')), false, 'a problem of its own');
  });
});
