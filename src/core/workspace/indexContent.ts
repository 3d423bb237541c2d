// What the workspace index holds, kept in step: the file entries (indexEntry.ts's FileEntry: size, stamps, symbols,
// imports; by path in fileTable.ts's FileTable), the files admitted by name whose content is not text (remembered so a refresh does not read them again),
// the light text index (termIndex.ts) and the import graph (importGraph.ts). A file's read goes in through put(), and
// drop() takes a file out of all of them; restore() takes them from the cache file. WorkspaceIndex decides when a file
// is read (walks, watcher events, confirm) and answers the queries; this module only keeps the parts agreeing.
import { racyStamp, readForIndex, readText, type FileRead } from './fileRead';
import { TermIndex } from './termIndex';
import type { CacheHeader } from './indexCache';
import { FileEntry, joinItems } from './indexEntry';
import { FileTable, type RestoredFiles } from './fileTable';
import { absoluteIn, stampKey, stampOf, type EntryStat, type FileStamp } from './disk';
import { ImportGraph } from './importGraph';

/**
 * A file whose content is not indexed (not text, or it could not be read), as `notText` remembers it: `size:mtime:ctime`
 * (a chmod that makes it readable changes only the ctime), or a key no stat matches when it was `racy`.
 */
function notTextKey(st: FileStamp, racy: boolean): string {
  return racy ? `${st.size}:racy` : stampKey(st);
}

export class IndexContent {
  readonly files = new FileTable();
  /** Files admitted by name whose content is not text or cannot be read, by notTextKey. */
  private readonly notText = new Map<string, string>();
  /** Files of `notText` the current walk met unchanged. */
  private readonly notTextSeen = new Set<string>();
  private textIndex = new TermIndex();
  readonly graph: ImportGraph;

  constructor(
    private readonly root: string,
    private readonly maxBytes: number,
  ) {
    this.graph = new ImportGraph(this.files, (rel) => this.readIndexed(rel));
  }

  get text(): TermIndex {
    return this.textIndex;
  }

  /** A walk's start: no remembered not-text file has been met yet. */
  beginWalk(): void {
    this.notTextSeen.clear();
  }

  /**
   * What a walk found at an admitted path: 'new' when the index knows nothing of it (it is read anyway, so not
   * stat'ed); else, by its stat (`stat()`: taken ahead or now), null when it is no regular file within the size limit
   * (the walk's end drops it) or is as the index has it (an indexed file gets `seen = gen`, a not-text one is kept), or
   * its stamp when it changed.
   */
  met(rel: string, gen: number, stat: () => EntryStat | null): FileStamp | 'new' | null {
    const cur = this.files.get(rel);
    if (!cur && !this.notText.has(rel)) return 'new';
    const f = stat();
    if (!f?.isFile() || f.size > this.maxBytes) return null;
    if (cur) {
      this.files.see(rel, gen);
      if (cur.unchangedAt(f)) return null;
    } else if (this.notText.get(rel) === notTextKey(f, false)) {
      this.notTextSeen.add(rel);
      return null;
    }
    return stampOf(f);
  }

  /**
   * What a walk found at a recorded file whose place among the restored entries the cache file gave (`at`; -1: none)
   * and whose stat was taken ahead: true when it is that entry, unchanged (met() would answer null; it is marked met
   * in walk `gen`); false when the walk must note it as usual (changed, not a regular file, no entry, deleted since).
   * An unchanged size is within the size limit: the cache was written under the same one (indexStore.ts policyKey).
   */
  metRecorded(at: number, gen: number, st: EntryStat | null): boolean {
    return this.files.meetUnchanged(at, gen, st);
  }

  /** After a walk: remembered not-text files it did not meet unchanged are forgotten (a changed one is read again). */
  endWalk(): void {
    for (const rel of [...this.notText.keys()]) if (!this.notTextSeen.has(rel)) this.notText.delete(rel);
  }

  /**
   * Reads and indexes one file (already admitted by name; `stat` its stamp when it was stat'ed, else it is stat'ed
   * when opened); true when indexed, false when its content is not text (or it cannot be read), null when it
   * was not stat'ed and is no regular file within the size limit (or is gone): not admitted, nothing read.
   */
  readFile(rel: string, stat: FileStamp | null): boolean | null {
    const readFrom = Date.now();
    return this.put(rel, readForIndex(absoluteIn(this.root, rel), rel, this.maxBytes, stat), readFrom);
  }

  /**
   * Puts what reading a file found into the index (see readFile); `readFrom` is a time before it was read: a file
   * changed within a clock step of it (racyStamp) is read again next time (FileEntry.racy).
   */
  put(rel: string, got: FileRead, readFrom: number): boolean | null {
    switch (got.kind) {
      case 'failed':
        this.drop(rel);
        // remembered, so a warm run neither tries it again nor rewrites the cache for it
        if (got.stat) this.notText.set(rel, notTextKey(got.stat, false));
        else this.notText.delete(rel);
        return false;
      case 'gone':
        this.drop(rel);
        this.notText.delete(rel);
        return null;
      case 'binary':
        this.drop(rel);
        this.notText.set(rel, notTextKey(got, racyStamp(got, readFrom)));
        return false;
    }
    this.notText.delete(rel);
    this.textIndex.set(rel, got.symbols, got.text);
    this.graph.indexed(rel, !this.files.has(rel));
    // kept as one string each (split on first use): no piece of the file's text stays alive
    const entry = new FileEntry(rel, got.size, got.mtimeMs, got.ctimeMs, got.text.length, joinItems(got.symbols), joinItems(got.imports));
    entry.racy = racyStamp(got, readFrom);
    this.files.set(rel, entry);
    return true;
  }

  /** Takes a file out of the entries, the text index and the import graph; false when it was not indexed. */
  drop(rel: string): boolean {
    if (!this.files.delete(rel)) return false;
    this.textIndex.delete(rel);
    this.graph.dropped(rel);
    return true;
  }

  /**
   * The current text of an indexed file, for ranking only: null when it vanished, is no longer text or grew past the
   * size limit, or is no regular file any more (read as a build reads it, fileRead.ts's readText: a symlink swapped in is
   * not followed, a FIFO not waited on).
   */
  readIndexed(rel: string): string | null {
    if (!this.files.has(rel)) return null;
    try {
      return readText(absoluteIn(this.root, rel), this.maxBytes)?.text ?? null;
    } catch {
      return null;
    }
  }

  /**
   * The text index's Docs, and the files' symbols and specifiers, in memory before anything changes them or the cache
   * file is rewritten: an open with `lazy` leaves them in the cache file (termIndex.ts, indexEntry.ts StoredPieces;
   * Docs found damaged there cost a re-read of every file's text: restore()).
   */
  ensureText(): void {
    this.files.loadAll();
    this.textIndex.load();
  }

  /** The not-text files for the cache file's header. */
  notTextRows(): CacheHeader['notText'] {
    return [...this.notText];
  }

  /** Takes the entries, the text index and the not-text files from the cache file (indexStore.ts's readIndexFile). */
  restore(cache: { header: CacheHeader; files: RestoredFiles; text: TermIndex }): void {
    this.files.restore(cache.files);
    this.textIndex = cache.text;
    // Docs left in the file (lazy) and found damaged when read: every file is read and indexed again
    this.textIndex.whenLost(() => {
      for (const f of [...this.files.values()]) this.readFile(f.path, null);
      this.graph.resolveImports();
    });
    for (const [rel, key] of cache.header.notText) this.notText.set(rel, key);
    // the imports were resolved against the same file set; a refresh resolves what its changes may affect
    this.graph.restored();
  }
}
