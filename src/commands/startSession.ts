// CAPE: Start Session — the objective comes from the argument, else the active editor's selection (confirmed
// or edited in an input box), else an input box. Without a cape/ folder it offers "Initialize Project" first.
// Resolves when the session ends (tests and callers can await the command).
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { Services } from '../services';
import { registerCapeCommand, requireTrust, requireWorkspace } from './util';
import { objectiveProblem } from '../core';
import { showError, showWarning } from '../notify';

/** Longest objective taken from a selection (a whole file selected by mistake should not become the prompt). */
export const MAX_SELECTION_OBJECTIVE = 4000;

/** The objective passed to the command: a string, or `{ objective: string }`. */
export function objectiveFromArg(arg: unknown): string | undefined {
  if (typeof arg === 'string' && arg.trim()) return arg.trim();
  if (arg && typeof arg === 'object' && typeof (arg as { objective?: unknown }).objective === 'string') {
    const o = (arg as { objective: string }).objective.trim();
    if (o) return o;
  }
  return undefined;
}

function validate(value: string): string | undefined {
  if (!value.trim()) return 'Say what the team should work on (one or two sentences).';
  return objectiveProblem(value) ?? undefined;
}

async function askObjective(): Promise<string | undefined> {
  const editor = vscode.window.activeTextEditor;
  const selected = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection).trim() : '';
  const value = await vscode.window.showInputBox({
    title: 'CAPE: Start Session',
    prompt: selected ? 'Objective taken from your selection: confirm or edit it' : 'What should the team work on?',
    placeHolder: 'e.g. Add a dark mode toggle that remembers the choice',
    value: selected.slice(0, MAX_SELECTION_OBJECTIVE),
    ignoreFocusOut: true,
    validateInput: validate,
  });
  return value?.trim() || undefined;
}

/** True when cape/ exists, possibly after the user ran Initialize Project from the offer. */
async function ensureCapeFolder(services: Services, root: string): Promise<boolean> {
  const folder = services.settings().capeFolder;
  const dir = path.join(root, folder);
  if (fs.existsSync(dir)) return true;
  const init = 'Initialize Project';
  const choice = await showWarning(
    `This workspace has no ${folder}/ folder yet. CAPE needs it for the team's context (product, design, development) and the session records. Initialize the project first?`,
    init,
  );
  if (choice !== init) return false;
  await vscode.commands.executeCommand('cape.initProject');
  return fs.existsSync(dir);
}

export function register(services: Services): vscode.Disposable {
  return registerCapeCommand(services, 'cape.startSession', 'CAPE: Start Session', async (arg?: unknown) => {
    const root = requireWorkspace(services, 'start a session');
    if (!root) return;
    if (!requireTrust('start a session')) return;
    if (!(await ensureCapeFolder(services, root))) return;
    const objective = objectiveFromArg(arg) ?? (await askObjective());
    if (!objective) return;
    const problem = objectiveProblem(objective);
    if (problem) {
      void showError(`CAPE: ${problem}`);
      return;
    }
    await services.controller.start(objective);
  });
}
