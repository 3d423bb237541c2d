// CAPE: Set Anthropic API Key — a password input box; the key is checked with the cheapest real request
// (validateApiKey: max_tokens 1) against the configured base URL and stored in SecretStorage only when accepted.
// For automation the command accepts the key as its argument (a string or `{ key }`) and resolves to a
// SetApiKeyResult without prompting.
import * as vscode from 'vscode';
import { DEFAULT_INIT_MODEL, validateApiKey, isLlmError } from '../core';
import type { Services } from '../services';
import { ApiKeyStore, maskKey } from '../providers/apiKey';
import { effectiveBaseUrl } from '../providers/baseUrl';
import { errorMessage, registerCapeCommand } from './util';
import { showError, showInformation } from '../notify';

export const COMMAND_ID = 'cape.setApiKey';
export const SET_KEY_TITLE = 'CAPE: Set Anthropic API Key';

export interface SetApiKeyResult {
  status: 'stored' | 'cancelled' | 'rejected' | 'failed';
  /** Why the key was not stored. */
  error?: string;
}

export function register(services: Services): vscode.Disposable {
  return registerCapeCommand(services, COMMAND_ID, 'CAPE: Set Anthropic API Key failed', (arg) => {
    const key = typeof arg === 'string' ? arg : arg && typeof arg === 'object' && typeof (arg as { key?: unknown }).key === 'string' ? (arg as { key: string }).key : undefined;
    return setApiKey(services, key);
  });
}

type Check = { ok: true } | { ok: false; rejected: boolean; error: string };

/** Runs validateApiKey under a cancellable progress notification. */
async function check(key: string, baseURL: string, model: string): Promise<Check | undefined> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `CAPE: Checking the API key with ${baseURL}…`, cancellable: true },
    async (_progress, token) => {
      const ac = new AbortController();
      const sub = token.onCancellationRequested(() => ac.abort());
      try {
        await validateApiKey({ apiKey: key, baseURL, model, signal: ac.signal, timeoutMs: 30_000 });
        return { ok: true } as Check;
      } catch (err) {
        if (ac.signal.aborted || (isLlmError(err) && err.kind === 'cancelled')) return undefined;
        if (isLlmError(err) && err.kind === 'auth' && err.status === 401) {
          return {
            ok: false,
            rejected: true,
            error: `The key was rejected (401) by ${baseURL}. Check that you copied the whole key and that it is still active in the Anthropic Console.`,
          } as Check;
        }
        return { ok: false, rejected: isLlmError(err) && err.kind === 'auth', error: errorMessage(err) } as Check;
      } finally {
        sub.dispose();
      }
    },
  );
}

export async function setApiKey(services: Services, givenKey?: string): Promise<SetApiKeyResult> {
  const s = services.settings();
  const baseURL = effectiveBaseUrl(s.baseUrl);
  const keys = new ApiKeyStore(services.context.secrets);
  // The cheapest model for the check: the init model (a fast one) — any model the key can use proves the key.
  const model = s.provider === 'anthropic' ? s.initModel : DEFAULT_INIT_MODEL;
  // the one wording of a key checked and stored, or not stored, for both ways in (a given key, the input box)
  const stored = async (key: string): Promise<SetApiKeyResult> => {
    await keys.set(key);
    services.output.info(`Anthropic API key ${maskKey(key)} stored (checked against ${baseURL})`);
    void showInformation(`CAPE: the Anthropic API key was checked with ${baseURL} and saved in VS Code's secret storage.`);
    return { status: 'stored' };
  };
  const notStored = (key: string, error: string) => services.output.warn(`API key ${maskKey(key)} not stored: ${error}`);

  if (givenKey !== undefined) {
    const key = givenKey.trim();
    if (!key) return { status: 'failed', error: 'The key is empty.' };
    const res = await check(key, baseURL, model);
    if (!res) return { status: 'cancelled' };
    if (!res.ok) {
      notStored(key, res.error);
      void showError(`CAPE: ${res.error}`);
      return { status: res.rejected ? 'rejected' : 'failed', error: res.error };
    }
    return stored(key);
  }

  let value = '';
  let problem: string | undefined;
  for (;;) {
    const entered = await vscode.window.showInputBox({
      title: SET_KEY_TITLE,
      prompt: problem ?? "Paste your Anthropic API key (Anthropic Console → API Keys). It is stored only in VS Code's secret storage.",
      placeHolder: 'sk-ant-…',
      password: true,
      ignoreFocusOut: true,
      value,
      validateInput: (v) => (v.trim() === '' ? 'Paste a key, or press Esc to cancel.' : /\s/.test(v.trim()) ? 'An API key has no spaces or line breaks.' : undefined),
    });
    if (entered === undefined) return { status: 'cancelled' };
    const key = entered.trim();
    const res = await check(key, baseURL, model);
    if (!res) return { status: 'cancelled' };
    if (res.ok) return stored(key);
    notStored(key, res.error);
    if (res.rejected) {
      // let the user fix it right away: the same box again, with the reason as its prompt
      problem = `${res.error} Paste the key again, or press Esc to cancel.`;
      value = '';
      continue;
    }
    const choice = await showError(`CAPE could not check the key: ${res.error}`, 'Retry', 'Open Settings');
    if (choice === 'Retry') {
      value = key;
      problem = undefined;
      continue;
    }
    if (choice === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'cape.baseUrl');
    return { status: 'failed', error: res.error };
  }
}
