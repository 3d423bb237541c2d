// KPT (Keep / Problem / Try): the kpt_merged.md format of the original CAPE CLI (read by document.ts, rendered here
// line for line) and the in-memory merge that never loses items. Item statuses and ids: items.ts; the locked file merge:
// mergeFile.ts (lock: ../files/lock.ts); grouping: grouping.ts; the Cape Master's digest: digest.ts.
// Plain Node: nothing in src/core may import 'vscode'.
import type { KptItem, KptKind, KptLists } from '../model/types';
import { formatLocalMinute } from '../model/dates';
import { kptStatusMarker, withoutStatusMarker } from './items';
import { parseKpt, parseKptDocument, type KptDocument } from './document';
import { withOneFinalNewline } from '../text/blanks';
import { oneLine } from '../text/cut';
import { withoutControls } from '../text/controls';
import { isPlaceholderItem } from '../text/placeholder';
import { qualifyQuestionIds } from '../model/questionIds';

export const KPT_KINDS: readonly KptKind[] = ['keep', 'problem', 'try'];
const SECTION_TITLE: Record<KptKind, string> = { keep: 'Keep', problem: 'Problem', try: 'Try' };
const DEFAULT_TITLE = '# Accumulated KPT — CAPE Sessions';

/** `_Last updated: YYYY-MM-DD HH:MM (task-id, N sessions)_`, N = distinct task ids (plus the last one). */
function updatedLine(items: KptItem[], updatedAt: Date, lastTaskId: string): string {
  const sessions = new Set<string>();
  for (const it of items) if (it.taskId) sessions.add(it.taskId);
  if (lastTaskId) sessions.add(lastTaskId);
  return `_Last updated: ${formatLocalMinute(updatedAt)} (${oneLine(lastTaskId)}, ${sessions.size} sessions)_`;
}

/**
 * Renders items in the original layout: title, `_Last updated: … (task-id, N sessions)_`, then `## Keep`,
 * `## Problem`, `## Try` with `- [task-id] text` items in the given order. N = distinct task ids (plus the last one).
 */
export function renderKpt(items: KptItem[], meta: { updatedAt: Date; lastTaskId: string }): string {
  const out: string[] = [DEFAULT_TITLE, '', updatedLine(items, meta.updatedAt, meta.lastTaskId), ''];
  for (const kind of KPT_KINDS) {
    out.push(`## ${SECTION_TITLE[kind]}`, '');
    const ofKind = items.filter((i) => i.kind === kind && oneLine(i.text) !== '');
    for (const it of ofKind) out.push(itemLine(it));
    if (ofKind.length) out.push('');
  }
  return withOneFinalNewline(out.join('\n'));
}

/**
 * The session's new items per kind: one line each, as text only (no escape sequence reaches the file, nor a terminal
 * that prints it: text/controls.ts), without empty entries, duplicates and placeholders ("なし", "N/A":
 * text/placeholder.ts). A status marker in the
 * text is the model's (or what it quoted), not a decision: it would set the item's status on the next read (a
 * Problem written "resolved" would leave the digest), so it is dropped: statuses are set by status.ts alone. The
 * roles' question ids in it are qualified with the task id (`add-login/DA-Q1`): the next session has a DA-Q1 of its own.
 */
function freshItems(taskId: string, lists: KptLists): Record<KptKind, KptItem[]> {
  const out = { keep: [], problem: [], try: [] } as Record<KptKind, KptItem[]>;
  for (const kind of KPT_KINDS) {
    const seen = new Set<string>();
    for (const raw of lists[kind] ?? []) {
      if (typeof raw !== 'string') continue;
      const text = qualifyQuestionIds(oneLine(withoutStatusMarker(withoutControls(raw))), taskId);
      if (!text || seen.has(text) || isPlaceholderItem(text)) continue;
      seen.add(text);
      out[kind].push({ kind, taskId, text });
    }
  }
  return out;
}

/** `- [task-id] text` plus the status marker of a non-open item. */
export function itemLine(it: KptItem): string {
  return `- ${it.taskId ? `[${oneLine(it.taskId)}] ` : ''}${oneLine(it.text)}${kptStatusMarker(it.status, it.statusBy)}`;
}

/**
 * Replaces the items of `taskId` with `lists`, keeping every other item. A task that already has items keeps
 * its position in each section (so re-merging the same task is idempotent); a new task is appended.
 */
export function mergeKptItems(existing: KptItem[], taskId: string, lists: KptLists): KptItem[] {
  const fresh = freshItems(taskId, lists);
  const result: KptItem[] = [];
  for (const kind of KPT_KINDS) {
    const ofKind = existing.filter((i) => i.kind === kind);
    const at = ofKind.findIndex((i) => i.taskId === taskId);
    const others = ofKind.filter((i) => i.taskId !== taskId);
    const insertAt = at < 0 ? others.length : ofKind.slice(0, at).filter((i) => i.taskId !== taskId).length;
    result.push(...others.slice(0, insertAt), ...fresh[kind], ...others.slice(insertAt));
  }
  return result;
}

/**
 * Merges one session's KPT into the text of kpt_merged.md, changing only what it owns: this task's item lines are
 * replaced by `lists` (in place, so re-merging is idempotent), new items go after the last item of the first
 * section of their kind (a missing section is added at the end), and the `_Last updated: …_` line is refreshed.
 * Every other line — intro, comments, tables, code, conflict markers, unknown sections, other tasks' items with
 * their continuation lines — stays byte for byte where it was (line endings and a BOM are kept). An empty text
 * gets the original layout (renderKpt).
 */
export function mergeKptText(existing: string, taskId: string, lists: KptLists, meta: { updatedAt: Date }): string {
  const fresh = freshItems(taskId, lists);
  if (existing.replace(/^\uFEFF/, '').trim() === '') {
    return renderKpt([...fresh.keep, ...fresh.problem, ...fresh.try], { updatedAt: meta.updatedAt, lastTaskId: taskId });
  }
  const doc = parseKptDocument(existing);
  const replaced: KptEdit[] = [];
  const added: Record<KptKind, string[]> = { keep: [], problem: [], try: [] };
  for (const kind of KPT_KINDS) {
    const own = doc.items.filter((i) => i.kind === kind && i.taskId === taskId);
    // a status set on one of this task's items (e.g. a Problem resolved before the retrospective ran again) stays,
    // also on an item written before question ids were qualified
    const statusOf = new Map(own.filter((o) => o.status).map((o) => [qualifyQuestionIds(o.text, taskId), o] as const));
    const lines = fresh[kind].map((it) => {
      const was = statusOf.get(it.text);
      return itemLine(was ? { ...it, status: was.status, statusBy: was.statusBy } : it);
    });
    if (own.length) {
      replaced.push({ start: own[0].start, end: own[0].end, lines, order: 0 });
      for (const o of own.slice(1)) replaced.push({ start: o.start, end: o.end, lines: [], order: 0 });
    } else {
      added[kind] = lines;
    }
  }
  const out = applyKptEdits(doc, replaced, added);
  if (doc.updatedLine >= 0) {
    // the only line above the sections CAPE owns; edits are all below it, so its index is unchanged
    const items = parseKpt(out.join('\n'));
    out[doc.updatedLine] = updatedLine(items, meta.updatedAt, taskId);
  }
  return (doc.bom ? '\uFEFF' : '') + out.join(doc.eol) + doc.eol;
}

/** Replace the document's lines [start, end) by `lines`; `order` sorts insertions at the same line. */
export interface KptEdit {
  start: number;
  end: number;
  lines: string[];
  order: number;
}

/**
 * The document's lines after `edits` and after adding `added[kind]` lines to each kind: after the last item of the
 * first section of that kind above its first sub-heading (a missing section is appended at the end, closing a fence
 * or comment left open first). Every other line stays as it was. The one insertion rule of the KPT merge, status
 * marks and the archive.
 */
export function applyKptEdits(doc: KptDocument, edits: readonly KptEdit[], added: Partial<Record<KptKind, string[]>>): string[] {
  const all = edits.slice();
  const appended: string[] = [];
  for (const kind of KPT_KINDS) {
    const lines = (added[kind] ?? []).slice();
    if (!lines.length) continue;
    const sec = doc.sections.find((x) => x.kind === kind);
    if (!sec) {
      appended.push('', `## ${SECTION_TITLE[kind]}`, '', ...lines);
      continue;
    }
    // the section's own items: those above its first sub-heading (what is under a sub-heading belongs there)
    const inSection = doc.items.filter((i) => i.start > sec.heading && i.start < sec.ownEnd);
    let at: number;
    if (inSection.length) {
      at = inSection[inSection.length - 1].end;
    } else {
      // after the section's own content (before its trailing blank lines and sub-headings), separated by blank lines
      at = doc.unclosedAt >= 0 ? Math.min(sec.ownEnd, doc.unclosedAt) : sec.ownEnd;
      while (at > sec.heading + 1 && doc.lines[at - 1].trim() === '') at--;
      if (doc.lines[at - 1].trim() !== '') lines.unshift('');
      if (at < doc.lines.length && doc.lines[at].trim() !== '') lines.push('');
    }
    all.push({ start: at, end: at, lines, order: KPT_KINDS.indexOf(kind) });
  }
  const out = doc.lines.slice();
  all.sort((x, y) => y.start - x.start || y.order - x.order);
  for (const e of all) out.splice(e.start, e.end - e.start, ...e.lines);
  if (appended.length) {
    // a fence or comment left open would swallow the new sections: close it first (what it held stays as it was)
    if (doc.unclosed) out.push(doc.unclosed);
    const last = out[out.length - 1];
    out.push(...(last === undefined || last.trim() === '' ? appended.slice(1) : appended));
  }
  return out;
}
