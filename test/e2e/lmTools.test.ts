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
import type { IntegrationTestResult } from '../integration/index';
import { runIntegration } from '../vscode/runIntegration';
import { REPO } from './helpers';

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
    // The fake model's extension: its manifest and its compiled main, nothing else (it needs only `vscode`).
    const ext = path.join(base, 'fake-lm');
    fs.mkdirSync(ext);
    fs.copyFileSync(path.join(REPO, 'test/lm-extension/package.json'), path.join(ext, 'package.json'));
    fs.copyFileSync(path.join(REPO, 'out/test/lm-extension/extension.js'), path.join(ext, 'extension.js'));
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
    assert.strictEqual(result.passes, 2, report);
  });
});
