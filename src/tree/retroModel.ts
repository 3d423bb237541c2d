// The Retrospectives view's node model: one node per session, its retrospective or its state. No `vscode` import:
// src/tree/retrospectivesProvider.ts turns these plain objects into TreeItems.
import { formatLocalMinute, lineWithin, type RetrospectiveInfo, type SessionSummary } from '../core';
import { escapeMarkdown, MAX_DESCRIPTION_CHARS, MAX_TOOLTIP_TEXT_CHARS } from './text';

export type RetroNodeKind = 'retrospective' | 'failed' | 'interrupted' | 'running';

/** contextValue of nodes that offer the inline "Resume" action (see package.json view/item/context). */
export const RESUMABLE_CONTEXT = 'cape.resumableSession';

export interface RetroNode {
  kind: RetroNodeKind;
  id: string;
  taskId: string;
  /** `YYYY-MM-DD HH:MM` (local time). */
  label: string;
  /** Objective, truncated (the task id when the objective is unknown). */
  description: string;
  /** Markdown. */
  tooltip: string;
  /** Codicon id. */
  icon: string;
  contextValue: string;
  /** The retrospective markdown (absolute), for kind 'retrospective'. */
  path?: string;
  date: Date;
}

export interface RetroModelOptions {
  /** A session is running in this window: sessions in state 'running' are live, not interrupted. */
  sessionRunning?: boolean;
  maxDescriptionChars?: number;
}

function formatAss(x: number | null): string {
  return x === null || !Number.isFinite(x) ? 'not recorded' : `${(Math.round(x * 100) / 100).toFixed(2)} / 5`;
}

/**
 * One node per session, newest first: every retrospective file (ours or the original CLI's; one per task id, the
 * newest wins), plus the sessions from the state files that have no retrospective and did not complete — failed
 * (resumable), interrupted (state 'running' while nothing runs, e.g. VS Code was closed mid-session; resumable
 * too) or running. Completed sessions whose retrospective file was deleted are not listed.
 */
export function buildRetrospectiveNodes(
  retros: RetrospectiveInfo[],
  sessions: SessionSummary[],
  opts: RetroModelOptions = {},
): RetroNode[] {
  const maxDesc = opts.maxDescriptionChars ?? MAX_DESCRIPTION_CHARS;
  const nodes: RetroNode[] = [];
  const seen = new Set<string>();
  const newestFirst = [...retros].filter((r) => r && r.date instanceof Date && !isNaN(r.date.getTime()));
  newestFirst.sort((a, b) => b.date.getTime() - a.date.getTime());
  const sessionById = new Map(sessions.map((s) => [s.taskId, s] as const));
  for (const r of newestFirst) {
    if (seen.has(r.taskId)) continue;
    seen.add(r.taskId);
    const objective = (r.objective ?? sessionById.get(r.taskId)?.objective ?? '').trim();
    const tip = [
      `**Retrospective** · ${escapeMarkdown(r.taskId)}`,
      '',
      `**Objective:** ${objective ? escapeMarkdown(lineWithin(objective, MAX_TOOLTIP_TEXT_CHARS)) : '_not recorded_'}`,
      '',
      `**ASS average:** ${formatAss(r.assAverage)}`,
      ...(r.openQuestions !== undefined ? ['', `**Open questions for you:** ${r.openQuestions || 'none'}`] : []),
    ];
    // the questions left to decide, before the objective, so a narrow sidebar still shows them
    const asks = r.openQuestions ? `${r.openQuestions} open question${r.openQuestions === 1 ? '' : 's'} · ` : '';
    nodes.push({
      kind: 'retrospective',
      id: `retro/${r.taskId}`,
      taskId: r.taskId,
      label: formatLocalMinute(r.date),
      description: lineWithin(asks + (objective || r.taskId), maxDesc),
      tooltip: tip.join('\n'),
      icon: 'book',
      contextValue: 'cape.retrospective',
      path: r.path,
      date: r.date,
    });
  }
  for (const s of sessions) {
    if (!s || seen.has(s.taskId) || s.status === 'complete') continue;
    seen.add(s.taskId);
    const date = new Date(Number.isFinite(s.updatedAt) ? s.updatedAt : s.createdAt);
    if (isNaN(date.getTime())) continue;
    const live = s.status === 'running' && !!opts.sessionRunning;
    const kind: RetroNodeKind = s.status === 'failed' ? 'failed' : live ? 'running' : 'interrupted';
    const waiting = s.status === 'needs_answers';
    const objective = (s.objective ?? '').trim();
    const steps = s.completedSteps?.length ? s.completedSteps.join(', ') : 'none';
    const tip = [
      `**${kind === 'failed' ? 'Failed session' : kind === 'running' ? 'Running session' : waiting ? "Waiting for your answers to the Cape Master's questions" : 'Interrupted session'}** · ${escapeMarkdown(s.taskId)}`,
      '',
      `**Objective:** ${objective ? escapeMarkdown(lineWithin(objective, MAX_TOOLTIP_TEXT_CHARS)) : '_not recorded_'}`,
      '',
      `**Completed steps:** ${escapeMarkdown(steps)}`,
    ];
    if (s.error?.message) {
      const where = s.error.step ? ` at ${escapeMarkdown(s.error.step)}` : '';
      tip.push('', `**Error${where}:** ${escapeMarkdown(lineWithin(s.error.message, MAX_TOOLTIP_TEXT_CHARS))}`);
    }
    if (waiting) tip.push('', 'Use **Resume** to see the questions in the chat panel and answer them (or continue anyway).');
    else if (kind !== 'running') tip.push('', 'Use **Resume** to continue from the last completed step.');
    nodes.push({
      kind,
      id: `session/${s.taskId}`,
      taskId: s.taskId,
      label: formatLocalMinute(date),
      description: lineWithin(objective || s.taskId, maxDesc),
      tooltip: tip.join('\n'),
      icon: kind === 'failed' ? 'error' : kind === 'running' ? 'sync~spin' : waiting ? 'question' : 'debug-pause',
      contextValue: kind === 'running' ? 'cape.runningSession' : RESUMABLE_CONTEXT,
      date,
    });
  }
  return nodes.sort((a, b) => b.date.getTime() - a.date.getTime());
}
