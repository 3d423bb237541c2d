// A question answered only in part (session/openQuestions.ts, model/questionState.ts): the answering role answers
// the fact and carries the open part into its own open questions, naming the question by id. The question then shows
// as answered in part — in the session's list, the line the CLI and the roles read, and the retrospective file — not
// as answered.
import * as assert from 'assert';
import { collectOpenQuestions, questionLine } from '../../src/core/session/openQuestions';
import { answeredSummary, questionState } from '../../src/core/model/questionState';
import { renderRetrospective } from '../../src/core/store/retrospectiveMarkdown';
import { buildStepContext } from '../../src/core/session/context';
import { contextInputs, contextText } from '../helpers/contextInputs';
import { computeMetrics } from '../../src/core/metrics/metrics';
import type { Envelope } from '../../src/core/model/types';

function env(agent: 'POA' | 'DA' | 'DevA', output: unknown): Envelope {
  return { agent, role: agent, task_id: 't', voice: `${agent} speaking`, output, references: [], confidence: 4, ass: null };
}

const POA = env('POA', {
  open_questions: ['Does the Admin list show every user\'s items, and should search cover them all?', 'Is "0120" a usable width?', 'Which sort order?'],
});

describe('open questions: answered in part', () => {
  it('a question whose open part the answering role carries into its own questions is answered in part, not answered', () => {
    const da = env('DA', {
      open_questions: ['Keep the empty-state text?', 'POA-Q1 (the choice part): should the Admin\'s search keep covering every user\'s items?'],
      answered_questions: [
        { question: 'POA-Q1', answer: 'Today the Admin\'s list holds every user\'s items.', evidence: 'items.py:21-27' },
        { question: 'POA-Q3', answer: 'Newest first.' },
      ],
    });
    const qs = collectOpenQuestions({ poa: POA, da });
    const q1 = qs.find((q) => q.id === 'POA-Q1')!;
    assert.deepStrictEqual(q1.answer, { by: 'DA', text: 'Today the Admin\'s list holds every user\'s items.', evidence: 'items.py:21-27', openPartIn: ['DA-Q2'] });
    assert.strictEqual(questionState(q1), 'answered-in-part');
    assert.strictEqual(
      questionLine(q1),
      'POA-Q1: Does the Admin list show every user\'s items, and should search cover them all? — answered in part by DA (open part carried to DA-Q2): Today the Admin\'s list holds every user\'s items. (items.py:21-27)',
    );
    // fully answered and still open, as before
    const q3 = qs.find((q) => q.id === 'POA-Q3')!;
    assert.deepStrictEqual(q3.answer, { by: 'DA', text: 'Newest first.' });
    assert.strictEqual(questionState(q3), 'answered');
    assert.strictEqual(questionLine(q3), 'POA-Q3: Which sort order? — answered by DA: Newest first.');
    assert.strictEqual(questionState(qs.find((q) => q.id === 'POA-Q2')!), 'open');
    assert.strictEqual(answeredSummary(qs), '2 answered by the team from the workspace (1 in part)');
  });

  it('reads the forms recorded sessions wrote: "DA-Q1 (from POA-Q2 …)", a markdown output, several carriers', () => {
    // a Ruby trial's DA numbered its questions itself and named the one each came from
    const da = env('DA', {
      open_questions: ['DA-Q1 (from POA-Q2, for the human): "0120" is taken as 120 today; confirm it stays.', 'DA-Q2: and " 120"? (POA-Q2 again)'],
      answered_questions: [{ question: 'POA-Q2', answer: 'Fact part: "0120" is read as 120 today.' }],
    });
    assert.deepStrictEqual(collectOpenQuestions({ poa: POA, da }).find((q) => q.id === 'POA-Q2')!.answer!.openPartIn, ['DA-Q1', 'DA-Q2']);
    const md = env('DA', '## Answered questions\n\n- POA-Q3: Newest first.\n\n## Open questions\n\n- Keep the label?\n- For the human (poa-q3, the choice part): should it be configurable?\n');
    assert.deepStrictEqual(collectOpenQuestions({ poa: POA, da: md }).find((q) => q.id === 'POA-Q3')!.answer!.openPartIn, ['DA-Q2']);
  });

  it("only the answering role's own questions carry an open part; DevA may answer DA's in part", () => {
    const da = env('DA', {
      // names POA-Q2, which no one answered, and POA-Q12, another question
      open_questions: ['Is POA-Q2 still open?', 'POA-Q12 is not POA-Q1.'],
      answered_questions: [{ question: 'POA-Q3', answer: 'Newest first.' }],
    });
    // DevA names POA-Q3 (DA's answer) and DA-Q1 (its own answer)
    const deva = env('DevA', {
      open_questions: ['Sort order per POA-Q3: also for the export?', 'DA-Q1, the open part: may the wording change later?'],
      answered_questions: [{ question: 'DA-Q1', answer: 'It is open today.' }],
    });
    const qs = collectOpenQuestions({ poa: POA, da, deva });
    assert.deepStrictEqual(qs.find((q) => q.id === 'POA-Q3')!.answer, { by: 'DA', text: 'Newest first.' }, 'a later role naming it leaves it answered');
    assert.strictEqual(questionState(qs.find((q) => q.id === 'POA-Q1')!), 'open');
    assert.deepStrictEqual(qs.find((q) => q.id === 'DA-Q1')!.answer, { by: 'DevA', text: 'It is open today.', openPartIn: ['DevA-Q2'] });
  });

  it('the retrospective file marks it answered in part and says where its open part went', () => {
    const da = env('DA', { open_questions: ['POA-Q1, the open part: keep covering every user?'], answered_questions: [{ question: 'POA-Q1', answer: 'It covers every user today.' }] });
    const metrics = computeMetrics({ envelopes: {}, usage: {}, startedAt: 0, retroSavedAt: 1, contextChars: {} });
    const retro: Envelope = { ...env('DA', null), agent: 'CM', kpt: { keep: [], problem: [], try: [] }, conversation: [] };
    const md = renderRetrospective('t', 'Search', retro, metrics, [], new Date(0), { questions: collectOpenQuestions({ poa: POA, da }) });
    const section = md.slice(md.indexOf('## Open questions'), md.indexOf('## Metrics'));
    assert.ok(section.includes('_3 for you to decide; 1 answered by the team from the workspace (1 in part)._'), section);
    assert.ok(
      section.includes("- **POA-Q1** Does the Admin list show every user's items, and should search cover them all? — _answered in part by DA (open part carried to DA-Q1):_ It covers every user today."),
      section,
    );
  });

  it('DA and DevA are told to open the part they carry with the question\'s id, which is what marks it', () => {
    const request = (step: 'da' | 'deva') => contextText(buildStepContext(step, contextInputs(step, { poa: POA }))).replace(/\s+/g, ' ');
    assert.ok(request('da').includes("put the choice in your `open_questions`, opening with the question's id (`POA-Q2, the open part: …`)"));
    assert.ok(request('deva').includes("put the choice in your `open_questions`, opening with the question's id (`DA-Q1, the open part: …`)"));
    // the example as written marks the question it names
    const carried = env('DA', { open_questions: ['POA-Q2, the open part: confirm it stays.'], answered_questions: [{ question: 'POA-Q2', answer: 'It is read as 120.' }] });
    assert.strictEqual(questionState(collectOpenQuestions({ poa: POA, da: carried })[1]), 'answered-in-part');
  });
});
