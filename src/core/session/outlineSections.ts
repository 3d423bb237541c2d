// One section's line of the Cape Master's outline (./outline.ts): its heading and the start of its text — the first
// paragraph, list items or table rows, the labels or rows of a backlog's id-led stories —, with the lines that say what the
// section leaves out (and a next release's planned items), and whether it puts work off (its opening gives way last when a file's outline must shrink).
import { fenceTracker, isTableSeparator } from '../text';
import { splitSections } from './packing';
import { clip, CLIP_MARK } from './clip';

/** Characters of one section's line (heading and the start of its text). */
const SECTION_CHARS = 220;
/**
 * Characters of a section's line when its text opens with a table or a list: the header and the first rows, or the
 * first items, each an item of its own (a Go trial's CM, given a backlog table's header row alone, could not tell
 * whether the objective was on the backlog; a tinyhttp trial's CM, given a milestone's first bullet alone, missed the
 * second — every change ships with a changeset — and put the changeset among the changes that need approval).
 */
const ITEMS_SECTION_CHARS = 440;

/** A line that starts a block of its own (a list item, a heading, a quote, a table row, a comment), not a paragraph's next line. */
const BLOCK_START = /^(?:[-*+]\s|\d+[.)]\s|#{1,6}\s|>|\||<!--)/;
/** A list item's marker (and a task list's box), left out of the outline. */
const LIST_ITEM = /^(?:[-*+]\s+(?:\[[ xX]\]\s+)?|\d+[.)]\s+)/;
/** Two characters of scripts written without spaces between words (kana, CJK ideographs, Hangul, full-width forms). */
const UNSPACED = /[\u3000-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef]/;

/** A table row's cells, joined: `| PF-1 | Required flags | P1 |` → `PF-1 | Required flags | P1`. */
const rowText = (line: string) => line.replace(/^\||\|$/g, '').trim();

/**
 * The start of a section's text that says something: its first paragraph, with the lines a hard-wrapped paragraph
 * continues on joined — a trial's CM, given the first source line only, read "She builds her own documentation site
 * from the CLI's" as the persona's whole need —, or, for a list, its first items, or for a table, its header and first
 * rows, joined by "; " (`items`: true). A paragraph that ends in a colon introduces the list or table after it, whose
 * items follow it (a React trial's CM saw "Later: Explicitly deferred (P3 Won't for 1.1.0):" and none of what was
 * deferred). List markers, quotes and table pipes at the ends left out; enough text for one outline line
 * (SECTION_CHARS, ITEMS_SECTION_CHARS), the caller clips it.
 */
function opening(body: string): { text: string; items: boolean } {
  const outside = fenceTracker();
  let text = '';
  let table = false;
  let list = false;
  // a blank line after a paragraph ending in a colon: only the list or table it introduces may follow
  let intro = false;
  const leadIn = (line: string) => {
    table = line.startsWith('|');
    list = !table;
    text += ` ${table ? rowText(line) : line.replace(LIST_ITEM, '').trim()}`;
  };
  for (const raw of body.split(/\r?\n/)) {
    const inText = outside(raw);
    const line = raw.trim();
    if (table) {
      // the table goes on while its rows do; the separator row says nothing
      if (!inText || !line.startsWith('|')) break;
      if (isTableSeparator(line)) continue;
      text += `; ${rowText(line)}`;
      if (text.length > ITEMS_SECTION_CHARS) break;
      continue;
    }
    if (list && inText && LIST_ITEM.test(line)) {
      // the list goes on with its next item (a nested one too)
      if (text.length > ITEMS_SECTION_CHARS) break;
      text += `; ${line.replace(LIST_ITEM, '').trim()}`;
      continue;
    }
    if (text) {
      // the paragraph goes on until a blank line, a fence, or a line that starts a block of its own
      if (intro || !inText || !line || /^(```|~~~)/.test(line) || BLOCK_START.test(line)) {
        // a paragraph ending in a colon: the list or table it introduces comes next, blank lines aside
        if (!list && inText && text.endsWith(':')) {
          if (!line) {
            intro = true;
            continue;
          }
          if (LIST_ITEM.test(line) || line.startsWith('|')) {
            leadIn(line);
            continue;
          }
        }
        break;
      }
      text += (UNSPACED.test(text.slice(-1)) && UNSPACED.test(line[0]) ? '' : ' ') + line;
      if (text.length > (list ? ITEMS_SECTION_CHARS : SECTION_CHARS)) break;
      continue;
    }
    if (!inText || !line || /^\|?\s*:?-{3,}/.test(line) || /^<!--/.test(line)) continue;
    if (line.startsWith('|')) {
      text = rowText(line);
      table = !!text;
      continue;
    }
    list = LIST_ITEM.test(line);
    text = line.replace(LIST_ITEM, '').replace(/^>\s*/, '').trim();
  }
  return { text, items: table || list };
}


/**
 * A section's outline line (`## Title: its opening words`, clipped), and what stands for it when its opening gives way
 * to its heading: the bare heading ('' for text before any), with the lines saying what it leaves out.
 */
export interface SectionLine {
  line: string;
  head: string;
  /** It puts work off (PUT_OFF) or says what is left out: its opening gives way last. */
  putOff: boolean;
  /** It lists a backlog's stories (storyItems): what the Definition of Ready checks an objective against; it gives way last too. */
  stories: boolean;
}

/**
 * A paragraph that opens with a bold label starting with an id (`**US-010 — Intersect requirements** · P3 Won't`): a
 * story of a backlog written as paragraphs rather than headings or list items. The label may hold a code span with a
 * star, or a lone star (`**US-004 — Remove \`utm_*\` params**`: a URL library's trial CM never saw that story, the
 * objective's, and called it missing); only `**` ends it.
 */
const ID_LED = /^\*\*([A-Za-z]{1,8}-\d{1,5}\b(?:[^*`\n]|`[^`\n]*`|`(?![^`\n]*`)|\*(?!\*))*)\*\*(.*)$/;

/**
 * The labels of a section's id-led paragraphs (ID_LED, bold markers left out), when it has two or more: a Rust trial's
 * CM, shown an epic's first story alone, said the objective was not on the backlog; it was that epic's second story.
 */
function idLedLabels(body: string): string[] {
  const outside = fenceTracker();
  const labels: string[] = [];
  let blank = true;
  for (const raw of body.split(/\r?\n/)) {
    const inText = outside(raw);
    const line = raw.trim();
    const m = inText && blank ? ID_LED.exec(line) : null;
    if (m) labels.push(`${m[1].trim()}${m[2].trim() ? ` ${m[2].trim()}` : ''}`);
    blank = !line;
  }
  return labels.length >= 2 ? labels : [];
}

/** A table row's first cell that is an id (`US-003`, `PF-12`): a backlog's story row. */
const ID_CELL = /^[A-Za-z]{1,8}-\d{1,5}$/;
/** Characters of one story row in a section's line (its id, what the story wants, its other cells). */
const ID_ROW_CHARS = 90;
/**
 * A user story's want in its own words: `As a firmware developer, I want X, so that Y` → `X` (English's "As a …, I
 * want …, so (that) …", its persona and reason left out, as the outline's room is small); another story as written.
 */
const STORY_WANT = /^As an? [^,]{1,60}, I (?:want|need|would like)(?: to)? (.+?)(?:,? so(?: that)? .*)?$/i;
const storyWant = (cell: string): string => STORY_WANT.exec(cell)?.[1] ?? cell;

/**
 * A section's table rows that start with an id (ID_CELL), each as `US-003 malformed numbers rejected | P1 Should` (the
 * story's want: storyWant; clipped to ID_ROW_CHARS), when it has two or more, outside fenced code: a backlog's stories, when the section
 * opens with a sentence about them rather than the table, or when bold paragraphs after the table repeat the ids
 * alone (`**US-003**` over its criteria) — a cJSON trial's CM saw an epic's ids and no story, and could not tell
 * whether the objective was on the backlog.
 */
function idRows(body: string): string[] {
  const rows: string[] = [];
  for (const [id, ...rest] of tables(body).flat()) {
    const [story, ...others] = rest.filter(Boolean);
    if (ID_CELL.test(id)) rows.push(clip([`${id} ${story ? storyWant(story) : ''}`.trim(), ...others].join(' | '), ID_ROW_CHARS));
  }
  return rows.length >= 2 ? rows : [];
}

/** A section's tables outside fenced code, in order, each its rows' cells, trimmed (the separator row left out). */
function tables(body: string): string[][][] {
  const outside = fenceTracker();
  const found: string[][][] = [];
  let current: string[][] | null = null;
  for (const raw of body.split(/\r?\n/)) {
    const line = raw.trim();
    if (!outside(raw) || !line.startsWith('|')) {
      current = null;
      continue;
    }
    if (!current) found.push((current = []));
    if (!isTableSeparator(line)) current.push(rowText(line).split('|').map((c) => c.trim()));
  }
  return found;
}

/**
 * What stands for a section's stories, when it has them: the labels of its id-led paragraphs that say more than the
 * id (idLedLabels), else its id-led table rows (idRows), else the bare ids of its id-led paragraphs.
 */
function storyItems(body: string): string[] {
  const labels = idLedLabels(body);
  const said = labels.filter((l) => !ID_CELL.test(l));
  if (said.length >= 2) return labels;
  const rows = idRows(body);
  return rows.length ? rows : labels;
}

/** The words that say work is left out or put off (not in this release, out of scope, won't, non-goals, 対象外 …), one list for headings and lines. */
const LEFT_OUT_EN = String.raw`not (?:in|now|planned|included)|out[- ]of[- ]scope|won'?t|non-?goals?|excluded|exclusions|deferred|icebox|parking[- ]lot`;
const LEFT_OUT_JA = '対象外|スコープ外|見送り|後回し|やらないこと';
/**
 * A heading of what is put off or left out: a Later or Won't list, out of scope, non-goals, deferred, the future
 * (Japanese too: 対象外, 将来 …). CM's Definition of Ready fails an objective that takes up such an item, and its items
 * are short: such a section's opening gives way last (fitLines).
 */
const PUT_OFF = new RegExp(String.raw`\b(?:later|future|${LEFT_OUT_EN})\b|${LEFT_OUT_JA}|将来`, 'i');

/**
 * A line of a section's text that says what is left out (`Not in 1.1.0: new screens, new data.`, `**Out of scope:**
 * …`, `- Won't: …`, `対象外: …`), a bold label's markers aside: CM's Definition of Ready fails an objective that takes
 * it up — a React trial's CM, whose outline of "## 1.1.0 — next" stopped at its goal, passed an objective the
 * section's last line put off.
 */
const LEFT_OUT_LINE = new RegExp(String.raw`^(?:[-*+]\s+)?(?:\*\*|__)?(?:(?:${LEFT_OUT_EN})\b|${LEFT_OUT_JA})`, 'i');
/** Such lines a section's outline line adds, and the characters of each. */
const LEFT_OUT_LINES = 2;
const LEFT_OUT_LINE_CHARS = 200;

/** The lines of a section's text that say what is left out (LEFT_OUT_LINE), outside fenced code, emphasis markers left out. */
function leftOutLines(body: string): string[] {
  const outside = fenceTracker();
  const found: string[] = [];
  for (const raw of body.split(/\r?\n/)) {
    if (!outside(raw) || !LEFT_OUT_LINE.test(raw.trim())) continue;
    found.push(clip(raw.trim().replace(LIST_ITEM, '').replace(/\*\*|__/g, ''), LEFT_OUT_LINE_CHARS));
    if (found.length === LEFT_OUT_LINES) break;
  }
  return found;
}

/**
 * A heading of the release being planned (`## 1.7.20 — next`, `## Next release`, as init's milestone file heads it):
 * what the Definition of Ready checks an objective against. A cJSON trial's CM, shown its goal and what it left out,
 * could not see that its feature table listed nothing like the objective, and POA had to find it.
 */
const NEXT_RELEASE = /(?:^|[\s—–:-])next(?: release)?\s*$|^next release\b/i;
/** Names a next release's line lists from its table (its rows' first cells), and the characters of each. */
const PLANNED_NAMES = 8;
const PLANNED_NAME_CHARS = 80;

/**
 * The first column of a section's first table, outside fenced code, as `Feature: A; B; C` (its header cell, then its
 * rows' first cells, PLANNED_NAMES at most); '' without a table.
 */
function tableNames(body: string): string {
  const cells = (tables(body)[0] ?? []).map((row) => clip(row[0], PLANNED_NAME_CHARS));
  if (cells.length < 2) return '';
  const [head, ...rows] = cells;
  const more = rows.length - PLANNED_NAMES;
  return `${head || 'Rows'}: ${rows.slice(0, PLANNED_NAMES).join('; ')}${more > 0 ? `; … (+${more})` : ''}`;
}

/**
 * A file's section lines, whatever the room: fitLines fits them. A section's lines that say what is left out follow
 * its opening (` · Not in 1.1.0: …`), and stay when the opening gives way to the heading; so do a next release's
 * planned items (` · Feature: A; B; C`: tableNames), where its opening is not its table.
 */
export function sectionLines(markdown: string): SectionLine[] {
  const lines: SectionLine[] = [];
  for (const s of splitSections(markdown)) {
    const stories = storyItems(s.body);
    const { text, items } = stories.length ? { text: stories.join('; '), items: true } : opening(s.body);
    const title = s.level ? clip(`${'#'.repeat(s.level)} ${s.title}`, SECTION_CHARS) : '';
    const opened = title && text ? `${title}: ${text}` : title || text;
    if (!opened) continue;
    const line = clip(opened, items ? ITEMS_SECTION_CHARS : SECTION_CHARS);
    // the left-out lines the opening does not already hold; a next release's planned items when its opening is no table
    const planned = NEXT_RELEASE.test(s.title) && !items ? tableNames(s.body) : '';
    const extra = [...(planned ? [planned] : []), ...leftOutLines(s.body)].filter((l) => !line.includes(l.endsWith(CLIP_MARK) ? l.slice(0, -CLIP_MARK.length) : l));
    const more = extra.map((l) => ` · ${l}`).join('');
    lines.push({ line: line + more, head: title && more ? `${title}:${more.slice(2)}` : title, putOff: PUT_OFF.test(title) || extra.length > 0, stories: stories.length > 0 });
  }
  return lines;
}

