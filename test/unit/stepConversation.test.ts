// A step's requests in a session (session/conversation.ts), through the real SDK and the fake Messages API: how
// retries are numbered in the events.
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
});
