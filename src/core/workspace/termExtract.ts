// The text index's reading of text (termIndex.ts): a text's raw words (runs of letters, digits, `_`, `$`, exactly as
// tokens.ts's terms() splits them) found by a char-code scanner (no regex split, no substring per word), each raw
// word's term ids through the vocabulary (an ASCII word split in place), memoised in a hash table compared in place
// (WordMemo: most words of code are repeats). collect() puts a file's distinct term ids together for its Doc;
// count() counts a query's terms in a whole text for the BM25 re-scoring (termScoring.ts).
import { grow, hashKey, TextWords, WordMemo, KeyTable } from './charTables';
import { asciiParts, normalizeTerm, terms, WHOLE_MAX, wordTerms } from './tokens';
import type { Vocabulary } from './vocabulary';

/** Content characters that go into a file's term set (the whole file is still read when it is a candidate). */
export const CONTENT_CAP = 64_000;
/** Raw words memoised while indexing (the memo starts over when full). */
const MEMO_MAX = 1 << 18;

/** One query's terms by string (term → id), and raw words already split into the query's term ids. */
export interface QueryWords {
  query: ReadonlyMap<string, number>;
  raw: Map<string, number[]>;
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

export class TermExtractor {
  private memo = new WordMemo(MEMO_MAX);
  /** Lower-cased ASCII identifier part → its term id, or -1 for none (stop word, number, too short or long). */
  private parts = new KeyTable();
  private partIds = new Int32Array(1024);
  /** Per term id, the last collect() call that saw it. */
  private mark = new Int32Array(1024);
  private stamp = 0;
  /** The ids collect() collects (a Doc is put together here and copied out once). */
  ids = new Uint32Array(4096);
  /** The number of words of the text collect() saw last. */
  wordCount = 0;
  /** words()'s output: each word of the text, in order, with the hash of its characters. */
  private wordStarts = new Int32Array(1024);
  private wordStops = new Int32Array(1024);
  private wordHashes = new Int32Array(1024);
  private textWords = new TextWords();
  /** Scratch of wordIds(): the term ids of one word, the cuts of its parts, a term's characters. */
  private one = new Uint32Array(64);
  private cuts = new Int32Array(128);
  private key = new Uint16Array(64);


  constructor(private readonly vocab: Vocabulary) {}

  /** Makes room for a term id in the per-term marks. */
  private room(id: number): number {
    if (id >= this.mark.length) this.mark = grow(this.mark, id + 1);
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
  collect(text: string, at: number, from = 0, to = 0): number {
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

  /** Forgets the word memo (after a build: it only speeds up indexing). */
  dropMemo(): void {
    this.memo = new WordMemo(MEMO_MAX);
  }

  /**
   * Counts the query's terms in a whole text (no cap). A raw word the word memo does not know (not met while indexing
   * in this process) is split into terms compared with the query's own (`known.query`: no vocabulary look-up, which
   * would search the restored vocabulary per word), and memoised in `known.raw` for this query.
   */
  count(text: string, q: Map<number, number>, known: QueryWords): { c: Map<number, number>; len: number } {
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
}
