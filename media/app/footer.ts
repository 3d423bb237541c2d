// The footer: the next-objective box (prompt, textarea, Finish and Send) while the host asks for an objective.
// A re-render keeps what the user is typing and only refreshes the prompt.
import { button, h } from './dom';
import type { PanelViewState } from './viewState';

/** Shows, refreshes or hides the objective box in `footer`; a fresh box takes the focus. */
export function renderFooter(footer: HTMLElement, state: PanelViewState): void {
  if (!state.ask) {
    footer.hidden = true;
    footer.replaceChildren();
    return;
  }
  if (!footer.hidden && footer.querySelector('textarea')) {
    // Keep what the user is typing; only refresh the prompt.
    const label = footer.querySelector('.objective-prompt');
    if (label) label.textContent = state.ask.prompt || 'What should the team do next?';
    return;
  }
  footer.hidden = false;
  const ta = h('textarea', { class: 'objective-input', attrs: { id: 'cape-objective', rows: '3', placeholder: 'Describe the next objective… (leave empty to finish)' } });
  const form = h(
    'form',
    { class: 'objective-form', attrs: { 'aria-label': 'Next objective' } },
    h('label', { class: 'objective-prompt', text: state.ask.prompt || 'What should the team do next?', attrs: { for: 'cape-objective' } }),
    ta,
    h(
      'div',
      { class: 'objective-actions' },
      h('span', { class: 'hint muted', text: `${/Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl'}+Enter to send · empty to finish` }),
      button({ label: 'Finish', action: 'endLoop', icon: 'close', focusKey: 'end-loop', title: 'End the session loop' }),
      button({ label: 'Send', action: 'send', icon: 'send', primary: true, focusKey: 'send' }),
    ),
  );
  footer.replaceChildren(form);
  ta.focus();
}
