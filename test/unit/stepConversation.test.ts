// A step's requests in a session (session/conversation.ts), through the real SDK and the fake Messages API: how
// retries are numbered in the events, and when a reply cut at the output limit is continued, used or fails the step.
import * as assert from 'assert';
import * as path from 'path';
import { AnthropicClient } from '../../src/core/llm/anthropic/client';
import { defaultPromptsDir, loadPromptAssets } from '../../src/core/cape/prompts';
import { runSession, type SessionOptions } from '../../src/core/session/runner';
import type { SessionEvent } from '../../src/core/model/types';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { workspaceWithOriginalCape } from '../helpers/cli';
import { demoDir, demoReplies } from '../helpers/demo';

const prompts = loadPromptAssets(defaultPromptsDir());

describe("a step's requests in a session", function () {
  this.timeout(60000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 64 }, (f) => (fake = f));

  function run(taskId: string, extra: Partial<SessionOptions> = {}) {
    const ws = workspaceWithOriginalCape('cape-conv-', path.join(demoDir(), 'workspace'));
    const llm = new AnthropicClient({ apiKey: 'k', baseURL: fake.url, idleTimeoutMs: 5000, maxRetries: 0 });
    return runSession({ workspace: ws, objective: 'Add a dark mode', taskId, model: 'claude-sonnet-4-6', llm, prompts, tools: false, retry: { baseDelayMs: 1 }, pauseForQuestions: false, ...extra });
  }

  it('a retry event names the attempt about to start, as its step-started event does (a repair request too)', async () => {
    const r = demoReplies('task-att');
    fake.enqueue(
      { fault: 'midstream-error', afterChars: 50 },
      { text: r[0] },
      { text: 'not an envelope' },
      { fault: 'midstream-error', afterChars: 50 },
      { text: r[1] },
      { text: r[2] },
      { text: r[3] },
      { text: r[4] },
    );
    const seen: string[] = [];
    const res = await run('task-att', {
      onEvent: (e: SessionEvent) => {
        if ((e.type === 'step-started' || e.type === 'retry') && (e.step === 'cm_open' || e.step === 'poa')) seen.push(`${e.step} ${e.type} ${e.attempt}`);
      },
    });
    assert.ok(res.ok, res.error?.message);
    assert.deepStrictEqual(seen, [
      'cm_open step-started 1',
      'cm_open retry 2',
      'cm_open step-started 2',
      'poa step-started 1',
      'poa step-started 2',
      'poa retry 3',
      'poa step-started 3',
    ]);
  });

  it('a reply taken as the answer is not continued when the output limit cut a tool call written after it', async () => {
    const r = demoReplies('task-ans');
    fake.enqueue(
      { text: r[0] },
      { text: r[1] },
      { text: r[2], toolCalls: [{ id: 'late', name: 'read_file', input: { path: 'src/app.ts' } }], cut: { afterChars: 5, fault: 'max_tokens' } },
      { text: r[3] },
      { text: r[4] },
    );
    const events: SessionEvent[] = [];
    const res = await run('task-ans', { tools: {}, onEvent: (e) => events.push(e) });
    assert.ok(res.ok, res.error?.message);
    assert.strictEqual(fake.requests.length, 5, 'no continuation request');
    assert.ok(!events.some((e) => e.type === 'continued'));
    assert.ok(events.some((e) => e.type === 'warning' && e.step === 'da' && /called a tool \(read_file\) after writing its answer/.test(e.message)));
  });

  it('a reply still cut after the continuations is used, with a warning, when what it wrote holds a valid reply', async () => {
    const r = demoReplies('task-cut');
    const ramble = 'the team agrees. '.repeat(50);
    fake.enqueue(
      { text: `${r[0]}\n\nLet me also add that ${ramble}`, stopReason: 'max_tokens' },
      { text: ramble, stopReason: 'max_tokens' },
      { text: ramble, stopReason: 'max_tokens' },
      { text: r[1] },
      { text: r[2] },
      { text: r[3] },
      { text: r[4] },
    );
    const events: SessionEvent[] = [];
    const res = await run('task-cut', { onEvent: (e) => events.push(e) });
    assert.ok(res.ok, res.error?.message);
    assert.strictEqual(fake.requests.length, 7);
    assert.strictEqual(events.filter((e) => e.type === 'continued').length, 2);
    const warned = events.filter((e): e is Extract<SessionEvent, { type: 'warning' }> => e.type === 'warning' && e.step === 'cm_open').map((e) => e.message);
    assert.match(warned.join('\n'), /still cut off at the output limit \(\d+ tokens\) after 2 continuations, but what it wrote already holds a complete, valid reply: that reply was used/);
  });

  it('already right: a reply still cut after the continuations without a valid reply in it fails the step, keeping the text', async () => {
    fake.enqueue({ text: '```json\n{"agent": "CM", "voice": "I start', stopReason: 'max_tokens' }, { text: ' and go on', stopReason: 'max_tokens' }, { text: ' and on', stopReason: 'max_tokens' });
    const res = await run('task-cut2');
    assert.strictEqual(res.ok, false);
    assert.strictEqual(res.error?.kind, 'invalid_reply');
    assert.match(res.error!.message, /still cut off at the output limit \(\d+ tokens\) after 2 continuations, so it was not used.*The partial reply is saved in/);
    assert.strictEqual(fake.requests.length, 3);
  });
});
