// The session cost cap (issue 11 §5): the worst-case estimate of one request, the tracker, and the runner stopping
// before a repair request (not only before a step) with nothing lost and a resumable state.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { AnthropicClient } from '../../src/core/llm/anthropic/client';
import { defaultPromptsDir, loadPromptAssets } from '../../src/core/cape/prompts';
import { runSession } from '../../src/core/session/runner';
import { CostTracker, capUnenforceable, estimateRequest } from '../../src/core/llm/costCap';
import { tokensAtLeast, tokensAtMost } from '../../src/core/llm/tokens';
import { costUsd, pricedModel } from '../../src/core/llm/pricing';
import type { SessionEvent } from '../../src/core/model/types';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { workspaceWithOriginalCape } from '../helpers/cli';
import { demoDir, demoReplies } from '../helpers/demo';

const prompts = loadPromptAssets(defaultPromptsDir());

describe('cost cap: the worst-case estimate', () => {
  it('counts one token per 3 ASCII characters and one per other character (high); 4 and 2 (low)', () => {
    assert.strictEqual(tokensAtMost(''), 0);
    assert.strictEqual(tokensAtMost('abc'), 1);
    assert.strictEqual(tokensAtMost('abcd'), 2);
    assert.strictEqual(tokensAtMost('日本語'), 3);
    assert.strictEqual(tokensAtMost('ab日本'), 3);
    assert.strictEqual(tokensAtMost('😀'), 1, 'a surrogate pair is one character');
    assert.strictEqual(tokensAtLeast(''), 0);
    assert.strictEqual(tokensAtLeast('abcd'), 1);
    assert.strictEqual(tokensAtLeast('abcde'), 2);
    assert.strictEqual(tokensAtLeast('日本語'), 2);
    assert.strictEqual(tokensAtLeast('ab日本'), 2);
    for (const t of ['', 'x', 'function f() {}', '日本語のテキスト', 'mixed 日本 text 😀']) assert.ok(tokensAtLeast(t) <= tokensAtMost(t), t);
  });

  it('prices the cacheable prefix as cache writes, the rest as input, and all of max_tokens as output', () => {
    const e = estimateRequest({
      model: 'claude-sonnet-4-6',
      maxTokens: 1000,
      system: [{ text: 'x'.repeat(3000), cache: true }, { text: 'y'.repeat(300) }],
      messages: [{ role: 'user', content: 'z'.repeat(600) }],
    });
    assert.strictEqual(e.cacheableTokens, 1000);
    assert.strictEqual(e.inputTokens, 300);
    assert.strictEqual(e.outputTokens, 1000);
    // Sonnet: $3.75 / M cache writes, $3 / M input, $15 / M output.
    assert.ok(Math.abs(e.costUsd! - (1000 * 3.75 + 300 * 3 + 1000 * 15) / 1e6) < 1e-12);
  });

  it('prices a 1-hour cache mark at 2× input, the tools with the dearest mark, and a cached last message at 1.25×', () => {
    const tools = [{ name: 'read_file', description: 'x'.repeat(2990 - 'read_file  {}'.length), inputSchema: {} }];
    const e = estimateRequest({
      model: 'claude-sonnet-4-6',
      maxTokens: 0,
      system: [{ text: 'a'.repeat(3000), cache: '1h' }, { text: 'b'.repeat(3000), cache: true }, { text: 'c'.repeat(300) }],
      messages: [{ role: 'user', content: 'm'.repeat(600) }],
      tools,
      cacheLastMessage: true,
    });
    const toolTokens = Math.ceil(('read_file ' + tools[0].description + ' {}').length / 3);
    assert.strictEqual(e.cacheableTokens, 1000 + 1000 + toolTokens + 200);
    assert.strictEqual(e.inputTokens, 100);
    // Sonnet: 1-hour writes $6 / M, 5-minute writes $3.75 / M, input $3 / M.
    assert.ok(Math.abs(e.costUsd! - (1000 * 6 + 1000 * 3.75 + toolTokens * 6 + 200 * 3.75 + 100 * 3) / 1e6) < 1e-12);
  });

  it('counts tool calls, tool results and tool definitions as input', () => {
    const base = { model: 'claude-sonnet-4-6', maxTokens: 0, system: [] };
    const plain = estimateRequest({ ...base, messages: [{ role: 'user', content: 'go' }] });
    const withTools = estimateRequest({
      ...base,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'src/app.ts' } }] },
        { role: 'user', content: [{ type: 'tool_result', toolUseId: 't1', content: 'q'.repeat(3000), isError: false }] },
      ],
      tools: [{ name: 'read_file', description: 'Read a file', inputSchema: { type: 'object' } }],
    });
    assert.ok(withTools.inputTokens >= plain.inputTokens + 1000);
  });

  it('has no cost for a model without a known price, and says the cap cannot be enforced', () => {
    assert.strictEqual(estimateRequest({ model: 'gpt-4o', maxTokens: 10, system: [], messages: [] }).costUsd, null);
    assert.match(capUnenforceable(0.5, 'gpt-4o')!, /cost cap of \$0\.50 cannot be enforced: the model "gpt-4o" has no known price/);
    assert.strictEqual(capUnenforceable(0.5, 'claude-haiku-4-5'), null);
    assert.strictEqual(capUnenforceable(null, 'gpt-4o'), null);
    assert.match(capUnenforceable(0.5, 'claude-haiku-4-5', null)!, /cost cap of \$0\.50 cannot be enforced: what earlier runs of this session spent is unknown/);
    assert.strictEqual(capUnenforceable(null, 'claude-haiku-4-5', null), null);
  });

  it('a response is priced at the model that answered, else at the model asked for when only that has a price', () => {
    assert.strictEqual(pricedModel('claude-sonnet-4-5-20250929', 'claude-sonnet-4-5'), 'claude-sonnet-4-5-20250929');
    assert.strictEqual(pricedModel('corp-gateway/sonnet-latest', 'claude-sonnet-4-6'), 'claude-sonnet-4-6');
    assert.strictEqual(pricedModel('', 'claude-sonnet-4-6'), 'claude-sonnet-4-6');
    assert.strictEqual(pricedModel('local-alias', 'local-model'), 'local-alias');
    assert.strictEqual(pricedModel('', 'local-model'), 'local-model');
  });

  it('the tracker adds responses at their price, refuses a request that could pass the cap and names the figures', () => {
    const t = new CostTracker(0.1, 0.02);
    t.record('claude-sonnet-4-6', { inputTokens: 1000, outputTokens: 1000, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 });
    assert.ok(Math.abs(t.spentUsd! - (0.02 + 0.018)) < 1e-12);
    const req = { model: 'claude-sonnet-4-6', maxTokens: 5000, system: [], messages: [{ role: 'user' as const, content: 'hi' }] };
    const check = t.check(req, 'the next request (Developer)');
    assert.strictEqual(check.ok, false);
    assert.match((check as { message: string }).message, /Stopped before the next request \(Developer\) to stay within the session's cost cap of \$0\.10: \$0\.0380 spent so far, and this request could cost up to \$0\.0750/);
    assert.ok(t.check({ ...req, maxTokens: 1000 }, 'x').ok);
    assert.ok(new CostTracker(null).check(req, 'x').ok, 'no cap, no stop');
    t.record('local-model', { inputTokens: 1, outputTokens: 1, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 });
    assert.strictEqual(t.spentUsd, null, 'an unpriced response makes the spend unknown, never $0');
  });
});

describe('cost cap: the runner', function () {
  this.timeout(30000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 64 }, (f) => (fake = f));
  /** A session's options on a fresh demo workspace, through the fake server, without tools. */
  const sessionBase = (taskId: string, model = 'claude-sonnet-4-6') => ({
    workspace: workspaceWithOriginalCape('cape-costcap-', path.join(demoDir(), 'workspace')),
    model,
    llm: new AnthropicClient({ apiKey: 'k', baseURL: fake.url, idleTimeoutMs: 5000 }),
    prompts,
    taskId,
    tools: false as const,
  });

  it('stops before a repair request that could pass the cap, keeps what was spent, and resume completes', async () => {
    const r = demoReplies('task-cap');
    // The CM opening is invalid: its repair request (worst case ≥ 5,000 output tokens = $0.075) would pass a cap
    // set above the first request's worst case (about $0.10) but below what it costs ($0.048) plus the repair's worst case.
    fake.enqueue({ text: 'not an envelope', usage: { input_tokens: 1000, output_tokens: 3000, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } });
    const events: SessionEvent[] = [];
    const first = costUsd('claude-sonnet-4-6', { inputTokens: 1000, outputTokens: 3000, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 })!;
    const base = sessionBase('task-cap');
    // Room for the first request's worst case, not for a second one.
    const opening = await runSession({ ...base, objective: 'Add a dark mode', maxCostUsd: 0.13, onEvent: (e) => events.push(e) });
    assert.strictEqual(opening.ok, false);
    assert.strictEqual(opening.error?.kind, 'cost_cap');
    assert.strictEqual(opening.error?.step, 'cm_open');
    assert.strictEqual(opening.resumable, true);
    assert.strictEqual(fake.requests.length, 1, 'the repair request was never sent');
    assert.ok(events.some((e) => e.type === 'repair'), 'it stopped at the repair, not before the step');
    assert.match(opening.error!.message, /cost cap of \$0\.13: \$\d\.\d{4} spent so far, and this request could cost up to \$\d\.\d{4}/);
    assert.ok(Math.abs(opening.costUsd! - first) < 1e-9, `spent ${opening.costUsd} = the first response ${first}`);
    const costs = events.filter((e): e is Extract<SessionEvent, { type: 'cost' }> => e.type === 'cost');
    assert.deepStrictEqual(costs.map((c) => c.capUsd), [0.13, 0.13]);
    assert.strictEqual(costs[0].spentUsd, 0);
    const state = JSON.parse(fs.readFileSync(path.join(base.workspace, 'cape/5_sessions/state/task-cap.json'), 'utf8'));
    assert.strictEqual(state.status, 'failed');
    assert.ok(Math.abs(state.costUsd - first) < 1e-9, 'the spend is kept in the state for the next run');

    // Resume under a cap already nearly used by the first run: it stops before the first request.
    fake.reset();
    const tight = await runSession({ ...base, resume: true, maxCostUsd: first + 0.01 });
    assert.strictEqual(tight.error?.kind, 'cost_cap');
    assert.strictEqual(fake.requests.length, 0, 'earlier runs count: nothing is sent');

    // A higher cap completes, and the total spent includes the first run.
    fake.reset();
    for (const t of r) fake.enqueue({ text: t });
    const done = await runSession({ ...base, resume: true, maxCostUsd: 5 });
    assert.ok(done.ok, done.error?.message);
    assert.strictEqual(fake.requests.length, 5);
    assert.ok(done.costUsd! > first && done.metrics!.totalCostUsd! < done.costUsd!, 'the session cost includes the unusable first reply');
  });

  it('warns that an unpriced model cannot be capped, and runs', async () => {
    for (const t of demoReplies('task-free')) fake.enqueue({ text: t, model: 'local-model' });
    const warnings: string[] = [];
    const res = await runSession({ ...sessionBase('task-free', 'local-model'), objective: 'Add a dark mode', maxCostUsd: 0.01, onWarning: (w) => warnings.push(w) });
    assert.ok(res.ok, res.error?.message);
    assert.strictEqual(res.costUsd, null);
    assert.ok(warnings.some((w) => /cost cap of \$0\.01 cannot be enforced: the model "local-model" has no known price/.test(w)), warnings.join('\n'));
  });

  it('a response naming a gateway alias without a price is priced at the model asked for: the cap holds', async () => {
    const usage = { input_tokens: 20000, output_tokens: 4000, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    for (const t of demoReplies('task-alias')) fake.enqueue({ text: t, model: 'corp-gateway/sonnet-latest', usage });
    const warnings: string[] = [];
    const res = await runSession({ ...sessionBase('task-alias'), objective: 'Add a dark mode', maxCostUsd: 0.2, onWarning: (w) => warnings.push(w) });
    const one = costUsd('claude-sonnet-4-6', { inputTokens: 20000, outputTokens: 4000, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 })!;
    assert.strictEqual(res.error?.kind, 'cost_cap', res.error?.message);
    assert.ok(Math.abs(res.costUsd! - one) < 1e-9, `spent ${res.costUsd}, one request at Sonnet's price is ${one}`);
    assert.strictEqual(fake.requests.length, 1);
    assert.ok(!warnings.some((w) => /cannot be enforced/.test(w)), warnings.join('\n'));
  });

  it("a session answered under a gateway alias has its cost in the metrics and the steps' records, as the cap counted it", async () => {
    for (const t of demoReplies('task-alias2')) fake.enqueue({ text: t, model: 'corp-gateway/sonnet-latest' });
    const res = await runSession({ ...sessionBase('task-alias2'), objective: 'Add a dark mode' });
    assert.ok(res.ok, res.error?.message);
    assert.ok(res.costUsd! > 0);
    assert.ok(Math.abs(res.metrics!.totalCostUsd! - res.costUsd!) < 1e-9, `metrics ${res.metrics!.totalCostUsd} vs spent ${res.costUsd}`);
  });

  it('resuming under a cap a session whose earlier spend is unknown says the cap cannot be enforced', async () => {
    const r = demoReplies('task-unknown');
    fake.enqueue({ text: r[0] }, { text: 'not an envelope' }, { text: 'still not an envelope' });
    const base = sessionBase('task-unknown');
    const failed = await runSession({ ...base, objective: 'Add a dark mode' });
    assert.strictEqual(failed.error?.kind, 'invalid_reply');
    // what an earlier version wrote for a response from a model without a price
    const file = path.join(base.workspace, 'cape/5_sessions/state/task-unknown.json');
    fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), costUsd: null }));
    for (const t of r.slice(1)) fake.enqueue({ text: t });
    const warnings: string[] = [];
    const res = await runSession({ ...base, resume: true, maxCostUsd: 5, onWarning: (w) => warnings.push(w) });
    assert.ok(res.ok, res.error?.message);
    assert.strictEqual(warnings.filter((w) => /cost cap of \$5\.00 cannot be enforced: what earlier runs of this session spent is unknown/.test(w)).length, 1, warnings.join('\n'));
  });
});
