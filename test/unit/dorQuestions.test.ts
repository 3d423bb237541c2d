// The Cape Master's blocking questions (issue 10 §3): envelope field, pause/resume decisions, the second opening's
// section, and the saved state.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { validateEnvelope } from '../../src/core/reply/envelope';
import {
  answeredPairs,
  answersText,
  cleanAnswer,
  dorQuestionsOf,
  MAX_DOR_QUESTIONS,
  NO_ANSWER,
  pairAnswers,
  prepareAnswers,
  questionsToPause,
} from '../../src/core/session/dorQuestions';
import { buildStepContext, type ContextInputs } from '../../src/core/session/context';
import { StepFailure } from '../../src/core/session/failure';
import { SessionStore, type SessionState } from '../../src/core/store';
import type { Envelope } from '../../src/core/model/types';

function opening(dor: Record<string, unknown>): Envelope {
  const r = validateEnvelope('cm_open', {
    agent: 'CM',
    role: 'Cape Master',
    task_id: 't',
    voice: 'v',
    output: { session_brief: 'b', dor_check: { passed: false, concerns: ['c'], ...dor }, watch_out: [], coaching_notes: { POA: '', DA: '', DevA: '' } },
  });
  if (!r.ok) assert.fail(r.error);
  return r.envelope;
}

function state(over: Partial<SessionState> = {}): SessionState {
  return {
    taskId: 'task-q',
    objective: 'o',
    language: 'English',
    model: 'm',
    createdAt: 1,
    status: 'needs_answers',
    completedSteps: ['cm_open'],
    stepFiles: { cm_open: 'cape/5_sessions/pair/task-q_1_CM_2.json' },
    dor: { questions: ['Q1?', 'Q2?'] },
    ...over,
  };
}

describe('DoR blocking questions', () => {
  it('the envelope keeps non-blank questions and leaves the field out when there are none', () => {
    assert.deepStrictEqual((opening({ questions: ['Which one?', '  ', ''] }).output as any).dor_check, { passed: false, concerns: ['c'], questions: ['Which one?'] });
    assert.deepStrictEqual((opening({}).output as any).dor_check, { passed: false, concerns: ['c'] });
    assert.deepStrictEqual((opening({ questions: [] }).output as any).dor_check, { passed: false, concerns: ['c'] });
    assert.deepStrictEqual((opening({ questions: 'Just one?' }).output as any).dor_check.questions, ['Just one?']);
    assert.deepStrictEqual(dorQuestionsOf(opening({ questions: Array.from({ length: 9 }, (_, i) => ` q${i} `) })), ['q0', 'q1', 'q2', 'q3', 'q4'].slice(0, MAX_DOR_QUESTIONS));
    assert.deepStrictEqual(dorQuestionsOf(undefined), []);
  });

  it('pauses only on questions, never once they are answered or skipped', () => {
    const asked = opening({ questions: ['Which one?'] });
    assert.deepStrictEqual(questionsToPause(state({ dor: undefined }), asked), ['Which one?']);
    assert.strictEqual(questionsToPause(state({ dor: undefined }), opening({})), null);
    assert.strictEqual(questionsToPause(state({ dor: { questions: ['x'], answers: ['y'] } }), asked), null);
    assert.strictEqual(questionsToPause(state({ dor: { questions: ['x'], skipped: true } }), asked), null);
  });

  it('answers are cleaned, matched to the questions in order, and rendered for the second opening', () => {
    assert.strictEqual(cleanAnswer('  yes\u0007 \u202Eplease\r\nline two  '), 'yes please\nline two');
    assert.strictEqual(cleanAnswer(42), '');
    assert.deepStrictEqual(pairAnswers(['A?', 'B?'], ['a']), [
      { question: 'A?', answer: 'a' },
      { question: 'B?', answer: NO_ANSWER },
    ]);
    assert.deepStrictEqual(pairAnswers(['A?', 'B?'], ['a', 'b', 'c']), [
      { question: 'A?', answer: 'a' },
      { question: 'B?', answer: 'b\n\nc' },
    ]);
    assert.strictEqual(answersText([{ question: 'A?', answer: 'one\ntwo' }]), '1. Q: A?\n   A: one\n      two');
  });

  it('prepareAnswers: answers rerun the opening, skipping goes on, nothing keeps waiting', () => {
    const waiting = state();
    assert.deepStrictEqual(prepareAnswers(waiting, {}), ['Q1?', 'Q2?']);
    assert.deepStrictEqual(prepareAnswers(waiting, { answers: ['', ' '] }), ['Q1?', 'Q2?'], 'blank answers are no answers');
    assert.deepStrictEqual(waiting.completedSteps, ['cm_open']);

    const answered = state();
    assert.strictEqual(prepareAnswers(answered, { answers: ['one', 'two'] }), null);
    assert.deepStrictEqual(answered.completedSteps, []);
    assert.strictEqual(answered.stepFiles.cm_open, undefined);
    assert.deepStrictEqual(answeredPairs(answered), [
      { question: 'Q1?', answer: 'one' },
      { question: 'Q2?', answer: 'two' },
    ]);

    const skipped = state();
    assert.strictEqual(prepareAnswers(skipped, { skipQuestions: true }), null);
    assert.deepStrictEqual(skipped.completedSteps, ['cm_open']);
    assert.deepStrictEqual(skipped.dor, { questions: ['Q1?', 'Q2?'], skipped: true });
    assert.strictEqual(answeredPairs(skipped), undefined);

    assert.throws(() => prepareAnswers(state(), { answers: ['a'], skipQuestions: true }), StepFailure);
    assert.throws(
      () => prepareAnswers(state({ status: 'failed' }), { answers: ['a'] }),
      (e: StepFailure) => e.kind === 'config' && !e.resumable && /not waiting for answers/.test(e.message),
    );
    assert.strictEqual(prepareAnswers(state({ status: 'failed' }), {}), null, 'an ordinary resume is untouched');
  });

  it('the second opening gets the questions and answers in its user message; the first one is unchanged', () => {
    const inputs: ContextInputs = {
      taskId: 'task-q',
      objective: 'Add a dark mode',
      language: 'English',
      preamble: 'preamble',
      rolePrompt: 'role',
      assets: new Map(),
      kptDigest: '',
      kptFull: '',
      envelopes: {},
      raws: {},
      devaFiles: [],
      devaSummary: null,
    };
    const first = buildStepContext('cm_open', inputs);
    const second = buildStepContext('cm_open', { ...inputs, dorAnswers: [{ question: 'Toggle or OS only?', answer: 'A toggle.' }] });
    assert.doesNotMatch(first.user, /answers/i);
    assert.deepStrictEqual(second.system, first.system, 'the cached system prompt does not change');
    assert.match(second.user, /## Your blocking questions and the user's answers\n1\. Q: Toggle or OS only\?\n {3}A: A toggle\./);
  });

  it('the saved state keeps the questions and answers; needs_answers is a valid status', async () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-dor-store-'));
    fs.mkdirSync(path.join(ws, 'cape'));
    const store = new SessionStore(ws, 'cape');
    await store.saveSessionState(state({ dor: { questions: ['Q1?'], answers: ['a'] } }));
    const loaded = await store.loadSessionState('task-q');
    assert.strictEqual(loaded!.status, 'needs_answers');
    assert.deepStrictEqual(loaded!.dor, { questions: ['Q1?'], answers: ['a'] });
    const file = path.join(ws, 'cape', '5_sessions', 'state', 'task-q.json');
    fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), dor: { questions: 'not a list' } }));
    assert.strictEqual((await store.loadSessionState('task-q'))!.dor, undefined, 'a damaged dor field is dropped, not trusted');
    fs.rmSync(ws, { recursive: true, force: true });
  });
});
