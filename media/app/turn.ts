// One agent's turn in the transcript: the head (name, step, attempt, status, Copy voice), notes and warnings, the
// tool-call chips, DevA's exchanges with DA, the live voice, the writing-progress line, the envelope's body, and the
// step's error box with Retry / Resume. The questions (cm_open), the checks (deva) and the retrospective results
// (cm_retro) are appended in their turn; the questions and the checks are rendered by questions.ts and checks.ts.
import { AGENT_NAME, avatar, button, h, icon, STEP_LABEL } from './dom';
import { formatDuration } from '../../src/core/model/dates';
import { checksBlock, type RenderMemory } from './checks';
import { renderMarkdown } from './markdown';
import type { Exchange, PanelViewState, SessionView, StepView } from './viewState';
import { renderConversation, renderKpt, renderOpenQuestions, renderOpeningCard, renderSelfAssessment, renderValue } from './output';
import { renderMetrics } from './metrics';
import { questionsBlock } from './questions';

/** The error box title per error kind (one truth for the step error box and the session banner). */
export const ERROR_TITLE: Record<string, string> = {
  auth: 'Authentication failed',
  rate_limit: 'Rate limited',
  overloaded: 'The model is overloaded',
  network: 'Network error',
  stalled: 'The response stalled',
  cancelled: 'Stopped',
  invalid_reply: 'The reply could not be understood',
  config: 'Configuration problem',
  io: 'File system error',
  cost_cap: 'Cost cap reached',
  unknown: 'Something went wrong',
};

/** The title of an error kind (an own key of ERROR_TITLE: a kind named "constructor" is unknown). */
export function errorTitle(kind: string): string {
  return Object.hasOwn(ERROR_TITLE, kind) ? ERROR_TITLE[kind] : ERROR_TITLE.unknown;
}

/** The writing-progress count (also updated in place by the view on 'output-progress'). */
export function workingText(chars: number): string {
  return chars >= 1000 ? `${(chars / 1000).toFixed(1)}k characters` : `${chars} characters`;
}

/** The turn of one step, or null while the step is pending or skipped. `readonly` for archived sessions (no actions). */
export function renderTurn(s: SessionView, st: StepView, state: PanelViewState, readonly: boolean, memory: RenderMemory): HTMLElement | null {
  if (st.status === 'pending' || st.status === 'skipped') return null;
  const agent = st.agent;
  const turn = h('article', { class: `turn turn-${st.status}`, data: { step: st.step }, attrs: { id: readonly ? undefined : `turn-${st.step}`, 'aria-label': `${AGENT_NAME[agent]} — ${STEP_LABEL[st.step]}` } });
  const head = h(
    'div',
    { class: 'turn-head' },
    h('span', { class: 'turn-name', text: AGENT_NAME[agent] }),
    h('span', { class: 'turn-step', text: STEP_LABEL[st.step] }),
  );
  if (st.attempt > 1) head.append(h('span', { class: 'chip', text: `attempt ${st.attempt}` }));
  if (st.status === 'running') head.append(h('span', { class: 'turn-status' }, icon('loading', 'codicon-modifier-spin'), h('span', { text: 'working' })));
  if (st.status === 'done' && st.durationMs != null) head.append(h('span', { class: 'turn-status muted', text: formatDuration(st.durationMs) }));
  if (st.voice) head.append(button({ label: 'Copy voice', action: 'copy', icon: 'copy', iconOnly: true, data: { copyStep: st.step }, focusKey: `copy:${st.step}` }));

  const body = h('div', { class: 'turn-body' }, head);
  if (s.resumed && st.status === 'done' && !st.envelope && !st.voice) {
    body.append(h('p', { class: 'muted', text: 'Completed in an earlier run.' }));
  }
  for (const n of st.notes) body.append(h('div', { class: 'note' }, icon('sync'), h('span', { text: ` ${n}` })));
  for (const w of st.warnings ?? []) body.append(h('div', { class: 'note note-warning', attrs: { role: 'status' } }, icon('warning'), h('span', { text: ` ${w}` })));
  if (st.tools && st.tools.length > 0) {
    // One chip per tool call, in order, as they happen; refused or bounded calls in the warning colour.
    const chips = h('div', { class: 'tool-calls', attrs: { role: 'list', 'aria-label': `${AGENT_NAME[agent]}'s reads of the workspace` } });
    for (const t of st.tools) {
      chips.append(
        h('span', { class: `tool-call tool-call-${t.tone}`, attrs: { role: 'listitem', title: t.text } }, icon(t.tone === 'warning' ? 'warning' : 'file'), h('span', { text: ` ${t.text}` })),
      );
    }
    body.append(chips);
  }

  for (const x of st.exchanges ?? []) body.append(exchange(x));

  // The live voice: plain text nodes only. aria-live so screen readers follow the stream politely.
  const voice = h('div', { class: `voice${st.voice ? '' : ' voice-empty'}`, attrs: { 'aria-live': 'polite' } });
  if (st.voice) voice.append(document.createTextNode(st.voice));
  if (st.voice || st.status === 'running') body.append(voice);

  if (st.checks && st.checks.length) body.append(checksBlock(st, readonly, memory));
  if (st.status === 'running' && !st.envelope && st.outputChars > 0 && !st.checks?.length) {
    body.append(h('div', { class: 'working', attrs: { role: 'status' } }, icon('loading', 'codicon-modifier-spin'), h('span', { text: ' Writing the output… ' }), h('span', { class: 'working-count muted', text: workingText(st.outputChars) })));
  }
  if (st.envelope) body.append(...envelopeBody(s, st));
  if (st.step === 'cm_open' && s.questions) body.append(questionsBlock(s, s.questions, state, readonly));
  if (st.step === 'cm_retro' && s.finished) body.append(retroResults(s));
  if (st.error) body.append(errorBox(s, st, state, readonly));
  turn.append(avatar(agent), body);
  return turn;
}

/** DevA's blockers and the answer, as a short conversation inside DevA's turn (model text: inline-rendered). */
function exchange(x: Exchange): HTMLElement {
  const turns = [{ speaker: x.from, text: x.questions.length > 1 ? x.questions.map((q, i) => `${i + 1}. ${q}`).join(' ') : x.questions[0] ?? '' }];
  if (x.answer) turns.push({ speaker: x.to, text: x.answer });
  const wrap = h('div', { class: 'exchange', attrs: { role: 'group', 'aria-label': `${x.from} asks ${x.to}` } }, h('div', { class: 'note' }, icon('comment-discussion'), h('span', { text: ` ${x.from} asked ${x.to} about the specs` })), renderConversation(turns, `${x.from} and ${x.to}`));
  if (x.answer === null) wrap.append(h('div', { class: 'working', attrs: { role: 'status' } }, icon('loading', 'codicon-modifier-spin'), h('span', { text: ` ${x.to} is answering…` })));
  else if (!x.answer) wrap.append(h('p', { class: 'muted', text: `${x.to}'s answer could not be used; ${x.from} decides alone.` }));
  return wrap;
}

function envelopeBody(s: SessionView, st: StepView): HTMLElement[] {
  const env = st.envelope!;
  const out: HTMLElement[] = [];
  if (st.step === 'cm_retro') {
    if (env.conversation.length) out.push(h('h3', { class: 'section-title', text: 'Conversation' }), renderConversation(env.conversation));
    if (!s.finished && env.kpt) out.push(h('h3', { class: 'section-title', text: 'Keep / Problem / Try' }), renderKpt(env.kpt));
    if (env.output !== null && env.output !== undefined) out.push(renderValue(env.output));
    return out;
  }
  if (st.step === 'cm_open') {
    const card = renderOpeningCard(env.output);
    out.push(card ?? renderValue(env.output));
    return out;
  }
  if (env.output !== null && env.output !== undefined) {
    // An output written as text (the CAPE paper's envelope) is markdown: rendered through the sanitising renderer.
    const rendered = typeof env.output === 'string' ? renderMarkdown(env.output) : renderValue(env.output);
    out.push(h('details', { class: 'output', attrs: { open: '' } }, h('summary', {}, h('span', { text: 'Output' })), h('div', { class: 'output-body' }, rendered)));
  }
  if (st.summary) out.push(h('div', { class: 'summary' }, h('h3', { class: 'section-title', text: 'Summary' }), renderMarkdown(st.summary)));
  const sa = renderSelfAssessment(env);
  if (sa) out.push(sa);
  return out;
}

function retroResults(s: SessionView): HTMLElement {
  const f = s.finished!;
  const wrap = h('div', { class: 'retro-results' }, h('h3', { class: 'section-title', text: 'Keep / Problem / Try' }), renderKpt(f.kpt));
  const questions = renderOpenQuestions(f.openQuestions);
  if (questions) wrap.append(h('h3', { class: 'section-title', text: 'Open questions' }), questions);
  wrap.append(h('h3', { class: 'section-title', text: 'Metrics' }), renderMetrics(f.metrics, s.steps));
  if (f.retrospectivePath) {
    wrap.append(h('p', { class: 'muted retro-path' }, h('span', { text: 'Saved to ' }), h('button', { class: 'link-button', text: f.retrospectivePath, attrs: { type: 'button' }, data: { action: 'openFile', path: f.retrospectivePath, focusKey: 'retro-path' } })));
  }
  return wrap;
}

function errorBox(s: SessionView, st: StepView, state: PanelViewState, readonly: boolean): HTMLElement {
  const e = st.error!;
  const box = h('div', { class: 'error-box', attrs: { role: 'alert' } }, h('div', { class: 'error-title' }, icon(e.kind === 'cancelled' ? 'debug-stop' : 'error'), ` ${errorTitle(e.kind)}`), h('p', { class: 'error-message', text: e.message }));
  if (!readonly) {
    const actions = h('div', { class: 'actions' }, button({ label: 'Retry', action: 'retry', icon: 'refresh', primary: true, data: { step: st.step }, disabled: state.busy, focusKey: `retry:${st.step}` }));
    if (s.taskId) actions.append(button({ label: 'Resume session', action: 'resume', icon: 'debug-restart', data: { taskId: s.taskId }, disabled: state.busy, focusKey: 'resume' }));
    box.append(actions);
  }
  return box;
}
