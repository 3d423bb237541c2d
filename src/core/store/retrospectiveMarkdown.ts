// The dated retrospective file (retrospective/YYYY-MM-DD_HH-MM_<task>.md): frontmatter for tools, then the CM opening,
// the team's conversation, KPT, the open questions left for the human (and those a later role answered from the
// code), the computed metrics and DevA's files (paths and statuses, never bodies) for people. Model text is written
// as text only (text/controls.ts withoutControls, applied to the whole file): a reply's escape sequence would act on
// the terminal that shows the file (`cat`, `less -R`, a diff).

import type { CmOpeningOutput, Envelope, OpenQuestion, ProposedFile, SessionMetrics } from '../model/types';
import { formatLocalMinute } from '../model/dates';
import { oneLine } from '../text/cut';
import { formatMetricsMarkdown } from '../metrics/metrics';
import { writeFrontmatter } from '../cape/frontmatter';
import { withoutControls } from '../text/controls';
import { answeredBy, questionCounts } from '../model/questionState';

function str(x: unknown): string {
  return typeof x === 'string' ? x.trim() : '';
}

function strList(x: unknown): string[] {
  return Array.isArray(x) ? x.map(str).filter(Boolean) : [];
}

/** Multi-line model text inside a list item or paragraph: keep line breaks as markdown hard breaks. */
function para(s: string): string {
  return s.replace(/\r\n?/g, '\n').split('\n').map((l) => l.trim()).filter(Boolean).join('  \n');
}

function code(s: string): string {
  return '`' + s.replace(/`/g, 'ˋ').replace(/[\r\n]+/g, ' ') + '`';
}

function renderOpening(opening: Envelope | null | undefined): string[] {
  if (!opening) return [];
  const o = (opening.output && typeof opening.output === 'object' ? opening.output : {}) as Partial<CmOpeningOutput>;
  const lines = ['## CM opening', ''];
  const brief = str(o.session_brief);
  if (brief) lines.push(`**Brief:** ${para(brief)}`, '');
  if (o.dor_check && typeof o.dor_check === 'object') {
    const concerns = strList(o.dor_check.concerns);
    lines.push(`**Definition of Ready:** ${o.dor_check.passed === true ? 'met' : 'not met'}`);
    for (const c of concerns) lines.push(`- ${para(c)}`);
    lines.push('');
  }
  const watch = strList(o.watch_out);
  if (watch.length) {
    lines.push('**Watch out:**');
    for (const w of watch) lines.push(`- ${para(w)}`);
    lines.push('');
  }
  const followups = strList(o.kpt_followups);
  if (followups.length) {
    lines.push('**KPT follow-ups:**');
    for (const f of followups) lines.push(`- ${para(f)}`);
    lines.push('');
  }
  const adopted = strList(o.adopted_tries);
  if (adopted.length) lines.push(`**Tries adopted this session:** ${adopted.map(para).join(', ')}`, '');
  return lines;
}

/**
 * The roles' open questions: those still to decide first, then those a later role answered (with its answer and
 * where it saw it; in part: where it carried the open part). Nothing when no role asked any.
 */
function renderQuestions(questions: readonly OpenQuestion[]): string[] {
  if (!questions.length) return [];
  const open = questions.filter((q) => !q.answer);
  const answered = questions.filter((q) => q.answer);
  const counts = questionCounts(questions).filter(Boolean);
  const lines = ['## Open questions', '', `_${counts.join('; ')}._`, ''];
  for (const q of open) lines.push(`- ${q.id ? `**${q.id}** ` : ''}${oneLine(q.text)}`);
  for (const q of answered) {
    const a = q.answer!;
    const asked = q.id ? `**${q.id}** ${oneLine(q.text)}` : oneLine(q.text);
    lines.push(`- ${asked ? `${asked} — ` : ''}_${answeredBy(q)}:_ ${oneLine(a.text)}${a.evidence ? ` (${code(a.evidence)})` : ''}`);
  }
  lines.push('');
  return lines;
}

/**
 * The dated retrospective file's content (exported for tests and previews), without control sequences or characters
 * (withoutControls): the body's model text whole, and the objective before the frontmatter quotes it (YAML would keep
 * an ESC as `\e`, which a reader of the frontmatter turns back into one).
 */
export function renderRetrospective(
  taskId: string,
  rawObjective: string,
  envelope: Envelope,
  metrics: SessionMetrics,
  files: ProposedFile[],
  now: Date,
  opts: { opening?: Envelope | null; devaSummary?: string | null; repeatOf?: string; questions?: readonly OpenQuestion[] } = {},
): string {
  const objective = withoutControls(rawObjective);
  const lines: string[] = [
    writeFrontmatter({
      task_id: taskId,
      objective,
      date: now.toISOString(),
      ass_average: metrics.assAverage === null ? null : Math.round(metrics.assAverage * 1000) / 1000,
      // the questions still for the human to decide (the Retrospectives view shows the count)
      ...(opts.questions ? { open_questions: opts.questions.filter((q) => !q.answer).length } : {}),
      ...(opts.repeatOf ? { repeat_of: opts.repeatOf } : {}),
      format: 'cape-retrospective/1',
    }),
    `# Retrospective — ${taskId}`,
    '',
    `**Date:** ${formatLocalMinute(now)}  `,
    `**Objective:** ${para(objective) || '—'}`,
    '',
    ...renderOpening(opts.opening),
    '## Conversation',
    '',
  ];
  const turns = Array.isArray(envelope.conversation) ? envelope.conversation : [];
  if (turns.length === 0) lines.push('_No conversation was recorded._', '');
  for (const t of turns) {
    const text = para(str(t?.text));
    if (text) lines.push(`**${str(t?.speaker) || '?'}:** ${text}`, '');
  }
  const kpt = envelope.kpt ?? { keep: [], problem: [], try: [] };
  lines.push('## KPT', '');
  for (const [kind, title] of [['keep', 'Keep'], ['problem', 'Problem'], ['try', 'Try']] as const) {
    lines.push(`### ${title}`, '');
    const items = strList(kpt[kind]);
    if (items.length === 0) lines.push('_none_');
    for (const it of items) lines.push(`- ${oneLine(it)}`);
    lines.push('');
  }
  lines.push(...renderQuestions(opts.questions ?? []));
  lines.push('## Metrics (computed)', '', formatMetricsMarkdown(metrics), '');
  lines.push('## Files proposed by DevA', '');
  if (files.length === 0) lines.push('_none_');
  for (const f of files) {
    const where = f.relPath ?? f.path;
    const why = f.status === 'refused' && f.reason ? ` — ${f.reason.replace(/[\r\n]+/g, ' ')}` : '';
    lines.push(`- ${code(where)} — ${f.action}, ${f.status}${why}`);
  }
  lines.push('');
  const summary = str(opts.devaSummary);
  if (summary) lines.push('**DevA summary:** ' + para(summary), '');
  return withoutControls(lines.join('\n'));
}
