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
import { terms, wordTerms } from './tokens';

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

/** FNV-1a over the UTF-16 units of s[start, end). */
function hashRange(s: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The array itself when it holds `need` elements, else a copy at least twice as long. */
function grow<T extends { length: number; set(a: ArrayLike<number>): void }>(a: T, need: number): T {
  if (need <= a.length) return a;
  const b = new (a.constructor as { new (n: number): T })(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

/**
 * Raw word → its term ids, while indexing (code repeats its identifiers). An open-addressing table keyed by the
 * word's hash, its keys' characters in one pool and compared against the text in place: a word already seen costs
 * no substring, no string kept, no Map look-up.
 */
class WordMemo {
  /** Per slot: [hash, entry + 1] (0: empty), side by side so a probe touches one place. */
  private slots = new Int32Array(MEMO_MAX * 4);
  private count = 0;
  /** Per entry: where its key starts in `chars`, where its ids start in `pool` (entry + 1: where they end). */
  private keyAt = new Int32Array(MEMO_MAX + 1);
  private idsAt = new Int32Array(MEMO_MAX + 1);
  private chars = new Uint16Array(1 << 20);
  private pool = new Uint32Array(1 << 18);
  /** The slot find() stopped at (where add() inserts). */
  private at = 0;

  clear(): void {
    if (!this.count) return;
    this.slots.fill(0);
    this.count = 0;
  }

  /** The entry of text[start, stop) (hash h), or -1. */
  find(text: string, start: number, stop: number, h: number): number {
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    const len = stop - start;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const e = slots[2 * s + 1] - 1;
      if (e < 0) {
        this.at = s;
        return -1;
      }
      if (slots[2 * s] !== (h | 0)) continue;
      const k = this.keyAt[e];
      if (this.keyAt[e + 1] - k !== len) continue;
      let i = 0;
      while (i < len && this.chars[k + i] === text.charCodeAt(start + i)) i++;
      if (i === len) return e;
    }
  }

  /** Adds text[start, stop) with its ids; call right after find() returned -1 for it. Returns the entry. */
  add(text: string, start: number, stop: number, h: number, ids: readonly number[]): number {
    if (this.count >= MEMO_MAX) {
      this.clear();
      this.find(text, start, stop, h);
    }
    const e = this.count++;
    if (e === 0) this.keyAt[0] = this.idsAt[0] = 0;
    const k = this.keyAt[e];
    this.chars = grow(this.chars, k + stop - start);
    for (let i = start; i < stop; i++) this.chars[k + i - start] = text.charCodeAt(i);
    this.keyAt[e + 1] = k + stop - start;
    const at = this.idsAt[e];
    this.pool = grow(this.pool, at + ids.length);
    for (let i = 0; i < ids.length; i++) this.pool[at + i] = ids[i];
    this.idsAt[e + 1] = at + ids.length;
    this.slots[2 * this.at] = h | 0;
    this.slots[2 * this.at + 1] = e + 1;
    return e;
  }

  /** Calls each(id) for the entry's ids. */
  each(e: number, each: (id: number) => void): void {
    for (let i = this.idsAt[e], n = this.idsAt[e + 1]; i < n; i++) each(this.pool[i]);
  }

  /** Appends the entry's ids to out.buf from position n; returns the new length. */
  copy(e: number, out: { buf: Uint32Array }, n: number): number {
    const a = this.idsAt[e];
    const b = this.idsAt[e + 1];
    out.buf = grow(out.buf, n + b - a);
    const buf = out.buf;
    for (let i = a; i < b; i++) buf[n++] = this.pool[i];
    return n;
  }
}

/**
 * The distinct raw words of one text (where each first occurs), so a word repeated in a file is looked up in the
 * WordMemo once. Reused from text to text: a generation number empties it.
 */
class TextWords {
  private gen = new Int32Array(1 << 12);
  private slotHash = new Int32Array(1 << 12);
  private slotWord = new Int32Array(1 << 12);
  private generation = 0;
  starts = new Int32Array(1024);
  stops = new Int32Array(1024);
  hashes = new Int32Array(1024);
  /** Occurrences of each distinct word. */
  counts = new Int32Array(1024);
  size = 0;

  /** Empties the set for a text of `chars` characters. */
  reset(chars: number): void {
    let want = this.gen.length;
    while (want < chars) want *= 2;
    if (want > this.gen.length) {
      this.gen = new Int32Array(want);
      this.slotHash = new Int32Array(want);
      this.slotWord = new Int32Array(want);
      this.generation = 0;
    }
    this.generation++;
    this.size = 0;
  }

  /** Adds text[start, stop) when it is not in the set yet. */
  add(text: string, start: number, stop: number, h: number): void {
    const mask = this.gen.length - 1;
    const len = stop - start;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      if (this.gen[s] !== this.generation) {
        const w = this.size++;
        if (w >= this.starts.length) {
          this.starts = grow(this.starts, w + 1);
          this.stops = grow(this.stops, w + 1);
          this.hashes = grow(this.hashes, w + 1);
          this.counts = grow(this.counts, w + 1);
        }
        this.counts[w] = 1;
        this.starts[w] = start;
        this.stops[w] = stop;
        this.hashes[w] = h;
        this.gen[s] = this.generation;
        this.slotHash[s] = h;
        this.slotWord[s] = w;
        return;
      }
      if (this.slotHash[s] !== (h | 0)) continue;
      const w = this.slotWord[s];
      const a = this.starts[w];
      if (this.stops[w] - a !== len) continue;
      let i = 0;
      while (i < len && text.charCodeAt(a + i) === text.charCodeAt(start + i)) i++;
      if (i === len) {
        this.counts[w]++;
        return;
      }
    }
  }
}

/**
 * The vocabulary: term ↔ id. Terms restored from a cache file stay in one string (no Map of hundreds of thousands of
 * strings to rebuild per run); a hash table over it is built on the first look-up. New terms go to a Map.
 */
class Vocabulary {
  private loaded = '';
  private loadedCount = 0;
  private offsets: Uint32Array | null = null;
  private table: Int32Array | null = null;
  private readonly added = new Map<string, number>();
  private readonly addedWords: string[] = [];
  private lookups = 0;

  get size(): number {
    return this.loadedCount + this.addedWords.length;
  }

  restore(words: string): void {
    this.loaded = words;
    this.loadedCount = words ? 1 : 0;
    for (let i = words.indexOf('\n'); i >= 0; i = words.indexOf('\n', i + 1)) this.loadedCount++;
    this.offsets = null;
    this.table = null;
    this.lookups = 0;
    this.added.clear();
    this.addedWords.length = 0;
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

  private index(): void {
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
    this.table = table;
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

  /** The id of a term, or undefined. */
  get(term: string): number | undefined {
    if (this.loadedCount) {
      // the first look-ups search the string; many (indexing changed files) build the table once
      if (!this.table && ++this.lookups <= SCAN_LOOKUPS) {
        const id = this.scan(term);
        if (id !== undefined) return id;
        return this.added.get(term);
      }
      if (!this.table) this.index();
      const table = this.table!;
      const offsets = this.offsets!;
      const mask = table.length - 1;
      for (let s = hashRange(term, 0, term.length) & mask; table[s]; s = (s + 1) & mask) {
        const t = table[s] - 1;
        const off = offsets[t];
        if (offsets[t + 1] - 1 - off === term.length && this.loaded.startsWith(term, off)) return t;
      }
    }
    return this.added.get(term);
  }

  /** The id of a term, added when new. */
  idOf(term: string): number {
    let id = this.get(term);
    if (id === undefined) {
      id = this.size;
      this.addedWords.push(term);
      this.added.set(term, id);
    }
    return id;
  }

  /** Every term, id order, joined by '\n'. */
  serialize(): string {
    if (!this.addedWords.length) return this.loaded;
    const more = this.addedWords.join('\n');
    return this.loadedCount ? this.loaded + '\n' + more : more;
  }
}

export class TermIndex {
  private vocab = new Vocabulary();
  private df = new Int32Array(1024);
  private readonly docs = new Map<string, Doc>();
  private totalLen = 0;
  private memo = new WordMemo();
  /** Per term id, the last uniqueIds() call that saw it. */
  private mark = new Int32Array(1024);
  private stamp = 0;
  private scratch = { buf: new Uint32Array(4096) };
  private textWords = new TextWords();

  get size(): number {
    return this.docs.size;
  }

  private idOf(term: string): number {
    const id = this.vocab.idOf(term);
    this.df = grow(this.df, id + 1);
    return id;
  }

  /**
   * Splits text[0, end) into raw words exactly as tokens.ts's terms() does (runs of letters, digits, `_`, `$`) and
   * puts them in the TextWords set (emptied first); returns the number of words.
   */
  private words(text: string, end: number): number {
    const set = this.textWords;
    // a text of c characters has at most c / 2 words: a table of c slots stays half empty
    set.reset(end);
    let n = 0;
    let i = 0;
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
      n++;
      set.add(text, start, i, h | 0);
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

  /** Appends the term ids of the distinct words of the text's first `end` characters to the scratch buffer. */
  private collect(text: string, end: number, n: { len: number }): number {
    const words = this.words(text, end);
    const set = this.textWords;
    for (let w = 0; w < set.size; w++) {
      const start = set.starts[w];
      const stop = set.stops[w];
      const h = set.hashes[w];
      let e = this.memo.find(text, start, stop, h);
      if (e < 0) e = this.memo.add(text, start, stop, h, wordTerms(text.slice(start, stop)).map((t) => this.idOf(t)));
      n.len = this.memo.copy(e, this.scratch, n.len);
    }
    return words;
  }

  /**
   * The distinct term ids, in order of first appearance, of `before` (each already distinct) followed by the text's
   * first CONTENT_CAP characters; and the number of words of the text.
   */
  private uniqueIds(text: string, ...before: Uint32Array[]): { ids: Uint32Array; len: number } {
    const stamp = ++this.stamp;
    const n = { len: 0 };
    for (const b of before) {
      this.scratch.buf = grow(this.scratch.buf, n.len + b.length);
      this.scratch.buf.set(b, n.len);
      n.len += b.length;
    }
    const words = this.collect(text, Math.min(text.length, CONTENT_CAP), n);
    const buf = this.scratch.buf;
    this.mark = grow(this.mark, this.vocab.size);
    let k = 0;
    for (let i = 0; i < n.len; i++) {
      const id = buf[i];
      if (this.mark[id] !== stamp) {
        this.mark[id] = stamp;
        buf[k++] = id;
      }
    }
    return { ids: buf.slice(0, k), len: words };
  }

  /** Indexes (or re-indexes) one file. */
  set(rel: string, symbols: string[], content: string): void {
    this.delete(rel);
    const p = this.uniqueIds(rel).ids;
    const y = this.uniqueIds(symbols.join(' ')).ids;
    // the content set holds the path's and symbols' terms too: df counts a file once per term
    const c = this.uniqueIds(content, p, y);
    const doc = new Uint32Array(HEAD + p.length + y.length + c.ids.length);
    doc[0] = c.len;
    doc[1] = p.length;
    doc[2] = y.length;
    doc.set(p, HEAD);
    doc.set(y, HEAD + p.length);
    doc.set(c.ids, HEAD + p.length + y.length);
    this.add(rel, doc);
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
    this.memo = new WordMemo();
  }

  private idf(id: number): number {
    const n = this.docs.size;
    const df = this.df[id];
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** Query terms known to the index, with their counts in the query. */
  private queryIds(query: string): Map<number, number> {
    const q = new Map<number, number>();
    for (const t of terms(query)) {
      const id = this.vocab.get(t);
      if (id !== undefined && this.df[id] > 0) q.set(id, (q.get(id) ?? 0) + 1);
    }
    return q;
  }

  /**
   * BM25+ scores of the files for a query: stage 1 over every file's term sets, stage 2 with frequencies over the
   * best candidates, whose text `read` returns (null: scored by stage 1 only).
   */
  scores(query: string, boost: FieldBoost, read: (rel: string) => string | null): Map<string, number> {
    const out = new Map<string, number>();
    const q = this.queryIds(query);
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
    const words = new Map<string, number[]>();
    for (const [rel, s] of rough.slice(0, CANDIDATES)) {
      const text = read(rel);
      out.set(rel, text === null ? s : this.bm25(rel, text, q, weight, boost, avg, words));
    }
    return out;
  }

  /** Counts the query's terms in a whole text (no cap); `known` memoises raw words' known term ids for this query. */
  private count(text: string, q: Map<number, number>, known: Map<string, number[]>): { c: Map<number, number>; len: number } {
    const c = new Map<number, number>();
    const len = this.words(text, text.length);
    const set = this.textWords;
    const hit = (id: number, times: number) => {
      if (q.has(id)) c.set(id, (c.get(id) ?? 0) + times);
    };
    for (let w = 0; w < set.size; w++) {
      const start = set.starts[w];
      const stop = set.stops[w];
      const times = set.counts[w];
      const e = this.memo.find(text, start, stop, set.hashes[w]);
      if (e >= 0) {
        this.memo.each(e, (id) => hit(id, times));
        continue;
      }
      // not met while indexing this run: look its terms up without adding any (a query never grows the vocabulary)
      const raw = text.slice(start, stop);
      let ids = known.get(raw);
      if (!ids) {
        ids = [];
        for (const t of terms(raw)) {
          const id = this.vocab.get(t);
          if (id !== undefined) ids.push(id);
        }
        known.set(raw, ids);
      }
      for (const id of ids) hit(id, times);
    }
    return { c, len };
  }

  private bm25(rel: string, text: string, q: Map<number, number>, weight: Float64Array, boost: FieldBoost, avg: number, words: Map<string, number[]>): number {
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
