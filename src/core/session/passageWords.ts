// The words the objective's passages (passages.ts) are matched on: a text's words (matchWords), and which titles of
// the cape/ files — a heading, a story's or a list item's bold label — name the objective (namingTitles). A title is
// read by the share of its own words the objective holds, not by BM25 over the entries: in two trials the objective's
// own epic ("Option deprecation", "Tracking parameters") held only the topic's words, which every file spoke of, and
// its stories, which hold the acceptance criteria, lost to short lines elsewhere holding the objective's rarer verbs.
import { charBigrams } from '../text';
import { bm25Idf } from '../workspace/termScoring';
import { terms } from '../workspace/tokens';

/** Runs of a script written without spaces (kanji, katakana and its long-vowel mark, Hangul), two characters or more. */
const UNSPACED_RUN = /[\p{Script=Han}\p{Script=Katakana}\u30fc\p{Script=Hangul}]{2,}/gu;

/**
 * The words a text is matched on: its terms as the workspace ranking reads a request (tokens.ts: stop words out,
 * lightly stemmed) and, for scripts written without spaces, where such a term is a whole phrase, each pair of
 * characters of their kanji, katakana and Hangul runs (hiragana, mostly particles and endings, left out).
 */
export function matchWords(text: string): Set<string> {
  const t = text.normalize('NFKC');
  const out = new Set(terms(t));
  for (const run of t.match(UNSPACED_RUN) ?? []) for (const pair of charBigrams(run)) out.add(pair);
  return out;
}

/** The least characters two words begin with alike to be read as forms of one word. */
const ROOT_CHARS = 5;

/**
 * True when two words are forms of one word the stemmer (tokens.ts) leaves apart: equal, or alike in their first
 * ROOT_CHARS characters or more and in all but the last two of the shorter one's at least — "deprecat" (deprecated)
 * and deprecation, "track" (tracking) and tracker, but not "mark" and markdown.
 */
export function sameRoot(a: string, b: string): boolean {
  if (a === b) return true;
  const shorter = Math.min(a.length, b.length);
  let n = 0;
  while (n < shorter && a[n] === b[n]) n++;
  return n >= ROOT_CHARS && n >= shorter - 2;
}

/** The least share of a title's words, by weight, that must be the objective's for the title to name it. */
const TITLE_SHARE = 0.5;
/**
 * The least of the objective's words a title must hold to name it (all of them when it has fewer): one ("Options",
 * "Notes") names the objective's topic, which every file of a project may speak of, not the objective.
 */
const TITLE_WORDS = 2;

const sum = (words: readonly string[], weight: (word: string) => number) => words.reduce((n, w) => n + weight(w), 0);

/**
 * The titles of `titles` (each with its words, matchWords) that name the objective whose words are `wanted`, best
 * first. A title names it when TITLE_WORDS of its words or more are the objective's (a form of the same word
 * counting: sameRoot) and make TITLE_SHARE or more of its words, each word weighted by how few of the titles hold it
 * (Epic, Story, which most titles of a backlog hold, weigh little); a word with a digit the objective does not hold is
 * a label's id (E1, US-006, ADR-3), left out. A title holding none of the objective's words ("Backlog") never names
 * it. They rank by that share times the `weight` of the objective's words they hold (a rare one weighs more).
 */
export function namingTitles<T extends { words: ReadonlySet<string> }>(titles: readonly T[], wanted: ReadonlySet<string>, weight: (word: string) => number): T[] {
  // the objective's words by their first ROOT_CHARS characters, where a form of one of them begins alike
  const byRoot = new Map<string, string[]>();
  for (const o of wanted) {
    const root = o.slice(0, ROOT_CHARS);
    if (o.length >= ROOT_CHARS) byRoot.set(root, [...(byRoot.get(root) ?? []), o]);
  }
  /** The objective's words `w` is a form of (sameRoot): its own alone when shorter than ROOT_CHARS; once a word. */
  const forms = new Map<string, string[]>();
  const formsOf = (w: string) => {
    let out = forms.get(w);
    if (!out) forms.set(w, (out = (byRoot.get(w.slice(0, ROOT_CHARS)) ?? (wanted.has(w) ? [w] : [])).filter((o) => sameRoot(w, o))));
    return out;
  };
  const own = titles.map((t) => [...t.words].filter((w) => !/\d/.test(w) || wanted.has(w)));
  const df = new Map<string, number>();
  for (const words of own) for (const w of words) df.set(w, (df.get(w) ?? 0) + 1);
  const rarity = (w: string) => bm25Idf(titles.length, df.get(w)!);
  const named: { title: T; score: number; at: number }[] = [];
  own.forEach((words, at) => {
    const theirs = words.filter((w) => formsOf(w).length);
    if (theirs.length < Math.min(TITLE_WORDS, wanted.size)) return;
    const share = sum(theirs, rarity) / sum(words, rarity);
    if (share >= TITLE_SHARE) named.push({ title: titles[at], score: share * sum([...new Set(theirs.flatMap(formsOf))], weight), at });
  });
  return named.sort((a, b) => b.score - a.score || a.at - b.at).map((n) => n.title);
}
