// The VS Code Language Model adapter (src/providers/lmClient.ts) with a fake chat model: streaming, system
// prompt placement, abort through the cancellation source, stalls, error mapping, usage; plus base-URL rules.
import * as assert from 'assert';
import { LlmError } from '../../src/core/llm/errors';
import { tokensAtLeast } from '../../src/core/llm/tokens';
import { AGENT_NAME, type LlmRequest } from '../../src/core/model/types';
import { DEFAULT_LM_JUSTIFICATION, LmClient, toLmMessages, type LmChatModelLike } from '../../src/providers/lmClient';
import { lmError } from '../../src/providers/lmErrors';
import { matchChatModel } from '../../src/providers/chatModelMatch';
import { effectiveBaseUrl, isLoopbackBaseUrl } from '../../src/providers/baseUrl';

type Msg = { role: 'user' | 'assistant'; text: string };

class FakeCts {
  cancelled = false;
  disposed = false;
  private listeners: (() => void)[] = [];
  readonly token = { onCancellationRequested: (l: () => void) => this.listeners.push(l), isCancellationRequested: () => this.cancelled };
  cancel() {
    if (this.cancelled) return;
    this.cancelled = true;
    this.listeners.forEach((l) => l());
  }
  dispose() {
    this.disposed = true;
  }
}

interface FakeOpts {
  chunks?: string[];
  delayMs?: number;
  /** Stop sending after this many chunks and wait for cancellation (a stall). */
  stallAfter?: number;
  /** Stop sending after this many chunks and never end, not even on cancellation (a stream that ignores its token). */
  hangAfter?: number;
  /** Throw this from sendRequest. */
  sendError?: unknown;
  /** Throw this from the stream after the chunks. */
  streamError?: unknown;
  countTokens?: ((t: string) => Promise<number>) | null;
}

function fakeModel(o: FakeOpts) {
  const sent: { messages: Msg[]; options: unknown; cts: FakeCts }[] = [];
  const sources: FakeCts[] = [];
  const model: LmChatModelLike<Msg> = {
    id: 'fake-id',
    name: 'Fake Model',
    vendor: 'test',
    family: 'fake-family',
    maxInputTokens: 100_000,
    async sendRequest(messages, options) {
      const cts = sources[sources.length - 1];
      sent.push({ messages, options, cts });
      if (o.sendError) throw o.sendError;
      async function* gen() {
        const chunks = o.chunks ?? [];
        for (let i = 0; i < chunks.length; i++) {
          if (o.hangAfter !== undefined && i >= o.hangAfter) await new Promise<void>(() => undefined);
          if (o.stallAfter !== undefined && i >= o.stallAfter) {
            await new Promise<void>((resolve) => cts.token.onCancellationRequested(resolve));
            throw Object.assign(new Error('Canceled'), { name: 'Canceled' });
          }
          if (o.delayMs) await new Promise((r) => setTimeout(r, o.delayMs));
          if (cts.cancelled) throw Object.assign(new Error('Canceled'), { name: 'Canceled' });
          yield chunks[i];
        }
        if (o.streamError) throw o.streamError;
      }
      return { text: gen() };
    },
    ...(o.countTokens === null ? {} : { countTokens: o.countTokens ?? (async (t: string) => t.split(/\s+/).filter(Boolean).length) }),
  };
  const host = {
    user: (text: string): Msg => ({ role: 'user', text }),
    assistant: (text: string): Msg => ({ role: 'assistant', text }),
    cancellationSource: () => {
      const c = new FakeCts();
      sources.push(c);
      return c;
    },
  };
  return { model, host, sent, sources };
}

const req = (over: Partial<LlmRequest> = {}): LlmRequest => ({
  model: 'ignored',
  maxTokens: 100,
  system: [{ text: 'You are CM.', cache: true }, { text: 'Be brief.' }],
  messages: [{ role: 'user', content: 'Objective: build it' }],
  ...over,
});

describe('VS Code LM client', () => {
  it("the consent dialog's justification names the team as AGENT_NAME does", () => {
    assert.match(DEFAULT_LM_JUSTIFICATION, /^CAPE runs its AI product team \(.+\) with this model\.$/);
    for (const name of Object.values(AGENT_NAME)) assert.ok(DEFAULT_LM_JUSTIFICATION.includes(name), name);
  });

  it('streams text deltas in order and returns the whole text with counted usage', async () => {
    const f = fakeModel({ chunks: ['Hello ', 'wide ', 'world'] });
    const deltas: string[] = [];
    const res = await new LmClient(f.model, f.host).stream(req(), (d) => deltas.push(d));
    assert.deepStrictEqual(deltas, ['Hello ', 'wide ', 'world']);
    assert.strictEqual(res.text, 'Hello wide world');
    assert.strictEqual(res.model, 'fake-id');
    assert.strictEqual(res.usage.outputTokens, 3);
    // system (3 + 2 words, joined into the first user message with a rule) + objective (3 words)
    assert.strictEqual(res.usage.inputTokens, 'You are CM.\n\nBe brief.\n\n---\n\nObjective: build it'.split(/\s+/).filter(Boolean).length);
    assert.strictEqual(res.usage.cacheReadInputTokens, 0);
    assert.ok(f.sources[0].disposed, 'the cancellation source is disposed');
  });

  it('falls back to a chars/4 estimate when the model cannot count tokens', async () => {
    const f = fakeModel({ chunks: ['x'.repeat(40)], countTokens: null });
    const res = await new LmClient(f.model, f.host).stream(req({ system: [] }), () => undefined);
    assert.strictEqual(res.usage.outputTokens, 10);
    assert.strictEqual(res.usage.inputTokens, tokensAtLeast('Objective: build it'));
  });

  it('puts the system prompt in front of the first user message (the LM API has no system role)', () => {
    const m = toLmMessages(req({ messages: [{ role: 'user', content: 'Q1' }, { role: 'assistant', content: 'A1' }, { role: 'user', content: 'Q2' }] }));
    assert.deepStrictEqual(m.map((x) => x.role), ['user', 'assistant', 'user']);
    assert.ok(m[0].content.startsWith('You are CM.\n\nBe brief.'));
    assert.ok(m[0].content.endsWith('Q1'));
    const a = toLmMessages(req({ messages: [{ role: 'assistant', content: 'A0' }] }));
    assert.deepStrictEqual(a.map((x) => x.role), ['user', 'assistant']);
    assert.deepStrictEqual(toLmMessages(req({ system: [{ text: '' }] })), [{ role: 'user', content: 'Objective: build it' }]);
  });

  it('aborting the signal cancels the token and rejects with a cancelled LlmError without waiting for the stream', async () => {
    // After two chunks the stream never ends, whatever its token says: only a client that stops waiting on abort rejects.
    const f = fakeModel({ chunks: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], delayMs: 30, hangAfter: 2 });
    const ac = new AbortController();
    const deltas: string[] = [];
    const p = new LmClient(f.model, f.host).stream(req({ signal: ac.signal }), (d) => {
      deltas.push(d);
      if (deltas.length === 2) ac.abort();
    });
    await assert.rejects(p, (e: unknown) => e instanceof LlmError && e.kind === 'cancelled');
    assert.ok(f.sources[0].cancelled, 'the CancellationTokenSource was cancelled');
    assert.deepStrictEqual(deltas, ['a', 'b']);
  });

  it('an already aborted signal never sends a request', async () => {
    const f = fakeModel({ chunks: ['a'] });
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(new LmClient(f.model, f.host).stream(req({ signal: ac.signal }), () => undefined), (e: unknown) => (e as LlmError).kind === 'cancelled');
    assert.strictEqual(f.sent.length, 0);
  });

  it('a stream that stops sending is aborted by the idle watchdog as a retryable stall', async () => {
    const f = fakeModel({ chunks: ['a', 'b', 'c'], stallAfter: 1 });
    const p = new LmClient(f.model, f.host, { idleTimeoutMs: 80 }).stream(req(), () => undefined);
    await assert.rejects(p, (e: unknown) => e instanceof LlmError && e.kind === 'stalled' && e.retryable && /Fake Model/.test(e.message));
    assert.ok(f.sources[0].cancelled);
  });

  it('the idle watchdog starts once the request is under way, not while VS Code waits for the user’s consent', async () => {
    const f = fakeModel({ chunks: ['ok'] });
    let allow: () => void = () => undefined;
    const consent = new Promise<void>((r) => (allow = r));
    const send = f.model.sendRequest.bind(f.model);
    const model: LmChatModelLike<Msg> = { ...f.model, sendRequest: async (m, o, t) => (await consent, send(m, o, t)) };
    const p = new LmClient(model, f.host, { idleTimeoutMs: 40 }).stream(req(), () => undefined);
    await new Promise((r) => setTimeout(r, 200)); // the user reads the dialog for five idle periods
    allow();
    assert.strictEqual((await p).text, 'ok');
  });

  it('maps LanguageModelError codes to actionable LlmErrors', async () => {
    const cases: [string, string, RegExp][] = [
      ['NoPermissions', 'auth', /did not allow CAPE/],
      ['Blocked', 'rate_limit', /quota or rate limit/],
      ['NotFound', 'config', /no longer available/],
    ];
    for (const [code, kind, re] of cases) {
      const f = fakeModel({ sendError: Object.assign(new Error('nope'), { code }) });
      await assert.rejects(new LmClient(f.model, f.host).stream(req(), () => undefined), (e: unknown) => {
        assert.ok(e instanceof LlmError);
        assert.strictEqual(e.kind, kind);
        assert.match(e.message, re);
        assert.match(e.message, /Select Model/);
        return true;
      });
    }
    const mid = fakeModel({ chunks: ['a'], streamError: new Error('socket closed') });
    await assert.rejects(new LmClient(mid.model, mid.host).stream(req(), () => undefined), (e: unknown) => e instanceof LlmError && e.kind === 'unknown' && e.retryable);
    assert.strictEqual(lmError(Object.assign(new Error('x'), { name: 'Canceled' }), 'm').kind, 'cancelled');
  });

  it('an exception thrown by onText is rethrown as is and ends the request', async () => {
    const f = fakeModel({ chunks: ['a', 'b', 'c'] });
    const boom = new Error('consumer failed');
    await assert.rejects(
      new LmClient(f.model, f.host).stream(req(), () => {
        throw boom;
      }),
      (e: unknown) => e === boom,
    );
    assert.ok(f.sources[0].cancelled);
  });
});

describe('matchChatModel', () => {
  const models = [
    { id: 'copilot-gpt-4o', family: 'gpt-4o', name: 'GPT-4o' },
    { id: 'copilot-claude-sonnet-4.5', family: 'claude-sonnet-4.5', name: 'Claude Sonnet 4.5' },
    { id: 'copilot-claude-haiku-4.5', family: 'claude-haiku-4.5', name: 'Claude Haiku 4.5' },
  ];
  it('prefers the exact id, then the family, then a partial match', () => {
    assert.strictEqual(matchChatModel(models, 'copilot-gpt-4o')?.model.id, 'copilot-gpt-4o');
    assert.strictEqual(matchChatModel(models, 'claude-haiku-4.5')?.model.id, 'copilot-claude-haiku-4.5');
    const partial = matchChatModel(models, 'claude-sonnet-4-5');
    assert.strictEqual(partial?.model.id, 'copilot-claude-sonnet-4.5');
    assert.strictEqual(partial?.matched, true);
  });
  it('falls back to the first model (matched false), or undefined with no models', () => {
    assert.deepStrictEqual(matchChatModel(models, 'llama-70b'), { model: models[0], matched: false });
    assert.strictEqual(matchChatModel([], 'x'), undefined);
  });
});

describe('base URL rules', () => {
  it('loopback hosts need no key', () => {
    for (const u of ['http://127.0.0.1:8080', 'http://127.1.2.3', 'http://localhost:3000/v1', 'http://[::1]:9000', 'http://api.localhost']) {
      assert.ok(isLoopbackBaseUrl(u), u);
    }
    for (const u of ['https://api.anthropic.com', 'http://127.0.0.1.evil.com', 'http://localhost.evil.com', 'http://10.0.0.1', 'not a url', '']) {
      assert.ok(!isLoopbackBaseUrl(u), u);
    }
  });
  it('effectiveBaseUrl: default, /v1 and slashes removed, bad values named', () => {
    assert.strictEqual(effectiveBaseUrl(''), 'https://api.anthropic.com');
    assert.strictEqual(effectiveBaseUrl('  http://127.0.0.1:9/v1/ '), 'http://127.0.0.1:9');
    assert.throws(() => effectiveBaseUrl('api.example.com'), /cape\.baseUrl/);
    assert.throws(() => effectiveBaseUrl('ftp://x.example'), /http\(s\)/);
  });
});
