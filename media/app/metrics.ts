// Renders the session's metrics at the retrospective: a summary table (ASS per agent, average, SV, ST, XRF, CI, ETT,
// TSR), the acceptance criteria with their checks, fail-first and judged verdicts, and the tokens and cost per step.
// Everything read from the metrics is coerced first (they come from the host, and from the model before that).
import { COMPUTED_TEXT, JUDGED_TEXT, STEP_IDS, beforeText, formatTsr, WORKER_AGENTS, isPlainObject as isObj, missingNamesOf, namedTestOf, testLabel, type MissingName, type SessionMetrics, type StepId, type Usage } from '../../src/core/model/types';
import { AGENT_NAME, formatInt, formatNum, formatUsd, h, STEP_LABEL } from './dom';
import { formatDuration } from '../../src/core/model/dates';
import type { StepView } from './viewState';
import { str } from './hostValues';

function usageCells(u: Usage | undefined | null, cost: number | null): HTMLElement[] {
  const td = (t: string) => h('td', { class: 'num', text: t });
  if (!u) return [td('—'), td('—'), td('—'), td('—'), td(cost === null ? '—' : formatUsd(cost))];
  return [td(formatInt(u.inputTokens)), td(formatInt(u.outputTokens)), td(formatInt(u.cacheCreationInputTokens)), td(formatInt(u.cacheReadInputTokens)), td(cost === null ? '—' : formatUsd(cost))];
}

/**
 * The computed metrics: a summary table (ASS per agent, average, SV, ST, XRF, CI, ETT) and a cost table
 * (tokens and cost per step and in total). `steps` supplies per-step usage when the metrics lack it.
 */
export function renderMetrics(m: SessionMetrics | null, steps: Record<StepId, StepView>): HTMLElement {
  const wrap = h('div', { class: 'metrics' });
  const criteria = criteriaOf(m?.criteria);
  const ass = isObj(m?.ass) ? (m!.ass as Record<string, unknown>) : {};
  const row = (label: string, abbr: string, value: string, hint: string) =>
    h('tr', {}, h('th', { attrs: { scope: 'row' } }, h('span', { text: label }), abbr ? h('abbr', { class: 'abbr', text: ` ${abbr}`, attrs: { title: hint } }) : null), h('td', { class: 'num', text: value }));
  const summary = h(
    'table',
    { class: 'table metrics-summary' },
    h('caption', { text: 'Session metrics' }),
    h(
      'tbody',
      {},
      ...WORKER_AGENTS.map((a) => {
        const v = typeof ass[a] === 'number' ? (ass[a] as number) : null;
        return row(`Satisfaction — ${AGENT_NAME[a]}`, 'ASS', v === null ? '—' : `${v} / 5`, 'Self-reported satisfaction, 1–5');
      }),
      row('Average satisfaction', '', m ? formatNum(m.assAverage) : '—', 'Target ≥ 4.0'),
      row('Satisfaction variance', 'SV', m ? formatNum(m.satisfactionVariance) : '—', 'Variance of the scores across agents (should fall)'),
      row('Satisfaction trend', 'ST', m ? formatNum(m.satisfactionTrend, 3) : '—', 'Slope of the average across sessions (needs 2 or more sessions)'),
      row('Cross-references', 'XRF', m && typeof m.crossReferenceFrequency === 'number' ? String(m.crossReferenceFrequency) : '—', 'Count of references between agents'),
      row('Conversation turns', 'CI', m && typeof m.conversationIndex === 'number' ? String(m.conversationIndex) : '—', 'Retrospective dialogue turns'),
      row('Elapsed time', 'ETT', m && typeof m.elapsedMs === 'number' ? formatDuration(m.elapsedMs) : '—', 'From session start to the retrospective being saved'),
      row('Task success — checks', 'TSR', formatTsr(m?.tsr, criteria, 'computed'), 'Acceptance criteria whose named tests passed the project\'s checks, of those a test can prove (— when no check ran)'),
      row('Task success — judged', 'TSR', formatTsr(m?.tsrJudged, criteria, 'judged'), 'Acceptance criteria the Cape Master judged met'),
    ),
  );
  wrap.append(summary);
  // The criteria table has five columns and long texts: it takes the whole width, below the two short tables.
  if (criteria.length) wrap.append(h('div', { class: 'table-scroll metrics-wide' }, criteriaTable(criteria)));

  const perStep = isObj(m?.perStep) ? (m!.perStep as Record<string, { usage?: Usage; costUsd?: number }>) : {};
  const cost = h(
    'table',
    { class: 'table metrics-cost' },
    h('caption', { text: 'Tokens and cost' }),
    h(
      'thead',
      {},
      h('tr', {}, ...['Step', 'Input', 'Output', 'Cache write', 'Cache read', 'Cost'].map((t, i) => h('th', { class: i ? 'num' : '', text: t, attrs: { scope: 'col' } }))),
    ),
    h(
      'tbody',
      {},
      ...STEP_IDS.map((id) => {
        const ps = perStep[id];
        const usage = ps?.usage ?? steps[id]?.usage ?? null;
        return h('tr', {}, h('th', { text: STEP_LABEL[id], attrs: { scope: 'row' } }), ...usageCells(usage, typeof ps?.costUsd === 'number' ? ps.costUsd : null));
      }),
    ),
    h('tfoot', {}, h('tr', {}, h('th', { text: 'Total', attrs: { scope: 'row' } }), ...usageCells(m?.totalUsage ?? null, typeof m?.totalCostUsd === 'number' ? m.totalCostUsd : null))),
  );
  wrap.append(h('div', { class: 'table-scroll' }, cost));
  return wrap;
}

/** The metrics' criteria, coerced (they come from the host, and from the model before that). */
function criteriaOf(x: unknown): CriterionView[] {
  if (!Array.isArray(x)) return [];
  return x.filter(isObj).map((c) => {
    // every test DevA named (`tests`); metrics saved before kept only the first (`test`)
    const named = (Array.isArray(c.tests) ? c.tests : [c.test]).map(namedTestOf).filter((t) => t !== null);
    const test = named.map(testLabel).join('; ');
    return { id: str(c.id), text: str(c.text), test, computed: str(c.computed), before: str(c.before), surprise: str(c.surprise), guard: c.guard === true, guardsRan: str(c.guardsRan), missing: missingNamesOf(c.missing), judged: str(c.judged), reason: str(c.reason) };
  });
}

interface CriterionView {
  id: string;
  text: string;
  test: string;
  computed: string;
  /** Fail-first: the tests on the unchanged code ('' when that did not run). */
  before: string;
  /** When that contradicts what DevA expected of its tests ('' when it does not). */
  surprise: string;
  /** Its tests are all regression guards: a pass there is what they are for (CriterionResult.guard). */
  guard: boolean;
  /** How the regression guards beside tests of the change that did not build fared there ('' when not told: CriterionResult.guardsRan). */
  guardsRan: string;
  /** The names its tests of the change failed there only for, missing ([] when not told: CriterionResult.missing). */
  missing: MissingName[];
  judged: string;
  reason: string;
}

/** A status in the words of `table` (model/types.ts, one wording with the retrospective file), — when unknown. */
function said(table: Readonly<Record<string, string>>, status: string): string {
  return Object.prototype.hasOwnProperty.call(table, status) ? table[status] : '—';
}

/**
 * Each acceptance criterion: DevA's named test, the checks' verdict, the fail-first verdict (a column only when those
 * runs happened), CM's judgement and its reason.
 */
function criteriaTable(list: CriterionView[]): HTMLElement {
  const before = list.some((c) => c.before);
  const heads = ['Criterion', 'Test', 'Checks', ...(before ? ['Before the change'] : []), 'Judged', 'Reason'];
  return h(
    'table',
    { class: 'table metrics-criteria' },
    h('caption', { text: 'Acceptance criteria' }),
    h('thead', {}, h('tr', {}, ...heads.map((t) => h('th', { text: t, attrs: { scope: 'col' } })))),
    h(
      'tbody',
      {},
      ...list.map((c) =>
        h(
          'tr',
          { data: { criterion: c.id } },
          h('th', { attrs: { scope: 'row', title: c.text } }, h('span', { text: c.id }), c.text ? h('span', { class: 'muted', text: ` ${c.text}` }) : null),
          h('td', { text: c.test || '—' }),
          h('td', { text: said(COMPUTED_TEXT, c.computed) }),
          before ? h('td', { class: 'criterion-before', text: beforeText(c) }) : null,
          h('td', { text: said(JUDGED_TEXT, c.judged) }),
          h('td', { text: c.reason || '—' }),
        ),
      ),
    ),
  );
}
