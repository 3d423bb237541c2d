// The Language Model API's tool calling (VS Code 1.95+) as an LmToolHost: our content blocks to its text, tool-call
// and tool-result parts, and its stream parts back (a call whose input nests too deep refused, as core's client does).
// No `vscode` import: vscodeLm.ts passes the vscode namespace's classes (found at run time, since engines.vscode is
// ^1.90), and test/unit/lmClient.test.ts passes look-alikes.
import type { ContentBlock } from '../core';
import { DEEP_INPUT_PROBLEM } from '../core/model/llm';
import { MODEL_JSON_DEPTH, valueDepthBeyond } from '../core/text/nesting';
import type { LmStreamPart, LmToolHost } from './lmClient';

/** The LM API's tool classes (VS Code 1.95+), absent from the 1.90 typings we build against. */
export interface LmToolApi {
  LanguageModelTextPart: new (value: string) => { value: string };
  LanguageModelToolCallPart: new (callId: string, name: string, input: object) => { callId: string; name: string; input: object };
  LanguageModelToolResultPart: new (callId: string, content: unknown[]) => unknown;
}

/** vscode.LanguageModelChatMessage's factories with part arrays (1.95+). */
export type PartsMessage<M> = { User(content: unknown[]): M; Assistant(content: unknown[]): M };

/**
 * False only when the model says it cannot call tools: VS Code 1.100 reports `capabilities.supportsToolCalling` (from
 * what the model's provider declares); earlier versions report nothing, and a model there is offered the tools.
 */
export function modelCallsTools(model: object): boolean {
  return (model as { capabilities?: { supportsToolCalling?: unknown } }).capabilities?.supportsToolCalling !== false;
}

/** The tool host where the running VS Code has LM tool calling, else undefined. */
export function lmToolHost<M>(api: Partial<LmToolApi>, messages: PartsMessage<M>): LmToolHost<M> | undefined {
  const { LanguageModelTextPart: Text, LanguageModelToolCallPart: Call, LanguageModelToolResultPart: Result } = api;
  if (typeof Text !== 'function' || typeof Call !== 'function' || typeof Result !== 'function') return undefined;
  const parts = (blocks: ContentBlock[]): unknown[] =>
    blocks.flatMap((b) => {
      if (b.type === 'text') return b.text ? [new Text(b.text)] : [];
      if (b.type === 'tool_use') return [new Call(b.id, b.name, (b.input ?? {}) as object)];
      // The LM API's result part has no error flag: a refused call says so in its text.
      return [new Result(b.toolUseId, [new Text(b.isError ? `Error: ${b.content}` : b.content)])];
    });
  return {
    userBlocks: (blocks) => messages.User(parts(blocks)),
    assistantBlocks: (blocks) => messages.Assistant(parts(blocks)),
    readPart: (part): LmStreamPart => {
      if (part instanceof Text) return { text: part.value };
      if (part instanceof Call) {
        // the API hands the input over parsed: too deep, and every JSON.stringify of the conversation would overflow
        if (valueDepthBeyond(part.input, MODEL_JSON_DEPTH)) return { toolCall: { id: part.callId, name: part.name, input: {}, problem: DEEP_INPUT_PROBLEM } };
        return { toolCall: { id: part.callId, name: part.name, input: part.input } };
      }
      return undefined;
    },
  };
}

