// Faults of a step's conversation with tools, through the real SDK and the fake Messages API: what the model's
// tool_use blocks can look like when something goes wrong (input that is not JSON or not an object, a call cut at the
// output limit, ids used twice, block types we do not know, a stream that breaks inside a call), and what must hold
// after each one: the next request is one the API accepts (every tool_use answered by exactly one tool_result, the
// fake checks the API's rules), the model is told what was wrong, and the step's records say what was asked.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { AnthropicClient } from '../../src/core/llm/anthropic/client';
import { CostTracker, capClient } from '../../src/core/llm/costCap';
import { LlmError } from '../../src/core/llm/errors';
import { costUsd } from '../../src/core/llm/pricing';
import { tokensAtMost } from '../../src/core/llm/tokens';
import { MAX_TURNS_PAST_LIMIT, runToolLoop } from '../../src/core/llm/toolLoop';
import type { ChatMessage, LlmRequest, StepId } from '../../src/core/model/types';
import { ToolRunner } from '../../src/core/tools/executor';
import { TOOL_SPECS } from '../../src/core/tools/specs';
import { messageShapeError, toolPairingError, type FakeAnthropic } from '../fake-anthropic';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { tempDir, workspaceWithOriginalCape } from '../helpers/cli';
import { demoDir, demoReplies } from '../helpers/demo';
import { defaultPromptsDir, loadPromptAssets } from '../../src/core/cape/prompts';
import { runSession, type SessionOptions } from '../../src/core/session/runner';
import { SessionStore } from '../../src/core/store';
import { askAnswer } from '../../src/core/session/blockers';

function request(messages: ChatMessage[], toolChoice: 'auto' | 'none'): LlmRequest {
  return { model: 'claude-sonnet-4-6', maxTokens: 1024, system: [{ text: 'sys' }], messages, tools: [...TOOL_SPECS], toolChoice };
}

describe('tool faults: malformed tool_use blocks and broken streams', function () {
  this.timeout(30000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ apiKey: 'k', chunkSize: 5 }, (f) => (fake = f));

  function workspace(): string {
    const ws = tempDir('cape-toolfaults-');
    fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'src', 'app.ts'), 'export const app = 1;\n');
    fs.writeFileSync(path.join(ws, 'src', 'a.ts'), 'export const a = 2;\n');
    return ws;
  }

  /** One step's tool loop, as the session runs it: the real client, a real ToolRunner over a small workspace. */
  async function loop(): Promise<{ text: string; tools: ToolRunner }> {
    const client = new AnthropicClient({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 });
    const tools = new ToolRunner({ workspace: workspace() });
    const out = await runToolLoop({
      messages: [{ role: 'user', content: 'go' }],
      send: (m, choice) => client.stream(request(m, choice), () => {}),
      execute: (calls) => tools.execute(calls),
      spent: () => tools.spent(),
    });
    // every request sent follows the API's rules (the fake answers 400 otherwise, so this only names the rule)
    for (const r of fake.requests) {
      assert.strictEqual(toolPairingError(r.body), null);
      assert.strictEqual(messageShapeError(r.body), null);
    }
    return { text: out.result.text, tools };
  }

  it('input_json_delta pieces that join to invalid JSON: the call is refused with the reason, the conversation goes on', async () => {
    fake.enqueue({ toolCalls: [{ id: 'j1', name: 'read_file', input: null, json: '{"path": "src/app.ts",,}' }, { id: 'j2', name: 'read_file', input: { path: 'src/a.ts' } }] }, { text: 'done' });
    const { text, tools } = await loop();
    assert.strictEqual(text, 'done');
    assert.deepStrictEqual(fake.toolResults.map((r) => [r.toolUseId, r.isError]), [['j1', true], ['j2', false]]);
    assert.match(fake.toolResults[0].content, /not valid JSON/);
    assert.match(String(tools.records[0].refused), /not valid JSON/);
    assert.strictEqual(tools.records[0].tool, 'read_file');
    assert.strictEqual(tools.records[1].chars, 'src/a.ts, 1 line(s):\n1: export const a = 2;'.length);
  });

  for (const [what, json] of [
    ['an array', '["src/app.ts"]'],
    ['a string', '"src/app.ts"'],
  ] as const) {
    it(`input that is ${what}, not an object: refused, and the history sends the API an object`, async () => {
      fake.enqueue({ toolCalls: [{ id: 'n1', name: 'read_file', input: null, json }] }, { text: 'done' });
      const { text, tools } = await loop();
      assert.strictEqual(text, 'done');
      assert.deepStrictEqual(fake.toolResults.map((r) => [r.toolUseId, r.isError]), [['n1', true]]);
      assert.match(fake.toolResults[0].content, /JSON object/);
      assert.ok(tools.records[0].refused);
      const sent = fake.requests[1].body.messages[1].content.find((b: { type: string }) => b.type === 'tool_use');
      assert.deepStrictEqual(sent.input, {});
    });
  }

  it('a call cut at the output limit (stop_reason max_tokens inside its input) is not run on the partial input', async () => {
    fake.enqueue(
      { toolCalls: [{ id: 'ok1', name: 'read_file', input: { path: 'src/a.ts' } }, { id: 'cut1', name: 'read_file', input: { path: 'src/app.ts' } }], cut: { afterChars: 13, fault: 'max_tokens' } },
      { text: 'done' },
    );
    const { text, tools } = await loop();
    assert.strictEqual(text, 'done');
    // '{"path":"src/' parses (partially) to { path: 'src/' }: that must not become a listing or a read of it
    assert.deepStrictEqual(fake.toolResults.map((r) => [r.toolUseId, r.isError]), [['ok1', false], ['cut1', true]]);
    assert.match(fake.toolResults[1].content, /output limit/);
    assert.match(String(tools.records[1].refused), /output limit/);
  });

  it('a model whose every call is cut off at the output limit still meets the step limit', async () => {
    fake.setResponder(() => ({ toolCalls: [{ name: 'read_file', input: { path: 'src/app.ts' } }], cut: { afterChars: 9, fault: 'max_tokens' } }));
    const client = new AnthropicClient({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 });
    const tools = new ToolRunner({ workspace: workspace(), bounds: { maxCalls: 2 } });
    await assert.rejects(
      runToolLoop({
        messages: [{ role: 'user', content: 'go' }],
        send: (m, choice) => client.stream(request(m, choice), () => {}),
        execute: (calls) => tools.execute(calls),
        spent: () => tools.spent(),
      }),
      /kept calling tools after the step's tool limit/,
    );
    assert.strictEqual(fake.requests.length, 2 + MAX_TURNS_PAST_LIMIT + 1);
    assert.deepStrictEqual(tools.records.map((r) => (r.limited ? 'limit' : r.refused ? 'cut' : 'ran')), ['cut', 'cut', 'limit', 'limit', 'limit']);
  });

  it('two tool_use blocks with the same id: both answered, and the next request has no id twice', async () => {
    fake.enqueue({ toolCalls: [{ id: 'dup', name: 'read_file', input: { path: 'src/a.ts' } }, { id: 'dup', name: 'read_file', input: { path: 'src/app.ts' } }] }, { text: 'done' });
    const { text, tools } = await loop();
    assert.strictEqual(text, 'done');
    assert.strictEqual(fake.toolResults.length, 2);
    assert.deepStrictEqual(fake.toolResults.map((r) => r.isError), [false, false]);
    assert.deepStrictEqual(fake.toolResults.map((r) => r.content), ['src/a.ts, 1 line(s):\n1: export const a = 2;', 'src/app.ts, 1 line(s):\n1: export const app = 1;']);
    assert.strictEqual(new Set(tools.records.map((r) => r.id)).size, 2);
  });

  it('an id reused from an earlier turn is answered under a fresh id too', async () => {
    fake.enqueue(
      { toolCalls: [{ id: 'same', name: 'read_file', input: { path: 'src/a.ts' } }] },
      { toolCalls: [{ id: 'same', name: 'read_file', input: { path: 'src/app.ts' } }] },
      { text: 'done' },
    );
    const { text } = await loop();
    assert.strictEqual(text, 'done');
    assert.deepStrictEqual(fake.toolResults.map((r) => r.content), ['src/a.ts, 1 line(s):\n1: export const a = 2;', 'src/app.ts, 1 line(s):\n1: export const app = 1;']);
  });

  it('already right: an unknown tool name, an empty input and unknown block types mixed with text and tool_use', async () => {
    fake.enqueue(
      {
        text: 'Looking.',
        blocks: [
          { start: { type: 'thinking', thinking: '', signature: '' }, deltas: [{ type: 'thinking_delta', thinking: 'hmm' }, { type: 'signature_delta', signature: 'sig' }] },
          { start: { type: 'future_block', data: 'x' }, deltas: [{ type: 'future_delta', data: 'y' }] },
        ],
        toolCalls: [
          { id: 'u1', name: 'delete_everything', input: { path: 'src/a.ts' } },
          { id: 'u2', name: 'read_file', input: {} },
          { id: 'u3', name: 'list_files', input: {} },
          // no input_json_delta at all (the API may send none for an empty input)
          { id: 'u4', name: 'list_files', input: {}, json: '' },
        ],
      },
      { text: 'done' },
    );
    const { text, tools } = await loop();
    assert.strictEqual(text, 'done');
    assert.deepStrictEqual(fake.toolResults.map((r) => [r.toolUseId, r.isError]), [['u1', true], ['u2', true], ['u3', false], ['u4', false]]);
    assert.match(fake.toolResults[0].content, /unknown tool "delete_everything"/);
    assert.match(fake.toolResults[1].content, /path/);
    assert.deepStrictEqual(tools.records.map((r) => r.tool), ['delete_everything', 'read_file', 'list_files', 'list_files']);
    // the assistant turn sent back keeps the text and the calls
    assert.deepStrictEqual(fake.requests[1].body.messages[1].content.map((b: { type: string }) => b.type), ['text', 'tool_use', 'tool_use', 'tool_use', 'tool_use']);
  });

  it('whitespace written before the calls is not sent back as a text block (the API refuses one)', async () => {
    fake.enqueue({ text: '\n\n', toolCalls: [{ id: 'w1', name: 'list_files', input: {} }] }, { text: 'done' });
    const { text } = await loop();
    assert.strictEqual(text, 'done');
    assert.deepStrictEqual(fake.requests[1].body.messages[1].content.map((b: { type: string }) => b.type), ['tool_use']);
  });

  it('already right: stop_reason tool_use without any tool_use block ends the loop with the text written', async () => {
    fake.enqueue({ text: 'Let me look.', toolCalls: [] });
    const { text } = await loop();
    assert.strictEqual(text, 'Let me look.');
    assert.strictEqual(fake.requests.length, 1);
  });

  for (const fault of ['eof', 'reset', 'midstream-error'] as const) {
    it(`a stream broken inside a call's input (${fault}) is a retryable error; nothing is run`, async () => {
      fake.enqueue({ toolCalls: [{ id: 'b1', name: 'read_file', input: { path: 'src/app.ts' } }], cut: { afterChars: 10, fault } });
      const err = await loop().then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(err instanceof LlmError, String(err));
      assert.ok(err.retryable, err.message);
      assert.match(err.message, fault === 'midstream-error' ? /overloaded/ : /connection .* was lost/);
    });
  }
});

describe('tool faults: a session whose DA step talks to the model with tools', function () {
  this.timeout(60000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 16 }, (f) => (fake = f));

  const prompts = loadPromptAssets(defaultPromptsDir());
  const client = () => new AnthropicClient({ apiKey: 'k', baseURL: fake.url, idleTimeoutMs: 5000, maxRetries: 1 });
  const run = (ws: string, taskId: string, extra: Partial<SessionOptions> = {}) =>
    runSession({ workspace: ws, objective: 'Add a dark mode', taskId, model: 'claude-sonnet-4-6', llm: client(), prompts, retry: { baseDelayMs: 1 }, ...extra });
  const demoWorkspace = () => workspaceWithOriginalCape('cape-toolfaults-', path.join(demoDir(), 'workspace'));

  /** A step's pair artifact as written on disk (the file the session state names). */
  async function artifact(ws: string, taskId: string, step: StepId): Promise<any> {
    const state = await new SessionStore(ws).loadSessionState(taskId);
    const file = state?.stepFiles[step];
    assert.ok(file, `no ${step} artifact`);
    return JSON.parse(fs.readFileSync(path.isAbsolute(file) ? file : path.join(ws, file), 'utf8'));
  }

  function checkEveryRequest(): void {
    for (const r of fake.requests) {
      assert.strictEqual(toolPairingError(r.body), null, `request #${r.index + 1}`);
      assert.strictEqual(messageShapeError(r.body), null, `request #${r.index + 1}`);
    }
  }

  it('a model that only calls tools, then ends its turn without any text, gets a repair request the API accepts', async () => {
    const ws = demoWorkspace();
    const r = demoReplies('task-tf1');
    fake.enqueue({ text: r[0] }, { text: r[1] }, { toolCalls: [{ id: 't1', name: 'list_files', input: {} }] }, { text: '' }, { text: r[2] }, { text: r[3] }, { text: r[4] });
    const res = await run(ws, 'task-tf1');
    assert.ok(res.ok, res.error?.message);
    checkEveryRequest();
    assert.strictEqual(fake.requests.length, 7);
    const da = await artifact(ws, 'task-tf1', 'da');
    assert.deepStrictEqual(da.toolCalls.map((c: { id: string; tool: string }) => [c.id, c.tool]), [['t1', 'list_files']]);
  });

  it('a model that writes its whole answer, then calls tools in the same turn: the answer is used, the calls are not run', async () => {
    const ws = demoWorkspace();
    const r = demoReplies('task-tf8');
    fake.enqueue(
      { text: r[0] },
      { text: r[1] },
      { text: r[2], toolCalls: [{ id: 'late1', name: 'read_file', input: { path: 'src/app.ts' } }, { id: 'late2', name: 'list_files', input: {} }] },
      { text: r[3] },
      { text: r[4] },
    );
    const warnings: string[] = [];
    const res = await run(ws, 'task-tf8', { onEvent: (e) => e.type === 'warning' && e.step === 'da' && warnings.push(e.message) });
    assert.ok(res.ok, res.error?.message);
    checkEveryRequest();
    // no turn was spent answering the late calls: DevA's request follows DA's at once
    assert.strictEqual(fake.requests.length, 5);
    assert.deepStrictEqual(fake.toolResults, []);
    const da = await artifact(ws, 'task-tf8', 'da');
    assert.deepStrictEqual(da.toolCalls ?? [], []);
    assert.strictEqual(da.envelope.agent, JSON.parse(r[2].slice(r[2].indexOf('{'), r[2].lastIndexOf('}') + 1)).agent);
    const said = /called 2 tools \(read_file, list_files\) after writing its answer in the same turn: the answer was used and those calls were not run/;
    assert.match(warnings.join('\n'), said);
    assert.match((da.warnings ?? []).join('\n'), said);
    // the requests of the steps with tools state their bounds; the others have none to state
    const userText = (i: number) => JSON.stringify(fake.requests[i].body.messages[0].content);
    const stated = 'Your tools in this step: at most 12 calls and 80,000 characters of results in all; the calls of one turn run together.';
    assert.ok(userText(2).includes(stated) && userText(3).includes(stated), 'DA and DevA are told their bounds');
    assert.ok(![0, 1, 4].some((i) => userText(i).includes('Your tools in this step')), 'CM and POA have no tools');
  });

  it('already right: text that is not yet an answer before the calls: the calls run and the loop goes on', async () => {
    const ws = demoWorkspace();
    const r = demoReplies('task-tf9');
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: 'Let me look at the code first.', toolCalls: [{ id: 'early1', name: 'list_files', input: {} }] }, { text: r[2] }, { text: r[3] }, { text: r[4] });
    const res = await run(ws, 'task-tf9');
    assert.ok(res.ok, res.error?.message);
    checkEveryRequest();
    assert.strictEqual(fake.requests.length, 6);
    assert.deepStrictEqual(fake.toolResults.map((t) => t.toolUseId), ['early1']);
  });

  it("a tool turn's request that breaks off mid-stream is retried with the same conversation; the step's usage counts both", async () => {
    const ws = demoWorkspace();
    const r = demoReplies('task-tf2');
    fake.enqueue(
      { text: r[0] },
      { text: r[1] },
      { toolCalls: [{ id: 'u1', name: 'list_files', input: {} }] },
      { fault: 'midstream-error', afterChars: 30 },
      { text: r[2] },
      { text: r[3] },
      { text: r[4] },
    );
    const res = await run(ws, 'task-tf2');
    assert.ok(res.ok, res.error?.message);
    checkEveryRequest();
    assert.deepStrictEqual(fake.requests[4].body.messages, fake.requests[3].body.messages, 'the retry resends the same conversation');
    assert.deepStrictEqual(fake.toolResults.map((t) => [t.requestIndex, t.toolUseId]), [[3, 'u1'], [4, 'u1']]);
    const da = await artifact(ws, 'task-tf2', 'da');
    const sum = (k: 'input_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens') => [2, 3, 4].reduce((n, i) => n + fake.requests[i].usage![k], 0);
    assert.deepStrictEqual(
      [da.usage.inputTokens, da.usage.cacheReadInputTokens, da.usage.cacheCreationInputTokens],
      [sum('input_tokens'), sum('cache_read_input_tokens'), sum('cache_creation_input_tokens')],
    );
  });

  it('already right: 429 and 529 with retry-after on the 2nd and 5th request of a tool loop are retried with the same conversation', async () => {
    const ws = demoWorkspace();
    const r = demoReplies('task-tf3');
    const call = (id: string) => ({ toolCalls: [{ id, name: 'list_files', input: {} }] });
    fake.enqueue(
      { text: r[0] },
      { text: r[1] },
      call('v1'),
      { fault: 'http', status: 429, retryAfter: 0.01 },
      call('v2'),
      call('v3'),
      call('v4'),
      { fault: 'http', status: 529, retryAfter: 0.01 },
      { text: r[2] },
      { text: r[3] },
      { text: r[4] },
    );
    const res = await run(ws, 'task-tf3');
    assert.ok(res.ok, res.error?.message);
    checkEveryRequest();
    assert.deepStrictEqual(fake.requests[4].body.messages, fake.requests[3].body.messages);
    assert.deepStrictEqual(fake.requests[8].body.messages, fake.requests[7].body.messages);
    const da = await artifact(ws, 'task-tf3', 'da');
    assert.deepStrictEqual(da.toolCalls.map((c: { id: string }) => c.id), ['v1', 'v2', 'v3', 'v4']);
  });

  it('already right: a 401 in the middle of the tool loop fails at once with the key hint; earlier steps stay on disk and resume completes', async () => {
    const ws = demoWorkspace();
    const r = demoReplies('task-tf4');
    fake.enqueue({ text: r[0] }, { text: r[1] }, { toolCalls: [{ id: 'k1', name: 'list_files', input: {} }] }, { fault: 'http', status: 401 });
    const res = await run(ws, 'task-tf4');
    assert.strictEqual(res.ok, false);
    assert.strictEqual(res.error?.kind, 'auth');
    assert.strictEqual(res.error?.step, 'da');
    assert.match(res.error!.message, /rejected the API key.*ANTHROPIC_API_KEY/);
    assert.strictEqual(res.resumable, true);
    assert.strictEqual(fake.requests.length, 4, 'a rejected key is not retried');
    const state = await new SessionStore(ws).loadSessionState('task-tf4');
    assert.deepStrictEqual(state?.completedSteps, ['cm_open', 'poa']);
    assert.ok(state?.costUsd && state.costUsd > 0);
    fake.reset();
    fake.enqueue({ text: r[2] }, { text: r[3] }, { text: r[4] });
    const resumed = await run(ws, 'task-tf4', { resume: true });
    assert.ok(resumed.ok, resumed.error?.message);
  });

  it("a step that fails after some requests reports what they used in the session's result, not zero", async () => {
    const ws = demoWorkspace();
    const r = demoReplies('task-tf7');
    fake.enqueue({ text: r[0] }, { text: r[1] }, { toolCalls: [{ id: 'f1', name: 'list_files', input: {} }] }, { fault: 'midstream-error', afterChars: 20, errorType: 'authentication_error' });
    const res = await run(ws, 'task-tf7');
    assert.strictEqual(res.ok, false);
    assert.strictEqual(res.error?.kind, 'auth');
    const da = res.steps.find((s) => s.step === 'da');
    assert.strictEqual(da?.ok, false);
    // the tool turn that completed and the request that broke off after message_start
    assert.strictEqual(da?.usage.inputTokens, fake.requests[2].usage!.input_tokens + fake.requests[3].usage!.input_tokens);
    assert.ok(da!.usage.outputTokens > 0);
  });

  for (const when of ['while a tool call runs', 'while the next tool round streams'] as const) {
    it(`already right: Stop ${when}: no DA artifact, the session is resumable and resume completes`, async () => {
      const ws = demoWorkspace();
      const r = demoReplies('task-tf5');
      const ac = new AbortController();
      fake.enqueue(
        { text: r[0] },
        { text: r[1] },
        { toolCalls: [{ id: 's1', name: 'list_files', input: {} }] },
        // the DA reply holds once its voice streams: only Stop can end that request
        { text: r[2], holdAfterChars: r[2].indexOf('"voice"') + 60 },
      );
      const res = await run(ws, 'task-tf5', {
        signal: ac.signal,
        onEvent: (e) => {
          if (when === 'while a tool call runs' && e.type === 'tool-call') ac.abort();
          if (when === 'while the next tool round streams' && e.type === 'voice-delta' && e.step === 'da') ac.abort();
        },
      });
      assert.strictEqual(res.ok, false);
      assert.strictEqual(res.error?.kind, 'cancelled');
      assert.strictEqual(res.resumable, true);
      checkEveryRequest();
      assert.strictEqual(fake.requests.length, when === 'while a tool call runs' ? 3 : 4);
      const store = new SessionStore(ws);
      const state = await store.loadSessionState('task-tf5');
      assert.deepStrictEqual(state?.completedSteps, ['cm_open', 'poa']);
      assert.strictEqual(state?.stepFiles.da, undefined);
      fake.reset();
      fake.release();
      fake.enqueue({ text: r[2] }, { text: r[3] }, { text: r[4] });
      const resumed = await run(ws, 'task-tf5', { resume: true });
      assert.ok(resumed.ok, resumed.error?.message);
    });
  }

  it('a model that keeps calling tools past the limit: every call after it is told "limit reached", and the step fails clearly', async () => {
    const ws = demoWorkspace();
    const r = demoReplies('task-tf6');
    fake.enqueue({ text: r[0] }, { text: r[1] });
    // a client (or a gateway) that ignores tool_choice none
    fake.setResponder(() => ({ toolCalls: [{ name: 'list_files', input: {} }] }));
    const res = await run(ws, 'task-tf6', { tools: { maxCalls: 2 } });
    assert.ok(JSON.stringify(fake.requests[2].body.messages[0].content).includes('at most 2 calls and 80,000 characters'), 'the bounds set are the ones stated');
    assert.strictEqual(res.ok, false);
    assert.strictEqual(res.error?.step, 'da');
    assert.strictEqual(res.resumable, true);
    assert.match(res.error!.message, /kept calling tools after the step's tool limit was reached.*Resume the session.*cape\.tools\.maxCalls/);
    checkEveryRequest();
    // two calls within the limit, MAX_TURNS_PAST_LIMIT turns told "limit reached" (tools forbidden), then the step ends: not 40 requests
    assert.strictEqual(fake.requests.length, 2 + 2 + MAX_TURNS_PAST_LIMIT + 1);
    assert.ok(fake.requests.slice(4).every((q) => q.body.tool_choice?.type === 'none'));
    assert.strictEqual(fake.toolResults.length, 2 + MAX_TURNS_PAST_LIMIT);
    assert.ok(fake.toolResults.slice(2).every((t) => t.isError && /limit reached — write your answer now/.test(t.content)));
  });
});

describe('tool faults: what a request that broke off used is counted', function () {
  this.timeout(30000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ apiKey: 'k', chunkSize: 4 }, (f) => (fake = f));

  /** The price of request `i` by the input usage the fake reported in message_start and the high estimate of `streamed`. */
  function brokenCost(i: number, streamed: string): number {
    const u = fake.requests[i].usage!;
    return costUsd('claude-sonnet-4-6', {
      inputTokens: u.input_tokens,
      outputTokens: tokensAtMost(streamed),
      cacheCreationInputTokens: u.cache_creation_input_tokens,
      cacheReadInputTokens: u.cache_read_input_tokens,
    })!;
  }

  it("DA's answer to DevA's blockers counts an attempt that broke off in its usage", async () => {
    fake.enqueue({ fault: 'midstream-error', afterChars: 40 }, { text: demoReplies('task-tf8')[2] });
    const got = await askAnswer({
      llm: new AnthropicClient({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 }),
      model: 'claude-sonnet-4-6',
      system: [{ text: 'sys' }],
      user: 'Which store do todos use?',
      retry: { baseDelayMs: 1 },
    });
    assert.ok(got.envelope, got.error);
    assert.strictEqual(fake.requests.length, 2);
    assert.strictEqual(got.usage.inputTokens, fake.requests[0].usage!.input_tokens + fake.requests[1].usage!.input_tokens);
  });

  for (const fault of ['midstream-error', 'eof', 'abort'] as const) {
    it(`a request that ends in ${fault === 'abort' ? 'Stop (abort)' : `a ${fault}`} after message_start is priced in the session's spend, with what it streamed`, async () => {
      const tracker = new CostTracker(null);
      const llm = capClient(new AnthropicClient({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 }), tracker, { what: () => 'the request', onRecorded: () => {} });
      const ac = new AbortController();
      let streamed = '';
      fake.enqueue(
        fault === 'abort'
          ? { text: 'x'.repeat(200), holdAfterChars: 8 }
          : { fault, afterChars: 40 },
      );
      const err = await llm
        .stream({ ...request([{ role: 'user', content: 'go' }], 'auto'), signal: ac.signal }, (d) => {
          streamed += d;
          if (fault === 'abort') ac.abort();
        })
        .then(
          () => null,
          (e: unknown) => e,
        );
      assert.ok(err instanceof LlmError, String(err));
      assert.ok(streamed.length > 0 && brokenCost(0, streamed) > brokenCost(0, ''));
      assert.strictEqual(tracker.spentUsd, brokenCost(0, streamed));
    });
  }
});
