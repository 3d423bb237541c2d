// A loopback fake of the Anthropic Messages API (`POST /v1/messages`), speaking the real wire format:
// SSE frames with an `event:` line and a `data:` JSON line for `stream: true`, a JSON message otherwise,
// and the real error shape `{type:'error', error:{type, message}}` with status, request-id and
// retry-after headers. It lets tests, benchmarks and the README demo run the real @anthropic-ai/sdk
// over HTTP without the network, and inject the faults a real session meets (HTTP errors, an
// `event: error` mid-stream, a stall after the first byte, a connection reset).
//
// Plain Node: no dependencies beyond `http`.
import * as http from 'http';
import type { AddressInfo, Socket } from 'net';

// ---------------------------------------------------------------------------------------------
// Public types

/** Usage figures as they appear on the wire. */
export interface FakeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  /** The cache writes by lifetime (their sum is cache_creation_input_tokens), as the real API reports them. */
  cache_creation?: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}

/** A normal reply: the text is streamed in chunks (or returned whole for non-streaming requests). */
export interface FakeTextReply {
  text: string;
  /** Overrides for the computed usage figures (computed ones: prompt chars/4, reply chars/4). */
  usage?: Partial<FakeUsage>;
  /** Defaults to 'end_turn'. Use 'max_tokens' to simulate a truncated reply. */
  stopReason?: string;
  /** Model name reported back; defaults to the requested model. */
  model?: string;
  /** Wait this long before sending the response headers. */
  delayMs?: number;
  /** Per-reply overrides of the server's chunking. */
  chunkSize?: number;
  chunkDelayMs?: number;
  /** While waiting between chunks, send `event: ping` frames at this interval (keeps idle watchdogs happy). */
  pingEveryMs?: number;
  /**
   * Stop streaming once this many characters are out and wait (sending `ping` frames) until the test calls
   * `release()`: a deterministic "still streaming" moment instead of a race against chunk delays.
   */
  holdAfterChars?: number;
}

export type FakeHttpStatus = 400 | 401 | 403 | 404 | 413 | 429 | 500 | 503 | 529;

/** Fails the request with an HTTP error before any body is streamed. */
export interface FakeHttpFault {
  fault: 'http';
  status: FakeHttpStatus;
  /** Seconds, sent as a `retry-after` header (fractions allowed, the SDK honours them). */
  retryAfter?: number;
  /** Error type in the body; defaults to the one the real API uses for the status. */
  errorType?: string;
  /** Error message in the body. */
  message?: string;
}

/** Streams `afterChars` characters of text, then an `event: error` frame, then ends the response. */
export interface FakeMidstreamErrorFault {
  fault: 'midstream-error';
  afterChars: number;
  errorType?: 'overloaded_error' | 'api_error' | 'rate_limit_error' | string;
  message?: string;
  /** The text the chars are taken from (defaults to filler text). */
  text?: string;
}

/** Sends headers and `afterChars` characters of text, then goes silent until the client disconnects. */
export interface FakeStallFault {
  fault: 'stall';
  afterChars: number;
  text?: string;
}

/** Sends `afterChars` characters of text, then destroys the socket (TCP reset). */
export interface FakeResetFault {
  fault: 'reset';
  afterChars: number;
  text?: string;
}

/** Sends `afterChars` characters of text, then ends the response cleanly without `message_stop`. */
export interface FakeEofFault {
  fault: 'eof';
  afterChars: number;
  text?: string;
}

export type FakeFault = FakeHttpFault | FakeMidstreamErrorFault | FakeStallFault | FakeResetFault | FakeEofFault;

/** One tool call of a scripted tool-use turn. */
export interface FakeToolCall {
  /** Defaults to a fresh `toolu_…` id. */
  id?: string;
  name: string;
  /** The tool input; streamed as `input_json_delta` partials of the JSON text. */
  input: unknown;
  /** The input's JSON text as the model wrote it, streamed instead of JSON.stringify(input) (invalid JSON, a non-object). */
  json?: string;
}

/** A content block streamed verbatim before the reply's text (a `thinking` block, a block type the client does not know). */
export interface FakeRawBlock {
  /** The `content_block` of `content_block_start`. */
  start: Record<string, unknown>;
  /** The `delta` of each `content_block_delta`. */
  deltas?: Record<string, unknown>[];
}

/**
 * A tool-use turn: optional text first, then one `tool_use` block per call (each streamed as
 * `content_block_start {type:'tool_use', id, name, input:{}}` + `input_json_delta` partials), ending
 * with `stop_reason: "tool_use"`.
 */
export interface FakeToolUseReply {
  toolCalls: FakeToolCall[];
  text?: string;
  usage?: Partial<FakeUsage>;
  model?: string;
  delayMs?: number;
  /** Characters per `input_json_delta` (default: the server's chunk size). */
  chunkSize?: number;
  chunkDelayMs?: number;
  /** Defaults to 'tool_use' ('max_tokens': the output limit hit inside the last call's input, see `cut`). */
  stopReason?: string;
  /** Blocks streamed before the text (and the tool calls). */
  blocks?: FakeRawBlock[];
  /**
   * The stream breaks after `afterChars` characters of the last call's input JSON: `eof` ends the response without
   * `content_block_stop`/`message_stop`, `reset` resets the connection, `midstream-error` sends `event: error`, and
   * `max_tokens` stops the message there as the API does at the output limit (`content_block_stop`, then
   * `message_delta` with `stop_reason: "max_tokens"` and `message_stop`).
   */
  cut?: { afterChars: number; fault: 'eof' | 'reset' | 'midstream-error' | 'max_tokens'; errorType?: string };
}

/**
 * SSE frames sent verbatim, in order, then the end of the response: a stream the real API would not send (an event
 * missing a field, a block index far out of range), to check that the client reports it clearly.
 */
export interface FakeRawEventsReply {
  events: { event: string; data: unknown }[];
}

export type FakeReply = FakeTextReply | FakeToolUseReply | FakeRawEventsReply | FakeFault;

/** A `tool_result` block a client sent (in the user turn after a tool-use turn). */
export interface RecordedToolResult {
  /** Index of the request that carried it. */
  requestIndex: number;
  toolUseId: string;
  /** The result text (text blocks joined when the content is an array). */
  content: string;
  isError: boolean;
}

/** What the server received, for assertions. */
export interface RecordedRequest {
  /** 0-based order of arrival (all requests, including rejected ones). */
  index: number;
  method: string;
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** The parsed JSON body (undefined when the body was not valid JSON). */
  body: any;
  /** Shortcuts into the body. */
  model?: string;
  system?: unknown;
  messages?: unknown;
  maxTokens?: number;
  stream: boolean;
  /** The key the client sent (`x-api-key` or `Authorization: Bearer`), if any. */
  apiKey: string | null;
  receivedAt: number;
  /** The input usage reported for it (absent when the request was rejected before accounting). */
  usage?: Pick<FakeUsage, 'input_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens' | 'cache_creation'>;
}

export type FakeResponder = (req: RecordedRequest, index: number) => FakeReply | Promise<FakeReply>;

export interface FakeAnthropicOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Characters per `text_delta` (default 16; counted in code points, so surrogate pairs stay whole). */
  chunkSize?: number;
  /** Delay between deltas (default 0). */
  chunkDelayMs?: number;
  /** When set, requests carrying another key (or none) get a 401. */
  apiKey?: string;
  /**
   * Smallest prefix (in estimated tokens) that gets cached. Default: the real API's minimum for the request's model
   * (minCacheableTokensFor), so a test cannot pass on a cache the API would not form.
   */
  minCacheableTokens?: number;
  /**
   * A simulated clock for cache lifetimes: each request happens at the clock's time and then moves it on by
   * `msPerRequest` (default 90 s: a step's model time), and `advanceClock()` adds pauses. Without it the real clock is
   * used. Entries expire 5 minutes (or 1 hour with `ttl: '1h'`) after their last write or hit.
   */
  simulatedClock?: { msPerRequest?: number; start?: number };
  /**
   * When the responder takes longer than this to answer a streaming request (a relay waiting for a reply file), the
   * SSE headers go out and an `event: ping` frame follows every `waitPingMs` until the reply is there, so the client's
   * idle watchdog and header timeout see a live stream. Off by default.
   */
  waitPingMs?: number;
}

export interface FakeAnthropic {
  /** Base URL without `/v1`, e.g. http://127.0.0.1:PORT */
  url: string;
  port: number;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /**
   * Every tool_result block received, in order (each request's new ones: those answering the tool calls of the
   * assistant turn right before its last user turn).
   */
  toolResults: RecordedToolResult[];
  /** Replies handed out first-in first-out before the responder is consulted. */
  enqueue(...replies: FakeReply[]): void;
  /** Answers requests when the queue is empty. */
  setResponder(fn: FakeResponder | null): void;
  /** Lets every stream waiting at its `holdAfterChars` point go on (and any later one pass straight through). */
  release(): void;
  /** The cache clock's time in ms (the simulated clock's, or Date.now()). */
  now(): number;
  /** Moves the simulated clock on (a pause between requests); ignored with the real clock. */
  advanceClock(ms: number): void;
  /** Forget requests, queued replies, the responder and the prompt cache. */
  reset(): void;
  /** Stop listening and drop open connections (including stalled streams). */
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Helpers usable by tests

/** The first `n` characters (code points) of `text`: a convenient way to build a truncated reply. */
export function truncated(text: string, n: number): string {
  return Array.from(text).slice(0, Math.max(0, n)).join('');
}

/** Estimated tokens for a number of characters, the fake's rule of thumb: ceil(chars / 4). */
export function estimateTokens(chars: number): number {
  return chars <= 0 ? 0 : Math.ceil(chars / 4);
}

/**
 * A responder that hands out `replies` in order (strings become text replies). Once they are used
 * up, every further request gets a 500 whose message says so.
 */
export function replayResponder(replies: Array<string | FakeReply>, opts: { loop?: boolean } = {}): FakeResponder {
  let next = 0;
  return (req) => {
    if (next >= replies.length && opts.loop && replies.length > 0) next = 0;
    if (next >= replies.length) {
      return {
        fault: 'http',
        status: 500,
        errorType: 'api_error',
        message:
          `fake-anthropic replay: all ${replies.length} scripted replies have been used ` +
          `(this is request #${req.index + 1}); script more replies or use --loop`,
      };
    }
    const r = replies[next++];
    return typeof r === 'string' ? { text: r } : r;
  };
}

/** Whether a value looks like a FakeReply (used to validate scripts). */
export function isFakeReply(v: unknown): v is FakeReply {
  if (!v || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  if (Array.isArray(o.toolCalls) && o.fault === undefined) {
    return o.toolCalls.every((c) => !!c && typeof c === 'object' && typeof (c as FakeToolCall).name === 'string');
  }
  if (typeof o.text === 'string' && o.fault === undefined) return true;
  if (Array.isArray(o.events) && o.fault === undefined) return o.events.every((e) => !!e && typeof e === 'object' && typeof (e as { event?: unknown }).event === 'string');
  switch (o.fault) {
    case 'http':
      return typeof o.status === 'number';
    case 'midstream-error':
    case 'stall':
    case 'reset':
    case 'eof':
      return typeof o.afterChars === 'number';
    default:
      return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Implementation

const DEFAULT_ERROR_TYPE: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  503: 'api_error',
  529: 'overloaded_error',
};

const DEFAULT_ERROR_MESSAGE: Record<string, string> = {
  invalid_request_error: 'Invalid request',
  authentication_error: 'invalid x-api-key',
  permission_error: 'Your API key does not have permission to use the specified resource.',
  not_found_error: 'Not found',
  request_too_large: 'Request exceeds the maximum allowed number of bytes.',
  rate_limit_error: 'Number of request tokens has exceeded your per-minute rate limit',
  api_error: 'Internal server error',
  overloaded_error: 'Overloaded',
};

const FILLER = 'The quick brown fox jumps over the lazy dog. ';

function fillerText(chars: number): string {
  return FILLER.repeat(Math.ceil(Math.max(chars, 1) / FILLER.length)).slice(0, Math.max(chars, 0));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

let idCounter = 0;
function newId(prefix: string): string {
  idCounter++;
  return `${prefix}_fake${Date.now().toString(36)}${idCounter.toString(36).padStart(4, '0')}`;
}

/** Total characters of text in a content value (string or array of blocks). */
function contentChars(content: unknown): number {
  if (typeof content === 'string') return content.length;
  if (Array.isArray(content)) {
    let n = 0;
    for (const b of content) {
      if (b && typeof b === 'object' && typeof (b as any).text === 'string') n += (b as any).text.length;
      else if (b !== undefined) n += JSON.stringify(b).length;
    }
    return n;
  }
  return 0;
}

/**
 * The API's minimum cacheable prefix per model, in tokens (one table): a prefix below it is silently not cached.
 * Checked top to bottom; a model matching no row gets the last one.
 */
export const MIN_CACHEABLE_TOKENS: ReadonlyArray<{ model: RegExp; tokens: number }> = [
  { model: /opus-4-[5-9]|opus-4\.[5-9]/, tokens: 4096 },
  { model: /haiku-4-5|haiku-4\.5/, tokens: 4096 },
  { model: /haiku-3|3-5-haiku|3-haiku|3\.5-haiku/, tokens: 2048 },
  { model: /./, tokens: 1024 }, // Sonnet 4.x and 3.7, Opus 4 and 4.1
];

/** The minimum cacheable prefix (tokens) of a model, from MIN_CACHEABLE_TOKENS. */
export function minCacheableTokensFor(model: string): number {
  const id = model.toLowerCase();
  return (MIN_CACHEABLE_TOKENS.find((r) => r.model.test(id)) ?? MIN_CACHEABLE_TOKENS[MIN_CACHEABLE_TOKENS.length - 1]).tokens;
}

export const CACHE_TTL_MS = { '5m': 5 * 60_000, '1h': 60 * 60_000 } as const;
/**
 * How far back from each breakpoint the API looks for a cached prefix: a prefix cached by an earlier request at any
 * of the 20 block boundaries before it (and at it) is read. A tool loop that marks its last message each turn reads
 * the prefix the turn before cached there, though that block is no longer marked.
 */
export const CACHE_LOOKBACK_BLOCKS = 20;
/** The API's limit of cache_control breakpoints per request. */
const MAX_BREAKPOINTS = 4;

interface PromptBlock {
  key: string;
  chars: number;
  ttl: '5m' | '1h' | null;
}

/**
 * The prompt as a flat list of blocks in the API's cache order (tools, then system blocks, then message content
 * blocks), each with its size and the TTL of its cache_control breakpoint, if any. A prefix ending at a breakpoint is
 * cached; a later request with an identical prefix reads it.
 */
function promptBlocks(body: any): PromptBlock[] {
  const out: PromptBlock[] = [];
  const push = (block: unknown, role: string) => {
    const b = typeof block === 'string' ? { type: 'text', text: block } : (block as any);
    const { cache_control, ...rest } = b ?? {};
    const ttl = cache_control ? (cache_control.ttl === '1h' ? '1h' : '5m') : null;
    out.push({ key: role + ':' + JSON.stringify(rest), chars: role === 'tool' ? JSON.stringify(rest).length : contentChars([rest]), ttl });
  };
  if (Array.isArray(body?.tools)) for (const t of body.tools) push(t, 'tool');
  const sys = body?.system;
  if (typeof sys === 'string') push(sys, 'system');
  else if (Array.isArray(sys)) for (const b of sys) push(b, 'system');
  if (Array.isArray(body?.messages)) {
    for (const m of body.messages) {
      const c = m?.content;
      if (typeof c === 'string') push(c, String(m?.role));
      else if (Array.isArray(c)) for (const b of c) push(b, String(m?.role));
    }
  }
  return out;
}

/** The API's rules for cache_control marks: at most four, and no 1-hour mark after a 5-minute one. Null when fine. */
export function cacheControlError(body: any): string | null {
  const marks = promptBlocks(body).filter((b) => b.ttl);
  if (marks.length > MAX_BREAKPOINTS) return `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${marks.length}.`;
  const firstShort = marks.findIndex((b) => b.ttl === '5m');
  if (firstShort >= 0 && marks.slice(firstShort).some((b) => b.ttl === '1h')) {
    return "a cache_control block with ttl='1h' must not come after one with ttl='5m' (longer lifetimes first)";
  }
  return null;
}

/**
 * The prompt cache: entries keyed by model + prefix, each alive until `expiresAt` (5 minutes or 1 hour after its
 * last write or hit, on the server's clock). Accounting per request:
 *  - read: the longest live prefix ending at one of the request's breakpoints or at one of the CACHE_LOOKBACK_BLOCKS
 *    block boundaries before one (a hit renews its lifetime);
 *  - write: from there to the last breakpoint whose prefix reaches the model's minimum, each stretch counted under
 *    the TTL of the breakpoint that ends it (a stretch ending at a breakpoint below the minimum goes to the next one);
 *  - everything else is uncached input.
 */
class PromptCache {
  private readonly entries = new Map<string, { expiresAt: number; ttlMs: number }>();

  account(body: any, minTokens: number, now: number): Pick<FakeUsage, 'input_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens' | 'cache_creation'> {
    const blocks = promptBlocks(body);
    let key = String(body?.model ?? '');
    let chars = 0;
    const breakpoints: { key: string; chars: number; ttlMs: number; at: number }[] = [];
    // the prefix ending at each block: a breakpoint's lookback reads those before it
    const prefixes: { key: string; chars: number }[] = [];
    for (const b of blocks) {
      key += '\u0000' + b.key;
      chars += b.chars;
      prefixes.push({ key, chars });
      if (b.ttl) breakpoints.push({ key, chars, ttlMs: CACHE_TTL_MS[b.ttl], at: prefixes.length - 1 });
    }
    const totalTokens = Math.max(1, estimateTokens(chars));
    for (const [k, e] of this.entries) if (e.expiresAt <= now) this.entries.delete(k);
    let readChars = 0;
    for (const bp of breakpoints) {
      // the longest live prefix at the breakpoint or within the lookback before it
      for (let i = bp.at; i >= Math.max(0, bp.at - CACHE_LOOKBACK_BLOCKS); i--) {
        const hit = this.entries.get(prefixes[i].key);
        if (!hit) continue;
        readChars = Math.max(readChars, prefixes[i].chars);
        hit.expiresAt = now + hit.ttlMs;
        break;
      }
    }
    const w = { '5m': 0, '1h': 0 };
    let from = readChars;
    for (const bp of breakpoints) {
      if (bp.chars <= from || estimateTokens(bp.chars) < minTokens) continue;
      const tokens = estimateTokens(bp.chars) - estimateTokens(from);
      w[bp.ttlMs === CACHE_TTL_MS['1h'] ? '1h' : '5m'] += tokens;
      from = bp.chars;
      const old = this.entries.get(bp.key);
      this.entries.set(bp.key, { expiresAt: now + Math.max(bp.ttlMs, old?.ttlMs ?? 0), ttlMs: Math.max(bp.ttlMs, old?.ttlMs ?? 0) });
    }
    const read = estimateTokens(readChars);
    const write = w['5m'] + w['1h'];
    return {
      input_tokens: Math.max(0, totalTokens - read - write),
      cache_creation_input_tokens: write,
      cache_read_input_tokens: read,
      cache_creation: { ephemeral_5m_input_tokens: w['5m'], ephemeral_1h_input_tokens: w['1h'] },
    };
  }

  clear(): void {
    this.entries.clear();
  }
}

function blocksOf(content: unknown): any[] {
  return Array.isArray(content) ? content.filter((b) => b && typeof b === 'object') : [];
}

function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  return blocksOf(content)
    .map((b) => (typeof b.text === 'string' ? b.text : ''))
    .join('');
}

/**
 * The real API's pairing rules for tool use: requests carrying tool_use/tool_result blocks must define `tools`,
 * every tool_use id of an assistant turn is answered by a tool_result in the very next user turn, and every
 * tool_result answers a tool_use of the turn before. Returns the error message, or null when the request is fine.
 */
export function toolPairingError(body: any): string | null {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const hasToolBlocks = messages.some((m) => blocksOf(m?.content).some((b) => b.type === 'tool_use' || b.type === 'tool_result'));
  if (hasToolBlocks && !(Array.isArray(body?.tools) && body.tools.length > 0)) {
    return 'Requests which include `tool_use` or `tool_result` blocks must define tools.';
  }
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    const uses = blocksOf(m?.content).filter((b) => b.type === 'tool_use').map((b) => String(b.id));
    const results = blocksOf(m?.content).filter((b) => b.type === 'tool_result').map((b) => String(b.tool_use_id));
    if (m?.role === 'assistant' && uses.length > 0) {
      const next = messages[i + 1];
      if (!next) continue; // the turn being continued (prefill)
      const answered = new Set(blocksOf(next?.content).filter((b) => b.type === 'tool_result').map((b) => String(b.tool_use_id)));
      const missing = uses.filter((id) => !answered.has(id));
      if (next?.role !== 'user' || missing.length > 0) {
        return `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
      }
    }
    if (m?.role === 'user' && results.length > 0) {
      const prev = messages[i - 1];
      const asked = new Set(blocksOf(prev?.content).filter((b) => b.type === 'tool_use').map((b) => String(b.id)));
      const stray = results.filter((id) => !asked.has(id));
      if (prev?.role !== 'assistant' || stray.length > 0) {
        return `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
      }
    }
  }
  return null;
}

/**
 * The real API's rules for the content of messages: no empty message (but the final assistant one), no empty or
 * whitespace-only text, every tool_use input an object, and no tool_use id used twice in a request. Returns the error message, or
 * null when the request is fine.
 */
export function messageShapeError(body: any): string | null {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const ids = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    const c = messages[i]?.content;
    const finalAssistant = i === messages.length - 1 && messages[i]?.role === 'assistant';
    if ((c === '' || (Array.isArray(c) && c.length === 0)) && !finalAssistant) {
      return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
    }
    if (typeof c === 'string' && c !== '' && c.trim() === '') return `messages.${i}: text content blocks must contain non-whitespace text`;
    for (const [j, b] of blocksOf(c).entries()) {
      if (b.type === 'text' && (typeof b.text !== 'string' || b.text === '')) return `messages.${i}.content.${j}.text: text content blocks must be non-empty`;
      if (b.type === 'text' && b.text.trim() === '') return `messages.${i}.content.${j}.text: text content blocks must contain non-whitespace text`;
      if (b.type !== 'tool_use') continue;
      if (!b.input || typeof b.input !== 'object' || Array.isArray(b.input)) return `messages.${i}.content.${j}.tool_use.input: Input should be a valid dictionary`;
      if (ids.has(String(b.id))) return `messages.${i}.content.${j}: \`tool_use\` ids must be unique (${String(b.id)} is used twice)`;
      ids.add(String(b.id));
    }
  }
  return null;
}

/** A non-streamed Messages API reply: one JSON message. */
function sendMessage(res: http.ServerResponse, requestId: string, message: Record<string, unknown>): void {
  const payload = JSON.stringify(message);
  res.writeHead(200, { 'content-type': 'application/json', 'request-id': requestId, 'content-length': Buffer.byteLength(payload) });
  res.end(payload);
}

function sseFrame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function errorBody(type: string, message: string, requestId: string) {
  return { type: 'error', error: { type, message }, request_id: requestId };
}

/** Splits text into chunks of `size` code points. */
function chunks(text: string, size: number): string[] {
  const cps = Array.from(text);
  const out: string[] = [];
  const n = Math.max(1, Math.floor(size));
  for (let i = 0; i < cps.length; i += n) out.push(cps.slice(i, i + n).join(''));
  return out;
}

function lowerHeaders(h: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function apiKeyOf(headers: Record<string, string>): string | null {
  if (headers['x-api-key']) return headers['x-api-key'];
  const auth = headers['authorization'];
  if (auth && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, '');
  return null;
}

/** Starts the fake on 127.0.0.1. */
export async function startFakeAnthropic(opts: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const chunkSize = opts.chunkSize ?? 16;
  const chunkDelayMs = opts.chunkDelayMs ?? 0;
  const clock = opts.simulatedClock ? { t: opts.simulatedClock.start ?? 0, step: opts.simulatedClock.msPerRequest ?? 90_000 } : null;
  const now = () => (clock ? clock.t : Date.now());
  const requests: RecordedRequest[] = [];
  const toolResults: RecordedToolResult[] = [];
  const queue: FakeReply[] = [];
  const cache = new PromptCache();
  let responder: FakeResponder | null = null;
  const sockets = new Set<Socket>();
  let closed = false;
  let releaseHold: () => void = () => undefined;
  let held = new Promise<void>((resolve) => (releaseHold = resolve));

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      // A bug in the fake itself: answer 500 if still possible so the test sees something clear.
      if (!res.headersSent) {
        sendError(res, 500, 'api_error', `fake-anthropic internal error: ${(err as Error)?.message ?? err}`);
      } else {
        res.destroy();
      }
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  function sendError(res: http.ServerResponse, status: number, type: string, message: string, extra: Record<string, string> = {}) {
    const requestId = newId('req');
    const payload = JSON.stringify(errorBody(type, message, requestId));
    res.writeHead(status, {
      'content-type': 'application/json',
      'request-id': requestId,
      'content-length': Buffer.byteLength(payload),
      ...extra,
    });
    res.end(payload);
  }

  /** Sends the SSE response headers; like the real API, they go out at once. */
  function startSse(res: http.ServerResponse, requestId: string): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'request-id': requestId,
    });
    res.flushHeaders();
  }

  /** Waits for a slow responder; past `waitPingMs` a streaming response is started and kept alive with pings. */
  async function pingWhileWaiting(res: http.ServerResponse, stream: boolean, pending: Promise<FakeReply>): Promise<FakeReply> {
    const every = opts.waitPingMs ?? 0;
    if (!stream || every <= 0) return pending;
    const timer = setInterval(() => {
      if (res.writableEnded || res.destroyed) return;
      if (!res.headersSent) startSse(res, newId('req'));
      res.write(sseFrame('ping', { type: 'ping' }));
    }, every);
    try {
      return await pending;
    } finally {
      clearInterval(timer);
    }
  }

  async function readBody(req: http.IncomingMessage): Promise<string> {
    const parts: Buffer[] = [];
    for await (const c of req) parts.push(c as Buffer);
    return Buffer.concat(parts).toString('utf8');
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const headers = lowerHeaders(req.headers);
    const path = (req.url ?? '/').split('?')[0];
    let body: any;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const rec: RecordedRequest = {
      index: requests.length,
      method: req.method ?? 'GET',
      path,
      headers,
      body,
      model: typeof body?.model === 'string' ? body.model : undefined,
      system: body?.system,
      messages: body?.messages,
      maxTokens: typeof body?.max_tokens === 'number' ? body.max_tokens : undefined,
      stream: body?.stream === true,
      apiKey: apiKeyOf(headers),
      receivedAt: Date.now(),
    };
    requests.push(rec);

    if (path !== '/v1/messages' || req.method !== 'POST') {
      return sendError(res, 404, 'not_found_error', `fake-anthropic only serves POST /v1/messages (got ${req.method} ${path})`);
    }
    if (opts.apiKey !== undefined && rec.apiKey !== opts.apiKey) {
      return sendError(res, 401, 'authentication_error', 'invalid x-api-key');
    }
    if (!rec.apiKey) {
      return sendError(res, 401, 'authentication_error', 'x-api-key header is required');
    }
    if (!headers['anthropic-version']) {
      return sendError(res, 400, 'invalid_request_error', 'anthropic-version: header is required');
    }
    if (body === undefined || typeof body !== 'object') {
      return sendError(res, 400, 'invalid_request_error', 'request body is not valid JSON');
    }
    if (!rec.model) return sendError(res, 400, 'invalid_request_error', 'model: Field required');
    if (typeof body.max_tokens !== 'number' || body.max_tokens < 1) {
      return sendError(res, 400, 'invalid_request_error', 'max_tokens: Field required (a positive integer)');
    }
    if (!Array.isArray(body.messages) || body.messages.length === 0) {
      return sendError(res, 400, 'invalid_request_error', 'messages: at least one message is required');
    }
    const shape = messageShapeError(body);
    if (shape) return sendError(res, 400, 'invalid_request_error', shape);
    const pairing = toolPairingError(body);
    if (pairing) return sendError(res, 400, 'invalid_request_error', pairing);
    const marks = cacheControlError(body);
    if (marks) return sendError(res, 400, 'invalid_request_error', marks);
    const lastUser = body.messages[body.messages.length - 1];
    if (lastUser?.role === 'user') {
      for (const b of blocksOf(lastUser.content)) {
        if (b.type !== 'tool_result') continue;
        toolResults.push({ requestIndex: rec.index, toolUseId: String(b.tool_use_id), content: toolResultText(b.content), isError: b.is_error === true });
      }
    }

    let reply: FakeReply;
    if (queue.length > 0) reply = queue.shift()!;
    else if (responder) reply = await pingWhileWaiting(res, rec.stream, Promise.resolve(responder(rec, rec.index)));
    else {
      return sendError(
        res,
        500,
        'api_error',
        `fake-anthropic has no reply for request #${rec.index + 1}: enqueue() a reply or setResponder() first`,
      );
    }

    if ('fault' in reply && reply.fault === 'http') {
      const type = reply.errorType ?? DEFAULT_ERROR_TYPE[reply.status] ?? 'api_error';
      if (res.headersSent) {
        // The stream already started (pings while waiting): the error can only come as an SSE error event.
        res.end(sseFrame('error', { type: 'error', error: { type, message: reply.message ?? DEFAULT_ERROR_MESSAGE[type] ?? 'Error' } }));
        return;
      }
      const extra: Record<string, string> = {};
      if (reply.retryAfter !== undefined) extra['retry-after'] = String(reply.retryAfter);
      return sendError(res, reply.status, type, reply.message ?? DEFAULT_ERROR_MESSAGE[type] ?? 'Error', extra);
    }

    if ('events' in reply) {
      if (!rec.stream) return sendError(res, 500, 'api_error', 'fake-anthropic: raw events need a streaming request');
      if (!res.headersSent) startSse(res, newId('req'));
      for (const e of reply.events) res.write(sseFrame(e.event, e.data));
      res.end();
      return;
    }

    const usageIn = cache.account(body, opts.minCacheableTokens ?? minCacheableTokensFor(rec.model), now());
    if (clock) clock.t += clock.step;
    rec.usage = usageIn;
    const model = ('model' in reply && reply.model) || rec.model;
    const messageId = newId('msg');
    const requestId = newId('req');

    if ('toolCalls' in reply) {
      if (reply.delayMs) await sleep(reply.delayMs);
      const calls = reply.toolCalls.map((c) => ({ id: c.id ?? newId('toolu'), name: c.name, input: c.input ?? {}, json: c.json ?? JSON.stringify(c.input ?? {}) }));
      const outChars = (reply.text ?? '').length + calls.reduce((n, c) => n + c.json.length + c.name.length, 0);
      const usage: FakeUsage = { ...usageIn, output_tokens: estimateTokens(outChars), ...reply.usage };
      if (!rec.stream) {
        const content = [
          ...(reply.text ? [{ type: 'text', text: reply.text }] : []),
          ...calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.input })),
        ];
        sendMessage(res, requestId, { id: messageId, type: 'message', role: 'assistant', model, content, stop_reason: reply.stopReason ?? 'tool_use', stop_sequence: null, usage });
        return;
      }
      await streamReply(res, {
        requestId,
        messageId,
        model,
        usage,
        text: reply.text ?? '',
        stopReason: reply.stopReason ?? 'tool_use',
        chunkSize: reply.chunkSize ?? chunkSize,
        chunkDelayMs: reply.chunkDelayMs ?? chunkDelayMs,
        toolCalls: calls,
        blocks: reply.blocks,
        cut: reply.cut,
      });
      return;
    }

    if (!('fault' in reply)) {
      if (reply.delayMs) await sleep(reply.delayMs);
      const usage: FakeUsage = {
        ...usageIn,
        output_tokens: estimateTokens(reply.text.length),
        ...reply.usage,
      };
      const stopReason = reply.stopReason ?? 'end_turn';
      if (!rec.stream) {
        sendMessage(res, requestId, {
          id: messageId,
          type: 'message',
          role: 'assistant',
          model,
          content: [{ type: 'text', text: reply.text }],
          stop_reason: stopReason,
          stop_sequence: null,
          usage,
        });
        return;
      }
      await streamReply(res, {
        requestId,
        messageId,
        model,
        usage,
        text: reply.text,
        stopReason,
        chunkSize: reply.chunkSize ?? chunkSize,
        chunkDelayMs: reply.chunkDelayMs ?? chunkDelayMs,
        pingEveryMs: reply.pingEveryMs,
        holdAfterChars: reply.holdAfterChars,
      });
      return;
    }

    // Mid-stream faults. A non-streaming request cannot fail mid-body in a meaningful way here:
    // answer with a plain 500 so the client still sees an error.
    if (!rec.stream) {
      return sendError(res, 500, 'api_error', `fake-anthropic: fault '${reply.fault}' needs a streaming request`);
    }
    const text = truncated(reply.text ?? fillerText(reply.afterChars), reply.afterChars);
    const usage: FakeUsage = { ...usageIn, output_tokens: estimateTokens(text.length) };
    await streamReply(res, {
      requestId,
      messageId,
      model,
      usage,
      text,
      stopReason: 'end_turn',
      chunkSize,
      chunkDelayMs,
      end: reply,
    });
  }

  async function streamReply(
    res: http.ServerResponse,
    p: {
      requestId: string;
      messageId: string;
      model: string;
      usage: FakeUsage;
      text: string;
      stopReason: string;
      chunkSize: number;
      chunkDelayMs: number;
      pingEveryMs?: number;
      holdAfterChars?: number;
      /** Tool calls streamed after the text (a tool-use turn; the text block is omitted when the text is empty). */
      toolCalls?: { id: string; name: string; input: unknown; json: string }[];
      /** Blocks streamed verbatim first (FakeToolUseReply.blocks). */
      blocks?: FakeRawBlock[];
      /** Where and how the last tool call's input breaks off (FakeToolUseReply.cut). */
      cut?: FakeToolUseReply['cut'];
      end?: FakeMidstreamErrorFault | FakeStallFault | FakeResetFault | FakeEofFault;
    },
  ): Promise<void> {
    let gone = false;
    res.on('close', () => {
      gone = true;
    });
    if (!res.headersSent) startSse(res, p.requestId);
    const write = (event: string, data: unknown) => {
      if (!gone) res.write(sseFrame(event, data));
    };
    const wait = async (ms: number) => {
      if (ms <= 0) return;
      if (!p.pingEveryMs || p.pingEveryMs <= 0) return sleep(ms);
      const until = Date.now() + ms;
      while (!gone && Date.now() < until) {
        await sleep(Math.min(p.pingEveryMs, until - Date.now()));
        if (Date.now() < until) write('ping', { type: 'ping' });
      }
    };
    /** Lets the frames already written reach the client, then resets the connection. */
    const reset = async () => {
      await new Promise<void>((resolve) => setTimeout(resolve, 20));
      const sock = res.socket as (Socket & { resetAndDestroy?: () => void }) | null;
      if (sock?.resetAndDestroy) sock.resetAndDestroy();
      else sock?.destroy();
    };
    /** An `event: error` mid-stream, then the end of the response. */
    const errorEvent = (errorType: string | undefined, message?: string) => {
      const type = errorType ?? 'overloaded_error';
      write('error', { type: 'error', error: { type, message: message ?? DEFAULT_ERROR_MESSAGE[type] ?? 'Error' } });
      res.end();
    };

    write('message_start', {
      type: 'message_start',
      message: {
        id: p.messageId,
        type: 'message',
        role: 'assistant',
        model: p.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: p.usage.input_tokens,
          cache_creation_input_tokens: p.usage.cache_creation_input_tokens,
          cache_read_input_tokens: p.usage.cache_read_input_tokens,
          ...(p.usage.cache_creation ? { cache_creation: p.usage.cache_creation } : {}),
          output_tokens: 1,
        },
      },
    });
    let blockIndex = 0;
    for (const b of p.blocks ?? []) {
      write('content_block_start', { type: 'content_block_start', index: blockIndex, content_block: b.start });
      for (const delta of b.deltas ?? []) write('content_block_delta', { type: 'content_block_delta', index: blockIndex, delta });
      write('content_block_stop', { type: 'content_block_stop', index: blockIndex });
      blockIndex++;
    }
    const withText = !p.toolCalls || p.text.length > 0;
    const textIndex = blockIndex;
    if (withText) write('content_block_start', { type: 'content_block_start', index: textIndex, content_block: { type: 'text', text: '' } });
    write('ping', { type: 'ping' });
    if (withText) {
      let sent = 0;
      let holding = p.holdAfterChars !== undefined;
      for (const c of chunks(p.text, p.chunkSize)) {
        if (gone) return;
        await wait(p.chunkDelayMs);
        write('content_block_delta', { type: 'content_block_delta', index: textIndex, delta: { type: 'text_delta', text: c } });
        sent += Array.from(c).length;
        if (holding && sent >= (p.holdAfterChars ?? 0)) {
          holding = false;
          let waiting = true;
          void held.then(() => (waiting = false));
          res.once('close', () => (waiting = false));
          while (waiting && !gone) {
            await sleep(250);
            if (waiting) write('ping', { type: 'ping' });
          }
        }
      }
    }
    if (gone) return;

    if (p.toolCalls) {
      if (withText) write('content_block_stop', { type: 'content_block_stop', index: textIndex });
      let index = withText ? textIndex + 1 : textIndex;
      for (const [n, call] of p.toolCalls.entries()) {
        const cut = n === p.toolCalls.length - 1 ? p.cut : undefined;
        write('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } });
        for (const part of chunks(cut ? truncated(call.json, cut.afterChars) : call.json, p.chunkSize)) {
          if (gone) return;
          await wait(p.chunkDelayMs);
          write('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: part } });
        }
        if (cut?.fault === 'eof') {
          res.end();
          return;
        }
        if (cut?.fault === 'reset') return reset();
        if (cut?.fault === 'midstream-error') return errorEvent(cut.errorType);
        write('content_block_stop', { type: 'content_block_stop', index });
        index++;
      }
      write('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: p.cut?.fault === 'max_tokens' ? 'max_tokens' : p.stopReason, stop_sequence: null },
        usage: { ...p.usage },
      });
      write('message_stop', { type: 'message_stop' });
      res.end();
      return;
    }

    const end = p.end;
    if (end?.fault === 'midstream-error') return errorEvent(end.errorType, end.message);
    if (end?.fault === 'stall') {
      // Go silent. The client's idle watchdog must notice; the socket closes when the client aborts
      // or when the server is closed.
      await new Promise<void>((resolve) => {
        if (gone) return resolve();
        res.once('close', () => resolve());
      });
      return;
    }
    if (end?.fault === 'reset') return reset();
    if (end?.fault === 'eof') {
      res.end();
      return;
    }

    write('content_block_stop', { type: 'content_block_stop', index: textIndex });
    write('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: p.stopReason, stop_sequence: null },
      usage: {
        input_tokens: p.usage.input_tokens,
        cache_creation_input_tokens: p.usage.cache_creation_input_tokens,
        cache_read_input_tokens: p.usage.cache_read_input_tokens,
        ...(p.usage.cache_creation ? { cache_creation: p.usage.cache_creation } : {}),
        output_tokens: p.usage.output_tokens,
      },
    });
    write('message_stop', { type: 'message_stop' });
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    toolResults,
    enqueue(...replies: FakeReply[]) {
      for (const r of replies) {
        if (!isFakeReply(r)) throw new TypeError(`fake-anthropic: not a FakeReply: ${JSON.stringify(r)}`);
        queue.push(r);
      }
    },
    setResponder(fn: FakeResponder | null) {
      responder = fn;
    },
    release() {
      releaseHold();
    },
    now,
    advanceClock(ms: number) {
      if (clock) clock.t += Math.max(0, ms);
    },
    reset() {
      releaseHold();
      held = new Promise<void>((resolve) => (releaseHold = resolve));
      requests.length = 0;
      toolResults.length = 0;
      queue.length = 0;
      responder = null;
      cache.clear();
      if (clock) clock.t = opts.simulatedClock?.start ?? 0;
    },
    close() {
      if (closed) return Promise.resolve();
      closed = true;
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
}
