// CAPE: Clear Anthropic API Key — deletes the key from SecretStorage.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { ApiKeyStore } from '../providers/apiKey';
import { registerCapeCommand } from './util';
import { showInformation } from '../notify';

export const COMMAND_ID = 'cape.clearApiKey';

export function register(services: Services): vscode.Disposable {
  return registerCapeCommand(services, COMMAND_ID, 'CAPE: Clear Anthropic API Key failed', () => clearApiKey(services));
}

/** Resolves to true when a key was stored (and is now deleted). */
export async function clearApiKey(services: Services): Promise<boolean> {
  const keys = new ApiKeyStore(services.context.secrets);
  const had = (await keys.get()) !== undefined;
  await keys.clear();
  services.output.info(had ? 'Anthropic API key deleted from secret storage' : 'Clear API key: no key was stored');
  void showInformation(
    had ? 'CAPE: the Anthropic API key was deleted from VS Code\'s secret storage.' : 'CAPE: no Anthropic API key was stored.',
  );
  return had;
}
