// A session run again, whole or in part (resume --from-step, a finish redone after a crash, a resume after a crash
// between two writes): what it must not count twice, nor skip.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { AnthropicClient } from '../../src/core/llm/anthropic/client';
import { defaultPromptsDir, loadPromptAssets } from '../../src/core/cape/prompts';
import { runSession } from '../../src/core/session/runner';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { workspaceWithOriginalCape } from '../helpers/cli';
import { demoDir, demoReplies, withDorCheck } from '../helpers/demo';

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
  for (const at of ['before its state names the opening', 'before the pause is saved'] as const) {
    it(`a process killed after the opening that asked questions was saved, ${at}, pauses on resume instead of going on without them`, async () => {
      const ws = workspaceWithOriginalCape('cape-rerun-', path.join(demoDir(), 'workspace'));
      const questions = ['Is dark mode a user toggle or only the OS setting?'];
      const replies = demoReplies('task-q');
      fake.enqueue({ text: withDorCheck(replies[0], { passed: false, concerns: ['vague'], questions }) });
      const opts = { workspace: ws, taskId: 'task-q', model: 'claude-sonnet-4-6', llm: client(), prompts };
      const first = await runSession({ ...opts, objective: 'Add a dark mode' });
      assert.deepStrictEqual(first.needsAnswers, questions);
      // What the state held at that moment: running, no questions recorded (and, first case, the opening not yet named).
      const stateFile = path.join(ws, 'cape/5_sessions/state/task-q.json');
      const state = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
      delete state.dor;
      state.status = 'running';
      if (at === 'before its state names the opening') {
        state.completedSteps = [];
        state.stepFiles = {};
        state.updatedAt = state.createdAt;
      }
      fs.writeFileSync(stateFile, JSON.stringify(state));
      fake.reset();
      for (const r of replies.slice(1)) fake.enqueue({ text: r });
      const resumed = await runSession({ ...opts, resume: true });
      assert.deepStrictEqual(resumed.needsAnswers, questions);
      assert.strictEqual(fake.requests.length, 0, 'POA does not start without the answers');
      const after = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
      assert.strictEqual(after.status, 'needs_answers');
      assert.deepStrictEqual(after.completedSteps, ['cm_open']);
    });
  }

});
