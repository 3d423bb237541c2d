// A cape/ file's section as the entries it lists, for the objective's passages (passages.ts): a backlog epic's
// labelled stories (storyBlocks), and in the text before them each table row (with its table's header) and each
// top-level list item; the bold label an entry opens with, its title (entryLabel); and the kept entries of a section
// shown back in its order (renderEntries).
import { fenceTracker, isTableSeparator, LIST_BULLET } from '../text';

/** A bold label (`**US-007 — Strip other trackers**`), its text captured. */
const BOLD_LABEL = String.raw`\*\*([^*\n]+)\*\*`;
/** A paragraph that opens with a bold label (`**US-007 — Strip other trackers** · P3`): a story or an entry of its own. */
const LABELLED = new RegExp(`^${BOLD_LABEL}`);
/** An entry's opening bold label, after a list bullet if it is a list item (`- **E1: Option deprecation** — …`). */
const ENTRY_LABEL = new RegExp(String.raw`^(?:(?:${LIST_BULLET})\s+)?${BOLD_LABEL}`);

/** The text of the bold label an entry (sectionEntries) opens with: a story's, an epic's or a list item's title. */
export function entryLabel(entry: string): string | undefined {
  return ENTRY_LABEL.exec(entry)?.[1];
}

/**
 * A section's body as the entries it lists: a new block at each paragraph that opens with a bold label, what precedes
 * the first one a block of its own; a body without such labels is one block. A backlog epic lists its stories so: in
 * the trial, the story that put the objective off and an unrelated one shared a section, and sent whole they left no
 * room for the objective's own epic.
 */
export function storyBlocks(body: string): string[] {
  const blocks: string[] = [];
  let cur: string[] = [];
  // a bold line inside a code fence, or one that continues a paragraph, starts no entry
  const outside = fenceTracker();
  let paragraphStart = true;
  for (const line of body.split('\n')) {
    const prose = outside(line);
    if (prose && paragraphStart && LABELLED.test(line.trimStart()) && cur.some((l) => l.trim())) {
      blocks.push(cur.join('\n').trim());
      cur = [];
    }
    cur.push(line);
    paragraphStart = prose && !line.trim();
  }
  blocks.push(cur.join('\n').trim());
  return blocks.filter(Boolean);
}

/** A block of a section's body: a paragraph run, a list item, or a table row with its table's header lines (`head`). */
export interface SectionEntry {
  text: string;
  head?: string;
  /** A list item's or table row's list or table, numbered in the section's order: its entries are shown as one. */
  group?: number;
}

const isTableLine = (line: string) => line.includes('|') && line.trim() !== '';
/** A list item's first line, not indented (`- …`, `* …`, `1. …`): its indented lines and sub-items belong to it. */
const LIST_ITEM = new RegExp(String.raw`^(?:${LIST_BULLET})\s+\S`);

/**
 * A section's body as its entries: its labelled blocks (storyBlocks) and, in the text before a section's first label,
 * each table row (with the table's header lines) and each top-level list item (with its indented lines) as an entry of
 * its own. An ADR table of eight decisions, or a list of anti-patterns, sent whole for the one line that spoke of the
 * objective took a third of the room in a trial's opening, and the objective's own epic was left out. A labelled
 * block (a story) keeps its criteria list and tables: they read only with it.
 */
export function sectionEntries(body: string): SectionEntry[] {
  const out: SectionEntry[] = [];
  let group = 0;
  for (const block of storyBlocks(body)) {
    if (LABELLED.test(block)) {
      out.push({ text: block });
      continue;
    }
    const lines = block.split('\n');
    const outside = fenceTracker();
    const prose: string[] = [];
    const flush = () => {
      const text = prose.join('\n').trim();
      if (text) out.push({ text });
      prose.length = 0;
    };
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (!outside(line)) {
        prose.push(line);
        continue;
      }
      if (isTableLine(line) && isTableSeparator(lines[i + 1])) {
        flush();
        const head = `${line}\n${lines[i + 1]}`;
        outside(lines[++i]);
        while (i + 1 < lines.length && isTableLine(lines[i + 1])) out.push({ text: lines[++i], head, group }), outside(lines[i]);
        group++;
        continue;
      }
      if (LIST_ITEM.test(line)) {
        flush();
        // the list's items, each with its indented lines; blank lines between items keep the list going
        let item = [line];
        const push = () => out.push({ text: item.join('\n').trimEnd(), group });
        while (i + 1 < lines.length) {
          const next = lines[i + 1];
          const blankThenMore = !next.trim() && i + 2 < lines.length && (LIST_ITEM.test(lines[i + 2]) || /^\s+\S/.test(lines[i + 2]));
          if (LIST_ITEM.test(next)) {
            push();
            item = [next];
          } else if (/^\s+\S/.test(next) || blankThenMore) item.push(next);
          else break;
          outside(lines[++i]);
        }
        push();
        group++;
        continue;
      }
      prose.push(line);
    }
    flush();
  }
  return out;
}

/** A section's kept entries in its order; a list's or table's kept entries shown together, a table's header once. */
export function renderEntries(entries: readonly (SectionEntry & { block: number })[]): string {
  let out = '';
  let lastGroup: number | undefined;
  for (const e of [...entries].sort((a, b) => a.block - b.block)) {
    if (e.group !== undefined && e.group === lastGroup) out += `\n${e.text}`;
    else out += `${out ? '\n\n' : ''}${e.head !== undefined ? `${e.head}\n` : ''}${e.text}`;
    lastGroup = e.group;
  }
  return out;
}
