// KPT item statuses on disk: listing kpt_merged.md's items with their stable ids, status and recurrence, and setting
// a status (the `<!-- cape-kpt: … -->` marker on the item's line, see kpt.ts) under the KPT lock. The only writer of
// status markers: `cape kpt mark`, the KPT tree's context menu and the engine (Tries the CM opening adopts).
import { promises as fsp } from 'fs';
import * as path from 'path';
import type { KptItem, KptKind, KptStatus } from '../model/types';
import { fileReadError, writeFileAtomic, writePathThroughLink } from '../files/fsAtomic';
import { checkWorkspaceLocation } from '../files/pathSafety';
import { notTextReason } from '../files/text';
import { applyKptEdits, type KptEdit } from './kpt';
import { parseKptDocument, type KptDocItem } from './document';
import { KPT_STATUSES, collapseKptDuplicates, isOpenKpt, kptItemIds, kptStatusMarker, replaceStatusMarker } from './items';
import { ensureUnionMerge } from './gitattributes';
import { groupKpt } from './grouping';
import { withFileLock, type LockOptions } from '../files/lock';

/** One item as `cape kpt list --json` prints it. */
export interface KptListedItem {
  id: string;
  kind: KptKind;
  status: KptStatus;
  text: string;
  taskId: string | null;
  /** Distinct sessions of the item's recurrence group (groupKpt), 1 when it does not recur. */
  recurrence: number;
  /** The session that set the status, when one did. */
  statusBy?: string;
}

/**
 * Items with their ids, status (open when unmarked) and recurrence, in file order; exact repeats of a tagged line
 * (a union merge's two versions of one item) are one item (collapseKptDuplicates).
 */
export function listKptItems(items: readonly KptItem[]): KptListedItem[] {
  return listLogical(items).listed;
}

/** Items with their listing (ids, status, recurrence) and the input indexes behind each: for the tree and archive. */
export function listKptItemsWithMembers(items: readonly KptItem[]): { listed: KptListedItem[]; members: number[][] } {
  const { listed, members } = listLogical(items);
  return { listed, members };
}

/** listKptItems plus, for each listed item, the indexes of the input items behind it. */
function listLogical(all: readonly KptItem[]): { listed: KptListedItem[]; members: number[][]; items: KptItem[] } {
  const { items, members } = collapseKptDuplicates(all);
  const ids = kptItemIds(items);
  const recurrence = new Map<KptItem, number>();
  for (const g of groupKpt(items)) for (const it of g.items) recurrence.set(it, g.count);
  const listed = items.map((it, i) => ({
    id: ids[i],
    kind: it.kind,
    status: it.status ?? 'open',
    text: it.text,
    taskId: it.taskId,
    recurrence: recurrence.get(it) ?? 1,
    ...(it.statusBy ? { statusBy: it.statusBy } : {}),
  }));
  return { listed, members, items };
}

export class KptStatusError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KptStatusError';
  }
}

/** Why `status` cannot be given to an item of `kind`, or null. */
export function statusProblem(kind: KptKind, status: string): string | null {
  const allowed = KPT_STATUSES[kind];
  if ((allowed as readonly string[]).includes(status)) return null;
  if (kind === 'keep') return 'a Keep has no status: Keeps stay';
  return `a ${kind === 'try' ? 'Try' : 'Problem'} is ${allowed.join(' | ')} (got "${status}")`;
}

export interface KptMarkRequest {
  ids: readonly string[];
  status: KptStatus;
  /** The session that sets it (written into the marker). */
  by?: string;
  /**
   * Also set the other items of each id's recurrence group (the tree's group rows, Tries the CM adopts): open ones
   * when closing (another decision already taken stays), closed ones when reopening.
   */
  group?: boolean;
}

export interface KptMarkPlan {
  text: string;
  /** Items whose status changed, as listed before the change (with the new status). */
  changed: KptListedItem[];
  /** Requested ids that are not in the file. */
  unknown: string[];
  /** Requested ids whose kind does not take the status, with why. */
  refused: { id: string; reason: string }[];
}

/**
 * Sets statuses in the text of kpt_merged.md: only the marked items' first lines change (the marker is replaced,
 * added at the end of the line, or removed for open); every other byte stays. Unknown ids and statuses a kind does
 * not take are reported, not applied.
 */
export function planKptMark(markdown: string, req: KptMarkRequest): KptMarkPlan {
  const doc = parseKptDocument(markdown);
  const { listed, members, items } = listLogical(doc.items);
  const byId = new Map(listed.map((l, i) => [l.id, i] as const));
  const targets = new Set<number>();
  const unknown: string[] = [];
  const refused: { id: string; reason: string }[] = [];
  let groupOf: Map<number, number[]> | null = null;
  for (const id of req.ids) {
    const i = byId.get(id);
    if (i === undefined) {
      unknown.push(id);
      continue;
    }
    const why = statusProblem(listed[i].kind, req.status);
    if (why) {
      refused.push({ id, reason: why });
      continue;
    }
    targets.add(i);
    if (req.group) {
      groupOf ??= groupIndexes(items);
      for (const j of groupOf.get(i) ?? []) {
        const reopen = req.status === 'open';
        if (reopen ? !isOpenKpt(items[j]) : isOpenKpt(items[j])) targets.add(j);
      }
    }
  }
  const edits: KptEdit[] = [];
  const changed: KptListedItem[] = [];
  for (const i of [...targets].sort((a, b) => a - b)) {
    const lines = members[i].map((m) => doc.items[m]);
    // already there on every line (the first session to adopt it stays named)
    if (lines.every((it) => (it.status ?? 'open') === req.status)) continue;
    for (const it of lines) edits.push(markerEdit(doc.lines, it, req.status, req.by));
    const entry: KptListedItem = { ...listed[i], status: req.status };
    delete entry.statusBy;
    if (req.by && req.status !== 'open') entry.statusBy = req.by;
    changed.push(entry);
  }
  if (!edits.length) return { text: markdown, changed, unknown, refused };
  const out = applyKptEdits(doc, edits, {});
  return { text: (doc.bom ? '\uFEFF' : '') + out.join(doc.eol) + doc.eol, changed, unknown, refused };
}

/** Item index → indexes of the items of its recurrence group. */
function groupIndexes(items: KptItem[]): Map<number, number[]> {
  const at = new Map<KptItem, number>(items.map((it, i) => [it, i] as const));
  const out = new Map<number, number[]>();
  for (const g of groupKpt(items)) {
    const members = g.items.map((it) => at.get(it)!);
    for (const m of members) out.set(m, members);
  }
  return out;
}

/**
 * The edit that gives `it` the marker of `status`: its (last) marker replaced where it is — one wrapped across lines
 * too, and a line that held nothing else goes with it — else the marker added at the end of its first line.
 */
function markerEdit(lines: string[], it: KptDocItem, status: KptStatus, by?: string): KptEdit {
  const own = lines.slice(it.start, it.end);
  const marker = kptStatusMarker(status, by);
  const replaced = replaceStatusMarker(own.join('\n'), marker);
  if (replaced === null) own[0] = own[0].trimEnd() + marker;
  return { start: it.start, end: it.end, lines: replaced === null ? own : replaced.split('\n'), order: 0 };
}

export interface KptFileOptions extends LockOptions {
  /** The workspace the KPT files must stay in (symbolic links leading outside are refused). */
  workspaceRoot?: string;
}

/**
 * Reads a KPT file for a locked rewrite: '' when missing; refuses one outside the workspace or not text; any other
 * failure (a folder in its place) names the file (fileReadError).
 */
export async function readKptForWrite(filePath: string, workspaceRoot?: string): Promise<{ text: string; exists: boolean; writePath: string }> {
  let writePath = filePath;
  if (workspaceRoot) {
    const check = checkWorkspaceLocation(workspaceRoot, path.relative(workspaceRoot, filePath));
    if (!check.ok) throw new KptStatusError(`${filePath} was not changed: ${check.reason}.`);
    // a link inside the workspace (a team keeps the file in docs/): written through, not replaced
    writePath = await writePathThroughLink(filePath, check.realPath);
  }
  let bytes: Buffer;
  try {
    bytes = await fsp.readFile(filePath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { text: '', exists: false, writePath };
    throw fileReadError(filePath, err);
  }
  const notText = notTextReason(bytes);
  if (notText) throw new KptStatusError(`${filePath} was not changed: ${notText}. Fix or move the file, then retry.`);
  return { text: bytes.toString('utf8'), exists: true, writePath };
}

/**
 * Sets statuses in kpt_merged.md under the KPT lock (read → planKptMark → atomic write). Throws a KptStatusError
 * naming the problem when an id is unknown or a kind does not take the status (nothing is written then).
 */
export async function markKptFile(filePath: string, req: KptMarkRequest, opts: KptFileOptions & { lenient?: boolean } = {}): Promise<KptMarkPlan> {
  return withFileLock(
    filePath,
    async () => {
      const { text, writePath } = await readKptForWrite(filePath, opts.workspaceRoot);
      const plan = planKptMark(text, req);
      if (!opts.lenient) {
        const problems = [
          ...plan.unknown.map((id) => `no item has the id "${id}" (see \`cape kpt list\`)`),
          ...plan.refused.map((r) => `${r.id}: ${r.reason}`),
        ];
        if (problems.length) throw new KptStatusError(`Nothing was changed: ${problems.join('; ')}.`);
      }
      if (plan.text !== text) {
        await writeFileAtomic(writePath, plan.text);
        if (opts.workspaceRoot) await ensureUnionMerge(opts.workspaceRoot, filePath, opts.onWarning);
      }
      return plan;
    },
    opts,
  );
}

/** Item ids in free text (`t1a2b3c4d`, `[id t1a2b3c4d]`, `p…-2`), in order, without repeats. */
export function kptIdsIn(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const v of values) for (const m of String(v).matchAll(/\b[kpt][0-9a-f]{8}(?:-\d+)?\b/g)) if (!out.includes(m[0])) out.push(m[0]);
  return out;
}

/**
 * Records the Tries a session's CM opening adopts (`output.adopted_tries`, ids from the digest): each becomes
 * `adopted by <taskId>` with the open items of its recurrence group, under the KPT lock. Never fails the session:
 * ids that are not Tries of kpt_merged.md, and a file that cannot be written, are warnings. Returns the adopted ids.
 */
export async function recordAdoptedTries(
  kptPath: string,
  taskId: string,
  named: readonly string[] | undefined,
  opts: KptFileOptions & { onWarning?: (m: string) => void } = {},
): Promise<string[]> {
  const ids = kptIdsIn(named ?? []);
  const warn = (m: string): void => {
    try {
      opts.onWarning?.(m);
    } catch {
      /* a listener's bug must not break the session */
    }
  };
  if (named?.length && !ids.length) warn(`The Cape Master named adopted Tries without their ids (${named.join('; ')}); nothing was marked.`);
  if (!ids.length) return [];
  try {
    const plan = await markKptFile(kptPath, { ids, status: 'adopted', by: taskId, group: true }, { ...opts, lenient: true });
    const notTries = [...plan.unknown, ...plan.refused.map((r) => r.id)];
    if (notTries.length) warn(`The Cape Master adopted ${notTries.join(', ')}, which ${notTries.length === 1 ? 'is' : 'are'} not a Try of kpt_merged.md; ignored.`);
    return ids.filter((id) => !notTries.includes(id));
  } catch (err) {
    warn(`The Tries the Cape Master adopted (${ids.join(', ')}) were not recorded: ${(err as Error).message}`);
    return [];
  }
}
