// The workspace's text index, made light enough for monorepos (50,000 files in a few seconds and well under 300 MB):
// per file it keeps only the SET of terms (ids into one vocabulary) of its path, its symbols and the first
// CONTENT_CAP characters of its content, plus the content's length in terms; no positions, no frequencies, no text.
//
// Ranking is two-stage:
//  1. every file gets a cheap score from the term sets: Σ idf(t) × (path, symbol, content field boosts);
//  2. the best CANDIDATES of stage 1 are read from disk (lazily, only for this query) and scored by BM25+ with term
//     frequencies and length normalisation per field — what a full-text engine would compute for them.
// Terms are tokens.ts's terms() (identifier parts, stemmed, stop words dropped), so the index and the query speak the
// same words. terms() works word by word, so indexing splits the text into raw words itself (a char-code scanner, no
// regex split, no substring per word) and memoises each raw word's term ids in a hash table compared in place
// (WordMemo): most words of code are repeats. Why not minisearch any more: its inverted index with per-document
// frequencies took ~300 MB and ~25 s for 5,000 files here, and most of that content is never the answer.
import { grow, hashKey, hashRange, KeyTable, TextWords, WordMemo } from './charTables';
import { asciiParts, normalizeTerm, terms, WHOLE_MAX, wordTerms } from './tokens';

/** Content characters that go into a file's term set (the whole file is still read when it is a candidate). */
export const CONTENT_CAP = 64_000;
/** Files re-scored with frequencies in stage 2. */
const CANDIDATES = 400;
/** BM25+ parameters: less length normalisation than the usual b = 0.75 (in code the longer file is more often the
 * one a change touches), and BM25+'s lower bound d for any matching term. */
const BM25 = { k: 1.2, b: 0.4, d: 0.5 };
/** Raw words memoised while indexing (the memo starts over when full). */
const MEMO_MAX = 1 << 18;
/** Vocabulary look-ups answered by searching the restored terms' string before a hash table over it pays. */
const SCAN_LOOKUPS = 200;

export type Field = 'path' | 'symbols' | 'content';

/** One query's terms by string (term → id), and raw words already split into the query's term ids. */
interface QueryWords {
  query: ReadonlyMap<string, number>;
  raw: Map<string, number[]>;
}
export type FieldBoost = Record<Field, number>;

/**
 * One file's entry, in one typed array (a few hundred thousand small objects would weigh more than the ids):
 * [words in the capped content, path terms P, symbol terms S, …P path ids, …S symbol ids, …content ids].
 */
type Doc = Uint32Array;
const HEAD = 3;
const symStart = (d: Doc) => HEAD + d[1];
const contentStart = (d: Doc) => HEAD + d[1] + d[2];

/** A serialised TermIndex (the index's cache file holds it): one Doc per given path, back to back. */
export interface TermIndexData {
  /** The vocabulary, term id order, joined by '\n' (terms never hold one). */
  words: string;
  /** Per path of the order given to serialize(), the length of its Doc (0: no entry). */
  lens: Uint32Array;
  /** The Docs, back to back. */
  ids: Uint32Array;
}

/** ASCII characters of a word: what tokens.ts's split leaves together (letters, digits, `_`, `$`). */
const ASCII_WORD = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII_WORD[c] = /[A-Za-z0-9_$]/.test(String.fromCharCode(c)) ? 1 : 0;
/** Per BMP code point above ASCII: 0 not looked at yet, 1 a letter or digit (part of a word), 2 not. */
const BMP_WORD = new Uint8Array(0x10000);
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
function isWordCodePoint(cp: number): boolean {
  if (cp < 0x10000) {
    let k = BMP_WORD[cp];
    if (!k) BMP_WORD[cp] = k = LETTER_OR_DIGIT.test(String.fromCharCode(cp)) ? 1 : 2;
    return k === 1;
  }
  return LETTER_OR_DIGIT.test(String.fromCodePoint(cp));
}

/**
 * The vocabulary: term ↔ id. Terms restored from a cache file stay in one string (no Map of hundreds of thousands of
 * strings to rebuild per run); a hash table over it is built when many look-ups come (indexing), a few (a query) just
 * search the string. New terms go to a KeyTable (characters in one pool, no string per term). Look-ups take the term
 * as a string, or as characters in a scratch array (indexing: no string per word).
 */
class Vocabulary {
  private loaded = '';
  private loadedCount = 0;
  private offsets: Uint32Array | null = null;
  private table: Int32Array | null = null;
  private added = new KeyTable();
  private lookups = 0;
  private key = new Uint16Array(64);

  get size(): number {
    return this.loadedCount + this.added.count;
  }

  restore(words: string): void {
    this.loaded = words;
    this.loadedCount = words ? 1 : 0;
    for (let i = words.indexOf('\n'); i >= 0; i = words.indexOf('\n', i + 1)) this.loadedCount++;
    this.offsets = null;
    this.table = null;
    this.lookups = 0;
    this.added = new KeyTable();
  }

  /** Where each restored term starts in `loaded` (entry n: one past the end). */
  private starts(): Uint32Array {
    if (this.offsets) return this.offsets;
    const n = this.loadedCount;
    const offsets = new Uint32Array(n + 1);
    const w = this.loaded;
    let id = 1;
    for (let i = w.indexOf('\n'); i >= 0; i = w.indexOf('\n', i + 1)) offsets[id++] = i + 1;
    offsets[n] = w.length + 1;
    return (this.offsets = offsets);
  }

  private index(): Int32Array {
    const n = this.loadedCount;
    const offsets = this.starts();
    const w = this.loaded;
    let size = 1024;
    while (size < n * 2) size *= 2;
    const table = new Int32Array(size);
    const mask = size - 1;
    for (let t = 0; t < n; t++) {
      let s = hashRange(w, offsets[t], offsets[t + 1] - 1) & mask;
      while (table[s]) s = (s + 1) & mask;
      table[s] = t + 1;
    }
    return (this.table = table);
  }

  /** The id of a restored term by a plain search of `loaded` (no table: a query looks up a few dozen terms). */
  private scan(term: string): number | undefined {
    const w = this.loaded;
    for (let at = w.indexOf(term); at >= 0; at = w.indexOf(term, at + 1)) {
      const end = at + term.length;
      if ((at === 0 || w.charCodeAt(at - 1) === 10) && (end === w.length || w.charCodeAt(end) === 10)) {
        // the id is the number of terms before: binary search of the starts
        const offsets = this.starts();
        let lo = 0;
        let hi = this.loadedCount - 1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (offsets[mid] <= at) lo = mid;
          else hi = mid - 1;
        }
        return lo;
      }
    }
    return undefined;
  }

  /** The term's characters in the scratch key; returns their number. */
  private toKey(term: string): number {
    this.key = grow(this.key, term.length);
    for (let i = 0; i < term.length; i++) this.key[i] = term.charCodeAt(i);
    return term.length;
  }

  /** The id of a term, or undefined. */
  get(term: string): number | undefined {
    // the first look-ups search the string; many (indexing changed files) build the table once
    if (this.loadedCount && !this.table && ++this.lookups <= SCAN_LOOKUPS) {
      const id = this.scan(term);
      if (id !== undefined) return id;
      if (!this.added.count) return undefined;
      const len = this.toKey(term);
      const e = this.added.find(this.key, len, hashKey(this.key, len));
      return e < 0 ? undefined : this.loadedCount + e;
    }
    const len = this.toKey(term);
    const id = this.getKey(this.key, len, hashKey(this.key, len));
    return id < 0 ? undefined : id;
  }

  /** The id of the term key[0, len) (hash h), or -1; a miss leaves the new-term table ready for addKey(). */
  getKey(key: Uint16Array, len: number, h: number): number {
    if (this.loadedCount) {
      const table = this.table ?? this.index();
      const offsets = this.offsets!;
      const w = this.loaded;
      const mask = table.length - 1;
      for (let s = h & mask; table[s]; s = (s + 1) & mask) {
        const t = table[s] - 1;
        const off = offsets[t];
        if (offsets[t + 1] - 1 - off !== len) continue;
        let i = 0;
        while (i < len && w.charCodeAt(off + i) === key[i]) i++;
        if (i === len) return t;
      }
    }
    const e = this.added.find(key, len, h);
    return e < 0 ? -1 : this.loadedCount + e;
  }

  /** The id of the term key[0, len) (hash h), added when new. */
  idOfKey(key: Uint16Array, len: number, h: number): number {
    const id = this.getKey(key, len, h);
    return id >= 0 ? id : this.loadedCount + this.added.add(key, len, h);
  }

  /** The id of a term, added when new. */
  idOf(term: string): number {
    const len = this.toKey(term);
    return this.idOfKey(this.key, len, hashKey(this.key, len));
  }

  /** The term of an id. */
  term(id: number): string {
    if (id >= this.loadedCount) return this.added.key(id - this.loadedCount);
    const offsets = this.starts();
    return this.loaded.slice(offsets[id], offsets[id + 1] - 1);
  }

  /** Every term, id order, joined by '\n' (KeyTable.SEP). */
  serialize(): string {
    if (!this.added.count) return this.loaded;
    const more = this.added.joined();
    return this.loadedCount ? this.loaded + '\n' + more : more;
  }
}

export class TermIndex {
  private vocab = new Vocabulary();
  private df = new Int32Array(1024);
  private readonly docs = new Map<string, Doc>();
  private totalLen = 0;
  private memo = new WordMemo(MEMO_MAX);
  /** Lower-cased ASCII identifier part → its term id, or -1 for none (stop word, number, too short or long). */
  private parts = new KeyTable();
  private partIds = new Int32Array(1024);
  /** Per term id, the last collect() call that saw it. */
  private mark = new Int32Array(1024);
  private stamp = 0;
  /** The ids collect() collects. */
  private ids = new Uint32Array(4096);
  /** The number of words of the text collect() saw last. */
  private wordCount = 0;
  /** words()'s output: each word of the text, in order, with the hash of its characters. */
  private wordStarts = new Int32Array(1024);
  private wordStops = new Int32Array(1024);
  private wordHashes = new Int32Array(1024);
  private textWords = new TextWords();
  /** Scratch of wordIds(): the term ids of one word, the cuts of its parts, a term's characters. */
  private one = new Uint32Array(64);
  private cuts = new Int32Array(128);
  private key = new Uint16Array(64);

  get size(): number {
    return this.docs.size;
  }

  /** Makes room for a term id in the per-term arrays. */
  private room(id: number): number {
    if (id >= this.df.length) {
      this.df = grow(this.df, id + 1);
      this.mark = grow(this.mark, id + 1);
    }
    return id;
  }

  private idOf(term: string): number {
    return this.room(this.vocab.idOf(term));
  }

  /**
   * Splits text[0, end) into raw words exactly as tokens.ts's terms() does (runs of letters, digits, `_`, `$`): their
   * bounds and hashes go to wordStarts / wordStops / wordHashes; returns their number.
   */
  private words(text: string, end: number): number {
    let n = 0;
    let i = 0;
    // a text of c characters has at most c / 2 + 1 words
    if (this.wordStarts.length < (end >> 1) + 1) {
      const want = (end >> 1) + 1;
      this.wordStarts = grow(this.wordStarts, want);
      this.wordStops = grow(this.wordStops, want);
      this.wordHashes = grow(this.wordHashes, want);
    }
    const starts = this.wordStarts;
    const stops = this.wordStops;
    const hashes = this.wordHashes;
    while (i < end) {
      let c = text.charCodeAt(i);
      if (c < 128 ? !ASCII_WORD[c] : !this.wordAt(text, i, end)) {
        i += c >= 0xd800 && c < 0xdc00 && i + 1 < end && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
        continue;
      }
      const start = i;
      let h = 0x811c9dc5;
      while (i < end) {
        c = text.charCodeAt(i);
        if (c < 128) {
          if (!ASCII_WORD[c]) break;
          h = Math.imul(h ^ c, 0x01000193);
          i++;
        } else {
          const w = this.wordAt(text, i, end);
          if (!w) break;
          for (let k = 0; k < w; k++) h = Math.imul(h ^ text.charCodeAt(i + k), 0x01000193);
          i += w;
        }
      }
      starts[n] = start;
      stops[n] = i;
      hashes[n++] = h | 0;
    }
    return n;
  }

  /** The UTF-16 length of the word character at i (1 or 2), or 0 when it is not one. */
  private wordAt(text: string, i: number, end: number): number {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < end) {
      const d = text.charCodeAt(i + 1);
      if ((d & 0xfc00) === 0xdc00) return isWordCodePoint(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000) ? 2 : 0;
    }
    return isWordCodePoint(c) ? 1 : 0;
  }

  /** The distinct words of the `words` words() just found in the text, with their counts. */
  private distinct(text: string, words: number): TextWords {
    const set = this.textWords;
    set.reset(words);
    for (let w = 0; w < words; w++) set.add(text, this.wordStarts[w], this.wordStops[w], this.wordHashes[w]);
    return set;
  }

  /**
   * The term ids of the word text[start, stop) in `one` (returns their number): wordTerms() through the vocabulary,
   * new terms added. An ASCII word (nearly all of code) is split in place, its parts looked up by their characters
   * (each distinct part normalised once), so no string is made unless a part or a whole identifier is new.
   */
  private wordIds(text: string, start: number, stop: number): number {
    let ascii = true;
    for (let i = start; i < stop && ascii; i++) ascii = text.charCodeAt(i) < 128;
    if (!ascii) {
      const ts = wordTerms(text.slice(start, stop));
      this.one = grow(this.one, ts.length);
      for (let i = 0; i < ts.length; i++) this.one[i] = this.idOf(ts[i]);
      return ts.length;
    }
    // wordTerms(): the word without leading and trailing `_` / `$`, its parts, then the whole when it has several
    let a = start;
    let b = stop;
    while (a < b && (text.charCodeAt(a) === 95 || text.charCodeAt(a) === 36)) a++;
    while (b > a && (text.charCodeAt(b - 1) === 95 || text.charCodeAt(b - 1) === 36)) b--;
    if (a === b) return 0;
    this.cuts = grow(this.cuts, 2 * (b - a));
    this.key = grow(this.key, b - a);
    this.one = grow(this.one, b - a + 1);
    const cuts = this.cuts;
    const key = this.key;
    const parts = asciiParts(text, a, b, cuts);
    let n = 0;
    for (let p = 0; p < parts; p++) {
      const from = cuts[2 * p];
      const len = cuts[2 * p + 1] - from;
      // normalizeTerm() drops one-letter and over-long words and numbers before looking further
      if (len < 2 || len > 40) continue;
      let digits = true;
      for (let i = 0; i < len; i++) {
        const c = text.charCodeAt(from + i);
        key[i] = c >= 65 && c <= 90 ? c + 32 : c;
        if (c < 48 || c > 57) digits = false;
      }
      if (digits) continue;
      const h = hashKey(key, len);
      let e = this.parts.find(key, len, h);
      if (e < 0) {
        e = this.parts.add(key, len, h);
        const t = normalizeTerm(text.slice(from, from + len));
        this.partIds = grow(this.partIds, e + 1);
        // (idOf uses the vocabulary's own scratch: `key` is not needed any more)
        this.partIds[e] = t === null ? -1 : this.idOf(t);
      }
      const id = this.partIds[e];
      if (id >= 0) this.one[n++] = id;
    }
    if (parts > 1 && b - a <= WHOLE_MAX) {
      let len = 0;
      for (let i = a; i < b; i++) {
        const c = text.charCodeAt(i);
        if (c === 95 || c === 36 || c === 45) continue;
        key[len++] = c >= 65 && c <= 90 ? c + 32 : c;
      }
      this.one[n++] = this.room(this.vocab.idOfKey(key, len, hashKey(key, len)));
    }
    return n;
  }

  /**
   * Appends to `ids`, from position `at`, the distinct term ids in order of first appearance of ids[from, to) (each
   * distinct already) followed by those of the text's first CONTENT_CAP characters; returns where they end. The
   * number of words of the text goes to `textWords`.
   */
  private collect(text: string, at: number, from = 0, to = 0): number {
    const stamp = ++this.stamp;
    this.mark = grow(this.mark, this.vocab.size);
    this.ids = grow(this.ids, at + to - from);
    let k = at;
    for (let i = from; i < to; i++) {
      const id = this.ids[i];
      if (this.mark[id] !== stamp) (this.mark[id] = stamp), (this.ids[k++] = id);
    }
    const words = this.words(text, Math.min(text.length, CONTENT_CAP));
    this.wordCount = words;
    // the distinct words first: a small table that stays in the processor's cache, then one memo look-up for each
    const set = this.distinct(text, words);
    const starts = set.starts;
    const stops = set.stops;
    const hashes = set.hashes;
    const memo = this.memo;
    for (let w = 0; w < set.size; w++) {
      const start = starts[w];
      const stop = stops[w];
      const h = hashes[w];
      let e = memo.find(text, start, stop, h);
      if (e < 0) {
        const n = this.wordIds(text, start, stop);
        e = memo.add(text, start, stop, h, this.one, n);
      }
      const pool = memo.pool;
      const end = memo.idsEnd(e);
      this.ids = grow(this.ids, k + end - memo.idsStart(e));
      const ids = this.ids;
      const mark = this.mark;
      for (let i = memo.idsStart(e); i < end; i++) {
        const id = pool[i];
        if (mark[id] !== stamp) (mark[id] = stamp), (ids[k++] = id);
      }
    }
    return k;
  }

  /** Indexes (or re-indexes) one file. */
  set(rel: string, symbols: string[], content: string): void {
    this.delete(rel);
    // the Doc is put together in `ids` and copied out once
    const pathEnd = this.collect(rel, HEAD);
    const symbolsEnd = this.collect(symbols.join(' '), pathEnd);
    // the content set holds the path's and symbols' terms too: df counts a file once per term
    const end = this.collect(content, symbolsEnd, HEAD, symbolsEnd);
    this.ids[0] = this.wordCount;
    this.ids[1] = pathEnd - HEAD;
    this.ids[2] = symbolsEnd - pathEnd;
    this.add(rel, this.ids.slice(0, end));
  }

  /** The terms of a file's path, symbols and content as the index holds them (for tests and diagnostics). */
  termsOf(rel: string): Record<Field, string[]> | undefined {
    const doc = this.docs.get(rel);
    if (!doc) return undefined;
    const list = (a: number, b: number) => Array.from(doc.subarray(a, b), (id) => this.vocab.term(id));
    return { path: list(HEAD, symStart(doc)), symbols: list(symStart(doc), contentStart(doc)), content: list(contentStart(doc), doc.length) };
  }

  private add(rel: string, doc: Doc): void {
    this.docs.set(rel, doc);
    this.totalLen += doc[0];
    for (let i = contentStart(doc); i < doc.length; i++) this.df[doc[i]]++;
  }

  delete(rel: string): void {
    const doc = this.docs.get(rel);
    if (!doc) return;
    this.docs.delete(rel);
    this.totalLen -= doc[0];
    for (let i = contentStart(doc); i < doc.length; i++) this.df[doc[i]]--;
  }

  /** Forgets the word memo (after a build: it only speeds up indexing). */
  dropMemo(): void {
    this.memo = new WordMemo(MEMO_MAX);
  }

  private idf(id: number): number {
    const n = this.docs.size;
    const df = this.df[id];
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** Query terms known to the index: their ids with their counts in the query, and each term's id. */
  private queryIds(query: string): { q: Map<number, number>; ids: Map<string, number> } {
    const q = new Map<number, number>();
    const ids = new Map<string, number>();
    for (const t of terms(query)) {
      const id = ids.get(t) ?? this.vocab.get(t);
      if (id !== undefined && this.df[id] > 0) (q.set(id, (q.get(id) ?? 0) + 1), ids.set(t, id));
    }
    return { q, ids };
  }

  /**
   * BM25+ scores of the files for a query: stage 1 over every file's term sets, stage 2 with frequencies over the
   * best candidates, whose text `read` returns (null: scored by stage 1 only).
   */
  scores(query: string, boost: FieldBoost, read: (rel: string) => string | null): Map<string, number> {
    const out = new Map<string, number>();
    const { q, ids } = this.queryIds(query);
    if (!q.size) return out;
    const weight = new Float64Array(this.vocab.size);
    for (const [id, n] of q) weight[id] = this.idf(id) * n;
    const rough: [string, number][] = [];
    for (const [rel, doc] of this.docs) {
      let s = 0;
      const ys = symStart(doc);
      const cs = contentStart(doc);
      for (let i = HEAD; i < ys; i++) s += weight[doc[i]] * boost.path;
      for (let i = ys; i < cs; i++) s += weight[doc[i]] * boost.symbols;
      for (let i = cs; i < doc.length; i++) s += weight[doc[i]] * boost.content;
      if (s > 0) rough.push([rel, s]);
    }
    rough.sort((a, b) => b[1] - a[1]);
    const avg = this.totalLen / Math.max(1, this.docs.size);
    const words = { query: ids, raw: new Map<string, number[]>() };
    for (const [rel, s] of rough.slice(0, CANDIDATES)) {
      const text = read(rel);
      out.set(rel, text === null ? s : this.bm25(rel, text, q, weight, boost, avg, words));
    }
    return out;
  }

  /**
   * Counts the query's terms in a whole text (no cap). A raw word the word memo does not know (not met while indexing
   * in this process) is split into terms compared with the query's own (`known.query`: no vocabulary look-up, which
   * would search the restored vocabulary per word), and memoised in `known.raw` for this query.
   */
  private count(text: string, q: Map<number, number>, known: QueryWords): { c: Map<number, number>; len: number } {
    const c = new Map<number, number>();
    const len = this.words(text, text.length);
    const set = this.distinct(text, len);
    const hit = (id: number, times: number) => {
      if (q.has(id)) c.set(id, (c.get(id) ?? 0) + times);
    };
    const memo = this.memo;
    for (let w = 0; w < set.size; w++) {
      const start = set.starts[w];
      const stop = set.stops[w];
      const times = set.counts[w];
      const e = memo.find(text, start, stop, set.hashes[w]);
      if (e >= 0) {
        for (let i = memo.idsStart(e), to = memo.idsEnd(e); i < to; i++) hit(memo.pool[i], times);
        continue;
      }
      // not met while indexing in this process: its terms that are the query's (a query never grows the vocabulary)
      const raw = text.slice(start, stop);
      let ids = known.raw.get(raw);
      if (!ids) {
        ids = [];
        for (const t of terms(raw)) {
          const id = known.query.get(t);
          if (id !== undefined) ids.push(id);
        }
        known.raw.set(raw, ids);
      }
      for (const id of ids) hit(id, times);
    }
    return { c, len };
  }

  private bm25(rel: string, text: string, q: Map<number, number>, weight: Float64Array, boost: FieldBoost, avg: number, words: QueryWords): number {
    const doc = this.docs.get(rel)!;
    const field = (counts: Map<number, number>, len: number, avgLen: number, b: number) => {
      let s = 0;
      for (const [id, tf] of counts) {
        const norm = BM25.k * (1 - BM25.b + BM25.b * (len / Math.max(1, avgLen)));
        s += weight[id] * (BM25.d + (tf * (BM25.k + 1)) / (tf + norm)) * b;
      }
      return s;
    };
    const p = this.count(rel, q, words);
    const content = this.count(text, q, words);
    let symbols = 0;
    for (let i = symStart(doc); i < contentStart(doc); i++) if (q.has(doc[i])) symbols += weight[doc[i]] * (BM25.d + 1) * boost.symbols;
    return field(p.c, p.len, p.len, boost.path) + symbols + field(content.c, content.len, avg, boost.content);
  }

  /** The index for the cache file, with the Docs in the order of `paths` (restore() takes them back to back). */
  serialize(paths: readonly string[]): { words: string; lens: Uint32Array; docs: Uint32Array[] } {
    const lens = new Uint32Array(paths.length);
    const docs: Uint32Array[] = [];
    paths.forEach((p, i) => {
      const d = this.docs.get(p);
      if (d) (docs.push(d), (lens[i] = d.length));
    });
    return { words: this.vocab.serialize(), lens, docs };
  }

  /** Restores a serialised index (Docs in the order of `paths`); false (and empty) when it is damaged. */
  restore(data: TermIndexData, paths: readonly string[]): boolean {
    try {
      if (data.lens.length !== paths.length) throw new Error('length');
      this.vocab = new Vocabulary();
      this.vocab.restore(data.words);
      const words = this.vocab.size;
      this.df = new Int32Array(Math.max(1024, words + 1024));
      const all = data.ids;
      const df = this.df;
      let at = 0;
      for (let i = 0; i < paths.length; i++) {
        const n = data.lens[i];
        if (!n) continue;
        if (n < HEAD || at + n > all.length) throw new Error('truncated');
        const doc = all.subarray(at, at + n);
        at += n;
        const cs = HEAD + doc[1] + doc[2];
        if (cs > n) throw new Error('bad entry');
        for (let k = HEAD; k < cs; k++) if (doc[k] >= words) throw new Error('bad term id');
        // add(), with the check of each content id in the same pass
        for (let k = cs; k < n; k++) {
          const id = doc[k];
          if (id >= words) throw new Error('bad term id');
          df[id]++;
        }
        this.docs.set(paths[i], doc);
        this.totalLen += doc[0];
      }
      if (at !== all.length) throw new Error('trailing');
      return true;
    } catch {
      this.vocab = new Vocabulary();
      this.docs.clear();
      this.totalLen = 0;
      this.df = new Int32Array(1024);
      return false;
    }
  }
}
