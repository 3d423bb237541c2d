// Init's workspace facts (initFacts.ts), the status part: what the project's documentation pages state of its
// status — in maintenance mode, no longer maintained or supported, at its end of life, not accepting new features;
// deprecated; to be removed; experimental — as the sentences that state it (STATUS_WORDS), the strongest first. A
// status the docs state is the project's policy, which every role must know: in two init trials on Python-Markdown,
// whose extension pages say each is in maintenance mode, no fact carried it, the product files never said it, and
// the Product Owner accepted new features for such an extension. The pages are the walk's documentation pages
// (workspace/fileKinds.ts isDocPage) other than release notes (isReleaseNotes: what 2.0 deprecated is no policy of
// today), the first MAX_PAGES by path, read through the walk's reader (the read policy); a page is read outside its
// fenced code, a paragraph's wrapped lines joined (an admonition's indented body too), without Markdown's emphasis,
// links and images. The same sentence on several pages is one line naming the first page and how many more.
import * as path from 'path';
import { isDocPage, isReleaseNotes } from '../workspace/fileKinds';
import { fenceTracker, headingOf, isTableSeparator, LIST_BULLET } from '../text/markdown';
import { lineWithin, oneLine } from '../text/cut';
import { IMAGE, TAG } from './initFactsReadme';
import { linesWithin, type FactSources, type WalkFiles } from './initFactsText';

/** The pages read at most (the first by path), and their characters at most together: the part's work is bounded. */
const MAX_PAGES = 400;
const PAGES_CHARS = 4_000_000;
/** A page's notes at most (its strongest), and a quoted sentence's characters at most, its "…" included. */
const PAGE_NOTES = 2;
const SENTENCE_CHARS = 200;
/** A section title's characters at most in a note's line. */
const HEADING_CHARS = 60;
/**
 * A note's words at least: a shorter one is a label, not a statement — a table of contents'
 * `- [Deprecated](#deprecated)` on commander.js's docs/deprecated.md, a badge's text.
 */
const MIN_WORDS = 3;
/** A note of fewer words than this takes the paragraph's next sentence with it, when both fit in SENTENCE_CHARS. */
const SHORT_WORDS = 8;
/**
 * A task list's item (`- [x] Suspense (Experimental)`, its bullet dropped): a checklist of what is built or to do — a
 * Vue app's README ticked the frameworks it uses, one of them Vue's own experimental feature —, no statement of status.
 */
const TASK_ITEM = /^\[[ xX]\]\s/;
/** A paragraph's characters read at most: the emphasis and sentence rules never run over a page of one long line. */
const PARAGRAPH_CHARS = 4000;

/**
 * The words that state a status, case-insensitive and whole, by class, the strongest first (CLASSES): the project or a
 * part of it stopped — maintenance mode, unmaintained, not or no longer (actively) maintained, no longer supported or
 * developed, end of life or of support, feature-frozen, not accepting new features, pull requests or contributions —
 * then deprecated (deprecation, obsolete), then to be removed, then experimental. The one list of them.
 */
const STATUS_WORDS =
  /\b(?:(?<stopped>maintenance mode|unmaintained|(?:not|no longer) (?:actively )?maintained|no longer (?:supported|developed|under (?:active )?development)|end[- ]of[- ](?:life|support)|feature[- ]frozen|not accepting (?:any )?(?:new )?(?:features?|feature requests|pull requests|contributions))|(?<deprecated>deprecat(?:e|ed|es|ing|ion|ions)|obsolete)|(?<removed>will be removed|(?:is|are) to be removed|(?:scheduled|planned|slated) for removal)|(?<experimental>experimental))\b/gi;
/** STATUS_WORDS' classes, strongest first, and what the part's heading calls each. */
const CLASSES = ['stopped', 'deprecated', 'removed', 'experimental'] as const;
const CLASS_NAMES: Readonly<Record<(typeof CLASSES)[number], string>> = { stopped: 'maintenance', deprecated: 'deprecation', removed: 'removal', experimental: 'experimental' };

/** A line that holds no sentence: an admonition's opening (`!!! warning "Title"`, `??? note`), a `:::` fence, a link definition, a table row. */
const NO_TEXT_LINE = /^(?:[!?]{3}\+?(?:\s|$)|:::|\[[^\]]*\]:|\|)/;
/** A thematic break (`---`, `* * *`), or a setext heading's underline (`====`, `----`) under the line before. */
const RULE_LINE = /^(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,}|=+)$/;
/** A block quote's markers and a GitHub alert's (`> [!WARNING]`), and a list item's bullet. */
const QUOTE_MARK = /^(?:>[ \t]?)+(?:\[![A-Za-z]+\][ \t]*)?/;
const BULLET = new RegExp(String.raw`^(?:${LIST_BULLET})[ \t]+`);

/** A paragraph as one line, and the title of the section it is in ('' before any heading below the page's title). */
interface Paragraph {
  text: string;
  heading: string;
}

/** The lines of a page without its YAML front matter (`---` … `---` at the top). */
function withoutFrontMatter(lines: string[]): string[] {
  if (lines[0]?.trim() !== '---') return lines;
  const end = lines.findIndex((l, i) => i > 0 && (l.trim() === '---' || l.trim() === '...'));
  return end < 0 ? lines : lines.slice(end + 1);
}

/**
 * A page's paragraphs, each as one line: its lines joined, outside fenced code (a fence indented in an admonition's
 * body too), headings, HTML comments, tables, rules and admonitions' openings left out, a block quote's and a list
 * item's markers dropped (each item a paragraph of its own), an indented line read as the text it indents; each with
 * the title of the section it is in (`##` and below, or a setext heading underlined with `---`).
 */
function paragraphsOf(page: string): Paragraph[] {
  const out: Paragraph[] = [];
  let current: string[] = [];
  let heading = '';
  const end = () => {
    if (current.length) out.push({ text: current.join(' ').slice(0, PARAGRAPH_CHARS), heading });
    current = [];
  };
  const outside = fenceTracker();
  let comment = false;
  for (const raw of withoutFrontMatter(page.split(/\r\n?|\n/))) {
    const line = raw.trim().replace(QUOTE_MARK, '').trim();
    if (comment || line.startsWith('<!--')) {
      comment = !line.includes('-->');
      end();
      continue;
    }
    const h = outside(line) && line ? headingOf(line) : null;
    if (h) {
      end();
      // a page's title (its one `#` heading) names the page, not a part of it
      heading = h.level > 1 ? plain(h.title) : '';
      continue;
    }
    if (!outside(line) || !line || NO_TEXT_LINE.test(line) || isTableSeparator(line)) {
      end();
      continue;
    }
    if (RULE_LINE.test(line)) {
      // under a single line, its setext heading's underline: the heading is no sentence (`===` a page's title)
      if (current.length === 1) {
        heading = line.startsWith('-') ? plain(current[0]) : '';
        current = [];
      }
      end();
      continue;
    }
    if (BULLET.test(line)) end();
    current.push(line.replace(BULLET, ''));
  }
  end();
  return out;
}

/** Markdown's links and emphasis, by their text: `[text](url)`, `[text][ref]`, `**x**`, `__x__`, `*x*`, `_x_` (not inside a word: `snake_case`). */
const INLINE_MARKUP: readonly (readonly [RegExp, string])[] = [
  [IMAGE, ''],
  [/\[([^[\]\n]+)\](?:\([^()\n]*\)|\[[^[\]\n]*\])/g, '$1'],
  [TAG, ''],
  [/\*\*([^*\n]+)\*\*/g, '$1'],
  [/(?<![\p{L}\p{N}_])__([^_\n]+)__(?![\p{L}\p{N}_])/gu, '$1'],
  [/\*(?=\S)([^*\n]*[^*\s])\*/g, '$1'],
  [/(?<![\p{L}\p{N}_])_(?=\S)([^_\n]*[^_\s])_(?![\p{L}\p{N}_])/gu, '$1'],
];

/** Inline code: kept as written (`__init__` is no emphasis); a word in it (`deprecated=True`) names code, it states no status. */
const CODE_SPAN = /`[^`\n]*`/g;

/**
 * A paragraph's text as it reads: without links' targets, images, HTML and emphasis markers outside its inline code,
 * its white space one space.
 */
function plain(paragraph: string): string {
  // each code span held by a private-use mark while the markup goes, so a link's text may be code (`[`Extension`](api.md)`)
  const code: string[] = [];
  const held = paragraph.replace(/[\uE000\uE001]/g, '').replace(CODE_SPAN, (span) => `\uE000${code.push(span) - 1}\uE001`);
  const text = INLINE_MARKUP.reduce((t, [markup, by]) => t.replace(markup, by), held);
  return oneLine(text.replace(/\uE000(\d+)\uE001/g, (_, i: string) => code[Number(i)]));
}

/**
 * Where a sentence ends: after `.`, `!` or `?` (and a closing quote or bracket), before a capital, a digit or an
 * opening mark; not after "e.g.", "i.e.", "cf." or "vs.".
 */
const SENTENCE_END = /(?<=[.!?]["')\]]?)(?<!\b(?:[Ee]\.g|[Ii]\.e|[Cc]f|[Vv]s)\.)\s+(?=["'(`[]?[\p{Lu}\p{N}])/u;

/**
 * A runtime, language or platform named just before "end of life" or "end of support": that is its own lifecycle, not
 * the project's status — commander.js's release policy, "We … bump the minimum required node version when LTS Node.js
 * versions reach end-of-life", read as the project stopping. (The project deprecating a platform it supports, "Support
 * for Node.js 16 is deprecated", is its own policy, and still a note.)
 */
const PLATFORM_BEFORE = /(?:\b(?:node(?:\.js)?|python|ruby|php|java|jdk|golang|go \d|rust|deno|bun|electron|lts|ubuntu|debian|windows|macos|ios|android|chrome|firefox|safari|browsers?)|\.net)\b[^.;:]{0,60}$/i;
const LIFECYCLE_END = /^end[- ]of[- ]/i;

/** The strongest class (its index in CLASSES) of the status words a sentence holds outside its code, or -1 for none. */
function rankOf(sentence: string): number {
  let best = -1;
  const text = sentence.replace(CODE_SPAN, '``');
  for (const m of text.matchAll(STATUS_WORDS)) {
    if (LIFECYCLE_END.test(m[0]) && PLATFORM_BEFORE.test(text.slice(0, m.index))) continue;
    const rank = CLASSES.findIndex((c) => m.groups?.[c] !== undefined);
    if (best < 0 || rank < best) best = rank;
  }
  return best;
}

/** A sentence that states a status, and its class (an index in CLASSES). */
interface Note {
  sentence: string;
  rank: number;
  /** The title of the page's section it is in, when it is under one (not the page's title). */
  heading?: string;
}

/** The sentences of a page that state a status: PAGE_NOTES at most, the strongest first, then in the page's order. */
export function pageNotes(page: string): Note[] {
  const notes: Note[] = [];
  for (const { text, heading } of paragraphsOf(page)) {
    if (TASK_ITEM.test(text)) continue;
    const sentences = plain(text).split(SENTENCE_END);
    sentences.forEach((first, i) => {
      const rank = rankOf(first);
      if (rank < 0 || first.split(' ').length < MIN_WORDS) return;
      // a short one is said of what the next goes on about: cJSON's README, under "Makefile", "NOTE: This Method is
      // deprecated. Use CMake if at all possible." — an init trial's model could not tell which method
      const next = sentences[i + 1];
      const sentence = first.split(' ').length < SHORT_WORDS && next && first.length + next.length < SENTENCE_CHARS ? `${first} ${next}` : first;
      if (!notes.some((n) => n.sentence === sentence)) notes.push({ sentence, rank, ...(heading ? { heading } : {}) });
    });
  }
  return notes.sort((a, b) => a.rank - b.rank).slice(0, PAGE_NOTES);
}

/** A sentence and the pages that state it, by path. */
export interface StatusNote extends Note {
  pages: string[];
}

/**
 * The status notes of a walk's documentation pages (see the header), read once per walk: each sentence once (the same
 * in any case), the strongest class first, then those stated on more pages, then by their first page.
 */
function statusNotes({ read, layout }: WalkFiles): StatusNote[] {
  const pages = layout.kept.filter((rel) => isDocPage(rel) && !isReleaseNotes(rel)).sort().slice(0, MAX_PAGES);
  const bySentence = new Map<string, StatusNote>();
  let chars = 0;
  for (const page of pages) {
    const text = chars < PAGES_CHARS ? read(page) : null;
    if (text === null) continue;
    chars += text.length;
    for (const note of pageNotes(text)) {
      const key = note.sentence.toLowerCase();
      const same = bySentence.get(key);
      if (same) same.pages.push(page);
      else bySentence.set(key, { ...note, pages: [page] });
    }
  }
  return [...bySentence.values()].sort((a, b) => a.rank - b.rank || b.pages.length - a.pages.length || (a.pages[0] < b.pages[0] ? -1 : 1));
}

/** The folder all of `pages` are under (`docs/extensions`), '' when they share none. */
function folderOf(pages: readonly string[]): string {
  let folder = path.posix.dirname(pages[0]);
  while (folder !== '.' && !pages.every((p) => p.startsWith(`${folder}/`))) folder = path.posix.dirname(folder);
  return folder === '.' ? '' : folder;
}

/**
 * A note's line: `- docs/deprecated.md: "…"` (`- README.md (section "Makefile"): "…"` under a section), or for a sentence on several pages `- "…" — docs/extensions/abbr.md and
 * 12 more pages under docs/extensions/`.
 */
function noteLine({ sentence, pages, heading }: StatusNote): string {
  const quote = `"${lineWithin(sentence, SENTENCE_CHARS)}"`;
  if (pages.length === 1) return `- ${pages[0]}${heading ? ` (section "${lineWithin(heading, HEADING_CHARS)}")` : ''}: ${quote}`;
  const more = pages.length - 1;
  const folder = folderOf(pages);
  return `- ${quote} — ${pages[0]} and ${more} more page${more === 1 ? '' : 's'}${folder ? ` under ${folder}/` : ''}`;
}

/**
 * The status part within `max` characters, or null when no documentation page states a status; the pages of the notes
 * it shows are added to `sources`.
 */
export function statusPart(walk: WalkFiles, sources: FactSources, max: number): string | null {
  const notes = walk.parsed.of(statusNotes);
  if (!notes.length) return null;
  const named = [...new Set(notes.map((n) => CLASS_NAMES[CLASSES[n.rank]]))];
  const head = `## Status notes in the docs (${named.join(', ')}: the project's stated policy)\n`;
  const text = linesWithin(notes.map(noteLine), max - head.length, ' status notes');
  // linesWithin keeps the first lines: the pages named are those of the lines it kept
  const shown = notes.slice(0, text.split('\n').filter((l) => !l.startsWith('- … ')).length);
  sources.files.push(...new Set(shown.flatMap((n) => n.pages)));
  return head + text;
}
