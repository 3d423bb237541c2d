// withStepRetry and the error classification it relies on.
import * as assert from 'assert';
import { APIConnectionError, APIError, APIUserAbortError, AuthenticationError, InternalServerError, RateLimitError } from '@anthropic-ai/sdk';
import { LlmError, RETRY_NOTE, retryAfterFromHeaders } from '../../src/core/llm/errors';
import { classifySdkError, toLlmErrorFromSdk as toLlmError } from '../../src/core/llm/anthropic/errors';
import { backoffDelay, withStepRetry, type RetryInfo } from '../../src/core/llm/retry';
import { AnthropicClient } from '../../src/core/llm/anthropic/client';
import { startFakeAnthropic } from '../fake-anthropic';

const retryable = (kind: LlmError['kind'] = 'overloaded', retryAfterMs?: number) =>
  new LlmError(kind, `transient ${kind}`, { retryable: true, retryAfterMs });
const fatal = (kind: LlmError['kind'] = 'auth') => new LlmError(kind, `fatal ${kind}`, { retryable: false });

/** A sleep that records the delays and returns at once. */
function recordingSleep() {
  const delays: number[] = [];
  return { delays, sleep: async (ms: number) => void delays.push(ms) };
}

describe('withStepRetry', () => {
  it('returns the first success without retrying', async () => {
    const s = recordingSleep();
    const calls: number[] = [];
    const v = await withStepRetry(async (a) => (calls.push(a), 'ok'), { sleep: s.sleep });
    assert.strictEqual(v, 'ok');
    assert.deepStrictEqual(calls, [1]);
    assert.deepStrictEqual(s.delays, []);
  });

  it('retries retryable LlmErrors with exponential backoff and reports each retry', async () => {
    const s = recordingSleep();
    const infos: RetryInfo[] = [];
    const v = await withStepRetry(
      async (a) => {
        if (a < 3) throw retryable(a === 1 ? 'overloaded' : 'network');
        return `done on ${a}`;
      },
      { baseDelayMs: 100, sleep: s.sleep, random: () => 1, onRetry: (i) => infos.push(i) },
    );
    assert.strictEqual(v, 'done on 3');
    assert.deepStrictEqual(s.delays, [100, 200]);
    assert.deepStrictEqual(
      infos.map((i) => [i.attempt, i.error.kind, i.delayMs]),
      [
        [2, 'overloaded', 100],
        [3, 'network', 200],
      ],
    );
  });

  it('applies jitter between half and all of the exponential delay, capped by maxDelayMs', () => {
    assert.strictEqual(backoffDelay(2, 1000, 30_000, () => 0), 500);
    assert.strictEqual(backoffDelay(2, 1000, 30_000, () => 0.999999), 1000);
    assert.strictEqual(backoffDelay(4, 1000, 30_000, () => 0.5), 3000);
    assert.strictEqual(backoffDelay(10, 1000, 5000, () => 1), 5000);
  });

  it('honours retryAfterMs over the computed backoff', async () => {
    const s = recordingSleep();
    let n = 0;
    await withStepRetry(
      async () => {
        if (n++ === 0) throw retryable('rate_limit', 1234);
        return 1;
      },
      { baseDelayMs: 10, sleep: s.sleep },
    );
    assert.deepStrictEqual(s.delays, [1234]);
  });

  it('gives up after maxAttempts and throws the last error, saying the retries are exhausted', async () => {
    const s = recordingSleep();
    let calls = 0;
    await assert.rejects(
      withStepRetry(
        async (a) => {
          calls++;
          throw new LlmError('stalled', `stall #${a}`, { retryable: true });
        },
        { maxAttempts: 4, baseDelayMs: 1, sleep: s.sleep },
      ),
      (e: unknown) => e instanceof LlmError && e.kind === 'stalled' && e.message === 'stall #4 CAPE tried 4 times and gave up.' && (e.cause as LlmError).message === 'stall #4',
    );
    assert.strictEqual(calls, 4);
    assert.strictEqual(s.delays.length, 3);
  });

  for (const kind of ['auth', 'config', 'invalid_reply'] as const) {
    it(`stops immediately on a non-retryable ${kind} error`, async () => {
      const s = recordingSleep();
      let calls = 0;
      await assert.rejects(
        withStepRetry(
          async () => {
            calls++;
            throw fatal(kind);
          },
          { sleep: s.sleep },
        ),
        (e: unknown) => e instanceof LlmError && e.kind === kind,
      );
      assert.strictEqual(calls, 1);
      assert.deepStrictEqual(s.delays, []);
    });
  }

  it('never retries a cancellation, even one marked retryable', async () => {
    let calls = 0;
    await assert.rejects(
      withStepRetry(async () => {
        calls++;
        throw new LlmError('cancelled', 'cancelled', { retryable: true });
      }),
      (e: unknown) => e instanceof LlmError && e.kind === 'cancelled',
    );
    assert.strictEqual(calls, 1);
  });

  it('rethrows non-LLM errors unchanged on the first occurrence', async () => {
    const bug = new TypeError('a bug');
    let calls = 0;
    await assert.rejects(
      withStepRetry(async () => {
        calls++;
        throw bug;
      }),
      (e: unknown) => e === bug,
    );
    assert.strictEqual(calls, 1);
  });

  it('classifies raw SDK errors (classify: classifySdkError): an overloaded mid-stream APIError is retried, an AuthenticationError is not', async () => {
    const s = recordingSleep();
    let n = 0;
    const v = await withStepRetry(
      async () => {
        if (n++ === 0) {
          throw new APIError(undefined, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, undefined, new Headers());
        }
        return 'second';
      },
      { sleep: s.sleep, baseDelayMs: 5, classify: classifySdkError },
    );
    assert.strictEqual(v, 'second');
    await assert.rejects(
      withStepRetry(async () => {
        throw new AuthenticationError(401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }, undefined, new Headers());
      }, { classify: classifySdkError }),
      (e: unknown) => e instanceof LlmError && e.kind === 'auth',
    );
  });

  it('an abort before the first attempt throws cancelled without calling fn', async () => {
    const ac = new AbortController();
    ac.abort();
    let calls = 0;
    await assert.rejects(
      withStepRetry(async () => void calls++, { signal: ac.signal }),
      (e: unknown) => e instanceof LlmError && e.kind === 'cancelled',
    );
    assert.strictEqual(calls, 0);
  });

  it('an abort during the backoff wait ends it at once with cancelled', async () => {
    // The default wait (a timer of 5 to 10 s), aborted once it has begun: the step has ended by the next turn of the
    // event loop, where no timer of the backoff can have fired yet.
    const ac = new AbortController();
    let calls = 0;
    let began!: () => void;
    const waiting = new Promise<void>((r) => (began = r));
    const p = withStepRetry(
      async () => {
        calls++;
        throw retryable();
      },
      { signal: ac.signal, baseDelayMs: 10_000, onRetry: () => setImmediate(began) },
    );
    let outcome: unknown = 'still waiting';
    void p.then(
      () => (outcome = 'resolved'),
      (e: unknown) => (outcome = e),
    );
    await waiting;
    ac.abort();
    await new Promise((r) => setImmediate(r));
    assert.ok(outcome instanceof LlmError && outcome.kind === 'cancelled', `one turn after the abort: ${String(outcome)}`);
    assert.strictEqual(calls, 1);
  });

  it('turns a retryable error into cancelled when the signal was aborted meanwhile', async () => {
    const ac = new AbortController();
    await assert.rejects(
      withStepRetry(async () => {
        ac.abort();
        throw retryable('network');
      }, { signal: ac.signal }),
      (e: unknown) => e instanceof LlmError && e.kind === 'cancelled',
    );
  });

  it('end to end: 529 beyond the SDK retries, then success, through the fake server', async () => {
    const fake = await startFakeAnthropic();
    try {
      fake.enqueue({ fault: 'http', status: 529 }, { text: 'finally' });
      const client = new AnthropicClient({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 });
      const infos: RetryInfo[] = [];
      const res = await withStepRetry(
        () => client.stream({ model: 'claude-haiku-4-5', maxTokens: 64, system: [], messages: [{ role: 'user', content: 'hi' }] }, () => {}),
        { baseDelayMs: 5, onRetry: (i) => infos.push(i) },
      );
      assert.strictEqual(res.text, 'finally');
      assert.deepStrictEqual(infos.map((i) => i.error.kind), ['overloaded']);
      assert.strictEqual(fake.requests.length, 2);
    } finally {
      await fake.close();
    }
  });
});

describe('toLlmError', () => {
  const body = (type: string, message = 'm') => ({ type: 'error', error: { type, message } });

  it('401 → auth with the exact actionable message', () => {
    const e = toLlmError(new AuthenticationError(401, body('authentication_error'), undefined, new Headers({ 'request-id': 'req_1' })));
    assert.strictEqual(e.kind, 'auth');
    assert.strictEqual(e.retryable, false);
    assert.ok(
      e.message.startsWith(
        "The Anthropic API rejected the API key (401). Set a valid key: CLI ANTHROPIC_API_KEY or --api-key-file PATH; in VS Code run 'CAPE: Set Anthropic API Key'.",
      ),
      e.message,
    );
    assert.strictEqual(e.requestId, 'req_1');
  });

  it('429 → rate_limit with retry-after in seconds', () => {
    const e = toLlmError(new RateLimitError(429, body('rate_limit_error'), undefined, new Headers({ 'retry-after': '7' })));
    assert.strictEqual(e.kind, 'rate_limit');
    assert.strictEqual(e.retryable, true);
    assert.strictEqual(e.retryAfterMs, 7000);
    assert.match(e.message, /wait 7 s/);
  });

  it('reads retry-after-ms, retry-after seconds and HTTP dates', () => {
    assert.strictEqual(retryAfterFromHeaders(new Headers({ 'retry-after-ms': '250' })), 250);
    assert.strictEqual(retryAfterFromHeaders(new Headers({ 'retry-after': '1.5' })), 1500);
    const d = retryAfterFromHeaders(new Headers({ 'retry-after': new Date(Date.now() + 10_000).toUTCString() }));
    assert.ok(d !== undefined && d > 8000 && d <= 10_000, String(d));
    assert.strictEqual(retryAfterFromHeaders(new Headers({ 'retry-after': 'soon' })), undefined);
    assert.strictEqual(retryAfterFromHeaders(new Headers()), undefined);
  });

  it('529 and mid-stream overloaded_error → overloaded, retryable', () => {
    const a = toLlmError(new InternalServerError(529, body('overloaded_error'), undefined, new Headers()));
    const b = toLlmError(new APIError(undefined, body('overloaded_error'), undefined, new Headers(), 'overloaded_error'));
    for (const e of [a, b]) {
      assert.strictEqual(e.kind, 'overloaded');
      assert.strictEqual(e.retryable, true);
    }
    assert.strictEqual(a.status, 529);
    assert.strictEqual(b.status, undefined);
  });

  it('500 and mid-stream api_error → retryable server error', () => {
    const a = toLlmError(new InternalServerError(500, body('api_error', 'boom'), undefined, new Headers()));
    const b = toLlmError(new APIError(undefined, body('api_error'), undefined, new Headers()));
    assert.strictEqual(a.retryable, true);
    assert.match(a.message, /server error \(500\): boom/);
    assert.strictEqual(b.retryable, true);
    assert.strictEqual(b.apiErrorType, 'api_error');
  });

  it('400 → config, not retryable', () => {
    const e = toLlmError(new APIError(400, body('invalid_request_error', 'prompt is too long'), undefined, new Headers()));
    assert.strictEqual(e.kind, 'config');
    assert.strictEqual(e.retryable, false);
    assert.match(e.message, /prompt is too long/);
  });

  it('connection errors → network naming the base URL and the cause', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const e = toLlmError(new APIConnectionError({ cause }), { baseURL: 'http://127.0.0.1:9' });
    assert.strictEqual(e.kind, 'network');
    assert.strictEqual(e.retryable, true);
    assert.match(e.message, /http:\/\/127\.0\.0\.1:9 \(ECONNREFUSED\)/);
  });

  it('a body read cut off by a reset → network, retryable', () => {
    const reset = new TypeError('terminated', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
    const e = toLlmError(reset, { baseURL: 'http://x' });
    assert.strictEqual(e.kind, 'network');
    assert.strictEqual(e.retryable, true);
    assert.match(e.message, /lost before the reply was complete/);
  });

  it('aborts → cancelled; an LlmError passes through; anything else → unknown, not retryable', () => {
    assert.strictEqual(toLlmError(new APIUserAbortError()).kind, 'cancelled');
    assert.strictEqual(toLlmError(Object.assign(new Error('x'), { name: 'AbortError' })).kind, 'cancelled');
    const own = retryable();
    assert.strictEqual(toLlmError(own), own);
    const odd = toLlmError('weird');
    assert.strictEqual(odd.kind, 'unknown');
    assert.strictEqual(odd.retryable, false);
  });

  it('stalled() names the idle time', () => {
    const e = LlmError.stalled(60_000);
    assert.strictEqual(e.kind, 'stalled');
    assert.strictEqual(e.retryable, true);
    assert.match(e.message, /no data for 1 min/);
  });

  it('the last message of an exhausted retry never says it will be retried', async () => {
    const stalled = LlmError.stalled(30000, 'http://127.0.0.1:1');
    assert.ok(stalled.message.includes(RETRY_NOTE));
    await assert.rejects(
      withStepRetry(async () => {
        throw stalled;
      }, { maxAttempts: 3, baseDelayMs: 1, sleep: async () => undefined }),
      (e: unknown) =>
        e instanceof LlmError &&
        e.kind === 'stalled' &&
        !/retries automatically|will be retried/.test(e.message) &&
        /sent no data for 30 s.*CAPE tried 3 times and gave up\./.test(e.message),
    );
  });
});
