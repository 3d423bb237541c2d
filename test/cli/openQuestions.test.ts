// A session in which POA leaves three questions open and DA, having looked at the workspace, answers one of them by its
// id and another in part (its open part carried into DA's own questions): DA's request names POA's questions, DevA's
// carries DA's answer, the retrospective request marks the questions answered and answered in part, and the human finds
// the list in the retrospective file, the transcript and --json.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic/server';
import { runCli, workspaceWithOriginalCape } from '../helpers/cli';
import { demoDir, demoReplies, requestText, withDemoOutput } from '../helpers/demo';

const POA_QUESTIONS = ['Does the page already define its colours as CSS variables?', 'Should the choice sync across devices?', 'Does the page follow the OS theme, and should it?'];
const ANSWER = 'Yes: src/styles.css sets the page colours once, so the dark theme can override them in one place.';
const IN_PART = 'It does not today: no prefers-color-scheme rule.';
const OPEN_PART = 'POA-Q3, the open part: should the dark theme follow the OS setting until the user picks one?';

function replies(task: string): string[] {
  const r = demoReplies(task);
  r[1] = withDemoOutput(r[1], { open_questions: POA_QUESTIONS });
  r[2] = withDemoOutput(r[2], {
    open_questions: ['Should the toggle show an icon as well as its label?', OPEN_PART],
    answered_questions: [
      { question: 'POA-Q1', answer: ANSWER, evidence: 'src/styles.css:1' },
      { question: 'POA-Q3', answer: IN_PART },
    ],
  });
  return r;
}

describe('CLI: open questions, and the ones a later role answered from the workspace', function () {
  this.timeout(90000);
  let fake: FakeAnthropic;
  before(async () => {
    fake = await startFakeAnthropic({ chunkSize: 64, apiKey: 'test-key' });
  });
  after(async () => fake?.close());

  it('DA answers POA-Q1 from the code, POA-Q3 in part: the request chain, the retrospective file and --json carry it', async () => {
    const ws = workspaceWithOriginalCape('cape-open-questions-', path.join(demoDir(), 'workspace'));
    fake.requests.length = 0;
    for (const text of replies('task-oq')) fake.enqueue({ text });
    const run = await runCli(['start', '--workspace', ws, '--objective', 'Add a dark mode', '--task', 'task-oq', '--json'], { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'test-key' });
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 5, 'no repair');

    const da = requestText(fake.requests[2].body);
    assert.ok(da.includes(`POA-Q1: ${POA_QUESTIONS[0]}`) && da.includes(`POA-Q2: ${POA_QUESTIONS[1]}`), "DA receives POA's questions named");
    const deva = requestText(fake.requests[3].body);
    assert.ok(deva.includes(ANSWER), 'DevA learns what DA found');
    assert.ok(deva.includes('DA-Q1: Should the toggle show an icon'), "DA's own question is named for DevA");
    const retro = requestText(fake.requests[4].body);
    assert.ok(retro.includes(`POA-Q1: ${POA_QUESTIONS[0]} — answered by DA: ${ANSWER} (src/styles.css:1)`), 'the retrospective knows it is answered');
    assert.ok(retro.includes(`POA-Q3: ${POA_QUESTIONS[2]} — answered in part by DA (open part carried to DA-Q2): ${IN_PART}`), 'and answered in part');

    assert.deepStrictEqual(run.json.openQuestions, [
      { id: 'POA-Q1', from: 'POA', text: POA_QUESTIONS[0], answer: { by: 'DA', text: ANSWER, evidence: 'src/styles.css:1' } },
      { id: 'POA-Q2', from: 'POA', text: POA_QUESTIONS[1] },
      { id: 'POA-Q3', from: 'POA', text: POA_QUESTIONS[2], answer: { by: 'DA', text: IN_PART, openPartIn: ['DA-Q2'] } },
      { id: 'DA-Q1', from: 'DA', text: 'Should the toggle show an icon as well as its label?' },
      { id: 'DA-Q2', from: 'DA', text: OPEN_PART },
    ]);
    const md = fs.readFileSync(run.json.retrospectivePath, 'utf8');
    assert.match(md, /## Open questions\n\n_3 for you to decide; 2 answered by the team from the workspace \(1 in part\)\._\n\n- \*\*POA-Q2\*\* Should the choice sync across devices\?\n- \*\*DA-Q1\*\* Should the toggle show an icon as well as its label\?\n/);
    assert.ok(md.includes(`- **POA-Q1** ${POA_QUESTIONS[0]} — _answered by DA:_ ${ANSWER} (\`src/styles.css:1\`)\n`), md);
    assert.ok(md.includes(`- **POA-Q3** ${POA_QUESTIONS[2]} — _answered in part by DA (open part carried to DA-Q2):_ ${IN_PART}\n`), md);
  });

  it('the transcript lists them after the KPT, the ones to decide first, one answered in part marked ◐', async () => {
    const ws = workspaceWithOriginalCape('cape-open-questions-', path.join(demoDir(), 'workspace'));
    for (const text of replies('task-oq2')) fake.enqueue({ text });
    const run = await runCli(['start', '--workspace', ws, '--objective', 'Add a dark mode', '--task', 'task-oq2'], { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'test-key' });
    assert.strictEqual(run.code, 0, run.stderr);
    const at = run.stdout.indexOf('Open questions:\n');
    assert.ok(at > run.stdout.indexOf('Try:'), run.stdout);
    assert.strictEqual(
      run.stdout.slice(at).split('\n').slice(0, 6).join('\n'),
      [
        'Open questions:',
        `  ? POA-Q2: ${POA_QUESTIONS[1]}`,
        '  ? DA-Q1: Should the toggle show an icon as well as its label?',
        `  ? DA-Q2: ${OPEN_PART}`,
        `  ✓ POA-Q1: ${POA_QUESTIONS[0]} — answered by DA: ${ANSWER} (src/styles.css:1)`,
        `  ◐ POA-Q3: ${POA_QUESTIONS[2]} — answered in part by DA (open part carried to DA-Q2): ${IN_PART}`,
      ].join('\n'),
    );
  });
});
