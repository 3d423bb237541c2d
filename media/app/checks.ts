// DevA's checks inside its turn: each run (command, status, round, duration, the output collapsed), proposed files
// the copy could not take (not checked), each fix round and the outcome. An output the user opened stays open when the turn is rendered again (RenderMemory).
import { h, icon } from './dom';
import { formatDuration } from '../../src/core/model/dates';
import type { CheckItemView, StepView } from './viewState';
import { AS_BEFORE_BY, beforeFailureSaying, notCheckedSaying, notRunSaying, runStatusWord, takenBy, takenSaying } from '../../src/core/checks/verdict';

/** What the view remembers across re-renders that the state does not hold; owned by the view, passed down. */
export interface RenderMemory {
  /** Output sections the user opened stay open when their turn is rendered again (keys: round and command). */
  readonly openOutputs: Set<string>;
}

/** DevA's checks: each run (command, pass/fail, duration, the output collapsed), each fix round, the outcome. */
export function checksBlock(st: StepView, readonly: boolean, memory: RenderMemory): HTMLElement {
  const list = h('ol', { class: 'check-list', attrs: { 'aria-label': 'Checks on the proposal' } });
  for (const item of st.checks ?? []) {
    list.append(item.kind === 'run' ? checkRun(item, readonly, memory) : item.kind === 'fix' ? fixRound(item) : item.kind === 'formatted' ? formattedRow(item) : notWrittenRow(item));
  }
  const block = h('section', { class: 'checks' }, h('h3', { class: 'section-title', text: 'Checks on the proposal' }), list);
  const o = st.checksOutcome;
  if (o) {
    const unseen = o.passed && !!o.notChecked?.length;
    const text = unseen
      ? notCheckedSaying(o.notChecked!)
      : o.passed
      ? `Every check passes${o.fixRounds ? ` after ${o.fixRounds} fix round${o.fixRounds === 1 ? '' : 's'}` : ''}.`
      : o.notRun
        ? `${notRunSaying(o.notRun)} It is kept for your review.`
      : o.failsAsBefore
        ? `Fails only as your unchanged code does (${AS_BEFORE_BY}): not the proposal's doing, so DevA was not asked to fix it.`
        : `Still failing after ${o.fixRounds} fix round${o.fixRounds === 1 ? '' : 's'}${o.fixDeclined ? ' (DevA changed no file in its last one, holding the failure not its own, so it was not asked again)' : ''}: DevA's last proposal is kept for your review.`;
    const ok = o.passed && !unseen;
    block.append(h('p', { class: `check-outcome check-outcome-${ok ? 'passed' : 'failed'}`, attrs: { role: 'status' } }, icon(ok ? 'pass' : 'warning'), h('span', { text: ` ${text}` })));
  }
  return block;
}

function checkRun(r: Extract<CheckItemView, { kind: 'run' }>, readonly: boolean, memory: RenderMemory): HTMLElement {
  // a fail-first run: DevA's tests alone on the unchanged code, where a test of the change should fail (unless it
  // failed before it ran them); a baseline run: the unchanged code alone, to tell a failure that was already there
  // from one the proposal brings
  const exit = `exit ${r.exitCode ?? 'signal'}`;
  const beforeFailure = r.before ? beforeFailureSaying(r) : undefined;
  const how: Record<typeof r.status, string> = {
    running: 'running…',
    passed: r.before ? 'passed without the change too' : 'passed',
    failed: beforeFailure
      ? `${beforeFailure} · ${exit}`
      : `failed${r.baseline ? ' too' : ''} · ${exit}${r.before ? ', as a test of the change should' : ''}`,
    timeout: beforeFailure ?? runStatusWord('timeout'),
    cancelled: runStatusWord('cancelled'),
    error: runStatusWord('error'),
  };
  const glyph =
    r.status === 'running'
      ? icon('loading', 'codicon-modifier-spin')
      : icon(r.before ? 'beaker' : r.baseline ? 'history' : r.status === 'passed' ? 'pass' : r.status === 'cancelled' ? 'debug-stop' : 'error');
  const head = h(
    'div',
    { class: 'check-head' },
    glyph,
    h('code', { class: 'check-command', text: r.command }),
    h('span', { class: 'check-status', text: how[r.status] }),
    h('span', {
      class: 'chip check-round',
      text: r.before ? "before the change: DevA's tests only" : r.baseline ? 'your unchanged code' : r.round === 0 ? 'first run' : `after fix ${r.round}`,
      ...(r.before
        ? { attrs: { title: "Fail-first (cape.failFirst): the check ran on your unchanged files with only DevA's test files added" } }
        : r.baseline
          ? { attrs: { title: 'After its first failure the check ran on your unchanged files, nothing of DevA applied: a failure there too was already there' } }
          : {}),
    }),
  );
  if (r.durationMs !== null && r.status !== 'running') head.append(h('span', { class: 'muted check-duration', text: formatDuration(r.durationMs) }));
  const where = r.before ? 'before' : r.baseline ? 'baseline' : '';
  const row = h('li', { class: `check-run check-${r.status}${where ? ` check-${where}` : ''}`, data: { round: String(r.round), status: r.status, ...(where ? { on: where } : {}) } }, head);
  if (r.output) {
    const key = `${where}:${r.round}:${r.command}`;
    const details = h('details', { class: 'check-output' }, h('summary', {}, h('span', { text: 'Output' })), h('pre', { class: 'check-output-text', text: r.output }));
    if (!readonly && memory.openOutputs.has(key)) details.open = true;
    details.addEventListener('toggle', () => (details.open ? memory.openOutputs.add(key) : memory.openOutputs.delete(key)));
    row.append(details);
  }
  return row;
}

/**
 * The project's formatter laid out DevA's files (as on save), or a check fixed them as it ran: which, so the user knows
 * the diff shows its layout or its fixes.
 */
function formattedRow(f: Extract<CheckItemView, { kind: 'formatted' }>): HTMLElement {
  const by = takenBy(f);
  return h(
    'li',
    { class: 'check-formatted', data: { round: String(f.round) } },
    h('div', { class: 'check-head' }, icon('wand'), h('span', { text: ` ${takenSaying(f)}` })),
    h('div', { class: 'muted', text: `${by[0].toUpperCase()}${by.slice(1)}: the diff shows ${f.check ? 'its fixes, the text the checks ran on' : 'its layout'}.` }),
  );
}

/** Proposed files the scratch copy could not take: the checks of that round did not see them. */
function notWrittenRow(f: Extract<CheckItemView, { kind: 'not-written' }>): HTMLElement {
  const row = h(
    'li',
    { class: 'check-not-written', data: { round: String(f.round) } },
    h('div', { class: 'check-head' }, icon('warning'), h('span', { text: ' Not in the copy the checks ran on, so not checked:' })),
  );
  for (const line of f.files) row.append(h('div', { class: 'note' }, h('span', { text: line })));
  return row;
}

function fixRound(f: Extract<CheckItemView, { kind: 'fix' }>): HTMLElement {
  const row = h(
    'li',
    { class: 'check-fix', data: { round: String(f.round) } },
    h('div', { class: 'check-head' }, icon('sync'), h('span', { text: ` Fix round ${f.round} of ${f.max}: DevA fixes ${f.failing.join(', ')}` })),
  );
  if (f.files) row.append(h('div', { class: 'muted check-fix-files', text: f.files.length ? `Changed ${f.files.join(', ')}` : 'No file changed' }));
  for (const p of f.problems) row.append(h('div', { class: 'note' }, icon('warning'), h('span', { text: ` ${p}` })));
  return row;
}
