// Restricted Mode: with workspace trust on and the folder NOT trusted, CAPE is read-only — Start Session explains why
// and offers the trust editor, no request is made and nothing is written; the KPT history can still be read. The
// workspace's own cape.baseUrl is not in effect there: Set API Key checks the key with the user's base URL.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Browser, Page } from 'playwright-core';
import { startCodeServer, type CodeServer } from '../vscode/codeServer';
import * as ui from '../vscode/browser';
import { startDemoServer } from '../helpers/demoServer';
import { demoDir } from '../helpers/demo';
import { originalProjectDir } from '../helpers/fixtures';
import { copyDir } from '../helpers/cli';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic/server';
import { ensureBundleFresh, listFiles, makeWorkspace, REPO, shot, treeRows, waitFor } from './helpers';

async function declineTrust(page: Page): Promise<void> {
  // The workbench asks once per folder; "No, I don't trust the authors" opens it in Restricted Mode.
  const button = page.locator('.monaco-dialog-box .monaco-button', { hasText: /don't trust|Don’t Trust|Restricted/i }).first();
  await button.waitFor({ state: 'visible', timeout: 30_000 });
  await button.click();
  await waitFor('the Restricted Mode indicator', async () => (await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).count()) > 0, 30_000);
}

describe('e2e: Restricted Mode (untrusted workspace)', function () {
  this.timeout(300_000);
  let fake: FakeAnthropic | undefined;
  /** The base URL the untrusted workspace's settings name: it must never see the key. */
  let workspaceHost: FakeAnthropic | undefined;
  let cs: CodeServer | undefined;
  let browser: Browser | undefined;
  let ws: string;

  before(async () => {
    ensureBundleFresh();
    fake = await startDemoServer();
    ws = makeWorkspace(path.join(demoDir(), 'workspace'));
    copyDir(path.join(originalProjectDir(), 'cape'), path.join(ws, 'cape'));
    workspaceHost = await startFakeAnthropic();
    fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'cape.baseUrl': workspaceHost.url }));
    cs = await startCodeServer({ workspace: ws, workspaceTrust: true, userSettings: { 'cape.baseUrl': fake.url } });
    browser = await ui.launchBrowser({ runDir: cs.runDir });
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await cs?.stop();
    await fake?.close();
    await workspaceHost?.close();
    if (ws) fs.rmSync(ws, { recursive: true, force: true });
  });

  it('refuses to start a session, writes nothing, and still shows the KPT history', async () => {
    const page = await ui.openWorkbench(browser!, cs!, { folder: ws, extensionDevelopmentPath: REPO });
    await declineTrust(page);
    const before = listFiles(ws);

    await ui.runCommand(page, 'CAPE: Start Session');
    const note = await waitFor('the Restricted Mode explanation', async () =>
      (await ui.notifications(page)).find((n) => /Restricted Mode/.test(n) && /read-only/.test(n)),
    );
    assert.match(note, /Trust this folder/);
    const button = page.locator('.notifications-toasts .notification-list-item', { hasText: 'Restricted Mode' }).locator('.monaco-button', { hasText: 'Manage Workspace Trust' });
    assert.strictEqual(await button.count(), 1, 'the notification offers the trust editor');
    await shot(page, 'trust-restricted-start');
    assert.strictEqual(fake!.requests.length, 0, 'no model request in Restricted Mode');
    assert.deepStrictEqual(listFiles(ws), before, 'nothing written');

    // Reading still works: the KPT view lists the original project's history.
    await ui.openViewContainer(page, 'CAPE');
    const rows = await waitFor('KPT rows', async () => {
      const r = await treeRows(page, 'KPT');
      return r.some((x) => /^Keep/.test(x.label)) ? r : undefined;
    });
    assert.ok(rows.length > 1, `KPT rows: ${JSON.stringify(rows.slice(0, 5))}`);
    await shot(page, 'trust-restricted-kpt');

    // Set API Key: the key goes to the user's base URL, not to the one this untrusted workspace names.
    await ui.runCommand(page, 'CAPE: Set Anthropic API Key');
    const box = page.locator('.quick-input-widget input[type="password"]');
    await box.waitFor({ state: 'visible', timeout: 30_000 });
    await box.fill('sk-ant-test-restricted-mode');
    await box.press('Enter');
    await waitFor('the key checked with the user\'s base URL', async () => (fake!.requests.length > 0 ? true : undefined), 60_000);
    assert.strictEqual(workspaceHost!.requests.length, 0, "the untrusted workspace's base URL received the key");
  });
});
