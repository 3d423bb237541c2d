// The workspace index's files by path (indexContent.ts keeps them in step with the text index and the import graph):
// a Map of FileEntry by workspace-relative path, in a Map's order (insertion; a path deleted and set again comes
// last), whose files restored from the cache file (indexCache.ts) stay the cache's numbers until one is asked for.
// A warm `cape context` finds tens of thousands of files unchanged and looks at a few hundred: an entry object and a
// Map entry per file at load were about a third of its main thread's time on the bench's 50,000-file workspace, in
// objects to make, memory to touch and garbage to collect. A restored file is found by its path through the hash
// table the cache file stores (pathSlot: FNV-1a of the path, charTables.ts's hashRange, open addressing), its
// FileEntry made when first asked for, and the walk's mark of it (met this walk) kept per slot.
import { hashRange, probeTable } from './charTables';
import { FileEntry, stampUnchanged, type Restored } from './indexEntry';
import type { EntryStat } from './disk';

/** The files of a cache file, as readCache gives them (its file order is their slot order). */
export interface RestoredFiles extends Restored {
  /** size, mtime (NaN: read too soon after a change to trust it), characters, ctime: a run of one number per file each. */
  numbers: Float64Array;
  /** Per file, how many of `targets` are its resolved imports (the files' runs follow each other). */
  importLens: Uint32Array;
  /** Open addressing over the paths by pathHash(): slot + 1 per bucket, 0 for an empty one; a power of two long. */
  table: Int32Array;
}

/** The hash a path is stored under in the cache file's table (the writer and the look-up agree on it here). */
export function pathHash(rel: string): number {
  return hashRange(rel, 0, rel.length);
}

/** A UTF-16 surrogate: a path holding a lone one comes back from the cache file's UTF-8 with U+FFFD in its place. */
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * The cache file's table over `paths` (pathHash of each as the file gives it back, linear probing, at least twice as
 * many buckets as paths).
 */
export function pathTable(paths: readonly string[]): Int32Array {
  if (!paths.length) return new Int32Array(0);
  return probeTable(paths.length, (i) => pathHash(SURROGATE.test(paths[i]) ? Buffer.from(paths[i], 'utf8').toString('utf8') : paths[i]), 16);
}

/** Whether a stored table can serve `n` paths: a power of two with room to spare, every bucket empty or a slot. */
export function validPathTable(table: Int32Array, n: number): boolean {
  if (!n) return table.length === 0;
  if (table.length < 2 * n || table.length & (table.length - 1)) return false;
  let used = 0;
  for (let i = 0; i < table.length; i++) {
    if (table[i] < 0 || table[i] > n) return false;
    if (table[i]) used++;
  }
  return used === n;
}

export class FileTable {
  private base: RestoredFiles | null = null;
  /** Per slot: its FileEntry once asked for (undefined before), null once deleted. */
  private made: (FileEntry | null | undefined)[] = [];
  /** Per slot: where its imports start in `targets` (slot + 1: where they end). */
  private importStarts = new Uint32Array(1);
  /** Per slot: the last walk that met it. */
  private seenAt = new Int32Array(0);
  /** Slots not deleted. */
  private live = 0;
  /** Files that are not a live slot (every file of a build), in the order they were set. */
  private readonly added = new Map<string, FileEntry>();

  get size(): number {
    return this.live + this.added.size;
  }

  /** Starts over with the files of a cache file (every one live, none asked for yet). */
  restore(files: RestoredFiles): void {
    const n = files.paths.length;
    this.base = files;
    this.made = new Array<FileEntry | null | undefined>(n);
    this.importStarts = new Uint32Array(n + 1);
    for (let i = 0; i < n; i++) this.importStarts[i + 1] = this.importStarts[i] + files.importLens[i];
    this.seenAt = new Int32Array(n);
    this.live = n;
    this.added.clear();
  }

  /** Reads what the restored files left in the cache file (their symbols and specifiers): every entry is about to be read. */
  loadAll(): void {
    this.base?.symbols.load();
    this.base?.specs.load();
  }

  /** The live slot of a path, or -1. */
  private slot(rel: string): number {
    const b = this.base;
    if (!b || !this.live) return -1;
    const mask = b.table.length - 1;
    for (let s = pathHash(rel) & mask; ; s = (s + 1) & mask) {
      const at = b.table[s] - 1;
      if (at < 0) return -1;
      if (b.paths[at] === rel) return this.made[at] === null ? -1 : at;
    }
  }

  /** The entry of a live slot, made on first use. */
  private entryAt(at: number): FileEntry {
    const made = this.made[at];
    if (made) return made;
    const b = this.base!;
    const n = b.paths.length;
    const f = new FileEntry(b.paths[at], b.numbers[at], b.numbers[n + at], null, b.numbers[2 * n + at], null, null);
    f.restore(b, at, this.importStarts[at], this.importStarts[at + 1]);
    return (this.made[at] = f);
  }

  // get() and has() go straight to `added` when nothing restored is live (a build: the import graph asks millions)
  get(rel: string): FileEntry | undefined {
    const at = this.live ? this.slot(rel) : -1;
    return at >= 0 ? this.entryAt(at) : this.added.get(rel);
  }

  has(rel: string): boolean {
    return (this.live > 0 && this.slot(rel) >= 0) || this.added.has(rel);
  }

  set(rel: string, entry: FileEntry): void {
    const at = this.slot(rel);
    if (at >= 0) this.made[at] = entry;
    else this.added.set(rel, entry);
  }

  delete(rel: string): boolean {
    const at = this.slot(rel);
    if (at < 0) return this.added.delete(rel);
    this.made[at] = null;
    this.live--;
    return true;
  }

  *keys(): IterableIterator<string> {
    const b = this.base;
    if (b) for (let at = 0; at < b.paths.length; at++) if (this.made[at] !== null) yield b.paths[at];
    yield* this.added.keys();
  }

  /** Every entry (a restored one is made here: for a walk's or a query's few, get() them). */
  *values(): IterableIterator<FileEntry> {
    const b = this.base;
    if (b) for (let at = 0; at < b.paths.length; at++) if (this.made[at] !== null) yield this.entryAt(at);
    yield* this.added.values();
  }

  /** The entries that import any workspace file (no entry made for a restored file that imports none). */
  *importing(): IterableIterator<FileEntry> {
    const b = this.base;
    if (b) {
      for (let at = 0; at < b.paths.length; at++) {
        const made = this.made[at];
        if (made === null || (made ? !made.importCount : !b.importLens[at])) continue;
        yield this.entryAt(at);
      }
    }
    for (const f of this.added.values()) if (f.importCount) yield f;
  }

  /** Marks a path's entry met in walk `gen` (nothing when the index has none). */
  see(rel: string, gen: number): void {
    const at = this.slot(rel);
    if (at >= 0) this.seenAt[at] = gen;
    else {
      const f = this.added.get(rel);
      if (f) f.seen = gen;
    }
  }

  /**
   * Whether the restored file of slot `at` is live and unchanged at `st` (FileEntry.unchangedAt's rule; no entry
   * made for one not asked for yet): then it is marked met in walk `gen`.
   */
  meetUnchanged(at: number, gen: number, st: EntryStat | null): boolean {
    const b = this.base;
    if (!b || at < 0 || at >= b.paths.length || !st?.isFile()) return false;
    const made = this.made[at];
    if (made === null) return false;
    const n = b.paths.length;
    if (made ? !made.unchangedAt(st) : !stampUnchanged(st, b.numbers[at], b.numbers[n + at], b.numbers[3 * n + at])) return false;
    this.seenAt[at] = gen;
    return true;
  }

  /** The paths not met in walk `gen`, in order. */
  unseen(gen: number): string[] {
    const out: string[] = [];
    const b = this.base;
    if (b) for (let at = 0; at < b.paths.length; at++) if (this.made[at] !== null && this.seenAt[at] !== gen) out.push(b.paths[at]);
    for (const [rel, f] of this.added) if (f.seen !== gen) out.push(rel);
    return out;
  }
}
