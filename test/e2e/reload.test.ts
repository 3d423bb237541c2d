// The chat panel survives a window reload: the webview panel serializer brings the panel back with the finished
// session (stepper, retrospective, proposed files and their decisions) without asking the model again, and the
// next-objective box it shows again still starts the next session.
import * as assert from 'assert';
import * as path from 'path';
import * as ui from '../vscode/browser';
import { startDemoServer } from '../helpers/demoServer';
import { demoDir } from '../helpers/demo';
import type { FakeAnthropic } from '../fake-anthropic/server';
import { initCapeWithCli, makeWorkspace, openCape, panel, shot, startSession, stepStatus, waitFor, waitForSessionDone, type E2eEnv, closeAfterSuite } from './helpers';

describe('e2e: the chat panel after a window reload', function () {
  this.timeout(300_000);
  let fake: FakeAnthropic;
  let env: E2eEnv;

  before(async () => {
    const ws = makeWorkspace(path.join(demoDir(), 'workspace'));
    await initCapeWithCli(ws);
    fake = await startDemoServer({ chunkSize: 64 });
    env = await openCape(ws, fake.url);
  });
  closeAfterSuite(() => env, () => fake);

  it('restores the finished session and the file decisions from the saved state', async () => {
    const { page } = env;
    await startSession(page, 'Add a dark mode toggle');
    let wv = await panel(page);
    await waitForSessionDone(wv, 120_000);
    const row = (p: string) => wv.locator(`.files li.file[data-path="${p}"]`);
    await row('src/theme.js').locator('button[data-action="accept"]').click();
    await waitFor('the accept decision', async () => (await row('src/theme.js').getAttribute('data-status')) === 'accepted');
    const requests = fake.requests.length;

    // Through the workbench's own lifecycle (as a user would), so the editor layout is saved before the reload.
    // Listening before the command runs: a load event that came before the wait began would be missed.
    const reloaded = page.waitForEvent('load', { timeout: 120_000 });
    void reloaded.catch(() => undefined); // awaited below
    await ui.runCommand(page, 'Developer: Reload Window');
    await reloaded;
    await page.locator('.monaco-workbench').waitFor({ timeout: 120_000 });
    wv = await panel(page);
    await waitFor('the restored stepper', async () => (await stepStatus(wv, 'cm_retro')) === 'done', 60_000);
    assert.ok((await wv.locator('.retro-results').count()) > 0, 'the retrospective is back');
    assert.match(await wv.locator('body').innerText(), /Pocket Notes a dark mode/, 'the CM voice is back');
    await waitFor('the restored decision', async () => (await row('src/theme.js').getAttribute('data-status')) === 'accepted', 30_000);
    assert.strictEqual(await row('src/styles.css').getAttribute('data-status'), 'proposed');
    assert.strictEqual(fake.requests.length, requests, 'a reload asks the model nothing');
    await shot(page, 'reload-restored');

    // The next-objective box is back, and still answers the host's question: the objective starts the next session.
    const box = wv.locator('footer textarea.objective-input');
    await box.waitFor({ state: 'visible', timeout: 30_000 });
    await box.fill('Add a search box over the notes');
    await box.press('Control+Enter');
    await waitFor('the next session asks the model', async () => fake.requests.length > requests, 60_000);
  });
});
