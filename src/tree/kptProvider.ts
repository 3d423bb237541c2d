// The KPT view (`cape.kpt`): Keep / Problem / Try, each listing recurrence groups of kpt_merged.md (see model.ts for
// the grouping threshold and normalisation). The file is parsed and grouped once per change (cached by mtime, size
// and inode), when a refresh is requested — not while the user expands nodes, which is then instant.
import * as vscode from 'vscode';
import { LatestLoader } from './latestLoader';
import { promises as fsp } from 'fs';
import { formatBytes, parseKpt, readKptText, type KptItem } from '../core';
import { KPT_STATUS_ICON, buildKptModel, kptChildren, kptContextValue, occurrenceTooltip } from './kptModel';
import type { KptFilter, KptNode, KptTreeModel } from './kptModel';

/** An information or error row (e.g. the file could not be read). */
export interface KptMessageNode {
  type: 'message';
  id: string;
  label: string;
  tooltip: string;
  icon: string;
}

export type KptElement = KptNode | KptMessageNode;

/** kpt_merged.md files above this size are not parsed (the view says so instead). */
export const MAX_KPT_FILE_BYTES = 32 * 1024 * 1024;

export class KptTreeProvider extends LatestLoader<KptElement> implements vscode.TreeDataProvider<KptElement> {

  private model: KptTreeModel | null = null;
  /** The parsed items of the current file (the model is rebuilt from them when the filter changes). */
  private items: KptItem[] | null = null;
  private filterValue: KptFilter = 'all';
  private message: KptMessageNode | null = null;
  private cacheKey: string | null = null;
  private parents = new Map<string, KptElement>();

  /**
   * `kptPath()` returns the absolute kpt_merged.md path, or undefined without a workspace; `workspaceRoot()` the
   * workspace it must stay in (a kpt_merged.md that leads outside through a symbolic link is not read).
   */
  constructor(
    private readonly kptPath: () => string | undefined,
    private readonly log?: (message: string) => void,
    private readonly workspaceRoot?: () => string | undefined,
  ) {
    super();
  }

  /** The current model (null before the first load or without a file). */
  get current(): KptTreeModel | null {
    return this.model;
  }

  /** 'open' hides adopted / dropped Tries and resolved Problems (Keeps always show); 'all' shows everything. */
  get filter(): KptFilter {
    return this.filterValue;
  }

  /** Changes the filter: the model is rebuilt from the items already read (no file read) and the view updated. */
  setFilter(filter: KptFilter): void {
    if (filter === this.filterValue) return;
    this.filterValue = filter;
    if (this.items) this.publish(buildKptModel(this.items, { filter }));
    this.changed.fire();
  }


  protected async load(gen: number): Promise<boolean> {
    const file = this.kptPath();
    let model: KptTreeModel | null = null;
    let items: KptItem[] | null = null;
    let message: KptMessageNode | null = null;
    let key: string | null = null;
    try {
      if (!file) {
        key = 'no-workspace';
      } else {
        const st = await fsp.stat(file).catch((err: NodeJS.ErrnoException) => {
          if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return null;
          throw err;
        });
        key = st ? `${file}|${st.mtimeMs}|${st.size}|${st.ino}` : `${file}|missing`;
        if (key === this.cacheKey) return false; // unchanged: keep the model (and its expansion state)
        if (st && !st.isFile()) {
          message = msg('kpt/not-a-file', `${file} is not a file`, 'Remove or rename it; CAPE writes kpt_merged.md there.', 'error');
        } else if (st && st.size > MAX_KPT_FILE_BYTES) {
          message = msg('kpt/too-large', `kpt_merged.md is too large to show (${formatBytes(st.size)})`, `Limit: ${formatBytes(MAX_KPT_FILE_BYTES)}. Archive old items into another file to see the KPT here again.`, 'warning');
        } else if (st) {
          // the rules of the session's own read: inside the workspace, text only (core's readKptText)
          const read = await readKptText(file, this.workspaceRoot?.());
          if (read.warning) {
            message = msg('kpt/refused', 'kpt_merged.md was not read', read.warning, 'warning');
            this.log?.(`KPT view: ${read.warning}`);
          } else {
            items = parseKpt(read.text);
            model = buildKptModel(items, { filter: this.filterValue });
          }
        }
      }
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      message = msg('kpt/error', `Could not read kpt_merged.md: ${e.code ?? e.message}`, `${e.message}\n\nFix the file or its permissions, then run "CAPE: Refresh".`, 'error');
      key = null; // retry on the next refresh
      this.log?.(`KPT view: ${e.message}`);
    }
    if (!this.isLatest(gen)) return false; // a newer load superseded this one
    this.items = items;
    this.message = message;
    this.cacheKey = key;
    this.publish(model);
    return true;
  }

  private publish(model: KptTreeModel | null): void {
    this.model = model;
    this.parents = new Map();
    if (model) {
      for (const s of model.sections) {
        for (const g of s.groups) {
          this.parents.set(g.id, s);
          for (const o of g.occurrences) this.parents.set(o.id, g);
        }
      }
    }
  }

  getTreeItem(node: KptElement): vscode.TreeItem {
    switch (node.type) {
      case 'message': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
        item.id = node.id;
        item.tooltip = node.tooltip;
        item.iconPath = new vscode.ThemeIcon(node.icon);
        return item;
      }
      case 'section': {
        const item = new vscode.TreeItem(
          node.label,
          node.groups.length ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
        );
        item.id = node.id;
        item.description = node.description;
        item.tooltip = `${node.label}: ${node.groups.length} group${node.groups.length === 1 ? '' : 's'}, most recurring first`;
        item.iconPath = new vscode.ThemeIcon(node.icon);
        item.contextValue = `cape.kptSection.${node.kind}`;
        return item;
      }
      case 'group': {
        const item = new vscode.TreeItem(
          node.label,
          node.occurrences.length >= 2 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
        );
        item.id = node.id;
        item.description = node.description;
        item.tooltip = safeMarkdown(node.tooltip);
        item.contextValue = kptContextValue(node.kind, node.status);
        // Recurrence stays visible when a narrow sidebar cuts the "×N" description off: a history icon, tinted for
        // recurring Problems. A closed group shows its status instead.
        if (node.status !== 'open') {
          item.iconPath = new vscode.ThemeIcon(KPT_STATUS_ICON[node.status], new vscode.ThemeColor('disabledForeground'));
          item.description = [node.description, node.status].filter(Boolean).join(' · ');
        } else {
          item.iconPath =
            node.count >= 2
              ? new vscode.ThemeIcon('history', node.kind === 'problem' ? new vscode.ThemeColor('problemsWarningIcon.foreground') : undefined)
              : new vscode.ThemeIcon('circle-small');
        }
        return item;
      }
      case 'occurrence': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
        item.id = node.id;
        item.tooltip = safeMarkdown(occurrenceTooltip(node));
        item.contextValue = kptContextValue(node.kind, node.status);
        if (node.status !== 'open') {
          item.iconPath = new vscode.ThemeIcon(KPT_STATUS_ICON[node.status]);
          item.description = node.status;
        }
        return item;
      }
    }
  }

  async getChildren(node?: KptElement): Promise<KptElement[]> {
    if (!node) {
      await this.ready();
      if (this.message) return [this.message];
      return this.model ? kptChildren(this.model) : []; // [] → the viewsWelcome text
    }
    if (node.type === 'message') return [];
    return this.model ? kptChildren(this.model, node) : [];
  }

  getParent(node: KptElement): KptElement | undefined {
    return node.type === 'section' || node.type === 'message' ? undefined : this.parents.get(node.id);
  }

}

function msg(id: string, label: string, tooltip: string, icon: string): KptMessageNode {
  return { type: 'message', id, label, tooltip, icon };
}

/** Model text in a tooltip: untrusted markdown (no command links, no HTML). */
export function safeMarkdown(markdown: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(markdown, false);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}
