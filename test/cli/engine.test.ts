// The CLI's ways in and out (issue 7): task ids never overwrite an earlier session, the resume hint appears exactly
// when resume can continue, damaged files say how to recover (`--from-step`), inputs are checked before anything is
// written, leftovers of a killed process are cleaned up and a step saved just before the kill is not paid twice.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { listFiles, runCli, runCliWithInput, tempDir, workspaceWithOriginalCape, type CliRun } from '../helpers/cli';
import { demoDir, demoReplies } from '../helpers/demo';
import { MAX_OBJECTIVE_CHARS } from '../../src/core/session/objective';

const TASK = 'task-7';
const RESUME_HINT = /cape resume --workspace/;

const demoWorkspace = () => workspaceWithOriginalCape('cape-engine-', path.join(demoDir(), 'workspace'));
const sessions = (ws: string) => path.join(ws, 'cape/5_sessions');

describe('CLI engine: task ids, resume hints, damaged files, inputs, leftovers', function () {
  this.timeout(90000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 256, apiKey: 'good-key' }, (f) => (fake = f));

  const env = (key = 'good-key') => ({ ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: key });
  const start = (ws: string, extra: string[] = [], key?: string) =>
    runCli(['start', '--workspace', ws, '--objective', 'Add a dark mode', '--task', TASK, '--json', ...extra], env(key));
  const resume = (ws: string, extra: string[] = []) => runCli(['resume', '--workspace', ws, '--task', TASK, '--json', ...extra], env());
  const statePath = (ws: string) => path.join(sessions(ws), 'state', `${TASK}.json`);
  const pairOf = (ws: string, tag: string) => listFiles(path.join(sessions(ws), 'pair')).filter((f) => f.includes(tag));

  /** A session that saved the CM opening and POA, then failed at DA (its reply invalid twice). */
  async function failedAtDa(ws: string): Promise<CliRun> {
    fake.reset();
    const r = demoReplies(TASK);
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: 'no envelope' }, { text: 'still none' });
    const run = await start(ws);
    assert.strictEqual(run.code, 1, run.stderr);
    assert.deepStrictEqual(JSON.parse(fs.readFileSync(statePath(ws), 'utf8')).completedSteps, ['cm_open', 'poa']);
    fake.reset();
    return run;
  }

  it('start --task with an id already used refuses, names the way out and leaves the earlier session intact', async () => {
    const ws = demoWorkspace();
    for (const t of demoReplies(TASK)) fake.enqueue({ text: t });
    assert.strictEqual((await start(ws)).code, 0);
    const before = new Map(listFiles(sessions(ws)).map((f) => [f, fs.readFileSync(path.join(sessions(ws), f), 'utf8')]));
    fake.reset();
    for (const t of demoReplies(TASK)) fake.enqueue({ text: t });
    const again = await start(ws);
    assert.strictEqual(again.code, 1);
    assert.match(again.stderr, /Task id task-7 is already used by an earlier session/);
    assert.match(again.stderr, /leave out --task/);
    assert.doesNotMatch(again.stderr, RESUME_HINT, 'a complete session is not resumable');
    assert.strictEqual(fake.requests.length, 0);
    const after = new Map(listFiles(sessions(ws)).map((f) => [f, fs.readFileSync(path.join(sessions(ws), f), 'utf8')]));
    assert.deepStrictEqual(after, before, 'state, pair files, retrospective and KPT untouched');

    // An id used by a failed session points to resume instead.
    const ws2 = demoWorkspace();
    await failedAtDa(ws2);
    const clash = await start(ws2);
    assert.strictEqual(clash.code, 1);
    assert.match(clash.stderr, /cape resume --task task-7/);
    assert.strictEqual(fake.requests.length, 0);
    assert.deepStrictEqual(JSON.parse(fs.readFileSync(statePath(ws2), 'utf8')).completedSteps, ['cm_open', 'poa']);
  });

  it('the resume hint appears after a 401 (and resume then completes) but not where resume cannot help', async () => {
    // 401: the state is saved, so resume works once the key is fixed.
    const ws = demoWorkspace();
    const denied = await start(ws, [], 'wrong-key');
    assert.strictEqual(denied.code, 1);
    assert.strictEqual(denied.json.resumable, true);
    assert.match(denied.stderr, /Once the key is fixed, resume with: cape resume --workspace .* --task task-7/);
    fake.reset();
    for (const t of demoReplies(TASK)) fake.enqueue({ text: t });
    const resumed = await resume(ws);
    assert.strictEqual(resumed.code, 0, resumed.stderr);
    assert.strictEqual(fake.requests.length, 5);

    // Invalid task id: a usage error before anything runs, nothing saved.
    const other = demoWorkspace();
    for (const args of [
      ['start', '--objective', 'x', '--task', '../evil', '--json'],
      ['resume', '--task', 'a b'],
      ['repeat', '--task', '../x', '--times', '1'],
    ]) {
      const bad = await runCli([args[0], '--workspace', other, ...args.slice(1)], env());
      assert.strictEqual(bad.code, 2, args.join(' '));
      assert.match(bad.stderr, /^cape: --task: Invalid task id "[^"]+": use 1–128 letters/, args.join(' '));
      assert.doesNotMatch(bad.stderr + bad.stdout, RESUME_HINT);
    }
    const saved = path.join(sessions(other), 'state');
    assert.deepStrictEqual(fs.existsSync(saved) ? fs.readdirSync(saved) : [], [], 'nothing saved');

    // No cape/ folder: nothing saved.
    const empty = await start(tempDir('cape-engine-empty-'));
    assert.doesNotMatch(empty.stderr + empty.stdout, RESUME_HINT);

    // Already complete: resume says so and does not mark the session failed.
    const done = await resume(ws);
    assert.strictEqual(done.code, 1);
    assert.match(done.stderr, /already completed/);
    assert.doesNotMatch(done.stderr + done.stdout, RESUME_HINT);
    assert.strictEqual(JSON.parse(fs.readFileSync(statePath(ws), 'utf8')).status, 'complete');

    // A damaged state file.
    const ws3 = demoWorkspace();
    await failedAtDa(ws3);
    fs.writeFileSync(statePath(ws3), '{"taskId": "task-7", "status": ');
    const damaged = await resume(ws3);
    assert.strictEqual(damaged.code, 1);
    assert.match(damaged.stderr, /state file of session task-7 \(cape\/5_sessions\/state\/task-7\.json\) is damaged/);
    assert.doesNotMatch(damaged.stderr + damaged.stdout, RESUME_HINT);
    assert.strictEqual(fake.requests.length, 0);
  });

  it('a read-only 5_sessions/ is named, with no resume hint', async function () {
    if (process.getuid?.() === 0) this.skip(); // root writes anyway
    const ws = demoWorkspace();
    fs.mkdirSync(path.join(sessions(ws), 'state'), { recursive: true });
    fs.chmodSync(path.join(sessions(ws), 'state'), 0o555);
    try {
      const run = await start(ws);
      assert.strictEqual(run.code, 1);
      assert.match(run.stderr, /Cannot write .*5_sessions\/state .*permission denied/);
      assert.doesNotMatch(run.stderr + run.stdout, RESUME_HINT);
      assert.strictEqual(run.json.resumable, false);
      assert.strictEqual(fake.requests.length, 0);
    } finally {
      fs.chmodSync(path.join(sessions(ws), 'state'), 0o755);
    }
  });

  it('a damaged pair file names itself and `--from-step` re-runs from that step', async () => {
    const ws = demoWorkspace();
    await failedAtDa(ws);
    const poa = pairOf(ws, '_2_POA_');
    assert.strictEqual(poa.length, 1);
    fs.writeFileSync(path.join(sessions(ws), 'pair', poa[0]), '{"step": "poa", "raw": "cut');
    const run = await resume(ws);
    assert.strictEqual(run.code, 1);
    assert.match(run.stderr, /saved record of step poa \(cape\/5_sessions\/pair\/task-7_2_POA_\d+\.json\) is damaged/);
    assert.match(run.stderr, /cape resume --task task-7 --from-step poa/);
    assert.doesNotMatch(run.stderr + run.stdout, RESUME_HINT);
    assert.strictEqual(fake.requests.length, 0);

    const r = demoReplies(TASK);
    fake.enqueue({ text: r[1] }, { text: r[2] }, { text: r[3] }, { text: r[4] });
    const again = await resume(ws, ['--from-step', 'poa']);
    assert.strictEqual(again.code, 0, again.stderr);
    assert.strictEqual(fake.requests.length, 4, 'poa, da, deva, cm_retro');
    assert.match(JSON.stringify(fake.requests[0].body.messages), /Product Owner|POA/);
    assert.strictEqual(JSON.parse(fs.readFileSync(statePath(ws), 'utf8')).status, 'complete');

    const wrong = await resume(ws, ['--from-step', 'qa']);
    assert.strictEqual(wrong.code, 2);
    assert.match(wrong.stderr, /--from-step takes one of cm_open, poa, da, deva, cm_retro/);
  });

  it('bad --base-url, ANTHROPIC_BASE_URL and over-long objectives are refused before any file or request', async () => {
    const ws = demoWorkspace();
    for (const url of ['not a url', 'ftp://example.com', 'http://user:pw@127.0.0.1:9']) {
      const run = await runCli(['start', '--workspace', ws, '--objective', 'x', '--base-url', url], { ANTHROPIC_API_KEY: 'k' });
      assert.strictEqual(run.code, 2, url);
      assert.match(run.stderr, /--base-url ".*" cannot be used/);
    }
    const envRun = await runCli(['start', '--workspace', ws, '--objective', 'x'], { ANTHROPIC_BASE_URL: 'localhost:8080', ANTHROPIC_API_KEY: 'k' });
    assert.strictEqual(envRun.code, 2);
    assert.match(envRun.stderr, /ANTHROPIC_BASE_URL "localhost:8080" cannot be used/);

    const long = 'x'.repeat(MAX_OBJECTIVE_CHARS + 1);
    const tooLong = await runCli(['start', '--workspace', ws, '--objective', long], env());
    assert.strictEqual(tooLong.code, 2);
    assert.match(tooLong.stderr, new RegExp(`${(MAX_OBJECTIVE_CHARS + 1).toLocaleString('en-US')} characters long; the limit is`));
    assert.ok(!fs.existsSync(path.join(sessions(ws), 'state')), 'no state file was made');
    assert.strictEqual(fake.requests.length, 0);
  });

  it('--objective-file reads the objective from a file or stdin, with the same cap', async () => {
    const ws = demoWorkspace();
    const file = path.join(tempDir('cape-objective-'), 'objective.md');
    fs.writeFileSync(file, '\uFEFFAdd a dark mode\nthat remembers the choice.\n');
    for (const t of demoReplies(TASK)) fake.enqueue({ text: t });
    const run = await runCli(['start', '--workspace', ws, '--objective-file', file, '--task', TASK, '--json'], env());
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(JSON.parse(fs.readFileSync(statePath(ws), 'utf8')).objective, 'Add a dark mode\nthat remembers the choice.');

    fake.reset();
    const ws2 = demoWorkspace();
    for (const t of demoReplies(TASK)) fake.enqueue({ text: t });
    const piped = await runCliWithInput(['start', '--workspace', ws2, '--objective-file', '-', '--task', TASK, '--json'], env(), 'From stdin: a dark mode');
    assert.strictEqual(piped.code, 0, piped.stderr);
    assert.strictEqual(JSON.parse(fs.readFileSync(statePath(ws2), 'utf8')).objective, 'From stdin: a dark mode');

    const ws3 = demoWorkspace();
    const big = await runCliWithInput(['start', '--workspace', ws3, '--objective-file', '-'], env(), 'y'.repeat(MAX_OBJECTIVE_CHARS * 2));
    assert.strictEqual(big.code, 2);
    assert.match(big.stderr, /The objective read from stdin is .* characters long/);
    const both = await runCli(['start', '--workspace', ws3, '--objective', 'a', '--objective-file', file], env());
    assert.strictEqual(both.code, 2);
    assert.match(both.stderr, /not both/);
    const dir = await runCli(['start', '--workspace', ws3, '--objective-file', path.dirname(file)], env());
    assert.strictEqual(dir.code, 2);
    assert.match(dir.stderr, new RegExp(`Cannot read ${path.dirname(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: it is a folder`));
    assert.ok(!fs.existsSync(path.join(sessions(ws3), 'state')));
  });

  it('after kill -9: leftover temporary files are removed and a step saved without its state is not paid twice', async () => {
    const ws = demoWorkspace();
    await failedAtDa(ws);
    // The state as it was before POA finished: POA's record is on disk, the state update never happened.
    const state = JSON.parse(fs.readFileSync(statePath(ws), 'utf8'));
    const poaFile = pairOf(ws, '_2_POA_')[0];
    const poaAt = Number(/_(\d+)\.json$/.exec(poaFile)![1]);
    fs.writeFileSync(
      statePath(ws),
      JSON.stringify({ ...state, status: 'running', completedSteps: ['cm_open'], stepFiles: { cm_open: state.stepFiles.cm_open }, error: undefined, updatedAt: poaAt - 1 }),
    );
    // Hidden temporary files of writes the kill interrupted (old enough not to be another process's write).
    const old = new Date(Date.now() - 10 * 60_000);
    const tmps = [path.join(sessions(ws), 'state', `.${TASK}.json.0123456789ab.tmp`), path.join(sessions(ws), 'pair', `.${TASK}_3_DA_1.json.abcdefabcdef.tmp`)];
    for (const t of tmps) {
      fs.writeFileSync(t, '{"half": ');
      fs.utimesSync(t, old, old);
    }
    const fresh = path.join(sessions(ws), 'pair', '.other.json.fedcbafedcba.tmp');
    fs.writeFileSync(fresh, 'in flight');

    const r = demoReplies(TASK);
    fake.enqueue({ text: r[2] }, { text: r[3] }, { text: r[4] });
    const run = await resume(ws);
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 3, 'POA is not asked again');
    assert.match(run.stderr, /Step poa was saved before the previous run stopped/);
    assert.match(run.stderr, /Removed 2 leftover temporary file/);
    for (const t of tmps) assert.ok(!fs.existsSync(t), `${t} removed`);
    assert.ok(fs.existsSync(fresh), 'a recent temporary file (maybe another process writing) is left alone');
    assert.deepStrictEqual(pairOf(ws, '_2_POA_'), [poaFile]);
    assert.deepStrictEqual(run.json.steps.map((s: any) => s.step), ['cm_open', 'poa', 'da', 'deva', 'cm_retro']);
  });

  it('messages: EISDIR names the path, init names its flags, --answers JSON errors name the file', async () => {
    // kpt_merged.md that is a folder
    const ws = demoWorkspace();
    fs.rmSync(path.join(sessions(ws), 'retrospective/kpt_merged.md'), { force: true });
    fs.mkdirSync(path.join(sessions(ws), 'retrospective/kpt_merged.md'), { recursive: true });
    for (const t of demoReplies(TASK)) fake.enqueue({ text: t });
    const run = await start(ws);
    assert.strictEqual(run.code, 1);
    assert.match(run.stderr, /Cannot read .*kpt_merged\.md: it is a folder, not a file/);

    // --answers pointing at a folder, then at broken JSON
    const dir = tempDir('cape-answers-');
    const target = tempDir('cape-init-');
    const asDir = await runCli(['init', '--workspace', target, '--answers', dir], env());
    assert.notStrictEqual(asDir.code, 0);
    assert.match(asDir.stderr, new RegExp(`Cannot read ${dir}: it is a folder`));
    const broken = path.join(dir, 'answers.json');
    fs.writeFileSync(broken, '{"product": "x",\n "users": }');
    const bad = await runCli(['init', '--workspace', target, '--answers', broken], env());
    assert.strictEqual(bad.code, 2);
    assert.match(bad.stderr, new RegExp(`--answers ${broken}: the answers file is not valid JSON`));

    // init over an existing cape/ names the CLI flags, not internal modes
    const again = await runCli(['init', '--workspace', ws, '--answers', path.join(demoDir(), 'answers.json')], env());
    assert.notStrictEqual(again.code, 0);
    assert.match(again.stderr, /cape init --missing-only/);
    assert.match(again.stderr, /cape init --force/);
    assert.doesNotMatch(again.stderr, /mode "|fail-if-exists|overwrite"/);
  });

  it('a stalled stream gives up after the retries and the last message says so', async () => {
    const ws = demoWorkspace();
    const r = demoReplies(TASK);
    fake.enqueue({ text: r[0] }, { fault: 'stall', afterChars: 40, text: r[1] }, { fault: 'stall', afterChars: 40, text: r[1] }, { fault: 'stall', afterChars: 40, text: r[1] });
    const run = await start(ws, ['--idle-timeout', '1.5']);
    assert.strictEqual(run.code, 1);
    assert.strictEqual(run.json.error.kind, 'stalled');
    assert.match(run.json.error.message, /sent no data for 1\.5 s.*CAPE tried 3 times and gave up/);
    assert.doesNotMatch(run.json.error.message, /retries automatically|will be retried/);
    assert.match(run.stderr, RESUME_HINT);
    const help = await runCli(['help'], {});
    assert.match(help.stdout, /--idle-timeout S .*default 30/);
  });

  it('a reply cut at max_tokens is continued; the stitched reply is parsed, stored and reported as continued', async () => {
    const ws = demoWorkspace();
    const r = demoReplies(TASK);
    // DevA stops between two <file> blocks, then inside one: without continuation it would "succeed" with one file.
    const deva = r[3];
    const cut1 = deva.indexOf('<file', deva.indexOf('</file>')) - 1;
    const cut2 = deva.indexOf('<file', cut1 + 2) + 40;
    // The second continuation repeats the end of what was already written (a model may): the overlap is dropped.
    fake.enqueue(
      { text: r[0] },
      { text: r[1] },
      { text: r[2] },
      { text: deva.slice(0, cut1), stopReason: 'max_tokens' },
      { text: deva.slice(cut1, cut2), stopReason: 'max_tokens' },
      { text: deva.slice(cut2 - 30) },
      { text: r[4] },
    );
    const run = await start(ws);
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 7);
    const cont = fake.requests[4].body.messages;
    assert.deepStrictEqual(cont.slice(-2).map((m: any) => m.role), ['assistant', 'user'], 'the partial reply, then a request to continue');
    assert.strictEqual(typeof cont[cont.length - 2].content === 'string' ? cont[cont.length - 2].content : cont[cont.length - 2].content[0].text, deva.slice(0, cut1));
    assert.match(JSON.stringify(cont[cont.length - 1].content), /Continue it exactly where it stopped/);
    assert.deepStrictEqual(run.json.files.map((f: any) => f.path), ['src/theme.js', 'src/styles.css', 'index.html']);
    assert.deepStrictEqual(run.json.steps.map((s: any) => s.continued ?? 0), [0, 0, 0, 2, 0]);
    assert.match(run.stderr, /asking the model to continue it \(1 of at most 2\)/);
    const rec = JSON.parse(fs.readFileSync(path.join(sessions(ws), 'pair', pairOf(ws, '_4_DevA_')[0]), 'utf8'));
    assert.strictEqual(rec.raw, deva, 'the stitched reply is stored whole');
    assert.strictEqual(rec.continuations, 2);
  });
});
