// One streamed reply assembled from the Messages API's raw events (ReplyAccumulator): its text, its tool calls (input
// parsed once a block is complete; a call written wrong or nested too deep keeps `{}` and says why), the stop reason
// and the usage so far — also of a request that broke off, whose output tokens are estimated from what it streamed.
// Never a TypeError: a message_start without its message or a message_delta without its usage or delta keeps what is
// known; a block event without its content, delta or text, or with an index that is no index, is a malformed stream.
// Type imports of the SDK only.
import type Anthropic from '@anthropic-ai/sdk';
import { DEEP_INPUT_PROBLEM, type LlmResult, type ToolCall, type Usage } from '../../model/types';
import { oneLine, shorten } from '../../text/cut';
import { MODEL_JSON_DEPTH, parseJsonWithin, TooDeepError } from '../../text/nesting';
import { tokensAtMost } from '../tokens';

export function toUsage(u: Partial<Anthropic.Usage> | undefined | null): Usage {
  return {
    inputTokens: u?.input_tokens ?? 0,
    outputTokens: u?.output_tokens ?? 0,
    cacheCreationInputTokens: u?.cache_creation_input_tokens ?? 0,
    cacheReadInputTokens: u?.cache_read_input_tokens ?? 0,
    ...(u?.cache_creation?.ephemeral_1h_input_tokens ? { cacheCreation1hInputTokens: u.cache_creation.ephemeral_1h_input_tokens } : {}),
  };
}

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; json: string; complete: boolean } | { type: 'other' };

/**
 * A stream event the API would not send. A SyntaxError, so the client reports it as a malformed stream (retryable:
 * llm/errors.ts `unclassified`), with `detail` saying what was wrong.
 */
function malformed(detail: string): SyntaxError {
  return new SyntaxError(detail);
}

/** The block index of a content block event: a non-negative integer, else the stream is malformed. */
function blockIndex(event: { type: string; index?: unknown }): number {
  const i = event.index;
  if (typeof i === 'number' && Number.isSafeInteger(i) && i >= 0) return i;
  throw malformed(`a ${event.type} event with block index ${JSON.stringify(i) ?? 'missing'}`);
}

/**
 * One streamed reply, assembled from the API's raw events: text blocks, tool_use blocks with their input JSON as the
 * model wrote it (parsed once the block is complete, never guessed from a part), the stop reason and the usage so far.
 * A tool call whose input is not a JSON object, or was cut by the output limit, keeps `{}` as its input (the API
 * only takes an object back) and says why in `problem`, so the executor refuses it and the conversation goes on.
 */
export class ReplyAccumulator {
  /** The content blocks by index (a Map: an index far out of range costs nothing). */
  private readonly blocks = new Map<number, Block>();
  private model = '';
  private stopReason: string | null = null;
  private stopped = false;
  private started = false;
  /** Whether a message_delta reported the output tokens; until then they are estimated (see `usage`). */
  private counted = false;
  private raw: Partial<Anthropic.Usage> = {};

  /**
   * What the request used so far (from message_start, updated by message_delta); undefined before message_start.
   * message_start counts one output token: until message_delta gives the real count (a reply that broke off never
   * sends one), the output is the high estimate of what was streamed (text, tool names and input JSON), since what
   * a request used is what the session cost cap adds up (costCap.ts).
   */
  get usage(): Usage | undefined {
    if (!this.started) return undefined;
    const u = toUsage(this.raw);
    if (!this.counted) u.outputTokens = Math.max(u.outputTokens, tokensAtMost(this.written()));
    return u;
  }

  /** Takes one event; returns the text it adds, if any. */
  add(event: Anthropic.RawMessageStreamEvent): string | undefined {
    switch (event.type) {
      case 'message_start': {
        const m = event.message as Partial<Anthropic.Message> | undefined;
        this.started = true;
        this.model = typeof m?.model === 'string' ? m.model : '';
        this.raw = { ...(m?.usage ?? {}) };
        return undefined;
      }
      case 'message_delta': {
        // The API always sends the delta and the usage (output_tokens, and the other counters as whole-message totals
        // when they apply); a stream without them keeps what is known.
        const stop = (event.delta as Partial<Anthropic.MessageDeltaEvent['delta']> | undefined)?.stop_reason;
        if (typeof stop === 'string') this.stopReason = stop;
        const u = event.usage as Partial<Anthropic.Usage> | null | undefined;
        if (u && typeof u === 'object') {
          for (const [k, v] of Object.entries(u)) if (v !== null && v !== undefined) (this.raw as Record<string, unknown>)[k] = v;
          if (typeof u.output_tokens === 'number') this.counted = true;
        }
        return undefined;
      }
      case 'message_stop':
        this.stopped = true;
        return undefined;
      case 'content_block_start': {
        const index = blockIndex(event);
        const b = event.content_block as Partial<Anthropic.ContentBlock> | undefined;
        if (!b || typeof b !== 'object') throw malformed(`a content_block_start event (block ${index}) without its content_block`);
        if (b.type === 'text') {
          const text = typeof b.text === 'string' ? b.text : '';
          this.blocks.set(index, { type: 'text', text });
          return text || undefined;
        }
        this.blocks.set(
          index,
          b.type === 'tool_use'
            ? { type: 'tool_use', id: typeof b.id === 'string' ? b.id : '', name: typeof b.name === 'string' ? b.name : '', json: '', complete: false }
            : { type: 'other' },
        );
        return undefined;
      }
      case 'content_block_delta': {
        const index = blockIndex(event);
        const d = event.delta as Partial<Anthropic.RawContentBlockDelta> | undefined;
        if (!d || typeof d !== 'object') throw malformed(`a content_block_delta event (block ${index}) without its delta`);
        const b = this.blocks.get(index);
        if (b?.type === 'text' && d.type === 'text_delta') {
          if (typeof d.text !== 'string') throw malformed(`a text_delta (block ${index}) without its text`);
          b.text += d.text;
          return d.text;
        }
        if (b?.type === 'tool_use' && d.type === 'input_json_delta') {
          if (typeof d.partial_json !== 'string') throw malformed(`an input_json_delta (block ${index}) without its partial_json`);
          b.json += d.partial_json;
        }
        return undefined;
      }
      case 'content_block_stop': {
        const b = this.blocks.get(blockIndex(event));
        if (b?.type === 'tool_use') b.complete = true;
        return undefined;
      }
      default:
        return undefined;
    }
  }

  result(): LlmResult {
    // A stream that ends before message_stop is a reply cut off (classified as a dropped connection).
    if (!this.stopped) throw new Error('stream ended without producing a Message with role=assistant');
    const blocks = this.ordered();
    const text = blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
    const toolCalls: ToolCall[] = [];
    const last = blocks[blocks.length - 1];
    for (const b of blocks) {
      if (b.type !== 'tool_use') continue;
      const cut = !b.complete || (this.stopReason === 'max_tokens' && b === last);
      toolCalls.push({ id: b.id, name: b.name, ...toolInput(b.json, cut) });
    }
    return {
      text,
      usage: this.usage ?? toUsage(undefined),
      stopReason: this.stopReason,
      model: this.model,
      ...(toolCalls.length > 0 ? { toolCalls } : {}),
    };
  }

  /** The blocks in index order. */
  private ordered(): Block[] {
    return [...this.blocks.entries()].sort((a, b) => a[0] - b[0]).map(([, b]) => b);
  }

  /** Everything the model wrote so far: its text, and each tool call's name and input JSON. */
  private written(): string {
    return this.ordered()
      .map((b) => (b.type === 'text' ? b.text : b.type === 'tool_use' ? `${b.name} ${b.json}` : ''))
      .join('');
  }
}

/** A tool call's input from the JSON the model wrote: an object, or `{}` and why it cannot be used. */
export function toolInput(json: string, cut: boolean): { input: Record<string, unknown>; problem?: string } {
  if (cut) {
    return { input: {}, problem: 'the call was cut off at the output limit (max_tokens) before its arguments were complete; call it again (shorter), or write your answer' };
  }
  if (json.trim() === '') return { input: {} };
  let value: unknown;
  try {
    value = parseJsonWithin(json, MODEL_JSON_DEPTH);
  } catch (err) {
    if (err instanceof TooDeepError) return { input: {}, problem: DEEP_INPUT_PROBLEM };
    return { input: {}, problem: `the arguments were not valid JSON (${excerpt(json)}); send them as one JSON object` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const what = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return { input: {}, problem: `the arguments were ${what}, not a JSON object; send them as one JSON object with named fields` };
  }
  return { input: value as Record<string, unknown> };
}

function excerpt(text: string): string {
  return shorten(oneLine(text), 80);
}
