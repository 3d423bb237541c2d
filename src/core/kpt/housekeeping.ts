// KPT housekeeping (the paper's "KPT grows monotonically"): adopted and dropped Tries and resolved Problems older
// than N sessions move, line for line, from kpt_merged.md to kpt_archive.md next to it, under the KPT lock. Nothing
// is lost: the archive is written before kpt_merged.md, so a crash in between leaves an item in both, never in none.
import * as path from 'path';
import type { KptItem } from '../model/types';
import { writeFileAtomic } from '../files/fsAtomic';
import { applyKptEdits, type KptEdit } from './kpt';
import { parseKptDocument } from './document';
import { withFileLock } from '../files/lock';
import { listKptItemsWithMembers, readKptForWrite, type KptFileOptions, type KptListedItem } from './status';
import { ensureUnionMerge } from './gitattributes';

export const KPT_ARCHIVE_FILE = 'kpt_archive.md';
/** Default of `--older-than`: items of a session followed by at least this many later sessions. */
export const DEFAULT_HOUSEKEEPING_SESSIONS = 20;
const ARCHIVE_HEADER = '# Archived KPT — CAPE Sessions\n\n_Adopted and dropped Tries and resolved Problems that CAPE housekeeping moved out of kpt_merged.md._\n';

/**
 * Session order of a KPT history (the archive's items first, then kpt_merged.md's, in file order). The merge
 * appends each new session's items to each section, so every run of one kind's items (a section of one file) lists
 * its task ids in session order; those orders are merged (a session with no Keep is still placed between the ones
 * around it in its Problem or Try section). Where the runs do not decide, or contradict each other (hand-reordered
 * lines), the session seen first comes first. Returns each item's age: how many sessions come after its own. An
 * untagged item takes the session of the nearest tagged item above it in its section (none: the oldest).
 */
export function kptSessionAges(items: readonly KptItem[]): number[] {
  const rank = sessionRanks(items);
  const last = rank.size - 1;
  let above: number | null = null;
  let kind: KptItem['kind'] | null = null;
  return items.map((it) => {
    if (it.kind !== kind) {
      kind = it.kind;
      above = null;
    }
    const r = it.taskId ? rank.get(it.taskId)! : (above ?? 0);
    if (it.taskId) above = r;
    return last - r;
  });
}

/** Task id → its place in the session order (0 = oldest): the runs' orders merged, first appearance breaking ties. */
function sessionRanks(items: readonly KptItem[]): Map<string, number> {
  const first = new Map<string, number>(); // task id → first appearance
  const after = new Map<string, Set<string>>(); // task id → the sessions a run lists right after it
  const before = new Map<string, number>(); // task id → how many sessions a run lists right before it
  let prev: string | null = null;
  items.forEach((it, i) => {
    if (i > 0 && it.kind !== items[i - 1].kind) prev = null; // a new run
    if (!it.taskId) return;
    if (!first.has(it.taskId)) first.set(it.taskId, first.size);
    if (prev !== null && prev !== it.taskId && !after.get(prev)?.has(it.taskId)) {
      (after.get(prev) ?? after.set(prev, new Set()).get(prev)!).add(it.taskId);
      before.set(it.taskId, (before.get(it.taskId) ?? 0) + 1);
    }
    prev = it.taskId;
  });
  const rank = new Map<string, number>();
  const left = [...first.keys()]; // in order of first appearance
  while (left.length) {
    // the first-seen session nothing left must precede (none, when the runs contradict: the first-seen one)
    const k = Math.max(0, left.findIndex((t) => !before.get(t)));
    const [t] = left.splice(k, 1);
    rank.set(t, rank.size);
    for (const n of after.get(t) ?? []) before.set(n, (before.get(n) ?? 0) - 1);
  }
  return rank;
}

export interface HousekeepingPlan {
  merged: string;
  archive: string;
  moved: KptListedItem[];
  /** Closed items that stay because they are younger than the limit. */
  keptClosed: number;
  sessions: number;
}

/**
 * Moves closed items at least `olderThan` sessions old from `mergedText` to `archiveText` (an empty archive gets a
 * title): each item's lines (continuations included) are removed from kpt_merged.md as they are and added after the
 * last item of the archive's section of its kind. Every other line of both files stays.
 */
export function planHousekeeping(mergedText: string, archiveText: string, olderThan: number): HousekeepingPlan {
  const merged = parseKptDocument(mergedText);
  const archiveBase = archiveText.replace(/^\uFEFF/, '').trim() === '' ? ARCHIVE_HEADER : archiveText;
  const archive = parseKptDocument(archiveBase);
  const ages = kptSessionAges([...archive.items, ...merged.items]).slice(archive.items.length);
  const { listed, members } = listKptItemsWithMembers(merged.items);
  const sessions = new Set([...archive.items, ...merged.items].map((i) => i.taskId).filter(Boolean)).size;
  const remove: KptEdit[] = [];
  const add: Record<KptItem['kind'], string[]> = { keep: [], problem: [], try: [] };
  const moved: KptListedItem[] = [];
  let keptClosed = 0;
  listed.forEach((item, i) => {
    // a closed item moves with every line behind it (a union merge's unmarked twin included)
    if (item.kind === 'keep' || item.status === 'open') return;
    if (ages[members[i][0]] < olderThan) {
      keptClosed++;
      return;
    }
    for (const m of members[i]) {
      const it = merged.items[m];
      remove.push({ start: it.start, end: it.end, lines: [], order: 0 });
      add[it.kind].push(...merged.lines.slice(it.start, it.end));
    }
    moved.push(item);
  });
  if (!moved.length) return { merged: mergedText, archive: archiveText, moved, keptClosed, sessions };
  const join = (doc: typeof merged, lines: string[]): string => (doc.bom ? '\uFEFF' : '') + lines.join(doc.eol) + doc.eol;
  return {
    merged: join(merged, applyKptEdits(merged, remove, {})),
    archive: join(archive, applyKptEdits(archive, [], add)),
    moved,
    keptClosed,
    sessions,
  };
}

export interface HousekeepingResult extends Omit<HousekeepingPlan, 'merged' | 'archive'> {
  archivePath: string;
}

/**
 * Housekeeping of kpt_merged.md under the KPT lock: planHousekeeping, then the archive written first and
 * kpt_merged.md second (atomic writes). Nothing to move → nothing written.
 */
export async function housekeepKptFile(
  kptPath: string,
  opts: KptFileOptions & { olderThan?: number } = {},
): Promise<HousekeepingResult> {
  const olderThan = opts.olderThan ?? DEFAULT_HOUSEKEEPING_SESSIONS;
  if (!Number.isInteger(olderThan) || olderThan < 0) throw new Error(`The session limit must be a whole number ≥ 0 (got ${olderThan}).`);
  const archivePath = path.join(path.dirname(kptPath), KPT_ARCHIVE_FILE);
  return withFileLock(
    kptPath,
    async () => {
      const merged = await readKptForWrite(kptPath, opts.workspaceRoot);
      const archive = await readKptForWrite(archivePath, opts.workspaceRoot);
      const plan = planHousekeeping(merged.text, archive.text, olderThan);
      if (plan.moved.length) {
        await writeFileAtomic(archive.writePath, plan.archive);
        await writeFileAtomic(merged.writePath, plan.merged);
        if (opts.workspaceRoot) await ensureUnionMerge(opts.workspaceRoot, archivePath, opts.onWarning);
      }
      const { moved, keptClosed, sessions } = plan;
      return { moved, keptClosed, sessions, archivePath };
    },
    opts,
  );
}
