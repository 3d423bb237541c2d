// KPT (Keep / Problem / Try): the kpt_merged.md format of the original CAPE CLI, a lock-protected merge that never
// loses items, recurrence grouping, and the bounded digest the Cape Master receives at the opening.
// Plain Node: nothing in src/core may import 'vscode'.
import { promises as fsp } from 'fs';
import * as path from 'path';
import * as crypto from 'crypto';
import * as os from 'os';
import type { KptItem, KptKind, KptLists, KptStatus } from '../model/types';
import { asideStamp, formatLocalMinute } from '../model/dates';
import { ensureDir, fileReadError, writeFileAtomic } from '../files/fsAtomic';
import { checkWorkspaceLocation } from '../files/pathSafety';
import { notTextReason } from '../files/text';
import { ensureUnionMerge } from './gitattributes';

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
const TAG_RE = /^\[([^\[\]\s]+)\]\s*/;
const BULLET_RE = /^(\s*)(?:[-*+]|\d{1,3}[.)])(?:\s+(.*))?$/;
const HEADING_RE = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE_RE = /^\s{0,3}(`{3,}|~{3,})/;
/** Git (and diff3) conflict markers: kept as lines of their own, never part of an item. */
const CONFLICT_RE = /^(<{7}|={7}|>{7}|\|{7})(\s.*)?$/;
const UPDATED_RE = /^_Last updated: .*_\s*$/;

// ---------------------------------------------------------------------------------------------
// Item status and ids

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
function oneLine(s: string): string {
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
// Locked read-merge-write

export interface KptLockOptions {
  /** A lock file older than this is considered abandoned by a crashed process and taken over (default 30 s). */
  staleMs?: number;
  /** Give up waiting for the lock after this long (default 60 s). */
  timeoutMs?: number;
  /** Told when a stale lock is broken or the wait for a live holder gets long (CLI stderr, VS Code log). */
  onWarning?: (message: string) => void;
}

export class KptLockError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KptLockError';
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A lock whose holder never wrote its token (killed between create and write) is stale after this long. */
const EMPTY_LOCK_STALE_MS = 2_000;
/** Say that we are waiting once the wait for a live holder lasts this long. */
const SAY_WAITING_AFTER_MS = 3_000;

/** What a lock file says about its holder: `<pid> <host> <epoch ms> <random>` (older versions: no host). */
interface LockHolder {
  pid: number | null;
  host: string | null;
  since: number | null;
  raw: string;
}

/** This machine's name as written into lock files (one token). */
function hostName(): string {
  return os.hostname().replace(/\s+/g, '_') || 'localhost';
}

function parseHolder(raw: string): LockHolder {
  const parts = raw.trim().split(/\s+/);
  const pid = /^\d+$/.test(parts[0] ?? '') ? Number(parts[0]) : null;
  const withHost = parts.length >= 4;
  const since = Number(withHost ? parts[2] : parts[1]);
  return { pid, host: withHost ? parts[1] : null, since: Number.isFinite(since) && since > 0 ? since : null, raw };
}

/** False only when `pid` certainly does not exist on this machine (ESRCH); EPERM means it exists (another user). */
function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function describeHolder(h: LockHolder): string {
  if (h.pid === null) return 'an unknown process (the lock file is empty or unreadable)';
  const where = h.host ? ` on ${h.host}` : '';
  const since = h.since ? `, since ${new Date(h.since).toISOString()}` : '';
  return `process ${h.pid}${where}${since}`;
}

/**
 * Runs `fn` while holding `<filePath>.lock`, created with O_EXCL ('wx'), so concurrent sessions (in this process
 * or others) serialise. The lock holds `<pid> <host> <epoch ms> <random>`. Waiting uses exponential backoff with
 * jitter. A lock is stale — and broken at once, with a warning naming it — when its holder is a process of this
 * host that no longer exists, when it stayed empty (holder killed before writing it) for 2 s, or when it is older
 * than `staleMs` (holder on another host, or pid reused). Breaking renames it to a unique name first (only one
 * contender can win that rename) and checks it again — if what was renamed turns out to be a fresh lock of another
 * contender, it is put back (link() fails if a new one exists). A live holder is waited for (said after 3 s) up to
 * `timeoutMs`, then a KptLockError names the lock file and its holder.
 *
 * Why not proper-lockfile: it detects staleness only by mtime (its holder must keep touching the lock), so a lock
 * of a killed process still costs the full stale period in silent waiting; a pid + host token lets us break it at
 * once and say whose it was.
 */
export async function withFileLock<T>(filePath: string, fn: () => Promise<T>, opts: KptLockOptions = {}): Promise<T> {
  const staleMs = opts.staleMs ?? 30_000;
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const lockPath = `${filePath}.lock`;
  const token = `${process.pid} ${hostName()} ${Date.now()} ${crypto.randomBytes(8).toString('hex')}`;
  const warn = (m: string): void => {
    try {
      opts.onWarning?.(m);
    } catch {
      /* a listener's bug must not break the merge */
    }
  };
  const started = Date.now();
  let saidWaiting = false;
  let delay = 5;
  await ensureDir(path.dirname(filePath));
  for (;;) {
    try {
      const fh = await fsp.open(lockPath, 'wx');
      try {
        await fh.writeFile(token);
      } finally {
        await fh.close();
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const verdict = await staleVerdict(lockPath, staleMs);
    if (verdict === 'gone') continue;
    if (verdict !== 'live') {
      if (await breakStaleLock(lockPath, staleMs)) warn(`Removed the stale lock ${lockPath}: ${verdict.why}.`);
      continue;
    }
    const waited = Date.now() - started;
    const holder = parseHolder(await fsp.readFile(lockPath, 'utf8').catch(() => ''));
    if (waited > timeoutMs) {
      throw new KptLockError(
        `Timed out after ${Math.round(timeoutMs / 1000)} s waiting for the lock ${lockPath}, held by ${describeHolder(holder)}. ` +
          'If no other CAPE session is running, delete that file and retry.',
      );
    }
    if (!saidWaiting && waited > SAY_WAITING_AFTER_MS) {
      saidWaiting = true;
      warn(`Waiting for the lock ${lockPath}, held by ${describeHolder(holder)} (another CAPE session merging its KPT).`);
    }
    await sleep(delay * (0.5 + Math.random()));
    delay = Math.min(delay * 1.6, 250);
  }
  try {
    return await fn();
  } finally {
    // release only our own lock (after a takeover by someone else it is not ours any more)
    const content = await fsp.readFile(lockPath, 'utf8').catch(() => null);
    if (content === token) await fsp.rm(lockPath, { force: true });
  }
}

/** 'gone' (vanished: retry at once), 'live' (wait), or why the lock is stale. */
async function staleVerdict(lockPath: string, staleMs: number): Promise<'gone' | 'live' | { why: string }> {
  let st;
  let raw: string;
  try {
    st = await fsp.stat(lockPath);
    raw = await fsp.readFile(lockPath, 'utf8');
  } catch {
    return 'gone';
  }
  const age = Date.now() - st.mtimeMs;
  const holder = parseHolder(raw);
  if (holder.pid !== null && holder.host === hostName() && !processAlive(holder.pid)) {
    return { why: `its holder, ${describeHolder(holder)}, no longer runs` };
  }
  if (holder.pid === null && raw.trim() === '' && age > EMPTY_LOCK_STALE_MS) {
    return { why: `it stayed empty for ${Math.round(age / 1000)} s (its holder was killed while taking it)` };
  }
  if (age >= staleMs) return { why: `${describeHolder(holder)} held it for ${Math.round(age / 1000)} s (limit ${Math.round(staleMs / 1000)} s)` };
  return 'live';
}

/**
 * Moves a stale lock aside; true when what we moved was indeed stale. If a contender's fresh lock replaced the stale
 * one in between, that is what we moved: it is put back (unless a newer one exists) and false is returned.
 */
async function breakStaleLock(lockPath: string, staleMs: number): Promise<boolean> {
  const aside = `${lockPath}.stale-${crypto.randomBytes(6).toString('hex')}`;
  try {
    await fsp.rename(lockPath, aside);
  } catch {
    return false; // another contender moved it first
  }
  try {
    if ((await staleVerdict(aside, staleMs)) === 'live') {
      await fsp.link(aside, lockPath).catch(() => undefined);
      return false;
    }
  } finally {
    await fsp.rm(aside, { force: true });
  }
  return true;
}

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

// ---------------------------------------------------------------------------------------------
// Recurrence grouping

export interface KptGroup {
  kind: KptKind;
  /** The text of the group's first (oldest) item. */
  representative: string;
  /** Items in their original order. */
  items: KptItem[];
  /** Distinct task ids, in order of first appearance. */
  taskIds: string[];
  /** Distinct sessions: distinct task ids, each untagged item counting as its own session. */
  count: number;
  /** Task id of the most recent tagged item (null when none is tagged). */
  lastTaskId: string | null;
  /** Index (in the input) of the most recent item: larger = more recent. */
  lastIndex: number;
}

/**
 * Default similarity threshold (Dice over the character-bigram sets of the normalised core text, see
 * normaliseKptText). Chosen on the real 8-session kpt_merged.md of the original CLI: clearly repeated items (the
 * "DoR not met" Problems, the "keyframes fully specified" and "scope declaration at the start" Keeps, the
 * "TodoContext change without a GO" Problems) score 0.36–1.0 against their nearest repeat, while the nearest
 * unrelated item scores at most ~0.30 (most below 0.25). 0.35 separates the two; the fixture test in
 * test/unit/kpt.test.ts checks it.
 */
export const DEFAULT_GROUP_THRESHOLD = 0.35;

/** Below this many characters the core is too short to be meaningful and the whole text is compared. */
const MIN_CORE_CHARS = 8;

/**
 * Normalisation for comparison: NFKC (full-width → half-width), the `[task-id]` tag and `【label】` markers removed,
 * then the core of the item: the text before the first dash separator (`——`, `—`, ` -- `, ` - `: what follows is an
 * elaboration that differs each time) without parenthesised details; lower case; every whitespace, punctuation
 * and symbol character removed (Japanese has no word spacing, and brackets and dashes vary). When the core is
 * shorter than 8 characters the whole text is used instead.
 */
export function normaliseKptText(text: string): string {
  const squash = (s: string): string => s.toLowerCase().replace(/[\p{P}\p{S}\p{Z}\s]+/gu, '');
  const base = text.normalize('NFKC').replace(TAG_RE, '').replace(/【[^】]*】/g, ' ');
  let core = base.split(/\s*(?:\u2014\u2014|\u2015\u2015|\u2014|\u2015)\s*|\s+--?\s+/)[0];
  for (let prev = ''; prev !== core; ) {
    prev = core;
    core = core.replace(/\([^()]*\)|\[[^\[\]]*\]/g, ' ');
  }
  const squashedCore = squash(core);
  if (Array.from(squashedCore).length >= MIN_CORE_CHARS) return squashedCore;
  // all punctuation/symbols (e.g. "!!!"): compare the text itself rather than an empty string
  return squash(base) || text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Distinct character bigrams (code points, so surrogate pairs stay whole); a 1-char string yields itself. */
export function bigrams(s: string): string[] {
  const chars = Array.from(s);
  if (chars.length === 1) return [chars[0]];
  const set = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i++) set.add(chars[i] + chars[i + 1]);
  return [...set];
}

/** Dice coefficient of two strings over their character-bigram sets (after normaliseKptText). */
export function diceSimilarity(a: string, b: string): number {
  const A = new Set(bigrams(normaliseKptText(a)));
  const B = bigrams(normaliseKptText(b));
  if (A.size === 0 && B.length === 0) return 1;
  let inter = 0;
  for (const g of B) if (A.has(g)) inter++;
  return (2 * inter) / (A.size + B.length);
}

function sortedIntersectionSize(a: Int32Array, b: Int32Array): number {
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      n++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return n;
}

/** Each group is compared through its first few distinct members (its anchors): bounded work, some chaining. */
export const GROUP_ANCHORS = 3;
/**
 * A bigram found in more than this many anchors of one kind is not used to find candidates (it still counts when
 * a candidate is verified). Up to that size grouping is exact; beyond it, two items whose only shared bigrams are
 * such ubiquitous ones may be missed — boilerplate, not a recurrence. This bounds the work per item, so 10,000
 * items take ~100 ms whatever their content.
 */
export const MAX_POSTING = 64;

/** With skipped bigrams, at most this many candidates per item are verified exactly. */
const MAX_VERIFY = 24;

export interface GroupKptOptions {
  /** Dice threshold (default DEFAULT_GROUP_THRESHOLD). */
  threshold?: number;
  /** Override MAX_POSTING (Infinity = exact search, quadratic in the worst case; for tests). */
  maxPosting?: number;
}

/**
 * Groups items that recur across sessions, separately per kind (a group never mixes kinds).
 *
 * Items are taken in order (oldest first). Each one joins the group with the highest Dice (≥ threshold) against
 * any of the group's anchors (its first GROUP_ANCHORS distinct members; ties → the older group), or starts a new
 * group. Exact repeats (after normalisation) join directly. Instead of comparing all pairs, an inverted index
 * maps each bigram to the anchors containing it; one pass over an item's bigrams counts the shared bigrams of
 * every anchor (ScanCount). A length bound (Dice ≥ t ⇒ t/(2−t) ≤ |y|/|x| ≤ (2−t)/t) and an upper bound on the
 * score prune anchors before any exact comparison, and candidates are verified best-bound first.
 */
export function groupKpt(items: KptItem[], opts: GroupKptOptions = {}): KptGroup[] {
  const t = Math.min(1, Math.max(0.01, opts.threshold ?? DEFAULT_GROUP_THRESHOLD));
  const maxPosting = opts.maxPosting ?? MAX_POSTING;
  const norm = items.map((it) => normaliseKptText(it.text));
  // bigrams as small integer ids (interned), each item's as a sorted array of distinct ids
  const intern = new Map<string, number>();
  const gramIds = (s: string): Int32Array => {
    const grams = bigrams(s);
    const ids = new Int32Array(grams.length);
    for (let k = 0; k < grams.length; k++) {
      let id = intern.get(grams[k]);
      if (id === undefined) {
        id = intern.size;
        intern.set(grams[k], id);
      }
      ids[k] = id;
    }
    return ids.sort(); // bigrams() already returns distinct grams
  };
  const groups: KptGroup[] = [];
  const groupKeys: Set<string>[] = [];
  const keyOf = (i: number): string => items[i].taskId ?? `\u0000untagged#${i}`;

  for (const kind of KPT_KINDS) {
    const index: number[][] = []; // bigram id → anchor ids
    const exact = new Map<string, number>(); // normalised text → group
    const anchorGroup: number[] = [];
    const anchorIds: Int32Array[] = [];
    const anchorsOf: number[] = []; // group → number of anchors
    let counts = new Int32Array(64);
    const touched: number[] = [];
    for (let i = 0; i < items.length; i++) {
      if (items[i].kind !== kind) continue;
      let gi = exact.get(norm[i]) ?? -1;
      let ids: Int32Array | null = null;
      if (gi < 0) {
        ids = gramIds(norm[i]);
        const n = ids.length;
        const lo = (n * t) / (2 - t);
        const hi = (n * (2 - t)) / t;
        let skipped = 0; // bigrams of this item not used for the candidate search
        for (let k = 0; k < n; k++) {
          const posting = index[ids[k]];
          if (!posting) continue;
          if (posting.length > maxPosting) {
            skipped++;
            continue;
          }
          for (let q = 0; q < posting.length; q++) if (counts[posting[q]]++ === 0) touched.push(posting[q]);
        }
        let bestScore = -1;
        // Without skipped bigrams the counts are exact overlaps. With skipped ones, counts only cover the rarer
        // bigrams: keep the MAX_VERIFY candidates sharing the most of those, and verify them exactly.
        const top: number[] = [];
        for (const a of touched) {
          const m = anchorIds[a].length;
          const c = counts[a];
          counts[a] = 0;
          if (m < lo || m > hi) continue;
          if (!skipped) {
            const score = (2 * c) / (n + m);
            const g = anchorGroup[a];
            if (score >= t && (score > bestScore || (score === bestScore && g < gi))) {
              bestScore = score;
              gi = g;
            }
          } else if ((2 * Math.min(c + skipped, m, n)) / (n + m) >= t) {
            counts[a] = -c; // keep the count (negated, so the loop above is not confused) for the ranking below
            top.push(a);
          }
        }
        if (skipped && top.length) {
          if (top.length > MAX_VERIFY) {
            top.sort((x, y) => counts[x] - counts[y] || x - y); // most shared rare bigrams first
            for (let q = MAX_VERIFY; q < top.length; q++) counts[top[q]] = 0;
            top.length = MAX_VERIFY;
          }
          for (const a of top) {
            counts[a] = 0;
            const other = anchorIds[a];
            const score = (2 * sortedIntersectionSize(ids, other)) / (n + other.length);
            const g = anchorGroup[a];
            if (score >= t && (score > bestScore || (score === bestScore && g < gi))) {
              bestScore = score;
              gi = g;
            }
          }
        }
        touched.length = 0;
      }
      if (gi >= 0) {
        groups[gi].items.push(items[i]);
        groups[gi].lastIndex = i;
        groupKeys[gi].add(keyOf(i));
      } else {
        gi = groups.length;
        groups.push({ kind, representative: items[i].text, items: [items[i]], taskIds: [], count: 0, lastTaskId: null, lastIndex: i });
        groupKeys.push(new Set([keyOf(i)]));
      }
      if (!exact.has(norm[i])) {
        exact.set(norm[i], gi);
        const have = anchorsOf[gi] ?? 0;
        if (have < GROUP_ANCHORS && ids) {
          const a = anchorGroup.length;
          anchorGroup.push(gi);
          anchorIds.push(ids);
          anchorsOf[gi] = have + 1;
          if (a >= counts.length) {
            const bigger = new Int32Array(counts.length * 2);
            bigger.set(counts);
            counts = bigger;
          }
          for (let k = 0; k < ids.length; k++) (index[ids[k]] ??= []).push(a);
        }
      }
    }
  }
  for (let gi = 0; gi < groups.length; gi++) {
    const g = groups[gi];
    const ids: string[] = [];
    const seenIds = new Set<string>();
    for (const it of g.items) {
      if (it.taskId && !seenIds.has(it.taskId)) {
        seenIds.add(it.taskId);
        ids.push(it.taskId);
      }
    }
    g.taskIds = ids;
    g.count = groupKeys[gi].size;
    for (let k = g.items.length - 1; k >= 0; k--) {
      if (g.items[k].taskId) {
        g.lastTaskId = g.items[k].taskId;
        break;
      }
    }
  }
  return groups;
}

// ---------------------------------------------------------------------------------------------
// Digest for the CM opening

export interface KptDigestOptions {
  /** Hard cap on the digest length in characters (default 2500). */
  maxChars?: number;
  /** Cap on the number of listed items over all sections (default 16). */
  maxItems?: number;
}

const MAX_ITEM_CHARS = 180;

function clip(s: string, max: number): string {
  const chars = Array.from(oneLine(s));
  return chars.length <= max ? chars.join('') : chars.slice(0, max - 1).join('') + '…';
}

/** Open (no status, or status open). */
export function isOpenKpt(it: Pick<KptItem, 'status'>): boolean {
  return !it.status || it.status === 'open';
}

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
  const maxChars = Math.max(0, Math.floor(opts.maxChars ?? 2500));
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
    // the most recent wording is the most relevant one; an open Try names its latest open item's id
    const latest = g.items[g.items.length - 1];
    const text = clip(latest.text, itemChars);
    const where = g.lastTaskId ? `, last ${g.lastTaskId}` : '';
    const openTry = g.kind === 'try' ? [...g.items].reverse().find(isOpenKpt) : undefined;
    const id = openTry ? `[id ${idOf.get(openTry)}] ` : '';
    const by = latest.status === 'adopted' && latest.statusBy ? ` adopted in ${latest.statusBy}` : '';
    return g.count >= 2 ? `- ${id}(${g.count} sessions${where}${by}) ${text}` : `- ${id}(${g.lastTaskId ?? 'untagged'}${by}) ${text}`;
  };
  const sections: { title: string; groups: KptGroup[]; share: number; limit: number }[] = [
    { title: 'Open Problems (recurring first):', groups: problems, share: 0.4, limit: Math.ceil(maxItems * 0.45) },
    { title: 'Open Tries (most recent first):', groups: tries, share: 0.32, limit: Math.ceil(maxItems * 0.3) },
    { title: 'Recently adopted Tries:', groups: adopted, share: 0.1, limit: Math.max(1, Math.floor(maxItems * 0.1)) },
    { title: 'Recurring Keeps:', groups: keeps, share: 0.18, limit: Math.max(1, Math.floor(maxItems * 0.15)) },
  ];
  const header = `KPT history: ${items.length} items from ${sessions.size} sessions${lastTask ? ` (last: ${lastTask})` : ''}.`;
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
  if (!push(header)) return clip(header, maxChars);
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
  return text.length <= maxChars ? text : text.slice(0, maxChars);
}
