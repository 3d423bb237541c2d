// KPT (Keep / Problem / Try): the kpt_merged.md format of the original CAPE CLI (parsed and rendered line for line),
// item statuses and ids in that format, and the merge that never loses items (under the lock of lock.ts). Grouping:
// grouping.ts; the Cape Master's digest: digest.ts.
// Plain Node: nothing in src/core may import 'vscode'.
import { promises as fsp } from 'fs';
import * as path from 'path';
import * as crypto from 'crypto';
import type { KptItem, KptKind, KptLists, KptStatus } from '../model/types';
import { asideStamp, formatLocalMinute } from '../model/dates';
import { fileReadError, writeFileAtomic } from '../files/fsAtomic';
import { checkWorkspaceLocation } from '../files/pathSafety';
import { notTextReason } from '../files/text';
import { ensureUnionMerge } from './gitattributes';
import { withFileLock, type KptLockOptions } from './lock';

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

/** A `[task-id]` tag: no spaces or brackets inside (task ids never contain them). */
export const TAG_RE = /^\[([^\[\]\s]+)\]\s*/;
const BULLET_RE = /^(\s*)(?:[-*+]|\d{1,3}[.)])(?:\s+(.*))?$/;
const HEADING_RE = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE_RE = /^\s{0,3}(`{3,}|~{3,})/;
/** Git (and diff3) conflict markers: kept as lines of their own, never part of an item. */
const CONFLICT_RE = /^(<{7}|={7}|>{7}|\|{7})(\s.*)?$/;
const UPDATED_RE = /^_Last updated: .*_\s*$/;

// ---------------------------------------------------------------------------------------------
// Item status and ids

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
const STATUS_MARKER_RE = /\s*<!--\s*cape-kpt:\s*(open|adopted|dropped|resolved)(?:\s+by\s+([^\s<>]+))?\s*-->/gi;

/** The trailing marker for a status ('' for open). */
export function kptStatusMarker(status: KptStatus | undefined, by?: string): string {
  if (!status || status === 'open') return '';
  return ` <!-- cape-kpt: ${status}${by ? ` by ${oneLine(by).replace(/[\s<>]+/g, '_')}` : ''} -->`;
}

/** Splits an item's text into the text proper and the status its (last) marker gives. */
function splitStatus(text: string): { text: string; status?: KptStatus; by?: string } {
  let status: KptStatus | undefined;
  let by: string | undefined;
  STATUS_MARKER_RE.lastIndex = 0;
  const rest = text.replace(STATUS_MARKER_RE, (_m, st: string, who?: string) => {
    status = st.toLowerCase() as KptStatus;
    by = who;
    return ' ';
  });
  if (!status) return { text };
  return { text: rest.replace(/\s+/g, ' ').trim(), ...(status !== 'open' ? { status, ...(by ? { by } : {}) } : {}) };
}

/** A line without its status marker(s). */
export function withoutStatusMarker(line: string): string {
  STATUS_MARKER_RE.lastIndex = 0;
  return line.replace(STATUS_MARKER_RE, '');
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

/** An item of kpt_merged.md with the lines it occupies: [start, end) in the document's lines. */
export interface KptDocItem extends KptItem {
  start: number;
  end: number;
}

/** A KPT section: its heading line and the line where it ends (the next heading, or the end of the file). */
export interface KptDocSection {
  kind: KptKind;
  heading: number;
  end: number;
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
 * recognises. KPT headings are any level, English or Japanese (kptKindOf). Tolerant: CRLF, a BOM, `*`/`+`/numbered
 * bullets, items without a `[task-id]` tag (taskId null), lazy or indented continuation lines and nested bullets
 * (part of the item they follow). Not items, and never glued into one: code fences (and everything inside,
 * headings included), HTML comments, conflict markers, table rows, paragraphs after a blank line and the
 * content of other sections.
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
  let current: { item: KptDocItem; parts: string[] } | null = null;
  let afterBlank = false;
  let fence: string | null = null;
  let inComment = false;
  let openedAt = -1;
  const finish = (): void => {
    if (!current) return;
    const { text, status, by } = splitStatus(current.parts.join(' '));
    current.item.text = text.replace(/\s+/g, ' ').trim();
    if (status) current.item.status = status;
    if (by) current.item.statusBy = by;
    if (current.item.text) items.push(current.item);
    current = null;
  };
  const closeSection = (at: number): void => {
    if (section) section.end = at;
    section = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (fence !== null) {
      const f = FENCE_RE.exec(line);
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length && line.trim() === f[1]) fence = null;
      continue;
    }
    if (inComment) {
      if (line.includes('-->')) inComment = false;
      continue;
    }
    const f = FENCE_RE.exec(line);
    if (f) {
      finish();
      fence = f[1];
      openedAt = i;
      continue;
    }
    if (/^\s*<!--/.test(line)) {
      finish();
      inComment = !line.slice(line.indexOf('<!--') + 4).includes('-->');
      openedAt = i;
      continue;
    }
    const heading = HEADING_RE.exec(line);
    if (heading) {
      finish();
      closeSection(i);
      const kind = kptKindOf(heading[2]);
      if (kind) {
        section = { kind, heading: i, end: lines.length };
        sections.push(section);
      }
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
  closeSection(lines.length);
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

/** One line of markdown: newlines would break the list, so they become spaces. */
export function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
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

/** The session's new items per kind: one line each, without empty entries and duplicates. */
function freshItems(taskId: string, lists: KptLists): Record<KptKind, KptItem[]> {
  const out = { keep: [], problem: [], try: [] } as Record<KptKind, KptItem[]>;
  for (const kind of KPT_KINDS) {
    const seen = new Set<string>();
    for (const raw of lists[kind] ?? []) {
      if (typeof raw !== 'string') continue;
      const text = oneLine(raw);
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
 * first section of that kind (a missing section is appended at the end, closing a fence or comment left open
 * first). Every other line stays as it was. The one insertion rule of the KPT merge, status marks and the archive.
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
    const inSection = doc.items.filter((i) => i.start > sec.heading && i.start < sec.end);
    let at: number;
    if (inSection.length) {
      at = inSection[inSection.length - 1].end;
    } else {
      // after the section's own content (before its trailing blank lines), separated by blank lines
      at = doc.unclosedAt >= 0 ? Math.min(sec.end, doc.unclosedAt) : sec.end;
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

// ---------------------------------------------------------------------------------------------
// Locked read-merge-write (the lock itself: lock.ts)

export interface KptMergeOptions extends KptLockOptions {
  /**
   * The workspace kpt_merged.md belongs to: the file is neither read nor written when it (or a folder above it)
   * is a symbolic link that leads outside (pathSafety's checkWorkspaceLocation).
   */
  workspaceRoot?: string;
}

export interface KptMergeResult {
  /** 'merged'; 'refused' when the file is outside the workspace (nothing written). */
  status: 'merged' | 'refused';
  /** Where an unreadable earlier file was kept, when it was. */
  keptAside?: string;
  /** What to tell the user (also passed to onWarning). */
  warnings: string[];
}

/**
 * Merges one session's KPT into kpt_merged.md: read → mergeKptText → atomic write, all under an exclusive lock so
 * that two sessions finishing at once never lose each other's items. Idempotent per taskId. Nothing is lost:
 *  - every line the parser does not understand stays where it was (mergeKptText);
 *  - a file that cannot be merged without losing bytes — it is not text (a NUL byte, or invalid UTF-8) — is never
 *    rewritten: it is renamed to `kpt_merged.md.unreadable-<YYYYMMDD-HHMMSS>` (UTC) and a new kpt_merged.md is
 *    started, with a warning naming both;
 *  - with `workspaceRoot`, a kpt_merged.md that leads outside the workspace is refused with a warning.
 */
export async function mergeKptFile(
  filePath: string,
  taskId: string,
  lists: KptLists,
  now: Date = new Date(),
  opts: KptMergeOptions = {},
): Promise<KptMergeResult> {
  if (!taskId || /[\s\[\]]/.test(taskId)) {
    throw new Error(`Invalid task id "${taskId}" for kpt_merged.md: it must be non-empty, without spaces or brackets.`);
  }
  const warnings: string[] = [];
  const warn = (m: string): void => {
    warnings.push(m);
    try {
      opts.onWarning?.(m);
    } catch {
      /* a listener's bug must not break the merge */
    }
  };
  const outside = (): string | null => {
    if (!opts.workspaceRoot) return null;
    const check = checkWorkspaceLocation(opts.workspaceRoot, path.relative(opts.workspaceRoot, filePath));
    return check.ok ? null : check.reason;
  };
  const refusedBefore = outside();
  if (refusedBefore) {
    warn(`${filePath} was not updated: ${refusedBefore}. CAPE neither reads nor writes KPT through it; this session's KPT is in its retrospective file.`);
    return { status: 'refused', warnings };
  }
  let keptAside: string | undefined;
  let status: KptMergeResult['status'] = 'merged';
  await withFileLock(
    filePath,
    async () => {
      // checked again under the lock, right before reading and writing
      const refused = outside();
      if (refused) {
        warn(`${filePath} was not updated: ${refused}. CAPE neither reads nor writes KPT through it; this session's KPT is in its retrospective file.`);
        status = 'refused';
        return;
      }
      let bytes: Buffer | null = null;
      try {
        bytes = await fsp.readFile(filePath);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      let existing = '';
      const notText = bytes ? notTextReason(bytes) : null;
      if (bytes && notText) {
        keptAside = await keepAside(filePath, now);
        warn(
          `${filePath} could not be merged (${notText}); it was kept unchanged as ${path.basename(keptAside)} and a new ` +
            'kpt_merged.md was started. Recover its items from there if you need them.',
        );
      } else if (bytes) {
        existing = bytes.toString('utf8');
      }
      await writeFileAtomic(filePath, mergeKptText(existing, taskId, lists, { updatedAt: now }));
      // teams: kpt_merged.md only grows by lines, so git's union driver merges two teammates' sessions
      if (opts.workspaceRoot) await ensureUnionMerge(opts.workspaceRoot, filePath, warn);
    },
    opts,
  );
  return { status, keptAside, warnings };
}

/** Renames `filePath` to `<name>.unreadable-<stamp>` (a free name) and returns the new path. */
async function keepAside(filePath: string, now: Date): Promise<string> {
  const base = `${filePath}.unreadable-${asideStamp(now)}`;
  for (let n = 0; ; n++) {
    const target = n ? `${base}-${n}` : base;
    try {
      await fsp.access(target);
      continue; // taken
    } catch {
      /* free */
    }
    await fsp.rename(filePath, target);
    return target;
  }
}

/**
 * Reads kpt_merged.md for the CM digest: a missing file is ''; a file outside the workspace (with `workspaceRoot`)
 * or one that is not text is not used, and `warning` says why (the merge keeps such a file aside later).
 */
export async function readKptText(filePath: string, workspaceRoot?: string): Promise<{ text: string; warning?: string }> {
  if (workspaceRoot) {
    const check = checkWorkspaceLocation(workspaceRoot, path.relative(workspaceRoot, filePath));
    if (!check.ok) return { text: '', warning: `${filePath} was not read: ${check.reason}. The Cape Master gets no KPT history.` };
  }
  let bytes: Buffer;
  try {
    bytes = await fsp.readFile(filePath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { text: '' };
    throw fileReadError(filePath, err);
  }
  const notText = notTextReason(bytes);
  if (notText) {
    return { text: '', warning: `${filePath} was not read: ${notText}. The Cape Master gets no KPT history; the next merge keeps the file aside.` };
  }
  return { text: bytes.toString('utf8') };
}

/** Reads and parses a kpt_merged.md; a missing file is an empty history. */
export async function readKptFile(filePath: string): Promise<KptItem[]> {
  try {
    return parseKpt(await fsp.readFile(filePath, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}
