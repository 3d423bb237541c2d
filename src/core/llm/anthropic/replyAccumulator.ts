// One streamed reply assembled from the Messages API's raw events (ReplyAccumulator): its text, its tool calls (input
// parsed once a block is complete; a call written wrong keeps `{}` and says why), the stop reason and the usage so
// far — also of a request that broke off. Type imports of the SDK only.
import type Anthropic from '@anthropic-ai/sdk';
import type { LlmResult, ToolCall, Usage } from '../../model/types';
import { oneLine, shorten } from '../../text/cut';

export function toUsage(u: Partial<Anthropic.Usage> | undefined | null): Usage {
  return {
    inputTokens: u?.input_tokens ?? 0,
    outputTokens: u?.output_tokens ?? 0,
    cacheCreationInputTokens: u?.cache_creation_input_tokens ?? 0,
    cacheReadInputTokens: u?.cache_read_input_tokens ?? 0,
    ...(u?.cache_creation?.ephemeral_1h_input_tokens ? { cacheCreation1hInputTokens: u.cache_creation.ephemeral_1h_input_tokens } : {}),
  };
}

/**
 * One streamed reply, assembled from the API's raw events: text blocks, tool_use blocks with their input JSON as the
 * model wrote it (parsed once the block is complete, never guessed from a part), the stop reason and the usage so far.
 * A tool call whose input is not a JSON object, or was cut by the output limit, keeps `{}` as its input (the API
 * only takes an object back) and says why in `problem`, so the executor refuses it and the conversation goes on.
 */
export class ReplyAccumulator {
  private blocks: ({ type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; json: string; complete: boolean } | { type: 'other' })[] = [];
  private model = '';
  private stopReason: string | null = null;
  private stopped = false;
  /** What the request used so far (from message_start, updated by message_delta); undefined before message_start. */
  usage: Usage | undefined;
  private raw: Partial<Anthropic.Usage> = {};

  /** Takes one event; returns the text it adds, if any. */
  add(event: Anthropic.RawMessageStreamEvent): string | undefined {
    switch (event.type) {
      case 'message_start':
        this.model = event.message.model;
        this.raw = { ...event.message.usage };
        this.usage = toUsage(this.raw);
        return undefined;
      case 'message_delta': {
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        // output_tokens is always there; the other counters are whole-message totals, sent only when they apply
        const u = event.usage as Partial<Anthropic.Usage>;
        for (const [k, v] of Object.entries(u)) if (v !== null && v !== undefined) (this.raw as Record<string, unknown>)[k] = v;
        this.usage = toUsage(this.raw);
        return undefined;
      }
      case 'message_stop':
        this.stopped = true;
        return undefined;
      case 'content_block_start': {
        const b = event.content_block;
        this.blocks[event.index] =
          b.type === 'text'
            ? { type: 'text', text: b.text ?? '' }
            : b.type === 'tool_use'
              ? { type: 'tool_use', id: b.id, name: b.name, json: '', complete: false }
              : { type: 'other' };
        return b.type === 'text' && b.text ? b.text : undefined;
      }
      case 'content_block_delta': {
        const b = this.blocks[event.index];
        const d = event.delta;
        if (b?.type === 'text' && d.type === 'text_delta') {
          b.text += d.text;
          return d.text;
        }
        if (b?.type === 'tool_use' && d.type === 'input_json_delta') b.json += d.partial_json;
        return undefined;
      }
      case 'content_block_stop': {
        const b = this.blocks[event.index];
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
    const text = this.blocks.map((b) => (b?.type === 'text' ? b.text : '')).join('');
    const toolCalls: ToolCall[] = [];
    for (const b of this.blocks) {
      if (b?.type !== 'tool_use') continue;
      const cut = !b.complete || (this.stopReason === 'max_tokens' && b === this.blocks[this.blocks.length - 1]);
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
}

/** A tool call's input from the JSON the model wrote: an object, or `{}` and why it cannot be used. */
export function toolInput(json: string, cut: boolean): { input: Record<string, unknown>; problem?: string } {
  if (cut) {
    return { input: {}, problem: 'the call was cut off at the output limit (max_tokens) before its arguments were complete; call it again (shorter), or write your answer' };
  }
  if (json.trim() === '') return { input: {} };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
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
