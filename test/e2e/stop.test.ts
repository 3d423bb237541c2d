// E2E 6: Stop aborts mid-stream. The Product Owner's reply streams slowly; while its voice is growing the panel's
// Stop button is clicked: the text stops growing, the panel shows the stopped state with Resume, the HTTP request was
// aborted by the client (seen by a transparent proxy in front of the fake server), and the session's state file
// marks it failed (cancelled) with the completed opening kept. Resume then finishes the session from the POA step.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as ui from '../vscode/browser';
import { startFakeAnthropic, type FakeAnthropic, type FakeReply } from '../fake-anthropic/server';
import { demoDir, demoReplies, taskIdOf } from '../helpers/demo';
import { initCapeWithCli, makeWorkspace, openCape, panel, shot, startAbortProxy, startSession, stepStatus, voiceText, waitFor, waitForSessionDone, type AbortProxy, type E2eEnv, closeAfterSuite } from './helpers';

describe('e2e: Stop aborts a streaming step', function () {
  this.timeout(300_000);
  let fake: FakeAnthropic;
  let proxy: AbortProxy;
  let env: E2eEnv;
  /** Which demo reply the next session request gets (0 = CM opening … 4 = retrospective). */
  let next = 0;
  let slowStep = 1;

  before(async () => {
    fake = await startFakeAnthropic({ chunkSize: 64, chunkDelayMs: 2 });
    fake.setResponder((req): FakeReply => {
      if (!req.stream && req.maxTokens !== undefined && req.maxTokens <= 16) return { text: 'ok' };
      const i = next++;
      const text = demoReplies(taskIdOf(req.body))[Math.min(i, 4)];
      // The slow step: a few characters every 120 ms — about a minute for the whole reply, so it is mid-stream
      // for as long as the test needs.
      return i === slowStep ? { text, chunkSize: 3, chunkDelayMs: 120 } : { text };
    });
    proxy = await startAbortProxy(fake.url);
    const ws = makeWorkspace(path.join(demoDir(), 'workspace'));
    await initCapeWithCli(ws);
    env = await openCape(ws, proxy.url);
  });

  closeAfterSuite(() => env, () => proxy, () => fake);

  it('stops the stream, shows the stopped state with Resume, aborts the request and keeps the completed step', async () => {
    const { page, workspace } = env;
    await startSession(page, 'Add a dark mode toggle');
    const wv = await panel(page);

    // POA is streaming: its voice is there and growing.
    const seen = await waitFor('the POA voice streaming', async () => {
      const t = await voiceText(wv, 'poa');
      return t.length > 10 && (await stepStatus(wv, 'poa')) === 'running' ? t : '';
    }, 60_000);
    await waitFor('the POA voice to grow', async () => (await voiceText(wv, 'poa')).length > seen.length);
    assert.strictEqual(await stepStatus(wv, 'cm_open'), 'done');
    const taskId = ((await wv.locator('.panel-header .task-id').textContent()) ?? '').trim();
    assert.match(taskId, /^task-/);
    const stop = wv.locator('.panel-header button[data-action="stop"]');
    assert.ok(await stop.isEnabled(), 'Stop is enabled while running');
    await shot(page, 'stop-1-streaming');

    await stop.click();
    // Watched from the click on: the toast hides itself after 15 s, which the checks below can outlast on a loaded machine.
    const cancelledToast = ui.waitForNotification(page, /CAPE session cancelled/, 120_000);
    void cancelledToast.catch(() => undefined); // awaited below; a failure before that must not be reported as unhandled
    await waitFor('the POA step to end as stopped', async () => (await stepStatus(wv, 'poa')) === 'failed');
    const atStop = await voiceText(wv, 'poa');
    // The slow reply would add ~25 characters per second: prove nothing more arrives.
    await page.waitForTimeout(1200);
    assert.strictEqual(await voiceText(wv, 'poa'), atStop, 'the voice stopped growing');
    const fullVoice = String(JSON.parse(/```json\s*([\s\S]*?)```/.exec(demoReplies(taskId)[1])![1]).voice);
    assert.ok(atStop.length < fullVoice.length, `stopped mid-stream (${atStop.length} of ${fullVoice.length} voice characters)`);

    // The panel: "Stopped" with Resume enabled once the run ended; Stop disabled.
    const box = wv.locator('.turn[data-step="poa"] .error-box');
    await box.waitFor();
    assert.match(await box.locator('.error-title').innerText(), /Stopped/);
    const resume = box.locator('button[data-action="resume"]');
    await waitFor('Resume enabled', async () => resume.isEnabled());
    await waitFor('Stop disabled', async () => stop.isDisabled());
    assert.strictEqual(await stepStatus(wv, 'da'), 'pending', 'later steps did not start');
    await cancelledToast;
    await shot(page, 'stop-2-stopped');

    // The client disconnected: the POA request was aborted before its response ended.
    const streamed = proxy.requests.filter((r) => r.method === 'POST' && r.url.startsWith('/v1/messages'));
    assert.strictEqual(streamed.length, 2, `two model requests (opening, POA): ${JSON.stringify(streamed)}`);
    assert.strictEqual(streamed[0].finished, true, 'the opening completed');
    assert.strictEqual(streamed[1].clientAborted, true, 'the POA request was aborted by the client');
    assert.strictEqual(streamed[1].finished, false);

    // The state file: failed (cancelled) at POA, with the opening kept.
    const statePath = path.join(workspace, 'cape/5_sessions/state', `${taskId}.json`);
    const state = await waitFor('the state file to record the failure', async () => {
      const s = JSON.parse(fs.readFileSync(statePath, 'utf8'));
      return s.status === 'failed' ? s : undefined;
    }, 10_000);
    assert.deepStrictEqual(state.completedSteps, ['cm_open']);
    assert.strictEqual(state.error?.kind, 'cancelled');
    assert.strictEqual(state.error?.step, 'poa');
    assert.ok(fs.readdirSync(path.join(workspace, 'cape/5_sessions/pair')).some((f) => f.startsWith(`${taskId}_1_CM_`)), 'the opening pair file is kept');

    // Resume from the panel: the remaining steps run (now at full speed) and the session completes.
    next = 1;
    slowStep = -1;
    await resume.click();
    await waitForSessionDone(wv, 120_000);
    const done = JSON.parse(fs.readFileSync(statePath, 'utf8'));
    assert.strictEqual(done.status, 'complete');
    assert.deepStrictEqual(done.completedSteps, ['cm_open', 'poa', 'da', 'deva', 'cm_retro']);
    const after = proxy.requests.filter((r) => r.method === 'POST' && r.url.startsWith('/v1/messages'));
    assert.strictEqual(after.length, 6, 'resume re-ran POA and ran the three remaining steps, not the opening');
    await shot(page, 'stop-3-resumed');
  });
});
