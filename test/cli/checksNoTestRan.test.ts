// A test command that fails before it runs any test — in a trial, pnpm refusing to start — the same way on DevA's
// proposal and on the unchanged workspace, end to end through the CLI and the fake Messages API: no fix round, the
// fail-first run says it ran none of DevA's tests (no "fail-first observed"), and the criteria are not run rather
// than failed (TSR —, not 0%). The control: a new error line only with DevA's proposal still gets its fix round. And a
// test command that never returns here (a watcher), killed at the time limit on both: the same, in the words of a
// time-out.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic/server';
import { checksWorkspace, runWithChecks } from '../helpers/toolchainSession';
import { runCli, workspaceWithOriginalCape } from '../helpers/cli';
import { demoDir, demoRepliesWithDevA, type CriterionTest } from '../helpers/demo';

const CANNOT_START = `node -e "console.error('ERROR  cannot start: tool missing'); process.exit(1)"`;
/** As CANNOT_START, with a second error line when DevA's src/theme.js is there. */
const WORSE_WITH_DEVA = `node -e "console.error('ERROR  cannot start: tool missing'); if (require('fs').existsSync('src/theme.js')) console.error('ERROR  the theme could not be loaded'); process.exit(1)"`;

/** Never returns: killed at the time limit on the proposal, on the unchanged workspace and before the change alike. */
const WATCHER = `node -e "console.log('watching for file changes'); setInterval(() => {}, 1000)"`;

const TEST_FILE = "<file path=\"test/theme.test.js\">\nconsole.log(require('../src/theme') ? '  ✔ follows the OS theme' : '');\n</file>";
const tests = (check: string): CriterionTest[] => [
  { criterion: 'AC-1', file: 'test/theme.test.js', test: 'follows the OS theme', expect: 'fail' },
  { criterion: 'AC-2', file: 'test/theme.test.js', test: 'toggles', expect: 'fail' },
  { criterion: 'AC-3', check },
];

describe('CLI: a test command that fails before any test, as on the unchanged workspace', function () {
  this.timeout(120000);
  let fake: FakeAnthropic;
  before(async () => {
    fake = await startFakeAnthropic({ chunkSize: 256 });
  });
  after(async () => fake?.close());

  it('no fix round, no fail-first observed, its criteria not run (TSR —, not 0%)', async () => {
    fake.reset();
    const ws = checksWorkspace(fake, 'task-nostart', {}, TEST_FILE, tests(CANNOT_START));
    const run = await runWithChecks(fake, ws, 'task-nostart', 'Add a dark mode', CANNOT_START);
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 5, 'CM, POA, DA, DevA, retrospective: no fix request');
    assert.strictEqual(run.json.checksFailAsBefore, true);
    assert.deepStrictEqual(run.json.checks, [{ command: CANNOT_START, status: 'failed', passed: false, exitCode: 1, rounds: 1, unchangedWorkspace: 'failed' }]);
    assert.match(run.stderr, / fails as on the unchanged workspace \(the same failing test cases or problems, the same output where it names neither, or killed at the time limit there too\): not the proposal's doing/);
    assert.doesNotMatch(run.stderr, /fix round 1/);

    // fail-first: the command ran none of DevA's tests, and says why
    assert.match(run.stderr, /· before the change, node -e .* failed before it ran DevA's tests \("ERROR cannot start: tool missing"\): no fail-first observed ·/);
    assert.doesNotMatch(run.stderr, /as a test of the change should/);
    assert.deepStrictEqual(run.json.failFirst.checks, [{ command: CANNOT_START, passed: false, exitCode: 1, status: 'failed', testsNotReached: true }]);

    // TSR: not run, out of the count; fail-first not told
    const m = run.json.metrics;
    assert.deepStrictEqual(
      m.criteria.map((c: { id: string; computed: string; before?: string }) => [c.id, c.computed, c.before ?? null]),
      [
        ['AC-1', 'not_run', 'no_test'],
        ['AC-2', 'not_run', 'no_test'],
        ['AC-3', 'not_run', null],
      ],
    );
    assert.strictEqual(m.tsr, null);
    assert.strictEqual(m.tsrNotRun, 3);
    assert.match(run.stderr, / · TSR — of 3 criteria, all not run \(judged —\)/);
    const md = fs.readFileSync(run.json.retrospectivePath, 'utf8');
    assert.match(md, /\| TSR \| — \(all 3 not run\) \|/);
    assert.match(md, /\| AC-1 [^\n]*\| not run \(no test ran\) \| not told \|/);
    const retroAsk = JSON.stringify(fake.requests[4].body.messages);
    assert.match(retroAsk, /on the unchanged code: `node -e [^`]*` failed before it ran DevA's tests \(\\"ERROR cannot start: tool missing\\"\): no fail-first observed\./);
    assert.match(retroAsk, /- AC-1: [^\\]* — in the checks' last run: not run \(no test ran\); with only DevA's tests on the unchanged code: not told/);
    assert.match(retroAsk, /The final proposal fails only as the unchanged workspace does/);
  });

  it('the control: a new error line only with DevA\'s proposal gets its fix round', async () => {
    fake.reset();
    const ws = workspaceWithOriginalCape('cape-task-nostart-2-', path.join(demoDir(), 'workspace'));
    // DevA's fix round comes between its reply and the retrospective
    const r = demoRepliesWithDevA('task-nostart-2', TEST_FILE, tests(WORSE_WITH_DEVA));
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: r[3] }, { text: 'The tool is missing in this environment, not my files.' }, { text: r[4] });
    const run = await runWithChecks(fake, ws, 'task-nostart-2', 'Add a dark mode', WORSE_WITH_DEVA);
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 6, 'one fix request');
    assert.match(run.stderr, /↻ fix round 1 of 2: DevA gets the output of node -e/);
    assert.strictEqual(run.json.checksFailAsBefore, undefined);
    assert.strictEqual(run.json.checksFixDeclined, true);
    const fixAsk = JSON.stringify(fake.requests[4].body.messages.at(-1));
    assert.match(fixAsk, /ERROR  the theme could not be loaded/);
    assert.match(fixAsk, /On the unchanged workspace \(nothing of yours applied\) this command fails too \(exit code 1\): see whether the failure is yours/);
    // no test ran there either: its criteria were not run; before the change it printed what the unchanged code prints
    assert.deepStrictEqual(run.json.metrics.criteria.map((c: { computed: string }) => c.computed), ['not_run', 'not_run', 'not_run']);
    assert.strictEqual(run.json.failFirst.checks[0].testsNotReached, true);
  });

  it('a command killed at the time limit on both: no fix round, told as already there; no fail-first observed; its criteria not run', async () => {
    fake.reset();
    const ws = checksWorkspace(fake, 'task-watch', {}, TEST_FILE, tests(WATCHER));
    const args = ['start', '--workspace', ws, '--objective', 'Add a dark mode', '--task', 'task-watch', '--check', WATCHER, '--check-timeout', '1', '--fail-first', '--json'];
    const run = await runCli(args, { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'k' });
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 5, 'CM, POA, DA, DevA, retrospective: no fix request');
    assert.strictEqual(run.json.checksFailAsBefore, true);
    assert.deepStrictEqual(run.json.checks, [{ command: WATCHER, status: 'timeout', passed: false, exitCode: null, rounds: 1, unchangedWorkspace: 'timeout' }]);
    assert.match(run.stderr, / fails as on the unchanged workspace \(the same failing test cases or problems, the same output where it names neither, or killed at the time limit there too\): not the proposal's doing/);
    assert.doesNotMatch(run.stderr, /fix round 1/);
    assert.match(run.stderr, /· before the change, node -e .* killed at the time limit before it ran DevA's tests, as on the unchanged workspace or the proposal too: no fail-first observed ·/);
    assert.deepStrictEqual(run.json.failFirst.checks, [{ command: WATCHER, passed: false, exitCode: null, status: 'timeout', testsNotReached: true }]);
    assert.deepStrictEqual(
      run.json.metrics.criteria.map((c: { id: string; computed: string; before?: string }) => [c.id, c.computed, c.before ?? null]),
      [
        ['AC-1', 'not_run', 'no_test'],
        ['AC-2', 'not_run', 'no_test'],
        ['AC-3', 'not_run', null],
      ],
    );
    assert.strictEqual(run.json.metrics.tsr, null);
    assert.match(JSON.stringify(fake.requests[4].body.messages), /The final proposal fails only as the unchanged workspace does \(the same failing test cases or problems, the same output where it names neither, or killed at the time limit there too\)/);
  });
});
