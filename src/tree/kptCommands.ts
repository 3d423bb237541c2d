// The KPT view's commands: set an item's status from its context menu (Adopted / Dropped / Resolved / Reopen), the
// open/all filter toggle in the view title (context key cape.kptFilter), and "CAPE: KPT Housekeeping". Thin adapter:
// the writes are core's (SessionStore.markKpt / housekeepKpt, under the KPT lock).
import * as vscode from 'vscode';
import { DEFAULT_HOUSEKEEPING_SESSIONS, SessionStore, type HousekeepingResult, type KptStatus } from '../core';
import type { Services } from '../services';
import { registerCapeCommand, requireTrust, requireWorkspace } from '../commands/util';
import type { KptTreeProvider, KptElement } from './kptProvider';
import { resolveKptNode, type KptFilter } from './kptModel';
import { showInformation } from '../notify';

/** Context key read by package.json's view/title `when` clauses. */
export const KPT_FILTER_CONTEXT = 'cape.kptFilter';

/**
 * The item ids a row stands for: an occurrence is its item; a group still open is its open items (another decision
 * on an older occurrence stays), a closed group is every item not already at the target status.
 */
export function idsToMark(node: KptElement, status: KptStatus): string[] {
  if (node.type === 'occurrence') return [node.itemId];
  if (node.type !== 'group') return [];
  const pick = node.status === 'open' ? node.occurrences.filter((o) => o.status === 'open') : node.occurrences.filter((o) => o.status !== status);
  return pick.map((o) => o.itemId);
}

export function registerKptCommands(
  services: Services,
  kpt: KptTreeProvider,
  refresh: () => Promise<void>,
  selection: () => readonly KptElement[] = () => [],
): vscode.Disposable[] {
  const store = (): SessionStore | undefined => {
    const root = requireWorkspace(services, 'change KPT items');
    return root ? new SessionStore(root, services.settings().capeFolder) : undefined;
  };
  const mark = (status: KptStatus) => async (arg?: unknown): Promise<string[] | undefined> => {
    const node = resolveKptNode(arg, selection(), kpt.current);
    if (!node) {
      void showInformation('Pick a KPT item in the CAPE KPT view first (right-click it, or select it and run the command).');
      return undefined;
    }
    if (!requireTrust('change KPT items')) return undefined;
    const s = store();
    const ids = idsToMark(node, status);
    if (!s || !ids.length) return undefined;
    const plan = await s.markKpt({ ids, status }, { onWarning: (w) => services.output.warn(w) });
    await refresh();
    return plan.changed.map((c) => c.id);
  };
  const setFilter = async (filter: KptFilter): Promise<void> => {
    kpt.setFilter(filter);
    await vscode.commands.executeCommand('setContext', KPT_FILTER_CONTEXT, filter);
  };
  void vscode.commands.executeCommand('setContext', KPT_FILTER_CONTEXT, kpt.filter);

  return [
    registerCapeCommand(services, 'cape.kptMarkAdopted', 'Could not mark the Try adopted', mark('adopted')),
    registerCapeCommand(services, 'cape.kptMarkDropped', 'Could not mark the Try dropped', mark('dropped')),
    registerCapeCommand(services, 'cape.kptMarkResolved', 'Could not mark the Problem resolved', mark('resolved')),
    registerCapeCommand(services, 'cape.kptReopen', 'Could not reopen the KPT item', mark('open')),
    registerCapeCommand(services, 'cape.kptShowOpen', 'Could not filter the KPT view', () => setFilter('open')),
    registerCapeCommand(services, 'cape.kptShowAll', 'Could not filter the KPT view', () => setFilter('all')),
    registerCapeCommand(services, 'cape.kptHousekeeping', 'KPT housekeeping failed', async (olderThanArg?: unknown) => {
      if (!requireTrust('archive KPT items')) return undefined;
      const s = store();
      if (!s) return undefined;
      let olderThan = typeof olderThanArg === 'number' ? olderThanArg : undefined;
      if (olderThan === undefined) {
        const answer = await vscode.window.showInputBox({
          title: 'CAPE: KPT Housekeeping',
          prompt: 'Move adopted and dropped Tries and resolved Problems older than this many sessions to kpt_archive.md',
          value: String(DEFAULT_HOUSEKEEPING_SESSIONS),
          validateInput: (v) => (/^\s*\d+\s*$/.test(v) ? undefined : 'A whole number of sessions (0 moves every closed item).'),
        });
        if (answer === undefined) return undefined;
        olderThan = Number(answer.trim());
      }
      const res: HousekeepingResult = await s.housekeepKpt(olderThan, { onWarning: (w) => services.output.warn(w) });
      await refresh();
      const msg = res.moved.length
        ? `Moved ${res.moved.length} closed KPT item(s) older than ${olderThan} sessions to kpt_archive.md.`
        : `Nothing to move: no adopted, dropped or resolved item is older than ${olderThan} sessions.`;
      void showInformation(msg, ...(res.moved.length ? ['Open Archive'] : [])).then((c) => {
        if (c === 'Open Archive') void vscode.window.showTextDocument(vscode.Uri.file(res.archivePath));
      });
      return res;
    }),
  ];
}
