// CAPE: Initialize Project inside a real extension host: the command runs initCape with the init model against
// the local fake Messages API (answers passed as the command argument, the automation form), and the files land on
// disk. The test uses its own cape.capeFolder so it never touches the workspace's cape/.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { CapeExtensionApi } from '../../src/extension';
import type { InitProjectResult } from '../../src/commands/initProject';
import { GENERIC_CAPE_FILES } from '../../src/core/cape/capeLayout';
import { API_KEY_SECRET } from '../../src/providers/apiKey';
import { demoAnswers, demoDecisions, demoInputFile, isDecisionsRequest } from '../helpers/demo';
import { startFakeAnthropic, type FakeAnthropic, type RecordedRequest } from '../fake-anthropic';

const EXTENSION_ID = 'cape-team.cape-vscode';
const FOLDER = 'cape-init-it';

const config = () => vscode.workspace.getConfiguration('cape');

/** The cape-relative path an init request asks for ("Write cape/<path> now."). */
function requestedPath(req: RecordedRequest): string {
  const text = JSON.stringify(req.body?.messages ?? '');
  const m = /Write cape\/([^\s"\\]+) now/.exec(text);
  return m ? m[1] : 'unknown.md';
}

describe('CAPE: Initialize Project (real extension host, fake Messages API)', function () {
  this.timeout(60_000);
  let services: CapeExtensionApi['services'];
  let fake: FakeAnthropic;
  let root: string;
  let capeDir: string;
  const saved: Record<string, unknown> = {};
  const answers = demoAnswers() as Record<string, string>;

  before(async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} is not loaded`);
    services = ((await ext.activate()) as CapeExtensionApi).services;
    root = services.workspaceRoot()!;
    assert.ok(root, 'the integration run needs a workspace folder');
    capeDir = path.join(root, FOLDER);
    fs.rmSync(capeDir, { recursive: true, force: true });
    for (const k of ['baseUrl', 'capeFolder', 'provider', 'initModel']) saved[k] = config().inspect(k)?.globalValue;
    fake = await startFakeAnthropic({ chunkSize: 64 });
    await services.context.secrets.delete(API_KEY_SECRET); // loopback: no key needed
    await config().update('baseUrl', fake.url, vscode.ConfigurationTarget.Global);
    await config().update('capeFolder', FOLDER, vscode.ConfigurationTarget.Global);
    await config().update('provider', 'anthropic', vscode.ConfigurationTarget.Global);
    await config().update('initModel', 'claude-haiku-4-5', vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    for (const k of Object.keys(saved)) await config().update(k, saved[k], vscode.ConfigurationTarget.Global);
    await fake?.close();
    fs.rmSync(capeDir, { recursive: true, force: true });
  });

  beforeEach(() => {
    fake.reset();
    fake.setResponder((req) => ({ text: isDecisionsRequest(req.body) ? demoDecisions() : demoInputFile(requestedPath(req), answers) }));
  });

  it('writes every template and input file with the init model', async () => {
    const res = (await vscode.commands.executeCommand('cape.initProject', { answers })) as InitProjectResult;
    assert.strictEqual(res.status, 'done', JSON.stringify(res));
    if (res.status !== 'done') return;
    assert.strictEqual(res.mode, 'fail-if-exists');
    assert.deepStrictEqual(res.result.failed, []);
    const inputs = services.prompts.inputs;
    assert.strictEqual(fake.requests.length, 1 + inputs.length, 'the shared decisions, then one model call per input file');
    assert.ok(isDecisionsRequest(fake.requests[0].body));
    assert.ok(fake.requests.every((r) => r.model === 'claude-haiku-4-5'), 'the init model is used');
    for (const rel of GENERIC_CAPE_FILES) assert.ok(fs.existsSync(path.join(capeDir, rel)), `template ${rel}`);
    for (const spec of inputs) {
      const text = fs.readFileSync(path.join(capeDir, spec.path), 'utf8');
      assert.match(text, /^---\ntype: input\n---/, spec.path);
      assert.ok(text.includes(answers.product), `${spec.path} carries the product answer`);
    }
    // the answers reached the model
    assert.ok(JSON.stringify(fake.requests[0].body.messages).includes(answers.product));
  });

  it('refuses to overwrite an existing folder without a mode, and writes nothing', async () => {
    const file = path.join(capeDir, services.prompts.inputs[0].path);
    const before = fs.readFileSync(file, 'utf8');
    const res = (await vscode.commands.executeCommand('cape.initProject', { answers })) as InitProjectResult;
    assert.strictEqual(res.status, 'error');
    if (res.status === 'error') assert.match(res.error, /already exists/);
    assert.strictEqual(fake.requests.length, 0);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), before);
  });

  it('"missing-only" regenerates only the deleted file and keeps the user\'s edits', async () => {
    const [gone, edited] = services.prompts.inputs;
    fs.rmSync(path.join(capeDir, gone.path));
    fs.writeFileSync(path.join(capeDir, edited.path), '---\ntype: input\n---\n\nEdited by hand.\n');
    const res = (await vscode.commands.executeCommand('cape.initProject', { answers, mode: 'missing-only' })) as InitProjectResult;
    assert.strictEqual(res.status, 'done');
    if (res.status !== 'done') return;
    assert.deepStrictEqual(res.result.written, [`${FOLDER}/${gone.path}`]);
    assert.strictEqual(fake.requests.length, 1, 'the decisions stored by the first run are reused');
    assert.strictEqual(requestedPath(fake.requests[0]), gone.path);
    assert.ok(fs.existsSync(path.join(capeDir, gone.path)));
    assert.match(fs.readFileSync(path.join(capeDir, edited.path), 'utf8'), /Edited by hand/);
  });

  it('a file the model answers badly is reported as failed; the others are written', async () => {
    const bad = services.prompts.inputs[1].path;
    fs.rmSync(capeDir, { recursive: true, force: true });
    fake.setResponder((req) => {
      if (isDecisionsRequest(req.body)) return { text: demoDecisions() };
      const p = requestedPath(req);
      // executable frontmatter is refused by the reply check (and again after the one repair request): never written
      return { text: p === bad ? '---js\n{ a: require("fs") }\n---\n\n# x\n' : demoInputFile(p, answers) };
    });
    const res = (await vscode.commands.executeCommand('cape.initProject', { answers, mode: 'overwrite' })) as InitProjectResult;
    assert.strictEqual(res.status, 'done');
    if (res.status !== 'done') return;
    assert.deepStrictEqual(res.result.failed.map((f) => f.path), [`${FOLDER}/${bad}`]);
    assert.ok(!fs.existsSync(path.join(capeDir, bad)), 'the refused file is not on disk');
    assert.strictEqual(res.result.written.length, GENERIC_CAPE_FILES.length + services.prompts.inputs.length - 1);
  });

  it('invalid automation arguments are refused before any request', async () => {
    const missing = (await vscode.commands.executeCommand('cape.initProject', { answers: { product: 'only this' } })) as InitProjectResult;
    assert.strictEqual(missing.status, 'error');
    if (missing.status === 'error') assert.match(missing.error, /missing required answer/);
    const badMode = (await vscode.commands.executeCommand('cape.initProject', { answers, mode: 'everything' })) as InitProjectResult;
    assert.strictEqual(badMode.status, 'error');
    assert.strictEqual(fake.requests.length, 0);
  });
});
