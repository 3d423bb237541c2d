// Session metrics, computed in code from envelopes, usage and timings — never by the model — and their markdown
// tables. The ASS history of earlier sessions (ST's points) is read by history.ts.
// Plain Node: nothing in src/core may import 'vscode'.
import {
  COMPUTED_TEXT,
  JUDGED_TEXT,
  STEP_IDS,
  ZERO_USAGE,
  addUsage,
  beforeText,
  formatTsr,
  tsrCounts,
  type Envelope,
  type SessionMetrics,
  type StepId,
  type Usage,
  type WorkerAgent,
} from '../model/types';
import { costUsd as listPriceUsd } from '../llm/pricing';
import { testLabel, type TsrResult } from './tsr';
import { formatDuration } from '../model/dates';

export interface MetricsInput {
  envelopes: Partial<Record<StepId, Envelope>>;
  usage: Partial<Record<StepId, { usage: Usage; model: string }>>;
  /** Epoch ms when the session started. */
  startedAt: number;
  /** Epoch ms when the retrospective file was saved. */
  retroSavedAt: number;
  /** Per step: size of the full input available (chars) and of the context actually passed to the agent. */
  contextChars: Partial<Record<StepId, { input: number; passed: number }>>;
  /** ASS averages of earlier sessions, oldest first. */
  history?: number[];
  /** TSR, computed and judged, with the criteria (metrics/tsr.ts); absent: no criteria known. */
  tsr?: TsrResult;
  /** Price of one call (null: unknown); defaults to the one pricing table, llm/pricing.ts. */
  costUsd?: (model: string, usage: Usage) => number | null;
}

const WORKER_STEP: Record<WorkerAgent, StepId> = { POA: 'poa', DA: 'da', DevA: 'deva' };

/** A usable ASS score: a finite number in 1..5. Anything else (missing, NaN, 0, 99, "5") counts as not reported. */
function validScore(x: unknown): number | null {
  return typeof x === 'number' && Number.isFinite(x) && x >= 1 && x <= 5 ? x : null;
}

function mean(xs: number[]): number | null {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
}

/** Population variance (divide by n); null for no values. */
export function populationVariance(xs: number[]): number | null {
  const m = mean(xs);
  if (m === null) return null;
  return xs.reduce((a, x) => a + (x - m) * (x - m), 0) / xs.length;
}

/** Least-squares slope of ys over x = 0, 1, 2, …; null with fewer than 2 points. */
export function leastSquaresSlope(ys: number[]): number | null {
  const n = ys.length;
  if (n < 2) return null;
  const mx = (n - 1) / 2;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (i - mx) * (ys[i] - my);
    den += (i - mx) * (i - mx);
  }
  return num / den;
}

function cleanUsage(u: Usage | undefined): Usage {
  if (!u) return { ...ZERO_USAGE };
  const n = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) && x > 0 ? x : 0);
  return {
    inputTokens: n(u.inputTokens),
    outputTokens: n(u.outputTokens),
    cacheCreationInputTokens: n(u.cacheCreationInputTokens),
    cacheReadInputTokens: n(u.cacheReadInputTokens),
    ...(n(u.cacheCreation1hInputTokens) ? { cacheCreation1hInputTokens: n(u.cacheCreation1hInputTokens) } : {}),
  };
}

/** Computes every metric of a session (see SessionMetrics in model/metrics.ts for the definitions). */
export function computeMetrics(input: MetricsInput): SessionMetrics {
  const ass: Partial<Record<WorkerAgent, number | null>> = {};
  const scores: number[] = [];
  for (const agent of Object.keys(WORKER_STEP) as WorkerAgent[]) {
    const env = input.envelopes[WORKER_STEP[agent]];
    const score = validScore(env?.ass?.score);
    ass[agent] = score;
    if (score !== null) scores.push(score);
  }
  const assAverage = mean(scores);
  const history = (input.history ?? []).filter((x) => typeof x === 'number' && Number.isFinite(x));
  const trendPoints = assAverage === null ? history : [...history, assAverage];

  let xrf = 0;
  for (const step of STEP_IDS) {
    const refs = input.envelopes[step]?.references;
    if (Array.isArray(refs)) xrf += refs.filter((r) => typeof r === 'string' && r.trim() !== '').length;
  }
  const conversation = input.envelopes.cm_retro?.conversation;
  const ci = Array.isArray(conversation) ? conversation.filter((t) => t && typeof t.text === 'string' && t.text.trim() !== '').length : 0;

  const compressionRatio: Partial<Record<StepId, number>> = {};
  for (const step of STEP_IDS) {
    const c = input.contextChars[step];
    if (c && Number.isFinite(c.input) && Number.isFinite(c.passed) && c.passed > 0 && c.input >= 0) {
      compressionRatio[step] = c.input / c.passed;
    }
  }

  const price = input.costUsd ?? listPriceUsd;
  const perStep: SessionMetrics['perStep'] = {};
  let totalUsage: Usage = { ...ZERO_USAGE };
  // The total is unknown as soon as one step's cost is: a sum that silently leaves a step out would understate it.
  let totalCostUsd: number | null = 0;
  for (const step of STEP_IDS) {
    const u = input.usage[step];
    if (!u) continue;
    const usage = cleanUsage(u.usage);
    const raw = price(u.model ?? '', usage);
    const costUsd = raw === null || !Number.isFinite(raw) ? null : Math.max(0, raw);
    perStep[step] = { usage, costUsd };
    totalUsage = addUsage(totalUsage, usage);
    totalCostUsd = totalCostUsd === null || costUsd === null ? null : totalCostUsd + costUsd;
  }

  const elapsed = input.retroSavedAt - input.startedAt;
  const criteria = input.tsr?.criteria ?? [];
  const counted = tsrCounts(criteria);
  return {
    ass,
    assAverage,
    satisfactionVariance: populationVariance(scores),
    satisfactionTrend: leastSquaresSlope(trendPoints),
    crossReferenceFrequency: xrf,
    conversationIndex: ci,
    elapsedMs: Number.isFinite(elapsed) && elapsed > 0 ? elapsed : 0,
    compressionRatio,
    perStep,
    totalUsage,
    totalCostUsd,
    tsr: input.tsr?.tsr ?? null,
    tsrReview: counted.review,
    tsrNotRun: counted.notRun,
    tsrJudged: input.tsr?.tsrJudged ?? null,
    criteria,
  };
}

// ---------------------------------------------------------------------------------------------
// Markdown

function num(x: number | null | undefined, digits = 2): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(digits);
}

/** A cost cell: 4 decimals, or — for a model without a known price. */
function usd(cost: number | null): string {
  return cost === null ? '—' : cost.toFixed(4);
}

function tokens(u: Usage): number {
  return u.inputTokens + u.outputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens;
}

/** One cell of markdown: no pipes or line breaks. */
function cell(s: string): string {
  // a run of spaces with a line break in it is one space (each run tried once, from its start)
  return s.replace(/\|/g, '\\|').replace(/(?<!\s)\s+/g, (run) => (run.includes('\n') ? ' ' : run)).trim() || '—';
}

/** The acceptance criteria: DevA's named test, the checks' verdict, CM's judgement and reason (none: nothing). */
function criteriaTable(m: SessionMetrics): string[] {
  const list = m.criteria ?? [];
  if (!list.length) return [];
  // the fail-first column only when those runs happened
  const before = list.some((c) => c.before);
  return [
    `| Criterion | Test | Checks |${before ? ' Before the change |' : ''} Judged | Reason |`,
    `|---|---|---|${before ? '---|' : ''}---|---|`,
    ...list.map(
      (c) =>
        `| ${cell(`${c.id} ${c.text}`)} | ${cell(c.tests.map(testLabel).join('; '))} | ${c.computed ? COMPUTED_TEXT[c.computed] : '—'} |${before ? ` ${cell(beforeText(c))} |` : ''} ${c.judged ? JUDGED_TEXT[c.judged] : '—'} | ${cell(c.reason ?? '')} |`,
    ),
    '',
  ];
}

/** The metrics as markdown tables (summary, then tokens and cost per step), for the dated retrospective file. */
export function formatMetricsMarkdown(m: SessionMetrics): string {
  const assLine = (['POA', 'DA', 'DevA'] as WorkerAgent[]).map((a) => `${a} ${num(m.ass[a] ?? null, 1)}`).join(', ');
  const cr = STEP_IDS.filter((s) => m.compressionRatio[s] !== undefined)
    .map((s) => `${s} ${num(m.compressionRatio[s], 2)}`)
    .join(', ');
  const trend = m.satisfactionTrend === null ? '— (needs 2 sessions)' : (m.satisfactionTrend >= 0 ? '+' : '') + num(m.satisfactionTrend, 3);
  const lines = [
    '| Metric | Value | Meaning |',
    '|---|---|---|',
    `| ASS | ${assLine} | self-reported satisfaction 1–5 per agent |`,
    `| ASS average | ${num(m.assAverage, 2)} | target ≥ 4.0 |`,
    `| SV | ${num(m.satisfactionVariance, 3)} | variance of ASS across agents (should fall) |`,
    `| ST | ${trend} | slope of the ASS average across sessions (should be positive) |`,
    `| XRF | ${m.crossReferenceFrequency} | references across all replies |`,
    `| CI | ${m.conversationIndex} | retrospective dialogue turns |`,
    `| ETT | ${formatDuration(m.elapsedMs)} | session start → retrospective saved |`,
    `| CR | ${cr || '—'} | input size ÷ context passed, per step |`,
    `| TSR | ${formatTsr(m.tsr, m.criteria ?? [], 'computed')} | acceptance criteria whose named tests passed the checks, of those a test can prove (— when no check ran) |`,
    `| TSR (judged) | ${formatTsr(m.tsrJudged, m.criteria ?? [], 'judged')} | criteria the Cape Master judged met |`,
    '',
    ...criteriaTable(m),
    '| Step | Input | Output | Cache write | Cache read | Cost (USD) |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const step of STEP_IDS) {
    const s = m.perStep[step];
    if (!s) continue;
    const u = s.usage;
    lines.push(`| ${step} | ${u.inputTokens} | ${u.outputTokens} | ${u.cacheCreationInputTokens} | ${u.cacheReadInputTokens} | ${usd(s.costUsd)} |`);
  }
  const t = m.totalUsage;
  lines.push(
    `| **total** | ${t.inputTokens} | ${t.outputTokens} | ${t.cacheCreationInputTokens} | ${t.cacheReadInputTokens} | ${usd(m.totalCostUsd)} |`,
    '',
    `Total tokens: ${tokens(t)}.`,
  );
  return lines.join('\n');
}
