// Activation loads only dist/extension.js (stand-ins); dist/session.js loads on first use. Here the first use is
// the CAPE view container, before any command: the views' stand-ins load the session bundle, the real providers
// answer both views, and the commands then run on their real handlers (test/integration/commands.test.ts covers a
// command as the first use).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Browser } from 'playwright-core';
import { startCodeServer, type CodeServer } from '../vscode/codeServer';
import * as ui from '../vscode/browser';
import { demoDir } from '../helpers/demo';
import { originalProjectDir } from '../helpers/fixtures';
import { copyDir } from '../helpers/cli';
import { ensureBundleFresh, makeWorkspace, panelContentFrame, REPO, treeRows, waitFor } from './helpers';

describe('e2e: the CAPE views as the first use of the extension', function () {
  this.timeout(300_000);
  let cs: CodeServer | undefined;
  let browser: Browser | undefined;
  let ws: string;

  before(async () => {
    ensureBundleFresh();
    ws = makeWorkspace(path.join(demoDir(), 'workspace'));
    copyDir(path.join(originalProjectDir(), 'cape'), path.join(ws, 'cape'));
    cs = await startCodeServer({ workspace: ws });
    browser = await ui.launchBrowser({ runDir: cs.runDir });
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await cs?.stop();
    if (ws) fs.rmSync(ws, { recursive: true, force: true });
  });

  it('opening the views loads the session bundle: both views show their content, then a command runs on its real handler', async () => {
    const page = await ui.openWorkbench(browser!, cs!, { folder: ws, extensionDevelopmentPath: REPO });
    await ui.openViewContainer(page, 'CAPE');
    const kpt = await waitFor('KPT rows', async () => {
      const r = await treeRows(page, 'KPT');
      return r.some((x) => /^Keep/.test(x.label)) ? r : undefined;
    });
    assert.ok(!kpt.some((r) => r.label === 'Loading…'), `the stand-in row is gone: ${JSON.stringify(kpt.slice(0, 5))}`);
    // The fixture has a KPT history but no retrospective: the real provider's empty answer shows the welcome text.
    await waitFor('the Retrospectives welcome text', async () => (await page.locator('.part.sidebar .pane', { hasText: 'No CAPE retrospectives yet' }).count()) > 0);
    await ui.runCommand(page, 'CAPE: Show Chat Panel');
    await panelContentFrame(page, 60_000); // the real command opened the panel
  });
});
