// The `cape.*` settings' values as the extension uses them, worked out from what the configuration holds: trimmed,
// the manifest defaults for empty or ill-typed values (package.json contributes.configuration), the CAPE folder in
// its normal form (capeFolderKey). No `vscode` import, so unit tests read them; settings.ts reads the configuration
// and writes it.
import type { CapeSettings } from '../services';
import { capeFolderKey, DEFAULT_CAPE_FOLDER, DEFAULT_FEEDBACK_ROUNDS, DEFAULT_INIT_MODEL, DEFAULT_MAX_TOOL_CALLS, DEFAULT_MAX_TOOL_CHARS, DEFAULT_SESSION_MODEL, DEFAULT_FIX_ROUNDS, DEFAULT_CHECK_TIMEOUT_MS, MIN_CHECK_TIMEOUT_MS, cleanCommandList, copyLimitOfMb, WORKSPACE_COPY_LIMIT } from '../core';

/** The settings of a configuration whose `get(key)` gives the value of `cape.<key>` (anything, or undefined). */
export function settingsFrom(get: (key: string) => unknown): CapeSettings {
  const str = (key: string, dflt: string): string => {
    const v = get(key);
    return typeof v === 'string' && v.trim() ? v.trim() : dflt;
  };
  const count = (key: string, dflt: number): number => {
    const v = get(key);
    return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : dflt;
  };
  const cap = get('maxSessionCostUsd');
  const checks = get('checks');
  const provider = get('provider') === 'vscode-lm' ? 'vscode-lm' : 'anthropic';
  return {
    provider,
    language: str('language', 'English'),
    model: str('model', DEFAULT_SESSION_MODEL),
    initModel: str('initModel', DEFAULT_INIT_MODEL),
    baseUrl: str('baseUrl', ''),
    capeFolder: capeFolderKey(str('capeFolder', DEFAULT_CAPE_FOLDER)),
    tools: { maxCalls: count('tools.maxCalls', DEFAULT_MAX_TOOL_CALLS), maxChars: count('tools.maxChars', DEFAULT_MAX_TOOL_CHARS) },
    feedbackRounds: count('feedbackRounds', DEFAULT_FEEDBACK_ROUNDS),
    checks: {
      commands: cleanCommandList(Array.isArray(checks) ? checks : []),
      fixRounds: count('fixRounds', DEFAULT_FIX_ROUNDS),
      failFirst: get('failFirst') === true,
      format: get('formatProposal') !== false,
      timeoutMs: (() => {
        const v = get('checkTimeout');
        return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.max(MIN_CHECK_TIMEOUT_MS, Math.round(v * 1000)) : DEFAULT_CHECK_TIMEOUT_MS;
      })(),
      copyLimit: (() => {
        const v = get('checkCopyLimit');
        return typeof v === 'number' && Number.isFinite(v) && v > 0 ? copyLimitOfMb(v) : WORKSPACE_COPY_LIMIT;
      })(),
    },
    ...(typeof cap === 'number' && Number.isFinite(cap) && cap > 0 ? { maxSessionCostUsd: cap } : {}),
  };
}
