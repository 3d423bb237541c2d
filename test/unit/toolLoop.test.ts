// Tool use end to end at the client level: the fake Messages API streams tool_use blocks (input_json_delta partials,
// stop_reason tool_use), the real SDK parses them through AnthropicClient, runToolLoop answers every call and
// continues the conversation until the model writes text, and the fake checks the pairing rules of the real API.
import * as assert from 'assert';
import { AnthropicClient } from '../../src/core/llm/anthropic/client';
import { LlmError } from '../../src/core/llm/errors';
import { runToolLoop, type ToolAnswer } from '../../src/core/llm/toolLoop';
import type { ChatMessage, LlmRequest, ToolCall } from '../../src/core/model/types';
import { TOOL_SPECS } from '../../src/core/tools/specs';
import { FakeAnthropic, startFakeAnthropic, toolPairingError } from '../fake-anthropic';

const KEY = 'sk-ant-test-key';

function request(messages: ChatMessage[], toolChoice: 'auto' | 'none' = 'auto'): LlmRequest {
  return { model: 'claude-sonnet-4-6', maxTokens: 1024, system: [{ text: 'sys' }], messages, tools: [...TOOL_SPECS], toolChoice };
}

describe('tool use: fake server, AnthropicClient and the tool loop', () => {
  let fake: FakeAnthropic;
  let client: AnthropicClient;

  before(async () => {
    fake = await startFakeAnthropic({ apiKey: KEY, chunkSize: 5 });
    client = new AnthropicClient({ apiKey: KEY, baseURL: fake.url, maxRetries: 0 });
  });
  afterEach(() => fake.reset());
  after(() => fake.close());

  it('streams tool_use blocks whose input arrives as input_json_delta partials; the SDK reassembles them', async () => {
    fake.enqueue({
      text: 'Let me look.',
      toolCalls: [
        { id: 'toolu_1', name: 'read_file', input: { path: 'src/app.ts', start_line: 3 } },
        { id: 'toolu_2', name: 'search_files', input: { query: 'getTheme "quoted" \\ back' } },
      ],
    });
    const deltas: string[] = [];
    const res = await client.stream(request([{ role: 'user', content: 'go' }]), (d) => deltas.push(d));
    assert.strictEqual(res.stopReason, 'tool_use');
    assert.strictEqual(res.text, 'Let me look.');
    assert.strictEqual(deltas.join(''), 'Let me look.');
    assert.deepStrictEqual(res.toolCalls, [
      { id: 'toolu_1', name: 'read_file', input: { path: 'src/app.ts', start_line: 3 } },
      { id: 'toolu_2', name: 'search_files', input: { query: 'getTheme "quoted" \\ back' } },
    ]);
    const body = fake.requests[0].body;
    assert.deepStrictEqual(body.tools.map((t: { name: string }) => t.name), ['read_file', 'search_files', 'list_files']);
    assert.strictEqual(body.tools[0].input_schema.type, 'object');
    assert.strictEqual(body.tool_choice, undefined, 'auto is the API default: not sent');
  });

  it('the loop answers every call in the next user turn (is_error for refused ones) and ends at the text reply', async () => {
    fake.enqueue(
      { toolCalls: [{ id: 'a1', name: 'read_file', input: { path: 'ok.ts' } }, { id: 'a2', name: 'read_file', input: { path: '.env' } }] },
      { toolCalls: [{ id: 'b1', name: 'list_files', input: {} }] },
      { text: '```json\n{"agent":"DevA"}\n```' },
    );
    const seen: ToolCall[][] = [];
    let turns = 0;
    const out = await runToolLoop({
      messages: [{ role: 'user', content: 'go' }],
      send: (m, choice) => client.stream(request(m, choice), () => {}),
      execute: async (calls): Promise<ToolAnswer[]> => {
        seen.push(calls);
        return calls.map((c) => ({ toolUseId: c.id, content: c.input && (c.input as { path?: string }).path === '.env' ? 'refused: secret file' : `body of ${c.id}`, isError: (c.input as { path?: string }).path === '.env' }));
      },
      spent: () => false,
      onTurn: () => turns++,
    });
    assert.strictEqual(out.result.text, '```json\n{"agent":"DevA"}\n```');
    assert.strictEqual(out.turns, 3);
    assert.strictEqual(turns, 2);
    assert.deepStrictEqual(seen.map((c) => c.map((x) => x.id)), [['a1', 'a2'], ['b1']]);
    assert.deepStrictEqual(
      fake.toolResults.map((r) => [r.requestIndex, r.toolUseId, r.isError, r.content]),
      [
        [1, 'a1', false, 'body of a1'],
        [1, 'a2', true, 'refused: secret file'],
        [2, 'b1', false, 'body of b1'],
      ],
    );
    // every request the client sent obeys the API's pairing rules
    for (const r of fake.requests) assert.strictEqual(toolPairingError(r.body), null);
    // the final request carries the whole conversation: user, assistant(tool_use×2), user(tool_result×2), assistant, user
    assert.deepStrictEqual(fake.requests[2].body.messages.map((m: { role: string }) => m.role), ['user', 'assistant', 'user', 'assistant', 'user']);
  });

  it('a note (what the step used of its bounds) follows each turn\'s results as a text block, which the API accepts there', async () => {
    fake.enqueue({ toolCalls: [{ id: 'n1', name: 'list_files', input: {} }] }, { toolCalls: [{ id: 'n2', name: 'list_files', input: {} }] }, { text: 'done' });
    let used = 0;
    await runToolLoop({
      messages: [{ role: 'user', content: 'go' }],
      send: (m, choice) => client.stream(request(m, choice), () => {}),
      execute: async (calls): Promise<ToolAnswer[]> => {
        used += calls.length;
        return calls.map((c) => ({ toolUseId: c.id, content: 'a.ts', isError: false }));
      },
      spent: () => false,
      note: () => `used ${used}`,
    });
    for (const r of fake.requests) assert.strictEqual(toolPairingError(r.body), null);
    const last = fake.requests[2].body.messages;
    assert.deepStrictEqual(
      [last[2].content.map((b: { type: string }) => b.type), last[2].content[1].text, last[4].content.map((b: { type: string }) => b.type), last[4].content[1].text],
      [['tool_result', 'text'], 'used 1', ['tool_result', 'text'], 'used 2'],
    );
  });

  it('once the budget is spent the next turn forbids tools (tool_choice none)', async () => {
    fake.enqueue({ toolCalls: [{ id: 'c1', name: 'list_files', input: {} }] }, { text: 'done' });
    let spent = false;
    await runToolLoop({
      messages: [{ role: 'user', content: 'go' }],
      send: (m, choice) => client.stream(request(m, choice), () => {}),
      execute: async (calls) => {
        spent = true;
        return calls.map((c) => ({ toolUseId: c.id, content: 'limit reached — write your answer now', isError: true }));
      },
      spent: () => spent,
    });
    assert.strictEqual(fake.requests[0].body.tool_choice, undefined);
    assert.deepStrictEqual(fake.requests[1].body.tool_choice, { type: 'none' });
  });

  it('a model that never stops calling tools ends at the turn cap with a clear error', async () => {
    fake.setResponder(() => ({ toolCalls: [{ name: 'list_files', input: {} }] }));
    await assert.rejects(
      runToolLoop({
        messages: [{ role: 'user', content: 'go' }],
        send: (m, choice) => client.stream(request(m, choice), () => {}),
        execute: async (calls) => calls.map((c) => ({ toolUseId: c.id, content: 'x', isError: false })),
        spent: () => false,
        maxTurns: 3,
      }),
      (e: unknown) => e instanceof LlmError && /kept calling tools for 3 turns.*Resume the session.*cape\.tools\.maxCalls/.test(e.message),
    );
    assert.strictEqual(fake.requests.length, 3);
  });

  it('the fake rejects, like the real API, a tool_use left unanswered and a tool_result without its tool_use', async () => {
    const use = { role: 'assistant', content: [{ type: 'tool_use', id: 'x1', name: 'list_files', input: {} }] };
    const tools = [{ name: 'list_files', input_schema: { type: 'object' } }];
    assert.match(String(toolPairingError({ tools, messages: [{ role: 'user', content: 'go' }, use, { role: 'user', content: 'hi' }] })), /without `tool_result`.*x1/);
    assert.match(
      String(toolPairingError({ tools, messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'zz', content: 'x' }] }] })),
      /unexpected `tool_use_id`.*zz/,
    );
    assert.match(String(toolPairingError({ messages: [{ role: 'user', content: 'go' }, use, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x1', content: 'x' }] }] })), /must define tools/);
    // over HTTP: a 400 invalid_request_error the client classifies as non-retryable
    fake.enqueue({ text: 'never sent' });
    const err = await client.stream({ ...request([{ role: 'user', content: 'go' }, { role: 'assistant', content: [{ type: 'tool_use', id: 'x1', name: 'list_files', input: {} }] }, { role: 'user', content: 'no result' }]) }, () => {}).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err instanceof LlmError && err.status === 400 && !err.retryable, String(err));
  });

  it('Stop (abort) during the tool loop ends it as cancelled', async () => {
    fake.enqueue({ toolCalls: [{ id: 'd1', name: 'list_files', input: {} }] }, { text: 'never reached', delayMs: 2000 });
    const ctrl = new AbortController();
    await assert.rejects(
      runToolLoop({
        messages: [{ role: 'user', content: 'go' }],
        send: (m, choice) => client.stream({ ...request(m, choice), signal: ctrl.signal }, () => {}),
        execute: async (calls) => {
          ctrl.abort();
          return calls.map((c) => ({ toolUseId: c.id, content: 'x', isError: false }));
        },
        spent: () => false,
        signal: ctrl.signal,
      }),
      (e: unknown) => e instanceof LlmError && e.kind === 'cancelled',
    );
    assert.strictEqual(fake.requests.length, 1, 'no request after Stop');
  });
});
