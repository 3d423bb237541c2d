// The transcript's content for a full render: earlier sessions collapsed, then the current session (objective,
// error banner, one turn per started step, the files section right after DevA's turn), or the empty state.
import { STEP_IDS } from '../../src/core/model/types';
import type { RenderMemory } from './checks';
import { avatar, button, h, icon } from './dom';
import { filesSection } from './files';
import { renderMarkdown } from './markdown';
import type { PanelViewState, SessionView } from './viewState';
import { errorTitle, renderTurn } from './turn';

/** The children of the transcript <main> for a full render. */
export function transcriptContent(state: PanelViewState, memory: RenderMemory): HTMLElement[] {
  const children: HTMLElement[] = [];
  if (state.history.length) {
    const hist = h('div', { class: 'history' });
    for (const old of state.history) {
      const d = h('details', { class: 'history-item' }, h('summary', {}, icon('history'), h('span', { text: ` ${old.taskId}` }), h('span', { class: 'muted', text: old.objective ? ` — ${old.objective}` : '' })));
      d.append(sessionBody(old, state, true, memory));
      hist.append(d);
    }
    children.push(hist);
  }
  if (state.session) children.push(sessionBody(state.session, state, false, memory));
  else
    children.push(
      h('div', { class: 'empty' }, h('div', { class: 'empty-avatars' }, avatar('CM'), avatar('POA'), avatar('DA'), avatar('DevA')), h('p', { text: 'No session yet. Start a CAPE session and the team will work here: the Cape Master opens, the Product Owner, Designer and Developer each take a turn, and the retrospective closes.' })),
    );
  return children;
}

/** One session: objective, error banner, turns, files. `readonly` for the archived ones (no actions). */
function sessionBody(s: SessionView, state: PanelViewState, readonly: boolean, memory: RenderMemory): HTMLElement {
  const body = h('div', { class: 'session', data: { current: readonly ? undefined : 'true' } });
  if (s.objective) {
    body.append(h('div', { class: 'objective' }, h('div', { class: 'objective-label' }, icon('target'), ' Objective'), renderMarkdown(s.objective)));
  }
  if (s.error) {
    const banner = h('div', { class: 'error-box', attrs: { role: 'alert' } }, h('div', { class: 'error-title' }, icon('error'), ` ${errorTitle(s.error.kind)}`), h('p', { class: 'error-message', text: s.error.message }));
    if (!readonly && s.taskId) banner.append(h('div', { class: 'actions' }, button({ label: 'Resume', action: 'resume', icon: 'debug-restart', data: { taskId: s.taskId }, disabled: state.busy })));
    body.append(banner);
  }
  for (const id of STEP_IDS) {
    const t = renderTurn(s, s.steps[id], state, readonly, memory);
    if (t) body.append(t);
    if (id === 'deva') body.append(filesSection(s, state, readonly));
  }
  return body;
}
