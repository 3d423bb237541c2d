// How a session ended, told to the user: the log line, and a notification with the next useful action (Show
// Panel, Resume, Set API Key, Initialize Project) — only where the chat panel does not already show it.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { type SessionResult } from '../core';
import { showError, showInformation, showWarning } from '../notify';

export interface OutcomeContext {
  root: string;
  capeFolder: string;
  output: vscode.LogOutputChannel;
  /** Whether the chat panel is visible (it shows the result itself then). */
  panelVisible: boolean;
  /** Proposed files still waiting for a decision or Apply. */
  pendingFiles: number;
  showPanel(): void;
  resume(taskId: string): void;
}

export function reportRunOutcome(result: SessionResult, ctx: OutcomeContext): void {
  const out = ctx.output;
  if (result.ok) {
    out.info(`session ${result.taskId} finished; retrospective ${result.retrospectivePath ?? '(none)'}; ${result.files.length} file(s) proposed`);
    if (!ctx.panelVisible) {
      const pending = ctx.pendingFiles;
      void showInformation(`CAPE session ${result.taskId} finished${pending ? `: ${pending} file(s) proposed for review` : ''}.`, 'Show Panel')
        .then((c) => {
          if (c) ctx.showPanel();
        });
    }
    return;
  }
  if (result.needsAnswers) {
    // Paused, not failed: the panel asks the Cape Master's questions (answer them there, or continue anyway).
    const n = result.needsAnswers.length;
    out.info(`session ${result.taskId} paused: the Cape Master asks ${n} blocking question${n === 1 ? '' : 's'} before the team starts`);
    if (!ctx.panelVisible) {
      void showInformation(`CAPE: the Cape Master has ${n === 1 ? 'a question' : `${n} questions`} before the team starts (session ${result.taskId}).`, 'Show Panel')
        .then((c) => {
          if (c) ctx.showPanel();
        });
    }
    return;
  }
  const error = result.error ?? { step: null, kind: 'unknown' as const, message: 'The session failed.' };
  out.error(`session ${result.taskId || '(not started)'} failed at ${error.step ?? 'setup'} (${error.kind}): ${error.message}`);
  const resumable = result.resumable;
  switch (error.kind) {
    case 'auth':
      void showError(`CAPE: ${error.message}`, 'Set API Key').then((c) => {
        if (c) void vscode.commands.executeCommand('cape.setApiKey');
      });
      return;
    case 'cancelled':
      void showInformation(`CAPE session cancelled. Completed steps are saved${resumable ? '; resume it any time' : ''}.`, ...(resumable ? ['Resume'] : []))
        .then((c) => {
          if (c && result.taskId) ctx.resume(result.taskId);
        });
      return;
    case 'config':
      if (!fs.existsSync(path.join(ctx.root, ctx.capeFolder))) {
        void showError(`CAPE: ${error.message}`, 'Initialize Project').then((c) => {
          if (c) void vscode.commands.executeCommand('cape.initProject');
        });
        return;
      }
      void showError(`CAPE: ${error.message}`);
      return;
    default:
      // The panel shows Retry / Resume on the failed step; a notification helps when the panel is hidden.
      if (!ctx.panelVisible || !resumable) {
        void showError(`CAPE: ${error.message}`, ...(resumable ? ['Resume', 'Show Panel'] : ['Show Panel']))
          .then((c) => {
            if (c === 'Resume' && result.taskId) ctx.resume(result.taskId);
            else if (c === 'Show Panel') ctx.showPanel();
          });
      }
  }
}

/** cape/ files that were skipped or are missing: logged, and one notification that opens the log. */
export function reportCapeWarnings(warnings: readonly string[], output: vscode.LogOutputChannel): void {
  for (const w of warnings) output.warn(w);
  const first = warnings[0];
  const more = warnings.length > 1 ? ` (and ${warnings.length - 1} more)` : '';
  void showWarning(`CAPE: ${first}${more}`, 'Show Log').then((c) => {
    if (c) output.show(true);
  });
}
