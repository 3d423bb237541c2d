// The session runner in process: event order, artifacts on disk before the next step starts, cancellation, resume,
// two sessions finishing at once.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { AnthropicClient } from '../../src/core/llm/anthropic/client';
import { defaultPromptsDir, loadPromptAssets } from '../../src/core/cape/prompts';
import { runSession } from '../../src/core/session/runner';
import { SessionStore } from '../../src/core/store';
import type { SessionEvent } from '../../src/core/model/types';
import { costUsd } from '../../src/core/llm/pricing';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { listFiles, tempDir, workspaceWithOriginalCape, writeFiles } from '../helpers/cli';
import { demoDir, demoReplies } from '../helpers/demo';

const prompts = loadPromptAssets(defaultPromptsDir());

const workspace = () => workspaceWithOriginalCape('cape-session-', path.join(demoDir(), 'workspace'));

describe('session runner', function () {
  this.timeout(30000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 8 }, (f) => (fake = f));

  const client = () => new AnthropicClient({ apiKey: 'k', baseURL: fake.url, idleTimeoutMs: 5000 });

  it('emits typed events in step order and writes each artifact before the next step starts', async () => {
    const ws = workspace();
    for (const r of demoReplies('task-1')) fake.enqueue({ text: r });
    const events: SessionEvent[] = [];
    const onDiskAtStart: number[] = [];
    const res = await runSession({
      workspace: ws,
      objective: 'Add a dark mode',
      taskId: 'task-1',
      model: 'claude-sonnet-4-6',
      llm: client(),
      prompts,
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'step-started') onDiskAtStart.push(listFiles(path.join(ws, 'cape/5_sessions/pair')).length);
      } });
    assert.ok(res.ok, res.error?.message);
    assert.deepStrictEqual(onDiskAtStart, [0, 1, 2, 3, 4], 'step n starts only after n-1 artifacts are on disk');
    const kinds = events.map((e) => e.type);
    assert.strictEqual(kinds[0], 'session-started');
    assert.strictEqual(kinds[kinds.length - 1], 'session-finished');
    const started = events.filter((e) => e.type === 'step-started').map((e: any) => e.step);
    assert.deepStrictEqual(started, ['cm_open', 'poa', 'da', 'deva', 'cm_retro']);
    // Voice deltas reassemble into the envelope's voice, per step.
    for (const step of ['cm_open', 'poa', 'da', 'deva'] as const) {
      const voice = events.filter((e): e is Extract<SessionEvent, { type: 'voice-delta' }> => e.type === 'voice-delta' && e.step === step).map((e) => e.text).join('');
      const env = events.find((e): e is Extract<SessionEvent, { type: 'envelope' }> => e.type === 'envelope' && e.step === step)!;
      assert.strictEqual(voice, env.envelope.voice);
      assert.ok(events.filter((e) => e.type === 'voice-delta' && (e as any).step === step).length > 3, 'voice streams in several deltas');
    }
    const proposed = events.filter((e) => e.type === 'file-proposed');
    assert.strictEqual(proposed.length, 3);
    assert.ok(!fs.existsSync(path.join(ws, 'src/theme.js')), 'the engine never writes workspace files');
    const state = await new SessionStore(ws).loadSessionState('task-1');
    assert.strictEqual(state?.status, 'complete');
    // the state names each step's record workspace-relative, so a moved or re-cloned workspace keeps the links
    assert.deepStrictEqual(Object.keys(state!.stepFiles), ['cm_open', 'poa', 'da', 'deva', 'cm_retro']);
    for (const f of Object.values(state!.stepFiles)) assert.match(f!, /^cape\/5_sessions\/pair\/task-1_\d_\w+_\d+\.json$/);
  });

  it("the passage of a cape/ file that puts the objective off reaches CM's opening request, after the cache mark, and no other step's", async () => {
    const ws = workspace();
    const putOff = 'Night colours wait for the redesign: the dark mode is not added before then.';
    const list = Array.from({ length: 5 }, (_, i) => `- Release note ${i + 1}, written out in enough words to take a line.`).join('\n');
    writeFiles(ws, { 'cape/1_product/9_later.md': `# Later\n\n## Not this release\n\n${list}\n\n${putOff}\n` });
    for (const r of demoReplies('task-p')) fake.enqueue({ text: r });
    const res = await runSession({ workspace: ws, objective: 'Add a dark mode', taskId: 'task-p', model: 'claude-sonnet-4-6', llm: client(), prompts });
    assert.ok(res.ok, res.error?.message);
    const header = '## Passages of the cape/ files that speak of this objective (whole sections, or the entries of a list of them, best first)\n### cape/1_product/9_later.md › Later › Not this release\n';
    const [opening, ...others] = fake.requests.filter((r) => r.body.messages.length === 1);
    const user = (r: typeof opening) => JSON.stringify(r.body.messages);
    // the list before it shares no word of the objective: its items stay out
    assert.ok(user(opening).includes(JSON.stringify(`${header}${putOff}`).slice(1, -1)), user(opening));
    assert.ok(!user(opening).includes('Release note'), user(opening));
    assert.ok(!JSON.stringify(opening.body.system).includes(putOff), 'not in the cached prefix');
    assert.strictEqual(others.length, 4);
    for (const r of others) assert.ok(!user(r).includes('## Passages of the cape/ files'));
  });

  it('cancel mid-stream aborts, keeps completed steps and resumes from the next one', async () => {
    const ws = workspace();
    const replies = demoReplies('task-2');
    // POA's reply holds once its voice has begun and is never released: only the abort can end that step.
    const voiceAt = replies[1].indexOf('"voice"');
    assert.ok(voiceAt > 0, 'the demo POA reply has a voice');
    fake.enqueue({ text: replies[0] }, { text: replies[1], chunkSize: 4, chunkDelayMs: 20, holdAfterChars: voiceAt + 60 });
    const ac = new AbortController();
    let cancelAt = 0;
    const res = await runSession({
      workspace: ws,
      objective: 'Add a dark mode',
      taskId: 'task-2',
      model: 'claude-sonnet-4-6',
      llm: client(),
      prompts,
      signal: ac.signal,
      onEvent: (e) => {
        if (e.type === 'voice-delta' && e.step === 'poa' && !cancelAt) {
          cancelAt = Date.now();
          ac.abort();
        }
      } });
    assert.strictEqual(res.ok, false);
    assert.strictEqual(res.error?.kind, 'cancelled');
    assert.ok(cancelAt > 0, 'cancelled while the POA voice streamed');
    assert.strictEqual(fake.requests.length, 2, 'a cancelled step is not retried');
    const store = new SessionStore(ws);
    const state = await store.loadSessionState('task-2');
    assert.strictEqual(state?.status, 'failed');
    assert.deepStrictEqual(state?.completedSteps, ['cm_open']);

    fake.reset();
    for (const r of replies.slice(1)) fake.enqueue({ text: r });
    const resumed = await runSession({ workspace: ws, taskId: 'task-2', resume: true, model: 'claude-sonnet-4-6', llm: client(), prompts });
    assert.ok(resumed.ok, resumed.error?.message);
    assert.strictEqual(fake.requests.length, 4);
    assert.deepStrictEqual(resumed.steps.map((s) => s.step), ['cm_open', 'poa', 'da', 'deva', 'cm_retro']);
  });

  it('a resume over a hand-edited step record with a wrong field type fails naming the file and the field (no TypeError)', async () => {
    const ws = workspace();
    const replies = demoReplies('task-edit');
    fake.enqueue({ text: replies[0] }, { text: replies[1] }, { text: replies[2] }, { fault: 'http', status: 400 });
    const opts = { workspace: ws, taskId: 'task-edit', model: 'claude-sonnet-4-6', llm: client(), prompts };
    const first = await runSession({ ...opts, objective: 'Add a dark mode' });
    assert.strictEqual(first.error?.step, 'deva');
    const pair = path.join(ws, 'cape/5_sessions/pair');
    const daName = fs.readdirSync(pair).find((n) => n.startsWith('task-edit_3_DA_'))!;
    const da = JSON.parse(fs.readFileSync(path.join(pair, daName), 'utf8'));
    // an envelope without its agent, a string where an object belongs and an array where an object belongs
    const { agent: _agent, ...envelope } = da.envelope;
    fs.writeFileSync(path.join(pair, daName), JSON.stringify({ ...da, envelope: { ...envelope, ass: 'good' }, usage: [] }));
    fake.reset();
    for (const r of replies.slice(3)) fake.enqueue({ text: r });
    const resumed = await runSession({ ...opts, resume: true });
    assert.strictEqual(resumed.ok, false);
    assert.strictEqual(resumed.error?.step, 'da');
    assert.strictEqual(resumed.error?.kind, 'io');
    assert.strictEqual(resumed.resumable, false);
    const message = resumed.error!.message;
    assert.ok(message.includes(`cape/5_sessions/pair/${daName}`), message);
    assert.match(message, /envelope\.agent: Invalid input: expected string \(the field is missing\)/);
    assert.match(message, /envelope\.ass: Invalid input: expected object, received string/);
    assert.match(message, /usage: Invalid input: expected object, received array/);
    assert.match(message, /Fix those fields in the file, or run step da again\. Re-run the session from that step with `cape resume --task task-edit --from-step da`\./);
    assert.doesNotMatch(message, /Cannot read properties/);
    assert.strictEqual(fake.requests.length, 0, 'nothing is asked on top of a damaged record');
  });

  it('two sessions finishing at once both land in kpt_merged.md', async () => {
    const ws = workspace();
    const kpt = path.join(ws, 'cape/5_sessions/retrospective/kpt_merged.md');
    const before = fs.readFileSync(kpt, 'utf8').split('\n').filter((l) => l.startsWith('- [')).length;
    fake.setResponder((req) => {
      const m = /Task: (task-[ab])/.exec(JSON.stringify(req.body.messages));
      const id = m ? m[1] : 'task-a';
      const n = fake.requests.filter((r) => JSON.stringify(r.body.messages).includes(`Task: ${id}`)).length - 1;
      return { text: demoReplies(id)[n] };
    });
    const run = (id: string) =>
      runSession({ workspace: ws, objective: 'Add a dark mode', taskId: id, model: 'claude-sonnet-4-6', llm: client(), prompts });
    const [a, b] = await Promise.all([run('task-a'), run('task-b')]);
    assert.ok(a.ok && b.ok, `${a.error?.message} ${b.error?.message}`);
    const lines = fs.readFileSync(kpt, 'utf8').split('\n').filter((l) => l.startsWith('- ['));
    assert.strictEqual(lines.length, before + 12, 'six items from each session, none lost');
    assert.strictEqual(lines.filter((l) => l.startsWith('- [task-a]')).length, 6);
    assert.strictEqual(lines.filter((l) => l.startsWith('- [task-b]')).length, 6);
  });

  it('with a custom cape folder, a <file> under <folder>/5_sessions/ is refused when proposed (regression)', async () => {
    const ws = workspace();
    fs.renameSync(path.join(ws, 'cape'), path.join(ws, 'team'));
    const replies = demoReplies('task-cf');
    replies[3] += '\n<file path="team/5_sessions/state/task-cf.json">{"status":"complete"}</file>\n<file path="team/notes.md">ok</file>\n';
    for (const r of replies) fake.enqueue({ text: r });
    const events: SessionEvent[] = [];
    const res = await runSession({
      workspace: ws,
      capeFolder: 'team',
      objective: 'Add a dark mode',
      taskId: 'task-cf',
      model: 'claude-sonnet-4-6',
      llm: client(),
      prompts,
      onEvent: (e) => events.push(e),
    });
    assert.ok(res.ok, res.error?.message);
    const proposed = events.flatMap((e) => (e.type === 'file-proposed' ? [e.file] : []));
    const inSessions = proposed.find((f) => f.path === 'team/5_sessions/state/task-cf.json');
    assert.strictEqual(inSessions?.status, 'refused', 'the panel must not offer a write into the session store');
    assert.match(inSessions!.reason ?? '', /5_sessions/);
    assert.strictEqual(proposed.find((f) => f.path === 'team/notes.md')?.status, 'proposed', 'the rest of the folder is writable');
    assert.strictEqual(res.files.find((f) => f.path === 'team/5_sessions/state/task-cf.json')?.status, 'refused');
  });

  it('session metrics are priced by the one table, an Opus 4.5+ at $5/$25 (regression)', async () => {
    const ws = workspace();
    for (const r of demoReplies('task-opus')) fake.enqueue({ text: r });
    const res = await runSession({ workspace: ws, objective: 'Add a dark mode', taskId: 'task-opus', model: 'claude-opus-4-6', llm: client(), prompts });
    assert.ok(res.ok, res.error?.message);
    const m = res.metrics!;
    let total = 0;
    for (const [step, s] of Object.entries(m.perStep)) {
      assert.ok(s!.usage.inputTokens > 0, step);
      const expected = costUsd('claude-opus-4-6', s!.usage)!;
      assert.strictEqual(s!.costUsd, expected, step);
      const w1h = s!.usage.cacheCreation1hInputTokens ?? 0;
      const w5m = s!.usage.cacheCreationInputTokens - w1h;
      assert.ok(Math.abs(expected - (s!.usage.inputTokens * 5 + s!.usage.outputTokens * 25 + w5m * 6.25 + w1h * 10 + s!.usage.cacheReadInputTokens * 0.5) / 1e6) < 1e-12);
      total += expected;
    }
    assert.ok(Math.abs(m.totalCostUsd! - total) < 1e-12);
    const retro = fs.readFileSync(res.retrospectivePath!, 'utf8');
    assert.ok(retro.includes(m.totalCostUsd!.toFixed(4)), 'the retrospective shows the same total');
  });

  it('an objective-less start and a missing cape/ fail with actionable messages', async () => {
    const ws = tempDir('cape-nocape-');
    const r1 = await runSession({ workspace: ws, objective: 'x', model: 'm', llm: client(), prompts });
    assert.strictEqual(r1.error?.kind, 'config');
    assert.match(r1.error!.message, /Initialize Project|cape init/);
    const r2 = await runSession({ workspace: workspace(), objective: '   ', model: 'm', llm: client(), prompts });
    assert.match(r2.error!.message, /objective/i);
    assert.strictEqual(fake.requests.length, 0);
  });
});
