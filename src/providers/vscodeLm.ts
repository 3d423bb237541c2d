// The VS Code Language Model provider: selects a chat model through vscode.lm and wraps it in LmClient. Tool calling
// (VS Code 1.95+) is found at run time: engines.vscode stays ^1.90, where the client offers no tools. A model that
// says it cannot call tools (`capabilities.supportsToolCalling: false`, VS Code 1.100+) is offered none either.
import * as vscode from 'vscode';
import { LmClient, type LmHost } from './lmClient';
import { lmToolHost, modelCallsTools, type LmToolApi, type PartsMessage } from './lmTools';

export { matchChatModel } from './chatModelMatch';

type Message = vscode.LanguageModelChatMessage;

const toolHost = lmToolHost(vscode as unknown as Partial<LmToolApi>, vscode.LanguageModelChatMessage as unknown as PartsMessage<Message>);
const host: LmHost<Message> = {
  user: (text: string) => vscode.LanguageModelChatMessage.User(text),
  assistant: (text: string) => vscode.LanguageModelChatMessage.Assistant(text),
  cancellationSource: () => new vscode.CancellationTokenSource(),
  tools: toolHost,
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

/** True when DevA can read the workspace through this model: this VS Code has LM tool calling and the model can call tools. */
export function chatModelCallsTools(model: object): boolean {
  return toolHost !== undefined && modelCallsTools(model);
}

export function createLmClient(model: vscode.LanguageModelChat): LmClient<Message> {
  return new LmClient(model, chatModelCallsTools(model) ? host : { ...host, tools: undefined });
}
