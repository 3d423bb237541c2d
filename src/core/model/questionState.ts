// Whether a role's open question is still open, answered, or answered in part — how each is said and how many there
// are — in one place: the retrospective file, the panel's results, the CLI's transcript and the line the later roles
// read all show a question by these. session/openQuestions.ts finds the answer and where its open part went; this file
// only reads it.
// Plain functions on data: the webview imports them too.
import type { OpenQuestion } from './envelope';

/** Still for the human to decide, settled by a later role, or settled but for a part that role carried on. */
export type QuestionState = 'open' | 'answered' | 'answered-in-part';

/**
 * The one rule: a question with no answer is open; one whose answering role carried its open part into its own
 * questions (`openPartIn`) is answered in part; any other answer settles it.
 */
export function questionState(q: OpenQuestion): QuestionState {
  if (!q.answer) return 'open';
  return q.answer.openPartIn?.length ? 'answered-in-part' : 'answered';
}

/** The CLI transcript's mark before each question. */
export const QUESTION_MARKS: Readonly<Record<QuestionState, string>> = { open: '?', answered: '✓', 'answered-in-part': '◐' };

/**
 * Who answered, lower-case, for before the answer: `answered by DA`, or `answered in part by DA (open part carried to
 * DA-Q2)`. '' for an open question.
 */
export function answeredBy(q: OpenQuestion): string {
  if (!q.answer) return '';
  const carried = q.answer.openPartIn ?? [];
  return carried.length ? `answered in part by ${q.answer.by} (open part carried to ${carried.join(', ')})` : `answered by ${q.answer.by}`;
}

/** `3 answered by the team from the workspace (1 in part)`: the answered ones counted, '' when none is. */
export function answeredSummary(questions: readonly OpenQuestion[]): string {
  const answered = questions.filter((q) => q.answer).length;
  if (!answered) return '';
  const inPart = questions.filter((q) => questionState(q) === 'answered-in-part').length;
  return `${answered} answered by the team from the workspace${inPart ? ` (${inPart} in part)` : ''}`;
}

/**
 * The questions counted, as the retrospective file and the panel head them (each joins them its way): those still
 * for the human (`2 for you to decide`), then the answered ones (answeredSummary); each '' when it counts none.
 */
export function questionCounts(questions: readonly OpenQuestion[]): [toDecide: string, answered: string] {
  const open = questions.filter((q) => !q.answer).length;
  return [open ? `${open} for you to decide` : '', answeredSummary(questions)];
}
