// Items that only say there is nothing ("なし", "None", "N/A", "-", "No open questions"; text/placeholder.ts) are no
// items: a DoR check does not pause to ask "1. なし", DevA's "なし" blockers buy no round with DA, "POA-Q1: なし" is
// no open question, and kpt_merged.md stores no "なし" Problem. An item that says something is never dropped.
import * as assert from 'assert';
import { isPlaceholderItem } from '../../src/core/text/placeholder';
import { validateEnvelope } from '../../src/core/reply/envelope';
import { dorQuestionsOf, questionsToPause } from '../../src/core/session/dorQuestions';
import { resolveBlockers } from '../../src/core/session/blockers';
import { collectOpenQuestions, withQuestionIds } from '../../src/core/session/openQuestions';
import { mergeKptText } from '../../src/core/kpt';
import type { Envelope, StepId } from '../../src/core/model/types';
import type { SessionState } from '../../src/core/store';

function ok(step: StepId, json: unknown): Envelope {
  const r = validateEnvelope(step, json);
  if (!r.ok) assert.fail(`expected ${step} to validate, got:\n${r.error}`);
  return r.envelope;
}

const ass = { score: 3, positive: '', improvement: '', context_adequate: true };
const worker = (agent: 'POA' | 'DA' | 'DevA', output: unknown): Envelope => ({ agent, role: agent, task_id: 't', voice: 'v', output, references: [], confidence: 3, ass: null });
const opening = (dor: Record<string, unknown>) =>
  ok('cm_open', {
    agent: 'CM',
    task_id: 't',
    voice: 'v',
    output: { session_brief: 'b', dor_check: { passed: false, ...dor }, watch_out: ['N/A'], coaching_notes: { POA: '', DA: '', DevA: '' } },
  });
const deva = (blockers: unknown) => ok('deva', { agent: 'DevA', task_id: 't', voice: 'v', output: { file_list: [], blockers }, references: [], confidence: 3, ass });

describe('placeholder items ("なし", "None", "N/A") are no items', () => {
  it('the predicate: the whole item, NFKC, any case, brackets and a final stop aside; never an item that says something', () => {
    for (const s of ['なし', '特になし', '無し', 'ありません', '特にありません', '該当なし', 'None', 'NONE', ' none. ', 'N/A', 'n/a', 'Ｎ／Ａ', '-', '—', '（なし）', '[None]', '「特になし」', 'No open questions', 'No blockers.', 'none so far', 'Nothing to report', 'not applicable', '質問なし', '現時点では特になし', '懸念事項はありません']) {
      assert.ok(isPlaceholderItem(s), s);
    }
    for (const s of ['None of the tests cover X', 'N/A values are shown as blank', 'No blockers were raised, but the spec is vague', 'なしの場合は空欄を表示する', '問題なしと判断した理由を記録する', 'Is "none" a valid filter value?', 'No', '', '  ', 'TBD', 'The dash (-) is shown']) {
      assert.ok(!isPlaceholderItem(s), s);
    }
  });

  it('reads an item with a long run of stops or brackets in one pass (model replies are untrusted)', () => {
    // the final stops were cut by /[.。!！]+$/, tried from each start of the run: quadratic, 8 s at this size
    assert.ok(!isPlaceholderItem(`a${'.'.repeat(100_000)} b`));
    assert.ok(isPlaceholderItem(`none${'.'.repeat(100_000)}`));
    assert.ok(isPlaceholderItem(`${'( '.repeat(50_000)}なし${' )'.repeat(50_000)}`));
    assert.ok(!isPlaceholderItem(`${'('.repeat(50_000)}なし${')'.repeat(49_999)}.`), 'a stop after the brackets: not unwrapped');
  });

  it('(a) a DoR check asking "なし" does not pause the session', () => {
    assert.deepStrictEqual((opening({ concerns: ['c'], questions: ['なし'] }).output as { dor_check: object }).dor_check, { passed: false, concerns: ['c'] });
    const state = { status: 'running' } as unknown as SessionState;
    assert.strictEqual(questionsToPause(state, opening({ concerns: [], questions: ['特になし', 'None'] })), null);
    assert.deepStrictEqual(dorQuestionsOf(opening({ concerns: [], questions: ['N/A', 'Which page?'] })), ['Which page?']);
    // concerns and watch-outs lose their placeholders the same way (reply/lenientSchemas.ts toStringList)
    const o = opening({ concerns: ['None'] }).output as { dor_check: { concerns: string[] }; watch_out: string[] };
    assert.deepStrictEqual([o.dor_check.concerns, o.watch_out], [[], []]);
  });

  it('(a) a saved opening read back (not through the schema) does not pause on "なし" either', () => {
    const saved = { agent: 'CM', output: { dor_check: { passed: false, concerns: [], questions: ['なし', '（該当なし）'] } } } as unknown as Envelope;
    assert.deepStrictEqual(dorQuestionsOf(saved), []);
  });

  it('(b) DevA\'s "なし" blockers, in any shape, ask DA nothing', async () => {
    for (const blockers of ['なし', ['None'], [{ to: 'DA', question: 'N/A' }], '-']) {
      const env = deva(blockers);
      assert.strictEqual(env.blockers, undefined, JSON.stringify(blockers));
      const records = await resolveBlockers({
        current: () => ({ raw: '', envelope: env }),
        rounds: 1,
        ask: () => assert.fail(`DA asked about ${JSON.stringify(blockers)}`),
        rerun: () => assert.fail('DevA asked again'),
        emit: () => undefined,
        warn: () => undefined,
      });
      assert.deepStrictEqual(records, []);
    }
    assert.deepStrictEqual(deva(['なし', 'Which breakpoint?']).blockers, [{ to: 'DA', question: 'Which breakpoint?' }]);
  });

  it('(c) "なし" open questions are none; the real ones keep their numbers for the roles after', () => {
    const envelopes = {
      poa: worker('POA', { open_questions: 'なし' }),
      da: worker('DA', { open_questions: ['特になし'] }),
      deva: worker('DevA', { open_questions: ['None', 'Is the list paged?'] }),
    };
    assert.deepStrictEqual(collectOpenQuestions(envelopes), [{ id: 'DevA-Q1', from: 'DevA', text: 'Is the list paged?' }]);
    assert.deepStrictEqual((withQuestionIds(envelopes.deva.output, 'DevA') as { open_questions: string[] }).open_questions, ['None', 'DevA-Q1: Is the list paged?']);
  });

  it('(c) an object whose question is "N/A" or "なし" is no open question either', () => {
    const envelopes = {
      poa: worker('POA', { open_questions: [{ question: 'N/A' }, { id: 'OQ-1', text: 'なし' }, { note: '特になし' }] }),
      da: worker('DA', { open_questions: { question: 'None.', for: 'human' } }),
      deva: worker('DevA', { open_questions: [{ question: 'なし' }, { question: 'Is the list paged?' }] }),
    };
    assert.deepStrictEqual(collectOpenQuestions(envelopes), [{ id: 'DevA-Q1', from: 'DevA', text: 'Is the list paged?' }]);
    assert.deepStrictEqual((withQuestionIds(envelopes.deva.output, 'DevA') as { open_questions: unknown[] }).open_questions, [{ question: 'なし' }, { id: 'DevA-Q1', question: 'Is the list paged?' }]);
  });

  it('(d) a retrospective\'s "特になし" Problem and "N/A" Try are no KPT items', () => {
    const env = ok('cm_retro', { agent: 'CM', task_id: 't', conversation: [{ speaker: 'CM', text: 'hi' }], kpt: { keep: ['Small steps'], problem: '特になし', try: ['N/A'] } });
    assert.deepStrictEqual(env.kpt, { keep: ['Small steps'], problem: [], try: [] });
  });

  it('(d) kpt_merged.md stores no placeholder item', () => {
    const merged = mergeKptText('', 'task-kn', { keep: ['Small steps', '-'], problem: ['特になし'], try: ['N/A', 'none.'] }, { updatedAt: new Date(2026, 0, 1) });
    assert.deepStrictEqual(merged.split('\n').filter((l) => l.startsWith('- ')), ['- [task-kn] Small steps']);
  });
});
