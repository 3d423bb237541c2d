// E2E: a detected check is never run without consent. With no cape.checks, the calc workspace's package.json `test`
// script is detected; the session asks once in a modal (Run / Always for this workspace / Skip). "Always" runs it on
// DevA's proposal (the failing run, the fix round, the passing run), and the next session does not ask again.
import * as assert from 'assert';
import * as path from 'path';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic/server';
import { copyDir } from '../helpers/cli';
import { FIX_OK, firstProposal } from '../helpers/checksSession';
import { demoReplies } from '../helpers/demo';
import { originalProjectDir, repoRoot } from '../helpers/fixtures';
import { closeAfterSuite, makeWorkspace, openCape, panel, shot, startSession, waitFor, waitForSessionDone, type E2eEnv } from './helpers';

const TASK = 'task-e2e-consent';

/** Registers the suite's fake server and code-server on a fresh copy of the calc workspace (its `test` script is detected). */
function calcWorkspace(): { fake: () => FakeAnthropic; env: () => E2eEnv } {
  let fake: FakeAnthropic;
  let env: E2eEnv;
  before(async () => {
    fake = await startFakeAnthropic({ chunkSize: 64, chunkDelayMs: 2 });
    const ws = makeWorkspace(path.join(repoRoot(), 'test', 'checks', 'workspace'));
    copyDir(path.join(originalProjectDir(), 'cape'), path.join(ws, 'cape'));
    env = await openCape(ws, fake.url);
  });
  closeAfterSuite(() => env, () => fake);
  return { fake: () => fake, env: () => env };
}

describe('e2e: detected checks ask once per workspace', function () {
  this.timeout(300_000);
  const suite = calcWorkspace();

  it('asks with Run / Always for this workspace / Skip; "Always" runs npm test on the proposal and is remembered', async () => {
    const { page } = suite.env();
    const fake = suite.fake();
    const r = demoReplies(TASK);
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: firstProposal(TASK) }, { text: FIX_OK }, { text: r[4] });
    await startSession(page, 'Add multiplication');

    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 60_000 });
    const text = await dialog.innerText();
    assert.match(text, /Run the project's checks on DevA's proposal/);
    assert.match(text, /npm test \(package\.json script "test"\)/);
    const labels = (await dialog.locator('.monaco-button').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
    for (const l of ['Run', 'Always for this workspace', 'Skip']) assert.ok(labels.includes(l), `button ${l} in ${JSON.stringify(labels)}`);
    assert.strictEqual(fake.requests.length, 0, 'nothing is sent before the answer');
    await shot(page, 'checks-consent-1-modal');
    await dialog.locator('.monaco-button', { hasText: 'Always for this workspace' }).click();

    const wv = await panel(page);
    await waitForSessionDone(wv, 180_000);
    const runs = wv.locator('.session[data-current="true"] .turn[data-step="deva"] .check-run');
    // the first run, the unchanged code's run after that failure, the run after the fix round
    assert.deepStrictEqual(await runs.evaluateAll((els) => els.map((e) => [e.querySelector('.check-command')?.textContent, e.getAttribute('data-status')])), [
      ['npm test', 'failed'],
      ['npm test', 'passed'],
      ['npm test', 'passed'],
    ]);

    // the next session runs the check without asking (the question would come before the session starts)
    const firstTask = ((await wv.locator('.panel-header .task-id').textContent()) ?? '').trim();
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: firstProposal(TASK) }, { text: FIX_OK }, { text: r[4] });
    await startSession(page, 'Add multiplication again');
    await waitFor('the second session to start', async () => {
      const t = ((await wv.locator('.panel-header .task-id').textContent()) ?? '').trim();
      return t && t !== firstTask;
    }, 120_000);
    assert.strictEqual(await page.locator('.monaco-dialog-box').count(), 0, 'no second question');
    await waitForSessionDone(wv, 180_000);
    const again = wv.locator('.session[data-current="true"] .turn[data-step="deva"] .check-run');
    assert.strictEqual(await again.count(), 3, 'the remembered "Always" ran the check again');
  });
});

describe('e2e: detected checks the user skips', function () {
  this.timeout(300_000);
  const suite = calcWorkspace();

  it('"Skip" runs nothing, and DevA and the retrospective are told the checks did not run', async () => {
    const { page } = suite.env();
    const fake = suite.fake();
    const r = demoReplies(TASK);
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: firstProposal(TASK) }, { text: r[4] });
    await startSession(page, 'Add multiplication');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 60_000 });
    await dialog.locator('.monaco-button', { hasText: 'Skip' }).click();

    const wv = await panel(page);
    await waitForSessionDone(wv, 180_000);
    assert.strictEqual(await wv.locator('.session[data-current="true"] .turn[data-step="deva"] .check-run').count(), 0, 'no check ran');
    assert.strictEqual(fake.requests.length, 5, 'CM, POA, DA, DevA, retrospective: no fix round');
    const said = (i: number) => JSON.stringify(fake.requests[i].body.messages);
    assert.match(said(3), /The project's checks \(`npm test`\) do not run in this session/);
    assert.match(said(4), /Not run in this session \(found: `npm test`\)/);
  });
});
