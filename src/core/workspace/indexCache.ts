// The workspace index's cache file (cacheLocation.ts says where: one per workspace in the user's cache folder): how it
// is laid out and written, and how a warm run takes the index's files back from it (fileTable.ts keeps them as read).
//
// A warm `cape context` on a 50,000-file workspace must answer within a second, so the file is laid out to be taken
// back without parsing per file: a small JSON header, then sections of one string or one typed array each (paths,
// numbers, resolved imports, the text index's document frequencies so a warm run does not count them again, the
// offsets below and the tables named further on; then the files' symbols and import specifiers, the text index's vocabulary and a hash table over it, and its Docs
// as its arena holds them, termDoc.ts, with the same index inverted, termPostings.ts). The files' numbers (size,
// mtime, characters, ctime) are one Float64Array, each a run of one number per file.
// A load reads the sections before the symbols at once; the others stay in the open file (cacheFile.ts) until the
// index changes or needs them all, and a one-off query reads only what it asks for: its terms' ids through the
// stored table (wordsInFile.ts), their postings, its candidates' Docs, the symbols of the files it names
// (indexEntry.ts StoredPieces: each file's end offset is stored, so nothing is scanned or decoded for the others).
// Resolved imports stay indices into the restored paths. On a 2-core VM, each megabyte a warm run reads or decodes
// costs it a few milliseconds (a page of memory costs ~10 µs the first time it is touched).
// The files the folder records list (the header's dirs) have their places among the entries stored (`recorded`): a
// warm walk takes an unchanged one by its place, without making its path or looking it up (indexContent.ts
// metRecorded); and a hash table over the paths (`pathTable`, fileTable.ts) finds a file by its path with no Map to
// build: no entry object is made per file at load.
//
// Layout (little-endian; the cache is not written on big-endian machines):
//   CACHE_MAGIC (8 bytes) · u32 CACHE_VERSION · u32 bytes of the JSON header · the JSON header, then each section
//   padded to 8 bytes, in SECTIONS order, their byte lengths listed in the header, then the SHA-256 of every byte
//   before it (cacheDigest.ts): a file that is not byte for byte the one written is not used.
// A file of another version (an older layout, whose bytes after the magic mean something else) is never parsed
// further: the index is then rebuilt and the file rewritten.
import * as fs from 'fs';
import type { RestoredTermIndex, TermIndexData } from './termIndexData';
import { wordMarks } from './vocabulary';
import { postingChunks } from './termPostings';
import { StoredTerms } from './storedTerms';
import { OpenCacheFile } from './cacheFile';
import { childPath, readAt } from './disk';
import { DIGEST_BYTES, sealed, sealIntact } from './cacheDigest';
import { StoredPieces, type FileEntry } from './indexEntry';
import { pathTable, validPathTable, type RestoredFiles } from './fileTable';
import { recordedNames } from './treeWalk';

/** Bump on any change of the layout or of what a section means. */
export const CACHE_VERSION = 32;
const CACHE_MAGIC = Buffer.from('CAPEIDX\n', 'latin1');
const HEAD_BYTES = CACHE_MAGIC.length + 8;
/** Separates files in the string sections: no path (and no text file's symbol or specifier) holds a NUL. */
const FILE_SEP = '\0';
/** Files per piece of a string section written at once. */
const BATCH = 2048;

/** The sections, in file order (exported for the tests that damage one). */
export const SECTIONS = [
  'paths',
  'numbers',
  'importLens',
  'importTargets',
  'df',
  'symbolEnds',
  'specEnds',
  'wordMarks',
  'docStarts',
  'recorded',
  'pathTable',
  // read by a one-off query only in part (indexEntry.ts StoredPieces, vocabulary.ts, storedTerms.ts), so they come last
  'symbols',
  'specs',
  'words',
  'wordTable',
  'docs',
  'postings',
] as const;
/** The first section a load does not read at once. */
const LEFT_IN_FILE = 'symbols';


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
  /** The files, in the file's order (fileTable.ts takes them as they are). */
  files: RestoredFiles;
  /** The open file its lazily read sections are read from (cacheFile.ts). */
  file: OpenCacheFile;
  /**
   * Per file the folder records list (header.dirs, row by row, each row's files in their order), its place in
   * `files`, or -1 when it is none of them (a file that is not text): a warm walk takes an unchanged file by it
   * (statAhead.ts FolderAhead.entry) instead of making its path and looking it up.
   */
  recorded: Int32Array;
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
  const recorded: number[] = [];
  for (const [rel, , , , names] of header.dirs) for (const name of recordedNames(names)) recorded.push(at.get(childPath(rel, name)) ?? -1);
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
  const arrays = {
    numbers,
    importLens,
    importTargets,
    docs: text.docs,
    df: text.df,
    symbolEnds: ends.symbols,
    specEnds: ends.specs,
    wordMarks: wordMarks(words),
    docStarts,
    recorded: Int32Array.from(recorded),
    pathTable: pathTable(files.map((f) => f.path)),
    wordTable: text.wordTable,
  };
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
    const file = new OpenCacheFile(fd);
    const inFile = (s: (typeof SECTIONS)[number]) => ({ file, at: part[s][0], length: part[s][1] });
    const paths = n ? str('paths').split(FILE_SEP) : [];
    const pieces = (s: 'symbols' | 'specs', ends: 'symbolEnds' | 'specEnds') => new StoredPieces(inFile(s), view(ends, Uint32Array));
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
    const recorded = view('recorded', Int32Array);
    for (let i = 0; i < recorded.length; i++) if (recorded[i] < -1 || recorded[i] >= n) return damaged();
    const table = view('pathTable', Int32Array);
    if (!validPathTable(table, n)) return damaged();
    // no entry made per file: fileTable.ts makes one when it is asked for
    const files: RestoredFiles = { paths, ctimes: numbers.subarray(3 * n), targets: importTargets, symbols, specs, numbers, importLens, table };
    const df = view('df', Int32Array);
    // checks that each file's Doc fits the Docs section (throws otherwise: null below)
    const docs = new StoredTerms(file, n, view('docStarts', Uint32Array), part.docs[0], part.docs[1] / 4, part.postings[0], part.postings[1] / 4, df);
    const words = { words: inFile('words'), table: inFile('wordTable'), marks: view('wordMarks', Uint32Array) };
    return { header, files, recorded, file, text: { words, docs, df, totalLen: header.textWords } };
  } catch {
    return matched ? damaged() : null;
  }
}
