// The Cape Master's blocking questions (Definition of Ready) inside its opening turn: one answer box per question
// while open, what the user answered afterwards; and the two reads the host's messages need from the open block,
// whether Submit answers is enabled and the typed answers.
import { button, h, icon } from './dom';
import { renderInline } from './markdown';
import type { PanelViewState, QuestionsView, SessionView } from './viewState';
import { strList } from './hostValues';

/**
 * The Cape Master's blocking questions inside its opening turn: while open, one answer box per question with
 * "Submit answers" (enabled once something is typed) and "Continue anyway"; afterwards what the user said.
 */
export function questionsBlock(s: SessionView, q: QuestionsView, state: PanelViewState, readonly: boolean): HTMLElement {
  const questions = strList(q.questions);
  const answers = Array.isArray(q.answers) ? q.answers.map((a) => (typeof a === 'string' ? a : '')) : [];
  const open = q.status === 'open' && !readonly;
  const n = questions.length;
  const title =
    q.status === 'answered'
      ? `You answered the Cape Master's question${n === 1 ? '' : 's'}`
      : q.status === 'skipped'
        ? 'You continued without answering'
        : `The Cape Master needs ${n === 1 ? 'an answer' : `${n} answers`} before the team starts`;
  const headId = readonly ? undefined : 'cape-questions-title';
  const block = h(
    'section',
    { class: `dor-questions dor-questions-${q.status}`, attrs: { 'aria-labelledby': headId, 'aria-label': headId ? undefined : title } },
    h('h3', { class: 'section-title dor-questions-title', attrs: { id: headId } }, icon(q.status === 'open' ? 'question' : q.status === 'answered' ? 'comment-discussion' : 'debug-continue'), ` ${title}`),
  );
  const list = h('ol', { class: 'question-list' });
  questions.forEach((question, i) => {
    const item = h('li', { class: 'question' });
    if (open) {
      const id = `cape-answer-${i}`;
      item.append(
        h('label', { class: 'question-text', attrs: { for: id } }, renderInline(question)),
        h('textarea', { class: 'answer-input', attrs: { id, rows: '2', placeholder: 'Your answer (leave empty to let the team assume)' }, data: { answerIndex: String(i), focusKey: `answer:${i}` } }),
      );
    } else {
      item.append(h('div', { class: 'question-text' }, renderInline(question)));
      if (q.status === 'answered') item.append(h('div', { class: 'answer-text', text: answers[i]?.trim() || 'No answer: the team assumes.' }));
    }
    list.append(item);
  });
  block.append(list);
  if (open) {
    block.append(
      h('p', { class: 'hint' }, icon('info'), h('span', { text: ' The session is saved and waits. Your answers go to the Cape Master, who opens again with them; or continue without, and the team states its assumptions.' })),
      h(
        'div',
        { class: 'actions' },
        button({ label: 'Submit answers', action: 'answerQuestions', icon: 'send', primary: true, data: { taskId: s.taskId }, disabled: true, title: 'Type at least one answer first', focusKey: 'answer-questions' }),
        button({ label: 'Continue anyway', action: 'skipQuestions', icon: 'debug-continue', data: { taskId: s.taskId }, disabled: state.busy, title: 'Go on without answers: the team states its assumptions', focusKey: 'skip-questions' }),
      ),
    );
  } else if (q.status === 'skipped') {
    block.append(h('p', { class: 'hint' }, icon('info'), h('span', { text: ' The team went on from this opening and states its assumptions.' })));
  }
  return block;
}

/** Submit answers is enabled once an answer is typed (and no run is in progress); Continue anyway when idle. */
export function refreshAnswerButtons(session: HTMLElement | null, state: PanelViewState): void {
  const block = session?.querySelector('.dor-questions-open');
  if (!block) return;
  const typed = Array.from(block.querySelectorAll<HTMLTextAreaElement>('.answer-input')).some((t) => t.value.trim() !== '');
  const submit = block.querySelector<HTMLButtonElement>('button[data-action="answerQuestions"]');
  const skip = block.querySelector<HTMLButtonElement>('button[data-action="skipQuestions"]');
  if (submit) {
    submit.disabled = state.busy || !typed;
    submit.title = state.busy ? 'A session is running' : typed ? 'Send your answers to the Cape Master' : 'Type at least one answer first';
  }
  if (skip) skip.disabled = state.busy;
}

/** The typed answers, in the questions' order. */
export function typedAnswers(session: HTMLElement | null): string[] {
  const boxes = Array.from(session?.querySelectorAll<HTMLTextAreaElement>('.dor-questions-open .answer-input') ?? []);
  return boxes.sort((a, b) => Number(a.dataset.answerIndex) - Number(b.dataset.answerIndex)).map((t) => t.value);
}
