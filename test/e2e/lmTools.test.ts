// The `vscode-lm` provider with tool calling in a real VS Code (code-server 4.100.3 = VS Code 1.100): the test-only
// extension test/lm-extension (a scripted chat model contributed through the proposed `lm.registerChatModelProvider`)
// is installed beside CAPE, and the tests of test/integration-lm/ run inside the extension host: a whole session with
// cape.provider = vscode-lm, DevA calling read_file / search_files through the Language Model API.
//
// code-server enables proposed APIs for every extension that declares them; desktop VS Code needs
// `--enable-proposed-api cape-test.fake-lm` (or extension development mode on Insiders) for the same extension.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Browser, Page } from 'playwright-core';
import type { IntegrationTestResult } from '../integration/index';
import { runIntegration } from '../vscode/runIntegration';
import { startCodeServer, type CodeServer } from '../vscode/codeServer';
import * as ui from '../vscode/browser';
import { demoDir } from '../helpers/demo';
import { workspaceWithOriginalCape } from '../helpers/cli';
import { ensureBundleFresh, panel, REPO, shot, startSession, waitFor, waitForSessionDone } from './helpers';

/** The fake model's extension in `dir`: its manifest and its compiled main, nothing else (it needs only `vscode`). */
function fakeLmExtension(dir: string): string {
  fs.mkdirSync(dir);
  fs.copyFileSync(path.join(REPO, 'test/lm-extension/package.json'), path.join(dir, 'package.json'));
  fs.copyFileSync(path.join(REPO, 'out/test/lm-extension/extension.js'), path.join(dir, 'extension.js'));
  return dir;
}

describe('e2e: vscode-lm tool calling in VS Code 1.100 (code-server)', function () {
  this.timeout(300_000);
  let base: string;

  before(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-lmtools-'));
  });
  after(() => {
    fs.rmSync(base, { recursive: true, force: true });
  });

  it('CAPE runs a session over another extension’s chat model; DevA’s tool calls go through the LM API', async () => {
    const ext = fakeLmExtension(path.join(base, 'fake-lm'));
    // The workspace sits in a folder of its own, so the test's "outside the workspace" file is ours alone.
    const ws = path.join(base, 'ws');
    fs.mkdirSync(ws);
    const resultFile = path.join(base, 'result.json');
    const lines: string[] = [];
    const run = await runIntegration({
      extensionDevelopmentPath: REPO,
      extensionTestsPath: path.join(REPO, 'out/test/integration/index.js'),
      workspace: ws,
      extensions: [{ path: ext }],
      userSettings: { 'cape.provider': 'vscode-lm', 'cape.model': 'cape-fake-tools' },
      env: { CAPE_INTEGRATION_TESTS_DIR: path.join(REPO, 'out/test/integration-lm'), CAPE_TEST_RESULT_FILE: resultFile },
      timeoutSec: 240,
      log: (l) => lines.push(l),
    });
    const result = JSON.parse(fs.readFileSync(resultFile, 'utf8')) as IntegrationTestResult;
    const report = `\n${lines.join('\n')}\n${JSON.stringify(result.tests, null, 2)}`;
    assert.strictEqual(run.exitCode, 0, report);
    assert.match(result.vscodeVersion ?? '', /^1\.100\./, 'the real VS Code 1.100 ran the tests');
    assert.strictEqual(result.failures, 0, report);
    assert.strictEqual(result.passes, 3, report);
  });
});

// A model whose provider declares `auth` (as Copilot's do): VS Code 1.100 asks the user, in a modal dialog that shows
// CAPE's justification, before CAPE's first request reaches it. Cancel → CAPE's actionable error, nothing sent;
// Allow → the session runs.
describe('e2e: consent to another extension’s chat model in VS Code 1.100 (code-server)', function () {
  this.timeout(300_000);
  let base: string;
  let ws: string;
  let cs: CodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page;

  before(async () => {
    ensureBundleFresh();
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-lmconsent-'));
    const ext = fakeLmExtension(path.join(base, 'fake-lm'));
    // The demo session as the fake model's script (its replies keep their {{task_id}} for the model to fill in).
    const roles = ['# Role: Cape Master — session opening', '# Role: Product Owner agent', '# Role: Designer agent', '# Role: Developer agent', '# Role: Cape Master — retrospective'];
    const replies = fs.readdirSync(path.join(demoDir(), 'session')).filter((f) => f.endsWith('.md')).sort();
    const script = path.join(base, 'script.json');
    fs.writeFileSync(script, JSON.stringify({ steps: replies.map((f, i) => ({ match: roles[i], text: fs.readFileSync(path.join(demoDir(), 'session', f), 'utf8') })) }));
    ws = workspaceWithOriginalCape('cape-lmconsent-ws-', path.join(demoDir(), 'workspace'));
    cs = await startCodeServer({
      workspace: ws,
      extensions: [{ path: ext }],
      env: { CAPE_FAKE_LM_SCRIPT: script },
      userSettings: { 'cape.provider': 'vscode-lm', 'cape.model': 'cape-fake-consent', 'cape.language': 'English' },
    });
    browser = await ui.launchBrowser({ runDir: cs.runDir });
    page = await ui.openWorkbench(browser, cs, { folder: ws, extensionDevelopmentPath: REPO });
  });
  after(async () => {
    await browser?.close().catch(() => undefined);
    await cs?.stop();
    fs.rmSync(base, { recursive: true, force: true });
    fs.rmSync(ws, { recursive: true, force: true });
  });

  const dialog = () => page.locator('.monaco-dialog-box');
  const pairFiles = () => (fs.existsSync(path.join(ws, 'cape/5_sessions/pair')) ? fs.readdirSync(path.join(ws, 'cape/5_sessions/pair')) : []);

  it('Select Model lists the other extension’s models and marks the one that cannot call tools', async () => {
    await ui.runCommand(page, 'CAPE: Select Model');
    const rows = page.locator('.quick-input-widget .monaco-list-row');
    const texts = await waitFor('the three fake models in the quick pick', async () => {
      const all = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
      return all.filter((t) => t.includes('cape-fake')).length === 3 ? all : undefined;
    });
    const row = (name: string) => texts.find((t) => t.startsWith(name)) ?? '';
    assert.match(row('CAPE Fake (no tools)'), /no tool calling: DevA works from the workspace map/, texts.join('\n'));
    assert.doesNotMatch(row('CAPE Fake (tools)'), /no tool calling/);
    assert.doesNotMatch(row('CAPE Fake (consent)'), /no tool calling/);
    await page.keyboard.press('Escape');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  });

  it('VS Code asks with CAPE’s justification; Cancel ends the step with the actionable error, Allow runs the session', async () => {
    await startSession(page, 'Add a dark mode toggle that remembers the choice');
    await dialog().waitFor({ timeout: 60_000 });
    const text = await dialog().innerText();
    assert.match(text, /wants to access the language models provided by/, text);
    assert.match(text, /CAPE runs its AI product team/, `the dialog shows CAPE's justification: ${text}`);
    await shot(page, 'lm-consent-dialog');
    await dialog().locator('.monaco-button', { hasText: 'Cancel' }).click();

    const wv = await panel(page);
    const box = wv.locator('.turn[data-step="cm_open"] .error-box');
    await box.waitFor({ timeout: 60_000 });
    assert.match(await box.innerText(), /VS Code did not allow CAPE to use the language model "CAPE Fake \(consent\)"/);
    assert.match(await box.innerText(), /CAPE: Select Model/);
    assert.deepStrictEqual(pairFiles(), [], 'no step ran');

    await startSession(page, 'Add a dark mode toggle that remembers the choice');
    await dialog().waitFor({ timeout: 60_000 });
    await dialog().locator('.monaco-button', { hasText: 'Allow' }).click();
    const wv2 = await panel(page);
    await waitFor('the dialog to close', async () => (await dialog().count()) === 0);
    await waitForSessionDone(wv2, 120_000);
    assert.strictEqual(pairFiles().length, 5, `five steps ran on the allowed model: ${pairFiles().join(', ')}`);
    assert.strictEqual(await dialog().count(), 0, 'VS Code asked once: the later requests of the session went through');
  });
});
