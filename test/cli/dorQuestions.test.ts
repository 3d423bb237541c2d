// A not-ready objective goes back to the user only when the Cape Master asks blocking questions (issue 10 §3) —
// through the bundled CLI with no terminal, the real SDK and the fake Messages API over HTTP.
import * as assert from 'assert';
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { FakeAnthropic } from '../fake-anthropic/server';
import { listFiles, runCli, workspaceWithOriginalCape } from '../helpers/cli';
import { repoRoot } from '../helpers/fixtures';
import { demoDir, demoReplies, withDorCheck } from '../helpers/demo';
import { useFakeAnthropic } from '../helpers/fakeSuite';

const QUESTIONS = ['Is "dark mode" a user toggle or only following the OS setting?', 'Which screens must it cover: notes list only, or the editor too?'];
const ANSWERS = ['A toggle in the header, defaulting to the OS setting.', 'Every screen, the editor included.'];

const demoWorkspace = () => workspaceWithOriginalCape('cape-dor-', path.join(demoDir(), 'workspace'));

/** The demo CM opening with a failed DoR check, its concerns and (when given) blocking questions. */
const opening = (reply: string, questions?: string[]): string =>
  withDorCheck(reply, { passed: false, concerns: ['No acceptance criteria are given for the objective.'], ...(questions ? { questions } : {}) });

const messagesText = (body: any): string => JSON.stringify(body?.messages ?? []);
const systemText = (body: any): string => JSON.stringify(body?.system ?? []);
const isCmOpening = (body: any): boolean => /Cape Master — session opening/.test(systemText(body));
const json = (s: string) => JSON.stringify(s).slice(1, -1);

describe('CLI: the Cape Master\'s blocking questions (DoR)', function () {
  this.timeout(120000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 256 }, (f) => (fake = f));
  const env = () => ({ ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'k' });
  const start = (ws: string, task: string, extra: string[] = []) =>
    runCli(['start', '--workspace', ws, '--objective', 'Add a dark mode', '--task', task, ...extra], env());
  const resume = (ws: string, task: string, extra: string[] = []) => runCli(['resume', '--workspace', ws, '--task', task, ...extra], env());

  it('pauses with needs_answers (exit 2, state saved); resume --answer sends one more CM opening with the answers: 6 requests', async () => {
    const ws = demoWorkspace();
    const task = 'task-dor-answers';
    const r = demoReplies(task);
    fake.enqueue({ text: opening(r[0], QUESTIONS) });
    const first = await start(ws, task, ['--json']);
    assert.strictEqual(first.code, 2, first.stderr);
    assert.deepStrictEqual(first.json, { taskId: task, status: 'needs_answers', questions: QUESTIONS });
    assert.strictEqual(fake.requests.length, 1, 'nothing after the CM opening');
    assert.match(first.stderr, /--answer "…" --answer "…"/);
    assert.match(first.stderr, /--skip-questions/);
    const state = JSON.parse(fs.readFileSync(path.join(ws, 'cape', '5_sessions', 'state', `${task}.json`), 'utf8'));
    assert.strictEqual(state.status, 'needs_answers');
    assert.deepStrictEqual(state.dor, { questions: QUESTIONS });
    const pair = listFiles(path.join(ws, 'cape', '5_sessions', 'pair'));
    assert.strictEqual(pair.length, 1, pair.join(', '));
    assert.match(pair[0], new RegExp(`^${task}_1_CM_\\d+\\.json$`));

    fake.enqueue({ text: opening(r[0]) }, { text: r[1] }, { text: r[2] }, { text: r[3] }, { text: r[4] });
    const second = await resume(ws, task, ['--answer', ANSWERS[0], '--answer', ANSWERS[1], '--json']);
    assert.strictEqual(second.code, 0, second.stderr);
    assert.strictEqual(fake.requests.length, 6, 'CM opening, CM opening with the answers, POA, DA, DevA, retrospective');
    const again = fake.requests[1].body;
    assert.ok(isCmOpening(again), 'the second request is the CM opening');
    for (const t of [...QUESTIONS, ...ANSWERS]) assert.ok(messagesText(again).includes(json(t)), `the second opening holds "${t}"`);
    assert.ok(!messagesText(fake.requests[0].body).includes(json(ANSWERS[0])));
    assert.match(systemText(fake.requests[2].body), /Product Owner/);
    assert.deepStrictEqual(
      second.json.steps.map((s: any) => s.step),
      ['cm_open', 'poa', 'da', 'deva', 'cm_retro'],
    );
    // The opening's usage counts both opening requests (the one that asked and the one with the answers).
    const inputOf = (i: number) => {
      const u = fake.requests[i].usage!;
      return u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens;
    };
    const opened = second.json.steps[0].usage;
    assert.strictEqual(opened.inputTokens + opened.cacheCreationInputTokens + opened.cacheReadInputTokens, inputOf(0) + inputOf(1));
    const done = JSON.parse(fs.readFileSync(path.join(ws, 'cape', '5_sessions', 'state', `${task}.json`), 'utf8'));
    assert.strictEqual(done.status, 'complete');
    assert.deepStrictEqual(done.dor, { questions: QUESTIONS, answers: ANSWERS });
    // Both openings stay in pair/; the second records what it was given.
    const openings = listFiles(path.join(ws, 'cape', '5_sessions', 'pair')).filter((f) => f.includes('_1_CM_'));
    assert.strictEqual(openings.length, 2);
    const rec = JSON.parse(fs.readFileSync(path.join(ws, 'cape', '5_sessions', 'pair', openings.sort().pop()!), 'utf8'));
    assert.deepStrictEqual(
      rec.dorAnswers,
      QUESTIONS.map((question, i) => ({ question, answer: ANSWERS[i] })),
    );
  });

  it('a failed DoR check without questions goes on as before: 5 requests, its concerns shown, no pause', async () => {
    const ws = demoWorkspace();
    const task = 'task-dor-none';
    const r = demoReplies(task);
    fake.enqueue({ text: opening(r[0]) }, { text: r[1] }, { text: r[2] }, { text: r[3] }, { text: r[4] });
    const run = await start(ws, task);
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 5);
    assert.match(run.stdout, /DoR: concerns\n\s+· No acceptance criteria are given for the objective\./);
    assert.doesNotMatch(run.stdout + run.stderr, /paused|needs_answers/);
  });

  it('resume without answers stays paused with the way on (no request); --skip-questions goes on from the first opening', async () => {
    const ws = demoWorkspace();
    const task = 'task-dor-skip';
    const r = demoReplies(task);
    fake.enqueue({ text: opening(r[0], QUESTIONS.slice(0, 1)) });
    const first = await start(ws, task);
    assert.strictEqual(first.code, 2, first.stderr);
    assert.match(first.stderr, new RegExp(`Session ${task} is paused`));

    const bare = await resume(ws, task, ['--json']);
    assert.strictEqual(bare.code, 2, bare.stderr);
    assert.deepStrictEqual(bare.json, { taskId: task, status: 'needs_answers', questions: QUESTIONS.slice(0, 1) });
    assert.match(bare.stderr, new RegExp(`cape resume --workspace \\S+ --task ${task} --answer "…"`));
    assert.strictEqual(fake.requests.length, 1, 'a resume without answers sends nothing');

    fake.enqueue({ text: r[1] }, { text: r[2] }, { text: r[3] }, { text: r[4] });
    const skipped = await resume(ws, task, ['--skip-questions']);
    assert.strictEqual(skipped.code, 0, skipped.stderr);
    assert.strictEqual(fake.requests.length, 5, 'no second CM opening');
    assert.ok(!fake.requests.slice(1).some((q) => isCmOpening(q.body)));
  });

  it('refuses answers where no question waits, and answers on start', async () => {
    const ws = demoWorkspace();
    const task = 'task-dor-refused';
    const r = demoReplies(task);
    fake.enqueue({ text: r[0] }, { fault: 'http', status: 400, message: 'bad request' });
    assert.strictEqual((await start(ws, task)).code, 1, 'a failed session (POA)');
    const late = await resume(ws, task, ['--answer', 'yes']);
    assert.strictEqual(late.code, 1);
    assert.match(late.stdout, /not waiting for answers to the Cape Master.s questions \(it is failed\)/);
    const onStart = await start(ws, 'task-dor-other', ['--answer', 'yes']);
    assert.strictEqual(onStart.code, 2);
    assert.match(onStart.stderr, /--answer is not a flag of `cape start` \(only of `cape resume`\)/);
    const blank = await resume(ws, task, ['--answer', '  ']);
    assert.strictEqual(blank.code, 2);
    assert.match(blank.stderr, /non-empty answer/);
    assert.strictEqual(fake.requests.length, 2);
  });

  // A terminal at both ends: util-linux `script` gives the CLI a pseudo-terminal, whose line discipline turns the
  // byte 0x03 written to it into SIGINT, as Ctrl-C does.
  const hasScript = spawnSync('script', ['--version']).status === 0;
  (hasScript ? it : it.skip)('in a terminal, Ctrl-C at a question leaves the session paused (exit 130), with the way to answer later', async () => {
    const ws = demoWorkspace();
    const task = 'task-dor-ctrl-c';
    const r = demoReplies(task);
    fake.enqueue({ text: opening(r[0], QUESTIONS) });
    const cli = path.join(repoRoot(), 'dist', 'cli.js');
    const cmd = [process.execPath, cli, 'start', '--workspace', ws, '--objective', 'Add a dark mode', '--task', task].map((a) => `'${a}'`).join(' ');
    const child = spawn('script', ['-qefc', cmd, '/dev/null'], { env: { ...process.env, ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'k' } });
    let shown = '';
    child.stdout.on('data', (d) => (shown += d));
    const code = new Promise<number | null>((resolve) => child.on('close', resolve));
    const deadline = Date.now() + 60000;
    while (!/1\. Is "dark mode"[^\n]*\r?\n> $/.test(shown) && Date.now() < deadline) await new Promise((res) => setTimeout(res, 50));
    assert.match(shown, /The Cape Master asks before the team starts/, shown);
    child.stdin.write('\x03');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20000);
    const exit = await code;
    clearTimeout(timer);
    assert.strictEqual(exit, 130, shown);
    assert.match(shown, new RegExp(`Session ${task} is paused`));
    assert.doesNotMatch(shown, /2\. Which screens[^\n]*\r?\n> /, 'no question after the Ctrl-C');
    assert.strictEqual(fake.requests.length, 1, 'nothing sent after the Ctrl-C');
    const state = JSON.parse(fs.readFileSync(path.join(ws, 'cape', '5_sessions', 'state', `${task}.json`), 'utf8'));
    assert.strictEqual(state.status, 'needs_answers');
  });
});
