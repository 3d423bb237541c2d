// The VS Code Language Model provider: selects a chat model through vscode.lm and wraps it in LmClient.
import * as vscode from 'vscode';
import { LmClient } from './lmClient';

const host = {
  user: (text: string) => vscode.LanguageModelChatMessage.User(text),
  assistant: (text: string) => vscode.LanguageModelChatMessage.Assistant(text),
  cancellationSource: () => new vscode.CancellationTokenSource(),
};

/** `vscode.lm` is missing in hosts without the Language Model API (e.g. some forks): treat that as "no models". */
export async function listChatModels(): Promise<vscode.LanguageModelChat[]> {
  const lm = (vscode as { lm?: typeof vscode.lm }).lm;
  if (!lm || typeof lm.selectChatModels !== 'function') return [];
  try {
    return [...(await lm.selectChatModels())];
  } catch {
    return [];
  }
}

/**
 * The chat model for a `cape.model` / `cape.initModel` value: an exact id, then an exact family, then an id or
 * family containing the value (so "claude-sonnet-4" finds "claude-sonnet-4.5"). `matched` is false when nothing
 * matched and the first available model was taken instead.
 */
export function matchChatModel<T extends { id: string; family: string; name: string }>(
  models: readonly T[],
  wanted: string,
): { model: T; matched: boolean } | undefined {
  if (models.length === 0) return undefined;
  const w = wanted.trim().toLowerCase();
  const norm = (s: string) => s.toLowerCase().replace(/[._\s]/g, '-');
  const byId = models.find((m) => m.id.toLowerCase() === w);
  if (byId) return { model: byId, matched: true };
  const byFamily = models.find((m) => m.family.toLowerCase() === w);
  if (byFamily) return { model: byFamily, matched: true };
  if (w) {
    const nw = norm(w);
    const partial = models.find((m) => norm(m.id).includes(nw) || norm(m.family).includes(nw) || norm(m.name).includes(nw));
    if (partial) return { model: partial, matched: true };
  }
  return { model: models[0], matched: false };
}

export function describeChatModel(m: { name: string; vendor: string; family: string }): string {
  return `${m.name} (${m.vendor} · ${m.family})`;
}

export function createLmClient(model: vscode.LanguageModelChat): LmClient<vscode.LanguageModelChatMessage> {
  return new LmClient(model, host);
}
