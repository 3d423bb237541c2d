// The workspace's text index, made light enough for monorepos (50,000 files in a few seconds and well under 300 MB):
// per file it keeps only the SET of terms (ids into one vocabulary) of its path, its symbols and the first
// CONTENT_CAP characters of its content, plus the content's length in terms; no positions, no frequencies, no text.
//
// Ranking is two-stage:
//  1. every file gets a cheap score from the term sets: Σ idf(t) × (path, symbol, content field boosts);
//  2. the best CANDIDATES of stage 1 are read from disk (lazily, only for this query) and scored by BM25+ with term
//     frequencies and length normalisation per field — what a full-text engine would compute for them.
// Terms are tokens.ts's terms() (identifier parts, stemmed, stop words dropped), memoised per raw word, so the index
// and the query speak the same words. Why not minisearch any more: its inverted index with per-document frequencies
// took ~300 MB and ~25 s for 5,000 files here, and most of that content is never the answer.
import { detach, terms } from './tokens';

/** Content characters that go into a file's term set (the whole file is still read when it is a candidate). */
export const CONTENT_CAP = 64_000;
/** Files re-scored with frequencies in stage 2. */
const CANDIDATES = 400;
/** BM25+ parameters: less length normalisation than the usual b = 0.75 (in code the longer file is more often the
 * one a change touches), and BM25+'s lower bound d for any matching term. */
const BM25 = { k: 1.2, b: 0.4, d: 0.5 };
const MEMO_MAX = 300_000;
/** Splits a text into raw words (each then becomes terms through tokens.ts). */
const SPLIT = /[^\p{L}\p{N}_$]+/u;

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

/** A serialised TermIndex (inside the index's cache file). */
export interface TermIndexJSON {
  words: string[];
  /** Per document: [path, length of its Doc array]; the arrays follow each other in `ids`. */
  docs: [string, number][];
  /** All documents' Doc arrays, base64 of a little-endian Uint32Array. */
  ids: string;
}

export class TermIndex {
  private readonly vocab = new Map<string, number>();
  private words: string[] = [];
  private df = new Int32Array(1024);
  private readonly docs = new Map<string, Doc>();
  private totalLen = 0;
  private memo = new Map<string, number[]>();
  /** Per term id, the last uniqueIds() call that saw it. */
  private mark = new Int32Array(1024);
  private stamp = 0;

  get size(): number {
    return this.docs.size;
  }

  private idOf(term: string): number {
    let id = this.vocab.get(term);
    if (id === undefined) {
      id = this.words.length;
      this.words.push(term);
      this.vocab.set(term, id);
      if (id >= this.df.length) {
        const grown = new Int32Array(this.df.length * 2);
        grown.set(this.df);
        this.df = grown;
      }
    }
    return id;
  }

  /** The term ids of one raw word (memoised: code repeats its identifiers). */
  private wordIds(raw: string): number[] {
    let ids = this.memo.get(raw);
    if (!ids) {
      ids = terms(raw).map((t) => this.idOf(t));
      if (this.memo.size >= MEMO_MAX) this.memo = new Map();
      this.memo.set(detach(raw), ids);
    }
    return ids;
  }

  /** Calls `each` with every term id of the text (repeats included); returns the number of words. */
  private scan(text: string, each: (id: number) => void): number {
    let words = 0;
    for (const w of text.split(SPLIT)) {
      if (!w) continue;
      words++;
      for (const id of this.wordIds(w)) each(id);
    }
    return words;
  }

  /** The distinct term ids of some texts, and the number of words of the last one. */
  private uniqueIds(...texts: string[]): { ids: Uint32Array; len: number } {
    const out: number[] = [];
    const stamp = ++this.stamp;
    let len = 0;
    for (const text of texts) {
      len = this.scan(text, (id) => {
        if (id >= this.mark.length) {
          const grown = new Int32Array(Math.max(id + 1, this.mark.length * 2));
          grown.set(this.mark);
          this.mark = grown;
        }
        if (this.mark[id] !== stamp) {
          this.mark[id] = stamp;
          out.push(id);
        }
      });
    }
    return { ids: Uint32Array.from(out), len };
  }

  /** Indexes (or re-indexes) one file. */
  set(rel: string, symbols: string[], content: string): void {
    this.delete(rel);
    const sym = symbols.join(' ');
    // the content set holds the path's and symbols' terms too: df counts a file once per term
    const c = this.uniqueIds(rel, sym, content.length > CONTENT_CAP ? content.slice(0, CONTENT_CAP) : content);
    const p = this.uniqueIds(rel).ids;
    const y = this.uniqueIds(sym).ids;
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
    this.memo = new Map();
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
    const weight = new Float64Array(this.words.length);
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
    for (const [rel, s] of rough.slice(0, CANDIDATES)) {
      const text = read(rel);
      out.set(rel, text === null ? s : this.bm25(rel, text, q, weight, boost, avg));
    }
    return out;
  }

  private bm25(rel: string, text: string, q: Map<number, number>, weight: Float64Array, boost: FieldBoost, avg: number): number {
    const doc = this.docs.get(rel)!;
    const field = (counts: Map<number, number>, len: number, avgLen: number, b: number) => {
      let s = 0;
      for (const [id, tf] of counts) {
        const norm = BM25.k * (1 - BM25.b + BM25.b * (len / Math.max(1, avgLen)));
        s += weight[id] * (BM25.d + (tf * (BM25.k + 1)) / (tf + norm)) * b;
      }
      return s;
    };
    const count = (t: string) => {
      const c = new Map<number, number>();
      const len = this.scan(t, (id) => {
        if (q.has(id)) c.set(id, (c.get(id) ?? 0) + 1);
      });
      return { c, len };
    };
    const p = count(rel);
    const content = count(text);
    let symbols = 0;
    for (let i = symStart(doc); i < contentStart(doc); i++) if (q.has(doc[i])) symbols += weight[doc[i]] * (BM25.d + 1) * boost.symbols;
    return field(p.c, p.len, p.len, boost.path) + symbols + field(content.c, content.len, avg, boost.content);
  }

  toJSON(): TermIndexJSON {
    let total = 0;
    for (const d of this.docs.values()) total += d.length;
    const all = new Uint32Array(total);
    const docs: TermIndexJSON['docs'] = [];
    let at = 0;
    for (const [rel, d] of this.docs) {
      all.set(d, at);
      at += d.length;
      docs.push([rel, d.length]);
    }
    return { words: this.words, docs, ids: Buffer.from(all.buffer, all.byteOffset, all.byteLength).toString('base64') };
  }

  /** Restores a serialised index; false (and empty) when it is damaged. */
  load(data: TermIndexJSON): boolean {
    try {
      const buf = Buffer.from(data.ids, 'base64');
      const aligned = new Uint8Array(buf.length);
      aligned.set(buf);
      const all = new Uint32Array(aligned.buffer, 0, Math.floor(buf.length / 4));
      this.words = data.words.slice();
      this.vocab.clear();
      this.words.forEach((w, i) => this.vocab.set(w, i));
      this.df = new Int32Array(Math.max(1024, this.words.length * 2));
      let at = 0;
      for (const [rel, n] of data.docs) {
        if (typeof rel !== 'string' || !(n >= HEAD) || at + n > all.length) throw new Error('truncated');
        const doc = all.subarray(at, at + n);
        at += n;
        if (HEAD + doc[1] + doc[2] > n) throw new Error('bad entry');
        for (let i = HEAD; i < n; i++) if (doc[i] >= this.words.length) throw new Error('bad term id');
        this.add(rel, doc);
      }
      return true;
    } catch {
      this.words = [];
      this.vocab.clear();
      this.docs.clear();
      this.totalLen = 0;
      this.df = new Int32Array(1024);
      return false;
    }
  }
}
