// The session's open questions (session/openQuestions.ts): each role's numbered, the answers later roles found in the
// workspace matched to them by id or by their words, what DA and DevA receive, what the retrospective request, the
// retrospective file and the CLI's --json carry.
import * as assert from 'assert';
import { collectOpenQuestions, questionLine, questionList, withQuestionIds } from '../../src/core/session/openQuestions';
import { buildStepContext, retroAgentDigest } from '../../src/core/session/context';
import { contextInputs, contextText } from '../helpers/contextInputs';
import { renderRetrospective } from '../../src/core/store/retrospectiveMarkdown';
import { computeMetrics } from '../../src/core/metrics/metrics';
import type { Envelope, StepId } from '../../src/core/model/types';

function env(agent: 'POA' | 'DA' | 'DevA', output: unknown): Envelope {
  return { agent, role: agent, task_id: 't', voice: `${agent} speaking`, output, references: [], confidence: 4, ass: null };
}

const POA = env('POA', {
  user_stories: [{ id: 'US-1', story: 'As a member I search discussions by title.' }],
  open_questions: ['Is the discussions list paged, or does it show every discussion?', 'Should the search also match the body?'],
});
const DA = env('DA', {
  component_specs: [{ name: 'SearchField' }],
  open_questions: [{ question: 'Does the table keep its empty state message for no matches?', for: 'human' }],
  answered_questions: [{ question: 'POA-Q1', answer: 'The list is paged: 10 a page, and its page links keep only ?page.', evidence: ['src/features/discussions/discussions-list.tsx:42'] }],
});

const inputs = (step: StepId, envelopes: Partial<Record<StepId, Envelope>>) => contextInputs(step, envelopes, 'Search discussions by title');
const text = contextText;

describe('open questions: collected, numbered and answered', () => {
  it('numbers each role\'s questions and matches an answer to the question its id names', () => {
    const qs = collectOpenQuestions({ poa: POA, da: DA });
    assert.deepStrictEqual(qs, [
      {
        id: 'POA-Q1',
        from: 'POA',
        text: 'Is the discussions list paged, or does it show every discussion?',
        answer: { by: 'DA', text: 'The list is paged: 10 a page, and its page links keep only ?page.', evidence: 'src/features/discussions/discussions-list.tsx:42' },
      },
      { id: 'POA-Q2', from: 'POA', text: 'Should the search also match the body?' },
      { id: 'DA-Q1', from: 'DA', text: 'Does the table keep its empty state message for no matches?' },
    ]);
    assert.strictEqual(
      questionLine(qs[0]),
      'POA-Q1: Is the discussions list paged, or does it show every discussion? — answered by DA: The list is paged: 10 a page, and its page links keep only ?page. (src/features/discussions/discussions-list.tsx:42)',
    );
    assert.strictEqual(questionLine(qs[1]), 'POA-Q2: Should the search also match the body?');
  });

  it('a list of questions within its room: long answers cut, every question whole while it fits, the ids of those left out named', () => {
    const long = 'The offset lookup throws on an invalid timestamp, on both of its paths. '.repeat(12);
    const qs = Array.from({ length: 6 }, (_, i) => ({
      id: `POA-Q${i + 1}`,
      from: 'POA' as const,
      text: `Question ${i + 1}: does the call throw today for the case numbered ${i + 1}?`,
      ...(i < 3 ? { answer: { by: 'DA' as const, text: long, evidence: `src/plugin/timezone/index.js:${i + 1}` } } : {}),
    }));
    const text = questionList(qs, 2500);
    assert.ok(text.length <= 2500, `${text.length}`);
    // every question is there, each answer cut at a sentence end
    for (const q of qs) assert.ok(text.includes(`- ${q.id}: ${q.text}`), q.id);
    assert.ok(!text.includes(long) && text.includes('— answered by DA: The offset lookup throws'), text);
    // less room: the ids left out are named, no question is cut to nothing
    const short = questionList(qs, 1000);
    assert.ok(short.length <= 1000, `${short.length}`);
    assert.match(short, /\n\(\d more not shown: (POA-Q\d, )*POA-Q6\)$/);
    assert.strictEqual(questionList(qs.slice(3), 2500), qs.slice(3).map((q) => `- ${q.id}: ${q.text}`).join('\n'), 'a list that fits is whole');
  });

  it("a question that opens with the id it gets reaches the human once named, not as 'DA-Q1: DA-Q1 …'", () => {
    const poa = env('POA', { open_questions: ['Is zero a usable height?', 'Is "0120" usable?'] });
    const da = env('DA', {
      open_questions: [
        'DA-Q1 (from POA-Q2, for the human): "0120" is taken as 120 today; confirm it stays.',
        '**DA-Q2**: under which CHANGELOG heading?',
        // an id that is not the one it gets, and another role's id, stay
        'DA-Q7: a question numbered its own way.',
        'POA-Q1 is still open: zero heights are taken today.',
      ],
    });
    const deva = env('DevA', { open_questions: ['DevA-Q1 — confirm the strict rule.'] });
    const qs = collectOpenQuestions({ poa, da, deva });
    assert.deepStrictEqual(
      qs.slice(2).map(questionLine),
      [
        'DA-Q1: (from POA-Q2, for the human): "0120" is taken as 120 today; confirm it stays.',
        'DA-Q2: under which CHANGELOG heading?',
        'DA-Q3: DA-Q7: a question numbered its own way.',
        'DA-Q4: POA-Q1 is still open: zero heights are taken today.',
        'DevA-Q1: confirm the strict rule.',
      ],
    );
    // the roles after it read the same names
    assert.deepStrictEqual((withQuestionIds(da.output, 'DA') as { open_questions: string[] }).open_questions.slice(0, 2), [
      'DA-Q1: (from POA-Q2, for the human): "0120" is taken as 120 today; confirm it stays.',
      'DA-Q2: under which CHANGELOG heading?',
    ]);
  });

  it('a question or answer with a long run of spaces after its id is read once (80 KB took 3-4 s)', () => {
    const run = ' '.repeat(200_000);
    const poa = env('POA', { open_questions: [`OQ-1${run}: Is the list paged?`, `OQ-2${run}x`] });
    const da = env('DA', { answered_questions: [`POA-Q1${run}**${run}: It is paged.`, `POA-Q2${run}x`] });
    const qs = collectOpenQuestions({ poa, da });
    assert.deepStrictEqual(
      qs.map((q) => [q.id, q.text.length, q.answer?.text.length]),
      [
        ['POA-Q1', `OQ-1${run}: Is the list paged?`.length, 'It is paged.'.length],
        // a line with no colon after the id is the answer as a whole
        ['POA-Q2', `OQ-2${run}x`.length, `POA-Q2${run}x`.length],
      ],
    );
    assert.strictEqual(qs[0].answer?.text, 'It is paged.');
  });

  it('matches an answer that quotes the question instead of naming it; DevA may answer DA\'s question', () => {
    const deva = env('DevA', {
      answered_questions: [{ question: 'does the table keep its empty-state message when nothing matches', answer: 'Yes: Table renders "No Entries Found" for an empty list.', evidence: 'src/components/ui/table/table.tsx:70' }],
    });
    const qs = collectOpenQuestions({ poa: POA, da: DA, deva });
    const daQ = qs.find((q) => q.id === 'DA-Q1')!;
    assert.deepStrictEqual(daQ.answer, { by: 'DevA', text: 'Yes: Table renders "No Entries Found" for an empty list.', evidence: 'src/components/ui/table/table.tsx:70' });
    assert.strictEqual(qs.length, 3, 'no loose answer');
  });

  it('an answer settles only an earlier role\'s question, once; one that names none is kept apart, not lost', () => {
    const da = env('DA', {
      open_questions: ['Keep the old label?'],
      // its own question, a later role's, an unknown id with unrelated words
      answered_questions: ['DA-Q1: yes', 'DevA-Q1: no', 'POA-Q9: The API has a search parameter already.'],
    });
    const deva = env('DevA', { open_questions: ['Which debounce delay?'], answered_questions: [{ question: 'POA-Q1', answer: 'It shows 10 a page.' }] });
    const qs = collectOpenQuestions({ poa: POA, da, deva });
    assert.strictEqual(qs.find((q) => q.id === 'DA-Q1')!.answer, undefined, 'DA cannot settle its own question');
    assert.strictEqual(qs.find((q) => q.id === 'DevA-Q1')!.answer, undefined, 'nor a later role\'s');
    assert.deepStrictEqual(qs.find((q) => q.id === 'POA-Q1')!.answer, { by: 'DevA', text: 'It shows 10 a page.' });
    const loose = qs.filter((q) => q.id === null);
    assert.deepStrictEqual(loose.map((q) => [q.text, q.answer!.by, q.answer!.text]), [
      ['DA-Q1', 'DA', 'yes'],
      ['DevA-Q1', 'DA', 'no'],
      ['POA-Q9', 'DA', 'The API has a search parameter already.'],
    ]);
  });

  it('reads markdown outputs by section; "unanswered" questions are open, not answers', () => {
    const poa = env('POA', '## Stories\n\n- As a member …\n\n## Open questions\n\n- Is the list paged?\n- Who may search?\n');
    const da = env('DA', '## Specs\n\nA field.\n\n## Answered questions\n\n- **POA-Q2**: Every signed-in member (`src/app/router.tsx:30`).\n\n## Unanswered questions\n\n- Placeholder text?\n');
    const qs = collectOpenQuestions({ poa, da });
    assert.deepStrictEqual(
      qs.map((q) => [q.id, q.text, q.answer?.text ?? null]),
      [
        ['POA-Q1', 'Is the list paged?', null],
        ['POA-Q2', 'Who may search?', 'Every signed-in member (`src/app/router.tsx:30`).'],
        ['DA-Q1', 'Placeholder text?', null],
      ],
    );
  });

  it('answers under other names (responses, replies, answers to questions) are answers, not new open questions', () => {
    const poa = env('POA', { open_questions: [{ id: 'OQ-1', question: 'Is the list paged?' }, 'Who may search?', 'Which sort order?'] });
    // a recorded run: DA answered POA's questions by our id and by POA's own, in an object keyed by id
    const da = env('DA', {
      open_question_responses: { 'POA-Q2': 'Every signed-in member (src/app/router.tsx:30)', 'OQ-1': { answer: 'Paged, 10 a page.', evidence: 'src/list.tsx:40' } },
      unanswered_questions: ['Placeholder text?'],
    });
    const deva = env('DevA', { question_answers: ['DA-Q1: "Search by title" (src/i18n/en.json:12).'], answers: { 'POA-Q3': 'Newest first.' } });
    const qs = collectOpenQuestions({ poa, da, deva });
    assert.deepStrictEqual(qs.map(questionLine), [
      'POA-Q1: Is the list paged? — answered by DA: Paged, 10 a page. (src/list.tsx:40)',
      'POA-Q2: Who may search? — answered by DA: Every signed-in member (src/app/router.tsx:30)',
      'POA-Q3: Which sort order? — answered by DevA: Newest first.',
      'DA-Q1: Placeholder text? — answered by DevA: "Search by title" (src/i18n/en.json:12).',
    ]);
    for (const key of ['responses_to_open_questions', 'Responses to open questions', 'replies_to_questions', '質問への回答', 'questionAnswers', 'openQuestionResponses', 'responsesToOpenQuestions']) {
      assert.deepStrictEqual(collectOpenQuestions({ poa, da: env('DA', { [key]: ['POA-Q3: Oldest first.'] }) }).map((q) => [q.id, q.answer?.text]).slice(2), [['POA-Q3', 'Oldest first.']], key);
    }
    // still open: unanswered, awaiting an answer, 未回答
    for (const key of ['unanswered_questions', 'questions_needing_answers', '未回答の質問', 'questions_to_answer', 'questions_for_answer', 'questions_without_answers', 'questions_with_no_answer', 'questions_for_stakeholder_response', 'questions_answerable_later', '回答待ちの質問', 'questionsToAnswer']) {
      assert.deepStrictEqual(collectOpenQuestions({ da: env('DA', { [key]: ['Placeholder text?'] }) }).map((q) => q.id), ['DA-Q1'], key);
    }
    // not renumbered as the role's own questions for the roles after it, nor in the retrospective's
    assert.deepStrictEqual(withQuestionIds(da.output, 'DA'), { ...(da.output as object), unanswered_questions: ['DA-Q1: Placeholder text?'] });
    assert.deepStrictEqual(retroAgentDigest(da).open_questions, ['Placeholder text?']);
  });

  it('an answers object keyed by id settles its questions, also when a key of it names no question', () => {
    const poa = env('POA', { open_questions: ['Which database?', { id: 'OQ-2', question: 'Does it work offline?' }] });
    const settled = (answers: Record<string, unknown>) => collectOpenQuestions({ poa, da: env('DA', { answered_questions: answers }) }).map(questionLine);
    const both = ['POA-Q1: Which database? — answered by DA: use SQLite', 'POA-Q2: Does it work offline? — answered by DA: yes'];
    assert.deepStrictEqual(settled({ 'POA-Q1': 'use SQLite', 'OQ-2': { answer: 'yes' } }), both, 'keyed by id alone');
    // a recorded-like reply: a remark beside the answers is no answer, and does not undo the others
    assert.deepStrictEqual(settled({ 'POA-Q1': 'use SQLite', 'OQ-2': { answer: 'yes' }, note: 'both settled' }), both, 'with a key that names no question');
    assert.deepStrictEqual(settled({ summary: 'nothing to add' }), ['POA-Q1: Which database?', 'POA-Q2: Does it work offline?'], 'no key names a question');
  });

  it('an object question without a question field reads as its text values, its own id left out', () => {
    const deva = env('DevA', { open_questions: [{ id: 'OQ-01', topic: 'max-height', detail: 'Cards measure 112px; 120px kept.', deviation: false }, { flag: true }] });
    assert.deepStrictEqual(collectOpenQuestions({ deva }).map((q) => q.text), ['max-height — Cards measure 112px; 120px kept.', '{"flag":true}']);
  });

  it('withQuestionIds names string and object questions, leaves the rest and markdown as they are', () => {
    assert.deepStrictEqual(withQuestionIds({ scope: ['a'], open_questions: ['Is it paged?', { question: 'Who?' }, ''] }, 'POA'), {
      scope: ['a'],
      open_questions: ['POA-Q1: Is it paged?', { id: 'POA-Q2', question: 'Who?' }, ''],
    });
    assert.deepStrictEqual(withQuestionIds({ open_questions: 'One question?' }, 'DA'), { open_questions: 'DA-Q1: One question?' });
    assert.strictEqual(withQuestionIds('## Open questions\n- x', 'POA'), '## Open questions\n- x');
    assert.strictEqual(withQuestionIds(undefined, 'POA'), undefined);
  });

  it('a question the role numbered itself (OQ-1) keeps our id; an answer by either id settles it', () => {
    // a recorded session: POA's open questions came as {"id": "OQ-1", …}; DA must not receive OQ-1 as the id to answer by
    const poa = env('POA', {
      open_questions: [
        { id: 'OQ-01', question: 'Should the task list be paged or infinite-scrolled?' },
        'OQ-2: Is the export a CSV file or an Excel workbook?',
        { id: 'OQ-3', question: 'Who may delete a shared list?' },
      ],
    });
    assert.deepStrictEqual((withQuestionIds(poa.output, 'POA') as { open_questions: unknown[] }).open_questions, [
      { id: 'POA-Q1', question: 'Should the task list be paged or infinite-scrolled?', asked_as: 'OQ-01' },
      'POA-Q2: OQ-2: Is the export a CSV file or an Excel workbook?',
      { id: 'POA-Q3', question: 'Who may delete a shared list?', asked_as: 'OQ-3' },
    ]);
    const da = env('DA', {
      open_questions: [{ id: 'OQ-1', question: 'Does the empty state keep its illustration?' }],
      answered_questions: [
        { question: 'OQ-1', answer: 'Paged, 20 per page.', evidence: 'src/list.tsx:40' },
        { id: 'OQ-2_export', answer: 'CSV: src/export.ts writes text/csv.' },
        { question: 'POA-Q3', answer: 'Only its owner (src/lists/acl.ts:12).' },
      ],
    });
    // POA's OQ-1 is settled: DevA's answer by OQ-1 can only be for DA's
    const deva = env('DevA', { answered_questions: [{ question: 'OQ-1', answer: 'It keeps it.' }] });
    assert.deepStrictEqual(collectOpenQuestions({ poa, da, deva }).map(questionLine), [
      'POA-Q1: Should the task list be paged or infinite-scrolled? — answered by DA: Paged, 20 per page. (src/list.tsx:40)',
      'POA-Q2: OQ-2: Is the export a CSV file or an Excel workbook? — answered by DA: CSV: src/export.ts writes text/csv.',
      'POA-Q3: Who may delete a shared list? — answered by DA: Only its owner (src/lists/acl.ts:12).',
      'DA-Q1: Does the empty state keep its illustration? — answered by DevA: It keeps it.',
    ]);
    // both still open under the same OQ-1: an answer by it alone settles neither (kept apart, not lost)
    const daAsking = env('DA', { open_questions: [{ id: 'OQ-1', question: 'Does the empty state keep its illustration?' }] });
    assert.deepStrictEqual(collectOpenQuestions({ poa, da: daAsking, deva }).map(questionLine).slice(3), [
      'DA-Q1: Does the empty state keep its illustration?',
      'OQ-1 — answered by DevA: It keeps it.',
    ]);
  });
});

describe('open questions: what the roles and the retrospective receive', () => {
  it('DA receives POA\'s questions named; DevA receives DA\'s named, and DA\'s answers', () => {
    const da = text(buildStepContext('da', inputs('da', { poa: POA })));
    assert.ok(da.includes('POA-Q1: Is the discussions list paged'), da);
    assert.ok(da.includes('POA-Q2: Should the search also match the body?'));
    assert.match(da, /answered_questions/, 'the role prompt asks for them');
    const deva = text(buildStepContext('deva', inputs('deva', { poa: POA, da: DA })));
    assert.ok(deva.includes('"id":"DA-Q1"'), 'DA\'s own question is named for DevA');
    assert.ok(deva.includes('The list is paged: 10 a page'), 'DevA learns what DA found');
  });

  it('the retrospective request marks POA\'s question answered by DA, and DA\'s answers are no open questions', () => {
    assert.deepStrictEqual(retroAgentDigest(DA).open_questions, ['{"question":"Does the table keep its empty state message for no matches?","for":"human"}']);
    const retro = text(buildStepContext('cm_retro', inputs('cm_retro', { poa: POA, da: DA })));
    assert.ok(retro.includes('POA-Q1: Is the discussions list paged, or does it show every discussion? — answered by DA: The list is paged'), retro);
    assert.ok(retro.includes('POA-Q2: Should the search also match the body?'));
    assert.ok(retro.includes('DA-Q1: Does the table keep its empty state message for no matches?'));
  });

  it('the retrospective file lists the questions to decide first, then the answered ones with where they were seen', () => {
    const metrics = computeMetrics({ envelopes: {}, usage: {}, startedAt: 0, retroSavedAt: 1, contextChars: {} });
    const retro: Envelope = { ...env('DA', null), agent: 'CM', kpt: { keep: [], problem: [], try: [] }, conversation: [] };
    const md = renderRetrospective('t', 'Search', retro, metrics, [], new Date(0), { questions: collectOpenQuestions({ poa: POA, da: DA }) });
    const section = md.slice(md.indexOf('## Open questions'), md.indexOf('## Metrics'));
    assert.strictEqual(
      section,
      [
        '## Open questions',
        '',
        '_2 for you to decide; 1 answered by the team from the workspace._',
        '',
        '- **POA-Q2** Should the search also match the body?',
        '- **DA-Q1** Does the table keep its empty state message for no matches?',
        '- **POA-Q1** Is the discussions list paged, or does it show every discussion? — _answered by DA:_ The list is paged: 10 a page, and its page links keep only ?page. (`src/features/discussions/discussions-list.tsx:42`)',
        '',
        '',
      ].join('\n'),
    );
    const none = renderRetrospective('t', 'Search', retro, metrics, [], new Date(0), { questions: [] });
    assert.ok(!none.includes('## Open questions'), 'no section when no role asked');
  });
});
