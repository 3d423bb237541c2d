// The serialised form of the text index (termIndex.ts) as the cache file holds it (indexCache.ts): the vocabulary,
// every file's Doc back to back in the order of the cache's file list, the document frequencies and the words in all.
// This file packs a live index's Docs in that order, and reads them back checking each one (a damaged cache file
// throws here, and the index starts empty).
import { contentStart, HEAD } from './termDoc';
import type { StoredWords } from './vocabulary';
import type { StoredWordsInFile } from './wordsInFile';
import type { StoredTerms } from './storedTerms';

/** A serialised TermIndex (the index's cache file holds it). */
export interface TermIndexData {
  /** The vocabulary, term id order, joined by '\n' (terms never hold one). */
  words: string;
  /** One Doc per path of the order given to serialize(), back to back (see termDoc.ts). */
  docs: Uint32Array;
  /** Per term id, the Docs whose content holds it (restore() checks its length and total against the Docs). */
  df: Int32Array;
  /** Words of all files' capped content (restore() checks it against the Docs). */
  totalLen: number;
  /** The vocabulary's hash table (vocabulary.ts termTable), for a one-off query's look-ups in the cache file. */
  wordTable: Int32Array;
}

/**
 * A TermIndexData as a warm run takes it back from the cache file: the vocabulary still as stored (vocabulary.ts),
 * and the Docs either read (`docs`) or left in the file (`stored`: storedTerms.ts, read when first needed).
 */
export interface RestoredTermIndex extends Omit<TermIndexData, 'words' | 'docs' | 'wordTable'> {
  words: StoredWords | StoredWordsInFile;
  docs: Uint32Array | StoredTerms;
}

/** The sum of stored document frequencies (what the Docs' content sets, or the postings, must add up to); throws on a negative one. */
export function dfTotal(df: Int32Array): number {
  let sum = 0;
  for (let t = 0; t < df.length; t++) {
    if (df[t] < 0) throw new Error('df');
    sum += df[t];
  }
  return sum;
}

/**
 * The Docs of `docs` (each file's offset in `a`, whose [0, used) holds them with `garbage` elements of deleted ones)
 * in the order of `paths`, back to back, [1] for a path without one: the arena itself when it holds exactly those Docs
 * in that order (a build's), else a copy.
 */
export function docsInOrder(a: Uint32Array, used: number, garbage: number, docs: ReadonlyMap<string, number>, paths: readonly string[]): Uint32Array {
  let inPlace = garbage === 0 && docs.size === paths.length;
  let total = 0;
  for (const p of paths) {
    const at = docs.get(p);
    if (at !== total) inPlace = false;
    total += at === undefined ? 1 : a[at];
  }
  if (inPlace) return a.subarray(0, used);
  const out = new Uint32Array(total);
  let k = 0;
  for (const p of paths) {
    const at = docs.get(p);
    if (at === undefined) out[k++] = 1;
    else (out.set(a.subarray(at, at + a[at]), k), (k += a[at]));
  }
  return out;
}

/**
 * Reads the Docs of `a` (back to back, in the order of `paths`) into `docs` (each file's offset in `a`); throws when
 * they are damaged: a Doc's bounds, a term id at or past `words`, elements after the last Doc. Returns where the last
 * Doc ends, the words of all files' capped content and the number of content term ids (what the document
 * frequencies must add up to).
 */
export function readDocs(a: Uint32Array, paths: readonly string[], words: number, docs: Map<string, number>): { end: number; totalLen: number; contentIds: number } {
  let at = 0;
  let totalLen = 0;
  let contentIds = 0;
  let max = -1;
  for (let i = 0; i < paths.length; i++) {
    if (at >= a.length) throw new Error('truncated');
    const len = a[at];
    if (len === 1) {
      at++;
      continue;
    }
    const end = at + len;
    if (len < HEAD || end > a.length || HEAD + a[at + 2] + a[at + 3] > len) throw new Error('bad entry');
    for (let k = at + HEAD; k < end; k++) if (a[k] > max) max = a[k];
    contentIds += end - contentStart(a, at);
    docs.set(paths[i], at);
    totalLen += a[at + 1];
    at = end;
  }
  if (at !== a.length) throw new Error('trailing');
  if (max >= words) throw new Error('bad term id');
  return { end: at, totalLen, contentIds };
}
