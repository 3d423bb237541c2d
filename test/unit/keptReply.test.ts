// DevA's reply kept in pending/ once it validates (src/core/session/keptReply.ts, src/core/store/pendingReplies.ts), in
// process: an edit repair answered before the step failed is kept too (the resume sends neither DevA's request nor the
// repair request); the kept reply's voice, which nothing streamed, is shown by the CLI transcript; a damaged kept
// reply or one written on other records of the earlier steps is not used (a warning says why, and DevA is asked
// again); the store reads a kept reply back checked.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { AnthropicClient } from '../../src/core/llm/anthropic/client';
import { defaultPromptsDir, loadPromptAssets } from '../../src/core/cape/prompts';
import { runSession } from '../../src/core/session/runner';
import { SessionStore, StoreError, type PendingReply } from '../../src/core/store';
import type { SessionEvent, ToolCallRecord } from '../../src/core/model/types';
import { Writable } from 'stream';
import { printer } from '../../src/cli/printer';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { tempDir, workspaceWithOriginalCape } from '../helpers/cli';
import { demoReplies } from '../helpers/demo';
import { repoRoot } from '../helpers/fixtures';
import { FIX_OK, REPAIRED_EDIT, strayEditProposal } from '../helpers/checksSession';

const prompts = loadPromptAssets(defaultPromptsDir());
const TASK = 'task-kr';

/** The repair leaves the BUG marker the calc workspace's check fails on: a fix round follows the repair. */
const REPAIRED_WITH_BUG = REPAIRED_EDIT.replace("exports.mul = require('./mul').mul;", "exports.mul = require('./mul').mul; // BUG: check the import");

function text(content: unknown): string {
  return typeof content === 'string' ? content : (content as { text?: string }[]).map((b) => b.text ?? '').join('');
}

describe('DevA\'s kept reply (resume after a failure past the reply)', function () {
  this.timeout(60000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 256 }, (f) => (fake = f));

  const workspace = () => workspaceWithOriginalCape('cape-kept-', path.join(repoRoot(), 'test', 'checks', 'workspace'));
  const pendingFile = (ws: string) => path.join(ws, 'cape', '5_sessions', 'pending', `${TASK}_4_DevA.json`);
  const run = (ws: string, extra: Partial<Parameters<typeof runSession>[0]> = {}, warnings: string[] = []) =>
    runSession({
      workspace: ws,
      objective: 'Add multiplication',
      taskId: TASK,
      model: 'claude-sonnet-4-6',
      llm: new AnthropicClient({ apiKey: 'k', baseURL: fake.url, idleTimeoutMs: 5000 }),
      prompts,
      retry: { maxAttempts: 1 },
      onWarning: (w) => warnings.push(w),
      ...extra,
    });

  /** A session that fails at DevA's edit repair request, its reply kept. */
  async function failedAtRepair(ws: string): Promise<void> {
    const r = demoReplies(TASK);
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: strayEditProposal(TASK) }, { fault: 'http', status: 400 });
    const first = await run(ws);
    assert.strictEqual(first.error?.step, 'deva');
    assert.ok(fs.existsSync(pendingFile(ws)));
    fake.reset();
  }

  it('an edit repair answered before the checks failed is kept too: the resume sends only the fix request', async () => {
    const ws = workspace();
    const r = demoReplies(TASK);
    const checks = { commands: ['npm test'], fixRounds: 2 };
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: strayEditProposal(TASK) }, { text: REPAIRED_WITH_BUG }, { fault: 'http', status: 400 });
    const first = await run(ws, { checks });
    assert.strictEqual(first.error?.step, 'deva', first.error?.message);
    assert.strictEqual(fake.requests.length, 6, 'CM, POA, DA, DevA, the repair, the fix request');
    const kept = JSON.parse(fs.readFileSync(pendingFile(ws), 'utf8'));
    assert.strictEqual(kept.editRepair.raw, REPAIRED_WITH_BUG);
    const fixAsk = fake.requests[5].body.messages;

    fake.reset();
    fake.enqueue({ text: FIX_OK }, { text: r[4] });
    const resumed = await run(ws, { checks, resume: true });
    assert.ok(resumed.ok, resumed.error?.message);
    assert.strictEqual(fake.requests.length, 2, 'the fix request and the retrospective');
    assert.deepStrictEqual(fake.requests[0].body.messages, fixAsk);
    assert.strictEqual(text(fake.requests[0].body.messages.at(-2).content), REPAIRED_WITH_BUG, 'the fix request follows the kept repair');
    const calc = resumed.files.find((f) => f.path === 'src/calc.js')!;
    assert.ok(calc.content.includes("exports.mul = require('./mul').mul;\n") && !calc.content.includes('BUG'), calc.content);
    assert.ok(!fs.existsSync(pendingFile(ws)));
    // DevA's step usage counts its first request and the repair (kept), and the fix request of this run
    const before = first.steps.find((s) => s.step === 'deva')!.usage;
    const after = resumed.steps.find((s) => s.step === 'deva')!.usage;
    assert.ok(before.outputTokens > 0 && after.outputTokens > before.outputTokens, `${JSON.stringify(before)} → ${JSON.stringify(after)}`);
    assert.ok(after.inputTokens > before.inputTokens);
  });

  it("the resumed step goes on with the tool budget its kept reply had used (cape.tools.maxCalls bounds the step, not each run)", async () => {
    const ws = workspace();
    const r = demoReplies(TASK);
    const tools = { maxCalls: 2 };
    const read = { name: 'read_file', input: { path: 'src/calc.js' } };
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { toolCalls: [read, read] }, { text: strayEditProposal(TASK) }, { fault: 'http', status: 400 });
    const first = await run(ws, { tools });
    assert.strictEqual(first.error?.step, 'deva', first.error?.message);
    assert.strictEqual(fake.requests.length, 6, 'CM, POA, DA, DevA calling tools, DevA, the repair');
    assert.deepStrictEqual(fake.requests[5].body.tool_choice, { type: 'none' }, 'the repair request of the first run: the budget is spent');

    fake.reset();
    fake.enqueue({ toolCalls: [read] }, { text: REPAIRED_EDIT }, { text: r[4] });
    const calls: ToolCallRecord[] = [];
    const resumed = await run(ws, { tools, resume: true, onEvent: (e) => e.type === 'tool-call' && calls.push(e.call) });
    assert.ok(resumed.ok, resumed.error?.message);
    assert.deepStrictEqual(fake.requests[0].body.tool_choice, { type: 'none' }, 'the resumed repair request: still spent');
    const answered = fake.toolResults.filter((t) => t.requestIndex === 1);
    assert.deepStrictEqual(answered.map((t) => [t.content, t.isError]), [['limit reached — write your answer now', true]]);
    assert.deepStrictEqual(calls.map((c) => !!c.limited), [true]);
  });

  it("a kept reply's voice, which nothing streamed in the resume, is shown by the CLI transcript", async () => {
    const ws = workspace();
    await failedAtRepair(ws);
    const r = demoReplies(TASK);
    fake.enqueue({ text: REPAIRED_EDIT }, { text: r[4] });
    let shown = '';
    const print = printer(new Writable({ write: (chunk: Buffer, _enc, done) => ((shown += chunk.toString('utf8')), done()) }));
    const events: SessionEvent[] = [];
    const resumed = await run(ws, { resume: true, onEvent: (e) => (events.push(e), print(e)) });
    assert.ok(resumed.ok, resumed.error?.message);
    assert.strictEqual(fake.requests.length, 2, 'the repair and the retrospective: DevA is not asked again');
    assert.ok(!events.some((e) => e.type === 'voice-delta' && e.step === 'deva'), 'nothing of DevA streamed');
    const envelope = events.find((e) => e.type === 'envelope' && e.step === 'deva');
    assert.ok(envelope?.type === 'envelope' && envelope.voiceNotStreamed, JSON.stringify(envelope));
    const voice = envelope.envelope.voice.trim();
    assert.ok(voice);
    assert.ok(shown.includes(`  The voice of the envelope used:\n${voice}\n`), shown);
  });

  it('a kept reply with a field of the wrong type is not used: a warning names the file and the field, DevA is asked again', async () => {
    const ws = workspace();
    await failedAtRepair(ws);
    const kept = JSON.parse(fs.readFileSync(pendingFile(ws), 'utf8'));
    fs.writeFileSync(pendingFile(ws), JSON.stringify({ ...kept, sent: { role: 'user' } }));
    const r = demoReplies(TASK);
    fake.enqueue({ text: strayEditProposal(TASK) }, { text: REPAIRED_EDIT }, { text: r[4] });
    const warnings: string[] = [];
    const resumed = await run(ws, { resume: true }, warnings);
    assert.ok(resumed.ok, resumed.error?.message);
    assert.strictEqual(fake.requests.length, 3, "DevA's request, the repair, the retrospective");
    const warning = warnings.find((w) => w.includes('cannot be used'));
    assert.ok(warning, warnings.join('\n'));
    assert.ok(warning.includes(pendingFile(ws)), warning);
    assert.match(warning, /sent: Invalid input: expected array, received object/);
    assert.match(warning, /DevA is asked again/);
  });

  it('a kept reply written on other records of the earlier steps is not used', async () => {
    const ws = workspace();
    await failedAtRepair(ws);
    const kept = JSON.parse(fs.readFileSync(pendingFile(ws), 'utf8'));
    fs.writeFileSync(pendingFile(ws), JSON.stringify({ ...kept, basis: { ...kept.basis, da: 'cape/5_sessions/pair/task-kr_3_DA_1.json' } }));
    const r = demoReplies(TASK);
    fake.enqueue({ text: strayEditProposal(TASK) }, { text: REPAIRED_EDIT }, { text: r[4] });
    const warnings: string[] = [];
    const resumed = await run(ws, { resume: true }, warnings);
    assert.ok(resumed.ok, resumed.error?.message);
    assert.strictEqual(fake.requests.length, 3, "DevA's request, the repair, the retrospective");
    assert.ok(warnings.some((w) => /written on other records of the earlier steps; DevA is asked again/.test(w)), warnings.join('\n'));
  });

  it('the store keeps a pending reply, reads it back checked and removes it', async () => {
    const store = new SessionStore(tempDir('cape-pending-'));
    const reply: PendingReply = {
      step: 'deva',
      basis: { da: 'cape/5_sessions/pair/t_3_DA_1.json' },
      raw: 'reply',
      sent: [{ role: 'user', content: 'do it' }],
      usage: { inputTokens: 1, outputTokens: 2, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
      model: 'm',
      continuations: 0,
      warnings: [],
      toolCalls: [],
      readPaths: ['src/a.ts'],
      receivedWhole: [],
      feedback: [],
      editRepair: { raw: 'fixed', sent: [{ role: 'user', content: 'fix' }] },
      keptAt: 5,
    };
    const file = await store.savePendingReply('t', reply);
    assert.deepStrictEqual(await store.loadPendingReply('t', 'deva'), { reply, file });
    assert.strictEqual(await store.loadPendingReply('t', 'poa'), null);
    fs.writeFileSync(file, JSON.stringify({ ...reply, usage: 'lots' }));
    await assert.rejects(store.loadPendingReply('t', 'deva'), (e: Error) => e instanceof StoreError && e.message.includes(file) && /usage: Invalid input: expected object/.test(e.message));
    await store.removePendingReply('t', 'deva');
    assert.strictEqual(await store.loadPendingReply('t', 'deva'), null);
    await store.removePendingReply('t', 'deva');
  });
});
