// CAPE: Open Retrospective — a quick pick of the saved retrospectives (newest first: date · objective · task id),
// or directly the file given as argument (a path, a vscode.Uri, or an object with `path`/`resourceUri`, e.g. a
// RetrospectiveInfo or a tree node) — the Retrospectives tree uses that.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { formatLocalMinute, lineWithin, SessionStore, type RetrospectiveInfo } from '../core';
import type { Services } from '../services';
import { registerCapeCommand, requireWorkspace } from './util';
import { showInformation } from '../notify';

export const COMMAND_ID = 'cape.openRetrospective';
export const OPEN_RETRO_TITLE = 'CAPE: Open Retrospective';

export function register(services: Services): vscode.Disposable {
  return registerCapeCommand(services, COMMAND_ID, 'CAPE: Open Retrospective failed', (arg) => openRetrospective(services, arg));
}

/** The file an argument names, or undefined when the argument names none. */
function argToUri(arg: unknown, root: string | undefined): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === 'string' && arg.trim()) {
    const p = arg.trim();
    if (/^[a-z][a-z0-9+.-]+:\/\//i.test(p)) return vscode.Uri.parse(p, true);
    if (path.isAbsolute(p)) return vscode.Uri.file(p);
    if (!root) throw new Error(`cannot open the relative path "${p}" without a workspace folder`);
    return vscode.Uri.file(path.resolve(root, p));
  }
  if (arg && typeof arg === 'object') {
    const o = arg as { resourceUri?: unknown; uri?: unknown; path?: unknown; fsPath?: unknown };
    for (const v of [o.resourceUri, o.uri, o.fsPath, o.path]) {
      const u = argToUri(v, root);
      if (u) return u;
    }
  }
  return undefined;
}

/** Opens the retrospective; resolves to its URI string, or undefined when nothing was opened. */
export async function openRetrospective(services: Services, arg?: unknown): Promise<string | undefined> {
  const root = services.workspaceRoot();
  let uri = argToUri(arg, root);
  if (!uri) {
    if (!requireWorkspace(services, 'list the retrospectives')) return undefined;
    const picked = await pickRetrospective(services, root!);
    if (!picked) return undefined;
    uri = vscode.Uri.file(picked.path);
  }
  if (!/\.md$/i.test(uri.path)) throw new Error(`${uri.fsPath || uri.toString()} is not a markdown retrospective (.md)`);
  if (uri.scheme === 'file' && !fs.existsSync(uri.fsPath)) {
    throw new Error(`the retrospective ${uri.fsPath} does not exist (it may have been moved or deleted); refresh the CAPE view`);
  }
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { preview: true });
  return uri.toString();
}

async function pickRetrospective(services: Services, root: string): Promise<RetrospectiveInfo | undefined> {
  const store = new SessionStore(root, services.settings().capeFolder);
  const list = await store.listRetrospectives(); // newest first
  if (list.length === 0) {
    void showInformation(`No retrospectives yet in ${store.relative(store.retrospectiveDir)}. They are saved at the end of each session.`, 'Start Session')
      .then((c) => {
        if (c === 'Start Session') void vscode.commands.executeCommand('cape.startSession');
      });
    return undefined;
  }
  const items = list.map((r) => ({
    label: `${formatLocalMinute(r.date)} · ${lineWithin(r.objective ?? '(no objective recorded)', 90)}`,
    description: r.taskId,
    detail: r.assAverage !== null ? `ASS average ${r.assAverage.toFixed(2)} · ${path.basename(r.path)}` : path.basename(r.path),
    info: r,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: OPEN_RETRO_TITLE,
    placeHolder: 'Choose a retrospective (newest first)',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return picked?.info;
}
