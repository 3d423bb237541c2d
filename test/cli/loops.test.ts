// Loops inside a session (issue 10 §2): DevA's blockers go to DA once and DevA answers again — through the bundled
// CLI, the real SDK and the fake Messages API over HTTP.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { listFiles, runCli, workspaceWithOriginalCape } from '../helpers/cli';
import { demoDir, demoReplies } from '../helpers/demo';
import { envelopeReply } from '../helpers/envelopes';

const TASK = 'task-loops';
const QUESTION = 'The toggle spec says "top right of the header" but the header has no right slot on mobile: where does it go under 400px?';
const ANSWER = 'Under 400px the toggle moves into the overflow menu as its first item, same label and state.';

const demoWorkspace = () => workspaceWithOriginalCape('cape-loops-', path.join(demoDir(), 'workspace'));

/** DevA's reply that raises a blocker for DA: only the envelope, as its prompt asks. */
function blockedReply(taskId: string, blockers: unknown): string {
  return envelopeReply('DevA', {
    taskId,
    voice: 'Before I build the toggle I need one answer from DA about small screens.',
    output: { blockers, architecture_decisions: [], file_list: [], test_strategy: 'after the answer', departures: [], open_questions: [] },
    references: ['DA'],
    confidence: 2,
    ass: { score: 3, positive: 'The spec is clear elsewhere.', improvement: 'Small screens were not specified.', context_adequate: false },
  });
}

function daAnswer(taskId: string): string {
  return envelopeReply('DA', {
    taskId,
    voice: 'Put it in the overflow menu on small screens.',
    output: { answers: [{ question: 'Toggle under 400px', answer: ANSWER }], spec_changes: ['ThemeToggle: small-screen placement added.'] },
    references: ['POA:AC-1'],
    ass: { score: 4, positive: 'A precise question.', improvement: 'I should have specified small screens.', context_adequate: true },
  });
}

const userText = (body: any): string => JSON.stringify(body?.messages ?? []);
const systemText = (body: any): string => JSON.stringify(body?.system ?? []);

describe('CLI: DevA → DA → DevA (blockers)', function () {
  this.timeout(120000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 256 }, (f) => (fake = f));
  const env = () => ({ ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'k' });
  const start = (ws: string, extra: string[] = []) =>
    runCli(['start', '--workspace', ws, '--objective', 'Add a dark mode', '--task', TASK, '--json', ...extra], env());

  it('asks DA once with the question and reruns DevA with the answer: 7 requests, both kept in the pair artifact', async () => {
    const ws = demoWorkspace();
    const r = demoReplies(TASK);
    fake.enqueue(
      { text: r[0] },
      { text: r[1] },
      { text: r[2] },
      { text: blockedReply(TASK, [{ to: 'DA', question: QUESTION }]) },
      { text: daAnswer(TASK) },
      { text: r[3] },
      { text: r[4] },
    );
    const run = await start(ws);
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 7, 'CM, POA, DA, DevA, DA answer, DevA again, retrospective');

    const daAsk = fake.requests[4].body;
    assert.ok(userText(daAsk).includes(QUESTION.replace(/"/g, '\\"')), "DA's request contains DevA's question");
    assert.match(systemText(daAsk), /answering DevA's blocker/);
    assert.match(userText(daAsk), /Your design specification \(DA\)/);
    assert.match(userText(daAsk), /POA's acceptance criteria/);
    assert.doesNotMatch(userText(daAsk), /Workspace \(existing files/, 'DA sees its spec, the question and the criteria, not the workspace');

    const devaAgain = fake.requests[5].body;
    assert.ok(userText(devaAgain).includes(ANSWER), "DevA's second request contains DA's answer");
    assert.ok(userText(devaAgain).includes('blockers'), 'it follows DevA\'s first reply in the same conversation');
    assert.ok(!userText(fake.requests[3].body).includes(ANSWER));

    const retro = userText(fake.requests[6].body);
    assert.ok(retro.includes('DevA asked DA') && retro.includes(ANSWER), 'the retrospective sees the question and the answer');

    // --json reports the exchange; the files are the rerun's.
    assert.deepStrictEqual(run.json.feedback, [{ round: 1, from: 'DevA', to: 'DA', questions: [QUESTION], answered: true, answer: run.json.feedback[0].answer }]);
    assert.ok(run.json.feedback[0].answer.includes(ANSWER));
    assert.ok(run.json.files.some((f: any) => f.path === 'src/theme.js'), 'the rerun proposes the files');
    assert.match(run.stderr, /DevA asks DA \(round 1\)/);

    // DevA's pair artifact keeps the blocked reply and DA's answer; one pair file per step.
    const pairDir = path.join(ws, 'cape/5_sessions/pair');
    const pair = listFiles(pairDir);
    assert.strictEqual(pair.length, 5, pair.join(', '));
    const deva = JSON.parse(fs.readFileSync(path.join(pairDir, pair.find((p) => p.includes('_4_DevA_'))!), 'utf8'));
    assert.strictEqual(deva.feedback.length, 1);
    assert.strictEqual(deva.feedback[0].blockedRaw, blockedReply(TASK, [{ to: 'DA', question: QUESTION }]));
    assert.strictEqual(deva.feedback[0].answerRaw, daAnswer(TASK));
    assert.deepStrictEqual(deva.feedback[0].questions, [QUESTION]);
    assert.strictEqual(deva.raw, r[3], 'the step record holds the reply that was used');
    assert.ok(deva.usage.inputTokens > deva.feedback[0].usage.inputTokens, "DevA's usage counts both of its requests and DA's answer");
  });

  it('never recursive: blockers in the rerun are not asked again; --feedback-rounds 0 only reports them', async () => {
    const ws = demoWorkspace();
    const r = demoReplies(TASK);
    const blocked = blockedReply(TASK, [QUESTION]); // a plain string: → DA
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: blocked }, { text: daAnswer(TASK) }, { text: blocked }, { text: r[4] });
    const run = await start(ws);
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 7, 'one round, then the session goes on');
    assert.match(run.stderr, /DevA still raised 1 blocker\(s\) after 1 round\(s\) with DA/);
    assert.strictEqual(run.json.feedback.length, 1);

    fake.reset();
    const ws2 = demoWorkspace();
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: blocked }, { text: r[4] });
    const off = await start(ws2, ['--feedback-rounds', '0']);
    assert.strictEqual(off.code, 0, off.stderr);
    assert.strictEqual(fake.requests.length, 5);
    assert.match(off.stderr, /feedback rounds are off/);
    assert.strictEqual(off.json.feedback, undefined);

    const bad = await start(demoWorkspace(), ['--feedback-rounds', 'two']);
    assert.strictEqual(bad.code, 2);
    assert.match(bad.stderr, /--feedback-rounds takes a whole number/);
  });

  it("an unusable DA answer (after one repair) lets DevA decide alone instead of failing the session", async () => {
    const ws = demoWorkspace();
    const r = demoReplies(TASK);
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: blockedReply(TASK, [{ to: 'DA', question: QUESTION }]) }, { text: 'no json' }, { text: 'still none' }, { text: r[3] }, { text: r[4] });
    const run = await start(ws);
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 8);
    assert.match(run.stderr, /DA's answer to DevA's blocker\(s\) could not be used/);
    assert.match(userText(fake.requests[6].body), /could not answer your blockers: decide yourself/);
    assert.strictEqual(run.json.feedback[0].answered, false);
  });
});
