// CAPE: Resume Failed Session — a task id argument, or a quick pick of the failed sessions under
// cape/5_sessions/state (objective, failed step, error). The session continues from its failed step.
import * as vscode from 'vscode';
import { formatLocalMinute, lineWithin, SessionStore, type SessionSummary, STEP_IDS } from '../core';
import type { Services } from '../services';
import { stepLabel } from '../session/stepLabels';
import { registerCapeCommand, requireTrust, requireWorkspace } from './util';
import { showInformation } from '../notify';

interface SessionPick extends vscode.QuickPickItem {
  taskId: string;
}

function ago(ms: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 90) return 'just now';
  const m = Math.round(s / 60);
  if (m < 90) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 36) return `${h} h ago`;
  return formatLocalMinute(new Date(ms));
}

/**
 * The resumable sessions: failed ones, those waiting for answers to the Cape Master's questions, and "running" ones
 * that no live session owns (VS Code was closed).
 */
export async function resumableSessions(services: Services, root: string): Promise<SessionSummary[]> {
  const store = new SessionStore(root, services.settings().capeFolder);
  const all = await store.listSessions();
  return all.filter((s) => s.status === 'failed' || s.status === 'needs_answers' || (s.status === 'running' && !services.controller.running));
}

export function toPick(s: SessionSummary): SessionPick {
  const next = STEP_IDS.find((id) => !s.completedSteps.includes(id));
  const failedAt = s.error ? stepLabel(s.error.step) : stepLabel(next);
  if (s.status === 'needs_answers') {
    return {
      taskId: s.taskId,
      label: lineWithin(s.objective || s.taskId, 80),
      description: `${s.taskId} · ${ago(s.updatedAt)}`,
      detail: `$(question) waiting for your answers to the Cape Master's questions (shown in the chat panel)`,
    };
  }
  const why = s.error ? `${s.error.kind}: ${lineWithin(s.error.message, 160)}` : 'interrupted (VS Code closed during the session)';
  return {
    taskId: s.taskId,
    label: lineWithin(s.objective || s.taskId, 80),
    description: `${s.taskId} · ${ago(s.updatedAt)}`,
    detail: `$(error) ${failedAt} — ${why} · ${s.completedSteps.length}/${STEP_IDS.length} steps done`,
  };
}

export function register(services: Services): vscode.Disposable {
  return registerCapeCommand(services, 'cape.resumeSession', 'CAPE: Resume Failed Session', async (arg?: unknown) => {
    const root = requireWorkspace(services, 'resume a session');
    if (!root) return;
    if (!requireTrust('resume a session')) return;
    let taskId = typeof arg === 'string' && arg.trim() ? arg.trim() : undefined;
    if (!taskId) {
      const sessions = await resumableSessions(services, root);
      if (sessions.length === 0) {
        void showInformation('CAPE: there is no failed session to resume.', 'Start Session').then((c) => {
          if (c) void vscode.commands.executeCommand('cape.startSession');
        });
        return;
      }
      const pick = await vscode.window.showQuickPick(sessions.map(toPick), {
        title: 'CAPE: Resume Failed Session',
        placeHolder: 'Pick a session to continue from its failed step',
        matchOnDescription: true,
        matchOnDetail: true,
        ignoreFocusOut: true,
      });
      if (!pick) return;
      taskId = pick.taskId;
    }
    await services.controller.resume(taskId);
  });
}
