// The VS Code Language Model provider: selects a chat model through vscode.lm and wraps it in LmClient.
import * as vscode from 'vscode';
import { LmClient } from './lmClient';

export { matchChatModel } from './lmClient';

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

export function describeChatModel(m: { name: string; vendor: string; family: string }): string {
  return `${m.name} (${m.vendor} · ${m.family})`;
}

export function createLmClient(model: vscode.LanguageModelChat): LmClient<vscode.LanguageModelChatMessage> {
  return new LmClient(model, host);
}
