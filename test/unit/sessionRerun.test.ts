// A session run again, whole or in part (resume --from-step, a finish redone after a crash): what it must not count
// twice.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { AnthropicClient } from '../../src/core/llm/anthropic/client';
import { defaultPromptsDir, loadPromptAssets } from '../../src/core/cape/prompts';
import { runSession } from '../../src/core/session/runner';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { workspaceWithOriginalCape } from '../helpers/cli';
import { demoDir, demoReplies } from '../helpers/demo';

const prompts = loadPromptAssets(defaultPromptsDir());

describe('session rerun', function () {
  this.timeout(30000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 512 }, (f) => (fake = f));
  const client = () => new AnthropicClient({ apiKey: 'k', baseURL: fake.url, idleTimeoutMs: 5000 });

  it('a retrospective run again (--from-step cm_retro) does not count the session\'s earlier retrospective in the satisfaction trend', async () => {
    const ws = workspaceWithOriginalCape('cape-rerun-', path.join(demoDir(), 'workspace'));
    const replies = demoReplies('task-st');
    for (const r of replies) fake.enqueue({ text: r });
    const t0 = Date.UTC(2026, 0, 5, 10, 0);
    const opts = { workspace: ws, taskId: 'task-st', model: 'claude-sonnet-4-6', llm: client(), prompts };
    const first = await runSession({ ...opts, objective: 'Add a dark mode', now: () => t0 });
    assert.ok(first.ok, first.error?.message);
    fake.reset();
    fake.enqueue({ text: replies[4] });
    const again = await runSession({ ...opts, resume: true, fromStep: 'cm_retro', now: () => t0 + 5 * 60_000 });
    assert.ok(again.ok, again.error?.message);
    const retros = fs.readdirSync(path.join(ws, 'cape/5_sessions/retrospective')).filter((n) => n.endsWith('_task-st.md'));
    assert.strictEqual(retros.length, 2, 'the earlier retrospective stays, as history');
    assert.strictEqual(again.metrics!.assAverage, first.metrics!.assAverage);
    assert.strictEqual(again.metrics!.satisfactionTrend, first.metrics!.satisfactionTrend, 'the same session is one point of the trend');
  });
});
