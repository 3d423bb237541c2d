// Hash tables keyed by UTF-16 characters for the text index (termIndex.ts), with their keys in one pool each: a
// build meets millions of words and hundreds of thousands of distinct terms, and a JS string (plus a Map entry) per
// key weighed more in time and garbage collection than the index itself. A key is looked up by its characters where
// they are (in the file's text, or in a small scratch array), so a hit allocates nothing.

/**
 * A table over items 0..n-1 by their hashes, as the cache file stores its path and term tables: linear probing, a
 * bucket holding item + 1 (0: empty), a power of two of at least twice `n` buckets and never fewer than `minSize`.
 * With `into` (a table grown in place), only the items from `from` on are placed.
 */
export function probeTable(n: number, hashOf: (item: number) => number, minSize: number, into?: Int32Array, from = 0): Int32Array {
  let size = minSize;
  while (size < n * 2) size *= 2;
  const table = into ?? new Int32Array(size);
  const mask = table.length - 1;
  for (let t = from; t < n; t++) {
    let s = hashOf(t) & mask;
    while (table[s]) s = (s + 1) & mask;
    table[s] = t + 1;
  }
  return table;
}

/** FNV-1a over the UTF-16 units of s[start, end). */
export function hashRange(s: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** FNV-1a over key[0, len) (the same hash as hashRange over the same characters). */
export function hashKey(key: Uint16Array, len: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < len; i++) h = Math.imul(h ^ key[i], 0x01000193);
  return h >>> 0;
}

type Growable = { length: number; set(a: ArrayLike<number>): void };

/** The array itself when it holds `need` elements, else a copy at least twice as long. */
export function grow<T extends Growable>(a: T, need: number): T {
  if (need <= a.length) return a;
  const b = new (a.constructor as { new (n: number): T })(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

/**
 * A set of keys given as characters (a scratch Uint16Array), numbered 0, 1, … in order of addition. The keys sit in
 * one pool, each followed by SEP, so the pool read as a string is every key in order, joined by SEP.
 */
export class KeyTable {
  /** Per slot: [hash, entry + 1] (0: empty). */
  private slots = new Int32Array(1 << 11);
  /** Where each entry's key starts in `chars` (entry `count`: one past the last key's SEP). */
  private keyAt = new Int32Array(1 << 10);
  private chars = new Uint16Array(1 << 12);
  private at = 0;
  count = 0;

  static readonly SEP = 10;

  /** The entry whose key is key[0, len) (hash h), or -1 (then add() inserts it). */
  find(key: Uint16Array, len: number, h: number): number {
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    const chars = this.chars;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const e = slots[2 * s + 1] - 1;
      if (e < 0) {
        this.at = s;
        return -1;
      }
      if (slots[2 * s] !== (h | 0)) continue;
      const k = this.keyAt[e];
      if (this.keyAt[e + 1] - 1 - k !== len) continue;
      let i = 0;
      while (i < len && chars[k + i] === key[i]) i++;
      if (i === len) return e;
    }
  }

  /** Adds key[0, len) (hash h); call right after find() returned -1 for it. Returns its entry. */
  add(key: Uint16Array, len: number, h: number): number {
    const e = this.count++;
    this.keyAt = grow(this.keyAt, e + 2);
    const k = this.keyAt[e];
    this.chars = grow(this.chars, k + len + 1);
    const chars = this.chars;
    for (let i = 0; i < len; i++) chars[k + i] = key[i];
    chars[k + len] = KeyTable.SEP;
    this.keyAt[e + 1] = k + len + 1;
    this.slots[2 * this.at] = h | 0;
    this.slots[2 * this.at + 1] = e + 1;
    // at most half full: twice the slots, every key placed again
    if (2 * this.count > this.slots.length >> 1) this.rehash();
    return e;
  }

  private rehash(): void {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2);
    const mask = (slots.length >> 1) - 1;
    for (let s = 0; s < old.length >> 1; s++) {
      if (!old[2 * s + 1]) continue;
      let t = old[2 * s] & mask;
      while (slots[2 * t + 1]) t = (t + 1) & mask;
      slots[2 * t] = old[2 * s];
      slots[2 * t + 1] = old[2 * s + 1];
    }
    this.slots = slots;
  }

  /** Each entry's hash (as given to add()), in entry order. */
  hashes(): Int32Array {
    const out = new Int32Array(this.count);
    for (let s = 0; s < this.slots.length; s += 2) if (this.slots[s + 1]) out[this.slots[s + 1] - 1] = this.slots[s];
    return out;
  }

  /** The key of an entry. */
  key(e: number): string {
    return this.slice(this.keyAt[e], this.keyAt[e + 1] - 1);
  }

  /** Every key in entry order, joined by SEP. */
  joined(): string {
    return this.count ? this.slice(0, this.keyAt[this.count] - 1) : '';
  }

  private slice(a: number, b: number): string {
    return Buffer.from(this.chars.buffer, this.chars.byteOffset + 2 * a, 2 * (b - a)).toString('utf16le');
  }
}

/**
 * Raw word → its term ids, while indexing (code repeats its identifiers). An open-addressing table keyed by the
 * word's hash, its keys' characters in one pool and compared against the text in place: a word already seen costs
 * no substring, no string kept, no Map look-up. Starts over when full (it only saves work).
 */
export class WordMemo {
  /** Per slot: [hash, entry + 1] (0: empty), side by side so a probe touches one place. */
  private slots: Int32Array;
  private count = 0;
  /** Per entry: where its key starts in `chars`, where its ids start in `pool` (entry + 1: where they end). */
  private keyAt: Int32Array;
  private idsAt: Int32Array;
  private chars = new Uint16Array(1 << 20);
  pool = new Uint32Array(1 << 18);
  /** The slot find() stopped at (where add() inserts). */
  private at = 0;

  constructor(private readonly max: number) {
    this.slots = new Int32Array(max * 4);
    this.keyAt = new Int32Array(max + 1);
    this.idsAt = new Int32Array(max + 1);
  }

  clear(): void {
    if (!this.count) return;
    this.slots.fill(0);
    this.count = 0;
  }

  /** The entry of text[start, stop) (hash h), or -1. */
  find(text: string, start: number, stop: number, h: number): number {
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    // an empty memo (a query's count() on a warm index): no probe, so no page of its megabytes of slots is touched
    if (!this.count) {
      this.at = h & mask;
      return -1;
    }
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

  /** Adds text[start, stop) with ids[0, n); call right after find() returned -1 for it. Returns the entry. */
  add(text: string, start: number, stop: number, h: number, ids: Uint32Array, n: number): number {
    if (this.count >= this.max) {
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
    this.pool = grow(this.pool, at + n);
    const pool = this.pool;
    for (let i = 0; i < n; i++) pool[at + i] = ids[i];
    this.idsAt[e + 1] = at + n;
    this.slots[2 * this.at] = h | 0;
    this.slots[2 * this.at + 1] = e + 1;
    return e;
  }

  /** The entry's ids are pool[idsStart(e), idsEnd(e)). */
  idsStart(e: number): number {
    return this.idsAt[e];
  }

  idsEnd(e: number): number {
    return this.idsAt[e + 1];
  }
}

/**
 * The distinct raw words of one text with their counts (for the BM25 re-scoring of a candidate). Reused from text to
 * text: a generation number empties it.
 */
export class TextWords {
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

  /** Empties the set for a text of `words` words. */
  reset(words: number): void {
    let want = this.gen.length;
    while (want < 2 * words) want *= 2;
    if (want > this.gen.length) {
      this.gen = new Int32Array(want);
      this.slotHash = new Int32Array(want);
      this.slotWord = new Int32Array(want);
      this.generation = 0;
    }
    this.generation++;
    this.size = 0;
  }

  /** Adds text[start, stop) when it is not in the set yet, else counts it once more. */
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
