// LlmProvider implementation: resolves the model client for the configured provider (`cape.provider`).
//  - anthropic: AnthropicClient with the key from SecretStorage. A loopback base URL (local gateway, test server)
//    needs no key: the stored key is sent if there is one, else the placeholder "local" (as the CLI does).
//    A missing key offers "Set API Key" / "Use VS Code Language Model".
//  - vscode-lm: a chat model from vscode.lm.selectChatModels, matched against cape.model / cape.initModel.
import * as vscode from 'vscode';
import { AnthropicClient, type LlmClient } from '../core';
import type { CapeSettings, LlmProvider } from '../services';
import { ApiKeyStore } from './apiKey';
import { LOOPBACK_PLACEHOLDER_KEY, effectiveBaseUrl, isLoopbackBaseUrl } from './baseUrl';
import { updateSetting } from './settings';
import { createLmClient, describeChatModel, listChatModels, matchChatModel } from './vscodeLm';
import { showWarning } from '../notify';

export { ApiKeyStore, API_KEY_SECRET, maskKey } from './apiKey';
export { isLoopbackBaseUrl, effectiveBaseUrl } from './baseUrl';
export { readSettings, updateSetting } from './settings';

export const SET_API_KEY = 'Set API Key';
export const USE_VSCODE_LM = 'Use VS Code Language Model';
export const MISSING_KEY_MESSAGE = 'CAPE needs an Anthropic API key';

type ClientInfo = { client: LlmClient; model: string; label: string };

export class CapeLlmProvider implements LlmProvider {
  constructor(
    private readonly settings: () => CapeSettings,
    readonly keys: ApiKeyStore,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  describe(): { provider: string; model: string } {
    const s = this.settings();
    if (s.provider === 'vscode-lm') return { provider: 'VS Code Language Model', model: s.model };
    let where = '';
    try {
      const url = effectiveBaseUrl(s.baseUrl);
      if (s.baseUrl) where = ` (${new URL(url).host})`;
    } catch {
      where = ' (invalid cape.baseUrl)';
    }
    return { provider: `Anthropic API${where}`, model: s.model };
  }

  async getClient(purpose: 'session' | 'init'): Promise<ClientInfo | undefined> {
    const s = this.settings();
    const wanted = purpose === 'init' ? s.initModel : s.model;
    return s.provider === 'vscode-lm' ? this.lmClient(wanted) : this.anthropicClient(s, wanted, purpose);
  }

  private async anthropicClient(s: CapeSettings, model: string, purpose: 'session' | 'init'): Promise<ClientInfo | undefined> {
    const baseURL = effectiveBaseUrl(s.baseUrl); // throws a message naming the setting when invalid
    let apiKey = await this.keys.get();
    if (!apiKey && isLoopbackBaseUrl(baseURL)) apiKey = LOOPBACK_PLACEHOLDER_KEY;
    if (!apiKey) {
      const choice = await showWarning(
        `${MISSING_KEY_MESSAGE} to call ${baseURL}. Set one (it is stored in VS Code's secret storage), or use a ` +
          'chat model installed in VS Code instead.',
        SET_API_KEY,
        USE_VSCODE_LM,
      );
      if (choice === SET_API_KEY) {
        await vscode.commands.executeCommand('cape.setApiKey');
        apiKey = await this.keys.get();
        if (!apiKey) return undefined;
      } else if (choice === USE_VSCODE_LM) {
        await updateSetting('provider', 'vscode-lm');
        this.log.info('cape.provider switched to vscode-lm');
        const next = this.settings();
        return this.lmClient(purpose === 'init' ? next.initModel : next.model);
      } else {
        return undefined;
      }
    }
    const host = new URL(baseURL).host;
    this.log.info(`Anthropic client for ${purpose}: ${model} at ${host}`);
    return {
      client: new AnthropicClient({ apiKey, baseURL }),
      model,
      label: `Anthropic${s.baseUrl ? ` (${host})` : ''} · ${model}`,
    };
  }

  private async lmClient(wanted: string): Promise<ClientInfo | undefined> {
    const models = await listChatModels();
    const found = matchChatModel(models, wanted);
    if (!found) {
      const choice = await showWarning(
        'No VS Code language model is available. Install and sign in to an extension that provides chat models ' +
          '(e.g. GitHub Copilot Chat), or use the Anthropic API with your own key.',
        'Use Anthropic API',
      );
      if (choice === 'Use Anthropic API') await updateSetting('provider', 'anthropic');
      return undefined;
    }
    const m = found.model;
    if (!found.matched) {
      this.log.warn(`No VS Code language model matches "${wanted}"; using ${describeChatModel(m)}. Change it with 'CAPE: Select Model'.`);
    }
    return { client: createLmClient(m), model: m.id, label: `VS Code LM · ${m.name}` };
  }
}
