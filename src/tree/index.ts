// Registers the CAPE activity-bar views (Retrospectives, KPT), the cape.refreshTree command and the tree-only
// cape.resumeFromTree command, and keeps both views fresh: ./sessionsWatcher.ts (over the shared file watcher),
// services.onDidChangeSessions (CAPE wrote session files), and changes of the cape.capeFolder setting or of the
// workspace folders. Thin adapter: the node model is in ./model.ts (no vscode import, unit-tested).
import * as vscode from 'vscode';
import type { Services } from '../services';
import { KptTreeProvider } from './kptProvider';
import { registerKptCommands } from './kptCommands';
import { RetrospectivesTreeProvider } from './retrospectivesProvider';
import type { RetroElement } from './retrospectivesProvider';
import { sessionLayout, SessionsWatcher } from './sessionsWatcher';

export { KptTreeProvider } from './kptProvider';
export { RetrospectivesTreeProvider } from './retrospectivesProvider';

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
    return { root, capeFolder: services.settings().capeFolder };
  };
  const kpt = new KptTreeProvider(() => {
    const where = location();
    return (where && sessionLayout(where)?.kptPath) ?? undefined;
  }, log, () => location()?.root);
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
    watcher.arm(); // folders created since the last refresh get their watcher
    await Promise.all([kpt.refresh(), retrospectives.refresh()]);
    const m = kpt.current;
    kptView.description = m && m.itemCount ? `${m.itemCount} items · ${m.groupCount} groups` : undefined;
  };
  const watcher = new SessionsWatcher(location, () => refreshNow().catch((e: Error) => log(`CAPE views: refresh failed: ${e.message}`)), services.fileWatcher);
  disposables.push(watcher);
  const scheduleRefresh = (): void => watcher.schedule();

  disposables.push(
    services.onDidChangeSessions(() => scheduleRefresh()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('cape.capeFolder')) {
        watcher.rewatch();
        scheduleRefresh();
      }
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      watcher.rewatch();
      scheduleRefresh();
    }),
    vscode.commands.registerCommand('cape.refreshTree', () => refreshNow()),
    ...registerKptCommands(services, kpt, () => refreshNow(), () => kptView.selection),
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
      await watcher.whenIdle();
      await Promise.all([kpt.whenLoaded(), retrospectives.whenLoaded()]);
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      for (const d of disposables.reverse()) d.dispose();
      const s = services as ServicesWithTrees;
      if (s.trees === trees) delete s.trees;
    },
  };
  (services as ServicesWithTrees).trees = trees;
  void refreshNow().catch((e: Error) => log(`CAPE views: first load failed: ${e.message}`));
  return trees;
}
