// The packaged extension: `npm run package` builds a .vsix; installed (unpacked into code-server's extensions folder,
// exactly what `--install-extension` does) it activates from its own bundle and prompts, and a whole demo session runs
// through the Command Palette — no source tree, no extensionDevelopmentPath.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Browser } from 'playwright-core';
import { startCodeServer, type CodeServer } from '../vscode/codeServer';
import * as ui from '../vscode/browser';
import { startDemoServer } from '../helpers/demoServer';
import { demoDir } from '../helpers/demo';
import { runCli } from '../helpers/cli';
import type { FakeAnthropic } from '../fake-anthropic/server';
import { makeWorkspace, panel, REPO, shot, startSession, waitForSessionDone } from './helpers';

describe('e2e: the packaged .vsix', function () {
  this.timeout(300_000);
  let fake: FakeAnthropic | undefined;
  let cs: CodeServer | undefined;
  let browser: Browser | undefined;
  let unpacked: string;
  let vsix: string;

  before(function () {
    execFileSync('npm', ['run', 'package'], { cwd: REPO, stdio: 'pipe', timeout: 240_000 });
    vsix = path.join(REPO, `cape-vscode-${JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).version}.vsix`);
    assert.ok(fs.existsSync(vsix), 'npm run package produced the .vsix');
    unpacked = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-vsix-'));
    execFileSync('python3', ['-m', 'zipfile', '-e', vsix, unpacked]);
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await cs?.stop();
    await fake?.close();
    fs.rmSync(unpacked, { recursive: true, force: true });
    // Back to the development bundle (with source maps) for the other suites.
    execFileSync(process.execPath, ['esbuild.mjs'], { cwd: REPO, stdio: 'pipe' });
  });

  it('contains the bundles and prompts and nothing of the source tree', () => {
    const ext = path.join(unpacked, 'extension');
    // dist/session.js: the real activation, required by the first command; dist/anthropic-sdk.js: the SDK, required
    // on the first request (the session below runs both).
    for (const f of ['package.json', 'dist/extension.js', 'dist/session.js', 'dist/anthropic-sdk.js', 'dist/indexWorker.js', 'dist/webview.js', 'dist/webview-style.css', 'dist/codicons/codicon.css', 'prompts/shared/preamble.md', 'prompts/roles/deva.md', 'prompts/inputs.json', 'media/cape.svg']) {
      assert.ok(fs.existsSync(path.join(ext, f)), `${f} is in the .vsix`);
    }
    for (const f of ['src', 'test', 'docs', 'node_modules', 'out', 'dist/cli.js', 'dist/cli-kpt.js', 'dist/cli-session.js', 'dist/extension.js.map', 'dist/session.js.map', 'dist/anthropic-sdk.js.map', 'dist/indexWorker.js.map']) {
      assert.ok(!fs.existsSync(path.join(ext, f)), `${f} must not be in the .vsix`);
    }
    assert.ok(fs.statSync(vsix).size < 2_000_000, `the .vsix stays small (${fs.statSync(vsix).size} bytes)`);
  });

  it('installed, it runs a whole session from the Command Palette', async () => {
    fake = await startDemoServer({ chunkSize: 64 });
    const ws = makeWorkspace(path.join(demoDir(), 'workspace'));
    const init = await runCli(['init', '--workspace', ws, '--answers', path.join(demoDir(), 'answers.json')], { ANTHROPIC_BASE_URL: fake.url });
    assert.strictEqual(init.code, 0, init.stderr);
    const initRequests = fake.requests.length;
    cs = await startCodeServer({
      workspace: ws,
      userSettings: { 'cape.baseUrl': fake.url },
      extensions: [{ path: path.join(unpacked, 'extension') }],
    });
    browser = await ui.launchBrowser({ runDir: cs.runDir });
    const page = await ui.openWorkbench(browser, cs, { folder: ws });
    await startSession(page, 'Add a dark mode toggle');
    const wv = await panel(page);
    await waitForSessionDone(wv, 120_000);
    await shot(page, 'package-installed-session');
    const retros = fs.readdirSync(path.join(ws, 'cape/5_sessions/retrospective')).filter((f) => /^\d{4}-\d{2}-\d{2}_\d{2}-\d{2}_task-.*\.md$/.test(f));
    assert.strictEqual(retros.length, 1, 'the installed extension wrote the retrospective');
    assert.strictEqual(fake.requests.length - initRequests, 5, 'five session requests');
  });
});
