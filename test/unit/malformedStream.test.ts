// Streams the real API would not send, through the real SDK and the fake Messages API's raw frames: an event missing
// a field is either harmless (the reply is complete) or a malformed stream (retryable, saying what was wrong), never
// a TypeError reported as an unexpected, non-retryable error; a block index far out of range costs nothing.
import * as assert from 'assert';
import { AnthropicClient } from '../../src/core/llm/anthropic/client';
import { LlmError } from '../../src/core/llm/errors';
import type { LlmRequest } from '../../src/core/model/types';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';

type Frame = { event: string; data: Record<string, unknown> };
const frame = (event: string, data: Record<string, unknown> = {}): Frame => ({ event, data: { type: event, ...data } });
const start = frame('message_start', {
  message: { id: 'm', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } },
});
const hello = [
  frame('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  frame('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'hello' } }),
  frame('content_block_stop', { index: 0 }),
];
const delta = (stop: string) => frame('message_delta', { delta: { stop_reason: stop }, usage: { output_tokens: 3 } });
const stop = frame('message_stop');

const request: LlmRequest = { model: 'claude-sonnet-4-6', maxTokens: 100, system: [], messages: [{ role: 'user', content: 'hi' }] };

describe('a malformed event stream', function () {
  this.timeout(30000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({}, (f) => (fake = f));
  const client = () => new AnthropicClient({ apiKey: 'k', baseURL: fake.url, maxRetries: 0, idleTimeoutMs: 5000 });

  const harmless: [string, Frame][] = [
    ['a message_delta without usage', frame('message_delta', { delta: { stop_reason: 'end_turn' } })],
    ['a message_delta whose usage is null', frame('message_delta', { delta: { stop_reason: 'end_turn' }, usage: null })],
    ['a message_delta without its delta', frame('message_delta', { usage: { output_tokens: 3 } })],
  ];
  for (const [what, last] of harmless) {
    it(`${what}: the complete reply is used`, async () => {
      fake.enqueue({ events: [start, ...hello, last, stop] });
      const res = await client().stream(request, () => {});
      assert.strictEqual(res.text, 'hello');
      assert.strictEqual(res.usage.inputTokens, 10);
    });
  }

  const broken: [string, Frame[], RegExp][] = [
    ['a content_block_start without its content_block', [frame('content_block_start', { index: 0 })], /content_block_start event \(block 0\) without its content_block/],
    ['a content_block_delta without its delta', [hello[0], frame('content_block_delta', { index: 0 })], /content_block_delta event \(block 0\) without its delta/],
    ['a content_block_start without an index', [frame('content_block_start', { content_block: { type: 'text', text: '' } })], /content_block_start event with block index missing/],
    ['a negative block index', [frame('content_block_start', { index: -1, content_block: { type: 'text', text: '' } })], /block index -1/],
    ['a text_delta without its text', [hello[0], frame('content_block_delta', { index: 0, delta: { type: 'text_delta' } })], /text_delta \(block 0\) without its text/],
  ];
  for (const [what, frames, said] of broken) {
    it(`${what}: a malformed stream, retryable, saying what was wrong`, async () => {
      fake.enqueue({ events: [start, ...frames, delta('end_turn'), stop] });
      const e = await client()
        .stream(request, () => {})
        .then(
          () => assert.fail('expected a malformed stream'),
          (err: unknown) => err,
        );
      assert.ok(e instanceof LlmError, String(e));
      assert.strictEqual(e.retryable, true);
      assert.match(e.message, /sent a malformed stream/);
      assert.match(e.message, said);
      assert.doesNotMatch(e.message, /Cannot read|Cannot convert|TypeError/);
    });
  }

  it('a block index far out of range is kept, in its order (no array of that length: beyond an array index it is lost)', async () => {
    // Blocks kept in an array by their index cost a sparse array of that length (an index of 200,000,000 froze the
    // event loop for ~40 s). An index beyond the last array index (2^32 - 2) is no element of an array at all, so
    // with the largest one the stream can carry such an array loses the tool call below: no clock needed.
    const far = Number.MAX_SAFE_INTEGER;
    fake.enqueue({
      events: [
        start,
        frame('content_block_start', { index: far, content_block: { type: 'tool_use', id: 't', name: 'read_file', input: {} } }),
        frame('content_block_delta', { index: far, delta: { type: 'input_json_delta', partial_json: '{"path":"a.ts"}' } }),
        frame('content_block_stop', { index: far }),
        frame('content_block_start', { index: 3, content_block: { type: 'text', text: 'first ' } }),
        frame('content_block_stop', { index: 3 }),
        delta('tool_use'),
        stop,
      ],
    });
    const res = await client().stream(request, () => {});
    assert.strictEqual(res.text, 'first ', 'the blocks keep their order by index');
    assert.deepStrictEqual(res.toolCalls, [{ id: 't', name: 'read_file', input: { path: 'a.ts' } }]);
  });
});
