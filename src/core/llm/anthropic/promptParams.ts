// A provider-neutral request's prompt as the Messages API takes it: system blocks, messages (tool calls and results
// as their API blocks) and tool definitions, with the cache marks the API will honour — kept only where the prefix
// reaches the model's minimum cacheable size (estimated low: ../tokens.ts tokensAtLeast), at most four, longer
// lifetimes first. Type imports of the SDK only.
import type Anthropic from '@anthropic-ai/sdk';
import type { CacheTtl, ChatMessage, LlmRequest, SystemBlock, ToolSpec } from '../../model/types';
import { minCacheableTokens } from '../pricing';
import { tokensAtLeast } from '../tokens';

/** The API accepts at most this many cache_control breakpoints per request. */
const MAX_CACHE_BREAKPOINTS = 4;
/**
 * How many block boundaries before a mark the API looks for a prefix an earlier request cached ("about 20" in its
 * documentation: a turn a block short of it already keeps the mark before).
 */
const CACHE_LOOKBACK_BLOCKS = 20;

function ttlOf(cache: SystemBlock['cache']): CacheTtl | null {
  return cache ? (cache === '1h' ? '1h' : '5m') : null;
}

function cacheControl(ttl: CacheTtl): Anthropic.CacheControlEphemeral {
  return ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
}

export interface CacheMarkOptions {
  /** The model's minimum cacheable prefix in tokens (minCacheableTokens): a mark below it is dropped. */
  minTokens?: number;
  /** Tokens before the system prompt in the cache order (the tool definitions), estimated low (tokensAtLeast). */
  prefixTokens?: number;
  /** Marks the system prompt may keep (default the API's four; fewer when the last message carries one). */
  maxMarks?: number;
}

/**
 * SystemBlock[] → the API's system text blocks, with the cache marks the API will honour. Empty blocks are dropped
 * (the API rejects them; a cache mark on one moves to the block before it). A mark whose prefix is below the model's
 * minimum is dropped (it would cache nothing), and so is a 5-minute mark before a 1-hour one (the API wants longer
 * lifetimes first, and the 1-hour entry covers that prefix); of the rest only the last four are kept (the API's
 * limit; a later breakpoint covers the prefixes of the earlier ones).
 */
export function toSystemParam(blocks: SystemBlock[], opts: CacheMarkOptions = {}): Anthropic.TextBlockParam[] {
  const kept: { text: string; ttl: CacheTtl | null }[] = [];
  for (const b of blocks) {
    const ttl = ttlOf(b.cache);
    if (b.text.length > 0) kept.push({ text: b.text, ttl });
    else if (ttl && kept.length > 0) kept[kept.length - 1].ttl = kept[kept.length - 1].ttl === '1h' ? '1h' : ttl;
  }
  // a prefix's tokens estimated low (tokensAtLeast): a kept mark is one the API honours
  let tokens = opts.prefixTokens ?? 0;
  for (const b of kept) {
    tokens += tokensAtLeast(b.text);
    if (b.ttl && tokens < (opts.minTokens ?? 0)) b.ttl = null;
  }
  let later1h = false;
  let budget = opts.maxMarks ?? MAX_CACHE_BREAKPOINTS;
  for (let i = kept.length - 1; i >= 0; i--) {
    if (kept[i].ttl === '5m' && later1h) kept[i].ttl = null;
    if (kept[i].ttl === '1h') later1h = true;
    if (!kept[i].ttl) continue;
    if (budget > 0) budget--;
    else kept[i].ttl = null;
  }
  return kept.map((b) => (b.ttl ? { type: 'text', text: b.text, cache_control: cacheControl(b.ttl) } : { type: 'text', text: b.text }));
}

/** A provider-neutral message → the SDK's message param (tool calls and tool results as their API blocks). */
export function toMessageParam(m: ChatMessage, cacheMark = false): Anthropic.MessageParam {
  if (typeof m.content === 'string') {
    return cacheMark ? { role: m.role, content: [{ type: 'text', text: m.content, cache_control: cacheControl('5m') }] } : { role: m.role, content: m.content };
  }
  const content: Anthropic.ContentBlockParam[] = m.content.map((b): Anthropic.ContentBlockParam => {
    if (b.type === 'text') return { type: 'text', text: b.text };
    if (b.type === 'tool_use') return { type: 'tool_use', id: b.id, name: b.name, input: b.input ?? {} };
    return { type: 'tool_result', tool_use_id: b.toolUseId, content: b.content, ...(b.isError ? { is_error: true } : {}) };
  });
  if (cacheMark && content.length > 0) {
    const last = content[content.length - 1] as Anthropic.TextBlockParam;
    content[content.length - 1] = { ...last, cache_control: cacheControl('5m') };
  }
  return { role: m.role, content };
}

/** Tokens of a message's content, estimated low (text as is, other blocks as their JSON). */
function messageTokens(m: ChatMessage): number {
  if (typeof m.content === 'string') return tokensAtLeast(m.content);
  return m.content.reduce((n, b) => n + tokensAtLeast(b.type === 'text' ? b.text : JSON.stringify(b)), 0);
}

/** How many content blocks a message holds in the API's cache order (text as one). */
const blocksOf = (m: ChatMessage): number => (typeof m.content === 'string' ? 1 : Math.max(1, m.content.length));

/**
 * The request's prompt with its cache marks: tool definitions, system blocks (marked as asked, within the model's
 * minimum) and messages, the last one marked when `cacheLastMessage` asks and the whole prompt reaches the minimum.
 * A tool loop's turn marks its last message, and the next turn reads that prefix within the API's lookback of
 * CACHE_LOOKBACK_BLOCKS blocks before its own mark; a turn that adds more (ten calls and their ten results) would
 * find nothing there and write the whole conversation again, so the message the turn before marked keeps its mark
 * too (the system prompt then keeps one mark fewer).
 */
export function toPromptParams(req: LlmRequest): Pick<Anthropic.MessageCreateParamsNonStreaming, 'system' | 'messages' | 'tools'> {
  const minTokens = minCacheableTokens(req.model) ?? 0;
  const tools = req.tools && req.tools.length > 0 ? req.tools.map(toToolParam) : undefined;
  const toolsTokens = tools ? tools.reduce((n, t) => n + tokensAtLeast(JSON.stringify(t)), 0) : 0;
  const systemTokens = toolsTokens + req.system.reduce((n, b) => n + tokensAtLeast(b.text), 0);
  const total = systemTokens + req.messages.reduce((n, m) => n + messageTokens(m), 0);
  const last = req.messages.length - 1;
  const tail = !!req.cacheLastMessage && req.messages.length > 0 && total >= minTokens;
  // the turn before's last message: before this turn's assistant reply and the results answering it
  const before = last - 2;
  const added = req.messages.slice(before + 1).reduce((n, m) => n + blocksOf(m), 0);
  const bridge =
    tail && before >= 0 && req.messages[before].role === 'user' && added >= CACHE_LOOKBACK_BLOCKS - 1 && systemTokens + req.messages.slice(0, before + 1).reduce((n, m) => n + messageTokens(m), 0) >= minTokens;
  const system = toSystemParam(req.system, { minTokens, prefixTokens: toolsTokens, maxMarks: MAX_CACHE_BREAKPOINTS - (tail ? 1 : 0) - (bridge ? 1 : 0) });
  const messages = req.messages.map((m, i) => toMessageParam(m, (tail && i === last) || (bridge && i === before)));
  return { ...(system.length > 0 ? { system } : {}), messages, ...(tools ? { tools } : {}) };
}

function toToolParam(t: ToolSpec): Anthropic.Tool {
  return { name: t.name, description: t.description, input_schema: { type: 'object', ...t.inputSchema } as Anthropic.Tool.InputSchema };
}
