// The workspace index's cache file (cacheLocation.ts says where: one per workspace in the user's cache folder) and the
// index's file entries, which a warm run restores from it.
//
// A warm `cape context` on a 50,000-file workspace must answer within a second, so the file is laid out to be taken
// back without parsing per file: a small JSON header, then sections of one string or one typed array each (paths,
// symbols, import specifiers, the text index's vocabulary, numbers, resolved imports, the text index's Docs as its
// arena holds them: termDoc.ts, and its document frequencies, so a warm run does not count them again).
// A file's symbols and specifiers stay one string until someone asks for them (a query looks at a few hundred files
// of the 50,000), and its resolved imports stay indices into the restored paths.
//
// Layout (little-endian; the cache is not written on big-endian machines):
//   CACHE_MAGIC (8 bytes) · u32 CACHE_VERSION · u32 bytes of the JSON header · the JSON header, then each section
//   padded to 8 bytes, in SECTIONS order, their byte lengths listed in the header.
// A file of another version (an older layout, whose bytes after the magic mean something else) is never parsed
// further: the index is then rebuilt and the file rewritten.
import type { TermIndexData } from './termIndex';
import { detach } from './tokens';

/** Bump on any change of the layout or of what a section means. */
export const CACHE_VERSION = 7;
const CACHE_MAGIC = Buffer.from('CAPEIDX\n', 'latin1');
const HEAD_BYTES = CACHE_MAGIC.length + 8;
/** Separates files in the string sections: no path (and no text file's symbol or specifier) holds a NUL. */
const FILE_SEP = '\0';
/** Separates a file's symbols or specifiers (both come from one line of the file). */
const ITEM_SEP = '\n';
/** Files per piece of a string section written at once. */
const BATCH = 2048;

/** The sections, in file order. */
const SECTIONS = ['paths', 'symbols', 'specs', 'words', 'numbers', 'importLens', 'importTargets', 'docs', 'df'] as const;

/**
 * A file's symbols or specifiers as FileEntry keeps them: one string, a copy (join copies its pieces; a single one
 * is detached), so nothing cut from the file's text keeps that text alive.
 */
export function joinItems(items: readonly string[]): string {
  return items.length === 1 ? detach(items[0]) : items.join(ITEM_SEP);
}

/** Resolved imports restored from the cache: indices into the restored paths (shared by every entry of one load). */
interface RestoredImports {
  paths: readonly string[];
  targets: Uint32Array;
}

/** An indexed file (see IndexedFile in workspaceIndex.ts). */
export class FileEntry {
  /** Symbols, or (restored) the cache's string of them, split on first use. */
  private sym: string[] | string;
  private spec: string[] | string;
  /** Resolved imports, or null while they are the restored indices targets[impAt, impEnd). */
  private imp: string[] | null;
  private restored: RestoredImports | null = null;
  private impAt = 0;
  private impEnd = 0;
  /** The index's last walk that met this file (workspaceIndex.ts). */
  seen = 0;

  constructor(
    readonly path: string,
    public size: number,
    public mtimeMs: number,
    /** Characters of the text (what the file costs in a prompt). */
    public chars: number,
    symbols: string[] | string,
    specs: string[] | string,
  ) {
    this.sym = symbols;
    this.spec = specs;
    this.imp = [];
  }

  /** Top-level symbol names, exported ones first. */
  get symbols(): string[] {
    if (typeof this.sym === 'string') this.sym = this.sym ? this.sym.split(ITEM_SEP) : [];
    return this.sym;
  }
  set symbols(v: string[]) {
    this.sym = v;
  }

  /** Import specifiers as written. */
  get specs(): string[] {
    if (typeof this.spec === 'string') this.spec = this.spec ? this.spec.split(ITEM_SEP) : [];
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
      this.restored = null;
    }
    return this.imp;
  }
  set imports(v: string[]) {
    this.imp = v;
    this.restored = null;
  }

  /** The specifiers as they are written in the cache file (no split when they were never asked for). */
  specText(): string {
    return typeof this.spec === 'string' ? this.spec : this.spec.join(ITEM_SEP);
  }

  symText(): string {
    return typeof this.sym === 'string' ? this.sym : this.sym.join(ITEM_SEP);
  }

  /** Imports as restored: targets[at, end) index the restored paths. */
  restoreImports(r: RestoredImports, at: number, end: number): void {
    this.imp = null;
    this.restored = r;
    this.impAt = at;
    this.impEnd = end;
  }
}

/** A folder as the last walk found it (see DirRecord in treeWalk.ts), as stored. */
export type DirRow = [rel: string, mtimeMs: number, gitignore: string | null, files: string, subdirs: string];

/** What the cache holds besides the files and the text index. */
export interface CacheHeader {
  root: string;
  /** What decides which files are admitted besides the disk; a cache made under other rules is not used. */
  policy: unknown;
  notText: [string, string][];
  dirs: DirRow[];
  exclude: string | null;
}

export interface CacheContent {
  header: CacheHeader;
  files: FileEntry[];
  /** The text index, Docs in the order of `files`. */
  text: TermIndexData;
}

const pad8 = (n: number) => (8 - (n % 8)) % 8;
const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/**
 * The cache file's bytes, in pieces (no copy of the whole). `text` is the text index serialised with its Docs in
 * the order of `files`.
 */
export function* cacheChunks(header: CacheHeader, files: readonly FileEntry[], text: TermIndexData): Generator<Uint8Array | string> {
  const n = files.length;
  const numbers = new Float64Array(3 * n);
  const importLens = new Uint32Array(n);
  const at = new Map<string, number>();
  files.forEach((f, i) => at.set(f.path, i));
  let importCount = 0;
  files.forEach((f, i) => {
    numbers[i] = f.size;
    numbers[n + i] = f.mtimeMs;
    numbers[2 * n + i] = f.chars;
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
  const bytesPerFile = (get: (f: FileEntry) => string) => {
    let b = Math.max(0, n - 1);
    for (const f of files) b += Buffer.byteLength(get(f), 'utf8');
    return b;
  };
  const arrays = { numbers, importLens, importTargets, docs: text.docs, df: text.df };
  const sizes = SECTIONS.map((s) =>
    s === 'words' ? Buffer.byteLength(text.words, 'utf8') : s in perFile ? bytesPerFile(perFile[s as keyof typeof perFile]) : arrays[s as keyof typeof arrays].byteLength,
  );
  const json = JSON.stringify({ ...header, files: n, sections: sizes });
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
    if (s === 'words') yield text.words;
    else if (s in perFile) yield* batches(perFile[s as keyof typeof perFile]);
    else yield bytesOf(arrays[s as keyof typeof arrays]);
    if (pad8(sizes[i])) yield Buffer.alloc(pad8(sizes[i]));
  }
}

/**
 * The cache file's content when it is of this version, complete and made for `expect` (same root and policy);
 * null otherwise (missing, older, damaged, another workspace's), so the caller rebuilds.
 */
export function readCache(buf: Buffer, expect: { root: string; policy: unknown }): CacheContent | null {
  try {
    if (buf.length < HEAD_BYTES || !buf.subarray(0, CACHE_MAGIC.length).equals(CACHE_MAGIC)) return null;
    if (buf.readUInt32LE(CACHE_MAGIC.length) !== CACHE_VERSION) return null;
    const jsonBytes = buf.readUInt32LE(CACHE_MAGIC.length + 4);
    if (HEAD_BYTES + jsonBytes > buf.length) return null;
    const header = JSON.parse(buf.toString('utf8', HEAD_BYTES, HEAD_BYTES + jsonBytes)) as CacheHeader & { files: number; sections: number[] };
    if (header.root !== expect.root || JSON.stringify(header.policy) !== JSON.stringify(expect.policy)) return null;
    const n = header.files;
    const sizes = header.sections;
    if (!Number.isSafeInteger(n) || n < 0 || !Array.isArray(sizes) || sizes.length !== SECTIONS.length) return null;
    if (!Array.isArray(header.notText) || !Array.isArray(header.dirs)) return null;
    // typed arrays view the buffer in place: it must start 8-aligned (a large read does; copy otherwise)
    if (buf.byteOffset % 8) buf = Buffer.from(buf);
    let at = HEAD_BYTES + jsonBytes + pad8(HEAD_BYTES + jsonBytes);
    const part: Record<string, [number, number]> = {};
    for (let i = 0; i < SECTIONS.length; i++) {
      const size = sizes[i];
      if (!Number.isSafeInteger(size) || size < 0) return null;
      part[SECTIONS[i]] = [at, size];
      at += size + pad8(size);
    }
    if (at !== buf.length) return null;
    const str = (s: (typeof SECTIONS)[number]) => buf.toString('utf8', part[s][0], part[s][0] + part[s][1]);
    const view = <T>(s: (typeof SECTIONS)[number], Type: { new (b: ArrayBufferLike, off: number, len: number): T; BYTES_PER_ELEMENT: number }): T => {
      const [off, size] = part[s];
      if (size % Type.BYTES_PER_ELEMENT) throw new Error(`section ${s}`);
      return new Type(buf.buffer, buf.byteOffset + off, size / Type.BYTES_PER_ELEMENT);
    };
    const split = (s: string) => (n ? s.split(FILE_SEP) : []);
    const paths = split(str('paths'));
    const symbols = split(str('symbols'));
    const specs = split(str('specs'));
    const numbers = view('numbers', Float64Array);
    const importLens = view('importLens', Uint32Array);
    const importTargets = view('importTargets', Uint32Array);
    if (paths.length !== n || symbols.length !== n || specs.length !== n || numbers.length !== 3 * n || importLens.length !== n) return null;
    let total = 0;
    for (let i = 0; i < n; i++) total += importLens[i];
    if (total !== importTargets.length) return null;
    for (let i = 0; i < total; i++) if (importTargets[i] >= n) return null;
    const restored: RestoredImports = { paths, targets: importTargets };
    const files: FileEntry[] = new Array(n);
    let imp = 0;
    for (let i = 0; i < n; i++) {
      const f = new FileEntry(paths[i], numbers[i], numbers[n + i], numbers[2 * n + i], symbols[i], specs[i]);
      f.restoreImports(restored, imp, (imp += importLens[i]));
      files[i] = f;
    }
    return { header, files, text: { words: str('words'), docs: view('docs', Uint32Array), df: view('df', Int32Array) } };
  } catch {
    return null;
  }
}
