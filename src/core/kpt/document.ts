// Reading kpt_merged.md (the original CAPE CLI's format, line for line): its sections, its tagged items with their
// status markers, and what must be kept as it is (the title, comments, tables, fences, unknown sections, the
// "Last updated" line). kpt.ts renders and merges what this reads; items.ts owns the status markers and ids.
// Plain Node: nothing in src/core may import 'vscode'.
import type { KptItem, KptKind } from '../model/types';
import { splitStatus, withoutStatusMarker } from './items';
import { usualLineBreak } from '../files/text';
import { oneLine } from '../text/cut';
import { closesFence, fenceOpening, headingOf, LIST_BULLET } from '../text/markdown';

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
// a Markdown bullet (text/markdown.ts LIST_BULLET): `・` / `•`, list markers elsewhere, start no item of kpt_merged.md
const BULLET_RE = new RegExp(String.raw`^(\s*)(?:${LIST_BULLET})(?:\s+(.*))?$`);
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
  // the file's usual line break, not its first line's: one CRLF line (a paste) must not turn every line CRLF on the
  // next write, a whole-file diff that a union merge would duplicate
  const eol = usualLineBreak(body);
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

