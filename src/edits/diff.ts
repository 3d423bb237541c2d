// The diff preview of one proposed file: both sides read-only, nothing written. For a modified file the left side
// is the file as it is on disk now; for a new file both sides are virtual (an empty original).
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ProposalEntry } from './proposals';
import type { ProposedContentProvider } from './proposedContent';

/** The URI of a workspace-relative path, in the workspace folder's own scheme when the root is that folder. */
export function workspaceFileUri(root: string, relPath: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.find((f) => path.resolve(f.uri.fsPath) === path.resolve(root));
  const base = folder?.uri ?? vscode.Uri.file(root);
  return vscode.Uri.joinPath(base, ...relPath.split('/'));
}

/** "styles.css: Current ↔ Proposed" (or "(new file)" on the left for files DevA creates). */
export function diffTitle(relPath: string, existsNow: boolean): string {
  const name = relPath.split('/').pop() || relPath;
  return `${name}: ${existsNow ? 'Current' : '(new file)'} ↔ Proposed`;
}

/**
 * Opens the diff of one proposal (in `viewColumn`: the panel passes a group beside it). Throws with a clear message for a refused entry (it has no safe location).
 * Returns the two URIs shown (left, right).
 */
export async function openProposedDiff(
  entry: ProposalEntry,
  root: string,
  generation: number,
  provider: ProposedContentProvider,
  viewColumn?: vscode.ViewColumn,
): Promise<{ left: vscode.Uri; right: vscode.Uri }> {
  const relPath = entry.file.relPath;
  if (entry.status === 'refused' || !relPath) {
    throw new Error(`${entry.key} was refused by the safety checks (${entry.reason ?? 'unsafe path'}), so there is nothing to preview.`);
  }
  const right = provider.set(relPath, 'proposed', generation, entry.file.content);
  const abs = path.join(root, ...relPath.split('/'));
  let existsNow = false;
  try {
    existsNow = fs.statSync(abs).isFile();
  } catch {
    existsNow = false;
  }
  const left = existsNow ? workspaceFileUri(root, relPath) : provider.set(relPath, 'original', generation, '');
  await vscode.commands.executeCommand('vscode.diff', left, right, diffTitle(relPath, existsNow), { preview: true, ...(viewColumn ? { viewColumn } : {}) });
  return { left, right };
}
