// The text index's vocabulary (vocabulary.ts) left in the cache file for a one-off query: its terms (UTF-8,
// '\n'-separated, 6.5 MB for the 355,000 terms of the bench's 50,000 files) and the hash table over them the file
// stores (termTable: FNV-1a of each term, the table a loaded vocabulary builds itself). A query looks up a few dozen
// terms: each probes the table in the file and checks the term's bytes, found from the nearest word mark, instead
// of the whole vocabulary being read and searched. The vocabulary reads it all (bytes()) once many look-ups come.
import { hashRange } from './charTables';
import type { InFile } from './indexEntry';

const NL = 10;

/** The stored vocabulary: its terms and its table left in the open cache file, and its marks (vocabulary.ts wordMarks). */
export interface StoredWordsInFile {
  words: InFile;
  table: InFile;
  marks: Uint32Array;
}

export class WordsInFile {
  private readonly release: () => void;
  private block = -1;
  private blockBytes: Buffer | null = null;

  constructor(
    private readonly stored: StoredWordsInFile,
    /** Terms per word mark (vocabulary.ts WORD_MARK_EVERY). */
    private readonly every: number,
  ) {
    this.release = stored.words.file.hold();
  }

  /** The word marks (vocabulary.ts wordMarks) of the stored terms. */
  get marks(): Uint32Array {
    return this.stored.marks;
  }

  /** Whether the marks and the table fit `count` terms (the byte before each mark a separator, a table of room). */
  valid(count: number): boolean {
    const { words, table, marks } = this.stored;
    if (marks.length !== Math.ceil(count / this.every) || (count > 0) !== words.length > 0) return false;
    if (count && (table.length % 4 || table.length / 4 < 2 * count || (table.length / 4) & (table.length / 4 - 1))) return false;
    for (let k = 0; k < marks.length; k++) {
      if (marks[k] >= words.length || (k === 0 ? marks[k] !== 0 : marks[k] <= marks[k - 1])) return false;
      if (k > 0 && words.file.read(1, words.at + marks[k] - 1)[0] !== NL) return false;
    }
    return true;
  }

  /** The id of a stored term, or undefined (`count`: the terms stored). */
  find(term: string, count: number): number | undefined {
    if (!term || !count) return undefined;
    const { table } = this.stored;
    const want = Buffer.from(term, 'utf8');
    const mask = table.length / 4 - 1;
    for (let s = hashRange(term, 0, term.length) & mask; ; s = (s + 1) & mask) {
      const id = table.file.read(4, table.at + 4 * s).readInt32LE(0) - 1;
      if (id < 0) return undefined;
      if (id < count && this.termBytes(id).equals(want)) return id;
    }
  }

  /** The bytes of term `id`, from its block (the terms between two marks, read once). */
  private termBytes(id: number): Buffer {
    const { words, marks } = this.stored;
    const k = Math.floor(id / this.every);
    if (k !== this.block) {
      const end = k + 1 < marks.length ? marks[k + 1] : words.length;
      this.blockBytes = words.file.read(end - marks[k], words.at + marks[k]);
      this.block = k;
    }
    const b = this.blockBytes!;
    let start = 0;
    for (let n = id - k * this.every; n > 0; n--) start = b.indexOf(NL, start) + 1;
    const stop = b.indexOf(NL, start);
    return b.subarray(start, stop < 0 ? b.length : stop);
  }

  /** Lets the file go without reading the rest (the vocabulary is dropped or was refused). */
  drop(): void {
    this.release();
  }

  /** Every stored term's bytes (the vocabulary takes them whole); the file is let go. */
  bytes(): Buffer {
    try {
      return this.stored.words.file.read(this.stored.words.length, this.stored.words.at);
    } finally {
      this.release();
    }
  }
}
