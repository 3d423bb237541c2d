// The Anthropic implementation of LlmClient, on the real @anthropic-ai/sdk's event stream (`messages.create` with
// `stream: true`; the reply is assembled here, see ReplyAccumulator, so a tool call the model wrote wrong is refused
// to it instead of failing the turn, and the usage of a request that broke off is known).
//
// What it adds over the SDK:
// - explicit apiKey + baseURL, so the SDK never picks up ANTHROPIC_* variables or profile files;
// - cache_control (5 minutes or 1 hour) on marked system blocks and, when asked, the last message, kept only where the
//   prefix reaches the model's minimum cacheable size;
// - an idle watchdog: the SDK's timeout only covers the wait for response headers, so a stream that
//   stalls after the first byte would hang forever. The watchdog is armed during each HTTP attempt,
//   reset by every chunk of bytes (pings included), and paused while the SDK sleeps between its own
//   retries;
// - errors classified as LlmError (see errors.ts);
// - the SDK itself is loaded on the first request (sdk.ts), not when this module is.
import type Anthropic from '@anthropic-ai/sdk';
import type { Middleware } from '@anthropic-ai/sdk';
import type { CacheTtl, ChatMessage, LlmClient, LlmRequest, LlmResult, SystemBlock, ToolCall, ToolSpec, Usage } from '../../model/types';
import { timerDelay } from '../../model/dates';
import { minCacheableTokens } from '../pricing';
import { tokensAtLeast } from '../tokens';
import { LlmError, SET_KEY_HINT } from '../errors';
import { toLlmErrorFromSdk as toLlmError } from './errors';
import { oneLine, shorten } from '../../text/cut';
import { loadSdk } from './sdk';

export const DEFAULT_BASE_URL = 'https://api.anthropic.com';
/** A stream that sends nothing (not even a ping) this long is stalled: the real API pings every few seconds. */
export const DEFAULT_IDLE_TIMEOUT_MS = 30_000;

/** The API accepts at most this many cache_control breakpoints per request. */
const MAX_CACHE_BREAKPOINTS = 4;

export interface AnthropicClientOptions {
  apiKey: string;
  /** Without `/v1` (a trailing `/v1` is tolerated and removed). Default https://api.anthropic.com */
  baseURL?: string;
  /** Abort when no bytes arrive for this long during a request (default DEFAULT_IDLE_TIMEOUT_MS). */
  idleTimeoutMs?: number;
  /** The SDK's own timeout (time to response headers). Default: the SDK's (10 minutes); the watchdog usually fires first. */
  headersTimeoutMs?: number;
  /** SDK-level retries of HTTP errors before the stream starts (default 2). */
  maxRetries?: number;
  /** Not supported: the client always uses the platform fetch, so tests go through real HTTP. */
  fetch?: never;
}

/** `https://x/v1/` → `https://x`. */
export function normalizeBaseURL(baseURL: string | undefined): string {
  const raw = (baseURL ?? '').trim() || DEFAULT_BASE_URL;
  return raw.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/**
 * Why `raw` cannot be used as an API base URL (null when it can): it must be an absolute http(s) URL without
 * credentials, query or fragment. Callers name their source (flag, variable, setting) around the reason.
 */
export function baseUrlProblem(raw: string): string | null {
  const text = raw.trim();
  if (!text) return 'it is empty';
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return 'it is not a URL (expected e.g. https://api.anthropic.com or http://127.0.0.1:8080)';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return `it must be an http(s) URL (this one starts with ${u.protocol})`;
  if (!u.hostname) return 'it names no host';
  if (u.username || u.password) return 'it must not contain a user name or password (pass the key with --api-key or ANTHROPIC_API_KEY)';
  if (u.search || u.hash) return 'it must not contain a query (?…) or fragment (#…)';
  return null;
}

/** The key sent to a loopback endpoint when the user gave none (a local gateway or the test server needs none). */
export const LOOPBACK_PLACEHOLDER_KEY = 'local';

/**
 * True when `url` points at this machine (127.0.0.0/8, localhost, ::1): a local gateway or the test server,
 * which needs no Anthropic API key. Shared by the CLI and the extension's provider.
 */
export function isLoopbackBaseUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

function requireKey(apiKey: string | undefined): string {
  const key = (apiKey ?? '').trim();
  if (!key) throw new LlmError('auth', `No Anthropic API key is set. ${SET_KEY_HINT}`, { retryable: false });
  return key;
}

function makeSdkClient(o: { apiKey: string; baseURL: string; maxRetries?: number; timeout?: number }): Anthropic {
  return new (loadSdk().Anthropic)({
    apiKey: o.apiKey,
    baseURL: o.baseURL,
    maxRetries: o.maxRetries ?? 2,
    ...(o.timeout !== undefined ? { timeout: o.timeout } : {}),
    // Explicit values so nothing is read from ANTHROPIC_LOG / ANTHROPIC_WEBHOOK_SIGNING_KEY /
    // OpenTelemetry variables, and nothing is printed: every failure surfaces as an LlmError.
    webhookKey: null,
    logLevel: 'off',
    openTelemetry: false,
  });
}

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

/**
 * The request's prompt with its cache marks: tool definitions, system blocks (marked as asked, within the model's
 * minimum) and messages, the last one marked when `cacheLastMessage` asks and the whole prompt reaches the minimum.
 */
export function toPromptParams(req: LlmRequest): Pick<Anthropic.MessageCreateParamsNonStreaming, 'system' | 'messages' | 'tools'> {
  const minTokens = minCacheableTokens(req.model) ?? 0;
  const tools = req.tools && req.tools.length > 0 ? req.tools.map(toToolParam) : undefined;
  const toolsTokens = tools ? tools.reduce((n, t) => n + tokensAtLeast(JSON.stringify(t)), 0) : 0;
  const total = toolsTokens + req.system.reduce((n, b) => n + tokensAtLeast(b.text), 0) + req.messages.reduce((n, m) => n + messageTokens(m), 0);
  const tail = !!req.cacheLastMessage && req.messages.length > 0 && total >= minTokens;
  const system = toSystemParam(req.system, { minTokens, prefixTokens: toolsTokens, maxMarks: MAX_CACHE_BREAKPOINTS - (tail ? 1 : 0) });
  const messages = req.messages.map((m, i) => toMessageParam(m, tail && i === req.messages.length - 1));
  return { ...(system.length > 0 ? { system } : {}), messages, ...(tools ? { tools } : {}) };
}

function toToolParam(t: ToolSpec): Anthropic.Tool {
  return { name: t.name, description: t.description, input_schema: { type: 'object', ...t.inputSchema } as Anthropic.Tool.InputSchema };
}

function toUsage(u: Partial<Anthropic.Usage> | undefined | null): Usage {
  return {
    inputTokens: u?.input_tokens ?? 0,
    outputTokens: u?.output_tokens ?? 0,
    cacheCreationInputTokens: u?.cache_creation_input_tokens ?? 0,
    cacheReadInputTokens: u?.cache_read_input_tokens ?? 0,
    ...(u?.cache_creation?.ephemeral_1h_input_tokens ? { cacheCreation1hInputTokens: u.cache_creation.ephemeral_1h_input_tokens } : {}),
  };
}

/** A restartable idle timer, armed only while an HTTP attempt is in flight. */
class IdleWatchdog {
  private timer: NodeJS.Timeout | undefined;
  private armed = false;
  /** The content type of a successful response that is not an event stream (a proxy's page, another API). */
  notAStream: string | undefined;

  constructor(
    private readonly ms: number,
    private readonly onIdle: () => void,
  ) {}

  arm(): void {
    this.armed = true;
    this.restart();
  }

  touch(): void {
    if (this.armed) this.restart();
  }

  disarm(): void {
    this.armed = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private restart(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.armed = false;
      this.onIdle();
    }, timerDelay(this.ms));
  }
}

/** Per-request middleware that feeds the watchdog with every chunk of the response body. */
function watchdogMiddleware(watchdog: IdleWatchdog): Middleware {
  return async (request, next) => {
    watchdog.arm();
    let res: Response;
    try {
      res = await next(request);
    } catch (e) {
      watchdog.disarm(); // the SDK may now sleep before retrying; the next attempt re-arms
      throw e;
    }
    watchdog.touch();
    const type = res.headers.get('content-type') ?? '';
    if (res.ok && !type.includes('text/event-stream')) watchdog.notAStream = type || 'no content type';
    if (!res.ok || !res.body) {
      watchdog.disarm();
      return res;
    }
    const observed = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          watchdog.touch();
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(observed, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

export class AnthropicClient implements LlmClient {
  readonly supportsTools = true;
  readonly baseURL: string;
  readonly idleTimeoutMs: number;
  private readonly headersTimeoutMs?: number;
  private readonly apiKey: string;
  private readonly maxRetries?: number;
  private sdkClient: Anthropic | undefined;

  constructor(opts: AnthropicClientOptions) {
    const apiKey = requireKey(opts.apiKey);
    this.baseURL = normalizeBaseURL(opts.baseURL);
    this.idleTimeoutMs = opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    if (!(this.idleTimeoutMs > 0)) throw new LlmError('config', `idleTimeoutMs must be a positive number of milliseconds (got ${opts.idleTimeoutMs}).`);
    this.headersTimeoutMs = opts.headersTimeoutMs;
    this.apiKey = apiKey;
    this.maxRetries = opts.maxRetries;
  }

  /** The SDK client, made (and the SDK loaded) on the first request. */
  private get sdk(): Anthropic {
    this.sdkClient ??= makeSdkClient({
      apiKey: this.apiKey,
      baseURL: this.baseURL,
      maxRetries: this.maxRetries,
      timeout: this.headersTimeoutMs,
    });
    return this.sdkClient;
  }

  async stream(req: LlmRequest, onText: (delta: string) => void): Promise<LlmResult> {
    const ctx = { baseURL: this.baseURL, idleMs: this.idleTimeoutMs, headersTimeoutMs: this.headersTimeoutMs };
    if (req.signal?.aborted) throw LlmError.cancelled();

    const prompt = toPromptParams(req);
    const params: Anthropic.MessageCreateParamsNonStreaming = {
      model: req.model,
      max_tokens: req.maxTokens,
      ...prompt,
      ...(prompt.tools && req.toolChoice === 'none' ? { tool_choice: { type: 'none' as const } } : {}),
    };

    let stalled = false;
    let callbackError: unknown;
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    req.signal?.addEventListener('abort', onAbort, { once: true });
    const watchdog = new IdleWatchdog(this.idleTimeoutMs, () => {
      stalled = true;
      controller.abort();
    });
    const reply = new ReplyAccumulator();
    try {
      const stream = await this.sdk.messages.create(
        { ...params, stream: true },
        { signal: controller.signal, middleware: [watchdogMiddleware(watchdog)] },
      );
      for await (const event of stream) {
        const delta = reply.add(event);
        if (!delta) continue;
        try {
          onText(delta);
        } catch (e) {
          // A failing consumer ends the request; its error is rethrown as is below.
          callbackError = e;
          controller.abort();
          break;
        }
      }
      if (callbackError !== undefined) throw callbackError;
      // The SDK's stream ends quietly when aborted: a stall or a cancel is told apart below.
      if (controller.signal.aborted) throw LlmError.cancelled();
      return reply.result();
    } catch (err) {
      const e = this.failure(err, { callbackError, stalled, aborted: !!req.signal?.aborted, notAStream: watchdog.notAStream, ctx });
      // What a request that broke off used until then is billed too: the spend counts it (costCap.ts, conversation.ts).
      if (e instanceof LlmError && reply.usage) e.usage = reply.usage;
      throw e;
    } finally {
      watchdog.disarm();
      req.signal?.removeEventListener('abort', onAbort);
    }
  }

  private failure(
    err: unknown,
    f: { callbackError: unknown; stalled: boolean; aborted: boolean; notAStream: string | undefined; ctx: Parameters<typeof toLlmError>[1] },
  ): unknown {
    if (f.callbackError !== undefined) return f.callbackError;
    if (f.stalled) return LlmError.stalled(this.idleTimeoutMs, this.baseURL);
    if (f.aborted) return LlmError.cancelled();
    if (f.notAStream !== undefined) {
      // Retrying would get the same page: the base URL (or a proxy in between) is not the Messages API.
      return new LlmError(
        'config',
        `The server at ${this.baseURL} answered with ${f.notAStream}, not the Messages API's event stream. Check the ` +
          'base URL (--base-url, ANTHROPIC_BASE_URL or cape.baseUrl, without /v1) and any proxy between you and the API.',
        { cause: err },
      );
    }
    return toLlmError(err, f.ctx);
  }
}

/**
 * One streamed reply, assembled from the API's raw events: text blocks, tool_use blocks with their input JSON as the
 * model wrote it (parsed once the block is complete, never guessed from a part), the stop reason and the usage so far.
 * A tool call whose input is not a JSON object, or was cut by the output limit, keeps `{}` as its input (the API
 * only takes an object back) and says why in `problem`, so the executor refuses it and the conversation goes on.
 */
class ReplyAccumulator {
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

export interface ValidateApiKeyOptions {
  apiKey: string;
  baseURL?: string;
  model: string;
  signal?: AbortSignal;
  /** Give up after this long (default 30000). */
  timeoutMs?: number;
}

/**
 * Checks a key with the cheapest real request (max_tokens 1, a one-word prompt). Resolves when the
 * API accepts it; throws a classified LlmError otherwise (kind 'auth' for a rejected key).
 */
export async function validateApiKey(opts: ValidateApiKeyOptions): Promise<void> {
  const apiKey = requireKey(opts.apiKey);
  const baseURL = normalizeBaseURL(opts.baseURL);
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const sdk = makeSdkClient({ apiKey, baseURL, maxRetries: 1, timeout: timeoutMs });
  try {
    await sdk.messages.create(
      { model: opts.model, max_tokens: 1, messages: [{ role: 'user', content: 'ping' }] },
      { signal: opts.signal },
    );
  } catch (err) {
    if (opts.signal?.aborted) throw LlmError.cancelled();
    throw toLlmError(err, { baseURL, headersTimeoutMs: timeoutMs });
  }
}
