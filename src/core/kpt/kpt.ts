// KPT (Keep / Problem / Try): the kpt_merged.md format of the original CAPE CLI (parsed and rendered line for line)
// and the in-memory merge that never loses items. Item statuses and ids: items.ts; the locked file merge:
// mergeFile.ts (lock: lock.ts); grouping: grouping.ts; the Cape Master's digest: digest.ts.
// Plain Node: nothing in src/core may import 'vscode'.
import type { KptItem, KptKind, KptLists } from '../model/types';
import { formatLocalMinute } from '../model/dates';
import { kptStatusMarker, splitStatus, withoutStatusMarker } from './items';
import { oneLine } from '../text/cut';
import { closesFence, fenceOpening, headingOf } from '../text/markdown';

export const KPT_KINDS: readonly KptKind[] = ['keep', 'problem', 'try'];
const SECTION_TITLE: Record<KptKind, string> = { keep: 'Keep', problem: 'Problem', try: 'Try' };
const DEFAULT_TITLE = '# Accumulated KPT — CAPE Sessions';

// ---------------------------------------------------------------------------------------------
// Parse

/**
 * The KPT kind a label names, or null: a section heading of kpt_merged.md (`## Keep`, `# Problem`, `### Try (次回)`,
 * `## 問題`) or a key of the retrospective's `kpt` object (`keep`, `ｋｅｅｐ`, `KEEP`, `Keep:`, `キープ`). NFKC
 * (full-width → half-width), case-insensitive, leading numbering/emoji/brackets ignored; English singular/plural
 * and the Japanese names キープ / 問題・課題・プロブレム / トライ. The one rule for both places.
 */
export function kptKindOf(label: string): KptKind | null {
  const t = label
    .normalize('NFKC')
    .toLowerCase()
    .replace(/^[\s\p{P}\p{S}\d]+/u, '')
    .trim();
  if (/^keeps?(?![a-z])/.test(t) || t.startsWith('キープ')) return 'keep';
  if (/^problems?(?![a-z])/.test(t) || /^(問題|課題|プロブレム)/.test(t)) return 'problem';
  if (/^(try|tries)(?![a-z])/.test(t) || t.startsWith('トライ')) return 'try';
  return null;
}

/**
 * A `[task-id]` tag: no spaces or brackets inside (task ids never contain them). Full-width brackets `［task-id］`
 * (what a Japanese input method types for `[`) are the same tag.
 */
export const TAG_RE = /^[\[\uFF3B]([^\[\]\uFF3B\uFF3D\s]+)[\]\uFF3D]\s*/;
const BULLET_RE = /^(\s*)(?:[-*+]|\d{1,3}[.)])(?:\s+(.*))?$/;
/** Git (and diff3) conflict markers: kept as lines of their own, never part of an item. */
const CONFLICT_RE = /^(<{7}|={7}|>{7}|\|{7})(\s.*)?$/;
const UPDATED_RE = /^_Last updated: .*_\s*$/;

/** An item of kpt_merged.md with the lines it occupies: [start, end) in the document's lines. */
export interface KptDocItem extends KptItem {
  start: number;
  end: number;
}

/**
 * A KPT section: its heading line, the line where it ends (the next heading of its level or above, or the end of the
 * file) and where its own lines end: its first sub-heading (a deeper heading, whose items are the section's too), or
 * `end` when it has none.
 */
export interface KptDocSection {
  kind: KptKind;
  heading: number;
  end: number;
  ownEnd: number;
}

/** kpt_merged.md as lines, with what the parser understood in them; every other line is kept as it is. */
export interface KptDocument {
  lines: string[];
  eol: '\n' | '\r\n';
  bom: boolean;
  items: KptDocItem[];
  sections: KptDocSection[];
  /** Line of the `_Last updated: …_` line, or -1. */
  updatedLine: number;
  /** The line that would close a code fence or HTML comment left open at the end of the file, or null. */
  unclosed: string | null;
  /** The line where that open fence or comment starts (-1 when none): nothing can be inserted after it. */
  unclosedAt: number;
}

/**
 * Parses kpt_merged.md (or any markdown with Keep/Problem/Try sections) into lines plus the items and sections it
 * recognises. KPT headings are any level, English or Japanese (kptKindOf); a deeper heading inside a KPT section
 * (`## Problem` then `### From the review`) is a sub-heading: the items under it are the section's, up to the next
 * heading of the section's level or above (a deeper KPT heading, `### Try` under `## Problem`, holds its own kind's
 * items, and the enclosing section goes on after it). Tolerant: CRLF, a BOM, `*`/`+`/numbered bullets, items
 * without a `[task-id]` tag (taskId null), lazy or indented continuation lines, nested bullets and a status marker
 * on a line of its own (part of the item they follow). Not items, and never glued into one: code fences (and
 * everything inside, headings included), other HTML comments, conflict markers, table rows, paragraphs after a
 * blank line and the content of other sections.
 */
export function parseKptDocument(markdown: string): KptDocument {
  const bom = markdown.startsWith('\uFEFF');
  const body = bom ? markdown.slice(1) : markdown;
  const eol = /\r?\n/.exec(body)?.[0] === '\r\n' ? '\r\n' : '\n';
  const lines = body.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop(); // the final newline is not a line
  const items: KptDocItem[] = [];
  const sections: KptDocSection[] = [];
  let updatedLine = -1;
  let section: KptDocSection | null = null;
  /** The headings the current line is under, outermost first, each with the KPT section it opened (null: none). */
  const outline: { level: number; opened: KptDocSection | null }[] = [];
  let current: { item: KptDocItem; parts: string[] } | null = null;
  let afterBlank = false;
  let fence: string | null = null;
  let inComment = false;
  let openedAt = -1;
  const finish = (): void => {
    if (!current) return;
    const { text, status, by } = splitStatus(current.parts.join(' '));
    current.item.text = oneLine(text);
    if (status) current.item.status = status;
    if (by) current.item.statusBy = by;
    if (current.item.text) items.push(current.item);
    current = null;
  };
  /** The innermost KPT section of the outline (null: the line is in none). */
  const innermost = (): KptDocSection | null => outline.reduce<KptDocSection | null>((s, h) => h.opened ?? s, null);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (fence !== null) {
      if (closesFence(line, fence)) fence = null;
      continue;
    }
    if (inComment) {
      if (line.includes('-->')) inComment = false;
      continue;
    }
    const opening = fenceOpening(line);
    if (opening) {
      finish();
      fence = opening;
      openedAt = i;
      continue;
    }
    if (current && !afterBlank && line.trim() !== '' && withoutStatusMarker(line).trim() === '') {
      // a status marker on a line of its own right below an item (a wrapped line): the item's, not a comment
      const c = current as { item: KptDocItem; parts: string[] };
      c.parts.push(line.trim());
      c.item.end = i + 1;
      continue;
    }
    if (/^\s*<!--/.test(line)) {
      finish();
      inComment = !line.slice(line.indexOf('<!--') + 4).includes('-->');
      openedAt = i;
      continue;
    }
    const heading = headingOf(line);
    if (heading) {
      finish();
      // a heading of the same level or above ends the headings before it, and the sections they opened
      while (outline.length && outline[outline.length - 1].level >= heading.level) {
        const closed = outline.pop()!.opened;
        if (closed) {
          closed.end = i;
          closed.ownEnd = Math.min(closed.ownEnd, i);
        }
      }
      // a deeper heading inside a section is its sub-heading: the section's own lines end here
      const enclosing = innermost();
      if (enclosing) enclosing.ownEnd = Math.min(enclosing.ownEnd, i);
      const kind = kptKindOf(heading.title);
      const opened: KptDocSection | null = kind ? { kind, heading: i, end: lines.length, ownEnd: lines.length } : null;
      if (opened) sections.push(opened);
      outline.push({ level: heading.level, opened });
      section = innermost();
      afterBlank = false;
      continue;
    }
    if (!section) {
      if (updatedLine < 0 && sections.length === 0 && UPDATED_RE.test(line)) updatedLine = i;
      continue;
    }
    if (line.trim() === '') {
      afterBlank = true;
      continue;
    }
    if (CONFLICT_RE.test(line) || /^\s*\|/.test(line)) {
      finish();
      afterBlank = false;
      continue;
    }
    const bullet = BULLET_RE.exec(line);
    const indented = /^\s{2,}|^\t/.test(line);
    if (bullet && !(indented && current)) {
      finish();
      let text = bullet[2] ?? '';
      let taskId: string | null = null;
      const tag = TAG_RE.exec(text);
      if (tag) {
        taskId = tag[1];
        text = text.slice(tag[0].length);
      }
      current = { item: { kind: (section as KptDocSection).kind, taskId, text: '', start: i, end: i + 1 }, parts: [text] };
    } else if (current && (indented || !afterBlank)) {
      // continuation line (lazy or indented), or a nested bullet: part of the item above
      const c = current as { item: KptDocItem; parts: string[] };
      c.parts.push(bullet ? bullet[2] ?? '' : line.trim());
      c.item.end = i + 1;
    } else {
      finish(); // a separate paragraph: not an item
    }
    afterBlank = false;
  }
  finish();
  const unclosed = fence !== null ? fence : inComment ? '-->' : null;
  return { lines, eol, bom, items, sections, updatedLine, unclosed, unclosedAt: unclosed === null ? -1 : openedAt };
}

/** The items of kpt_merged.md (or any markdown with KPT sections), in file order; see parseKptDocument. */
export function parseKpt(markdown: string): KptItem[] {
  return parseKptDocument(markdown).items.map(({ kind, taskId, text, status, statusBy }) => ({
    kind,
    taskId,
    text,
    ...(status ? { status } : {}),
    ...(statusBy ? { statusBy } : {}),
  }));
}

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
  return out.join('\n').replace(/\n+$/, '\n');
}

/**
 * The session's new items per kind: one line each, without empty entries and duplicates. A status marker in the
 * text is the model's (or what it quoted), not a decision: it would set the item's status on the next read (a
 * Problem written "resolved" would leave the digest), so it is dropped: statuses are set by status.ts alone.
 */
function freshItems(taskId: string, lists: KptLists): Record<KptKind, KptItem[]> {
  const out = { keep: [], problem: [], try: [] } as Record<KptKind, KptItem[]>;
  for (const kind of KPT_KINDS) {
    const seen = new Set<string>();
    for (const raw of lists[kind] ?? []) {
      if (typeof raw !== 'string') continue;
      const text = oneLine(withoutStatusMarker(raw));
      if (!text || seen.has(text)) continue;
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
    // a status set on one of this task's items (e.g. a Problem resolved before the retrospective ran again) stays
    const statusOf = new Map(own.filter((o) => o.status).map((o) => [o.text, o] as const));
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
