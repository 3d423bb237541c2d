// The interactive loop: after the retrospective the panel asks for the next objective; sending one runs the next
// session (which reads the KPT the first one wrote), and Finish ends the loop without another request. Then the KPT
// view over both sessions: every item recurs (×2), and a Try marked adopted from its context menu shows its status
// there and in kpt_merged.md (the README's KPT screenshot, see readmeShot).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { startDemoServer } from '../helpers/demoServer';
import { demoDir, demoEnvelopes } from '../helpers/demo';
import * as ui from '../vscode/browser';
import type { FakeAnthropic } from '../fake-anthropic/server';
import { initCapeWithCli, makeWorkspace, openCape, panel, panelContentFrame, shot, startSession, waitFor, waitForSessionDone, type E2eEnv, closeAfterSuite, setTreeRowExpanded, readmeShot, readmeShotsDir, treeRows, widenSideBar, type TreeRow, openFileQuickly, growPane } from './helpers';

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

    // A compromised webview cannot start a session: an objective the host did not ask for is ignored. The forged
    // messages go the way acquireVsCodeApi's postMessage does; the first one shows that they reach the host.
    const frame = await panelContentFrame(page);
    // acquireVsCodeApi's postMessage calls this function of the webview's host frame (the content frame's
    // window.parent, which VS Code's script then hides from the content).
    const host = frame.parentFrame();
    assert.ok(host, 'the webview host frame');
    const forge = (data: object) =>
      host.evaluate((d) => (window as unknown as Record<string, (c: string, m: unknown) => void>).__vscode_post_message__('onmessage', { message: d }), data);
    await forge({ type: 'resume', taskId: 'task-forged-1' });
    await ui.waitForNotification(page, /No saved session "task-forged-1"/, 30_000);
    await forge({ type: 'submitObjective', text: 'Forged objective' });
    await new Promise((r) => setTimeout(r, 5000));
    assert.strictEqual(fake.requests.length, 10, 'the forged objective started no session');
    assert.ok(!(await wv.locator('body').innerText()).includes('Forged objective'), 'no session for the forged objective in the panel');
  });

  it('shows both sessions in the KPT view (every item ×2) and marks a Try adopted from its context menu', async () => {
    const { page, workspace } = env;
    assert.strictEqual(fake.requests.length, 10, 'the loop test ran first: two sessions');
    const kpt = demoEnvelopes()[4].kpt as Record<'keep' | 'problem' | 'try', string[]>;
    await ui.openViewContainer(page, 'CAPE');
    if (readmeShotsDir()) await widenSideBar(page, 700);
    // Both sessions had the same retrospective: each item is one group that recurs in two sessions.
    const sections = await waitFor('the KPT groups of both sessions', async () => {
      const bySection: Record<string, TreeRow[]> = {};
      let current = '';
      for (const r of await treeRows(page, 'KPT')) {
        if (r.level === 1) bySection[(current = r.label)] = [];
        else if (r.level === 2 && current) bySection[current].push(r);
      }
      return Object.values(bySection).reduce((n, g) => n + g.length, 0) === 6 ? bySection : undefined;
    });
    const sorted = (xs: string[]) => [...xs].sort();
    assert.deepStrictEqual(sorted(sections.Keep.map((g) => g.label)), sorted(kpt.keep), 'the Keep groups');
    assert.deepStrictEqual(sorted(sections.Problem.map((g) => g.label)), sorted(kpt.problem), 'the Problem groups');
    assert.deepStrictEqual(sorted(sections.Try.map((g) => g.label)), sorted(kpt.try), 'the Try groups');
    for (const g of Object.values(sections).flat()) assert.strictEqual(g.description, '×2', `${g.label} recurs in both sessions`);

    const tryText = kpt.try[1];
    const row = page.locator('.part.sidebar .pane-body .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: tryText }) }).first();
    // The file first (the command ran), then the tree (the view refreshed): a failure says which of the two is missing.
    const mergedFile = path.join(workspace, 'cape/5_sessions/retrospective/kpt_merged.md');
    const adoptedLines = () => fs.readFileSync(mergedFile, 'utf8').split('\n').filter((l) => l.includes(tryText) && l.includes('cape-kpt: adopted')).length;
    // A pick can be lost by the workbench's menu when it lands as the menu opens (seen about 1 run in 3 on an idle
    // machine: no command ran, no message). Up to three picks; the file must show both occurrences adopted in the end.
    for (let attempt = 1; ; attempt++) {
      await row.click({ button: 'right' });
      const item = page.locator('.context-view .monaco-menu .action-item:not(.disabled) .action-label', { hasText: /^Mark Adopted$/ }).first();
      await item.waitFor({ timeout: 30_000 });
      await item.hover();
      await item.click();
      const done = await waitFor('both occurrences of the Try adopted in kpt_merged.md', async () => adoptedLines() === 2 || undefined, 10_000).catch(() => undefined);
      if (done) break;
      const toasts = await ui.notifications(page);
      if (attempt === 3) throw new Error(`Mark Adopted never marked the Try (${adoptedLines()} adopted lines; notifications: ${JSON.stringify(toasts)})`);
      console.log(`      (Mark Adopted pick ${attempt} ran no command; notifications: ${JSON.stringify(toasts)}; picking again)`);
      await page.keyboard.press('Escape');
    }
    const marked = await waitFor('the Try shown as adopted', async () => (await treeRows(page, 'KPT')).find((r) => r.label === tryText && r.description === '×2 · adopted'));
    assert.strictEqual(marked.level, 2);
    const merged = fs.readFileSync(mergedFile, 'utf8').split('\n');
    const lines = merged.filter((l) => l.includes(tryText));
    assert.strictEqual(lines.length, 2, `both occurrences of the Try in kpt_merged.md: ${lines.join(' | ')}`);
    for (const l of lines) assert.match(l, /^- \[task-[\w-]+\] .*<!-- cape-kpt: adopted -->$/, 'each occurrence is adopted, the original line kept');

    // The adopted group opened: its occurrences carry their sessions' task ids and the status.
    await setTreeRowExpanded(page, 'KPT', tryText, true);
    const occurrences = await waitFor('the occurrences of the adopted Try', async () => {
      const r = await treeRows(page, 'KPT');
      const i = r.findIndex((x) => x.label === tryText);
      const kids = r.slice(i + 1).filter((x, j, all) => all.slice(0, j + 1).every((y) => y.level > 2));
      return kids.length === 2 ? kids : undefined;
    });
    for (const o of occurrences) {
      assert.match(o.label, /^\[task-[\w-]+\] /, 'an occurrence names its session');
      assert.ok(o.label.endsWith(`] ${tryText}`), `an occurrence of the Try: ${o.label}`);
      assert.strictEqual(o.description, 'adopted');
    }
    if (readmeShotsDir()) {
      // Beside the tree, the file it reads: the original `- [task-id] text` lines with the status marker.
      await openFileQuickly(page, 'kpt_merged.md');
      await growPane(page, 'KPT', 150);
    }
    await readmeShot(page, 'kpt-tree');
  });
});
