// Sessions in the real extension host: CAPE: Start Session over HTTP against the fake Messages API, the chat
// panel, proposed files, cancel mid-stream (the request is really aborted), resume from the failed step.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { chatPanelTabs, resetWorkspaceSettled, setupHarness, step, waitFor, type Harness } from './sessionHarness';

function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir).sort();
  } catch {
    return [];
  }
}

describe('CAPE session (extension host)', function () {
  this.timeout(120000);
  let h: Harness;

  before(async () => {
    h = await setupHarness();
  });
  after(async () => {
    await h?.dispose();
  });
  beforeEach(() => {
    h.setPlan({});
    h.resetRequests();
  });

  it('CAPE: Start Session runs the demo session: artifacts in cape/5_sessions, the panel, proposed files', async () => {
    await resetWorkspaceSettled(h.root);
    const before = Date.now();
    await vscode.commands.executeCommand('cape.startSession', 'Add a dark mode toggle that remembers the choice');

    // Five requests, one per step, each for the configured model.
    assert.strictEqual(h.fake.requests.length, 5, `requests: ${h.fake.requests.length}; sessions: ${JSON.stringify(await h.sessions())}`);
    const pair = listDir(path.join(h.root, 'cape/5_sessions/pair'));
    assert.strictEqual(pair.length, 5, `pair files: ${pair.join(', ')}`);
    for (const [n, agent] of [[1, 'CM'], [2, 'POA'], [3, 'DA'], [4, 'DevA'], [5, 'CM']] as const) {
      assert.ok(pair.some((f) => new RegExp(`^task-\\d+_${n}_${agent}_\\d+\\.json$`).test(f)), `no pair file for step ${n} ${agent}: ${pair.join(', ')}`);
    }
    const retro = listDir(path.join(h.root, 'cape/5_sessions/retrospective'));
    assert.ok(retro.some((f) => /^\d{4}-\d{2}-\d{2}_\d{2}-\d{2}_task-\d+\.md$/.test(f)), `no retrospective: ${retro.join(', ')}`);
    const kpt = fs.readFileSync(path.join(h.root, 'cape/5_sessions/retrospective/kpt_merged.md'), 'utf8');
    assert.match(kpt, /## Keep[\s\S]*- \[task-\d+\]/);

    const sessions = await h.sessions();
    const mine = sessions.find((s) => s.createdAt >= before - 1000);
    assert.ok(mine, 'no session state written');
    assert.strictEqual(mine.status, 'complete');

    // The panel is open, and nothing was written outside cape/ (the proposals wait for Apply).
    assert.strictEqual(chatPanelTabs().length, 1, 'exactly one CAPE Session panel');
    assert.strictEqual(chatPanelTabs()[0].label, 'CAPE Session');
    assert.ok(!fs.existsSync(path.join(h.root, 'src/theme.js')), 'a proposed file was written before Apply');
    assert.strictEqual(h.controller.running, false);

    if (h.commandsDriveController) {
      const files = h.controller.files.views();
      assert.deepStrictEqual(
        files.map((f) => `${f.path}:${f.action}:${f.status}`).sort(),
        ['index.html:modify:proposed', 'src/styles.css:modify:proposed', 'src/theme.js:create:proposed'],
      );
    }
  });

  it('Show Chat Panel reveals the one panel instead of opening a second', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor(() => chatPanelTabs().length === 0, 'the panel to close');
    await vscode.commands.executeCommand('cape.showPanel');
    await waitFor(() => chatPanelTabs().length === 1, 'the panel to open');
    await vscode.commands.executeCommand('cape.showPanel');
    await new Promise((r) => setTimeout(r, 200));
    assert.strictEqual(chatPanelTabs().length, 1);
  });

  it('cancel mid-stream aborts the request; the state says failed/cancelled with the completed steps kept; resume completes it', async () => {
    await resetWorkspaceSettled(h.root);
    // POA's reply stops halfway and is never released: only the client aborting the request can end that step.
    h.setPlan({ poa: (_id, demo) => ({ text: demo, chunkSize: 8, chunkDelayMs: 5, holdAfterChars: Math.floor(demo.length / 2) }) });
    const run = h.controller.start('Add a dark mode toggle');
    let ended = false;
    void run.then(() => (ended = true), () => (ended = true));
    await waitFor(() => h.fake.requests.length >= 2, 'the POA request', 60_000);
    await new Promise((r) => setTimeout(r, 400)); // let some of POA's reply arrive (cancelling earlier is mid-request too)
    assert.strictEqual(h.controller.running, true);
    if (h.commandsDriveController) await vscode.commands.executeCommand('cape.cancelSession');
    else h.controller.cancel();
    await waitFor(() => ended, 'the session to end after Cancel (the held POA reply ends only when the client aborts it)', 60_000);
    await run;
    assert.strictEqual(h.controller.running, false);
    assert.strictEqual(h.fake.requests.length, 2, 'no request after the cancel');

    const [state] = await h.sessions();
    assert.strictEqual(state.status, 'failed');
    assert.strictEqual(state.error?.kind, 'cancelled');
    assert.strictEqual(state.error?.step, 'poa');
    assert.deepStrictEqual(state.completedSteps, ['cm_open']);
    const pair = listDir(path.join(h.root, 'cape/5_sessions/pair'));
    assert.deepStrictEqual(pair.map((f) => f.replace(/_\d+\.json$/, '')), [`${state.taskId}_1_CM`]);

    // Resume (the command with a task id argument) runs only the remaining four steps.
    h.setPlan({});
    h.resetRequests();
    if (h.commandsDriveController) await vscode.commands.executeCommand('cape.resumeSession', state.taskId);
    else await h.controller.resume(state.taskId);
    assert.strictEqual(h.fake.requests.length, 4, 'resume re-ran a completed step');
    const after = (await h.sessions()).find((s) => s.taskId === state.taskId)!;
    assert.strictEqual(after.status, 'complete');
    assert.deepStrictEqual(after.completedSteps, ['cm_open', 'poa', 'da', 'deva', 'cm_retro']);
    assert.ok(listDir(path.join(h.root, 'cape/5_sessions/retrospective')).some((f) => f.endsWith(`_${state.taskId}.md`)));
  });

  it('a failed step (bad request) leaves a resumable session; Retry = resume from the failed step', async () => {
    await resetWorkspaceSettled(h.root);
    h.setPlan({ da: () => ({ fault: 'http', status: 400, message: 'the test refuses DA' }) });
    await h.controller.start('Add a dark mode toggle');
    const [state] = await h.sessions();
    assert.strictEqual(state.status, 'failed');
    assert.strictEqual(state.error?.step, 'da');
    assert.deepStrictEqual(state.completedSteps, ['cm_open', 'poa']);
    h.setPlan({});
    h.resetRequests();
    await h.controller.resume(state.taskId);
    assert.strictEqual(h.fake.requests.length, 3);
    assert.strictEqual((await h.sessions())[0].status, 'complete');
  });

  it('hostile paths from DevA are refused, cannot be accepted, and are not written', async () => {
    await resetWorkspaceSettled(h.root);
    const outside = path.join(path.dirname(h.root), `cape-escape-${Date.now()}.txt`);
    const hostile = [
      `../${path.basename(outside)}`,
      outside,
      '.git/hooks/pre-commit',
      'cape/5_sessions/state/forged.json',
      'src/..\\..\\evil.js',
    ];
    h.setPlan({
      deva: (_id, demo) => ({ text: demo + '\n' + hostile.map((p) => `<file path="${p}">pwned</file>`).join('\n') + '\n' }),
    });
    await step('the session with hostile paths', () => h.controller.start('Add a dark mode toggle'));
    const views = h.controller.files.views();
    const refused = views.filter((v) => v.status === 'refused');
    assert.strictEqual(refused.length, hostile.length, JSON.stringify(views, null, 1));
    for (const r of refused) {
      assert.ok(r.reason && r.reason.length > 5, `no reason for ${r.path}`);
      assert.strictEqual(h.controller.files.decide(r.path, 'accept'), false, `${r.path} could be accepted`);
    }
    for (const v of views) if (v.status === 'proposed') h.controller.files.decide(v.path, 'accept');
    await step('Apply of the safe files', () => h.controller.files.apply(async () => true), () => h.controller.files.applyStage);
    assert.ok(!fs.existsSync(outside), 'a file was written outside the workspace');
    assert.ok(!fs.existsSync(path.join(h.root, 'cape/5_sessions/state/forged.json')));
    assert.ok(!fs.existsSync(path.join(path.dirname(h.root), 'evil.js')));
    assert.ok(fs.existsSync(path.join(h.root, 'src/theme.js')), 'the safe files were applied');
    assert.deepStrictEqual(
      h.controller.files.views().filter((v) => v.status === 'refused').map((v) => v.path).sort(),
      refused.map((v) => v.path).sort(),
    );
  });
});
