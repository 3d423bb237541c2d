// A not-ready objective goes back to the user — only when the Cape Master asks blocking questions.
//
// Real sessions fail the Definition of Ready almost every time and proceed as a "conditional go": a failed check
// without questions goes on as before, its concerns shown. When the CM opening's `dor_check.questions` holds
// something the team cannot reasonably assume, the session pauses right after the opening is saved (state
// `needs_answers`, resumable). Answers go to exactly one more CM opening request, which never pauses again;
// skipping them ("Continue anyway", `--skip-questions`) lets POA start from the first opening.
import { isPlainObject, type Envelope, type StepId } from '../model/types';
import type { SessionState } from '../store';
import { StepFailure } from './failure';
import { sliceWhole } from '../text/cut';
import { withoutControls } from '../text/controls';
import { isPlaceholderItem } from '../text/placeholder';

/** Questions kept from one opening (a few blocking questions, not a questionnaire). */
export const MAX_DOR_QUESTIONS = 5;
/** Characters of one question, and of one answer, kept. */
export const MAX_DOR_QUESTION_CHARS = 1000;
export const MAX_DOR_ANSWER_CHARS = 4000;

/** What the second opening receives for a question the user left unanswered. */
export const NO_ANSWER = '(no answer: make and state an assumption)';

/** One question with the user's answer, as the second opening receives it. */
export interface DorAnswer {
  question: string;
  answer: string;
}

/** The CM opening's blocking questions (bounded), or [] when it asked none (a "なし" is none: text/placeholder.ts). */
export function dorQuestionsOf(env: Envelope | undefined): string[] {
  const out = env && isPlainObject(env.output) ? (env.output as { dor_check?: { questions?: unknown } }).dor_check?.questions : undefined;
  if (!Array.isArray(out)) return [];
  return out
    .filter((q): q is string => typeof q === 'string' && q.trim() !== '' && !isPlaceholderItem(q))
    .slice(0, MAX_DOR_QUESTIONS)
    .map((q) => sliceWhole(q.trim(), 0, MAX_DOR_QUESTION_CHARS));
}

/** An answer as typed by the user: escape sequences, control and bidi characters (text/controls.ts) removed, trimmed, bounded. */
export function cleanAnswer(text: unknown): string {
  if (typeof text !== 'string') return '';
  return sliceWhole(withoutControls(text).trim(), 0, MAX_DOR_ANSWER_CHARS);
}

/** Answers matched to the questions in order; a missing one says so, extra answers join the last question. */
export function pairAnswers(questions: readonly string[], answers: readonly string[]): DorAnswer[] {
  const given = answers.map(cleanAnswer);
  return questions.map((question, i) => {
    const mine = i === questions.length - 1 ? given.slice(i).filter(Boolean).join('\n\n') : (given[i] ?? '');
    return { question, answer: mine || NO_ANSWER };
  });
}

/** The second opening's section: the questions and the user's answers. */
export function answersText(pairs: readonly DorAnswer[]): string {
  return pairs.map((p, i) => `${i + 1}. Q: ${p.question}\n   A: ${p.answer.replace(/\n/g, '\n      ')}`).join('\n');
}

export interface ResumeAnswers {
  /** The user's answers, in the order of the questions. */
  answers?: readonly string[];
  /** Skip the questions: POA starts from the opening as it is. */
  skipQuestions?: boolean;
  /** `--from-step`: a rerun from a step is a decision to go on. */
  fromStep?: StepId;
}

/**
 * Prepares a resumed session's state for its questions. Returns the questions when the session still waits for
 * answers (nothing is to run), or null to go on: with answers, the CM opening runs once more with them (it leaves
 * the completed steps); skipped, POA starts. Answers for a session that asked nothing are refused, so a mistyped task
 * id is not silently resumed with them.
 */
export function prepareAnswers(state: SessionState, o: ResumeAnswers): string[] | null {
  const given = (o.answers ?? []).map(cleanAnswer);
  const answered = given.some(Boolean);
  if (state.status !== 'needs_answers') {
    if (answered || o.skipQuestions) {
      throw new StepFailure(
        null,
        'config',
        `Session ${state.taskId} is not waiting for answers to the Cape Master's questions (it is ${state.status}); resume it without --answer / --skip-questions.`,
        undefined,
        false,
      );
    }
    return null;
  }
  const questions = state.dor?.questions ?? [];
  if (answered && o.skipQuestions) {
    throw new StepFailure(null, 'config', 'Give answers or skip the questions, not both.', undefined, false);
  }
  if (answered) {
    state.dor = { questions, answers: given };
    state.completedSteps = state.completedSteps.filter((s) => s !== 'cm_open');
    delete state.stepFiles.cm_open;
    return null;
  }
  if (o.skipQuestions || o.fromStep) {
    state.dor = { questions, skipped: true };
    return null;
  }
  return questions;
}

/** The questions that pause the session after this opening, or null (none asked, or already answered/skipped). */
export function questionsToPause(state: SessionState, opening: Envelope): string[] | null {
  if (state.dor?.answers || state.dor?.skipped) return null;
  const questions = dorQuestionsOf(opening);
  return questions.length ? questions : null;
}

/** What a second opening receives: the questions with the answers, when the user answered. */
export function answeredPairs(state: SessionState): DorAnswer[] | undefined {
  return state.dor?.answers ? pairAnswers(state.dor.questions, state.dor.answers) : undefined;
}
