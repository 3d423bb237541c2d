// The text index's vocabulary (termIndex.ts): term ↔ id, one id per distinct term of the whole workspace.
import { grow, hashKey, hashRange, KeyTable, probeTable } from './charTables';
import { WordsInFile, type StoredWordsInFile } from './wordsInFile';

/** Vocabulary look-ups answered by searching the restored terms' string before a hash table over it pays. */
const SCAN_LOOKUPS = 200;
/** The stored vocabulary marks where every WORD_MARK_EVERY-th term starts, so a look-up counts at most that many. */
const WORD_MARK_EVERY = 1024;
const NL = 10;

/** The last index k < n with sorted[k] <= x (0 when there is none). */
function lastAtOrBefore(sorted: Uint32Array, n: number, x: number): number {
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid] <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A vocabulary as the cache file stores it: the terms in UTF-8, '\n'-separated, and wordMarks() of those bytes. */
export interface StoredWords {
  bytes: Buffer;
  marks: Uint32Array;
}

/** Where term k × WORD_MARK_EVERY starts in `bytes` (the stored vocabulary), for each k. */
export function wordMarks(bytes: Buffer): Uint32Array {
  const marks: number[] = bytes.length ? [0] : [];
  let count = 1;
  for (let i = bytes.indexOf(NL); i >= 0; i = bytes.indexOf(NL, i + 1)) if (count++ % WORD_MARK_EVERY === 0) marks.push(i + 1);
  return Uint32Array.from(marks);
}

/** Where each of the `n` terms of `w` ('\n'-separated) starts (entry n: one past the end, as if a '\n' followed). */
export function termStarts(w: string, n: number): Uint32Array {
  const offsets = new Uint32Array(n + 1);
  let id = 1;
  for (let i = w.indexOf('\n'); i >= 0 && id < n; i = w.indexOf('\n', i + 1)) offsets[id++] = i + 1;
  offsets[n] = w.length + 1;
  return offsets;
}

/**
 * The hash table over the `n` terms of `w` at `offsets` (termStarts): FNV-1a of each term (charTables.ts hashRange),
 * linear probing, term id + 1 per bucket, at least twice as many buckets as terms. A loaded vocabulary looks terms
 * up in it; the cache file stores it too (wordsInFile.ts), so a one-off query probes it there.
 */
export function termTable(w: string, offsets: Uint32Array, n: number): Int32Array {
  return tableOf(n, (t) => hashRange(w, offsets[t], offsets[t + 1] - 1));
}

/** termTable() of `n` terms given by their hashes: term t in the bucket of hashOf(t), in id order. */
function tableOf(n: number, hashOf: (t: number) => number, into?: Int32Array, from = 0): Int32Array {
  return probeTable(n, hashOf, 1024, into, from);
}

/**
 * The vocabulary: term ↔ id. Terms restored from a cache file stay the file's bytes until a look-up needs more than a
 * search of them, then one string (no Map of hundreds of thousands of strings to rebuild per run); a hash table over
 * it is built when many look-ups come (indexing), a few (a query) just search the bytes or the string. New terms go
 * to a KeyTable (characters in one pool, no string per term). Look-ups take the term as a string, or as characters in
 * a scratch array (indexing: no string per word).
 */
export class Vocabulary {
  /** The restored terms, '\n'-separated: decoded from `stored` when first needed (a query's look-ups do not need it). */
  private loadedText = '';
  private stored: StoredWords | null = null;
  /** The restored terms still in the cache file (a one-off query's look-ups probe its table there). */
  private inFile: WordsInFile | null = null;
  private loadedCount = 0;
  private offsets: Uint32Array | null = null;
  private table: Int32Array | null = null;
  private added = new KeyTable();
  private lookups = 0;
  private key = new Uint16Array(64);

  get size(): number {
    return this.loadedCount + this.added.count;
  }

  /**
   * Takes `count` terms as the cache file stores them; false (and empty) when the marks do not fit them. The bytes
   * are decoded when a look-up needs the table, a term's text or the whole (serialize).
   */
  restore(words: StoredWords | StoredWordsInFile, count: number): boolean {
    this.loadedText = '';
    this.offsets = null;
    this.table = null;
    this.lookups = 0;
    this.added = new KeyTable();
    this.stored = null;
    this.inFile = null;
    if ('table' in words) {
      const inFile = new WordsInFile(words, WORD_MARK_EVERY);
      const ok = inFile.valid(count);
      if (ok && count) this.inFile = inFile;
      else inFile.drop();
      this.loadedCount = ok ? count : 0;
      return ok;
    }
    const { bytes, marks } = words;
    let ok = marks.length === Math.ceil(count / WORD_MARK_EVERY) && (count > 0) === bytes.length > 0;
    for (let k = 0; ok && k < marks.length; k++) ok = marks[k] < bytes.length && (k === 0 ? marks[k] === 0 : marks[k] > marks[k - 1] && bytes[marks[k] - 1] === NL);
    this.stored = ok && count ? words : null;
    this.loadedCount = ok ? count : 0;
    return ok;
  }

  /** Lets go of the cache file without reading the terms left there (the vocabulary is thrown away). */
  drop(): void {
    this.inFile?.drop();
    this.inFile = null;
  }

  /** The restored terms as the cache file stores them (read from it when they are still there, which is let go). */
  storedBytes(): Buffer {
    if (!this.inFile) return this.stored?.bytes ?? Buffer.from(this.loaded, 'utf8');
    const bytes = this.inFile.bytes();
    this.stored = { bytes, marks: this.inFile.marks };
    this.inFile = null;
    return bytes;
  }

  /** The restored terms' string (decoded on first use). */
  private get loaded(): string {
    if (this.inFile) this.storedBytes();
    if (this.stored) {
      this.loadedText = this.stored.bytes.toString('utf8');
      this.stored = null;
    }
    return this.loadedText;
  }

  /** The id of a restored term by a search of the stored bytes, counting terms from the mark before the match. */
  private scanStored(stored: StoredWords, term: string): number | undefined {
    const { bytes, marks } = stored;
    if (!term) return undefined;
    const t = Buffer.from(term, 'utf8');
    for (let at = bytes.indexOf(t); at >= 0; at = bytes.indexOf(t, at + 1)) {
      const end = at + t.length;
      if ((at === 0 || bytes[at - 1] === NL) && (end === bytes.length || bytes[end] === NL)) {
        const k = lastAtOrBefore(marks, marks.length, at);
        let id = k * WORD_MARK_EVERY;
        for (let i = marks[k]; i < at; i++) if (bytes[i] === NL) id++;
        return id < this.loadedCount ? id : undefined;
      }
    }
    return undefined;
  }

  /** Where each restored term starts in `loaded` (entry n: one past the end). */
  private starts(): Uint32Array {
    return (this.offsets ??= termStarts(this.loaded, this.loadedCount));
  }

  private index(): Int32Array {
    return (this.table = termTable(this.loaded, this.starts(), this.loadedCount));
  }

  /** The id of a restored term by a plain search of `loaded` (no table: a query looks up a few dozen terms). */
  private scan(term: string): number | undefined {
    if (this.inFile) return this.inFile.find(term, this.loadedCount);
    if (this.stored) return this.scanStored(this.stored, term);
    const w = this.loaded;
    for (let at = w.indexOf(term); at >= 0; at = w.indexOf(term, at + 1)) {
      const end = at + term.length;
      if ((at === 0 || w.charCodeAt(at - 1) === NL) && (end === w.length || w.charCodeAt(end) === NL)) {
        // the id is the number of terms before: the last start at or before the match
        return lastAtOrBefore(this.starts(), this.loadedCount, at);
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

  /**
   * termTable() over every term (as serialize() gives them): the table built for look-ups, with the terms added since
   * put in, when it has room for them (the same table, since both take the terms in id order); else built anew.
   */
  serializedTable(): Int32Array {
    const n = this.size;
    const loaded = this.loadedCount;
    // the added terms' hashes as their table keeps them (a build adds every term: no term is hashed again)
    const added = this.added.hashes();
    const hashOf = (t: number) => (t < loaded ? hashRange(this.loaded, this.starts()[t], this.starts()[t + 1] - 1) : added[t - loaded]);
    const built = this.table;
    if (!built || built.length < 2 * n) return tableOf(n, hashOf);
    return added.length ? tableOf(n, hashOf, Int32Array.from(built), loaded) : built;
  }

  /** Every term, id order, joined by '\n' (KeyTable.SEP). */
  serialize(): string {
    if (!this.added.count) return this.loaded;
    const more = this.added.joined();
    return this.loadedCount ? this.loaded + '\n' + more : more;
  }
}
