// createServices: the Services container (src/services.ts) for one activation. Everything it creates is added to
// context.subscriptions, so deactivation disposes it.
import * as path from 'path';
import * as vscode from 'vscode';
import { defaultPromptsDir, loadPromptAssets, type PromptAssets } from './core';
import type { Services } from './services';
import { ApiKeyStore } from './providers/apiKey';
import { CapeLlmProvider } from './providers';
import { readSettings } from './providers/settings';
import { SessionController } from './session/SessionController';
import { WorkspaceFileWatcher } from './workspace/fileWatcher';

/** Services plus what this implementation adds (tests reach it through the extension's exports). */
export interface CapeServices extends Services {
  provider: CapeLlmProvider;
  /** The Anthropic API key in SecretStorage. */
  keys: ApiKeyStore;
}

/** The first workspace folder on disk (CAPE works on one folder). */
function firstFolder(): vscode.WorkspaceFolder | undefined {
  return vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
}

export function createServices(context: vscode.ExtensionContext): CapeServices {
  const output = vscode.window.createOutputChannel('CAPE', { log: true });
  const sessionsChanged = new vscode.EventEmitter<void>();
  const keys = new ApiKeyStore(context.secrets);
  const provider = new CapeLlmProvider(readSettings, keys, output);
  const fileWatcher = new WorkspaceFileWatcher();
  context.subscriptions.push(output, sessionsChanged, fileWatcher);

  let prompts: PromptAssets | undefined;
  const services: CapeServices = {
    context,
    output,
    keys,
    provider,
    settings: readSettings,
    workspaceRoot: () => firstFolder()?.uri.fsPath,
    // loaded on first use: a broken install then fails the command that needs the prompts with a clear message
    // instead of failing activation (which would leave every command unregistered)
    get prompts(): PromptAssets {
      if (!prompts) {
        const dir = (() => {
          try {
            return defaultPromptsDir();
          } catch {
            return path.join(context.extensionPath, 'prompts');
          }
        })();
        prompts = loadPromptAssets(dir);
      }
      return prompts;
    },
    controller: undefined as unknown as Services['controller'], // set right below: the controller needs services
    onDidChangeSessions: sessionsChanged.event,
    refreshTrees: () => sessionsChanged.fire(),
    fileWatcher,
  };
  services.controller = new SessionController(services);
  context.subscriptions.push(services.controller);

  context.subscriptions.push(keys.onDidChange(() => output.info('the Anthropic API key changed in secret storage')));
  return services;
}
