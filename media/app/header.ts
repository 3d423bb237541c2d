// The panel header (sticky): the title with the task id, the provider/model and Restricted chips, the session's
// cost chip, Stop, the five-step stepper (a started step links to its turn) and the status sentence read out by
// screen readers.
import { STEP_IDS } from '../../src/core/model/types';
import { button, formatUsd, h, icon, STEP_LABEL } from './dom';
import { isRunning } from './model';
import type { PanelViewState, StepView } from './viewState';

const STATUS_ICON: Record<StepView['status'], string> = {
  pending: 'circle-large-outline',
  running: 'loading',
  done: 'pass-filled',
  failed: 'error',
  skipped: 'circle-slash',
};

const STATUS_TEXT: Record<StepView['status'], string> = {
  pending: 'pending',
  running: 'running',
  done: 'done',
  failed: 'failed',
  skipped: 'skipped',
};


/** Renders the whole header into `header` (it is small: every header change re-renders it). */
export function renderHeader(header: HTMLElement, state: PanelViewState): void {
  const s = state.session;
  const running = isRunning(state);
  const title = h('div', { class: 'header-title' }, icon('organization'), h('span', { class: 'app-name', text: 'CAPE' }));
  if (s?.taskId) title.append(h('span', { class: 'task-id', text: s.taskId, attrs: { title: 'Task id' } }));
  const meta = h('div', { class: 'header-meta' });
  if (state.capabilities) {
    const cap = state.capabilities;
    meta.append(h('span', { class: 'chip', attrs: { title: `Provider: ${cap.provider}` } }, icon('sparkle'), ` ${cap.model || cap.provider}`));
    if (!cap.trusted) meta.append(h('span', { class: 'chip chip-warn', attrs: { title: 'Restricted mode: files cannot be applied' } }, icon('shield'), ' Restricted'));
  }
  if (s?.cost) meta.append(costChip(s.cost));
  meta.append(
    button({ label: 'Stop', action: 'stop', icon: 'debug-stop', disabled: !running, title: running ? 'Stop the running session' : 'Nothing is running', focusKey: 'stop' }),
  );
  const stepper = h('ol', { class: 'stepper', attrs: { 'aria-label': 'Session progress' } });
  STEP_IDS.forEach((id, i) => {
    const st: StepView['status'] = s ? s.steps[id].status : 'pending';
    const started = !!s && st !== 'pending' && st !== 'skipped';
    const inner = [h('span', { class: 'step-icon' }, icon(STATUS_ICON[st], st === 'running' ? 'codicon-modifier-spin' : '')), h('span', { class: 'step-name', text: STEP_LABEL[id] }), h('span', { class: 'sr-only', text: `: ${STATUS_TEXT[st]}` })];
    const item = started
      ? h('button', { class: 'step-link', attrs: { type: 'button', title: `${STEP_LABEL[id]} — ${STATUS_TEXT[st]}` }, data: { action: 'scrollTo', step: id, focusKey: `scroll:${id}` } }, ...inner)
      : h('span', { class: 'step-link', attrs: { title: `${STEP_LABEL[id]} — ${STATUS_TEXT[st]}` } }, ...inner);
    const li = h('li', { class: `step step-${st}`, data: { step: id, status: st } }, item);
    if (st === 'running') li.setAttribute('aria-current', 'step');
    if (i > 0) li.prepend(h('span', { class: 'step-connector', attrs: { 'aria-hidden': 'true' } }));
    stepper.append(li);
  });
  const status = h('div', { class: 'sr-only', attrs: { role: 'status', 'aria-live': 'polite' }, text: statusSentence(state) });
  header.replaceChildren(h('div', { class: 'header-row' }, title, meta), stepper, status);
}

/** The session's running cost (and cap), updated after every response. */
function costChip(c: { spentUsd: number | null; capUsd: number | null }): HTMLElement {
  const spent = c.spentUsd === null ? 'cost unknown' : formatUsd(c.spentUsd);
  const text = c.capUsd === null ? spent : `${spent} of ${formatUsd(c.capUsd)}`;
  const title =
    c.spentUsd === null
      ? 'A model without a known price answered: the cost of this session is unknown' + (c.capUsd === null ? '' : ', so its cap cannot be enforced')
      : `Spent by this session so far (list prices)${c.capUsd === null ? '' : `; cost cap ${formatUsd(c.capUsd)}`}`;
  return h('span', { class: 'chip chip-cost', data: { testid: 'session-cost' }, attrs: { title } }, icon('credit-card'), ` ${text}`);
}

function statusSentence(state: PanelViewState): string {
  const s = state.session;
  if (!s) return '';
  if (s.finished) return 'Session finished.';
  const failed = STEP_IDS.find((id) => s.steps[id].status === 'failed');
  if (failed) return `${STEP_LABEL[failed]} failed.`;
  const run = STEP_IDS.find((id) => s.steps[id].status === 'running');
  return run ? `${STEP_LABEL[run]} is running.` : '';
}
