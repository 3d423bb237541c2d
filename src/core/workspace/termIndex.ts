// The workspace's text index, made light enough for monorepos (50,000 files in a few seconds and well under 300 MB):
// per file it keeps only the SET of terms (ids into one vocabulary, vocabulary.ts) of its path, its symbols and the
// first CONTENT_CAP characters of its content, plus the content's length in terms; no positions, no frequencies, no
// text. This class owns those entries (termDoc.ts's Doc), the document frequencies and the serialised form the cache
// file holds; reading text into term ids is termExtract.ts's, ranking (term sets, then BM25+ over the best candidates
// read lazily from disk) termScoring.ts's.
//
// Terms are tokens.ts's terms() (identifier parts, stemmed, stop words dropped), so the index and the query speak the
// same words. Why not minisearch any more: its inverted index with per-document frequencies took ~300 MB and ~25 s
// for 5,000 files here, and most of that content is never the answer.
import { grow } from './charTables';
import { contentStart, HEAD, symStart, type Doc, type Field, type FieldBoost } from './termDoc';
import { TermExtractor } from './termExtract';
import { scoreFiles } from './termScoring';
import { Vocabulary } from './vocabulary';

export { CONTENT_CAP } from './termExtract';
export type { Field, FieldBoost } from './termDoc';

/** A serialised TermIndex (the index's cache file holds it): one Doc per given path, back to back. */
export interface TermIndexData {
  /** The vocabulary, term id order, joined by '\n' (terms never hold one). */
  words: string;
  /** Per path of the order given to serialize(), the length of its Doc (0: no entry). */
  lens: Uint32Array;
  /** The Docs, back to back. */
  ids: Uint32Array;
}

export class TermIndex {
  private vocab = new Vocabulary();
  private df = new Int32Array(1024);
  private readonly docs = new Map<string, Doc>();
  private totalLen = 0;
  /** Made on first use (a warm run that only queries needs no word memo until a candidate is counted). */
  private extractor: TermExtractor | null = null;

  get size(): number {
    return this.docs.size;
  }

  private get reader(): TermExtractor {
    return (this.extractor ??= new TermExtractor(this.vocab));
  }

  /** Indexes (or re-indexes) one file. */
  set(rel: string, symbols: string[], content: string): void {
    this.delete(rel);
    const r = this.reader;
    // the Doc is put together in the reader's `ids` and copied out once
    const pathEnd = r.collect(rel, HEAD);
    const symbolsEnd = r.collect(symbols.join(' '), pathEnd);
    // the content set holds the path's and symbols' terms too: df counts a file once per term
    const end = r.collect(content, symbolsEnd, HEAD, symbolsEnd);
    r.ids[0] = r.wordCount;
    r.ids[1] = pathEnd - HEAD;
    r.ids[2] = symbolsEnd - pathEnd;
    this.add(rel, r.ids.slice(0, end));
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
    this.df = grow(this.df, this.vocab.size);
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
    this.extractor?.dropMemo();
  }

  /**
   * BM25+ scores of the files for a query (termScoring.ts): stage 1 over every file's term sets, stage 2 with
   * frequencies over the best candidates, whose text `read` returns (null: scored by stage 1 only).
   */
  scores(query: string, boost: FieldBoost, read: (rel: string) => string | null): Map<string, number> {
    return scoreFiles({ vocab: this.vocab, docs: this.docs, df: this.df, totalLen: this.totalLen, reader: this.reader }, query, boost, read);
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
      this.extractor = null;
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
      this.extractor = null;
      this.docs.clear();
      this.totalLen = 0;
      this.df = new Int32Array(1024);
      return false;
    }
  }
}
