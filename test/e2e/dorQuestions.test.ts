// E2E: the Cape Master's blocking questions in the chat panel (issue 10 §3). The opening asks; the session pauses
// with its state saved; the user types an answer in the panel and submits it: exactly one more CM opening request
// (holding the answer), then POA → DA → DevA → retrospective. "Continue anyway" goes on with no second opening.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic/server';
import { copyDir } from '../helpers/cli';
import { demoDir, demoReplies, withDorCheck } from '../helpers/demo';
import { originalProjectDir } from '../helpers/fixtures';
import { closeAfterSuite, makeWorkspace, openCape, panel, shot, startSession, waitFor, waitForSessionDone, type E2eEnv } from './helpers';

const TASK = 'task-e2e-dor';
const QUESTION = 'Should dark mode be a toggle in the app, or only follow the operating system setting?';
const ANSWER = 'A toggle in the header that starts from the OS setting.';

const asked = (r: string[]) => withDorCheck(r[0], { passed: false, concerns: ['The objective names no persona.'], questions: [QUESTION] });
const isCmOpening = (body: any) => /Cape Master — session opening/.test(JSON.stringify(body?.system ?? []));

describe("e2e: the Cape Master's blocking questions in the chat panel", function () {
  this.timeout(300_000);
  let fake: FakeAnthropic;
  let env: E2eEnv;

  before(async () => {
    fake = await startFakeAnthropic({ chunkSize: 64 });
    const ws = makeWorkspace(path.join(demoDir(), 'workspace'));
    copyDir(path.join(originalProjectDir(), 'cape'), path.join(ws, 'cape'));
    env = await openCape(ws, fake.url);
  });
  closeAfterSuite(() => env, () => fake);

  const states = () => {
    const dir = path.join(env.workspace, 'cape', '5_sessions', 'state');
    return fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))) : [];
  };

  it('pauses with the question; the typed answer goes to one more CM opening and the session completes (6 requests)', async () => {
    const { page } = env;
    const r = demoReplies(TASK);
    fake.enqueue({ text: asked(r) });
    await startSession(page, 'Add a dark mode');
    const wv = await panel(page);
    const box = wv.locator('.turn[data-step="cm_open"] .dor-questions-open textarea.answer-input');
    await box.waitFor({ state: 'visible', timeout: 120_000 });
    assert.match((await wv.locator('.dor-questions-open').innerText()) ?? '', new RegExp(QUESTION.replace(/[?]/g, '\\?')));
    const paused = await waitFor('the paused state on disk', () => states().find((s) => s.status === 'needs_answers'), 30_000);
    assert.deepStrictEqual(paused.dor, { questions: [QUESTION] });
    assert.strictEqual(fake.requests.length, 1, 'nothing after the opening while the session waits');
    await shot(page, 'dor-questions-open');

    fake.enqueue({ text: withDorCheck(r[0], { passed: false, concerns: ['The objective names no persona.'] }) }, { text: r[1] }, { text: r[2] }, { text: r[3] }, { text: r[4] });
    const submit = wv.locator('.dor-questions-open button[data-action="answerQuestions"]');
    assert.ok(await submit.isDisabled(), 'nothing typed yet');
    await box.fill(ANSWER);
    await waitFor('Submit answers enabled after typing', async () => await submit.isEnabled(), 30_000);
    await submit.click();
    await waitForSessionDone(wv, 180_000);

    assert.strictEqual(fake.requests.length, 6, 'CM opening, CM opening with the answer, POA, DA, DevA, retrospective');
    assert.ok(isCmOpening(fake.requests[1].body), 'the second request is the CM opening again');
    const second = JSON.stringify(fake.requests[1].body.messages);
    assert.ok(second.includes(QUESTION) && second.includes(ANSWER), 'the second opening holds the question and the answer');
    assert.ok(!isCmOpening(fake.requests[2].body), 'POA follows');
    assert.match((await wv.locator('.dor-questions-answered').innerText()) ?? '', new RegExp(ANSWER.replace(/\./g, '\\.')));
    await waitFor('the completed state on disk', () => states().find((s) => s.status === 'complete' && s.dor?.answers?.[0] === ANSWER), 30_000);
    await shot(page, 'dor-questions-answered');
  });

  it('"Continue anyway" goes on from the first opening: no second CM request', async () => {
    const { page } = env;
    const r = demoReplies(TASK);
    fake.reset();
    fake.enqueue({ text: asked(r) });
    const box = await panel(page);
    await box.locator('footer button[data-action="endLoop"]').click().catch(() => undefined);
    await startSession(page, 'Add a dark mode, again');
    const wv = await panel(page);
    const skip = wv.locator('.session[data-current="true"] .dor-questions-open button[data-action="skipQuestions"]');
    await skip.waitFor({ state: 'visible', timeout: 120_000 });
    await waitFor('Continue anyway enabled', async () => await skip.isEnabled(), 30_000);
    fake.enqueue({ text: r[1] }, { text: r[2] }, { text: r[3] }, { text: r[4] });
    await skip.click();
    await waitForSessionDone(wv, 180_000);
    assert.strictEqual(fake.requests.length, 5);
    assert.strictEqual(fake.requests.filter((q) => isCmOpening(q.body)).length, 1, 'one CM opening only');
  });
});
