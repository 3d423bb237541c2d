// AnthropicClient over real HTTP (the real @anthropic-ai/sdk) against the local fake Messages API.
import * as assert from 'assert';
import { AnthropicClient, normalizeBaseURL, toSystemParam, validateApiKey } from '../../src/core/llm/anthropic/client';
import { LlmError } from '../../src/core/llm/errors';
import { withStepRetry } from '../../src/core/llm/retry';
import type { LlmRequest } from '../../src/core/model/types';
import { FakeAnthropic, startFakeAnthropic } from '../fake-anthropic';

const KEY = 'sk-ant-test-key';
const MODEL = 'claude-sonnet-4-6';

function request(over: Partial<LlmRequest> = {}): LlmRequest {
  return {
    model: MODEL,
    maxTokens: 1024,
    system: [
      // 4,680 characters ≈ 1,170 tokens: above Sonnet 4.x's minimum cacheable prefix (1,024), so a cache forms.
      { text: 'Shared preamble: protocol and culture. '.repeat(120), cache: true },
      { text: 'Role prompt for this step.' },
    ],
    messages: [{ role: 'user', content: 'Objective: let users edit an existing task.' }],
    ...over,
  };
}

async function expectLlmError(p: Promise<unknown>): Promise<LlmError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof LlmError, `expected an LlmError, got ${(e as Error)?.constructor?.name}: ${(e as Error)?.message}`);
    return e;
  }
  assert.fail('expected the call to fail');
}

describe('AnthropicClient (real SDK against the fake Messages API)', () => {
  let fake: FakeAnthropic;

  before(async () => {
    fake = await startFakeAnthropic({ apiKey: KEY, chunkSize: 7 });
  });
  afterEach(() => fake.reset());
  after(() => fake.close());

  const client = (over: Partial<ConstructorParameters<typeof AnthropicClient>[0]> = {}) =>
    new AnthropicClient({ apiKey: KEY, baseURL: fake.url, ...over });

  it('streams text deltas in order and returns the full text, model and stop reason', async () => {
    const text = 'Hello — 日本語のテキスト 🎉 with an emoji and {"json": true} in several chunks.';
    fake.enqueue({ text });
    const deltas: string[] = [];
    const res = await client().stream(request(), (d) => deltas.push(d));
    assert.ok(deltas.length > 3, `expected several deltas, got ${deltas.length}`);
    assert.strictEqual(deltas.join(''), text);
    assert.strictEqual(res.text, text);
    assert.strictEqual(res.stopReason, 'end_turn');
    assert.strictEqual(res.model, MODEL);
  });

  it('captures usage including cache creation on the first call and cache reads on the next', async () => {
    fake.enqueue({ text: 'first reply' }, { text: 'second reply', usage: { output_tokens: 42 } });
    const c = client();
    const first = await c.stream(request(), () => {});
    const second = await c.stream(request({ messages: [{ role: 'user', content: 'A different question.' }] }), () => {});
    assert.ok(first.usage.cacheCreationInputTokens > 0, 'first call writes the cache');
    assert.strictEqual(first.usage.cacheReadInputTokens, 0);
    assert.ok(first.usage.inputTokens > 0);
    assert.strictEqual(first.usage.outputTokens, Math.ceil('first reply'.length / 4));
    assert.strictEqual(second.usage.cacheReadInputTokens, first.usage.cacheCreationInputTokens, 'second call reads the cached prefix');
    assert.strictEqual(second.usage.cacheCreationInputTokens, 0);
    assert.strictEqual(second.usage.outputTokens, 42);
  });

  it('sends cache_control only on the cacheable system block, and the messages as given', async () => {
    fake.enqueue({ text: 'ok' });
    await client().stream(request(), () => {});
    const body = fake.requests[0].body;
    assert.strictEqual(body.stream, true);
    assert.strictEqual(body.max_tokens, 1024);
    assert.strictEqual(body.system.length, 2);
    assert.deepStrictEqual(body.system[0].cache_control, { type: 'ephemeral' });
    assert.strictEqual(body.system[1].cache_control, undefined);
    assert.strictEqual(body.system[1].text, 'Role prompt for this step.');
    assert.deepStrictEqual(body.messages, [{ role: 'user', content: 'Objective: let users edit an existing task.' }]);
  });

  it('toSystemParam drops empty blocks, keeps their cache mark, and caps breakpoints at four', () => {
    const out = toSystemParam([
      { text: 'a', cache: true },
      { text: 'b', cache: true },
      { text: 'c', cache: true },
      { text: 'd', cache: true },
      { text: 'e' },
      { text: '', cache: true },
      { text: 'f' },
    ]);
    assert.deepStrictEqual(
      out.map((b) => b.text + (b.cache_control ? '*' : '')),
      ['a', 'b*', 'c*', 'd*', 'e*', 'f'],
    );
  });

  it('sends the given key and honours the given base URL even when ANTHROPIC_* variables point elsewhere', async () => {
    const saved = { key: process.env.ANTHROPIC_API_KEY, url: process.env.ANTHROPIC_BASE_URL, tok: process.env.ANTHROPIC_AUTH_TOKEN };
    process.env.ANTHROPIC_API_KEY = 'sk-ant-from-environment';
    process.env.ANTHROPIC_AUTH_TOKEN = 'token-from-environment';
    process.env.ANTHROPIC_BASE_URL = 'http://127.0.0.1:9'; // nothing listens there
    try {
      fake.enqueue({ text: 'ok' });
      const res = await new AnthropicClient({ apiKey: KEY, baseURL: fake.url + '/v1/' }).stream(request(), () => {});
      assert.strictEqual(res.text, 'ok');
      assert.strictEqual(fake.requests.length, 1);
      assert.strictEqual(fake.requests[0].apiKey, KEY);
      assert.ok(!JSON.stringify(fake.requests[0].headers).includes('environment'), 'no credential from the environment is sent');
    } finally {
      for (const [name, v] of [['ANTHROPIC_API_KEY', saved.key], ['ANTHROPIC_BASE_URL', saved.url], ['ANTHROPIC_AUTH_TOKEN', saved.tok]] as const) {
        if (v === undefined) delete process.env[name];
        else process.env[name] = v;
      }
    }
  });

  it('normalizes base URLs', () => {
    assert.strictEqual(normalizeBaseURL(undefined), 'https://api.anthropic.com');
    assert.strictEqual(normalizeBaseURL('http://h:1/v1/'), 'http://h:1');
    assert.strictEqual(normalizeBaseURL('http://h:1/proxy/'), 'http://h:1/proxy');
  });

  it('refuses an empty key before any request, with the set-key hint', () => {
    assert.throws(
      () => new AnthropicClient({ apiKey: '  ', baseURL: fake.url }),
      (e: unknown) => e instanceof LlmError && e.kind === 'auth' && /CAPE: Set Anthropic API Key/.test(e.message),
    );
  });

  it('401 → auth error, not retried, message mentions the key', async () => {
    const e = await expectLlmError(new AnthropicClient({ apiKey: 'sk-ant-wrong', baseURL: fake.url }).stream(request(), () => {}));
    assert.strictEqual(e.kind, 'auth');
    assert.strictEqual(e.status, 401);
    assert.strictEqual(e.retryable, false);
    assert.match(e.message, /rejected the API key \(401\)/);
    assert.match(e.message, /ANTHROPIC_API_KEY or --api-key-file PATH/);
    assert.strictEqual(fake.requests.length, 1, 'the SDK must not retry a 401');
  });

  it('429 with retry-after → the SDK waits as asked, retries and succeeds', async () => {
    // 1 s: twice the SDK's own first backoff (0.375 to 0.5 s), so a retry that ignored the header comes too early.
    // Only a lower bound: a loaded machine can make the wait longer, never shorter.
    fake.enqueue({ fault: 'http', status: 429, retryAfter: 1 }, { text: 'after the wait' });
    const res = await client().stream(request(), () => {});
    const waited = fake.requests[1].receivedAt - fake.requests[0].receivedAt;
    assert.strictEqual(res.text, 'after the wait');
    assert.strictEqual(fake.requests.length, 2);
    assert.ok(waited >= 980, `retried after ${waited} ms, expected ≥ 1000`);
  });

  it('429 that outlasts the SDK retries → rate_limit, retryable, with retryAfterMs', async () => {
    fake.enqueue({ fault: 'http', status: 429, retryAfter: 0.05 });
    const e = await expectLlmError(client({ maxRetries: 0 }).stream(request(), () => {}));
    assert.strictEqual(e.kind, 'rate_limit');
    assert.strictEqual(e.retryable, true);
    assert.strictEqual(e.retryAfterMs, 50);
    assert.ok(e.requestId, 'request-id is kept');
  });

  it('529 → overloaded, retryable', async () => {
    fake.enqueue({ fault: 'http', status: 529 });
    const e = await expectLlmError(client({ maxRetries: 0 }).stream(request(), () => {}));
    assert.strictEqual(e.kind, 'overloaded');
    assert.strictEqual(e.status, 529);
    assert.strictEqual(e.retryable, true);
    assert.match(e.message, /overloaded/);
  });

  it('500 → retried by the SDK and succeeds', async () => {
    fake.enqueue({ fault: 'http', status: 500, retryAfter: 0 }, { text: 'recovered' });
    const res = await client().stream(request(), () => {});
    assert.strictEqual(res.text, 'recovered');
    assert.strictEqual(fake.requests.length, 2);
  });

  it('400 → config error, not retryable, carrying the API message', async () => {
    fake.enqueue({ fault: 'http', status: 400, message: 'model: unknown model "claude-nope"' });
    const e = await expectLlmError(client().stream(request(), () => {}));
    assert.strictEqual(e.kind, 'config');
    assert.strictEqual(e.retryable, false);
    assert.match(e.message, /claude-nope/);
    assert.match(e.message, /Check the model name and settings/);
    assert.strictEqual(fake.requests.length, 1);
  });

  it('a 400 about the conversation says to resume and report it, not to check the settings', async () => {
    fake.enqueue({ fault: 'http', status: 400, message: 'messages.3.content.0: unexpected `tool_use_id` found in `tool_result` blocks' });
    const e = await expectLlmError(client().stream(request(), () => {}));
    assert.strictEqual(e.kind, 'config');
    assert.match(e.message, /conversation CAPE sent was refused: resume the session/);
    assert.doesNotMatch(e.message, /model name/);
  });

  it('mid-stream overloaded_error event → retryable LlmError; withStepRetry succeeds on the next attempt', async () => {
    fake.enqueue({ fault: 'midstream-error', afterChars: 20, errorType: 'overloaded_error' }, { text: 'complete reply' });
    const c = client();
    const seen: string[] = [];
    const retries: string[] = [];
    const res = await withStepRetry(
      (attempt) => c.stream(request(), (d) => seen.push(`${attempt}:${d}`)),
      { baseDelayMs: 10, onRetry: (i) => retries.push(`${i.attempt}:${i.error.kind}:${i.error.retryable}`) },
    );
    assert.strictEqual(res.text, 'complete reply');
    assert.deepStrictEqual(retries, ['2:overloaded:true']);
    assert.ok(seen.some((s) => s.startsWith('1:')), 'the first attempt streamed some text before failing');
  });

  it('mid-stream api_error event → retryable server error', async () => {
    fake.enqueue({ fault: 'midstream-error', afterChars: 5, errorType: 'api_error' });
    const e = await expectLlmError(client().stream(request(), () => {}));
    assert.strictEqual(e.kind, 'unknown');
    assert.strictEqual(e.status, undefined);
    assert.strictEqual(e.retryable, true);
    assert.strictEqual(e.apiErrorType, 'api_error');
  });

  it('stall after the first bytes → stalled within the idle timeout, retryable', async () => {
    fake.enqueue({ fault: 'stall', afterChars: 12 });
    const deltas: string[] = [];
    const t0 = Date.now();
    const e = await expectLlmError(client({ idleTimeoutMs: 300 }).stream(request(), (d) => deltas.push(d)));
    const took = Date.now() - t0;
    assert.strictEqual(e.kind, 'stalled');
    assert.strictEqual(e.retryable, true);
    assert.match(e.message, /no data for 300 ms/);
    assert.ok(deltas.join('').length === 12, 'the text before the stall was delivered');
    // The stalled stream never ends by itself: the error at all is the watchdog's; it cannot fire before the timeout.
    assert.ok(took >= 280, `stall detected after ${took} ms`);
  });

  it('pings keep a slow stream alive past the idle timeout', async () => {
    // Each gap between text chunks (2.5 s) outlasts the idle timeout (1.5 s), so only the pings (every 0.1 s) keep the
    // stream alive; the margin between ping and timeout absorbs a loaded machine's timer lag (300 ms did not).
    fake.enqueue({ text: 'slow but alive', chunkSize: 7, chunkDelayMs: 2500, pingEveryMs: 100 });
    const res = await client({ idleTimeoutMs: 1500 }).stream(request(), () => {});
    assert.strictEqual(res.text, 'slow but alive');
  });

  it('the watchdog does not fire while the SDK waits out a retry-after', async () => {
    // the wait (3 s) is twice the idle timeout (1.5 s), which still leaves a loaded machine room for the reply itself
    fake.enqueue({ fault: 'http', status: 429, retryAfter: 3 }, { text: 'patient' });
    const res = await client({ idleTimeoutMs: 1500 }).stream(request(), () => {});
    assert.strictEqual(res.text, 'patient');
  });

  it('connection reset mid-stream → network error, retryable; withStepRetry retries and succeeds', async () => {
    fake.enqueue({ fault: 'reset', afterChars: 10 });
    const e = await expectLlmError(client().stream(request(), () => {}));
    assert.strictEqual(e.kind, 'network');
    assert.strictEqual(e.retryable, true);
    assert.ok(e.message.includes(fake.url), 'the message names the base URL');

    fake.enqueue({ fault: 'reset', afterChars: 10 }, { text: 'second try' });
    const c = client();
    let attempts = 0;
    const res = await withStepRetry((a) => ((attempts = a), c.stream(request(), () => {})), { baseDelayMs: 10 });
    assert.strictEqual(res.text, 'second try');
    assert.strictEqual(attempts, 2);
  });

  it('stream that ends without message_stop → network error, retryable', async () => {
    fake.enqueue({ fault: 'eof', afterChars: 8 });
    const e = await expectLlmError(client().stream(request(), () => {}));
    assert.strictEqual(e.kind, 'network');
    assert.strictEqual(e.retryable, true);
  });

  it('connection refused → network error naming the base URL', async () => {
    const dead = await startFakeAnthropic();
    const url = dead.url;
    await dead.close();
    const e = await expectLlmError(new AnthropicClient({ apiKey: KEY, baseURL: url, maxRetries: 0 }).stream(request(), () => {}));
    assert.strictEqual(e.kind, 'network');
    assert.strictEqual(e.retryable, true);
    assert.ok(e.message.includes(url), e.message);
    assert.match(e.message, /ECONNREFUSED/);
  });

  it('abort via AbortSignal mid-stream → cancelled and not retried', async () => {
    // The reply holds after 40 characters and is never released: only the client's abort can end this request.
    fake.enqueue({ text: 'x'.repeat(400), chunkSize: 4, chunkDelayMs: 20, holdAfterChars: 40 }, { text: 'must not be requested' });
    const ac = new AbortController();
    const c = client();
    let attempts = 0;
    let abortedAt = 0;
    const p = withStepRetry(
      (a) => {
        attempts = a;
        return c.stream(request({ signal: ac.signal }), () => {
          if (!abortedAt) {
            abortedAt = Date.now();
            setTimeout(() => ac.abort(), 30);
          }
        });
      },
      { signal: ac.signal, baseDelayMs: 10 },
    );
    const e = await expectLlmError(p);
    assert.strictEqual(e.kind, 'cancelled');
    assert.strictEqual(e.retryable, false);
    assert.strictEqual(attempts, 1);
    assert.ok(abortedAt > 0, 'aborted after the first text arrived');
    assert.strictEqual(fake.requests.length, 1);
  });

  it('an already-aborted signal fails before any request', async () => {
    const ac = new AbortController();
    ac.abort();
    const e = await expectLlmError(client().stream(request({ signal: ac.signal }), () => {}));
    assert.strictEqual(e.kind, 'cancelled');
    assert.strictEqual(fake.requests.length, 0);
  });

  it('an exception thrown by onText ends the request and is rethrown unchanged', async () => {
    fake.enqueue({ text: 'some text that streams in chunks' });
    const boom = new Error('consumer failed');
    await assert.rejects(
      client().stream(request(), () => {
        throw boom;
      }),
      (e: unknown) => e === boom,
    );
  });

  it('validateApiKey resolves for a good key with a max_tokens 1 request', async () => {
    fake.enqueue({ text: 'p' });
    await validateApiKey({ apiKey: KEY, baseURL: fake.url, model: MODEL });
    assert.strictEqual(fake.requests.length, 1);
    assert.strictEqual(fake.requests[0].maxTokens, 1);
    assert.strictEqual(fake.requests[0].stream, false);
  });

  it('validateApiKey throws an auth LlmError for a rejected key', async () => {
    const e = await expectLlmError(validateApiKey({ apiKey: 'sk-ant-bad', baseURL: fake.url, model: MODEL }));
    assert.strictEqual(e.kind, 'auth');
    assert.strictEqual(e.status, 401);
    assert.strictEqual(fake.requests.length, 1);
  });
});
