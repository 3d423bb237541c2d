// The provider-neutral LLM client: its requests (system blocks and their cache marks, messages, tools), results,
// token usage and the record of each tool call. Part of the shared vocabulary of core (model/index.ts).
import { deeperThan, MODEL_JSON_DEPTH } from '../text/nesting';

/** Token usage of one model call, as reported by the Messages API. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
  /** The part of cacheCreationInputTokens written with the 1-hour lifetime (billed 2× input instead of 1.25×). */
  cacheCreation1hInputTokens?: number;
}

export const ZERO_USAGE: Usage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationInputTokens: 0,
  cacheReadInputTokens: 0,
});

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheCreationInputTokens: a.cacheCreationInputTokens + b.cacheCreationInputTokens,
    cacheReadInputTokens: a.cacheReadInputTokens + b.cacheReadInputTokens,
    ...(a.cacheCreation1hInputTokens || b.cacheCreation1hInputTokens
      ? { cacheCreation1hInputTokens: (a.cacheCreation1hInputTokens ?? 0) + (b.cacheCreation1hInputTokens ?? 0) }
      : {}),
  };
}

/** How long a cached prompt prefix lives after its last use: 5 minutes (the API's default) or 1 hour. */
export type CacheTtl = '5m' | '1h';

/**
 * One block of the system prompt. `cache` marks the end of a cacheable prefix (`true` = '5m'); the client drops a
 * mark whose prefix is below the model's minimum cacheable size.
 */
export interface SystemBlock {
  text: string;
  cache?: boolean | CacheTtl;
}

/** A tool the model may call during a step (provider-neutral; `inputSchema` is a JSON Schema object). */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** One tool call the model made. `input` is the parsed JSON the model wrote (unchecked). */
export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
  /**
   * Why the input cannot be used as the model wrote it (not JSON, not an object, cut at the output limit): `input` is
   * then `{}` and the executor refuses the call with this reason.
   */
  problem?: string;
}

/**
 * The problem of a call whose input nests deeper than a model's JSON may (text/nesting.ts), whichever API sent it:
 * its input is `{}`, since every JSON.stringify of the conversation would overflow the stack on it.
 */
export const DEEP_INPUT_PROBLEM = `the arguments nest ${deeperThan(MODEL_JSON_DEPTH)}; send them as one JSON object with named fields`;

/** A block of a structured message: text, the model's tool calls, and our answers to them. */
export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; toolUseId: string; content: string; isError: boolean };

export interface ChatMessage {
  role: 'user' | 'assistant';
  /** Plain text, or blocks when the turn carries tool calls / tool results. */
  content: string | ContentBlock[];
}

/** The text of a message's content (tool blocks contribute nothing). */
export function contentText(content: string | ContentBlock[]): string {
  if (typeof content === 'string') return content;
  return content.map((b) => (b.type === 'text' ? b.text : '')).join('');
}

export interface LlmRequest {
  model: string;
  maxTokens: number;
  system: SystemBlock[];
  messages: ChatMessage[];
  /** Tools the model may call (only sent to clients whose `supportsTools` is true). */
  tools?: ToolSpec[];
  /** 'none' forbids further calls (the tool budget is spent: the model must write its answer). Default 'auto'. */
  toolChoice?: 'auto' | 'none';
  /** Mark the end of the last message as a 5-minute cache breakpoint (a tool-loop turn that another will likely follow). */
  cacheLastMessage?: boolean;
  signal?: AbortSignal;
}

export interface LlmResult {
  text: string;
  usage: Usage;
  stopReason: string | null;
  model: string;
  /** The tool calls of this turn, in order (stopReason 'tool_use'). */
  toolCalls?: ToolCall[];
}

/**
 * A streaming model client. `onText` receives text deltas in order as they arrive.
 * Implementations: AnthropicClient (src/core/llm/anthropic/client.ts), the VS Code LM adapter (src/providers).
 * Errors are thrown as LlmError (src/core/errors.ts) so callers can tell retryable from fatal ones.
 */
export interface LlmClient {
  stream(req: LlmRequest, onText: (delta: string) => void): Promise<LlmResult>;
  /** true when the client passes `tools` to the model and reports its tool calls (otherwise no tools are offered). */
  readonly supportsTools?: boolean;
  /**
   * The secret the client authenticates with (AnthropicClient's API key), when it has one: the session hides it in
   * its checks' output (checks/checkEnv.ts), whatever gave it — the CLI's --api-key-file, ANTHROPIC_API_KEY or
   * --api-key, VS Code's secret storage.
   */
  readonly credential?: string;
}

/**
 * One tool call of a step, as recorded in the session events and the pair artifact: what was asked and how much
 * came back, never the body.
 */
export interface ToolCallRecord {
  id: string;
  tool: string;
  /** The path (read_file, list_files) or query (search_files) as shown to the user. */
  target: string;
  path?: string;
  query?: string;
  /** read_file of a line range. */
  lines?: [number, number];
  /** Characters returned to the model (0 for a refused call). */
  chars: number;
  /** search_files: matching lines; list_files: paths listed. */
  hits?: number;
  /** A focused search_files (few hits): where they are, as [path, line] — never the lines' text. */
  found?: [string, number][];
  /** Why the call was refused (policy, arguments). */
  refused?: string;
  /** The step's bound was reached: the call got "limit reached". */
  limited?: boolean;
  /** The result was cut at the step's character budget. */
  truncated?: boolean;
}
