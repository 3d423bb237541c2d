// The Retrospectives view (`cape.retrospectives`): one row per session, newest first (see model.ts). A click opens
// the retrospective markdown through cape.openRetrospective; failed or interrupted sessions offer an inline
// "Resume" (cape.resumeFromTree → cape.resumeSession with the task id).
import * as vscode from 'vscode';
import { LatestLoader } from './latestLoader';
import { SessionStore, type RetrospectiveInfo, type SessionSummary } from '../core';
import { buildRetrospectiveNodes } from './retroModel';
import type { RetroNode } from './retroModel';
import { safeMarkdown } from './kptProvider';

export interface RetroMessageNode {
  kind: 'message';
  id: string;
  label: string;
  tooltip: string;
  icon: string;
}

export type RetroElement = RetroNode | RetroMessageNode;

export interface RetroSource {
  /** Workspace root and CAPE folder name, or undefined without a workspace. */
  location(): { root: string; capeFolder: string } | undefined;
  /** Whether a session is running in this window right now. */
  sessionRunning(): boolean;
}

export class RetrospectivesTreeProvider extends LatestLoader<RetroElement> implements vscode.TreeDataProvider<RetroElement> {

  private nodes: RetroElement[] = [];

  constructor(
    private readonly source: RetroSource,
    private readonly log?: (message: string) => void,
  ) {
    super();
  }

  /** The rows as last loaded. */
  get current(): readonly RetroElement[] {
    return this.nodes;
  }


  protected async load(gen: number): Promise<void> {
    let nodes: RetroElement[] = [];
    const where = this.source.location();
    if (where) {
      try {
        const store = new SessionStore(where.root, where.capeFolder);
        const [retros, sessions]: [RetrospectiveInfo[], SessionSummary[]] = await Promise.all([
          store.listRetrospectives(),
          store.listSessions(),
        ]);
        nodes = buildRetrospectiveNodes(retros, sessions, { sessionRunning: this.source.sessionRunning() });
      } catch (err) {
        const e = err as Error;
        this.log?.(`Retrospectives view: ${e.message}`);
        nodes = [
          {
            kind: 'message',
            id: 'retro/error',
            label: `Could not list the sessions: ${e.message}`,
            tooltip: `${e.message}\n\nCheck the "cape.capeFolder" setting and the folder's permissions, then run "CAPE: Refresh".`,
            icon: 'error',
          },
        ];
      }
    }
    if (!this.isLatest(gen)) return;
    this.nodes = nodes;
  }

  getTreeItem(node: RetroElement): vscode.TreeItem {
    const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
    item.id = node.id;
    if (node.kind === 'message') {
      item.tooltip = node.tooltip;
      item.iconPath = new vscode.ThemeIcon(node.icon);
      return item;
    }
    item.description = node.description;
    item.tooltip = safeMarkdown(node.tooltip);
    item.contextValue = node.contextValue;
    item.iconPath =
      node.kind === 'failed'
        ? new vscode.ThemeIcon(node.icon, new vscode.ThemeColor('problemsErrorIcon.foreground'))
        : new vscode.ThemeIcon(node.icon);
    if (node.kind === 'retrospective' && node.path) {
      item.command = {
        command: 'cape.openRetrospective',
        title: 'Open Retrospective',
        arguments: [vscode.Uri.file(node.path)],
      };
    }
    return item;
  }

  async getChildren(node?: RetroElement): Promise<RetroElement[]> {
    if (node) return [];
    await this.ready();
    return this.nodes; // [] → the viewsWelcome text
  }

  getParent(): undefined {
    return undefined;
  }

}
