// The extension's activation, its commands and its Anthropic provider inside a real extension host (code-server via
// test/vscode/runIntegration.ts). The local fake Messages API runs inside the extension host; cape.baseUrl points
// at it (user settings, restored afterwards).
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { CapeExtensionApi } from '../../src/extension';
import type { SetApiKeyResult } from '../../src/commands/setApiKey';
import { API_KEY_SECRET } from '../../src/providers/apiKey';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic';

const EXTENSION_ID = 'cape-team.cape-vscode';
const GOOD_KEY = 'sk-ant-integration-good-0001';

async function api(): Promise<CapeExtensionApi> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded`);
  const exports = (await ext.activate()) as CapeExtensionApi | undefined;
  assert.ok(exports?.services, 'activate() must return { services }');
  return exports;
}

const config = () => vscode.workspace.getConfiguration('cape');

/** The extension's bundle files, as the extension host's require cache names them. */
function bundle(name: 'extension' | 'session' | 'anthropic-sdk'): string {
  return path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', `${name}.js`);
}

describe('CAPE extension: activation and commands (real extension host)', function () {
  this.timeout(60_000);
  let services: CapeExtensionApi['services'];
  const saved: Record<string, unknown> = {};
  const KEYS = ['baseUrl', 'model', 'initModel', 'provider'];
  // Which lazy bundles were loaded once the extension was active. This file runs first (mocha takes the files in
  // name order), nothing before it runs a CAPE command or sends a request, and no CAPE view is visible, so only
  // activation could have loaded them.
  let sdkLoadedByActivation: boolean;
  let sessionLoadedByActivation: boolean;
  // The first command, run before anything reads the exports' services (which loads the session bundle too).
  let firstCommand: { result?: unknown; error?: string; sessionLoaded: boolean; sdkLoaded: boolean };

  before(async () => {
    for (const k of KEYS) saved[k] = config().inspect(k)?.globalValue;
    await vscode.extensions.getExtension(EXTENSION_ID)!.activate(); // the exports are not touched here
    sdkLoadedByActivation = require.cache[bundle('anthropic-sdk')] !== undefined;
    sessionLoadedByActivation = require.cache[bundle('session')] !== undefined;
    // Select Model in its argument form, with the configured models: its real handler answers with what it wrote.
    const models = { model: config().get<string>('model'), initModel: config().get<string>('initModel') };
    firstCommand = { sessionLoaded: false, sdkLoaded: false };
    try {
      firstCommand.result = await vscode.commands.executeCommand('cape.selectModel', models);
    } catch (err) {
      firstCommand.error = (err as Error).message;
    }
    firstCommand.sessionLoaded = require.cache[bundle('session')] !== undefined;
    firstCommand.sdkLoaded = require.cache[bundle('anthropic-sdk')] !== undefined;
    services = (await api()).services;
    await services.context.secrets.delete(API_KEY_SECRET);
  });

  after(async () => {
    for (const k of KEYS) await config().update(k, saved[k], vscode.ConfigurationTarget.Global);
    await services.context.secrets.delete(API_KEY_SECRET);
  });

  it('registers every command contributed in package.json', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const manifest = JSON.parse(fs.readFileSync(path.join(ext.extensionPath, 'package.json'), 'utf8'));
    const contributed: string[] = manifest.contributes.commands.map((c: { command: string }) => c.command);
    assert.ok(contributed.length >= 10, `package.json lists ${contributed.length} commands`);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((c) => !registered.has(c));
    assert.deepStrictEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  it('activation does not load the Anthropic SDK: dist/anthropic-sdk.js is required on the first request only', async () => {
    assert.ok(require.cache[bundle('extension')], 'the extension runs from dist/extension.js in this require cache');
    assert.ok(fs.existsSync(bundle('anthropic-sdk')), 'the SDK bundle sits next to extension.js');
    assert.strictEqual(sdkLoadedByActivation, false, 'the SDK bundle was loaded at activation');
    const extensionJs = fs.readFileSync(bundle('extension'), 'utf8');
    assert.ok(!extensionJs.includes('anthropic-version'), 'the SDK (which sends the anthropic-version header) is not bundled into extension.js');
  });

  it('activation loads only dist/extension.js: the first command loads dist/session.js and runs on its real handler', () => {
    const extensionJs = fs.readFileSync(bundle('extension'), 'utf8');
    assert.ok(extensionJs.includes('./session.js'), 'the entry requires the session bundle next to it');
    assert.ok(fs.existsSync(bundle('session')), 'the session bundle sits next to extension.js');
    assert.ok(fs.statSync(bundle('extension')).size < 20_000, `the entry holds stand-ins only (${fs.statSync(bundle('extension')).size} bytes)`);
    assert.ok(!extensionJs.includes('kpt_merged.md'), 'the views and the session machinery are not bundled into extension.js');
    assert.strictEqual(sessionLoadedByActivation, false, 'the session bundle was loaded at activation');
    assert.strictEqual(firstCommand.error, undefined, `the first command failed: ${firstCommand.error}`);
    assert.deepStrictEqual(firstCommand.result, { model: config().get('model'), initModel: config().get('initModel') }, 'the real Select Model answered');
    assert.strictEqual(firstCommand.sessionLoaded, true, 'the first command loaded the session bundle');
    assert.strictEqual(firstCommand.sdkLoaded, false, 'a command that sends no request does not load the SDK');
  });

  it('activate returns the service container with settings, a workspace root and the prompts', () => {
    const s = services.settings();
    assert.ok(['anthropic', 'vscode-lm'].includes(s.provider));
    assert.ok(s.capeFolder);
    assert.strictEqual(services.workspaceRoot(), vscode.workspace.workspaceFolders?.[0]?.uri.fsPath);
    assert.ok(services.prompts.inputs.length > 0, 'prompt assets load from the installed extension');
    assert.ok(services.controller && typeof services.controller.start === 'function');
  });

  describe('Set / Clear Anthropic API Key against the fake Messages API', () => {
    let fake: FakeAnthropic;
    before(async () => {
      fake = await startFakeAnthropic({ apiKey: GOOD_KEY });
      fake.setResponder(() => ({ text: 'ok' }));
      await config().update('baseUrl', fake.url, vscode.ConfigurationTarget.Global);
    });
    after(async () => {
      await fake.close();
    });
    beforeEach(() => fake.reset());

    it('stores the key in SecretStorage after a successful validation request', async () => {
      fake.setResponder(() => ({ text: 'ok' }));
      const res = (await vscode.commands.executeCommand('cape.setApiKey', GOOD_KEY)) as SetApiKeyResult;
      assert.deepStrictEqual(res, { status: 'stored' });
      assert.ok(require.cache[bundle('anthropic-sdk')], 'the first request loaded the SDK bundle');
      assert.strictEqual(await services.context.secrets.get(API_KEY_SECRET), GOOD_KEY);
      assert.strictEqual(fake.requests.length, 1, 'one cheap validation request');
      const body = fake.requests[0].body as { max_tokens: number; model: string };
      assert.strictEqual(body.max_tokens, 1);
      assert.strictEqual(body.model, services.settings().initModel);
      // the key never reaches the settings
      assert.ok(!JSON.stringify(config()).includes(GOOD_KEY));
    });

    it('a rejected key (401) is not stored and the stored one is kept', async () => {
      const res = (await vscode.commands.executeCommand('cape.setApiKey', { key: 'sk-ant-wrong-key-9999' })) as SetApiKeyResult;
      assert.strictEqual(res.status, 'rejected');
      assert.match(res.error ?? '', /rejected \(401\)/);
      assert.strictEqual(await services.context.secrets.get(API_KEY_SECRET), GOOD_KEY);
    });

    it('a network failure says which URL failed and stores nothing', async () => {
      await services.context.secrets.delete(API_KEY_SECRET);
      const closed = await startFakeAnthropic();
      const deadUrl = closed.url;
      await closed.close();
      await config().update('baseUrl', deadUrl, vscode.ConfigurationTarget.Global);
      try {
        const res = (await vscode.commands.executeCommand('cape.setApiKey', GOOD_KEY)) as SetApiKeyResult;
        assert.strictEqual(res.status, 'failed');
        assert.ok(res.error?.includes(deadUrl), res.error);
        assert.strictEqual(await services.context.secrets.get(API_KEY_SECRET), undefined);
      } finally {
        await config().update('baseUrl', fake.url, vscode.ConfigurationTarget.Global);
      }
    });

    it('Clear Anthropic API Key deletes it', async () => {
      await services.context.secrets.store(API_KEY_SECRET, GOOD_KEY);
      assert.strictEqual(await vscode.commands.executeCommand('cape.clearApiKey'), true);
      assert.strictEqual(await services.context.secrets.get(API_KEY_SECRET), undefined);
      assert.strictEqual(await vscode.commands.executeCommand('cape.clearApiKey'), false);
    });

    it('the provider streams through a loopback base URL without a key', async () => {
      await services.context.secrets.delete(API_KEY_SECRET);
      const open = await startFakeAnthropic(); // accepts any key
      await config().update('baseUrl', open.url, vscode.ConfigurationTarget.Global);
      await config().update('provider', 'anthropic', vscode.ConfigurationTarget.Global);
      try {
        open.enqueue({ text: 'hello from the fake', chunkSize: 4 });
        const info = await services.provider.getClient('session');
        assert.ok(info, 'a client without prompting');
        assert.strictEqual(info.model, services.settings().model);
        assert.match(info.label, /^Anthropic \(127\.0\.0\.1:\d+\) · /);
        const deltas: string[] = [];
        const res = await info.client.stream({ model: info.model, maxTokens: 50, system: [{ text: 'sys' }], messages: [{ role: 'user', content: 'hi' }] }, (d) => deltas.push(d));
        assert.strictEqual(res.text, 'hello from the fake');
        assert.ok(deltas.length > 1, 'streamed in several deltas');
        assert.strictEqual(open.requests[0].apiKey, 'local', 'the loopback placeholder key, never a real one');
      } finally {
        await open.close();
        await config().update('baseUrl', fake.url, vscode.ConfigurationTarget.Global);
      }
    });
  });

  it('Select Model writes cape.model and cape.initModel (argument form) and the provider follows', async () => {
    const res = await vscode.commands.executeCommand('cape.selectModel', { model: 'claude-opus-4-6', initModel: 'claude-haiku-4-5' });
    assert.deepStrictEqual(res, { model: 'claude-opus-4-6', initModel: 'claude-haiku-4-5' });
    assert.strictEqual(config().get('model'), 'claude-opus-4-6');
    assert.strictEqual(services.settings().model, 'claude-opus-4-6');
    assert.strictEqual(services.provider.describe().model, 'claude-opus-4-6');
    // an invalid id is refused and changes nothing
    await vscode.commands.executeCommand('cape.selectModel', { model: 'two words' });
    assert.strictEqual(config().get('model'), 'claude-opus-4-6');
  });

  it('Open Retrospective opens the markdown given as a path argument', async () => {
    const root = services.workspaceRoot()!;
    const dir = path.join(root, 'cape-commands-it', '5_sessions', 'retrospective');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, '2026-01-02_03-04_task-it-1.md');
    fs.writeFileSync(file, '---\ntask_id: task-it-1\nobjective: Integration\n---\n\n# Retrospective\n');
    try {
      const uri = await vscode.commands.executeCommand('cape.openRetrospective', file);
      assert.strictEqual(uri, vscode.Uri.file(file).toString());
      assert.strictEqual(vscode.window.activeTextEditor?.document.uri.fsPath, file);
      // a Uri argument works too, and a non-markdown path is refused
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.commands.executeCommand('cape.openRetrospective', vscode.Uri.file(file));
      assert.strictEqual(vscode.window.activeTextEditor?.document.uri.fsPath, file);
      assert.strictEqual(await vscode.commands.executeCommand('cape.openRetrospective', path.join(root, 'package.json')), undefined);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      fs.rmSync(path.join(root, 'cape-commands-it'), { recursive: true, force: true });
    }
  });
});
