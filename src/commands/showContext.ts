// CAPE: Show Context for Objective — what DevA would receive of the workspace for an objective, before anything is
// sent: the ranked files (whole, in excerpts, or as a map line) in a quick pick; picking one opens it (an excerpted
// file at its first excerpt). Same selection as `cape context` (core/workspace/pack.ts). Argument (tests, other
// commands): { objective, step?: 'deva' | 'da' }.
import * as path from 'path';
import * as vscode from 'vscode';
import { contextSummary, excerptLines, packedForm, packWorkspace, sliceWhole, type ContextStep, type WorkspaceContext } from '../core';
import type { Services } from '../services';
import { devBudget, workspaceIndex } from '../workspace/indexService';
import { registerCapeCommand, requireWorkspace } from './util';
import { showInformation } from '../notify';

export const COMMAND_ID = 'cape.showContext';
export const SHOW_CONTEXT_TITLE = 'CAPE: Show Context for Objective';

export interface ShowContextResult {
  context: Omit<WorkspaceContext, 'text'>;
  /** The workspace-relative path the user opened from the list, if any. */
  opened?: string;
}

export function register(services: Services): vscode.Disposable {
  return registerCapeCommand(services, COMMAND_ID, 'CAPE: Show Context failed', (arg) => showContext(services, arg));
}

function selectedText(): string {
  const e = vscode.window.activeTextEditor;
  return e && !e.selection.isEmpty ? e.document.getText(e.selection).trim() : '';
}

export async function showContext(services: Services, arg?: unknown): Promise<ShowContextResult | undefined> {
  const root = requireWorkspace(services, 'rank its files');
  if (!root) return undefined;
  const a = (arg && typeof arg === 'object' ? arg : {}) as { objective?: unknown; step?: unknown };
  const step: ContextStep = a.step === 'da' ? 'da' : 'deva';
  let objective = typeof a.objective === 'string' ? a.objective.trim() : '';
  if (!objective) {
    objective =
      (await vscode.window.showInputBox({
        title: SHOW_CONTEXT_TITLE,
        prompt: 'The objective a session would start with: the files DevA would receive are listed in rank order',
        value: sliceWhole(selectedText(), 0, 500),
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() ? undefined : 'Type what the session is about'),
      }))?.trim() ?? '';
    if (!objective) return undefined;
  }
  const index = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: 'CAPE: indexing the workspace' },
    () => workspaceIndex(services, root),
  );
  const ctx = packWorkspace(index, { objective }, {
    step,
    budget: step === 'deva' ? devBudget() : undefined,
  });
  const { text: _text, ...context } = ctx;
  const who = step === 'deva' ? 'DevA' : 'DA';
  if (!ctx.files.length) {
    void showInformation(`CAPE: ${who} would receive no workspace files for this objective (${index.size} files indexed).`);
    return { context };
  }
  const items = ctx.files.map((f, i) => ({
    label: `${i + 1}. ${f.path}`,
    description: `${f.excerpts ? `excerpts, ${excerptLines(f.excerpts)}` : packedForm(f)} · ${f.chars.toLocaleString('en-US')} chars`,
    path: f.path,
    line: f.excerpts?.[0].start,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: `${who} would receive ${ctx.totalChars.toLocaleString('en-US')} of ${ctx.budget.toLocaleString('en-US')} characters: ${contextSummary(ctx)}`,
    placeHolder: 'Pick a file to open it (nothing has been sent to a model)',
    matchOnDescription: true,
  });
  if (!picked) return { context };
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(root, ...picked.path.split('/'))));
  // an excerpted file opens at its first excerpt
  const at = picked.line ? new vscode.Position(picked.line - 1, 0) : undefined;
  await vscode.window.showTextDocument(doc, { preview: true, ...(at ? { selection: new vscode.Range(at, at) } : {}) });
  return { context, opened: picked.path };
}
