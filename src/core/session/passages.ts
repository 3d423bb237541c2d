// The passages of the project's cape/ files that speak most of this session's objective, for the Cape Master's
// opening (its 'cape:passages' source, in the user message after the cache mark: it changes with the objective).
// The opening's outline (outline.ts) shows each section's heading and first words only: in a trial on a URL library
// the objective (strip utm_*, fbclid and gclid) went against the backlog, the design notes and the guideline, which
// all put fbclid off to a later release; CM could not see it and raised nothing, and POA, DA and DevA each asked the
// human again. Here the sections that hold words of the objective are ranked, those holding more of them first, then
// as packAssets ranks sections for a work (packing.ts relevance), and sent whole, best first, within
// OBJECTIVE_PASSAGES_CHARS.
import { charBigrams, fenceTracker, withFenceClosed } from '../text';
import { terms } from '../workspace/tokens';
import { clip, clipMarkdown } from './clip';
import { MAX_RANKED, minifyMarkdown, relevance, splitSections, type MdSection } from './packing';

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
  /** How many of the objective's words it holds: a block holding more of them speaks more of the objective. */
  shared: number;
  /** Its relevance to the objective (packing.ts), which orders the blocks holding as many of its words. */
  score: number;
  /** Its file and heading path, as the line that heads its section's passage. */
  heading: string;
  text: string;
}

/** A paragraph that opens with a bold label (`**US-007 — Strip other trackers** · P3`): a story or an entry of its own. */
const LABELLED = /^\*\*[^*\n]+\*\*/;

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

/**
 * The sections of `files` (path as shown → text), or the labelled entries of a section that lists them (storyBlocks),
 * that share a word of `objective` (matchWords): those holding more of its words first and, among those holding as
 * many, by their relevance to it. Each section's kept blocks go under one line with its file path and heading path, in
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
  files.forEach(([rel, text], file) => {
    // a file's first MAX_RANKED sections, as packAssets ranks them
    const sections = splitSections(minifyMarkdown(text)).slice(0, MAX_RANKED);
    sections.forEach((s, index) => {
      if (!s.body || outlined.has(lettersOnly(s.title + s.body))) return;
      const path = headingPath(sections, index);
      const heading = clip(`### ${rel}${path ? ` › ${path}` : ''}`, PASSAGE_HEADING_CHARS, '…');
      storyBlocks(s.body).forEach((body, block) => {
        const words = matchWords(`${s.title}\n${body}`);
        const shared = [...wanted].filter((w) => words.has(w)).length;
        if (shared) passages.push({ file, index, block, shared, score: score({ ...s, body }), heading, text: withFenceClosed(body) });
      });
    });
  });
  passages.sort((a, b) => b.shared - a.shared || b.score - a.score || a.file - b.file || a.index - b.index || a.block - b.block);
  // the kept blocks by section, the sections in the order of their best block
  const kept = new Map<string, { heading: string; blocks: { block: number; text: string }[] }>();
  let room = budget;
  for (const p of passages) {
    const key = `${p.file}:${p.index}`;
    const section = kept.get(key);
    // a new section costs its heading line and the gap before it; another block of one kept, the gap between blocks
    const cost = section ? 2 : (kept.size ? 2 : 0) + p.heading.length + 1;
    if (cost + p.text.length <= room) {
      (section ?? kept.set(key, { heading: p.heading, blocks: [] }).get(key)!).blocks.push({ block: p.block, text: p.text });
      room -= cost + p.text.length;
    } else if (room - cost >= MIN_CUT_PASSAGE_CHARS) {
      (section ?? kept.set(key, { heading: p.heading, blocks: [] }).get(key)!).blocks.push({ block: p.block, text: clipMarkdown(p.text, room - cost) });
      break;
    }
  }
  return [...kept.values()].map((s) => `${s.heading}\n${s.blocks.sort((a, b) => a.block - b.block).map((b) => b.text).join('\n\n')}`).join('\n\n');
}
