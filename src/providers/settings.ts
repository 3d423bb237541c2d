// Reads and writes the `cape.*` settings (package.json contributes.configuration).
import * as vscode from 'vscode';
import type { CapeSettings } from '../services';
import { DEFAULT_CAPE_FOLDER, DEFAULT_FEEDBACK_ROUNDS, DEFAULT_INIT_MODEL, DEFAULT_MAX_TOOL_CALLS, DEFAULT_MAX_TOOL_CHARS, DEFAULT_SESSION_MODEL, DEFAULT_FIX_ROUNDS, DEFAULT_CHECK_TIMEOUT_MS, MIN_CHECK_TIMEOUT_MS, cleanCommandList, copyLimitOfMb, WORKSPACE_COPY_LIMIT } from '../core';

export { DEFAULT_INIT_MODEL, DEFAULT_SESSION_MODEL };

/** The current settings, trimmed, with the manifest defaults for empty values. */
export function readSettings(): CapeSettings {
  const c = vscode.workspace.getConfiguration('cape');
  const str = (key: string, dflt: string): string => {
    const v = c.get<unknown>(key);
    return typeof v === 'string' && v.trim() ? v.trim() : dflt;
  };
  const count = (key: string, dflt: number): number => {
    const v = c.get<unknown>(key);
    return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : dflt;
  };
  const cap = c.get<unknown>('maxSessionCostUsd');
  const provider = c.get<string>('provider') === 'vscode-lm' ? 'vscode-lm' : 'anthropic';
  return {
    provider,
    language: str('language', 'English'),
    model: str('model', DEFAULT_SESSION_MODEL),
    initModel: str('initModel', DEFAULT_INIT_MODEL),
    baseUrl: str('baseUrl', ''),
    capeFolder: str('capeFolder', DEFAULT_CAPE_FOLDER).replace(/(?<![\\/])[\\/]+$/, '') || DEFAULT_CAPE_FOLDER,
    tools: { maxCalls: count('tools.maxCalls', DEFAULT_MAX_TOOL_CALLS), maxChars: count('tools.maxChars', DEFAULT_MAX_TOOL_CHARS) },
    feedbackRounds: count('feedbackRounds', DEFAULT_FEEDBACK_ROUNDS),
    checks: {
      commands: cleanCommandList(Array.isArray(c.get<unknown>('checks')) ? (c.get<unknown[]>('checks') ?? []) : []),
      fixRounds: count('fixRounds', DEFAULT_FIX_ROUNDS),
      failFirst: c.get<unknown>('failFirst') === true,
      format: c.get<unknown>('formatProposal') !== false,
      timeoutMs: (() => {
        const v = c.get<unknown>('checkTimeout');
        return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.max(MIN_CHECK_TIMEOUT_MS, Math.round(v * 1000)) : DEFAULT_CHECK_TIMEOUT_MS;
      })(),
      copyLimit: (() => {
        const v = c.get<unknown>('checkCopyLimit');
        return typeof v === 'number' && Number.isFinite(v) && v > 0 ? copyLimitOfMb(v) : WORKSPACE_COPY_LIMIT;
      })(),
    },
    ...(typeof cap === 'number' && Number.isFinite(cap) && cap > 0 ? { maxSessionCostUsd: cap } : {}),
  };
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
