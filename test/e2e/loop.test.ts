// The interactive loop: after the retrospective the panel asks for the next objective; sending one runs the next
// session (which reads the KPT the first one wrote), and Finish ends the loop without another request.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { startDemoServer } from '../helpers/demoServer';
import { demoDir } from '../helpers/demo';
import type { FakeAnthropic } from '../fake-anthropic/server';
import { initCapeWithCli, makeWorkspace, openCape, panel, shot, startSession, waitFor, waitForSessionDone, type E2eEnv, closeAfterSuite } from './helpers';

describe('e2e: the interactive loop in the chat panel', function () {
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

  it('asks for the next objective, runs it as a new session, and ends on Finish', async () => {
    const { page, workspace } = env;
    const retroDir = path.join(workspace, 'cape/5_sessions/retrospective');
    const retros = () => fs.readdirSync(retroDir).filter((f) => /^\d{4}-.*_task-.*\.md$/.test(f));

    await startSession(page, 'Add a dark mode toggle');
    const wv = await panel(page);
    await waitForSessionDone(wv, 120_000);
    assert.strictEqual(retros().length, 1);

    const box = wv.locator('footer textarea.objective-input');
    await box.waitFor({ state: 'visible', timeout: 30_000 });
    await box.fill('Add a search box over the notes');
    await box.press('Control+Enter');
    await waitFor('the second retrospective on disk', async () => retros().length === 2, 120_000);
    await waitForSessionDone(wv, 120_000);
    await waitFor('the second objective in the panel', async () => (await wv.locator('body').innerText()).includes('Add a search box over the notes'));
    // The second CM opening received the first session's KPT in its digest.
    const secondOpening = fake.requests[5];
    assert.match(JSON.stringify(secondOpening.body.messages), /Reduced-motion behaviour was left implicit/);
    assert.strictEqual(fake.requests.length, 10, 'two sessions, five requests each');
    await shot(page, 'loop-second-session');

    await wv.locator('footer button[data-action="endLoop"]').click();
    await waitFor('the objective box closes', async () => !(await box.isVisible().catch(() => false)));
    assert.strictEqual(fake.requests.length, 10, 'Finish starts nothing');
  });
});
