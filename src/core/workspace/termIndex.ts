// The workspace's text index, made light enough for monorepos (50,000 files in a few seconds and well under 300 MB):
// per file it keeps only the SET of terms (ids into one vocabulary, vocabulary.ts) of its path, its symbols and the
// first CONTENT_CAP characters of its content, plus the content's length in terms; no positions, no frequencies, no
// text. This class owns those entries (termDoc.ts's Docs, back to back in one arena), the document frequencies and
// the serialised form the cache file holds (its shape, and the Docs packed and read back checked: termIndexData.ts);
// reading text into term ids is termExtract.ts's, ranking (term sets, then BM25+ over the best candidates read lazily
// from disk) termScoring.ts's.
//
// Restored from the cache file for a one-off query (WorkspaceIndex.open's `lazy`), the Docs stay in the file
// (storedTerms.ts) and the query is answered from its terms' postings (termPostings.ts); the first change, or a
// rewrite of the cache, reads the Docs in (load()).
//
// Terms are tokens.ts's terms() (identifier parts, stemmed, stop words dropped), so the index and the query speak the
// same words. Why not minisearch any more: its inverted index with per-document frequencies took ~300 MB and ~25 s
// for 5,000 files here, and most of that content is never the answer.
import { grow } from './charTables';
import { contentStart, docEnd, docWords, HEAD, pathStart, symStart, type Field, type FieldBoost } from './termDoc';
import { TermExtractor } from './termExtract';
import { scoreFiles, scoreStored } from './termScoring';
import { Vocabulary } from './vocabulary';
import type { StoredTerms } from './storedTerms';
import { dfTotal, docsInOrder, readDocs, type RestoredTermIndex, type TermIndexData } from './termIndexData';

export { CONTENT_CAP } from './termExtract';
export type { Field, FieldBoost } from './termDoc';

/** Arena elements below which a compaction does not pay. */
const COMPACT_MIN = 1 << 16;

export class TermIndex {
  private vocab = new Vocabulary();
  private df: Int32Array<ArrayBufferLike> = new Int32Array(1024);
  /** Every Doc, back to back (termDoc.ts); deleted ones stay as garbage until a compaction. */
  private arena: Uint32Array = new Uint32Array(1 << 16);
  /** arena[0, used) holds Docs. */
  private used = 0;
  /** Elements of deleted Docs in arena[0, used). */
  private garbage = 0;
  /** Each file's Doc: its offset in the arena. */
  private readonly docs = new Map<string, number>();
  private totalLen = 0;
  /** Made on first use (a warm run that only queries needs no word memo until a candidate is counted). */
  private extractor: TermExtractor | null = null;
  /**
   * While the Docs are still in the cache file (restored for a one-off query): what restore() needs to take them
   * in, and the number of files with a Doc. Anything but a query reads them first (load()).
   */
  private stored: { data: RestoredTermIndex & { docs: StoredTerms }; paths: readonly string[]; files: number } | null = null;

  get size(): number {
    return this.stored ? this.stored.files : this.docs.size;
  }

  /** Called when the Docs left in the cache file turn out damaged, the index then empty: to put every file in again. */
  private lost: (() => void) | null = null;

  whenLost(refill: () => void): void {
    this.lost = refill;
  }

  /**
   * Reads the Docs left in the cache file (restore()); false when they turn out damaged: the index is then emptied
   * and whenLost()'s callback fills it again.
   */
  load(): boolean {
    const s = this.stored;
    if (!s) return true;
    this.stored = null;
    let ok = false;
    try {
      // the terms too, when they are still in the cache file (a change or a rewrite needs them all)
      const words = 'table' in s.data.words ? { bytes: this.vocab.storedBytes(), marks: s.data.words.marks } : s.data.words;
      ok = this.restore({ ...s.data, words, docs: s.data.docs.docs() }, s.paths);
    } catch {
      // the Docs still hold the cache file when reading the terms failed first (docs() releases it once it has run)
      s.data.docs.close();
      this.reset();
    }
    if (!ok) this.lost?.();
    return ok;
  }

  private get reader(): TermExtractor {
    return (this.extractor ??= new TermExtractor(this.vocab));
  }

  /** Indexes (or re-indexes) one file. */
  set(rel: string, symbols: string[], content: string): void {
    this.load();
    this.delete(rel);
    const r = this.reader;
    // the Doc is put together in the reader's `ids` and copied to the arena once
    const pathEnd = r.collect(rel, HEAD);
    const symbolsEnd = r.collect(symbols.join(' '), pathEnd);
    // the content set holds the path's and symbols' terms too: df counts a file once per term
    const end = r.collect(content, symbolsEnd, HEAD, symbolsEnd);
    const ids = r.ids;
    ids[0] = end;
    ids[1] = r.wordCount;
    ids[2] = pathEnd - HEAD;
    ids[3] = symbolsEnd - pathEnd;
    if (this.used + end > this.arena.length) this.makeRoom(end);
    const at = this.used;
    this.arena.set(ids.subarray(0, end), at);
    this.used += end;
    this.add(rel, at);
  }

  /** The terms of a file's path, symbols and content as the index holds them (for tests and diagnostics). */
  termsOf(rel: string): Record<Field, string[]> | undefined {
    this.load();
    const at = this.docs.get(rel);
    if (at === undefined) return undefined;
    const a = this.arena;
    const list = (from: number, to: number) => Array.from(a.subarray(from, to), (id) => this.vocab.term(id));
    return { path: list(pathStart(at), symStart(a, at)), symbols: list(symStart(a, at), contentStart(a, at)), content: list(contentStart(a, at), docEnd(a, at)) };
  }

  private add(rel: string, at: number): void {
    const a = this.arena;
    this.docs.set(rel, at);
    this.totalLen += docWords(a, at);
    const df = (this.df = grow(this.df, this.vocab.size));
    for (let i = contentStart(a, at), end = docEnd(a, at); i < end; i++) df[a[i]]++;
  }

  delete(rel: string): void {
    this.load();
    const at = this.docs.get(rel);
    if (at === undefined) return;
    const a = this.arena;
    this.docs.delete(rel);
    this.totalLen -= docWords(a, at);
    for (let i = contentStart(a, at), end = docEnd(a, at); i < end; i++) this.df[a[i]]--;
    this.garbage += a[at];
  }

  /** Room for `need` more elements: the live Docs compacted when garbage is most of the arena, else a bigger arena. */
  private makeRoom(need: number): void {
    const live = this.used - this.garbage;
    if (this.garbage > live && this.used > COMPACT_MIN) {
      const next = new Uint32Array(Math.max(this.arena.length, 2 * (live + need)));
      let k = 0;
      for (const [rel, at] of this.docs) {
        const len = this.arena[at];
        next.set(this.arena.subarray(at, at + len), k);
        this.docs.set(rel, k);
        k += len;
      }
      this.arena = next;
      this.used = k;
      this.garbage = 0;
    } else {
      this.arena = grow(this.arena, this.used + need);
    }
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
    const s = this.stored;
    if (s) {
      try {
        const ix = { vocab: this.vocab, df: this.df, totalLen: this.totalLen, files: s.files, reader: this.reader, stored: s.data.docs, paths: s.paths };
        return scoreStored(ix, query, boost, read);
      } catch {
        // damaged postings: the Docs decide (and when they are damaged too, the files are indexed again)
        this.load();
      }
    }
    const ix = { vocab: this.vocab, arena: this.arena, docs: this.docs, df: this.df, totalLen: this.totalLen, files: this.docs.size, reader: this.reader };
    return scoreFiles(ix, query, boost, read);
  }

  /**
   * The index for the cache file, with the Docs in the order of `paths` (restore() takes them back to back;
   * termIndexData.ts's docsInOrder).
   */
  serialize(paths: readonly string[]): TermIndexData {
    this.load();
    const df = this.df.subarray(0, this.vocab.size);
    const docs = docsInOrder(this.arena, this.used, this.garbage, this.docs, paths);
    return { words: this.vocab.serialize(), wordTable: this.vocab.serializedTable(), docs, df, totalLen: this.totalLen };
  }

  /**
   * Restores a serialised index (Docs in the order of `paths`), its arena a view of `data.docs` (copied on the first
   * change that needs room); false (and empty) when it is damaged: a Doc's bounds, a term id past the vocabulary,
   * document frequencies that do not add up to the Docs' content or the words to the total. Docs left in the cache
   * file (StoredTerms) are checked when they are read: here only the frequencies against the postings.
   */
  restore(data: RestoredTermIndex, paths: readonly string[]): boolean {
    this.reset();
    try {
      // as many terms as document frequencies
      const words = data.df.length;
      if (!this.vocab.restore(data.words, words)) throw new Error('words');
      if (!(data.docs instanceof Uint32Array)) {
        if (dfTotal(data.df) !== data.docs.postingEntries || !Number.isSafeInteger(data.totalLen) || data.totalLen < 0) throw new Error('df total');
        this.stored = { data: { ...data, docs: data.docs }, paths, files: data.docs.withDoc };
        this.df = data.df;
        this.totalLen = data.totalLen;
        return true;
      }
      const a = data.docs;
      const read = readDocs(a, paths, words, this.docs);
      this.totalLen = read.totalLen;
      // the stored frequencies, kept when they add up to the Docs' content (else the file is damaged)
      if (dfTotal(data.df) !== read.contentIds) throw new Error('df total');
      if (this.totalLen !== data.totalLen) throw new Error('words total');
      this.df = new Int32Array(Math.max(1024, words + 1024));
      this.df.set(data.df);
      this.arena = a;
      this.used = read.end;
      this.garbage = 0;
      return true;
    } catch {
      if (!(data.docs instanceof Uint32Array)) data.docs.close();
      this.reset();
      return false;
    }
  }

  /** Empty. */
  private reset(): void {
    this.stored?.data.docs.close();
    this.stored = null;
    this.vocab.drop();
    this.vocab = new Vocabulary();
    this.extractor = null;
    this.docs.clear();
    this.totalLen = 0;
    this.df = new Int32Array(1024);
    this.arena = new Uint32Array(1 << 16);
    this.used = this.garbage = 0;
  }
}
