// One indexed file as the workspace index keeps it (FileEntry), built by a walk or restored from the cache file
// (indexCache.ts lays that file out; fileTable.ts makes a restored file's entry when it is asked for): its numbers, its
// symbols and import specifiers, kept as the cache's bytes until asked for, and its resolved imports.
import { detach } from './tokens';
import type { OpenCacheFile } from './cacheFile';
import type { FileStamp } from './disk';

/** Separates a file's symbols or specifiers (both come from one line of the file). */
export const ITEM_SEP = '\n';

/**
 * A file's symbols or specifiers as FileEntry keeps them: one string, a copy (join copies its pieces; a single one
 * is detached), so nothing cut from the file's text keeps that text alive.
 */
export function joinItems(items: readonly string[]): string {
  return items.length === 1 ? detach(items[0]) : items.join(ITEM_SEP);
}

/** A section left in the open cache file (cacheFile.ts): where it starts and how many bytes it has. */
export interface InFile {
  file: OpenCacheFile;
  at: number;
  length: number;
}

/**
 * A string section of the cache file, file i's piece bytes[start, ends[i]), where start is 0 or one past the previous
 * piece's end (a FILE_SEP between pieces), decoded when asked for. The bytes stay in the open cache file until
 * load() (a one-off query reads the few pieces it asks for: on the bench's 50,000 files, 7 MB of symbols and
 * specifiers it does not read at all), or are given.
 */
export class StoredPieces {
  private bytes: Buffer | null;
  private inFile: InFile | null;
  private readonly release: () => void = () => {};
  private readonly length: number;

  constructor(
    from: Buffer | InFile,
    private readonly ends: Uint32Array,
  ) {
    if (Buffer.isBuffer(from)) {
      this.bytes = from;
      this.inFile = null;
    } else {
      this.bytes = null;
      this.inFile = from;
      this.release = from.file.hold();
    }
    this.length = from.length;
  }

  /** Each piece within the bytes and not before the previous one. */
  valid(): boolean {
    let start = 0;
    for (let i = 0; i < this.ends.length; i++) {
      if (this.ends[i] < start || this.ends[i] > this.length) return false;
      start = this.ends[i] + 1;
    }
    return true;
  }

  get(i: number): string {
    const start = i ? this.ends[i - 1] + 1 : 0;
    const end = this.ends[i];
    if (this.bytes) return this.bytes.toString('utf8', start, end);
    return end > start ? this.inFile!.file.read(end - start, this.inFile!.at + start).toString('utf8') : '';
  }

  /** Reads the whole section from the file (every piece is about to be asked for: a save, a change) and lets it go. */
  load(): void {
    if (!this.inFile) return;
    this.bytes = this.inFile.file.read(this.length, this.inFile.at);
    this.inFile = null;
    this.release();
  }
}

/**
 * What a load restored for every entry (shared): paths for the imports' indices, symbols and specifiers as bytes, the
 * ctimes (the numbers section's last run).
 */
export interface Restored {
  paths: readonly string[];
  ctimes: Float64Array;
  targets: Uint32Array;
  symbols: StoredPieces;
  specs: StoredPieces;
}

/**
 * Whether a stat shows a file with the stamp it was read with (size, mtime, ctime); a restored file read too soon
 * after a change has its mtime stored as NaN, which no stat equals (FileEntry.unchangedAt adds `racy` for the others).
 */
export function stampUnchanged(st: FileStamp, size: number, mtimeMs: number, ctimeMs: number): boolean {
  return st.size === size && st.mtimeMs === mtimeMs && st.ctimeMs === ctimeMs;
}

/** An indexed file as the index's queries give it (WorkspaceIndex.get / all; a FileEntry is one). */
export interface IndexedFile {
  path: string;
  size: number;
  mtimeMs: number;
  /** Characters of the text (what the file costs in a prompt). */
  chars: number;
  symbols: string[];
  /** Import specifiers as written. */
  specs: string[];
  /** Workspace files this file imports (relative specifiers resolved; filled by resolveImports). */
  imports: string[];
}

/** An indexed file (its public view: IndexedFile). */
export class FileEntry {
  /** Symbols: split, or one string (split on first use), or null while they are the restored bytes of entry `at`. */
  private sym: string[] | string | null;
  private spec: string[] | string | null;
  /** Resolved imports, or null while they are the restored indices targets[impAt, impEnd). */
  private imp: string[] | null;
  /** The ctime, or null while it is the restored ctimes[at]. */
  private ctime: number | null;
  private restored: Restored | null = null;
  private at = 0;
  private impAt = 0;
  private impEnd = 0;
  /** The index's last walk that met this file (fileTable.ts keeps it per slot for a restored one). */
  seen = 0;
  /**
   * Read within a clock step of its mtime or ctime (fileRead.ts racyStamp): its stamp does not tell that it is
   * unchanged, so it is read again next time (the cache file stores its mtime as NaN, which no stat equals).
   */
  racy = false;

  constructor(
    readonly path: string,
    public size: number,
    public mtimeMs: number,
    /** The ctime when it was stat'ed (null: restored, see restore()). */
    ctimeMs: number | null,
    /** Characters of the text (what the file costs in a prompt). */
    public chars: number,
    symbols: string[] | string | null,
    specs: string[] | string | null,
  ) {
    this.ctime = ctimeMs;
    this.sym = symbols;
    this.spec = specs;
    this.imp = [];
  }

  /** The inode's change time when the file was stat'ed (a rewrite that puts the mtime back still moves it). */
  get ctimeMs(): number {
    return this.ctime ?? this.restored!.ctimes[this.at];
  }

  /** Whether a stat shows the file as it was read: the same stamp, and not read within a clock step of it (racy). */
  unchangedAt(st: FileStamp): boolean {
    return stampUnchanged(st, this.size, this.mtimeMs, this.ctimeMs) && !this.racy;
  }

  /** Top-level symbol names, exported ones first. */
  get symbols(): string[] {
    if (!Array.isArray(this.sym)) {
      const s = this.symText();
      this.sym = s ? s.split(ITEM_SEP) : [];
    }
    return this.sym;
  }
  set symbols(v: string[]) {
    this.sym = v;
  }

  /** Import specifiers as written. */
  get specs(): string[] {
    if (!Array.isArray(this.spec)) {
      const s = this.specText();
      this.spec = s ? s.split(ITEM_SEP) : [];
    }
    return this.spec;
  }
  set specs(v: string[]) {
    this.spec = v;
  }

  /** Workspace files this file imports (its specifiers resolved by the index). */
  get imports(): string[] {
    if (!this.imp) {
      const r = this.restored!;
      const out: string[] = [];
      for (let i = this.impAt; i < this.impEnd; i++) out.push(r.paths[r.targets[i]]);
      this.imp = out;
    }
    return this.imp;
  }
  set imports(v: string[]) {
    this.imp = v;
  }

  /** How many workspace files this file imports (no array made for a restored entry's). */
  get importCount(): number {
    return this.imp ? this.imp.length : this.impEnd - this.impAt;
  }

  /** The specifiers as they are written in the cache file (no split when they were never asked for). */
  specText(): string {
    if (this.spec === null) this.spec = this.restored!.specs.get(this.at);
    return typeof this.spec === 'string' ? this.spec : this.spec.join(ITEM_SEP);
  }

  symText(): string {
    if (this.sym === null) this.sym = this.restored!.symbols.get(this.at);
    return typeof this.sym === 'string' ? this.sym : this.sym.join(ITEM_SEP);
  }

  /**
   * Restored as entry `at` of `r` (its ctime, when not given, is r.ctimes[at]); its imports are targets[impAt, impEnd),
   * indices into the restored paths.
   */
  restore(r: Restored, at: number, impAt: number, impEnd: number): void {
    this.restored = r;
    this.at = at;
    this.imp = null;
    this.impAt = impAt;
    this.impEnd = impEnd;
  }
}
