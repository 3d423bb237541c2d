// `cape repeat`'s rerun ids (session/repeatOf.ts): always a task id CAPE accepts, even for the longest saved id, and
// never one an earlier session left traces under.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { AnthropicClient } from '../../src/core/llm/anthropic/client';
import { defaultPromptsDir, loadPromptAssets } from '../../src/core/cape/prompts';
import { runSession } from '../../src/core/session/runner';
import { repeatSession } from '../../src/core/session/repeat';
import { isRepeatOf, repeatTaskId } from '../../src/core/session/repeatOf';
import { assertTaskId } from '../../src/core/store';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { workspaceWithOriginalCape } from '../helpers/cli';
import { demoDir, demoReplies } from '../helpers/demo';

const prompts = loadPromptAssets(defaultPromptsDir());

describe('cape repeat: rerun ids', function () {
  this.timeout(30000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 512 }, (f) => (fake = f));
  const client = () => new AnthropicClient({ apiKey: 'k', baseURL: fake.url, idleTimeoutMs: 5000 });

  it('a rerun id stays a valid task id for the longest saved id, and is recognised as a rerun of it', () => {
    const long = 'a'.repeat(128);
    for (const n of [1, 9, 20, 123456]) {
      const id = repeatTaskId(long, n);
      assert.doesNotThrow(() => assertTaskId(id), id);
      assert.ok(isRepeatOf(id, long), id);
      assert.ok(!isRepeatOf(id, 'a'.repeat(100)), 'not a rerun of a shorter saved id');
    }
    assert.strictEqual(repeatTaskId('task-rr', 2), 'task-rr-repeat-2', 'short ids as before');
    assert.ok(isRepeatOf('task-rr-repeat-2', 'task-rr') && isRepeatOf('task-rr', 'task-rr'));
    assert.ok(!isRepeatOf('task-rr-repeat-x', 'task-rr') && !isRepeatOf('task-rr2-repeat-1', 'task-rr'));
  });

  it('reruns a session saved under a 128-character id', async () => {
    const ws = workspaceWithOriginalCape('cape-repeat-ids-', path.join(demoDir(), 'workspace'));
    const saved = 't'.repeat(128);
    for (const r of demoReplies(saved)) fake.enqueue({ text: r });
    const first = await runSession({ workspace: ws, objective: 'Add a dark mode', taskId: saved, model: 'claude-sonnet-4-6', llm: client(), prompts });
    assert.ok(first.ok, first.error?.message);
    fake.reset();
    const rerun = repeatTaskId(saved, 1);
    for (const r of demoReplies(rerun)) fake.enqueue({ text: r });
    const res = await repeatSession({ workspace: ws, taskId: saved, times: 1, llm: client(), prompts });
    assert.deepStrictEqual(res.runs.map((r) => [r.taskId, r.ok, r.error]), [[saved, true, undefined], [rerun, true, undefined]]);
  });

  it('skips an id whose state is gone but whose step records are still there', async () => {
    const ws = workspaceWithOriginalCape('cape-repeat-ids-', path.join(demoDir(), 'workspace'));
    for (const r of demoReplies('task-x')) fake.enqueue({ text: r });
    assert.ok((await runSession({ workspace: ws, objective: 'Add a dark mode', taskId: 'task-x', model: 'claude-sonnet-4-6', llm: client(), prompts })).ok);
    const pair = path.join(ws, 'cape/5_sessions/pair');
    fs.writeFileSync(path.join(pair, 'task-x-repeat-1_1_CM_5.json'), '{}'); // an earlier rerun's record, its state removed
    fake.reset();
    for (const r of demoReplies('task-x-repeat-2')) fake.enqueue({ text: r });
    const res = await repeatSession({ workspace: ws, taskId: 'task-x', times: 1, llm: client(), prompts });
    assert.deepStrictEqual(res.runs.map((r) => [r.taskId, r.ok, r.error]), [['task-x', true, undefined], ['task-x-repeat-2', true, undefined]]);
  });
});
