// E2E: the project's checks on DevA's proposal in the panel. (1) The check fails on DevA's first proposal, passes on
// the unchanged code (so the failure is the proposal's), one fix round makes it pass: the runs (command, pass/fail,
// duration, the output collapsible) and the fix round show under DevA's turn, and the user's files are untouched. (2) Stop while a check runs: the check blocks on a file this test
// controls (never on timing), Stop kills it, the step ends as stopped and the check as stopped.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic/server';
import { copyDir } from '../helpers/cli';
import { FIX_OK, firstProposal, runningAfter } from '../helpers/checksSession';
import { demoReplies } from '../helpers/demo';
import { originalProjectDir, repoRoot } from '../helpers/fixtures';
import { closeAfterSuite, makeWorkspace, openCape, panel, shot, startSession, stepStatus, waitFor, waitForSessionDone, type E2eEnv } from './helpers';

const TASK = 'task-e2e-checks';

describe('e2e: checks on DevA\'s proposal — rounds in the panel, Stop during a check', function () {
  this.timeout(300_000);
  let fake: FakeAnthropic;
  let env: E2eEnv;
  const ctl = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-e2e-checks-ctl-'));
  const command = `node gate.js ${ctl} && node check.js`;

  before(async () => {
    fake = await startFakeAnthropic({ chunkSize: 64, chunkDelayMs: 2 });
    const ws = makeWorkspace(path.join(repoRoot(), 'test', 'checks', 'workspace'));
    copyDir(path.join(originalProjectDir(), 'cape'), path.join(ws, 'cape'));
    env = await openCape(ws, fake.url, { 'cape.checks': [command] });
  });

  closeAfterSuite(() => env, () => fake, () => ({ close: async () => fs.rmSync(ctl, { recursive: true, force: true }) }));

  it('shows each check run and the fix round under DevA\'s turn; the output opens; nothing is written', async () => {
    const { page, workspace } = env;
    const before = fs.readFileSync(path.join(workspace, 'src', 'calc.js'), 'utf8');
    const r = demoReplies(TASK);
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: firstProposal(TASK) }, { text: FIX_OK }, { text: r[4] });
    await startSession(page, 'Add multiplication');
    const wv = await panel(page);
    await waitForSessionDone(wv, 180_000);

    const deva = wv.locator('.session[data-current="true"] .turn[data-step="deva"] .checks');
    const runs = deva.locator('.check-run');
    // the first run fails; the check then runs on the unchanged code (it passes: the failure is the proposal's); the
    // run after the fix round passes
    assert.strictEqual(await runs.count(), 3);
    assert.deepStrictEqual(
      await runs.evaluateAll((els) => els.map((e) => [e.getAttribute('data-status'), e.getAttribute('data-on')])),
      [
        ['failed', null],
        ['passed', 'baseline'],
        ['passed', null],
      ],
    );
    assert.strictEqual((await runs.nth(0).locator('.check-command').innerText()).trim(), command);
    assert.match(await runs.nth(0).locator('.check-status').innerText(), /failed · exit 1/);
    assert.match(await runs.nth(0).locator('.check-round').innerText(), /first run/);
    assert.match(await runs.nth(1).locator('.check-round').innerText(), /your unchanged code/);
    assert.match(await runs.nth(2).locator('.check-round').innerText(), /after fix 1/);
    assert.match(await runs.nth(0).locator('.check-duration').innerText(), /\d/);
    assert.match(await deva.locator('.check-fix').innerText(), /Fix round 1 of 2: DevA fixes node gate\.js[\s\S]*Changed src\/calc\.js/);
    assert.match(await deva.locator('.check-outcome').innerText(), /Every check passes after 1 fix round\./);

    // the output is collapsed, and opens on a click: plain text naming file and line
    const output = runs.nth(0).locator('.check-output');
    assert.strictEqual(await output.getAttribute('open'), null, 'collapsed at first');
    await output.locator('summary').click();
    await waitFor('the output to open', async () => (await output.getAttribute('open')) !== null);
    assert.match(await output.locator('.check-output-text').innerText(), /src\/calc\.js:4: error: a BUG marker is left in the code/);
    await shot(page, 'checks-1-rounds');

    // the fixed proposal is the one offered; the user's file is untouched
    assert.strictEqual(fs.readFileSync(path.join(workspace, 'src', 'calc.js'), 'utf8'), before);
    assert.ok(!fs.existsSync(path.join(workspace, 'src', 'mul.js')));
  });

  it('Stop during a running check kills it; DevA\'s step ends as stopped', async () => {
    const { page, workspace } = env;
    fs.writeFileSync(path.join(ctl, 'block'), '');
    const r = demoReplies(TASK);
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: firstProposal(TASK) });
    const requestsBefore = fake.requests.length;
    await startSession(page, 'Add multiplication again');
    const wv = await panel(page);

    // the check is running: the gate says so (its pid), and so does the panel
    const pid = Number(await waitFor('the gate to start', () => (fs.existsSync(path.join(ctl, 'started')) ? fs.readFileSync(path.join(ctl, 'started'), 'utf8') : ''), 180_000));
    const running = wv.locator('.session[data-current="true"] .turn[data-step="deva"] .check-run[data-status="running"]');
    await waitFor('the running check in the panel', async () => (await running.count()) === 1, 60_000);
    assert.strictEqual(await stepStatus(wv, 'deva'), 'running');
    await shot(page, 'checks-2-running');

    await wv.locator('.panel-header button[data-action="stop"]').click();
    await waitFor('DevA\'s step to end as stopped', async () => (await stepStatus(wv, 'deva')) === 'failed', 60_000);
    const box = wv.locator('.session[data-current="true"] .turn[data-step="deva"] .error-box');
    assert.match(await box.locator('.error-title').innerText(), /Stopped/);
    const row = wv.locator('.session[data-current="true"] .turn[data-step="deva"] .check-run').first();
    assert.strictEqual(await row.getAttribute('data-status'), 'cancelled');
    assert.match(await row.locator('.check-status').innerText(), /stopped/);
    assert.ok(!(await runningAfter(pid, 10_000)), 'the check process was killed');
    assert.ok(!fs.existsSync(path.join(ctl, 'release')));
    assert.strictEqual(fake.requests.slice(requestsBefore).filter((q) => q.body?.stream === true).length, 4, 'no fix request and no retrospective after Stop');
    assert.strictEqual(await stepStatus(wv, 'cm_retro'), 'pending');
    assert.ok(!fs.existsSync(path.join(workspace, 'src', 'mul.js')), 'nothing written');
    await shot(page, 'checks-3-stopped');
  });
});
