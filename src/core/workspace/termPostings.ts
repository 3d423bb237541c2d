// The text index inverted, as the cache file stores it next to the Docs (termDoc.ts): per term id, the files whose
// Doc holds it, each with the fields it is in. A warm one-off query (`cape context`) reads only its own terms'
// postings from the file (storedTerms.ts) instead of loading and checking every Doc: on 50,000 files that is ~24 MB
// it neither reads nor touches. The Docs stay the index's working form (changes, the BM25 re-scoring).
//
// Layout: the postings of term 0, then term 1, …; a term's run is df[t] entries long (every term of a Doc is in its
// content set, which df counts), in file order. An entry is fileIndex << POSTING_SHIFT | its FIELD_* bits.
import { contentStart, docEnd, pathStart, symStart, type FieldBoost } from './termDoc';

export const FIELD_PATH = 1;
export const FIELD_SYMBOLS = 2;
export const FIELD_CONTENT = 4;
export const FIELD_ALL = FIELD_PATH | FIELD_SYMBOLS | FIELD_CONTENT;
export const POSTING_SHIFT = 3;

/** Entries built per pass over the Docs (bounds the memory a cache write adds: 4 bytes each; 32 MB cost a cold build
 * of 50,000 files ~5 MB of peak memory against 8 MB, and one pass over the Docs instead of three, ~100 ms). */
const CHUNK_ENTRIES = 1 << 23;

/** What a term found in the given fields adds per unit of its weight (the one sum both scorings use). */
export function fieldBoostOf(fields: number, boost: FieldBoost): number {
  let b = 0;
  if (fields & FIELD_PATH) b += boost.path;
  if (fields & FIELD_SYMBOLS) b += boost.symbols;
  if (fields & FIELD_CONTENT) b += boost.content;
  return b;
}

/**
 * The postings of serialised Docs (`docs`: one Doc or a [1] placeholder per file, back to back; `df`: per term, the
 * Docs whose content holds it), in pieces of whole terms, each piece built by one pass over the Docs.
 */
export function* postingChunks(docs: Uint32Array, df: Int32Array, chunkEntries = CHUNK_ENTRIES): Generator<Uint32Array> {
  const words = df.length;
  const fields = new Uint8Array(words);
  let t0 = 0;
  while (t0 < words) {
    // the terms of this piece: [t0, t1), at least one
    let entries = df[t0];
    let t1 = t0 + 1;
    while (t1 < words && entries + df[t1] <= chunkEntries) entries += df[t1++];
    const out = new Uint32Array(entries);
    const cursor = new Uint32Array(t1 - t0);
    for (let t = t0 + 1; t < t1; t++) cursor[t - t0] = cursor[t - t0 - 1] + df[t - 1];
    for (let at = 0, file = 0; at < docs.length; at = at + docs[at], file++) {
      if (docs[at] === 1) continue;
      const ys = symStart(docs, at);
      const cs = contentStart(docs, at);
      for (let i = pathStart(at); i < ys; i++) fields[docs[i]] |= FIELD_PATH;
      for (let i = ys; i < cs; i++) fields[docs[i]] |= FIELD_SYMBOLS;
      for (let i = cs, end = docEnd(docs, at); i < end; i++) {
        const id = docs[i];
        if (id >= t0 && id < t1) out[cursor[id - t0]++] = (file << POSTING_SHIFT) | fields[id] | FIELD_CONTENT;
      }
      for (let i = pathStart(at); i < cs; i++) fields[docs[i]] = 0;
    }
    yield out;
    t0 = t1;
  }
}
