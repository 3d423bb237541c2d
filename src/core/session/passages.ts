// The passages of the project's cape/ files that speak most of this session's objective, for the Cape Master's
// opening (its 'cape:passages' source, in the user message after the cache mark: it changes with the objective).
// The opening's outline (outline.ts) shows each section's heading and first words only: in a trial on a URL library
// the objective (strip utm_*, fbclid and gclid) went against the backlog, the design notes and the guideline, which
// all put fbclid off to a later release; CM could not see it and raised nothing, and POA, DA and DevA each asked the
// human again. Here the sections that hold words of the objective are ranked by BM25 over those words (a rare one,
// fbclid, weighs more than url; a long section does not win by bulk), ties as packAssets ranks sections for a work
// (packing.ts relevance), and sent whole, best first, within OBJECTIVE_PASSAGES_CHARS. A section that lists entries (a
// backlog epic's labelled stories, a list's items, a table's rows) is ranked entry by entry, so one
// matching story, item or decision does not bring its whole list (sectionEntries.ts splits a section so). Before
// them, within TITLED_SHARE of the room, go the entries under the headings and labels whose title names the objective
// (passageWords.ts): its own epic and stories, which BM25 alone left out where every file spoke of its topic.
import { withFenceClosed } from '../text';
import { BM25_SHORT_TEXTS, bm25Idf, bm25Tf } from '../workspace/termScoring';
import { clip, clipMarkdown } from './clip';
import { MAX_RANKED, minifyMarkdown, relevance, splitSections, type MdSection } from './packing';
import { matchWords, namingTitles } from './passageWords';
import { entryLabel, renderEntries, sectionEntries, type SectionEntry } from './sectionEntries';

/** Characters of all the passages together, their heading lines included. */
export const OBJECTIVE_PASSAGES_CHARS = 3000;
/** The least room a passage too long to go whole is cut into; with less left, a shorter passage after it may still fit. */
const MIN_CUT_PASSAGE_CHARS = 400;
/** Characters of a passage's heading line (its file and heading path). */
const PASSAGE_HEADING_CHARS = 300;

/** A section's heading path: its parents' titles and its own, joined by "›" ('' for the text before any heading). */
function headingPath(sections: readonly MdSection[], index: number): string {
  const titles: string[] = [];
  for (let i = index; i >= 0; i = sections[i].parent) if (sections[i].title) titles.unshift(sections[i].title);
  return titles.join(' › ');
}

/** Text with every character that is not a letter or a digit left out: how an outline line and a section compare. */
const lettersOnly = (text: string) => text.replace(/[^\p{L}\p{N}]+/gu, '');

interface Passage {
  file: number;
  index: number;
  /** The block's place in its section (storyBlocks), 0 for a section taken whole. */
  block: number;
  /** Its BM25 score for the objective's words it holds (a rare one weighs more; a long block is discounted). */
  shared: number;
  /** Its relevance to the objective (packing.ts), which orders the blocks holding as many of its words. */
  score: number;
  /** Its file and heading path, as the line that heads its section's passage. */
  heading: string;
  text: string;
  /** A table row's header and separator lines, shown once above the rows kept from its table. */
  head?: string;
  /** A list item's or table row's list or table (sectionEntries). */
  group?: number;
}

/**
 * The share of the budget kept first for the entries under the titles that name the objective (passageWords.ts
 * namingTitles: its own epic's heading, its story's label): half, room for an epic's opening and three stories with
 * their criteria, while the entries BM25 ranks keep the other half (the objective's words in the principles, the
 * decisions, the deferrals); what the titled entries leave of it goes to those too.
 */
const TITLED_SHARE = 0.5;

/** A heading's or a labelled entry's title (its words) and the passages under it, in the files' order. */
interface Title {
  words: Set<string>;
  under: () => Passage[];
}

/**
 * The sections of `files` (path as shown → text), or the entries of a section that lists them (sectionEntries),
 * that speak most of `objective`. First, within TITLED_SHARE of `budget`, the entries under the titles that name it
 * (namingTitles), best title first, its entries by their rank below; then those that share a word of it (matchWords),
 * best first by BM25 over its words held and, among equals, by their relevance to it; none twice. Each section's
 * kept blocks go under one line with its file path and heading path, in the section's order, the sections in the
 * order of their first kept block, kept whole while they fit; the first that does not fit is cut at a line end into
 * the room left when that is at least MIN_CUT_PASSAGE_CHARS. A section `outline` already shows whole (its line holds
 * the heading and the whole text) is left out. '' when no section shares a word of the objective or sits under a
 * title that names it.
 */
export function objectivePassages(files: readonly [string, string][], objective: string, outline: string, budget = OBJECTIVE_PASSAGES_CHARS): string {
  const wanted = matchWords(objective);
  if (!wanted.size) return '';
  const score = relevance(objective);
  const outlined = new Set(outline.split('\n').map(lettersOnly));
  // the entries sharing a word of the objective, ranked by BM25 below; the titles over entries, to find those naming it
  const passages: Passage[] = [];
  const titles: Title[] = [];
  // how many entries hold each of the objective's words: a word most entries hold says little of which speak of it
  const held = new Map<string, number>();
  let entries = 0;
  const sharedOf = new Map<Passage, string[]>();
  files.forEach(([rel, text], file) => {
    // a file's first MAX_RANKED sections, as packAssets ranks them
    const sections = splitSections(minifyMarkdown(text)).slice(0, MAX_RANKED);
    const bySection = sections.map(() => [] as Passage[]);
    sections.forEach((s, index) => {
      if (!s.body) return;
      // a section the outline shows whole is counted among the entries, not sent again
      const shown = outlined.has(lettersOnly(s.title + s.body));
      const path = headingPath(sections, index);
      const heading = clip(`### ${rel}${path ? ` › ${path}` : ''}`, PASSAGE_HEADING_CHARS, '…');
      // the title each entry is matched with, bounded as its heading line is: a huge heading over many entries would
      // be read again for each
      const title = s.title.slice(0, PASSAGE_HEADING_CHARS);
      sectionEntries(s.body).forEach(({ text: body, head, group }, block) => {
        const words = matchWords(`${title}\n${body}`);
        const shared = [...wanted].filter((w) => words.has(w));
        entries++;
        for (const w of shared) held.set(w, (held.get(w) ?? 0) + 1);
        if (shown) return;
        const p: Passage = { file, index, block, shared: 0, score: shared.length ? score({ ...s, title, body }) : 0, heading, text: withFenceClosed(body), head, group };
        bySection[index].push(p);
        const label = entryLabel(body);
        if (label) titles.push({ words: matchWords(label.slice(0, PASSAGE_HEADING_CHARS)), under: () => [p] });
        if (!shared.length) return;
        passages.push(p);
        sharedOf.set(p, shared);
      });
    });
    // each heading's title over its section's entries and its subsections'; the file's own title (its one top
    // heading) is over the whole file and names no part of it
    const top = sections.filter((s) => s.title && s.parent < 0);
    sections.forEach((s, index) => {
      if (!s.title || (top.length === 1 && top[0] === s)) return;
      const under = () => {
        const out = [...bySection[index]];
        for (let j = index + 1; j < sections.length && sections[j].level > s.level; j++) out.push(...bySection[j]);
        return out;
      };
      titles.push({ words: matchWords(s.title.slice(0, PASSAGE_HEADING_CHARS)), under });
    });
  });
  // BM25 over the entries, each of the objective's words counted once: a rare word (fbclid) weighs more than one most
  // entries hold (url), and a long entry does not win by holding more words in bulk
  const idf = (w: string) => bm25Idf(entries, held.get(w) ?? 0);
  const avg = passages.reduce((n, p) => n + p.text.length, 0) / Math.max(1, passages.length);
  for (const p of passages) {
    const length = bm25Tf(1, p.text.length, avg, BM25_SHORT_TEXTS.k, BM25_SHORT_TEXTS.b);
    p.shared = sharedOf.get(p)!.reduce((sum, w) => sum + idf(w), 0) * length;
  }
  const order = (a: Passage, b: Passage) => b.shared - a.shared || b.score - a.score || a.file - b.file || a.index - b.index || a.block - b.block;
  passages.sort(order);
  const titled = new Set(namingTitles(titles, wanted, idf).flatMap((t) => t.under().sort(order)));
  // the kept blocks by section, the sections in the order of their first kept block
  const kept = new Map<string, { heading: string; blocks: (SectionEntry & { block: number })[] }>();
  const taken = new Set<Passage>();
  let used = 0;
  const fill = (list: Iterable<Passage>, limit: number) => {
    for (const p of list) {
      if (taken.has(p)) continue;
      const key = `${p.file}:${p.index}`;
      const section = kept.get(key);
      // a new section costs its heading line and the gap before it; another block of one kept, the gap between
      // blocks; an item of a list or a row of a table already shown, its line break only; a table's first row, its
      // header too
      const groupShown = p.group !== undefined && !!section?.blocks.some((b) => b.group === p.group);
      const cost = groupShown ? 1 : (section ? 2 : (kept.size ? 2 : 0) + p.heading.length + 1) + (p.head !== undefined ? p.head.length + 1 : 0);
      const keep = (text: string) => {
        (section ?? kept.set(key, { heading: p.heading, blocks: [] }).get(key)!).blocks.push({ block: p.block, text, head: p.head, group: p.group });
        taken.add(p);
        used += cost + text.length;
      };
      const room = limit - used;
      if (cost + p.text.length <= room) keep(p.text);
      else if (p.group === undefined && room - cost >= MIN_CUT_PASSAGE_CHARS) {
        // a paragraph run is cut at a line end; a list item or table row too long for the room is left for a shorter one
        keep(clipMarkdown(p.text, room - cost));
        return;
      }
    }
  };
  fill(titled, Math.floor(budget * TITLED_SHARE));
  fill(passages, budget);
  return [...kept.values()].map((s) => `${s.heading}\n${renderEntries(s.blocks)}`).join('\n\n');
}
