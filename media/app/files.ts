// The proposed files section after DevA's turn: one row per file (badge, reason, warning, Diff / Open, the
// Accept / Reject segmented control) and the section's actions (Accept all, Apply, Review Hunks, Discard) with the
// hint that fits the workspace trust and the decisions so far. Archived sessions show the rows without actions.
import type { FileView } from '../../src/panel/protocol';
import { button, h, icon } from './dom';
import type { PanelViewState, SessionView } from './viewState';

/** The section (hidden while there is no file), for the current session or an archived one (`readonly`). */
export function filesSection(s: SessionView, state: PanelViewState, readonly: boolean): HTMLElement {
  const section = h('section', { class: 'files', attrs: { 'aria-label': 'Proposed files' } });
  if (!s.files.length) {
    section.hidden = true;
    return section;
  }
  const trusted = state.capabilities?.trusted !== false;
  const accepted = s.files.filter((f) => f.status === 'accepted').length;
  const pending = s.files.filter((f) => f.status === 'proposed').length;
  section.append(
    h('h3', { class: 'section-title' }, icon('files'), ` Proposed files`, h('span', { class: 'count', text: String(s.files.length) })),
    h('ul', { class: 'file-list' }, ...s.files.map((f) => fileRow(f, readonly))),
  );
  if (readonly) return section;
  const actionable = s.files.some((f) => f.status === 'proposed' || f.status === 'accepted' || f.status === 'rejected');
  if (!actionable) return section;
  const actions = h('div', { class: 'actions files-actions' });
  if (pending) actions.append(button({ label: 'Accept all', action: 'acceptAll', icon: 'check-all', focusKey: 'accept-all' }));
  actions.append(
    button({
      label: accepted ? `Apply ${accepted} file${accepted === 1 ? '' : 's'}` : 'Apply',
      action: 'apply',
      icon: 'check',
      primary: true,
      disabled: !trusted || accepted === 0,
      title: !trusted ? 'Applying files is disabled in an untrusted workspace' : accepted === 0 ? 'Accept at least one file first' : 'Write the accepted files to the workspace',
      focusKey: 'apply',
    }),
    button({
      label: 'Review Hunks',
      action: 'reviewHunks',
      icon: 'list-selection',
      disabled: !trusted || accepted === 0,
      title: !trusted
        ? 'Applying files is disabled in an untrusted workspace'
        : accepted === 0
          ? 'Accept at least one file first'
          : "Pick single changes of the accepted files in VS Code's refactor preview (they open unticked)",
      focusKey: 'review-hunks',
    }),
    button({ label: 'Discard', action: 'discard', icon: 'trash', focusKey: 'discard', title: 'Drop all proposed files' }),
  );
  section.append(actions);
  if (!trusted) {
    section.append(h('p', { class: 'hint hint-warn', attrs: { role: 'note' } }, icon('shield'), h('span', { text: ' This workspace is not trusted, so CAPE will not write files to it. Trust the workspace (Manage Workspace Trust) to apply accepted files; you can still review the diffs.' })));
  } else if (accepted === 0) {
    section.append(h('p', { class: 'hint' }, icon('info'), h('span', { text: ' Accept the files you want, then Apply. Nothing is written before that.' })));
  } else {
    section.append(
      h('p', { class: 'hint hint-hunks' }, icon('info'), h('span', { text: " Review Hunks opens VS Code's refactor preview with every change of the accepted files unticked: tick the hunks to keep, then Apply there (one undo step)." })),
    );
  }
  return section;
}

function fileRow(f: FileView, readonly: boolean): HTMLElement {
  const badge =
    f.status === 'refused'
      ? h('span', { class: 'badge badge-refused', text: 'refused' })
      : f.action === 'create'
        ? h('span', { class: 'badge badge-new', text: 'new' })
        : h('span', { class: 'badge badge-modified', text: 'modified' });
  const row = h('li', { class: `file file-${f.status}`, data: { path: f.path, status: f.status } });
  const name = h('div', { class: 'file-name' }, icon(f.status === 'refused' ? 'circle-slash' : f.action === 'create' ? 'file-add' : 'file-code'), h('span', { class: 'file-path', text: f.path, attrs: { title: f.path } }), badge);
  if (f.status === 'applied') name.append(h('span', { class: 'badge badge-applied', text: 'applied' }));
  row.append(name);
  if (f.reason) row.append(h('div', { class: 'file-reason', text: f.reason }));
  if (f.warning) row.append(h('div', { class: 'file-warning', attrs: { role: 'note' } }, icon('warning'), h('span', { text: ` ${f.warning}` })));
  if (readonly) return row;
  const buttons = h('div', { class: 'file-actions' });
  if (f.status !== 'refused') buttons.append(button({ label: 'Diff', action: 'diff', icon: 'diff', data: { path: f.path }, focusKey: `diff:${f.path}`, title: `Compare ${f.path}` }));
  if (f.status === 'applied') buttons.append(button({ label: 'Open', action: 'openFile', icon: 'go-to-file', data: { path: f.path }, focusKey: `open:${f.path}` }));
  if (f.status === 'proposed' || f.status === 'accepted' || f.status === 'rejected') {
    const seg = h('div', { class: 'segmented', attrs: { role: 'group', 'aria-label': `Decision for ${f.path}` } });
    seg.append(
      button({ label: 'Accept', action: 'accept', icon: 'check', pressed: f.status === 'accepted', data: { path: f.path }, focusKey: `accept:${f.path}` }),
      button({ label: 'Reject', action: 'reject', icon: 'close', pressed: f.status === 'rejected', data: { path: f.path }, focusKey: `reject:${f.path}` }),
    );
    buttons.append(seg);
  }
  row.append(buttons);
  return row;
}
