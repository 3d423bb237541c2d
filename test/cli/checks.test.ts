// The project's checks on DevA's proposal, end to end through the CLI and the fake Messages API, on a small real
// workspace whose `npm test` (node check.js) fails on a BUG marker naming file and line: a failing check goes back
// to DevA with its output, DevA's fix makes it pass; two failing fix rounds end with a clear outcome and the last
// proposal kept; a check that hangs is killed (with what it started) at the time limit. Checks run in a scratch copy
// in the temp dir: the user's tree is untouched without --apply, and the copy is gone afterwards.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { listFiles, runCli, tempDir, workspaceWithOriginalCape } from '../helpers/cli';
import { demoReplies } from '../helpers/demo';
import { repoRoot } from '../helpers/fixtures';
import { FIX_OK, firstProposal, runningAfter } from '../helpers/checksSession';

const TASK = 'task-checks';

const FIRST = firstProposal(TASK);

function text(content: unknown): string {
  return typeof content === 'string' ? content : (content as { text?: string }[]).map((b) => b.text ?? '').join('');
}

describe('CLI: checks on DevA\'s proposal and fix rounds', function () {
  this.timeout(120000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 256 }, (f) => (fake = f));

  const template = path.join(repoRoot(), 'test', 'checks', 'workspace');
  /** Each run gets its own TMPDIR, so the test can see that the scratch copy is removed. */
  const env = (tmp: string) => ({ ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'k', TMPDIR: tmp });
  // outside cape/ a session writes only the team's union-merge line for kpt_merged.md into .gitattributes (issue 11 §4)
  const snapshot = (ws: string) =>
    Object.fromEntries(listFiles(ws).filter((f) => !f.startsWith('cape/') && f !== '.gitattributes').map((f) => [f, fs.readFileSync(path.join(ws, f), 'utf8')]));

  it('fail → one fix round with the output → pass; the user\'s tree untouched without --apply; the copy removed', async () => {
    const ws = workspaceWithOriginalCape('cape-checks-ws-', template);
    fs.mkdirSync(path.join(ws, 'node_modules', 'dep'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
    const before = snapshot(ws);
    const tmp = tempDir('cape-checks-tmp-');
    const r = demoReplies(TASK);
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: FIRST }, { text: FIX_OK }, { text: r[4] });
    const run = await runCli(['start', '--workspace', ws, '--objective', 'Add multiplication', '--task', TASK, '--check', 'npm test', '--json'], env(tmp));
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 6, 'CM, POA, DA, DevA, one fix request, retrospective');
    // DevA is told up front, in its request's per-step part (not the cached system prompt), which checks will run
    const devaAsk = text(fake.requests[3].body.messages[0].content);
    assert.match(devaAsk, /## Checks on your proposal\nAfter your reply CAPE runs `npm test` on a scratch copy/);
    // (the role prompt names the section, in the cached system prompt; the section itself is per step)
    assert.ok(!JSON.stringify(fake.requests[3].body.system).includes('After your reply CAPE runs'));
    assert.ok(!JSON.stringify(fake.requests[0].body).includes('After your reply CAPE runs'), 'only DevA hears of them');

    // the fix request: in DevA's conversation, with the command, exit code and the output naming file and line
    const fixMsgs = fake.requests[4].body.messages;
    assert.strictEqual(text(fixMsgs.at(-2).content), FIRST, 'DevA\'s own reply precedes the fix request');
    const fixReq = text(fixMsgs.at(-1).content);
    assert.match(fixReq, /\$ npm test\n\(exited with code 1\)/);
    assert.match(fixReq, /src\/calc\.js:4: error: a BUG marker is left in the code/);
    assert.match(fixReq, /fix round 1 of 2/);
    assert.strictEqual(fake.requests[4].body.system.length, fake.requests[3].body.system.length, 'same system prompt as DevA');

    // the retrospective hears the results, not the output
    const retro = JSON.stringify(fake.requests[5].body.messages);
    assert.match(retro, /`npm test`: passed \(exit code 0, 2 run\(s\)\)/);
    assert.match(retro, /Fix rounds used: 1 of 2/);
    // the problem the output named, by file and message (no test case was named), never the output itself
    assert.match(retro, /- Fix round 1, after `npm test` failed \(problems: \\"src\/calc\.js: error: a BUG marker is left in the code\\"\): DevA changed src\/calc\.js\./, 'what failed and what DevA did about it');
    assert.ok(!retro.includes('src/calc.js:4:') && !retro.includes('exited with code'), 'no check output in the retrospective request');

    // the failing command ran once on the unchanged workspace too: it passes there, so the failure was the proposal's
    assert.deepStrictEqual(run.json.checks, [{ command: 'npm test', status: 'passed', passed: true, exitCode: 0, rounds: 2, unchangedWorkspace: 'passed' }]);
    assert.match(fixReq, /On the unchanged workspace \(nothing of yours applied\) this command passed\. A test failing only on your proposal usually fails because of it; one far from your change may be flaky \(timing, network\)\./);
    assert.deepStrictEqual(
      run.json.files.map((f: { path: string; status: string }) => [f.path, f.status]),
      [
        ['src/mul.js', 'proposed'],
        ['src/calc.js', 'proposed'],
      ],
    );
    assert.match(run.stderr, /✗ npm test failed \(exit 1\)/);
    assert.match(run.stderr, /↻ fix round 1 of 2: DevA gets the output of npm test/);
    assert.match(run.stderr, /✓ every check passes after 1 fix round/);

    // nothing written outside cape/, node_modules intact, the scratch copy gone
    assert.deepStrictEqual(snapshot(ws), before);
    assert.deepStrictEqual(fs.readdirSync(tmp), []);

    // the pair artifact keeps each round; the final proposal is the fixed one
    const pairDir = path.join(ws, 'cape', '5_sessions', 'pair');
    const rec = JSON.parse(fs.readFileSync(path.join(pairDir, fs.readdirSync(pairDir).find((f) => f.startsWith(`${TASK}_4_DevA_`))!), 'utf8'));
    assert.deepStrictEqual(rec.checks.runs.map((x: { round: number; passed: boolean; exitCode: number }) => [x.round, x.passed, x.exitCode]), [
      [0, false, 1],
      [1, true, 0],
    ]);
    assert.strictEqual(rec.checks.fixRounds[0].reply, FIX_OK);
    assert.strictEqual(rec.checks.fixRounds[0].request, fixReq);
    assert.deepStrictEqual(rec.checks.fixRounds[0].files.map((f: { path: string }) => f.path), ['src/calc.js']);
    const calc = rec.files.find((f: { path: string }) => f.path === 'src/calc.js');
    assert.ok(calc.content.includes("exports.mul = require('./mul').mul;\n") && !calc.content.includes('BUG'), calc.content);
  });

  it('two failing fix rounds: a clear outcome, and --apply writes the last proposal', async () => {
    const ws = workspaceWithOriginalCape('cape-checks-ws-', template);
    const tmp = tempDir('cape-checks-tmp-');
    const r = demoReplies(TASK);
    const fix1 = "I rewrote calc.js.\n<file path=\"src/calc.js\">\nexports.add = (a, b) => a + b;\nexports.mul = (a, b) => a * b; // BUG still\n</file>\n";
    const fix2 = 'The marker comes from the project, not from my files.';
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: FIRST }, { text: fix1 }, { text: fix2 }, { text: r[4] });
    const run = await runCli(['start', '--workspace', ws, '--objective', 'Add multiplication', '--task', TASK, '--check', 'npm test', '--apply', '--json'], env(tmp));
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 7, 'CM, POA, DA, DevA, two fix requests, retrospective');
    const second = text(fake.requests[5].body.messages.at(-1).content);
    assert.match(second, /fix round 2 of 2/);
    assert.match(second, /src\/calc\.js:2: error: a BUG marker/, 'the second request has the output of the fixed version');
    assert.strictEqual(text(fake.requests[5].body.messages.at(-2).content), fix1, 'the first fix is part of the conversation');

    assert.deepStrictEqual(run.json.checks, [{ command: 'npm test', status: 'failed', passed: false, exitCode: 1, rounds: 3, unchangedWorkspace: 'passed' }]);
    assert.strictEqual(run.json.checksNotRun, undefined, 'the checks ran and failed');
    assert.strictEqual(run.json.checksFailAsBefore, undefined);
    assert.match(run.stderr, /✗ checks still failing after 2 fix rounds: npm test \(exit 1\); DevA's last proposal is kept for review/);
    const retroAsk = JSON.stringify(fake.requests[6].body.messages);
    assert.match(retroAsk, /`npm test`: failed \(exit code 1, 3 run\(s\)\)/);
    assert.match(retroAsk, /- Fix round 1, after `npm test` failed \(problems: [^)]*\): DevA changed src\/calc\.js\./);
    assert.match(retroAsk, /- Fix round 2, after `npm test` failed \(problems: [^)]*\): DevA changed no file: \\"The marker comes from the project, not from my files\.\\"\./);
    assert.doesNotMatch(retroAsk, /flaky/, 'the rerun failed again');
    assert.match(retroAsk, /The final proposal still fails a check/);
    // the last proposal is what --apply wrote
    assert.strictEqual(fs.readFileSync(path.join(ws, 'src', 'calc.js'), 'utf8'), 'exports.add = (a, b) => a + b;\nexports.mul = (a, b) => a * b; // BUG still\n');
    assert.strictEqual(fs.readFileSync(path.join(ws, 'src', 'mul.js'), 'utf8'), 'exports.mul = (a, b) => a * b;\n');
    assert.deepStrictEqual(fs.readdirSync(tmp), []);
  });

  it('a check that already fails on the unchanged workspace, with the same test cases: no fix round, and everyone is told', async () => {
    const ws = workspaceWithOriginalCape('cape-checks-ws-', template);
    const tmp = tempDir('cape-checks-tmp-');
    // a project test that fails whatever DevA does (spec reporter lines, as mocha or node:test print them)
    fs.writeFileSync(path.join(ws, 'legacy.js'), "console.log('  ✔ adds');\nconsole.log('  ✖ rounds half to even');\nprocess.exit(1);\n");
    const r = demoReplies(TASK);
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: FIRST }, { text: r[4] });
    const run = await runCli(['start', '--workspace', ws, '--objective', 'Add multiplication', '--task', TASK, '--check', 'node legacy.js', '--json'], env(tmp));
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 5, 'CM, POA, DA, DevA, retrospective: no fix request');
    assert.deepStrictEqual(run.json.checks, [{ command: 'node legacy.js', status: 'failed', passed: false, exitCode: 1, rounds: 1, unchangedWorkspace: 'failed' }]);
    assert.strictEqual(run.json.checksFailAsBefore, true);
    assert.match(run.stderr, /▷ check on the unchanged workspace, to compare the failure: node legacy\.js/);
    assert.match(run.stderr, /· on the unchanged workspace, node legacy\.js failed too \(1 test case failing\)/);
    assert.match(run.stderr, /✗ node legacy\.js fails as on the unchanged workspace \(the same failing test cases or problems, the same output where it names neither, or killed at the time limit there too\): not the proposal's doing, so DevA was not asked to fix it/);
    const retroAsk = JSON.stringify(fake.requests[4].body.messages);
    assert.match(retroAsk, /- On the unchanged workspace \(nothing of DevA's applied\), after its first failure: `node legacy\.js` failed \(failing: \\"rounds half to even\\"\)\./);
    assert.match(retroAsk, /Fix rounds used: 0 of 2\. The final proposal fails only as the unchanged workspace does/);
    const pairDir = path.join(ws, 'cape', '5_sessions', 'pair');
    const rec = JSON.parse(fs.readFileSync(path.join(pairDir, fs.readdirSync(pairDir).find((f) => f.startsWith(`${TASK}_4_DevA_`))!), 'utf8'));
    assert.strictEqual(rec.checks.failsAsBefore, true);
    assert.strictEqual(rec.checks.baseline[0].status, 'failed');
    assert.deepStrictEqual(fs.readdirSync(tmp), [], 'both scratch copies removed');
  });

  it('a check that hangs is killed at the time limit, with the processes it started', async () => {
    const ws = workspaceWithOriginalCape('cape-checks-ws-', template);
    const tmp = tempDir('cape-checks-tmp-');
    const pids = path.join(tempDir('cape-checks-pids-'), 'pids.txt');
    // the check starts a grandchild, writes both pids, and never ends
    fs.writeFileSync(
      path.join(ws, 'hang.js'),
      "const { spawn } = require('child_process');\n" +
        "const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });\n" +
        "require('fs').writeFileSync(process.argv[2], `${process.pid} ${child.pid}`);\n" +
        "console.log('src/calc.js:1: waiting forever');\n" +
        'setInterval(() => {}, 1000);\n',
    );
    const r = demoReplies(TASK);
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: FIRST }, { text: r[4] });
    const run = await runCli(
      ['start', '--workspace', ws, '--objective', 'Add multiplication', '--task', TASK, '--check', `node hang.js ${pids}`, '--check-timeout', '2', '--fix-rounds', '0', '--json'],
      env(tmp),
    );
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 5, 'no fix round with --fix-rounds 0');
    // it hangs on the unchanged workspace too (killed there as well), naming the same problem: already there
    assert.strictEqual(run.json.checksFailAsBefore, true);
    assert.deepStrictEqual(run.json.checks, [{ command: `node hang.js ${pids}`, status: 'timeout', passed: false, exitCode: null, rounds: 1, unchangedWorkspace: 'timeout' }]);
    assert.match(run.stderr, /killed at the time limit/);
    for (const pid of fs.readFileSync(pids, 'utf8').split(' ').map(Number)) {
      assert.ok(!(await runningAfter(pid, 10000)), `process ${pid} was killed`);
    }
    const pairDir = path.join(ws, 'cape', '5_sessions', 'pair');
    const rec = JSON.parse(fs.readFileSync(path.join(pairDir, fs.readdirSync(pairDir).find((f) => f.startsWith(`${TASK}_4_DevA_`))!), 'utf8'));
    assert.strictEqual(rec.checks.runs[0].status, 'timeout');
    assert.match(rec.checks.runs[0].output, /src\/calc\.js:1: waiting forever[\s\S]*\[killed: the check ran longer than 2 s\]/);
    assert.deepStrictEqual(fs.readdirSync(tmp), []);
  });

  it('a workspace past --check-copy-limit is not copied: its check says why, the session goes on without a fix round', async () => {
    const ws = workspaceWithOriginalCape('cape-checks-ws-', template);
    // 1 MB allows 100 files: 150 small data files are past it, though far from 1 MB
    for (let i = 0; i < 150; i++) fs.writeFileSync(path.join(ws, `fixture-${i}.txt`), 'x');
    const tmp = tempDir('cape-checks-tmp-');
    const r = demoReplies(TASK);
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: FIRST }, { text: r[4] });
    const run = await runCli(['start', '--workspace', ws, '--objective', 'Add multiplication', '--task', TASK, '--check', 'npm test', '--check-copy-limit', '1', '--json'], env(tmp));
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 5, 'no fix round');
    // --json tells a check that could not start from one that failed: its status, and why none could start
    assert.deepStrictEqual(run.json.checks, [{ command: 'npm test', status: 'error', passed: false, exitCode: null, rounds: 1 }]);
    assert.match(run.json.checksNotRun, /^the workspace holds more than 100 files to copy \(/);
    assert.match(run.stderr, /✗ npm test could not start/);
    assert.match(run.stderr, /not run: the workspace holds more than 100 files to copy/);
    assert.match(run.stderr, /--check-copy-limit MB/);
    assert.match(run.stderr, /✗ No check could start \(the workspace holds more than 100 files to copy .*\): nothing tested DevA's proposal\. It is kept for review\.\n/);
    assert.doesNotMatch(run.stderr, /still failing/);
    // nothing ran DevA's tests: the computed TSR is unknown, not 0 (metrics/tsr.ts lastRuns)
    assert.strictEqual(run.json.metrics.tsr, null);
    assert.ok(run.json.metrics.criteria.length && run.json.metrics.criteria.every((c: { computed?: string }) => c.computed === undefined), JSON.stringify(run.json.metrics.criteria));
    assert.match(JSON.stringify(fake.requests[4].body.messages), /`npm test`: could not start/, 'the retrospective hears it did not run');
    assert.deepStrictEqual(fs.readdirSync(tmp), [], 'nothing was copied');
  });

  it('without --check the detected commands are named, not run; --check auto runs them', async () => {
    const ws = workspaceWithOriginalCape('cape-checks-ws-', template);
    const r = demoReplies(TASK);
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: FIRST }, { text: r[4] });
    let run = await runCli(['start', '--workspace', ws, '--objective', 'x', '--task', TASK, '--json'], env(tempDir('cape-checks-tmp-')));
    assert.strictEqual(run.code, 0, run.stderr);
    assert.match(run.stderr, /Checks detected but not run \(pass --check auto to run them on DevA's proposal\): npm test \(package\.json script "test"\)/);
    assert.deepStrictEqual(run.json.checks, []);
    assert.strictEqual(fake.requests.length, 5);
    // checks found but not run: DevA and the retrospective are told nothing tested the proposal, nobody else
    const devaAsk = text(fake.requests[3].body.messages[0].content);
    assert.match(devaAsk, /## Checks on your proposal\nThe project's checks \(`npm test`\) do not run in this session: nothing tests your files before the user reviews them\./);
    assert.doesNotMatch(devaAsk, /After your reply CAPE runs/);
    assert.match(text(fake.requests[4].body.messages[0].content), /## The project's checks on DevA's proposal\nNot run in this session \(found: `npm test`\): no test of DevA's files has run\./);
    // the opening hears it too, so its coaching does not ask for test runs that will not happen; POA and DA do not
    assert.match(text(fake.requests[0].body.messages[0].content), /## The project's checks\nFound but not run in this session: `npm test`\. Nothing tests DevA's proposal before the user reviews it\./);
    for (const i of [1, 2]) assert.ok(!JSON.stringify(fake.requests[i].body).includes("project's checks"), `request ${i}`);

    fake.reset();
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: FIRST }, { text: FIX_OK }, { text: r[4] });
    run = await runCli(['start', '--workspace', ws, '--objective', 'x', '--task', `${TASK}-2`, '--check', 'auto', '--fix-rounds', '1', '--json'], env(tempDir('cape-checks-tmp-')));
    assert.strictEqual(run.code, 0, run.stderr);
    assert.deepStrictEqual(run.json.checks, [{ command: 'npm test', status: 'passed', passed: true, exitCode: 0, rounds: 2, unchangedWorkspace: 'passed' }]);
    assert.match(run.stderr, /Checks on DevA's proposal: npm test \(up to 1 fix round\)/);
    assert.doesNotMatch(JSON.stringify(fake.requests.map((q) => q.body.messages)), /do not run in this session|Not run in this session|Found but not run/);
    assert.match(text(fake.requests[0].body.messages[0].content), /## The project's checks\nCAPE runs `npm test` on DevA's proposal in a scratch copy/);
    assert.ok(!JSON.stringify(fake.requests[0].body.system).includes('CAPE runs'), 'per session: not in the cached system prompt');
  });

  it('refuses a bad --fix-rounds, --check-timeout, --check-copy-limit or --idle-timeout before anything is sent', async () => {
    const ws = workspaceWithOriginalCape('cape-checks-ws-', template);
    const cases: [string[], RegExp][] = [
      [['--check', 'auto', '--fix-rounds', 'two'], /--fix-rounds takes a whole number ≥ 0 \(got "two"\)/],
      [['--check', 'auto', '--fix-rounds', ''], /--fix-rounds takes a whole number ≥ 0 \(got ""\)/],
      [['--check', 'auto', '--check-timeout', '0'], /--check-timeout takes a number of seconds > 0 \(got "0"\)/],
      [['--check', 'auto', '--check-copy-limit', '0'], /--check-copy-limit takes a number of MB > 0 \(got "0"\)/],
      [['--check-copy-limit', '50'], /--check-copy-limit, --fail-first and --no-format go with --check CMD/],
      [['--idle-timeout', 'soon'], /--idle-timeout takes a number of seconds > 0 \(got "soon"\)/],
    ];
    for (const [flags, message] of cases) {
      const run = await runCli(['start', '--workspace', ws, '--objective', 'x', ...flags], env(tempDir('cape-checks-tmp-')));
      assert.strictEqual(run.code, 2, `${flags.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message);
    }
    assert.strictEqual(fake.requests.length, 0);
  });
});
