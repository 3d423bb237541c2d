// What two KPT items are compared by (grouping.ts groups them): an item normalised (NFKC, tag and details removed, its
// core before a dash), then its features — character bigrams for text in a script written without spaces (Japanese,
// Chinese, Korean), content words for the others (function words out, lightly stemmed, a file name one word without
// its extension) — and the Dice coefficient over them. RR's acceptance criteria are compared by the same bigrams over
// their whole text (normaliseWholeText: the details KPT grouping drops are what tells two criteria apart).
import { TAG_RE } from './document';
import { charBigrams } from '../text';
import { trimmedEnd } from '../text/blanks';
import { sliceWhole } from '../text/cut';

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
  return normalised(text).norm;
}

const squash = (s: string): string => s.toLowerCase().replace(/[\p{P}\p{S}\p{Z}\s]+/gu, '');

/**
 * normaliseKptText's result (norm), and the text it was squashed from, spaces kept (core): the item's core, or the
 * whole text when the core is too short. Content words are read from `core`, so both come from one pass.
 */
export function normalised(text: string): { norm: string; core: string } {
  const base = withoutLabels(compared(text).replace(TAG_RE, ''));
  let core = beforeElaboration(base);
  for (let prev = ''; prev !== core; ) {
    prev = core;
    core = core.replace(/\([^()]*\)|\[[^\[\]]*\]/g, ' ');
  }
  const squashedCore = squash(core);
  if (Array.from(squashedCore).length >= MIN_CORE_CHARS) return { norm: squashedCore, core };
  return { norm: squashedWhole(base, text), core: base };
}

/** `text` with each `【label】` (its 【 to the first 】 after it) a space, in one pass. */
function withoutLabels(text: string): string {
  let out = '';
  let at = 0;
  for (let open = text.indexOf('【'); open !== -1; open = text.indexOf('【', at)) {
    const close = text.indexOf('】', open + 1);
    if (close === -1) break; // nor has any later 【
    out += `${text.slice(at, open)} `;
    at = close + 1;
  }
  return out + text.slice(at);
}

/** A dash that starts an item's elaboration: `—`, `―` (doubled or not), or `-`, `--` between spaces. */
const ELABORATION_DASH = /[\u2014\u2015]|(?<=\s)--?(?=\s)/;

/**
 * The text before the first elaboration dash and the spaces before it. Found by the dash, then the spaces walked
 * back: one regex with the spaces in it was retried from each space of a long run.
 */
function beforeElaboration(text: string): string {
  const m = ELABORATION_DASH.exec(text);
  if (!m) return text;
  return text.slice(0, trimmedEnd(text, m.index));
}

/**
 * The part of an item compared, NFKC: a KPT item is a sentence or two; past MAX_COMPARED_CHARS the text adds nothing
 * to what it is about, and nested brackets (removed one level per pass in normalised) would cost length × depth.
 */
const compared = (text: string): string => sliceWhole(text, 0, MAX_COMPARED_CHARS).normalize('NFKC');

/** `base` squashed; all punctuation and symbols (e.g. "!!!"): the text itself rather than an empty string. */
const squashedWhole = (base: string, text: string): string => squash(base) || text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * The whole text squashed as normaliseKptText squashes an item's core, with nothing cut: no tag, dash elaboration or
 * bracketed detail removed. For texts told apart by those details: RR's acceptance criteria ("Login form — shows an
 * error" and "Login form — redirects" are two criteria, not one item told twice).
 */
function normaliseWholeText(text: string): string {
  return squashedWhole(compared(text), text);
}

/** Scripts written without spaces between words: their items are compared by character bigrams. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

/** Characters of an item that grouping compares (see normalised). */
const MAX_COMPARED_CHARS = 1000;

/** An English negation: an item with one never groups with an item without (groupKpt). */
export const NEGATION = /\b(?:not|no|never|without|cannot|avoid|stop)\b|n['’]t\b/i;

/** English function words: they say nothing of what an item is about. */
const FUNCTION_WORDS = new Set(
  (
    'a an the and or but nor so yet of to in on at by for from with without into onto over under about as than then ' +
    'is are was were be been being am do does did done has have had having it its this that these those there here ' +
    'we our us you your they their them he she his her i my me not no any all each every some such which who whom ' +
    'whose what when where why how can could may might must shall should will would also only just very too more most ' +
    'before after again once while if because though although until'
  ).split(' '),
);

/** A light English stem: plural and verb endings off, so "tests"/"test" and "ran"…"runs" partly meet. */
function stem(w: string): string {
  if (w.length > 4 && w.endsWith('ies')) return w.slice(0, -3) + 'y';
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith('ed')) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

/**
 * What two items are compared by (distinct strings): the character bigrams of normaliseKptText for an item with
 * characters of an unspaced script, else its content words (the same core, lower case, function words left out,
 * lightly stemmed, each prefixed so it never meets a bigram); the bigrams again when no content word is left.
 */
export function kptFeatures(text: string): string[] {
  return featuresOf(normalised(text));
}

/** A word, with the dotted parts of a file name or version kept on it ("readme.md", "v1.2"). */
const WORD = /[\p{L}\p{N}]+(?:\.[\p{L}\p{N}]+)*/gu;
/** A file name's extension: dropped, so "CHANGELOG.md" is about the changelog, and "README.md" does not meet it. */
const FILE_EXTENSION = /\.\p{L}{1,4}$/u;

export function featuresOf({ norm, core }: { norm: string; core: string }): string[] {
  if (UNSPACED.test(norm)) return bigrams(norm);
  const words = new Set<string>();
  for (const token of core.toLowerCase().match(WORD) ?? []) {
    const w = token.replace(FILE_EXTENSION, '');
    if (!FUNCTION_WORDS.has(w)) words.add(`\u0001${stem(w)}`);
  }
  return words.size ? [...words] : bigrams(norm);
}

/** Dice coefficient of two items over their features (kptFeatures): the similarity grouping uses. */
export function kptSimilarity(a: string, b: string): number {
  return dice(kptFeatures(a), kptFeatures(b));
}

/** Dice coefficient of two lists of distinct features. */
function dice(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  const A = new Set(a);
  let inter = 0;
  for (const g of b) if (A.has(g)) inter++;
  return (2 * inter) / (a.length + b.length);
}

/** Distinct character bigrams (code points, so surrogate pairs stay whole); a 1-char string yields itself. */
export function bigrams(s: string): string[] {
  return [...charBigrams(s)];
}

/**
 * Dice coefficient of two strings over their character-bigram sets, after normaliseKptText (a KPT item's core), or
 * after normaliseWholeText with `whole` (the whole text compared).
 */
export function diceSimilarity(a: string, b: string, opts: { whole?: boolean } = {}): number {
  const norm = opts.whole ? normaliseWholeText : normaliseKptText;
  return dice(bigrams(norm(a)), bigrams(norm(b)));
}
