// What a session's spend counts, through the real SDK and the fake Messages API: a reply that broke off counts what it
// streamed (message_start's one output token would let every retry pass the cap), and the spend is on disk after
// every request (a run killed mid-step, or right after a step's record was saved, loses nothing on resume).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { AnthropicClient } from '../../src/core/llm/anthropic/client';
import { defaultPromptsDir, loadPromptAssets } from '../../src/core/cape/prompts';
import { CostTracker, capClient } from '../../src/core/llm/costCap';
import { LlmError } from '../../src/core/llm/errors';
import { costUsd } from '../../src/core/llm/pricing';
import { withStepRetry } from '../../src/core/llm/retry';
import { tokensAtMost } from '../../src/core/llm/tokens';
import type { LlmRequest, SessionEvent, Usage } from '../../src/core/model/types';
import { runSession, type SessionOptions } from '../../src/core/session/runner';
import { SessionStore, type SessionState } from '../../src/core/store';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { workspaceWithOriginalCape } from '../helpers/cli';
import { demoDir, demoReplies } from '../helpers/demo';

const MODEL = 'claude-sonnet-4-6';
const request: LlmRequest = { model: MODEL, maxTokens: 32000, system: [{ text: 'sys' }], messages: [{ role: 'user', content: 'hi' }] };

async function failure(p: Promise<unknown>): Promise<LlmError> {
  const e = await p.then(
    () => assert.fail('expected the request to fail'),
    (err: unknown) => err,
  );
  assert.ok(e instanceof LlmError, String(e));
  return e;
}

describe('spend: a reply that broke off', function () {
  this.timeout(30000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 500 }, (f) => (fake = f));
  const client = () => new AnthropicClient({ apiKey: 'k', baseURL: fake.url, idleTimeoutMs: 500, maxRetries: 0 });

  /** What request `i` used by the fake's input usage and `output` tokens. */
  function usageOf(i: number, output: number): Usage {
    const u = fake.requests[i].usage!;
    return { inputTokens: u.input_tokens, outputTokens: output, cacheCreationInputTokens: u.cache_creation_input_tokens, cacheReadInputTokens: u.cache_read_input_tokens };
  }

  for (const fault of ['reset', 'midstream-error', 'stall', 'eof'] as const) {
    it(`(${fault}) counts the output it streamed, estimated high, not message_start's one token`, async () => {
      fake.enqueue({ fault, afterChars: 4000, text: 'x'.repeat(3000) + '日本語'.repeat(1000) });
      const tracker = new CostTracker(10);
      let streamed = '';
      const e = await failure(capClient(client(), tracker, { what: () => 'x', onRecorded: () => {} }).stream(request, (d) => (streamed += d)));
      assert.strictEqual(streamed.length, 4000);
      assert.strictEqual(e.usage?.outputTokens, 1000 + 1000, 'ASCII at 3 characters a token, other characters at one');
      assert.deepStrictEqual(e.usage, usageOf(0, tokensAtMost(streamed)));
      assert.strictEqual(tracker.spentUsd, costUsd(MODEL, e.usage));
    });
  }

  it('a tool call broken off inside its input counts its name and the JSON streamed', async () => {
    const json = JSON.stringify({ path: 'src/'.repeat(300) });
    fake.enqueue({ toolCalls: [{ id: 't1', name: 'read_file', input: JSON.parse(json) }], cut: { afterChars: 900, fault: 'eof' } });
    const e = await failure(client().stream(request, () => {}));
    assert.strictEqual(e.usage?.outputTokens, tokensAtMost(`read_file ${json.slice(0, 900)}`));
  });

  it('a complete reply keeps the count the API gave', async () => {
    fake.enqueue({ text: 'y'.repeat(3000), usage: { output_tokens: 7 } });
    const res = await client().stream(request, () => {});
    assert.strictEqual(res.usage.outputTokens, 7);
  });

  it('retries of a reply that keeps breaking off are stopped by the cap before they pass it', async () => {
    // 119,000 characters ≈ 39,700 output tokens ≈ $0.60 at Sonnet's price each time; the request's worst case is $0.48.
    const reply = 'y'.repeat(120_000);
    fake.enqueue({ text: reply, fault: 'reset', afterChars: 119_000 }, { text: reply, fault: 'midstream-error', afterChars: 119_000 }, { text: reply });
    const tracker = new CostTracker(1);
    const capped = capClient(new AnthropicClient({ apiKey: 'k', baseURL: fake.url, idleTimeoutMs: 5000, maxRetries: 0 }), tracker, { what: () => 'the request', onRecorded: () => {} });
    const e = await failure(withStepRetry(() => capped.stream(request, () => {}), { baseDelayMs: 1 }));
    assert.strictEqual(e.kind, 'cost_cap');
    assert.strictEqual(fake.requests.length, 1, 'the retry that could pass the cap was not sent');
    assert.ok(tracker.spentUsd! > 0.59 && tracker.spentUsd! <= 1, `spent ${tracker.spentUsd}`);
  });
});

describe('spend: saved after every request', function () {
  this.timeout(60000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 256 }, (f) => (fake = f));
  const prompts = loadPromptAssets(defaultPromptsDir());

  function session(ws: string, taskId: string, extra: Partial<SessionOptions>) {
    const llm = new AnthropicClient({ apiKey: 'k', baseURL: fake.url, idleTimeoutMs: 5000, maxRetries: 0 });
    return runSession({ workspace: ws, objective: 'Add a dark mode', taskId, model: MODEL, llm, prompts, tools: false, maxCostUsd: 100, pauseForQuestions: false, ...extra });
  }
  const onDisk = (ws: string, taskId: string): SessionState => JSON.parse(fs.readFileSync(path.join(ws, 'cape/5_sessions/state', `${taskId}.json`), 'utf8'));
  const spentOf = (events: SessionEvent[]) => events.filter((e): e is Extract<SessionEvent, { type: 'cost' }> => e.type === 'cost').map((e) => e.spentUsd!);

  it('mid-step: the state file holds what the earlier requests of the step cost (a kill during a repair request loses only it)', async () => {
    const ws = workspaceWithOriginalCape('cape-spend-', path.join(demoDir(), 'workspace'));
    const r = demoReplies('task-sp1');
    const events: SessionEvent[] = [];
    let atRepair: number | null | undefined;
    const script = [r[0], 'not an envelope', r[1], r[2], r[3], r[4]];
    fake.setResponder((_req, i) => {
      // request 3 is POA's repair request: what a kill now would leave on disk
      if (i === 2) atRepair = onDisk(ws, 'task-sp1').costUsd;
      return { text: script[i] };
    });
    const res = await session(ws, 'task-sp1', { onEvent: (e) => events.push(e) });
    assert.ok(res.ok, res.error?.message);
    const spent = spentOf(events);
    // the cost events: the start (0), the opening, POA's first reply, its repair, …
    assert.ok(spent[2] > spent[1] && spent[1] > 0);
    assert.strictEqual(atRepair, spent[2], "POA's unusable first reply is on disk before its repair is sent");
  });

  it("a kill right after a step's record was saved: the resume adopts the step and counts what it cost", async () => {
    const ws = workspaceWithOriginalCape('cape-spend-', path.join(demoDir(), 'workspace'));
    const r = demoReplies('task-sp2');
    for (const t of r.slice(0, 2)) fake.enqueue({ text: t });
    const first: SessionEvent[] = [];
    // the process dies between POA's record and the state that lists it: no later write of the state lands
    const save = SessionStore.prototype.saveSessionState;
    SessionStore.prototype.saveSessionState = function (this: SessionStore, s: SessionState) {
      if (s.completedSteps.includes('poa')) return Promise.reject(new Error('killed'));
      return save.call(this, s);
    };
    try {
      const killed = await session(ws, 'task-sp2', { onEvent: (e) => first.push(e) });
      assert.strictEqual(killed.ok, false);
    } finally {
      SessionStore.prototype.saveSessionState = save;
    }
    assert.deepStrictEqual(onDisk(ws, 'task-sp2').completedSteps, ['cm_open']);
    const spentBeforeKill = spentOf(first).at(-1)!;
    assert.ok(spentBeforeKill > spentOf(first)[1], "POA's request is counted in memory");

    for (const t of r.slice(2)) fake.enqueue({ text: t });
    const warnings: string[] = [];
    const resumed: SessionEvent[] = [];
    const res = await session(ws, 'task-sp2', { resume: true, onEvent: (e) => resumed.push(e), onWarning: (w) => warnings.push(w) });
    assert.ok(res.ok, res.error?.message);
    assert.ok(warnings.some((w) => /Step poa was saved before the previous run stopped/.test(w)), warnings.join('\n'));
    assert.strictEqual(spentOf(resumed)[0], spentBeforeKill, 'the resume starts from everything the killed run spent');
  });
});
