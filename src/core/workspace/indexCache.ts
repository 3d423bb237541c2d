// The workspace index's cache file (cacheLocation.ts says where: one per workspace in the user's cache folder) and the
// index's file entries, which a warm run restores from it.
//
// A warm `cape context` on a 50,000-file workspace must answer within a second, so the file is laid out to be taken
// back without parsing per file: a small JSON header, then sections of one string or one typed array each (paths,
// symbols, import specifiers, the text index's vocabulary, numbers, resolved imports, the text index's document
// frequencies, so a warm run does not count them again, and last its Docs as its arena holds them, termDoc.ts, with
// the same index inverted, termPostings.ts). The files' numbers (size, mtime, characters, ctime) are one Float64Array,
// each a run of one number per file; a restored entry reads its ctime from it (no number of its own to box).
// A load reads everything but the last two sections at once; those stay in the open file (storedTerms.ts) until the
// index changes or needs them all, and a one-off query reads only its terms' postings and its candidates' Docs.
// A file's symbols and specifiers stay bytes of the cache file until someone asks for them (a query looks at a few
// hundred files of the 50,000; each file's end offset is stored, so nothing is scanned or decoded for the others),
// its resolved imports stay indices into the restored paths, and the vocabulary stays bytes too (vocabulary.ts looks
// a query's terms up in them). On a 2-core VM, each megabyte a warm run reads or decodes costs it a few milliseconds.
//
// Layout (little-endian; the cache is not written on big-endian machines):
//   CACHE_MAGIC (8 bytes) · u32 CACHE_VERSION · u32 bytes of the JSON header · the JSON header, then each section
//   padded to 8 bytes, in SECTIONS order, their byte lengths listed in the header, then the SHA-256 of every byte
//   before it (cacheDigest.ts): a file that is not byte for byte the one written is not used.
// A file of another version (an older layout, whose bytes after the magic mean something else) is never parsed
// further: the index is then rebuilt and the file rewritten.
import * as fs from 'fs';
import type { RestoredTermIndex, TermIndexData } from './termIndex';
import { detach } from './tokens';
import { wordMarks } from './vocabulary';
import { postingChunks } from './termPostings';
import { StoredTerms } from './storedTerms';
import { readAt, type FileStamp } from './disk';
import { DIGEST_BYTES, sealed, sealIntact } from './cacheDigest';

/** Bump on any change of the layout or of what a section means. */
export const CACHE_VERSION = 14;
const CACHE_MAGIC = Buffer.from('CAPEIDX\n', 'latin1');
const HEAD_BYTES = CACHE_MAGIC.length + 8;
/** Separates files in the string sections: no path (and no text file's symbol or specifier) holds a NUL. */
const FILE_SEP = '\0';
/** Separates a file's symbols or specifiers (both come from one line of the file). */
const ITEM_SEP = '\n';
/** Files per piece of a string section written at once. */
const BATCH = 2048;

/** The sections, in file order (exported for the tests that damage one). */
export const SECTIONS = [
  'paths',
  'symbols',
  'specs',
  'words',
  'numbers',
  'importLens',
  'importTargets',
  'df',
  'symbolEnds',
  'specEnds',
  'wordMarks',
  'docStarts',
  // read by a one-off query only in part (storedTerms.ts), so they come last
  'docs',
  'postings',
] as const;
/** The first section a load does not read at once. */
const LEFT_IN_FILE = 'docs';

/**
 * A file's symbols or specifiers as FileEntry keeps them: one string, a copy (join copies its pieces; a single one
 * is detached), so nothing cut from the file's text keeps that text alive.
 */
export function joinItems(items: readonly string[]): string {
  return items.length === 1 ? detach(items[0]) : items.join(ITEM_SEP);
}

/**
 * A string section of the cache file kept as bytes: file i's piece is bytes[start, ends[i]), where start is 0 or one
 * past the previous piece's end (a FILE_SEP between pieces), decoded when asked for.
 */
class StoredPieces {
  constructor(
    private readonly bytes: Buffer,
    private readonly ends: Uint32Array,
  ) {}

  /** Each piece within the bytes and not before the previous one. */
  valid(): boolean {
    let start = 0;
    for (let i = 0; i < this.ends.length; i++) {
      if (this.ends[i] < start || this.ends[i] > this.bytes.length) return false;
      start = this.ends[i] + 1;
    }
    return true;
  }

  get(i: number): string {
    return this.bytes.toString('utf8', i ? this.ends[i - 1] + 1 : 0, this.ends[i]);
  }
}

/**
 * What a load restored for every entry (shared): paths for the imports' indices, symbols and specifiers as bytes, the
 * ctimes (the numbers section's last run).
 */
interface Restored {
  paths: readonly string[];
  ctimes: Float64Array;
  targets: Uint32Array;
  symbols: StoredPieces;
  specs: StoredPieces;
}

/** An indexed file (see IndexedFile in workspaceIndex.ts). */
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
  /** The index's last walk that met this file (workspaceIndex.ts). */
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
    return st.size === this.size && st.mtimeMs === this.mtimeMs && st.ctimeMs === this.ctimeMs && !this.racy;
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

/** A folder as the last walk found it (see DirRecord in treeWalk.ts), as stored. */
export type DirRow = [rel: string, mtimeMs: number, ctimeMs: number, gitignore: string | null, files: string, subdirs: string];

/** What the cache holds besides the files and the text index. */
export interface CacheHeader {
  root: string;
  /** What decides which files are admitted besides the disk; a cache made under other rules is not used. */
  policy: unknown;
  notText: [string, string][];
  /** The policy's aboveKey() when the folders were walked (absent in older files: they are walked again). */
  above?: string | null;
  dirs: DirRow[];
}

export interface CacheContent {
  header: CacheHeader;
  files: FileEntry[];
  /** The text index, Docs in the order of `files`. */
  text: RestoredTermIndex;
}

const pad8 = (n: number) => (8 - (n % 8)) % 8;
const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/**
 * The cache file's bytes, in pieces (no copy of the whole), its digest last. `text` is the text index serialised with
 * its Docs in the order of `files`.
 */
export function cacheChunks(header: CacheHeader, files: readonly FileEntry[], text: TermIndexData): Generator<Uint8Array | string> {
  return sealed(unsealedChunks(header, files, text));
}

function* unsealedChunks(header: CacheHeader, files: readonly FileEntry[], text: TermIndexData): Generator<Uint8Array | string> {
  const n = files.length;
  const numbers = new Float64Array(4 * n);
  const importLens = new Uint32Array(n);
  const at = new Map<string, number>();
  files.forEach((f, i) => at.set(f.path, i));
  let importCount = 0;
  files.forEach((f, i) => {
    numbers[i] = f.size;
    numbers[n + i] = f.racy ? NaN : f.mtimeMs;
    numbers[2 * n + i] = f.chars;
    numbers[3 * n + i] = f.ctimeMs;
    importLens[i] = f.imports.filter((p) => at.has(p)).length;
    importCount += importLens[i];
  });
  const importTargets = new Uint32Array(importCount);
  let k = 0;
  for (const f of files) for (const p of f.imports) if (at.has(p)) importTargets[k++] = at.get(p)!;
  // the per-file strings are written in batches (one joined string of 50,000 files' symbols is a peak of memory)
  const perFile = { paths: (f: FileEntry) => f.path, symbols: (f: FileEntry) => f.symText(), specs: (f: FileEntry) => f.specText() };
  const batches = function* (get: (f: FileEntry) => string): Generator<string> {
    for (let i = 0; i < n; i += BATCH) yield (i ? FILE_SEP : '') + files.slice(i, i + BATCH).map(get).join(FILE_SEP);
  };
  /** Where each file's piece ends in its section (bytes; the pieces are separated by FILE_SEP). */
  const endsOf = (get: (f: FileEntry) => string) => {
    const ends = new Uint32Array(n);
    let b = 0;
    files.forEach((f, i) => (ends[i] = b += (i ? 1 : 0) + Buffer.byteLength(get(f), 'utf8')));
    return ends;
  };
  const ends = { paths: endsOf(perFile.paths), symbols: endsOf(perFile.symbols), specs: endsOf(perFile.specs) };
  const words = Buffer.from(text.words, 'utf8');
  // where each file's Doc starts in `docs` (its Docs are the files', in order: one each, or the [1] placeholder)
  const docStarts = new Uint32Array(n);
  for (let i = 0, at = 0; i < n; at += text.docs[at], i++) docStarts[i] = at;
  let postings = 0;
  for (let t = 0; t < text.df.length; t++) postings += text.df[t];
  const arrays = { numbers, importLens, importTargets, docs: text.docs, df: text.df, symbolEnds: ends.symbols, specEnds: ends.specs, wordMarks: wordMarks(words), docStarts };
  const sizeOf = (s: (typeof SECTIONS)[number]): number => {
    if (s === 'words') return words.length;
    if (s === 'postings') return postings * 4;
    if (s in ends) return n ? ends[s as keyof typeof ends][n - 1] : 0;
    return arrays[s as keyof typeof arrays].byteLength;
  };
  const sizes = SECTIONS.map(sizeOf);
  const json = JSON.stringify({ ...header, files: n, textWords: text.totalLen, sections: sizes });
  const jsonBytes = Buffer.byteLength(json, 'utf8');
  const head = Buffer.alloc(HEAD_BYTES);
  CACHE_MAGIC.copy(head);
  head.writeUInt32LE(CACHE_VERSION, CACHE_MAGIC.length);
  head.writeUInt32LE(jsonBytes, CACHE_MAGIC.length + 4);
  yield head;
  yield json;
  yield Buffer.alloc(pad8(HEAD_BYTES + jsonBytes));
  for (let i = 0; i < SECTIONS.length; i++) {
    const s = SECTIONS[i];
    if (s === 'words') yield words;
    else if (s === 'postings') for (const piece of postingChunks(text.docs, text.df)) yield bytesOf(piece);
    else if (s in perFile) yield* batches(perFile[s as keyof typeof perFile]);
    else yield bytesOf(arrays[s as keyof typeof arrays]);
    if (pad8(sizes[i])) yield Buffer.alloc(pad8(sizes[i]));
  }
}

/**
 * The cache file's content when it is of this version, complete, undamaged (its digest) and made for `expect` (same
 * root and policy); null otherwise (missing, older, damaged, another workspace's), so the caller rebuilds;
 * `onDamaged` is called when the file was this version's for `expect` but damaged. Every section but the Docs and
 * postings is read now; those stay in the open file `fd` (text.docs, a StoredTerms, then owns it). The caller closes
 * `fd` when this returns null.
 */
export function readCache(
  fd: number,
  expect: { root: string; policy: unknown },
  onHeader?: (header: CacheHeader, files: number) => void,
  onDamaged?: () => void,
): CacheContent | null {
  let matched = false;
  const damaged = (): null => {
    onDamaged?.();
    return null;
  };
  try {
    const fileBytes = fs.fstatSync(fd).size;
    if (fileBytes < HEAD_BYTES) return null;
    const head = readAt(fd, HEAD_BYTES, 0);
    if (!head.subarray(0, CACHE_MAGIC.length).equals(CACHE_MAGIC)) return null;
    if (head.readUInt32LE(CACHE_MAGIC.length) !== CACHE_VERSION) return null;
    const jsonBytes = head.readUInt32LE(CACHE_MAGIC.length + 4);
    if (HEAD_BYTES + jsonBytes > fileBytes) return null;
    const header = JSON.parse(readAt(fd, jsonBytes, HEAD_BYTES).toString('utf8')) as CacheHeader & { files: number; textWords: number; sections: number[] };
    if (header.root !== expect.root || JSON.stringify(header.policy) !== JSON.stringify(expect.policy)) return null;
    // this version's file for this workspace and rules: whatever is wrong from here on is damage
    matched = true;
    const n = header.files;
    const sizes = header.sections;
    if (!Number.isSafeInteger(n) || n < 0 || !Array.isArray(sizes) || sizes.length !== SECTIONS.length) return damaged();
    if (!Array.isArray(header.notText) || !Array.isArray(header.dirs)) return damaged();
    // before the sections are read: the caller may start work that needs only the header (statAhead.ts)
    onHeader?.(header, n);
    const first = HEAD_BYTES + jsonBytes + pad8(HEAD_BYTES + jsonBytes);
    let at = first;
    const part: Record<string, [number, number]> = {};
    for (let i = 0; i < SECTIONS.length; i++) {
      const size = sizes[i];
      if (!Number.isSafeInteger(size) || size < 0) return damaged();
      part[SECTIONS[i]] = [at, size];
      at += size + pad8(size);
    }
    if (at + DIGEST_BYTES !== fileBytes) return damaged();
    // every byte as written (the Docs and postings too: a one-off query reads them later from this open file)
    if (!sealIntact(fd, fileBytes)) return damaged();
    // one read up to the sections left in the file; offsets in it stay 8-aligned (every section starts so)
    const buf = readAt(fd, part[LEFT_IN_FILE][0] - first, first);
    const str = (s: (typeof SECTIONS)[number]) => buf.toString('utf8', part[s][0] - first, part[s][0] - first + part[s][1]);
    const view = <T>(s: (typeof SECTIONS)[number], Type: { new (b: ArrayBufferLike, off: number, len: number): T; BYTES_PER_ELEMENT: number }): T => {
      const [off, size] = part[s];
      if (size % Type.BYTES_PER_ELEMENT) throw new Error(`section ${s}`);
      return new Type(buf.buffer, buf.byteOffset + off - first, size / Type.BYTES_PER_ELEMENT);
    };
    const bytes = (s: (typeof SECTIONS)[number]) => buf.subarray(part[s][0] - first, part[s][0] - first + part[s][1]);
    const paths = n ? str('paths').split(FILE_SEP) : [];
    const pieces = (s: 'symbols' | 'specs', ends: 'symbolEnds' | 'specEnds') => new StoredPieces(bytes(s), view(ends, Uint32Array));
    const symbols = pieces('symbols', 'symbolEnds');
    const specs = pieces('specs', 'specEnds');
    const numbers = view('numbers', Float64Array);
    const importLens = view('importLens', Uint32Array);
    const importTargets = view('importTargets', Uint32Array);
    if (paths.length !== n || numbers.length !== 4 * n || importLens.length !== n) return damaged();
    if (view('symbolEnds', Uint32Array).length !== n || view('specEnds', Uint32Array).length !== n || !symbols.valid() || !specs.valid()) return damaged();
    let total = 0;
    for (let i = 0; i < n; i++) total += importLens[i];
    if (total !== importTargets.length) return damaged();
    for (let i = 0; i < total; i++) if (importTargets[i] >= n) return damaged();
    if (part.docs[1] % 4 || part.postings[1] % 4) return damaged();
    const restored: Restored = { paths, ctimes: numbers.subarray(3 * n), targets: importTargets, symbols, specs };
    const files: FileEntry[] = new Array(n);
    let imp = 0;
    for (let i = 0; i < n; i++) {
      const f = new FileEntry(paths[i], numbers[i], numbers[n + i], null, numbers[2 * n + i], null, null);
      f.restore(restored, i, imp, (imp += importLens[i]));
      files[i] = f;
    }
    const df = view('df', Int32Array);
    // checks that each file's Doc fits the Docs section (throws otherwise: null below)
    const docs = new StoredTerms(fd, n, view('docStarts', Uint32Array), part.docs[0], part.docs[1] / 4, part.postings[0], part.postings[1] / 4, df);
    const words = { bytes: bytes('words'), marks: view('wordMarks', Uint32Array) };
    return { header, files, text: { words, docs, df, totalLen: header.textWords } };
  } catch {
    return matched ? damaged() : null;
  }
}
