// Registers the CAPE activity-bar views (Retrospectives, KPT), the cape.refreshTree command and the tree-only
// cape.resumeFromTree command, and keeps both views fresh: a debounced file watcher on
// `<capeFolder>/5_sessions/**`, services.onDidChangeSessions, and changes of the cape.capeFolder setting or of the
// workspace folders. Thin adapter: the node model is in ./model.ts (no vscode import, unit-tested).
import * as path from 'path';
import * as vscode from 'vscode';
import type { Services } from '../services';
import { DirWatch } from './dirWatch';
import { KptTreeProvider } from './kptProvider';
import { RetrospectivesTreeProvider } from './retrospectivesProvider';
import type { RetroElement } from './retrospectivesProvider';

export { KptTreeProvider } from './kptProvider';
export { RetrospectivesTreeProvider } from './retrospectivesProvider';

/** Watcher events are coalesced for this long before the views reload. */
export const REFRESH_DEBOUNCE_MS = 200;

/** What registerTrees returns (and also puts on `services.trees`, so tests reach the providers via the exports). */
export interface CapeTrees extends vscode.Disposable {
  readonly retrospectives: RetrospectivesTreeProvider;
  readonly kpt: KptTreeProvider;
  readonly retrospectivesView: vscode.TreeView<RetroElement>;
  /** Reloads both views now (no debounce); resolves when both are loaded. */
  refresh(): Promise<void>;
  /** Resolves when the loads requested so far (including a pending debounced one) are done. */
  whenIdle(): Promise<void>;
}

/** Services, with the trees attached by registerTrees (an addition local to src/tree; src/services.ts is unchanged). */
export type ServicesWithTrees = Services & { trees?: CapeTrees };

export function registerTrees(services: Services): CapeTrees {
  const log = (m: string): void => {
    try {
      services.output.warn(m);
    } catch {
      // output channel already disposed (deactivation): nothing to report to
    }
  };
  const location = (): { root: string; capeFolder: string } | undefined => {
    const root = services.workspaceRoot();
    if (!root) return undefined;
    return { root, capeFolder: services.settings().capeFolder || 'cape' };
  };
  const kpt = new KptTreeProvider(() => {
    const where = location();
    return where ? path.join(where.root, where.capeFolder, '5_sessions', 'retrospective', 'kpt_merged.md') : undefined;
  }, log);
  const retrospectives = new RetrospectivesTreeProvider(
    {
      location,
      sessionRunning: () => {
        try {
          return !!services.controller?.running;
        } catch {
          return false;
        }
      },
    },
    log,
  );

  const disposables: vscode.Disposable[] = [kpt, retrospectives];
  const retrospectivesView = vscode.window.createTreeView('cape.retrospectives', { treeDataProvider: retrospectives });
  const kptView = vscode.window.createTreeView('cape.kpt', { treeDataProvider: kpt, showCollapseAll: true });
  disposables.push(retrospectivesView, kptView);

  const refreshNow = async (): Promise<void> => {
    dirWatch.arm(); // folders created since the last refresh get their watcher
    await Promise.all([kpt.refresh(), retrospectives.refresh()]);
    const m = kpt.current;
    kptView.description = m && m.itemCount ? `${m.itemCount} items · ${m.groupCount} groups` : undefined;
  };

  let timer: NodeJS.Timeout | undefined;
  let pending: Promise<void> | null = null;
  let settle: (() => void) | null = null;
  /** Debounced refresh: bursts of file events (atomic writes, lock files) cause one reload. */
  const scheduleRefresh = (): void => {
    if (timer) clearTimeout(timer);
    if (!pending) pending = new Promise<void>((resolve) => (settle = resolve));
    timer = setTimeout(() => {
      timer = undefined;
      const done = settle;
      pending = null;
      settle = null;
      refreshNow()
        .catch((e: Error) => log(`CAPE views: refresh failed: ${e.message}`))
        .finally(() => done?.());
    }, REFRESH_DEBOUNCE_MS);
  };

  // --- file watchers, recreated when the folder or the workspace changes ------------------------------------------
  // 1. Node watchers on the chain root → cape → 5_sessions → retrospective | state (see dirWatch.ts for why); an
  //    event on a parent counts only when it concerns the next folder of the chain (a top-level file save in the
  //    workspace does not reload the views).
  let chain = new Map<string, string | null>(); // watched folder → the only entry name that matters (null: all)
  const dirWatch = new DirWatch((dir, name) => {
    const wanted = chain.get(dir);
    if (wanted === undefined || (wanted !== null && name !== null && name !== wanted)) return;
    scheduleRefresh();
  });
  disposables.push(dirWatch);
  const watchDirs = (): void => {
    const where = location();
    chain = new Map();
    if (where) {
      const cape = path.join(where.root, where.capeFolder);
      const sessions = path.join(cape, '5_sessions');
      chain.set(where.root, where.capeFolder);
      chain.set(cape, '5_sessions');
      chain.set(sessions, null); // retrospective/ or state/ appearing
      chain.set(path.join(sessions, 'retrospective'), null);
      chain.set(path.join(sessions, 'state'), null);
    }
    dirWatch.setDirs([...chain.keys()]);
  };
  // 2. the VS Code watcher on <capeFolder>/5_sessions/** (remote file systems, other platforms' semantics)
  let watcher: vscode.FileSystemWatcher | undefined;
  const onFsEvent = (uri: vscode.Uri): void => {
    const rel = uri.fsPath.split(path.sep).join('/');
    if (/\/5_sessions\/pair\//.test(rel)) return; // step records: neither view shows them
    scheduleRefresh();
  };
  const watch = (): void => {
    watchDirs();
    watcher?.dispose();
    watcher = undefined;
    const where = location();
    if (!where) return;
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.fsPath === where.root);
    const base = folder ?? vscode.Uri.file(where.root);
    watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(base, `${where.capeFolder}/5_sessions/**`));
    watcher.onDidCreate(onFsEvent);
    watcher.onDidChange(onFsEvent);
    watcher.onDidDelete(onFsEvent);
  };
  watch();

  disposables.push(
    services.onDidChangeSessions(() => scheduleRefresh()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('cape.capeFolder')) {
        watch();
        scheduleRefresh();
      }
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      watch();
      scheduleRefresh();
    }),
    vscode.commands.registerCommand('cape.refreshTree', () => refreshNow()),
    vscode.commands.registerCommand('cape.resumeFromTree', (node?: RetroElement | string) => {
      const taskId = typeof node === 'string' ? node : node && node.kind !== 'message' ? node.taskId : undefined;
      return vscode.commands.executeCommand('cape.resumeSession', taskId);
    }),
  );

  let disposed = false;
  const trees: CapeTrees = {
    retrospectives,
    kpt,
    retrospectivesView,
    refresh: refreshNow,
    async whenIdle() {
      if (pending) await pending;
      await Promise.all([kpt.whenLoaded(), retrospectives.whenLoaded()]);
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      if (timer) clearTimeout(timer);
      settle?.();
      watcher?.dispose();
      for (const d of disposables.reverse()) d.dispose();
      const s = services as ServicesWithTrees;
      if (s.trees === trees) delete s.trees;
    },
  };
  (services as ServicesWithTrees).trees = trees;
  void refreshNow().catch((e: Error) => log(`CAPE views: first load failed: ${e.message}`));
  return trees;
}
