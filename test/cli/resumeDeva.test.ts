// A DevA step that fails after its reply validated — the edit repair request breaks, the fix request of the checks
// breaks, Ctrl-C while a check runs — is resumed from that reply: it is kept on disk the moment it validates, and the
// resume redoes only what failed (the repair request, or the checks and their fix rounds), without asking DevA again.
// Each resumed session ends with the proposal an uninterrupted session of the same replies ends with.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { type FakeAnthropic, type FakeReply } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { interruptCli, listFiles, runCli, tempDir, workspaceWithOriginalCape, type CliRun } from '../helpers/cli';
import { demoReplies } from '../helpers/demo';
import { repoRoot } from '../helpers/fixtures';
import { FIX_OK, REPAIRED_EDIT, firstProposal, strayEditProposal } from '../helpers/checksSession';

const TASK = 'task-kept';

const STRAY_EDIT = strayEditProposal(TASK);

function text(content: unknown): string {
  return typeof content === 'string' ? content : (content as { text?: string }[]).map((b) => b.text ?? '').join('');
}

/** What a session proposed: path, status, action and content of each file. */
function proposal(run: CliRun): unknown {
  return run.json.files.map((f: { path: string; status: string; action: string; content: string }) => [f.path, f.status, f.action, f.content]);
}

/** The replies kept in pending/ (DevA's, until its step is saved). */
function keptReplies(ws: string): string[] {
  return listFiles(path.join(ws, 'cape', '5_sessions', 'pending'));
}

describe('CLI: a DevA step that failed after its reply validated resumes from that reply', function () {
  this.timeout(120000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 256 }, (f) => (fake = f));

  const template = path.join(repoRoot(), 'test', 'checks', 'workspace');
  const env = () => ({ ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'k', TMPDIR: tempDir('cape-kept-tmp-') });
  const start = (ws: string, extra: string[] = []) => runCli(['start', '--workspace', ws, '--objective', 'Add multiplication', '--task', TASK, '--json', ...extra], env());
  const resume = (ws: string, extra: string[] = []) => runCli(['resume', '--workspace', ws, '--task', TASK, '--json', ...extra], env());

  /** The same session without a failure: the proposal the resumed one must end with. */
  async function uninterrupted(replies: FakeReply[], extra: string[] = []): Promise<CliRun> {
    const ws = workspaceWithOriginalCape('cape-kept-ref-', template);
    fake.reset();
    fake.enqueue(...replies);
    const run = await start(ws, extra);
    assert.strictEqual(run.code, 0, run.stderr);
    fake.reset();
    return run;
  }

  it('the edit repair request fails: the resume sends only the repair request (in DevA\'s conversation), then the retrospective', async () => {
    const r = demoReplies(TASK);
    const reference = await uninterrupted([{ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: STRAY_EDIT }, { text: REPAIRED_EDIT }, { text: r[4] }]);

    const ws = workspaceWithOriginalCape('cape-kept-', template);
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: STRAY_EDIT }, { fault: 'http', status: 400, message: 'the repair request broke' });
    const first = await start(ws);
    assert.strictEqual(first.code, 1, first.stderr);
    assert.strictEqual(first.json.error.step, 'deva');
    assert.strictEqual(first.json.resumable, true);
    assert.strictEqual(fake.requests.length, 5, 'CM, POA, DA, DevA, the repair request');
    const devaAsk = fake.requests[3].body.messages;
    const repairAsk = fake.requests[4].body.messages;
    const repairSystem = fake.requests[4].body.system;
    assert.deepStrictEqual(keptReplies(ws), [`${TASK}_4_DevA.json`], "DevA's validated reply is on disk");

    fake.reset();
    fake.enqueue({ text: REPAIRED_EDIT }, { text: r[4] });
    const resumed = await resume(ws);
    assert.strictEqual(resumed.code, 0, resumed.stderr);
    assert.strictEqual(fake.requests.length, 2, 'the repair request and the retrospective: DevA is not asked again');
    // the repair request is the one that failed: DevA's first request, its reply, the repair prompt
    assert.deepStrictEqual(fake.requests[0].body.messages, repairAsk);
    assert.deepStrictEqual(fake.requests[0].body.system, repairSystem, "DevA's system prompt");
    assert.deepStrictEqual(fake.requests[0].body.messages.slice(0, devaAsk.length), devaAsk);
    assert.strictEqual(text(fake.requests[0].body.messages.at(-2).content), STRAY_EDIT);
    assert.match(text(fake.requests[0].body.messages.at(-1).content), /Some of your <edit> blocks could not be applied/);
    assert.match(JSON.stringify(fake.requests[1].body.system), /retrospective/i);
    assert.match(resumed.stderr, /DevA's reply from the previous run is used/);
    assert.deepStrictEqual(proposal(resumed), proposal(reference), 'the same proposal as without the failure');
    assert.deepStrictEqual(keptReplies(ws), [], 'the kept reply is gone once the step is saved');
    const pairDir = path.join(ws, 'cape', '5_sessions', 'pair');
    const rec = JSON.parse(fs.readFileSync(path.join(pairDir, fs.readdirSync(pairDir).find((f) => f.startsWith(`${TASK}_4_DevA_`))!), 'utf8'));
    assert.strictEqual(rec.raw, STRAY_EDIT);
    assert.strictEqual(rec.editRepair, REPAIRED_EDIT);
  });

  it('the fix request of the checks fails: the resume runs the checks again and sends the fix request, not DevA\'s', async () => {
    const r = demoReplies(TASK);
    const FIRST = firstProposal(TASK);
    const checks = ['--check', 'npm test'];
    const reference = await uninterrupted([{ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: FIRST }, { text: FIX_OK }, { text: r[4] }], checks);

    const ws = workspaceWithOriginalCape('cape-kept-', template);
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: FIRST }, { fault: 'http', status: 400, message: 'the fix request broke' });
    const first = await start(ws, checks);
    assert.strictEqual(first.code, 1, first.stderr);
    assert.strictEqual(first.json.error.step, 'deva');
    assert.strictEqual(fake.requests.length, 5, 'CM, POA, DA, DevA, the fix request');
    const fixAsk = fake.requests[4].body.messages;

    fake.reset();
    fake.enqueue({ text: FIX_OK }, { text: r[4] });
    const resumed = await resume(ws, checks);
    assert.strictEqual(resumed.code, 0, resumed.stderr);
    assert.strictEqual(fake.requests.length, 2, 'the fix request and the retrospective: DevA is not asked again');
    assert.deepStrictEqual(fake.requests[0].body.messages, fixAsk, 'the same fix request, in DevA\'s conversation');
    assert.strictEqual(text(fake.requests[0].body.messages.at(-2).content), FIRST);
    assert.match(text(fake.requests[0].body.messages.at(-1).content), /fix round 1 of 2/);
    assert.deepStrictEqual(resumed.json.checks, reference.json.checks);
    assert.deepStrictEqual(proposal(resumed), proposal(reference), 'the same proposal as without the failure');
    assert.deepStrictEqual(keptReplies(ws), []);
  });

  it('Ctrl-C while a check runs: the resume runs the checks again without asking DevA', async () => {
    const r = demoReplies(TASK);
    const FIRST = firstProposal(TASK);
    // the check blocks on a file this test controls (never on timing): <ctl>/block makes it wait, <ctl>/started says so
    const ctl = tempDir('cape-kept-ctl-');
    const checks = ['--check', `node gate.js ${ctl} && node check.js`];
    const reference = await uninterrupted([{ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: FIRST }, { text: FIX_OK }, { text: r[4] }], checks);

    const ws = workspaceWithOriginalCape('cape-kept-', template);
    fs.writeFileSync(path.join(ctl, 'block'), '');
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: FIRST });
    const args = ['start', '--workspace', ws, '--objective', 'Add multiplication', '--task', TASK, '--json', ...checks];
    const { code, stderr, json } = await interruptCli(args, env(), { when: () => fs.existsSync(path.join(ctl, 'started')), what: 'the check starting', signal: 'SIGINT', waitMs: 60_000 });
    assert.strictEqual(code, 130, stderr);
    assert.strictEqual(json.error.step, 'deva');
    assert.strictEqual(json.error.kind, 'cancelled');
    assert.strictEqual(fake.requests.length, 4, 'CM, POA, DA, DevA');

    fs.rmSync(path.join(ctl, 'block'));
    fake.reset();
    fake.enqueue({ text: FIX_OK }, { text: r[4] });
    const resumed = await resume(ws, checks);
    assert.strictEqual(resumed.code, 0, resumed.stderr);
    assert.strictEqual(fake.requests.length, 2, 'the fix request and the retrospective: DevA is not asked again');
    assert.strictEqual(text(fake.requests[0].body.messages.at(-2).content), FIRST);
    assert.match(text(fake.requests[0].body.messages.at(-1).content), /fix round 1 of 2/);
    assert.deepStrictEqual(resumed.json.checks, reference.json.checks);
    assert.deepStrictEqual(proposal(resumed), proposal(reference), 'the same proposal as without the failure');
  });

  it('--from-step deva asks DevA again: a kept reply is only for a plain resume', async () => {
    const r = demoReplies(TASK);
    const ws = workspaceWithOriginalCape('cape-kept-', template);
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: STRAY_EDIT }, { fault: 'http', status: 400, message: 'the repair request broke' });
    assert.strictEqual((await start(ws)).code, 1);
    assert.deepStrictEqual(keptReplies(ws), [`${TASK}_4_DevA.json`]);

    fake.reset();
    const FIRST = firstProposal(TASK);
    fake.enqueue({ text: FIRST }, { text: r[4] });
    const again = await resume(ws, ['--from-step', 'deva']);
    assert.strictEqual(again.code, 0, again.stderr);
    assert.strictEqual(fake.requests.length, 2, "DevA's request and the retrospective");
    assert.ok(!JSON.stringify(fake.requests[0].body.messages).includes('Some of your <edit> blocks'), 'a new DevA request, not the repair');
    assert.deepStrictEqual(keptReplies(ws), []);
  });

  it('a kept reply a crash left behind its saved step (no use to any resume) is removed when the session completes', async () => {
    const r = demoReplies(TASK);
    const ws = workspaceWithOriginalCape('cape-kept-', template);
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: firstProposal(TASK) }, { fault: 'http', status: 400, message: 'the retrospective broke' });
    assert.strictEqual((await start(ws)).code, 1);
    assert.deepStrictEqual(keptReplies(ws), [], "DevA's step was saved, and its kept reply removed");
    // a crash between the step's record and the removal of its kept reply leaves this
    const pending = path.join(ws, 'cape', '5_sessions', 'pending');
    fs.mkdirSync(pending, { recursive: true });
    fs.writeFileSync(path.join(pending, `${TASK}_4_DevA.json`), '{}');

    fake.reset();
    fake.enqueue({ text: r[4] });
    const resumed = await resume(ws);
    assert.strictEqual(resumed.code, 0, resumed.stderr);
    assert.strictEqual(fake.requests.length, 1, 'only the retrospective');
    assert.ok(!fs.existsSync(pending), 'pending/ is gone with its leftover');
  });
});
