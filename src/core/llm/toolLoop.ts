// The tool loop of one step, provider-neutral: send a turn; while the model answers with tool calls, answer every
// call (the caller's `execute` runs a turn's calls in parallel) and send the next turn in the same conversation, until
// the model writes text without calls (its envelope). The caller owns streaming, retries and the tool bounds; this
// loop only keeps the conversation well-formed (every tool_use id answered in the very next user turn) and stops a
// model that keeps calling tools once they are spent: after the budget the next turns forbid tools (toolChoice
// 'none'), a model still calling them MAX_TURNS_PAST_LIMIT turns later ends the step, and a hard turn cap bounds the rest.
// A turn whose text already is the step's answer (the caller's `answered`) ends the loop even when calls follow it:
// the answer is used and those calls are not run (answering them would need a turn the answer does not need).
import { LlmError } from './errors';
import type { ChatMessage, ContentBlock, LlmResult, ToolCall } from '../model/types';

/** Our answer to one tool call. */
export interface ToolAnswer {
  toolUseId: string;
  content: string;
  isError: boolean;
}

export interface ToolLoopOptions {
  /** One model turn over `messages` (the caller streams, retries, and passes its tools and `toolChoice`). */
  send(messages: ChatMessage[], toolChoice: 'auto' | 'none'): Promise<LlmResult>;
  /** The conversation so far (normally one user message). */
  messages: ChatMessage[];
  /** Answers every call of one turn, in the calls' order. */
  execute(calls: ToolCall[]): Promise<ToolAnswer[]>;
  /** A text sent after each turn's tool results (what the step has used of its bounds), or none. */
  note?(): string | undefined;
  /** true once no further call can be answered (the step's bound is reached): later turns forbid tools. */
  spent(): boolean;
  /** Called before each turn after the first, so a stream consumer can start afresh. */
  onTurn?(turn: number): void;
  signal?: AbortSignal;
  /** Hard cap on model turns (default 40). */
  maxTurns?: number;
  /**
   * Whether a turn's text is already the step's answer (a complete, valid envelope). Such a turn ends the loop even
   * when the model went on to call tools after it: those calls are not run, and come back in `unrunCalls`.
   */
  answered?(result: LlmResult): boolean;
}

export interface ToolLoopResult {
  /** The last turn: its text holds the envelope. */
  result: LlmResult;
  /** The conversation that produced `result` (without result's own assistant turn). */
  messages: ChatMessage[];
  turns: number;
  /** Calls the model made after writing its answer in the same turn: not run (see `answered`). */
  unrunCalls?: ToolCall[];
}

export const DEFAULT_MAX_TURNS = 40;
/**
 * Turns a model may still answer with tool calls once tools are forbidden (the budget is spent, the request says
 * toolChoice 'none'); each of those calls is answered "limit reached". A model (or a gateway) that ignores the
 * choice past these turns ends the step instead of spending requests up to the turn cap.
 */
export const MAX_TURNS_PAST_LIMIT = 3;

/** The assistant turn that carried `calls` (its text first, as the model wrote it). */
export function assistantTurn(result: LlmResult): ChatMessage {
  const blocks: ContentBlock[] = [];
  // whitespace alone (a model's "\n\n" before its calls) is a text block the API refuses
  if (result.text.trim()) blocks.push({ type: 'text', text: result.text });
  for (const c of result.toolCalls ?? []) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: c.input });
  return { role: 'assistant', content: blocks };
}

/** Stands for a reply without any text in the conversation sent back (the API rejects an empty message). */
export const EMPTY_REPLY = '(no text)';

/**
 * A reply of the model as the assistant turn of a later request: its text, or EMPTY_REPLY when it wrote none (only
 * tool calls, then the end of its turn). Every reply sent back as plain text goes through here.
 */
export function replyTurn(text: string): ChatMessage {
  return { role: 'assistant', content: text.trim() === '' ? EMPTY_REPLY : text };
}

/**
 * The user turn answering `calls`: one tool_result per call, in order (a call left unanswered gets an error), then
 * `note` as a text block (the API takes text after the results, never before).
 */
export function toolResultTurn(calls: ToolCall[], answers: ToolAnswer[], note?: string): ChatMessage {
  const byId = new Map(answers.map((a) => [a.toolUseId, a]));
  const content: ContentBlock[] = calls.map((c) => {
    const a = byId.get(c.id);
    return a
      ? { type: 'tool_result', toolUseId: c.id, content: a.content, isError: a.isError }
      : { type: 'tool_result', toolUseId: c.id, content: 'this call was not answered', isError: true };
  });
  if (note?.trim()) content.push({ type: 'text', text: note });
  return { role: 'user', content };
}

/**
 * `calls` with ids the conversation has not used yet: the API rejects a request in which a tool_use id appears twice,
 * so a call whose id repeats an earlier one (of this turn or of an earlier turn) is answered under `<id>_2`, `<id>_3`…
 * `used` receives the ids given out.
 */
export function uniqueCallIds(calls: ToolCall[], used: Set<string>): ToolCall[] {
  return calls.map((c) => {
    let id = c.id || 'toolu';
    for (let n = 2; used.has(id); n++) id = `${c.id || 'toolu'}_${n}`;
    used.add(id);
    return id === c.id ? c : { ...c, id };
  });
}

/** The tool_use ids already in `messages`. */
function usedIds(messages: ChatMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const m of messages) if (typeof m.content !== 'string') for (const b of m.content) if (b.type === 'tool_use') ids.add(b.id);
  return ids;
}

export async function runToolLoop(o: ToolLoopOptions): Promise<ToolLoopResult> {
  const maxTurns = o.maxTurns ?? DEFAULT_MAX_TURNS;
  let messages = [...o.messages];
  const used = usedIds(messages);
  let pastLimit = 0;
  for (let turn = 1; ; turn++) {
    if (o.signal?.aborted) throw LlmError.cancelled();
    if (turn > 1) o.onTurn?.(turn);
    const choice = o.spent() ? 'none' : 'auto';
    const sent = await o.send(messages, choice);
    if (!sent.toolCalls?.length) return { result: sent, messages, turns: turn };
    if (o.answered?.(sent)) return { result: { ...sent, toolCalls: undefined }, messages, turns: turn, unrunCalls: sent.toolCalls };
    if (choice === 'none' && ++pastLimit > MAX_TURNS_PAST_LIMIT) {
      throw new LlmError(
        'invalid_reply',
        `The model kept calling tools after the step's tool limit was reached (its calls of ${MAX_TURNS_PAST_LIMIT} more turns were ` +
          'answered "limit reached — write your answer now") and never wrote its answer. Resume the session to ask again; ' +
          'if it keeps happening, raise the tool limit (cape.tools.maxCalls, --max-tool-calls) or narrow the objective.',
        { retryable: false },
      );
    }
    const calls = uniqueCallIds(sent.toolCalls, used);
    const result = { ...sent, toolCalls: calls };
    if (turn >= maxTurns) {
      throw new LlmError(
        'invalid_reply',
        `The model kept calling tools for ${maxTurns} turns without writing its answer. Resume the session to ask again; if it ` +
          'keeps happening, lower the tool limit (cape.tools.maxCalls, --max-tool-calls) or narrow the objective.',
        { retryable: false },
      );
    }
    const answers = await o.execute(calls);
    if (o.signal?.aborted) throw LlmError.cancelled();
    messages = [...messages, assistantTurn(result), toolResultTurn(calls, answers, o.note?.())];
  }
}
