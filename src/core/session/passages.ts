// The passages of the project's cape/ files that speak most of this session's objective, for the Cape Master's
// opening (its 'cape:passages' source, in the user message after the cache mark: it changes with the objective).
// The opening's outline (outline.ts) shows each section's heading and first words only: in a trial on a URL library
// the objective (strip utm_*, fbclid and gclid) went against the backlog, the design notes and the guideline, which
// all put fbclid off to a later release; CM could not see it and raised nothing, and POA, DA and DevA each asked the
// human again. Here the sections that hold words of the objective are ranked by BM25 over those words (a rare one,
// fbclid, weighs more than url; a long section does not win by bulk), ties as packAssets ranks sections for a work
// (packing.ts relevance), and sent whole, best first, within OBJECTIVE_PASSAGES_CHARS. A section that lists entries (a
// backlog epic's labelled stories, a list's items, a table's rows) is ranked entry by entry, so one
// matching story, item or decision does not bring its whole list (sectionEntries.ts splits a section so).
import { charBigrams, withFenceClosed } from '../text';
import { BM25_SHORT_TEXTS, bm25Idf, bm25Tf } from '../workspace/termScoring';
import { terms } from '../workspace/tokens';
import { clip, clipMarkdown } from './clip';
import { MAX_RANKED, minifyMarkdown, relevance, splitSections, type MdSection } from './packing';
import { renderEntries, sectionEntries, type SectionEntry } from './sectionEntries';

/** Characters of all the passages together, their heading lines included. */
export const OBJECTIVE_PASSAGES_CHARS = 3000;
/** The least room a passage too long to go whole is cut into; with less left, a shorter passage after it may still fit. */
const MIN_CUT_PASSAGE_CHARS = 400;
/** Characters of a passage's heading line (its file and heading path). */
const PASSAGE_HEADING_CHARS = 300;

/** Runs of a script written without spaces (kanji, katakana and its long-vowel mark, Hangul), two characters or more. */
const UNSPACED_RUN = /[\p{Script=Han}\p{Script=Katakana}\u30fc\p{Script=Hangul}]{2,}/gu;

/**
 * The words a text is matched on: its terms as the workspace ranking reads a request (tokens.ts: stop words out,
 * lightly stemmed) and, for scripts written without spaces, where such a term is a whole phrase, each pair of
 * characters of their kanji, katakana and Hangul runs (hiragana, mostly particles and endings, left out).
 */
function matchWords(text: string): Set<string> {
  const t = text.normalize('NFKC');
  const out = new Set(terms(t));
  for (const run of t.match(UNSPACED_RUN) ?? []) for (const pair of charBigrams(run)) out.add(pair);
  return out;
}

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
 * The sections of `files` (path as shown → text), or the entries of a section that lists them (sectionEntries),
 * that share a word of `objective` (matchWords), best first by BM25 over its words held and, among equals, by their
 * relevance to it. Each section's kept blocks go under one line with its file path and heading path, in
 * the section's order, the sections in the order of their best block, kept whole while they fit in `budget`; the
 * first that does not fit is cut at a line end into the room left when that is at least MIN_CUT_PASSAGE_CHARS. A
 * section `outline` already shows whole (its line holds the heading and the whole text) is left out. '' when no
 * section shares a word of the objective.
 */
export function objectivePassages(files: readonly [string, string][], objective: string, outline: string, budget = OBJECTIVE_PASSAGES_CHARS): string {
  const wanted = matchWords(objective);
  if (!wanted.size) return '';
  const score = relevance(objective);
  const outlined = new Set(outline.split('\n').map(lettersOnly));
  const passages: Passage[] = [];
  // how many entries hold each of the objective's words: a word most entries hold says little of which speak of it
  const held = new Map<string, number>();
  let entries = 0;
  const sharedOf = new Map<Passage, string[]>();
  files.forEach(([rel, text], file) => {
    // a file's first MAX_RANKED sections, as packAssets ranks them
    const sections = splitSections(minifyMarkdown(text)).slice(0, MAX_RANKED);
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
        if (!shared.length || shown) return;
        const p: Passage = { file, index, block, shared: 0, score: score({ ...s, title, body }), heading, text: withFenceClosed(body), head, group };
        passages.push(p);
        sharedOf.set(p, shared);
      });
    });
  });
  // BM25 over the entries, each of the objective's words counted once: a rare word (fbclid) weighs more than one most
  // entries hold (url), and a long entry does not win by holding more words in bulk
  const avg = passages.reduce((n, p) => n + p.text.length, 0) / Math.max(1, passages.length);
  for (const p of passages) {
    const length = bm25Tf(1, p.text.length, avg, BM25_SHORT_TEXTS.k, BM25_SHORT_TEXTS.b);
    p.shared = sharedOf.get(p)!.reduce((sum, w) => sum + bm25Idf(entries, held.get(w)!), 0) * length;
  }
  passages.sort((a, b) => b.shared - a.shared || b.score - a.score || a.file - b.file || a.index - b.index || a.block - b.block);
  // the kept blocks by section, the sections in the order of their best block
  const kept = new Map<string, { heading: string; blocks: (SectionEntry & { block: number })[] }>();
  let room = budget;
  for (const p of passages) {
    const key = `${p.file}:${p.index}`;
    const section = kept.get(key);
    const keep = (text: string) => (section ?? kept.set(key, { heading: p.heading, blocks: [] }).get(key)!).blocks.push({ block: p.block, text, head: p.head, group: p.group });
    // a new section costs its heading line and the gap before it; another block of one kept, the gap between blocks;
    // an item of a list or a row of a table already shown, its line break only; a table's first row, its header too
    const groupShown = p.group !== undefined && !!section?.blocks.some((b) => b.group === p.group);
    const cost = groupShown ? 1 : (section ? 2 : (kept.size ? 2 : 0) + p.heading.length + 1) + (p.head !== undefined ? p.head.length + 1 : 0);
    if (cost + p.text.length <= room) {
      keep(p.text);
      room -= cost + p.text.length;
    } else if (p.group === undefined && room - cost >= MIN_CUT_PASSAGE_CHARS) {
      // a paragraph run is cut at a line end; a list item or table row too long for the room is left for a shorter one
      keep(clipMarkdown(p.text, room - cost));
      break;
    }
  }
  return [...kept.values()].map((s) => `${s.heading}\n${renderEntries(s.blocks)}`).join('\n\n');
}
