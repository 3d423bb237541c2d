// The KPT view's node model: sections, recurrence groups and their occurrences. No `vscode` import: src/tree/kptProvider.ts
// turns these plain objects into TreeItems, and test/unit/kptTree.test.ts checks them in Node.
//
// KPT recurrence: items of kpt_merged.md are grouped by groupKpt (src/core/kpt/grouping.ts), per kind, with the Dice
// coefficient over their features (character bigrams for Japanese, Chinese and Korean; content words otherwise,
// kptFeatures) and DEFAULT_GROUP_THRESHOLD = 0.35. Before comparing, normaliseKptText
// applies NFKC (full-width → half-width), drops the `[task-id]` tag and `【label】` markers, keeps only the core of
// the item (the text before the first dash separator `——`/`—`/` -- `/` - `, without parenthesised details), lower-
// cases it and removes every whitespace, punctuation and symbol character; when that core is shorter than 8
// characters the whole text is compared instead. Exact repeats after normalisation always join. A group's count
// is its number of distinct sessions (distinct task ids; an untagged item counts as a session of its own).
import {
  DEFAULT_GROUP_THRESHOLD,
  collapseKptDuplicates,
  isOpenKpt,
  kptItemIds,
  groupKpt,
  KPT_KINDS,
  lineWithin,
  normaliseKptText,
  oneLine,
  type KptGroup,
  type KptItem,
  type KptKind,
  type KptStatus,
} from '../core';
import { escapeMarkdown, fnv1a, MAX_LABEL_CHARS, MAX_TOOLTIP_OCCURRENCES, MAX_TOOLTIP_TEXT_CHARS } from './text';

export const KPT_SECTION: Record<KptKind, { label: string; icon: string }> = {
  keep: { label: 'Keep', icon: 'pass' },
  problem: { label: 'Problem', icon: 'warning' },
  try: { label: 'Try', icon: 'lightbulb' },
};

/** Icons of closed items (open ones keep their recurrence icon). */
export const KPT_STATUS_ICON: Record<Exclude<KptStatus, 'open'>, string> = {
  adopted: 'check',
  dropped: 'circle-slash',
  resolved: 'pass-filled',
};

/** What the KPT view shows: every group, or only open ones (Keeps always show). */
export type KptFilter = 'open' | 'all';

/** contextValue of a KPT row: `cape.kptItem.<kind>.<status>` (package.json's view/item/context menus match it). */
export function kptContextValue(kind: KptKind, status: KptStatus): string {
  return `cape.kptItem.${kind}.${status}`;
}

/** One occurrence of a recurring item: `[task-id] text`. */
export interface KptOccurrenceNode {
  type: 'occurrence';
  id: string;
  kind: KptKind;
  /** The item's stable id (as `cape kpt list` prints it). */
  itemId: string;
  status: KptStatus;
  taskId: string | null;
  /** Full text (one line). */
  text: string;
  label: string;
}

/** A recurrence group (one or more similar items). */
export interface KptGroupNode {
  type: 'group';
  id: string;
  kind: KptKind;
  /** Open while any of its items is; otherwise the status of its most recent item. */
  status: KptStatus;
  /** Representative text (the group's oldest item), one line, truncated. */
  label: string;
  /** "×N" when the item recurs in N ≥ 2 sessions, else ''. */
  description: string;
  /** Markdown: every full text with its task id. */
  tooltip: string;
  /** Distinct sessions (see KptGroup.count). */
  count: number;
  taskIds: string[];
  lastTaskId: string | null;
  /** Index of the most recent item in kpt_merged.md order (larger = more recent). */
  lastIndex: number;
  /** One per item, oldest first; shown as children when there are at least two. */
  occurrences: KptOccurrenceNode[];
}

/** Keep / Problem / Try. */
export interface KptSectionNode {
  type: 'section';
  id: string;
  kind: KptKind;
  label: string;
  icon: string;
  /** Number of groups. */
  description: string;
  groups: KptGroupNode[];
}

export type KptNode = KptSectionNode | KptGroupNode | KptOccurrenceNode;

export interface KptTreeModel {
  /** Always the three sections in Keep, Problem, Try order (empty when there are no items at all). */
  sections: KptSectionNode[];
  itemCount: number;
  groupCount: number;
  threshold: number;
}

export interface KptModelOptions {
  /** Dice threshold for groupKpt (default DEFAULT_GROUP_THRESHOLD). */
  threshold?: number;
  maxLabelChars?: number;
  /** 'open' hides closed Problem and Try groups (default 'all'). */
  filter?: KptFilter;
}

/** Sort order of groups: more sessions first, then the more recently seen, then file order (stable). */
export function compareGroups(a: Pick<KptGroupNode, 'count' | 'lastIndex'>, b: Pick<KptGroupNode, 'count' | 'lastIndex'>): number {
  return b.count - a.count || b.lastIndex - a.lastIndex;
}

function occurrenceLabel(it: KptItem, max: number): string {
  return lineWithin(it.taskId ? `[${it.taskId}] ${it.text}` : it.text, max);
}

/** Markdown tooltip of one occurrence (built when the row is shown, not for all items up front). */
export function occurrenceTooltip(o: KptOccurrenceNode): string {
  const who = o.taskId ? `session ${escapeMarkdown(o.taskId)}` : 'untagged item';
  return `**${KPT_SECTION[o.kind].label}** · ${who}\n\n${escapeMarkdown(lineWithin(o.text, MAX_TOOLTIP_TEXT_CHARS))}`;
}

function groupTooltip(g: KptGroup): string {
  const head =
    g.count >= 2
      ? `**${KPT_SECTION[g.kind].label}** · recurs in ${g.count} sessions`
      : `**${KPT_SECTION[g.kind].label}** · ${g.items.length === 1 ? 'one session' : `${g.items.length} items, one session`}`;
  const lines = [head, ''];
  const shown = g.items.slice(0, MAX_TOOLTIP_OCCURRENCES);
  for (const it of shown) {
    const tag = it.taskId ? `\\[${escapeMarkdown(it.taskId)}\\] ` : '';
    lines.push(`- ${tag}${escapeMarkdown(lineWithin(it.text, MAX_TOOLTIP_TEXT_CHARS))}`);
  }
  if (g.items.length > shown.length) lines.push('', `… and ${g.items.length - shown.length} more`);
  if (g.taskIds.length) {
    const ids = g.taskIds.slice(0, MAX_TOOLTIP_OCCURRENCES).map(escapeMarkdown).join(', ');
    const more = g.taskIds.length > MAX_TOOLTIP_OCCURRENCES ? `, … (${g.taskIds.length} in all)` : '';
    lines.push('', `Sessions: ${ids}${more}`);
  }
  return lines.join('\n');
}

/**
 * Builds the KPT view's node model from parsed kpt_merged.md items (file order = oldest first). Groups come from
 * groupKpt and are sorted by recurrence count (desc), then recency (desc). Node ids are stable across rebuilds of
 * the same content (derived from kind + normalised representative), so expansion state survives a refresh.
 */
export function buildKptModel(items: KptItem[], opts: KptModelOptions = {}): KptTreeModel {
  const threshold = opts.threshold ?? DEFAULT_GROUP_THRESHOLD;
  const max = opts.maxLabelChars ?? MAX_LABEL_CHARS;
  const valid = items.filter((it) => it && typeof it.text === 'string' && it.text.trim() !== '' && KPT_KINDS.includes(it.kind));
  // a union merge's repeated line is one item (as `cape kpt list` shows it), with the same ids
  const clean = collapseKptDuplicates(valid).items;
  if (clean.length === 0) return { sections: [], itemCount: 0, groupCount: 0, threshold };
  const itemIds = new Map(kptItemIds(clean).map((id, i) => [clean[i], id] as const));
  const groups = groupKpt(clean, { threshold });
  const usedIds = new Set<string>();
  const byKind: Record<KptKind, KptGroupNode[]> = { keep: [], problem: [], try: [] };
  for (const g of groups) {
    let id = `kpt/${g.kind}/${fnv1a(normaliseKptText(g.representative))}`;
    for (let n = 2; usedIds.has(id); n++) id = `kpt/${g.kind}/${fnv1a(normaliseKptText(g.representative))}~${n}`;
    usedIds.add(id);
    const status: KptStatus = g.items.some(isOpenKpt) ? 'open' : (g.items[g.items.length - 1].status ?? 'open');
    if (opts.filter === 'open' && status !== 'open') continue;
    byKind[g.kind].push({
      type: 'group',
      id,
      kind: g.kind,
      status,
      label: lineWithin(g.representative, max),
      description: g.count >= 2 ? `×${g.count}` : '',
      tooltip: groupTooltip(g),
      count: g.count,
      taskIds: g.taskIds,
      lastTaskId: g.lastTaskId,
      lastIndex: g.lastIndex,
      occurrences: g.items.map((it, i) => ({
        type: 'occurrence',
        id: `${id}/${i}`,
        kind: g.kind,
        itemId: itemIds.get(it)!,
        status: it.status ?? 'open',
        taskId: it.taskId,
        text: oneLine(it.text),
        label: occurrenceLabel(it, max),
      })),
    });
  }
  const sections = KPT_KINDS.map((kind): KptSectionNode => {
    const list = byKind[kind].sort(compareGroups);
    return {
      type: 'section',
      id: `kpt/${kind}`,
      kind,
      label: KPT_SECTION[kind].label,
      icon: KPT_SECTION[kind].icon,
      description: String(list.length),
      groups: list,
    };
  });
  return { sections, itemCount: clean.length, groupCount: groups.length, threshold };
}

/** Children of a KPT node (the root when `node` is undefined). Occurrences show only for groups of ≥ 2 items. */
/** The model's group or occurrence of this id. */
export function findKptNode(model: KptTreeModel | null, id: string): KptGroupNode | KptOccurrenceNode | undefined {
  for (const s of model?.sections ?? []) {
    for (const g of s.groups) {
      if (g.id === id) return g;
      const o = g.occurrences.find((x) => x.id === id);
      if (o) return o;
    }
  }
  return undefined;
}

/**
 * The row a KPT status command acts on, as the current model has it. VS Code hands the right-clicked row's element,
 * which may come from an earlier load (a refresh between the right-click and the menu pick), or nothing at all (from
 * the Command Palette, or when the row's handle went stale) — then the view's selection. Rows that carry no items
 * (sections, messages) give undefined.
 */
export function resolveKptNode(arg: unknown, selection: readonly unknown[], model: KptTreeModel | null): KptGroupNode | KptOccurrenceNode | undefined {
  const isItemRow = (x: unknown): x is KptGroupNode | KptOccurrenceNode => {
    const n = x as { type?: unknown; id?: unknown } | null;
    return !!n && typeof n === 'object' && (n.type === 'group' || n.type === 'occurrence') && typeof n.id === 'string';
  };
  const node = isItemRow(arg) ? arg : selection.find(isItemRow);
  return node ? (findKptNode(model, node.id) ?? node) : undefined;
}

export function kptChildren(model: KptTreeModel, node?: KptNode): KptNode[] {
  if (!node) return model.sections;
  if (node.type === 'section') return node.groups;
  if (node.type === 'group') return node.occurrences.length >= 2 ? node.occurrences : [];
  return [];
}
