// One run of a session at a time: a second run of the same task id (a resume in one terminal while another resumes
// it, the CLI while VS Code runs it) is refused at once, before it reads or writes anything of the session, and the
// first run goes on untouched. A lock left by a process that no longer runs is broken with a warning.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AnthropicClient } from '../../src/core/llm/anthropic/client';
import { defaultPromptsDir, loadPromptAssets } from '../../src/core/cape/prompts';
import { runSession, type SessionOptions } from '../../src/core/session/runner';
import { SessionStore } from '../../src/core/store';
import type { FakeAnthropic } from '../fake-anthropic';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { workspaceWithOriginalCape } from '../helpers/cli';
import { demoDir, demoReplies } from '../helpers/demo';

describe('session lock: one run of a session at a time', function () {
  this.timeout(60000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 16 }, (f) => (fake = f));

  const prompts = loadPromptAssets(defaultPromptsDir());
  const client = () => new AnthropicClient({ apiKey: 'k', baseURL: fake.url, idleTimeoutMs: 10000, maxRetries: 0 });
  const run = (ws: string, taskId: string, extra: Partial<SessionOptions> = {}) =>
    runSession({ workspace: ws, objective: 'Add a dark mode', taskId, model: 'claude-sonnet-4-6', llm: client(), prompts, retry: { baseDelayMs: 1 }, ...extra });
  const demoWorkspace = () => workspaceWithOriginalCape('cape-lock-', path.join(demoDir(), 'workspace'));

  it('a second run of a running session (a resume, or a new run under its id) is refused at once; the first completes', async () => {
    const ws = demoWorkspace();
    const r = demoReplies('task-lk1');
    fake.enqueue({ text: r[0] }, { text: r[1], holdAfterChars: r[1].indexOf('"voice"') + 40 }, { text: r[2] }, { text: r[3] }, { text: r[4] });
    let streaming!: () => void;
    const poaStreams = new Promise<void>((resolve) => (streaming = resolve));
    const first = run(ws, 'task-lk1', { onEvent: (e) => e.type === 'voice-delta' && e.step === 'poa' && streaming() });
    await poaStreams;
    const store = new SessionStore(ws);
    const before = fs.readFileSync(store.statePath('task-lk1'), 'utf8');
    for (const extra of [{ resume: true }, {}, { resume: true, fromStep: 'poa' as const }]) {
      const second = await run(ws, 'task-lk1', extra);
      assert.strictEqual(second.ok, false);
      assert.strictEqual(second.error?.kind, 'config');
      assert.strictEqual(second.resumable, false);
      assert.match(second.error!.message, new RegExp(`^Session task-lk1 is already running \\(process ${process.pid} on \\S+, since \\d{4}-`));
      assert.match(second.error!.message, /delete cape\/5_sessions\/state\/task-lk1\.json\.lock and try again/);
    }
    // the refused runs sent nothing and wrote nothing: the running session's state is as it was
    assert.strictEqual(fake.requests.length, 2);
    assert.strictEqual(fs.readFileSync(store.statePath('task-lk1'), 'utf8'), before);
    fake.release();
    const res = await first;
    assert.ok(res.ok, res.error?.message);
    assert.strictEqual(fs.existsSync(`${store.statePath('task-lk1')}.lock`), false, 'released when the run ends');
    // and a finished run's lock no longer stands in the way (resume says the session completed, not that it runs)
    const again = await run(ws, 'task-lk1', { resume: true });
    assert.match(again.error!.message, /already completed/);
  });

  it('a lock left by a process that no longer runs is broken with a warning, and the run goes on', async () => {
    const ws = demoWorkspace();
    const r = demoReplies('task-lk2');
    fake.enqueue(...r.map((text) => ({ text })));
    const store = new SessionStore(ws);
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    fs.mkdirSync(store.stateDir, { recursive: true });
    fs.writeFileSync(`${store.statePath('task-lk2')}.lock`, `${dead} ${os.hostname().replace(/\s+/g, '_')} ${Date.now()} 0123456789abcdef`);
    const warnings: string[] = [];
    const res = await run(ws, 'task-lk2', { onWarning: (w) => warnings.push(w) });
    assert.ok(res.ok, res.error?.message);
    assert.match(warnings.join('\n'), new RegExp(`Removed the stale lock .*task-lk2\\.json\\.lock: its holder, process ${dead} on .*, no longer runs`));
    assert.strictEqual(fs.existsSync(`${store.statePath('task-lk2')}.lock`), false);
  });

  it('a run that fails releases the lock: the resume that follows runs', async () => {
    const ws = demoWorkspace();
    const r = demoReplies('task-lk3');
    fake.enqueue({ text: r[0] }, { fault: 'midstream-error', afterChars: 20, errorType: 'authentication_error' });
    const failed = await run(ws, 'task-lk3');
    assert.strictEqual(failed.error?.kind, 'auth');
    const store = new SessionStore(ws);
    assert.strictEqual(fs.existsSync(`${store.statePath('task-lk3')}.lock`), false);
    fake.reset();
    fake.enqueue(...r.slice(1).map((text) => ({ text })));
    const resumed = await run(ws, 'task-lk3', { resume: true });
    assert.ok(resumed.ok, resumed.error?.message);
  });
});
