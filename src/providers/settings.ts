// Reads and writes the `cape.*` settings (package.json contributes.configuration); what a value means is
// settingValues.ts's.
import * as vscode from 'vscode';
import type { CapeSettings } from '../services';
import { DEFAULT_INIT_MODEL, DEFAULT_SESSION_MODEL } from '../core';
import { settingsFrom } from './settingValues';

export { DEFAULT_INIT_MODEL, DEFAULT_SESSION_MODEL };

/** The current settings, trimmed, with the manifest defaults for empty values (settingValues.ts). */
export function readSettings(): CapeSettings {
  const c = vscode.workspace.getConfiguration('cape');
  return settingsFrom((key) => c.get<unknown>(key));
}

/**
 * Writes `cape.<key>` where the user keeps it: the workspace (folder) settings when they already set it there —
 * otherwise the workspace value would silently win over a global write — else the user settings. In Restricted Mode
 * only the user settings: nothing is written into an untrusted folder (and its values of these settings are not in
 * effect there: package.json's restrictedConfigurations).
 */
export async function updateSetting(key: keyof CapeSettings, value: unknown): Promise<void> {
  const c = vscode.workspace.getConfiguration('cape');
  const info = c.inspect(key);
  const target = !vscode.workspace.isTrusted
    ? vscode.ConfigurationTarget.Global
    : info?.workspaceFolderValue !== undefined
      ? vscode.ConfigurationTarget.WorkspaceFolder
      : info?.workspaceValue !== undefined
        ? vscode.ConfigurationTarget.Workspace
        : vscode.ConfigurationTarget.Global;
  await c.update(key, value, target);
}
