// While a session runs: the context key `cape.sessionRunning` (menus and keybindings) and a status bar item with
// the current step (click → the chat panel).
import * as vscode from 'vscode';
import type { StepId } from '../core';
import { stepLabel } from './stepLabels';

export const RUNNING_CONTEXT_KEY = 'cape.sessionRunning';

/** What the status bar shows of the current run. */
export interface RunProgress {
  readonly taskId: string | null;
  readonly step: StepId | null;
}

export class SessionStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor() {
    this.item = vscode.window.createStatusBarItem('cape.session', vscode.StatusBarAlignment.Left, 100);
    this.item.name = 'CAPE Session';
    this.item.command = 'cape.showPanel';
    void vscode.commands.executeCommand('setContext', RUNNING_CONTEXT_KEY, false);
  }

  /** A run started (shown with its progress) or ended (hidden). */
  setRunning(run: RunProgress | undefined): void {
    void vscode.commands.executeCommand('setContext', RUNNING_CONTEXT_KEY, !!run);
    if (run) {
      this.update(run);
      this.item.show();
    } else {
      this.item.hide();
    }
  }

  update(run: RunProgress): void {
    this.item.text = `$(sync~spin) CAPE: ${run.step ? stepLabel(run.step) : 'starting'}…`;
    this.item.tooltip = `CAPE session${run.taskId ? ` ${run.taskId}` : ''} is running. Click to show the chat panel.`;
  }

  dispose(): void {
    this.item.dispose();
    void vscode.commands.executeCommand('setContext', RUNNING_CONTEXT_KEY, false);
  }
}
