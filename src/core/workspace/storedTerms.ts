// The text index's Docs and postings (termDoc.ts, termPostings.ts) left in the cache file for a one-off query: the
// open file (cacheFile.ts) and where the two sections are. A query reads its terms' postings and its candidates' Docs;
// the first change to the index (or a rewrite of the cache) reads all the Docs (docs()) and lets the file go. The file
// stays readable even when another run replaces the cache meanwhile: a rename leaves this open file as it was.
import type { OpenCacheFile } from './cacheFile';
import { HEAD } from './termDoc';
import { FIELD_CONTENT, POSTING_SHIFT } from './termPostings';

/** Terms per stored running sum of df (postingStart). */
const POST_BLOCK = 1024;

const u32 = (b: Buffer) => new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4);

export class StoredTerms {
  private file: OpenCacheFile | null;
  private readonly release: () => void;
  /**
   * Where the postings of every POST_BLOCK-th term start (in entries): the running sum of df at each block's start. A
   * query looks up a few terms: the sum of one per term would be megabytes of memory to touch (a workspace of
   * hundreds of thousands of terms), for a few sums.
   */
  private blockStart: Float64Array | null = null;
  /** Files that have a Doc (the others have the one-element placeholder). */
  readonly withDoc: number;

  constructor(
    file: OpenCacheFile,
    /** Files in the cache, in order; file i's Doc is docStarts[i] up to the next one's start (or docsElements). Throws when they do not fit. */
    readonly files: number,
    private readonly docStarts: Uint32Array,
    private readonly docsAt: number,
    private readonly docsElements: number,
    private readonly postingsAt: number,
    readonly postingEntries: number,
    private readonly df: Int32Array,
  ) {
    this.file = file;
    this.release = file.hold();
    // each file's Doc within the Docs section, in order, at least one element long
    if (docStarts.length !== files || (files > 0 && docStarts[0] !== 0) || (files === 0 && docsElements)) throw new Error('cache file damaged');
    let placeholders = 0;
    for (let i = 0; i < files; i++) {
      const len = this.docEnd(i) - docStarts[i];
      if (len < 1) throw new Error('cache file damaged');
      if (len === 1) placeholders++;
    }
    this.withDoc = files - placeholders;
  }

  /** Where file i's Doc ends in the Docs section (elements). */
  private docEnd(i: number): number {
    return i + 1 < this.files ? this.docStarts[i + 1] : this.docsElements;
  }

  private open(): OpenCacheFile {
    if (this.file === null) throw new Error('cache file closed');
    return this.file;
  }

  /** The postings of a term (termPostings.ts's entries); throws when an entry names no file of the cache. */
  postings(term: number): Uint32Array {
    const n = this.df[term];
    if (!n) return new Uint32Array(0);
    const out = u32(this.open().read(n * 4, this.postingsAt + this.postingStart(term) * 4));
    for (let i = 0; i < n; i++) if (out[i] >>> POSTING_SHIFT >= this.files || !(out[i] & FIELD_CONTENT)) throw new Error('cache file damaged');
    return out;
  }

  /** Where a term's postings start (in entries): the sum of df over the terms before it. */
  private postingStart(term: number): number {
    const df = this.df;
    if (!this.blockStart) {
      this.blockStart = new Float64Array(Math.ceil(df.length / POST_BLOCK) + 1);
      for (let t = 0, sum = 0; t < df.length; t++) {
        if (t % POST_BLOCK === 0) this.blockStart[t / POST_BLOCK] = sum;
        sum += df[t];
      }
    }
    const block = Math.floor(term / POST_BLOCK);
    let at = this.blockStart[block];
    for (let t = block * POST_BLOCK; t < term; t++) at += df[t];
    return at;
  }

  /** File `i`'s Doc (termDoc.ts layout, at offset 0 of the returned array). */
  doc(i: number): Uint32Array {
    const start = this.docStarts[i];
    const a = u32(this.open().read((this.docEnd(i) - start) * 4, this.docsAt + start * 4));
    if (a[0] !== a.length || (a.length > 1 && (a.length < HEAD || HEAD + a[2] + a[3] > a.length))) throw new Error('cache file damaged');
    return a;
  }

  /** Every Doc, back to back; lets the file go. */
  docs(): Uint32Array {
    try {
      return u32(this.open().read(this.docsElements * 4, this.docsAt));
    } finally {
      this.close();
    }
  }

  /** Lets the file go (it is closed once no other part of the cache holds it). */
  close(): void {
    this.file = null;
    this.release();
  }
}
