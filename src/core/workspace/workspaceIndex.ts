// The workspace index: every file the policy lets the model see, with its size, mtime, top-level symbols and
// resolved relative imports, plus a light text index (termIndex.ts: term sets of paths, symbols and content, with a
// BM25 re-scoring of the best candidates read lazily from disk). This class owns the file entries and keeps the
// parts in step; each part has its own module: the walk of the tree (treeWalk.ts), the disk reads (disk.ts; one
// file's read, decode and scan in fileRead.ts, done on a worker thread ahead of the index in a large build,
// readAhead.ts), the import graph (importGraph.ts), the text index (termIndex.ts), git recency (history.ts), the cache file's layout
// (indexCache.ts), place (cacheLocation.ts) and reading and writing (indexStore.ts).
//
// Kept up to date incrementally, never rebuilt per session:
//  - refresh() walks the tree (readdir + stat only) and re-reads just the files whose size, mtime or ctime changed (the
//    ctime as git compares it: a rewrite that keeps the size and puts the mtime back, `touch -r`, `rsync -t`, `cp -p`,
//    still moves it), or that were read within a clock step of a change (fileRead.ts racyStamp: a second change may
//    get the same times);
//    the CLI calls it on each run after loading the cache file (open()), whose header starts the stats of the
//    recorded folders and files on a worker thread while the rest of the file is read, this thread joining in when it
//    is done with the file (statAhead.ts);
//  - update(paths) re-reads the named files (the VS Code file watcher calls it with the changed paths);
//  - confirm(path) checks one file against the disk before a prompt names it (a watcher can miss events).
import * as fs from 'fs';
import * as path from 'path';
import { WorkspacePolicy, type PolicyOptions } from './policy';
import { racyStamp, readForIndex, readText, type FileRead } from './fileRead';
import { readFiles } from './readAhead';
import { gitHistory, historyKey, NO_HISTORY, type Commit, type History } from './history';
import { TermIndex, type FieldBoost } from './termIndex';
import { FileEntry, joinItems, type CacheHeader } from './indexCache';
import { absoluteIn, stampKey, stampOf, statOrNull, type FileStamp } from './disk';
import { TreeWalk } from './treeWalk';
import { StatAhead, type StatAheadOptions } from './statAhead';
import { ImportGraph } from './importGraph';
import { defaultCacheFile } from './cacheLocation';
import { policyKey, readIndexFile, writeIndexFile } from './indexStore';

export { defaultCacheFile } from './cacheLocation';

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

const EMPTY: ReadonlyMap<string, number> = new Map();

/**
 * A file whose content is not indexed (not text, or it could not be read), as `notText` remembers it: `size:mtime:ctime`
 * (a chmod that makes it readable changes only the ctime), or a key no stat matches when it was `racy`.
 */
function notTextKey(st: FileStamp, racy: boolean): string {
  return racy ? `${st.size}:racy` : stampKey(st);
}

/** A file the walk found new or changed: its stamp when it was stat'ed (a new one is not: null). */
interface Found {
  rel: string;
  stat: FileStamp | null;
}

export interface RefreshStats {
  files: number;
  read: number;
  removed: number;
  /** Folders listed (the others were unchanged since the last walk: their files were only stat'ed). */
  listed: number;
  /** Files read ahead on a worker thread (readAhead.ts; 0 when the build read them all on this thread). */
  readAhead: number;
  /**
   * Folders and files whose stats the walk took from those taken ahead (statAhead.ts: by a worker thread, and by this one
   * once the cache file was read; 0 when the walk stat'ed them itself).
   */
  statAhead: number;
  ms: number;
}

export class WorkspaceIndex {
  readonly root: string;
  readonly policy: WorkspacePolicy;
  private readonly files = new Map<string, FileEntry>();
  /** Files admitted by name whose content is not text or cannot be read, by notTextKey, so a refresh does not re-read them. */
  private readonly notText = new Map<string, string>();
  private text = new TermIndex();
  private readonly graph = new ImportGraph(this.files, (rel) => this.readIndexed(rel));
  private readonly tree: TreeWalk;
  /** Git recency and co-change of the files (history.ts), recomputed when HEAD moves. */
  private history: History = NO_HISTORY;
  private recencyKey: string | null = null;
  /** Counts walks: a file the last walk met has `seen` equal to it. */
  private generation = 0;
  /** Files of `notText` the last walk met unchanged. */
  private readonly notTextSeen = new Set<string>();
  /** The cache file's workspace-relative path when the cache folder is inside the workspace: never indexed. */
  private ownCache: string | null = null;
  /** realRoot(), resolved once. */
  private real: string | null = null;
  /** The policy's aboveKey() at the last walk: info/exclude and the `.gitignore` files above the root (null: none walked yet). */
  private aboveKey: string | null = null;
  /** The recorded folders' and files' stats being taken ahead while the cache file is read (open() only). */
  private statAhead: StatAhead | null = null;

  constructor(root: string, opts: PolicyOptions = {}) {
    this.root = path.resolve(root);
    this.policy = new WorkspacePolicy(this.root, opts);
    this.tree = new TreeWalk(this.root, this.policy);
  }

  get size(): number {
    return this.files.size;
  }

  get(relPath: string): IndexedFile | undefined {
    return this.files.get(relPath);
  }

  all(): IterableIterator<IndexedFile> {
    return this.files.values();
  }

  /**
   * Walks the workspace (treeWalk.ts) and lists the files the policy admits (no content read) that are new or whose
   * size, mtime or ctime changed (the one lstat a known file costs gives all three); every indexed file it meets as a
   * regular file within the size limit gets `seen = this.generation` (the others are gone). Only known files are stat'ed: a new one is read anyway. Returns
   * null when the folder records could not be used (`useRecords`: a `.gitignore` changed): then walk again without.
   */
  private walk(useRecords: boolean, ahead: StatAhead | null = null): Found[] | null {
    const found: Found[] = [];
    const gen = ++this.generation;
    this.notTextSeen.clear();
    const maxBytes = this.policy.maxBytes;
    const complete = this.tree.walk(
      useRecords,
      (rel, abs, pre) => {
        // its own cache, rewritten by every run that changed something: found changed by the next
        if (rel === this.ownCache) return;
        const cur = this.files.get(rel);
        const was = cur ? null : this.notText.get(rel);
        if (!cur && was === undefined) {
          found.push({ rel, stat: null });
          return;
        }
        // taken ahead (statAhead.ts) or now
        const f = pre === undefined ? statOrNull(abs, false) : pre;
        if (!f?.isFile() || f.size > maxBytes) return;
        if (cur) {
          cur.seen = gen;
          if (cur.unchangedAt(f)) return;
        } else if (was === notTextKey(f, false)) {
          this.notTextSeen.add(rel);
          return;
        }
        found.push({ rel, stat: stampOf(f) });
      },
      ahead,
    );
    return complete ? found : null;
  }

  /** The absolute path of a workspace-relative one (disk.ts's absoluteIn: the one rule). */
  private absolute(rel: string): string {
    return absoluteIn(this.root, rel);
  }

  /**
   * Reads and indexes one file (already admitted by name; `stat` its stamp when it was stat'ed, else it is stat'ed
   * when opened); true when indexed, false when its content is not text (or it cannot be read), null when it
   * was not stat'ed and is no regular file within the size limit (or is gone): not admitted, nothing read.
   */
  private indexFile(rel: string, stat: FileStamp | null): boolean | null {
    const readFrom = Date.now();
    return this.indexRead(rel, readForIndex(this.absolute(rel), rel, this.policy.maxBytes, stat), readFrom);
  }

  /**
   * Puts what reading a file found into the index (see indexFile); `readFrom` is a time before it was read: a file
   * changed within a clock step of it (racyStamp) is read again next time (FileEntry.racy).
   */
  private indexRead(rel: string, got: FileRead, readFrom: number): boolean | null {
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
    this.text.set(rel, got.symbols, got.text);
    this.graph.indexed(rel, !this.files.has(rel));
    // kept as one string each (split on first use): no piece of the file's text stays alive
    const entry = new FileEntry(rel, got.size, got.mtimeMs, got.ctimeMs, got.text.length, joinItems(got.symbols), joinItems(got.imports));
    entry.racy = racyStamp(got, readFrom);
    this.files.set(rel, entry);
    return true;
  }

  private drop(rel: string): void {
    if (!this.files.delete(rel)) return;
    this.text.delete(rel);
    this.graph.dropped(rel);
  }

  /**
   * Brings the index in line with the disk: new and changed files (size, mtime or ctime) are read, vanished or newly
   * excluded ones dropped. The first call builds the whole index. Yields to the event loop now and then.
   */
  async refresh(): Promise<RefreshStats> {
    const t0 = Date.now();
    this.policy.forget();
    // the folder records hold what the rules admitted: a changed info/exclude or rules above the root void them
    const above = this.policy.aboveKey();
    // stats taken ahead while open() read the cache file: for this first walk only
    const statAhead = this.statAhead;
    this.statAhead = null;
    let found: Found[] | null = null;
    if (above === this.aboveKey) {
      if (statAhead) await statAhead.ready();
      found = this.walk(true, statAhead);
    }
    statAhead?.stop();
    if (!found) {
      this.policy.forget();
      found = this.walk(false)!;
    }
    this.aboveKey = above;
    // the matchers remember an answer per path walked: let them go (they are rebuilt lazily for later checks)
    this.policy.forget();
    let removed = 0;
    const gen = this.generation;
    const gone = [...this.files.values()].filter((f) => f.seen !== gen);
    if (gone.length || found.length) this.ensureText();
    for (const f of gone) {
      this.drop(f.path);
      removed++;
    }
    // a changed one is in `found`: indexFile() tells again whether it is text
    for (const rel of [...this.notText.keys()]) if (!this.notTextSeen.has(rel)) this.notText.delete(rel);
    let read = 0;
    let next = 0;
    const ahead = { workerFiles: 0 };
    const readFrom = Date.now();
    // a large build reads ahead on a worker thread (readAhead.ts); results come in the order of `found`
    for await (const chunk of readFiles(this.root, this.policy.maxBytes, found, { stats: ahead })) {
      for (const got of chunk) if (this.indexRead(found[next++].rel, got, readFrom) !== null) read++;
    }
    this.graph.resolveImports();
    if (read > 1000) this.text.dropMemo();
    await this.refreshHistory();
    return { files: this.files.size, read, removed, listed: this.tree.listed, readAhead: ahead.workerFiles, statAhead: statAhead?.taken ?? 0, ms: Date.now() - t0 };
  }

  /**
   * Re-reads the given workspace-relative paths (created, changed or deleted files, or folders). A changed
   * `.gitignore` or a folder event falls back to refresh(), since it may change which files are admitted.
   */
  async update(relPaths: string[]): Promise<RefreshStats> {
    const t0 = Date.now();
    const done = this.applyPaths(relPaths, true);
    if (done === 'refresh') return this.refresh();
    await this.refreshHistory();
    return { files: this.files.size, read: done.read, removed: done.removed, listed: 0, readAhead: 0, statAhead: 0, ms: Date.now() - t0 };
  }

  /**
   * Whether an indexed file is still on disk as the index knows it, without waiting for a file event: a file that
   * vanished (or is no longer an admitted file) is dropped, one whose size, mtime or ctime changed is re-read. A file
   * watcher can miss events (code-server's does; so do network drives and bursts of changes), and what a prompt
   * lists must exist. Returns false when the file is not (or no longer) in the index.
   */
  confirm(relPath: string): boolean {
    const cur = this.files.get(relPath);
    if (!cur) return false;
    const st = statOrNull(this.absolute(relPath), false);
    if (st?.isFile() && cur.unchangedAt(st)) return true;
    this.applyPaths([relPath], false);
    return this.files.has(relPath);
  }

  /**
   * The synchronous part of update(): re-reads or drops each path; 'refresh' as soon as a path is a `.gitignore` or a
   * folder and `folders` allows falling back to a walk (the paths before it are applied, the rest left to the walk).
   */
  private applyPaths(relPaths: string[], folders: boolean): { read: number; removed: number } | 'refresh' {
    this.ensureText();
    let read = 0;
    let removed = 0;
    for (const raw of relPaths) {
      const rel = raw.replace(/\\/g, '/').replace(/^\.\/+/, '');
      if (folders && rel.endsWith('.gitignore')) return 'refresh';
      const st = statOrNull(this.absolute(rel), false);
      if (folders && st?.isDirectory()) return 'refresh';
      const admitted = st?.isFile() && st.size <= this.policy.maxBytes && !this.policy.excluded(rel);
      if (!admitted) {
        if (this.files.has(rel)) {
          this.drop(rel);
          removed++;
        } else if (!st) {
          // a deleted folder: drop everything below it
          for (const k of [...this.files.keys()]) if (k.startsWith(rel + '/')) (this.drop(k), removed++);
        }
        continue;
      }
      if (this.indexFile(rel, { size: st!.size, mtimeMs: st!.mtimeMs, ctimeMs: st!.ctimeMs })) read++;
    }
    this.graph.resolveImports();
    return { read, removed };
  }

  /** Re-reads the git history when the repository's HEAD or reflog changed since the last look (two stats). */
  private async refreshHistory(): Promise<void> {
    const key = historyKey(this.root);
    if (key === this.recencyKey) return;
    this.recencyKey = key;
    this.history = key ? await gitHistory(this.root) : NO_HISTORY;
  }

  /** How recently and often git saw the file change, in [0, 1] (0 outside a git repository). */
  recencyOf(relPath: string): number {
    return this.history.recency.get(relPath) ?? 0;
  }

  /** Every file git saw change lately, with its recencyOf (empty outside a git repository). */
  recentFiles(): ReadonlyMap<string, number> {
    return this.history.recency;
  }

  /** The files git saw change together with this one, each with the share of its commits (empty without git). */
  coChangedWith(relPath: string): ReadonlyMap<string, number> {
    return this.history.coChange.get(relPath) ?? EMPTY;
  }

  /** The recent commits git saw (subject terms and files), newest first; none outside a git repository. */
  commits(): readonly Commit[] {
    return this.history.commits;
  }

  /** The indexed file a specifier names, or null (bare package names are not workspace files). */
  resolve(from: string, spec: string): string | null {
    return this.graph.resolve(from, spec);
  }

  /** Files that import the given file. */
  importersOf(relPath: string): string[] {
    return this.graph.importersOf(relPath);
  }

  /** BM25 scores (path, symbols, content with field boosts) of the files for a free-text query. */
  textScores(query: string, boost: FieldBoost = { path: 3, symbols: 2, content: 1 }): Map<string, number> {
    if (!query.trim()) return new Map();
    return this.text.scores(query, boost, (rel) => this.readIndexed(rel));
  }

  /**
   * The current text of an indexed file, for ranking only: null when it vanished, is no longer text or grew past the
   * size limit, or is no regular file any more (read as a build reads it, fileRead.ts's readText: a symlink swapped in is
   * not followed, a FIFO not waited on).
   */
  readIndexed(rel: string): string | null {
    if (!this.files.has(rel)) return null;
    try {
      return readText(this.absolute(rel), this.policy.maxBytes)?.text ?? null;
    } catch {
      return null;
    }
  }

  /**
   * The text index's Docs in memory before anything changes them: an open with `lazy` leaves them in the cache file
   * (termIndex.ts; Docs found damaged there cost a re-read of every file's text: loadCache()).
   */
  private ensureText(): void {
    this.text.load();
  }

  /**
   * The workspace's real path, which its cache file is made for: the same folder opened through a symlink shares the
   * cache (cacheLocation.ts names it by this path too; its paths are relative), instead of each opening rebuilding it.
   */
  private realRoot(): string {
    if (this.real === null) {
      try {
        this.real = fs.realpathSync.native(this.root);
      } catch {
        return this.root;
      }
    }
    return this.real;
  }

  /** The workspace-relative path of a file (its folder's symlinks resolved), or null when it is not inside. */
  private relativeOf(file: string): string | null {
    const abs = path.resolve(file);
    let dir = path.dirname(abs);
    try {
      dir = fs.realpathSync.native(dir);
    } catch {
      /* not made yet: as given */
    }
    const rel = path.relative(this.realRoot(), path.join(dir, path.basename(abs)));
    return rel && rel.split(path.sep)[0] !== '..' && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : null;
  }

  /** Writes the cache file (indexStore.ts). */
  async save(cacheFile = defaultCacheFile(this.root)): Promise<void> {
    this.ensureText();
    const header: CacheHeader = { root: this.realRoot(), policy: policyKey(this.policy), notText: [...this.notText], above: this.aboveKey, dirs: this.tree.rows() };
    await writeIndexFile(cacheFile, header, [...this.files.values()], this.text);
  }

  /**
   * The index of a workspace, from its cache file when one matches (same root and policy), brought up to date with
   * refresh(); built from scratch otherwise. The cache file is rewritten when anything changed.
   */
  static async open(
    root: string,
    opts: PolicyOptions & {
      cacheFile?: string | null;
      /** For a one-off query (`cape context`): the text index stays in the cache file until a change needs it. */
      lazy?: boolean;
      /** When to stat the cache's recorded files ahead on a worker thread (statAhead.ts; tests lower the bound). */
      statAhead?: StatAheadOptions;
    } = {},
  ): Promise<{ index: WorkspaceIndex; stats: RefreshStats; fromCache: boolean }> {
    const index = new WorkspaceIndex(root, opts);
    if (!fs.existsSync(index.root) || !fs.statSync(index.root).isDirectory()) throw new Error(`workspace folder ${index.root} does not exist`);
    const cacheFile = opts.cacheFile === null ? null : (opts.cacheFile ?? defaultCacheFile(index.root));
    let fromCache = false;
    if (cacheFile) {
      index.ownCache = index.relativeOf(cacheFile);
      fromCache = index.loadCache(cacheFile, opts.lazy ?? false, opts.statAhead);
    }
    const stats = await index.refresh();
    // a folder listed again only because it changed moments ago (racyStamp) but found as recorded changes nothing
    if (cacheFile && (!fromCache || stats.read || stats.removed || index.tree.changed)) {
      try {
        await index.save(cacheFile);
      } catch {
        /* a read-only cache folder only costs the next run a rebuild */
      }
    }
    return { index, stats, fromCache };
  }

  /** Takes the index from its cache file when one matches (indexStore.ts); false when there is none to take. */
  private loadCache(cacheFile: string, lazy: boolean, statAhead?: StatAheadOptions): boolean {
    // the header lists the recorded folders and files: their stats are taken ahead while the sections are read
    const cache = readIndexFile(cacheFile, { root: this.realRoot(), policy: policyKey(this.policy) }, lazy, (header, files) => {
      this.statAhead = StatAhead.start(this.root, header.dirs, files, statAhead);
    });
    if (!cache) {
      this.statAhead?.stop();
      this.statAhead = null;
      return false;
    }
    for (const f of cache.files) this.files.set(f.path, f);
    this.text = cache.text;
    // Docs left in the file (lazy) and found damaged when read: every file is read and indexed again
    this.text.whenLost(() => {
      for (const f of [...this.files.values()]) this.indexFile(f.path, null);
      this.graph.resolveImports();
    });
    for (const [rel, key] of cache.header.notText) this.notText.set(rel, key);
    this.aboveKey = typeof cache.header.above === 'string' ? cache.header.above : null;
    this.tree.restore(cache.header.dirs);
    // the imports were resolved against the same file set; a refresh resolves what its changes may affect
    this.graph.restored();
    return true;
  }
}
