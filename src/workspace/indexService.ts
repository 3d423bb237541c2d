// The workspace index inside VS Code: one per workspace folder and cape folder, opened from the cache file on first
// use (core/workspace/workspaceIndex.ts) and then kept current through the shared file watcher (./fileWatcher.ts):
// changed paths are batched and re-read; a .gitignore or folder change re-walks. Sessions and "CAPE: Show Context
// for Objective" share it, so a session never rebuilds it. Setting `cape.context.devBudget` bounds DevA's workspace
// section.
import * as vscode from 'vscode';
import { DEFAULT_WORKSPACE_BUDGET, MIN_WORKSPACE_BUDGET, WorkspaceIndex } from '../core';
import type { Services } from '../services';

const DEBOUNCE_MS = 400;

let current: { key: string; index: Promise<WorkspaceIndex>; dispose: () => void } | null = null;
/** The extension contexts that dispose the current index on deactivation: one entry each, whatever replaced it. */
const disposedWith = new WeakSet<object>();

/** DevA's workspace budget in characters (`cape.context.devBudget`, default 60,000; at least the manifest's minimum). */
export function devBudget(): number {
  const v = vscode.workspace.getConfiguration('cape').get<number>('context.devBudget');
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.max(MIN_WORKSPACE_BUDGET, Math.floor(v)) : DEFAULT_WORKSPACE_BUDGET.deva;
}

/** The watched index of the open workspace folder. */
export function workspaceIndex(services: Services, root: string): Promise<WorkspaceIndex> {
  const capeFolder = services.settings().capeFolder;
  const key = `${root}\n${capeFolder}`;
  if (current?.key === key) return current.index;
  current?.dispose();
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const index = WorkspaceIndex.open(root, { capeFolder }).then((r) => r.index);
  const flush = () => {
    timer = undefined;
    const paths = [...pending];
    pending.clear();
    void index
      .then((i) => i.update(paths))
      .catch((err) => services.output.warn(`workspace index update failed: ${(err as Error).message}`));
  };
  const subscription = services.fileWatcher.subscribe(root, ({ rel }) => {
    if (rel === '.git' || rel.startsWith('.git/')) return;
    pending.add(rel);
    if (!timer) timer = setTimeout(flush, DEBOUNCE_MS);
  });
  const entry = {
    key,
    index,
    dispose: () => {
      if (timer) clearTimeout(timer);
      subscription.dispose();
      if (current === entry) current = null;
    },
  };
  current = entry;
  if (!disposedWith.has(services.context)) {
    // One entry for whichever index is current: an entry per index kept every replaced one in memory.
    disposedWith.add(services.context);
    services.context.subscriptions.push({ dispose: () => current?.dispose() });
  }
  index.catch(() => entry.dispose());
  return index;
}

/** The runSession options that give DA and DevA the watched index and the configured budget. */
export async function workspaceSessionOptions(services: Services, root: string): Promise<{ workspaceIndex?: WorkspaceIndex; workspaceBudget: number }> {
  try {
    return { workspaceIndex: await workspaceIndex(services, root), workspaceBudget: devBudget() };
  } catch (err) {
    services.output.warn(`the workspace could not be indexed: ${(err as Error).message}`);
    return { workspaceBudget: devBudget() };
  }
}
