// The Anthropic implementation of LlmClient, on the real @anthropic-ai/sdk's event stream (`messages.create` with
// `stream: true`; the reply is assembled by replyAccumulator.ts, so a tool call the model wrote wrong is refused
// to it instead of failing the turn, and the usage of a request that broke off is known).
//
// What it adds over the SDK:
// - explicit apiKey + baseURL, so the SDK never picks up ANTHROPIC_* variables or profile files;
// - cache_control (5 minutes or 1 hour) on marked system blocks and, when asked, the last message, kept only where the
//   prefix reaches the model's minimum cacheable size (promptParams.ts);
// - an idle watchdog (watchdog.ts): the SDK's timeout only covers the wait for response headers, so a stream that
//   stalls after the first byte would hang forever;
// - errors classified as LlmError (see errors.ts);
// - the SDK itself is loaded on the first request (sdk.ts), not when this module is.
import type Anthropic from '@anthropic-ai/sdk';
import type { LlmClient, LlmRequest, LlmResult } from '../../model/types';
import { LlmError, SET_KEY_HINT } from '../errors';
import { CLI_KEY_WAYS } from '../credentials';
import { toLlmErrorFromSdk as toLlmError } from './errors';
import { loadSdk } from './sdk';
import { toPromptParams } from './promptParams';
import { IdleWatchdog, watchdogMiddleware } from './watchdog';
import { ReplyAccumulator } from './replyAccumulator';

export { toMessageParam, toPromptParams, toSystemParam, type CacheMarkOptions } from './promptParams';
export { toolInput } from './replyAccumulator';

export const DEFAULT_BASE_URL = 'https://api.anthropic.com';
/** A stream that sends nothing (not even a ping) this long is stalled: the real API pings every few seconds. */
export const DEFAULT_IDLE_TIMEOUT_MS = 30_000;

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
  return raw.replace(/(?<!\/)\/+$/, '').replace(/\/v1$/, '');
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
  if (u.username || u.password) return `it must not contain a user name or password (give the key with ${CLI_KEY_WAYS})`;
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

  /** The API key (LlmClient.credential): the checks hide it in their output. */
  get credential(): string {
    return this.apiKey;
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
      // What a request that broke off used until then is billed too (its output estimated from what it streamed, as
      // no message_delta counted it): the spend counts it (costCap.ts, conversation.ts).
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
