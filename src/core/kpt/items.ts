// KPT items' identity and status in the kpt_merged.md format: the `<!-- cape-kpt: … -->` status marker on an item's
// line, the statuses each kind may take, stable ids (a hash of kind, task and text), and the collapse of the exact
// duplicates git's union merge leaves. Plain Node.
import * as crypto from 'crypto';
import type { KptItem, KptKind, KptStatus } from '../model/types';
import { oneLine } from '../text/cut';

/** Open (no status, or status open). */
export function isOpenKpt(it: Pick<KptItem, 'status'>): boolean {
  return !it.status || it.status === 'open';
}

/**
 * The statuses each kind can be set to (the first is the default). Keeps have no lifecycle: they stay.
 */
export const KPT_STATUSES: Record<KptKind, readonly KptStatus[]> = {
  keep: ['open'],
  problem: ['open', 'resolved'],
  try: ['open', 'adopted', 'dropped'],
};

/**
 * The status of an item is stored on its own line of kpt_merged.md as a trailing HTML comment:
 *   `- [task-id] text <!-- cape-kpt: adopted by task-42 -->`   (`by …` when a session set it)
 * Why there: the line still is `- [task-id] text` for the original CLI (a reader taking the rest of the line keeps
 * the comment with the item, so even a rewrite by the original keeps the status), rendered markdown hides it, a
 * line-based git merge (merge=union) moves it with its item, and nothing is added on other lines. An open item has
 * no marker, so a file that never used statuses is unchanged.
 */
// no leading \s* (the blanks before a marker go with oneLine or trimEnd): tried at every position of a long run of
// blanks, it made a 100 KB line of them take seconds
const STATUS_MARKER_RE = /<!--\s*cape-kpt:\s*(open|adopted|dropped|resolved)(?:\s+by\s+([^\s<>]+))?\s*-->/gi;

/** The trailing marker for a status ('' for open). */
export function kptStatusMarker(status: KptStatus | undefined, by?: string): string {
  if (!status || status === 'open') return '';
  return ` <!-- cape-kpt: ${status}${by ? ` by ${oneLine(by).replace(/[\s<>]+/g, '_')}` : ''} -->`;
}

/** Splits an item's text into the text proper and the status its (last) marker gives. */
export function splitStatus(text: string): { text: string; status?: KptStatus; by?: string } {
  let status: KptStatus | undefined;
  let by: string | undefined;
  STATUS_MARKER_RE.lastIndex = 0;
  const rest = text.replace(STATUS_MARKER_RE, (_m, st: string, who?: string) => {
    status = st.toLowerCase() as KptStatus;
    by = who;
    return ' ';
  });
  if (!status) return { text };
  return { text: oneLine(rest), ...(status !== 'open' ? { status, ...(by ? { by } : {}) } : {}) };
}

/** A line without its status marker(s). */
export function withoutStatusMarker(line: string): string {
  STATUS_MARKER_RE.lastIndex = 0;
  const out = line.replace(STATUS_MARKER_RE, '');
  if (out === line) return line;
  // removing one marker may join the text around it into another (`<!-- cape-kpt: <!-- cape-kpt: resolved --> resolved
  // -->`): what is left of comment delimiters goes too, so no text sets a status (status.ts alone does)
  return (/cape-kpt/i.test(out) ? out.replace(/<!--|-->/g, '') : out).trimEnd();
}

/**
 * `text` (an item's lines joined by newlines) with its last marker replaced by `marker` and the others removed, a
 * marker wrapped across lines included; null when it has none.
 */
export function replaceStatusMarker(text: string, marker: string): string | null {
  const all = [...text.matchAll(STATUS_MARKER_RE)];
  if (!all.length) return null;
  let out = '';
  let at = 0;
  all.forEach((m, k) => {
    // the white space before a marker goes with it, line breaks included (a marker wrapped onto a line of its own;
    // `marker` brings its own space)
    out += text.slice(at, m.index).trimEnd() + (k === all.length - 1 ? marker : '');
    at = m.index + m[0].length;
  });
  return out + text.slice(at);
}

/** A status decision (adopted, dropped, resolved) outranks open. */
function decided(it: Pick<KptItem, 'status'>): boolean {
  return !!it.status && it.status !== 'open';
}

/**
 * One logical item per tagged line repeated exactly (same kind, task id and text): git's union merge keeps both
 * versions of a line one branch marked and the other only moved past, so `- [t1] x <!-- … adopted -->` and
 * `- [t1] x` are the same item. Its status is the last decided one in file order (open when none is). Untagged
 * items are never collapsed. `members[i]` lists the input indexes behind `items[i]`, in file order.
 */
export function collapseKptDuplicates<T extends KptItem>(items: readonly T[]): { items: T[]; members: number[][] } {
  const at = new Map<string, number>();
  const out: T[] = [];
  const members: number[][] = [];
  items.forEach((it, i) => {
    const key = it.taskId === null ? null : `${it.kind}\u0000${it.taskId}\u0000${oneLine(it.text)}`;
    const j = key === null ? undefined : at.get(key);
    if (j === undefined) {
      if (key !== null) at.set(key, out.length);
      out.push(it);
      members.push([i]);
      return;
    }
    members[j].push(i);
    if (decided(it)) {
      const { statusBy: _old, ...rest } = out[j];
      out[j] = { ...rest, status: it.status, ...(it.statusBy ? { statusBy: it.statusBy } : {}) } as T;
    }
  });
  return { items: out, members };
}

/**
 * Stable ids of items, in the given order: the kind's letter plus 8 hex digits of SHA-256 over kind, task id and
 * text (without the status marker), so an id survives status changes, other items' edits and reordering. The n-th
 * exact duplicate (same kind, task and text — e.g. both sides of a union merge) gets `-n`.
 */
export function kptItemIds(items: readonly KptItem[]): string[] {
  const seen = new Map<string, number>();
  return items.map((it) => {
    const h = crypto.createHash('sha256').update(`${it.kind}\u0000${it.taskId ?? ''}\u0000${oneLine(it.text).normalize('NFC')}`).digest('hex');
    const base = `${it.kind[0]}${h.slice(0, 8)}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}-${n}`;
  });
}
