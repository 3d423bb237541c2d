// The bounded KPT digest the Cape Master reads at the opening: recurring open Problems, open Tries with their ids,
// recently adopted Tries and recurring Keeps, their question ids qualified with their session (model/questionIds.ts).
// Plain Node: nothing in src/core may import 'vscode'.
import type { KptItem } from '../model/types';
import { collapseKptDuplicates, isOpenKpt, kptItemIds } from './items';
import { lineWithin, sliceWhole } from '../text/cut';
import { groupKpt, type KptGroup } from './grouping';
import { qualifyQuestionIds } from '../model/questionIds';

export interface KptDigestOptions {
  /** Hard cap on the digest length in characters (default KPT_DIGEST_CHARS). */
  maxChars?: number;
  /** Cap on the number of listed items over all sections (default 16). */
  maxItems?: number;
}

/**
 * An item's line at most. 180 cut a Rust trial's items (one sentence of 200–260 characters each, as the retrospective
 * writes them) mid-clause, and the next opening's CM had to guess how a recurring Problem ended; the digest's whole
 * grew with it, so as many items fit.
 */
const MAX_ITEM_CHARS = 260;
/** The digest's default cap: 16 items of MAX_ITEM_CHARS would pass it, so the sections' shares still decide. */
export const KPT_DIGEST_CHARS = 3500;

/** What the digest calls the session of an item without a `[task-id]` tag (a line written by hand). */
const UNTAGGED = 'untagged';

/** How many recently adopted Tries the digest lists at most. */
const RECENT_ADOPTED = 3;

/**
 * The bounded KPT digest for the CM opening — never the whole file. Sections, in order: open Problems (recurring
 * first: count ≥ 2, by count then recency, with session count and last task; a group counts as open while any of
 * its items is), open Tries (most recent first, one per group, each with the id of its latest open item so CM can
 * report adopting it), the most recently adopted Tries, and a few recurring Keeps. Resolved Problems and dropped
 * Tries are left out. Each section gets a share of the budget; unused budget flows to the next. The result is at
 * most `maxChars` characters whatever the history size. Empty history → ''.
 */
export function kptDigest(items: KptItem[], opts: KptDigestOptions = {}): string {
  const maxChars = Math.max(0, Math.floor(opts.maxChars ?? KPT_DIGEST_CHARS));
  const maxItems = Math.max(0, Math.floor(opts.maxItems ?? 16));
  if (items.length === 0 || maxChars === 0) return '';
  items = collapseKptDuplicates(items).items;
  const groups = groupKpt(items);
  const ids = kptItemIds(items);
  const idOf = new Map(items.map((it, i) => [it, ids[i]] as const));
  const openGroup = (g: KptGroup): boolean => g.items.some(isOpenKpt);
  const sessions = new Set(items.map((i) => i.taskId).filter((x): x is string => !!x));
  const lastTask = [...items].reverse().find((i) => i.taskId)?.taskId ?? null;

  // small budgets get shorter lines rather than fewer sections
  const itemChars = Math.max(40, Math.min(MAX_ITEM_CHARS, Math.floor(maxChars / 8)));
  const byRecency = (a: KptGroup, b: KptGroup): number => b.lastIndex - a.lastIndex;
  const problems = groups
    .filter((g) => g.kind === 'problem' && openGroup(g))
    .sort((a, b) => Number(b.count >= 2) - Number(a.count >= 2) || b.count - a.count || byRecency(a, b));
  const tries = groups.filter((g) => g.kind === 'try' && openGroup(g)).sort(byRecency);
  // adopted: the most recent adoptions (later in the file = later), one per group, groups still open excluded
  const adopted = groups
    .filter((g) => g.kind === 'try' && !openGroup(g) && g.items.some((i) => i.status === 'adopted'))
    .sort(byRecency)
    .slice(0, RECENT_ADOPTED);
  const keeps = groups
    .filter((g) => g.kind === 'keep' && g.count >= 2)
    .sort((a, b) => b.count - a.count || byRecency(a, b));

  const line = (g: KptGroup): string => {
    // the most recent wording is the most relevant one; an open Try names its latest open item's id. Its question ids
    // are that session's (`DA-Q1` in a file merged before they were qualified): qualified, this session has its own.
    const latest = g.items[g.items.length - 1];
    const text = lineWithin(qualifyQuestionIds(latest.text, latest.taskId ?? UNTAGGED), itemChars);
    const where = g.lastTaskId ? `, last ${g.lastTaskId}` : '';
    const openTry = g.kind === 'try' ? [...g.items].reverse().find(isOpenKpt) : undefined;
    const id = openTry ? `[id ${idOf.get(openTry)}] ` : '';
    const by = latest.status === 'adopted' && latest.statusBy ? ` adopted in ${latest.statusBy}` : '';
    return g.count >= 2 ? `- ${id}(${g.count} sessions${where}${by}) ${text}` : `- ${id}(1 session, ${g.lastTaskId ?? UNTAGGED}${by}) ${text}`;
  };
  const sections: { title: string; groups: KptGroup[]; share: number; limit: number }[] = [
    { title: 'Open Problems (recurring first):', groups: problems, share: 0.4, limit: Math.ceil(maxItems * 0.45) },
    { title: 'Open Tries (most recent first):', groups: tries, share: 0.32, limit: Math.ceil(maxItems * 0.3) },
    { title: 'Recently adopted Tries:', groups: adopted, share: 0.1, limit: Math.max(1, Math.floor(maxItems * 0.1)) },
    { title: 'Recurring Keeps:', groups: keeps, share: 0.18, limit: Math.max(1, Math.floor(maxItems * 0.15)) },
  ];
  const header = `KPT history: ${items.length} items from ${sessions.size} session${sessions.size === 1 ? '' : 's'}${lastTask ? ` (last: ${lastTask})` : ''}.`;
  const out: string[] = [];
  let used = 0;
  let itemsLeft = maxItems;
  const push = (s: string): boolean => {
    const cost = s.length + (out.length ? 1 : 0);
    if (used + cost > maxChars) return false;
    out.push(s);
    used += cost;
    return true;
  };
  if (!push(header)) return lineWithin(header, maxChars);
  let carry = 0;
  const body = maxChars - used;
  for (const sec of sections) {
    const budget = Math.floor(body * sec.share) + carry;
    const start = used;
    const chosen = sec.groups.slice(0, Math.min(sec.limit, itemsLeft));
    const firstCost = chosen.length ? sec.title.length + line(chosen[0]).length + 2 : Infinity;
    if (used + firstCost - start <= budget && used + firstCost <= maxChars && push(sec.title)) {
      for (const g of chosen) {
        const l = line(g);
        if (used + l.length + 1 - start > budget) break;
        if (!push(l)) break;
        itemsLeft--;
      }
    }
    carry = Math.max(0, budget - (used - start));
  }
  const text = out.join('\n');
  return sliceWhole(text, 0, maxChars);
}
