// src/core/checks/verdict.ts: checks none of which could start are told so, and why, the same on every surface that
// sums up the checks (the checks-finished event the panel reads, the CLI's transcript, the retrospective) — never as
// a proposal "still failing after 0 fix rounds"; and a run that never started is no verdict of a criterion's tests
// (metrics/tsr.ts lastRuns, the retrospective's criteria). A fail-first run that failed otherwise than by its test
// cases failing is told in one wording on every surface (beforeFailureSaying).
import * as assert from 'assert';
import { PassThrough } from 'stream';
import { beforeFailureSaying, checksFinished, failFirstFailingSaying, markedAlready, checksForRetro, fixRequest, notRunReason, notRunSaying, startedRuns, type CheckEvent, type CheckRun, type ChecksOutcome } from '../../src/core';
import { printer } from '../../src/cli/printer';
import { computeTsr, lastRuns } from '../../src/core/metrics/tsr';
import { renderSources, type ContextInputs } from '../../src/core/session/context';

const run = (command: string, status: CheckRun['status'], output: string): CheckRun => ({ command, round: 0, status, passed: status === 'passed', exitCode: status === 'failed' ? 1 : null, durationMs: 5, output, outputChars: output.length });

const outcomeOf = (runs: CheckRun[]): ChecksOutcome => ({ commands: runs.map((r) => r.command), runs, fixRounds: [], maxFixRounds: 2, passed: false });

/** What the CLI's transcript prints for these check events. */
function cliText(...events: CheckEvent[]): string {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d) => (text += d));
  for (const event of events) printer(out)({ type: 'check', step: 'deva', event });
  return text;
}

/** What the CLI's transcript prints for the end of these checks. */
const cliEnd = (outcome: ChecksOutcome): string => cliText(checksFinished(outcome));

describe('checks: the end told when no check could start', () => {
  const spawnFailed = outcomeOf([run('npm test', 'error', '[could not start: spawn /bin/sh ENOENT]'), run('npm run lint', 'error', '[could not start: spawn /bin/sh ENOENT]')]);

  it('the reason is the first run\'s, short; none when a run started or none was made', () => {
    assert.strictEqual(notRunReason(spawnFailed.runs), 'spawn /bin/sh ENOENT');
    assert.strictEqual(notRunReason([run('npm test', 'error', `[not run: ${'x'.repeat(300)} is too large. Raise the limit.]`)])?.length, 200);
    assert.strictEqual(notRunReason([run('npm test', 'error', '[not run: the workspace is too large. Raise it.]')]), 'the workspace is too large');
    assert.strictEqual(notRunReason([run('npm test', 'error', '[could not start: x]'), run('npm run lint', 'failed', 'boom')]), null);
    assert.strictEqual(notRunReason([]), null);
    assert.deepStrictEqual(startedRuns([run('a', 'error', ''), run('b', 'timeout', ''), run('c', 'failed', '')]).map((r) => r.command), ['b', 'c']);
  });

  it('the event, the CLI and the retrospective say nothing tested the proposal, and why, not that it still fails', () => {
    const end = checksFinished(spawnFailed);
    assert.strictEqual(end.notRun, 'spawn /bin/sh ENOENT');
    const saying = notRunSaying('spawn /bin/sh ENOENT');
    assert.strictEqual(saying, "No check could start (spawn /bin/sh ENOENT): nothing tested DevA's proposal.");
    assert.strictEqual(cliEnd(spawnFailed), `  ✗ ${saying} It is kept for review.\n`);
    const retro = checksForRetro(spawnFailed);
    assert.ok(retro.endsWith(`Fix rounds used: 0 of 2. ${saying} It is kept for the human to review.`), retro);
  });

  it('checks of which one ran and failed still fail: the event has no reason, the CLI says still failing', () => {
    const mixed = outcomeOf([run('npm test', 'failed', 'boom'), run('npm run lint', 'error', '[could not start: spawn ENOENT]')]);
    assert.strictEqual(checksFinished(mixed).notRun, undefined);
    assert.match(cliEnd(mixed), /✗ checks still failing after 0 fix rounds: npm test \(exit 1\), npm run lint \(could not start\)/);
    assert.match(checksForRetro(mixed), /The final proposal still fails a check/);
  });
});

describe('checks: how a run ended, in the same words on every surface (runStatusWord)', () => {
  const runs = [run('npm test', 'timeout', ''), run('npm run e2e', 'cancelled', ''), run('npm run lint', 'error', '[could not start: x]'), run('tsc', 'failed', 'boom')];

  it('the CLI, the retrospective and the fix request say killed at the time limit, stopped, could not start', () => {
    assert.match(cliEnd(outcomeOf(runs)), /npm test \(killed at the time limit\), npm run e2e \(stopped\), npm run lint \(could not start\), tsc \(exit 1\)/);
    const run1 = cliText(...runs.map((r): CheckEvent => ({ type: 'check-finished', run: r })));
    assert.match(run1, /✗ npm test killed at the time limit .*\n[^]*✗ npm run e2e stopped .*\n[^]*✗ npm run lint could not start /);
    // on the unchanged workspace, and before the change (fail-first): a stopped run is not one that could not start
    assert.match(cliText({ type: 'check-finished', run: runs[1], baseline: true }), /on the unchanged workspace, npm run e2e stopped /);
    assert.match(cliText({ type: 'check-finished', run: runs[1], before: true }), /before the change, npm run e2e stopped /);
    const retro = checksForRetro(outcomeOf(runs));
    assert.match(retro, /- `npm test`: killed at the time limit \(exit code none, 1 run\(s\)\)\n- `npm run e2e`: stopped \(.*\n- `npm run lint`: could not start \(.*\n- `tsc`: failed \(exit code 1/);
    const request = fixRequest(runs, 1, 2);
    assert.match(request, /\$ npm test\n\(killed at the time limit\)\n[^]*\$ npm run lint\n\(could not start\)\n[^]*\$ tsc\n\(exited with code 1\)/);
  });
});

describe('checks: a run that never started is no verdict of the criteria', () => {
  const POA = { acceptance_criteria: [{ id: 'AC-1', then: 'it adds' }, { id: 'AC-2', then: 'the suite passes' }] };
  const DEVA = { criteria_tests: [{ criterion: 'AC-1', file: 'test/add.test.js', test: 'adds', expect: 'fail' }, { criterion: 'AC-2', check: 'npm run e2e' }] };
  const tsrOf = (outcome: ChecksOutcome) => computeTsr({ poaOutput: POA, devaOutput: DEVA, checks: lastRuns(outcome), fileExists: () => true });
  const notCopied = outcomeOf([run('npm test', 'error', '[not run: the workspace holds more than 5 files to copy. Raise the limit.]'), run('npm run e2e', 'error', '[not run: the same]')]);

  it('none started (the copy limit, a shell not spawned): no TSR and no computed verdict, as when no check ran', () => {
    assert.strictEqual(lastRuns(notCopied), null);
    const tsr = tsrOf(notCopied);
    assert.strictEqual(tsr.tsr, null);
    assert.deepStrictEqual(tsr.criteria.map((c) => c.computed), [undefined, undefined]);
  });

  it('one that did not start beside one that ran: the criteria only it would show have no test, none failed', () => {
    const mixed = outcomeOf([run('npm test', 'passed', 'ok 1 - adds\n'), run('npm run e2e', 'error', '[could not start: spawn /bin/sh EAGAIN]')]);
    assert.deepStrictEqual(lastRuns(mixed)!.map((r) => r.command), ['npm test']);
    const tsr = tsrOf(mixed);
    assert.deepStrictEqual(tsr.criteria.map((c) => c.computed), ['pass', 'no_test']);
    // a command whose last run did not start is not judged by an earlier run of it either (that was another proposal)
    const later = { ...mixed, runs: [run('npm run e2e', 'failed', 'boom'), ...mixed.runs.map((r) => ({ ...r, round: 1 }))], fixRounds: [] };
    assert.deepStrictEqual(tsrOf(later).criteria.map((c) => c.computed), ['pass', 'no_test']);
  });

  it("the retrospective's criteria: no verdict from checks that never started, no fail-first from runs that never started", () => {
    const inputs = (checks: ChecksOutcome) => ({ envelopes: { poa: { output: POA }, deva: { output: DEVA } }, checks, fileExists: () => true, devaFiles: [] }) as unknown as ContextInputs;
    const none = renderSources('cm_retro', ['retro:criteria'], inputs(notCopied));
    assert.doesNotMatch(none, /failed|in the checks' last run/, none);
    const ran = outcomeOf([run('npm test', 'passed', 'ok 1 - adds\n')]);
    const beforeNotStarted = { ...ran, before: { testFiles: ['test/add.test.js'], runs: [run('npm test', 'error', '[could not start: spawn /bin/sh EAGAIN]')], notWritten: [] } };
    const text = renderSources('cm_retro', ['retro:criteria'], inputs(beforeNotStarted));
    assert.match(text, /AC-1: .* in the checks' last run: passed/);
    assert.doesNotMatch(text, /unchanged code|fail-first observed/, text);
  });
});

describe('checks: a fail-first run that failed otherwise than by its test cases failing (beforeFailureSaying)', () => {
  const failed = (extra: Partial<CheckRun>): CheckRun => ({ ...run('npm test', 'failed', 'npm ERR! Cannot find module ./theme'), ...extra });
  const NOT_REACHED = 'failed before it ran DevA\'s tests ("npm ERR! Cannot find module ./theme"): no fail-first observed';
  const UNBUILT = "failed: DevA's tests did not build or load without the change";

  it('says it failed before it ran the tests (first, as that observed nothing), else that they did not build; nothing for another run', () => {
    assert.strictEqual(beforeFailureSaying(failed({ testsNotReached: true, unbuilt: true })), NOT_REACHED);
    assert.strictEqual(beforeFailureSaying(failed({ unbuilt: true })), UNBUILT);
    assert.strictEqual(beforeFailureSaying(failed({})), undefined);
  });

  it('counts a cargo test run once per target by its targets when some did not build and the others ran', () => {
    const cargo = (targets: string[], unbuilt: string[], passed = 2, failing = 1) => failed({ unbuilt: true, byTarget: { crate: '', targets, unbuilt, passed, failed: failing } });
    assert.strictEqual(beforeFailureSaying(cargo(['bump', 'guard'], ['bump'])), 'failed: 1 of 2 test targets did not build without the change (bump); the other ran: 2 passed, 1 failed');
    assert.strictEqual(beforeFailureSaying(cargo(['a', 'b', 'c'], ['a'], 4, 0)), 'failed: 1 of 3 test targets did not build without the change (a); the others ran: 4 passed, 0 failed');
    // none ran (every target, or none of them by name: the crate's lib did not build): the whole run did not build
    assert.strictEqual(beforeFailureSaying(cargo(['bump', 'guard'], ['bump', 'guard'], 0, 0)), UNBUILT);
    assert.strictEqual(beforeFailureSaying(cargo(['bump', 'guard'], [], 0, 0)), UNBUILT);
    // a run that failed before it reached the tests says that first
    assert.strictEqual(beforeFailureSaying({ ...cargo(['bump', 'guard'], ['bump']), testsNotReached: true }), NOT_REACHED);
  });

  it('the CLI and the retrospective tell it in those words after the command, and a plain failure as a test of the change should', () => {
    const before = (r: CheckRun): string => cliText({ type: 'check-finished', run: r, before: true });
    assert.match(before(failed({ testsNotReached: true })), new RegExp(`before the change, npm test ${NOT_REACHED.replace(/[()]/g, '\\$&')} · `));
    assert.match(before(failed({ unbuilt: true })), new RegExp(`before the change, npm test ${UNBUILT} · `));
    assert.match(before(failed({})), /before the change, npm test failed, as a test of the change should · /);
    // it passes on the proposal: the run before it reached the tests (notReached.ts would mark it otherwise)
    const retro = (r: CheckRun): string => checksForRetro({ ...outcomeOf([run('npm test', 'passed', '')]), before: { testFiles: ['test/theme.test.js'], runs: [r], notWritten: [] } });
    assert.ok(retro(failed({ unbuilt: true })).includes(`on the unchanged code: \`npm test\` ${UNBUILT}.`));
    assert.ok(retro(failed({})).includes('on the unchanged code: `npm test` failed.'));
  });
});

describe("checks: a fail-first run's failing cases, the suite's own failures counted apart (markedAlready, failFirstFailingSaying)", () => {
  const run = (tests: { name: string; passed: boolean }[]): CheckRun => ({ command: 'pytest', round: 0, status: 'failed', passed: false, exitCode: 1, durationMs: 1, output: '', outputChars: 0, tests });
  it('marks the cases the unchanged workspace failed too, and says them apart', () => {
    const base = run([{ name: 'old_a', passed: false }, { name: 'old_b', passed: false }, { name: 'ok', passed: true }]);
    const before = markedAlready(run([{ name: 'old_a', passed: false }, { name: 'old_b', passed: false }, { name: 'new_1', passed: false }, { name: 'ok', passed: false }]), base);
    assert.deepStrictEqual(before.tests!.map((t) => !!t.already), [true, true, false, false], 'a case that passed there is DevA\'s to fail');
    assert.strictEqual(failFirstFailingSaying(before), "2 test cases failing, and 2 that fail without DevA's test files too");
    assert.strictEqual(failFirstFailingSaying(markedAlready(run([{ name: 'old_a', passed: false }]), base)), "only 1 test case that fails without DevA's test files too");
    // no run to compare with, or none failed there: as it was
    const plain = run([{ name: 'new_1', passed: false }]);
    assert.strictEqual(markedAlready(plain, undefined), plain);
    assert.strictEqual(failFirstFailingSaying(plain), '1 test case failing');
    assert.strictEqual(failFirstFailingSaying(run([])), '');
  });
});
