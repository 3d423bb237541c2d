// The core LlmClient over a VS Code Language Model (vscode.lm). This file has no `vscode` import: the VS Code
// objects it needs (message constructors, a CancellationTokenSource) come in through `LmHost`, so the streaming,
// cancellation, error mapping (lmErrors.ts) and usage estimate are unit-tested in Node with a fake model
// (test/unit/lmClient.test.ts). src/providers/vscodeLm.ts passes the real ones; which model a setting names is
// chatModelMatch.ts's.
//
// Tools: the Language Model API has tool calling from VS Code 1.95 (LanguageModelToolCallPart / ToolResultPart and
// the `tools` request option). engines.vscode stays ^1.90, so vscodeLm.ts looks for those classes at run time and,
// where the running VS Code has them, hands in an `LmToolHost`: the client then offers the step's tools and reports
// the model's calls like the Anthropic client does. Without it the client offers none and DevA works from the map.
import {
  AGENT_NAME,
  LlmError,
  RETRY_NOTE,
  contentText,
  formatDuration,
  tokensAtLeast,
  type ContentBlock,
  type LlmClient,
  type LlmRequest,
  type LlmResult,
  type ToolCall,
  type Usage,
} from '../core';
import { lmError } from './lmErrors';

/** The part of vscode.LanguageModelChat this client uses. */
export interface LmChatModelLike<M> {
  readonly id: string;
  readonly name: string;
  readonly vendor: string;
  readonly family: string;
  readonly maxInputTokens: number;
  sendRequest(
    messages: M[],
    options?: { justification?: string; tools?: LmToolSpec[] },
    token?: unknown,
  ): PromiseLike<{ text: AsyncIterable<string>; stream?: AsyncIterable<unknown> }>;
  countTokens?(text: string, token?: unknown): PromiseLike<number>;
}

/** vscode.LanguageModelChatTool. */
export interface LmToolSpec {
  name: string;
  description: string;
  inputSchema: object;
}

/** One part of a response's `stream`, as the host reads it. */
export type LmStreamPart = { text: string } | { toolCall: ToolCall } | undefined;

/** The Language Model API's tool calling (VS Code 1.95+), handed in only where the running VS Code has it. */
export interface LmToolHost<M> {
  /** A user message of text and tool results (LanguageModelTextPart / LanguageModelToolResultPart). */
  userBlocks(blocks: ContentBlock[]): M;
  /** An assistant message of text and tool calls (LanguageModelTextPart / LanguageModelToolCallPart). */
  assistantBlocks(blocks: ContentBlock[]): M;
  /** What a part of `response.stream` is: text, a tool call, or something else (ignored). */
  readPart(part: unknown): LmStreamPart;
}

/** VS Code pieces handed in by the caller. */
export interface LmHost<M> {
  user(text: string): M;
  assistant(text: string): M;
  /** A new vscode.CancellationTokenSource. */
  cancellationSource(): { token: unknown; cancel(): void; dispose(): void };
  /** Present when the running VS Code has LM tool calling. */
  tools?: LmToolHost<M>;
}

export interface LmClientOptions {
  /** Abort when no text arrives for this long (default 120000): a stalled stream must not hang the session. */
  idleTimeoutMs?: number;
  /** Shown by VS Code in its consent dialog. */
  justification?: string;
}

export const DEFAULT_LM_JUSTIFICATION = `CAPE runs its AI product team (${Object.values(AGENT_NAME).join(', ')}) with this model.`;

/**
 * The LM API has no system role: the system blocks go in front of the first user message (separated by a rule),
 * or become a user message of their own when the conversation starts with the assistant. Tool turns keep their
 * blocks (only a client with tools sends them); every other message is plain text.
 */
export function toLmTurns(req: Pick<LlmRequest, 'system' | 'messages'>): { role: 'user' | 'assistant'; content: string | ContentBlock[] }[] {
  const system = req.system.map((b) => b.text).filter((t) => t.length > 0).join('\n\n');
  const msgs = req.messages.map((m) => ({ role: m.role, content: m.content }));
  if (!system) return msgs;
  const first = msgs[0];
  if (first?.role === 'user') {
    msgs[0] =
      typeof first.content === 'string'
        ? { role: 'user', content: `${system}\n\n---\n\n${first.content}` }
        : { role: 'user', content: [{ type: 'text', text: `${system}\n\n---\n\n` }, ...first.content] };
  } else {
    msgs.unshift({ role: 'user', content: system });
  }
  return msgs;
}

/** The conversation as plain text messages (a client without tools: tool blocks contribute nothing). */
export function toLmMessages(req: Pick<LlmRequest, 'system' | 'messages'>): { role: 'user' | 'assistant'; content: string }[] {
  return toLmTurns(req).map((m) => ({ role: m.role, content: contentText(m.content) }));
}

/** The characters a turn costs, for the token count: its text and its tool calls' and results' bodies. */
function turnText(content: string | ContentBlock[]): string {
  if (typeof content === 'string') return content;
  return content
    .map((b) => (b.type === 'text' ? b.text : b.type === 'tool_use' ? `${b.name} ${JSON.stringify(b.input)}` : b.content))
    .join('\n');
}

async function countOrEstimate<M>(model: LmChatModelLike<M>, text: string): Promise<number> {
  if (typeof model.countTokens === 'function') {
    try {
      const n = await model.countTokens(text);
      if (typeof n === 'number' && Number.isFinite(n) && n >= 0) return n;
    } catch {
      // fall through to the estimate
    }
  }
  // the model cannot count: the low estimate (a usage figure, never a bound)
  return tokensAtLeast(text);
}

export class LmClient<M> implements LlmClient {
  private readonly idleTimeoutMs: number;
  private readonly justification: string;

  constructor(
    readonly model: LmChatModelLike<M>,
    private readonly host: LmHost<M>,
    opts: LmClientOptions = {},
  ) {
    this.idleTimeoutMs = opts.idleTimeoutMs ?? 120_000;
    this.justification = opts.justification ?? DEFAULT_LM_JUSTIFICATION;
  }

  /** True where the running VS Code has LM tool calling (the host handed in its tool parts). */
  get supportsTools(): boolean {
    return this.host.tools !== undefined;
  }

  private toMessages(req: LlmRequest): { messages: M[]; texts: string[] } {
    const tools = this.host.tools;
    const turns = tools ? toLmTurns(req) : toLmMessages(req);
    const messages = turns.map((m) => {
      if (typeof m.content === 'string') return m.role === 'user' ? this.host.user(m.content) : this.host.assistant(m.content);
      return m.role === 'user' ? tools!.userBlocks(m.content) : tools!.assistantBlocks(m.content);
    });
    return { messages, texts: turns.map((m) => turnText(m.content)) };
  }

  async stream(req: LlmRequest, onText: (delta: string) => void): Promise<LlmResult> {
    if (req.signal?.aborted) throw LlmError.cancelled();
    const { messages, texts } = this.toMessages(req);
    const toolHost = this.host.tools;
    const tools = toolHost && req.tools?.length ? req.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })) : undefined;
    const inputCount = Promise.all(texts.map((t) => countOrEstimate(this.model, t))).then((ns) => ns.reduce((a, b) => a + b, 0));

    const cts = this.host.cancellationSource();
    // One promise that rejects on abort or on a stall; raced against every wait below.
    let timer: ReturnType<typeof setTimeout> | undefined;
    let fail: (e: LlmError) => void = () => {};
    const interrupted = new Promise<never>((_, reject) => {
      fail = reject;
    });
    interrupted.catch(() => undefined);
    const onAbort = () => {
      cts.cancel();
      fail(LlmError.cancelled());
    };
    req.signal?.addEventListener('abort', onAbort, { once: true });
    const touch = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        cts.cancel();
        fail(
          new LlmError(
            'stalled',
            `The language model "${this.model.name}" sent no text for ${formatDuration(this.idleTimeoutMs)}, so the request was aborted; ${RETRY_NOTE}.`,
            { retryable: true },
          ),
        );
      }, this.idleTimeoutMs);
    };

    let text = '';
    const toolCalls: ToolCall[] = [];
    let callbackError: { error: unknown } | undefined;
    let iterator: AsyncIterator<unknown> | undefined;
    try {
      // The LM API has no "no tools" choice: with toolChoice 'none' the tools stay declared (the history holds tool
      // calls) and the engine's bound answers any further call with "limit reached".
      const options = tools ? { justification: this.justification, tools } : { justification: this.justification };
      // The watchdog starts once the request is under way: sendRequest waits while VS Code asks the user for consent to
      // another extension's model (a modal dialog the user may leave open for minutes); Stop still aborts that wait.
      const response = await Promise.race([Promise.resolve(this.model.sendRequest(messages, options, cts.token)), interrupted]);
      touch();
      // With tools the parts stream carries text and tool calls; otherwise the text stream is enough.
      const readPart = toolHost && response.stream ? (p: unknown) => toolHost.readPart(p) : (p: unknown) => (typeof p === 'string' ? { text: p } : undefined);
      iterator = (toolHost && response.stream ? response.stream : response.text)[Symbol.asyncIterator]();
      for (;;) {
        const next = await Promise.race([iterator.next(), interrupted]);
        if (next.done) break;
        touch();
        const part = readPart(next.value);
        if (part && 'toolCall' in part) {
          toolCalls.push(part.toolCall);
          continue;
        }
        if (!part || part.text.length === 0) continue;
        text += part.text;
        try {
          onText(part.text);
        } catch (e) {
          // a failing consumer ends the request; its error is rethrown as is, not blamed on the model
          callbackError = { error: e };
          cts.cancel();
          break;
        }
      }
    } catch (err) {
      if (req.signal?.aborted) throw LlmError.cancelled();
      throw lmError(err, this.model.name);
    } finally {
      if (timer) clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      if (iterator?.return) void Promise.resolve(iterator.return()).catch(() => undefined);
      cts.dispose();
    }
    if (callbackError) throw callbackError.error;
    if (req.signal?.aborted) throw LlmError.cancelled();

    const output = text + toolCalls.map((c) => `${c.name} ${JSON.stringify(c.input)}`).join('\n');
    const [inputTokens, outputTokens] = await Promise.all([inputCount, countOrEstimate(this.model, output)]);
    const usage: Usage = { inputTokens, outputTokens, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 };
    if (toolCalls.length > 0) return { text, usage, stopReason: 'tool_use', model: this.model.id, toolCalls };
    // The Language Model API reports no stop reason: null (unknown), so the runner continues a reply the parser finds cut.
    return { text, usage, stopReason: null, model: this.model.id };
  }
}
