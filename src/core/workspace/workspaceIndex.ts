// The workspace index: every file the policy lets the model see, with its size, mtime, top-level symbols and
// resolved relative imports, plus a light text index (termIndex.ts: term sets of paths, symbols and content, with a
// BM25 re-scoring of the best candidates read lazily from disk). This class decides when files are read; the queries
// it answers are indexQueries.ts's. Each part has its own module: what the index holds, kept in step (indexContent.ts:
// the file entries, the files that are not text, the text index and the import graph), the walk of the tree
// (treeWalk.ts), the disk reads (disk.ts; one file's read, decode and scan in fileRead.ts, done on a worker thread
// ahead of the index in a large build, readAhead.ts), the import graph (importGraph.ts), the text index (termIndex.ts),
// git recency (history.ts), the cache file's layout (indexCache.ts), place (cacheLocation.ts) and reading and writing
// (indexStore.ts).
//
// Kept up to date incrementally, never rebuilt per session:
//  - refresh() walks the tree (readdir + stat only) and re-reads just the files whose size, mtime or ctime changed (the
//    ctime as git compares it: a rewrite that keeps the size and puts the mtime back, `touch -r`, `rsync -t`, `cp -p`,
//    still moves it), or that were read within a clock step of a change (fileRead.ts racyStamp: a second change may
//    get the same times);
//    the CLI calls it on each run after loading the cache file (open()), whose header starts the stats of the
//    recorded folders and files on a worker thread while the rest of the file is read, this thread joining in when it
//    is done with the file (statAhead.ts);
//  - update(paths) re-reads the named files (the VS Code file watcher calls it with the changed paths; pathEvents.ts);
//  - confirm(path) checks one file against the disk before a prompt names it (a watcher can miss events).
import * as fs from 'fs';
import type { PolicyOptions } from './policy';
import { readFiles } from './readAhead';
import { type CacheHeader } from './indexCache';
import { absoluteIn, statOrNull, type FileStamp } from './disk';
import { TreeWalk } from './treeWalk';
import type { StatAhead, StatAheadOptions } from './statAhead';
import { IndexQueries } from './indexQueries';
import { applyPaths, type PathTarget } from './pathEvents';
import { defaultCacheFile, realRootOf, relativeToRoot } from './cacheLocation';
import { loadIndexCache, policyKey, writeIndexFile } from './indexStore';

export { defaultCacheFile } from './cacheLocation';
export type { IndexedFile } from './indexEntry';

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

export class WorkspaceIndex extends IndexQueries {
  private readonly tree: TreeWalk;
  /** Counts walks: a file the last walk met has `seen` equal to it. */
  private generation = 0;
  /** The cache file's workspace-relative path when the cache folder is inside the workspace: never indexed. */
  private ownCache: string | null = null;
  /** realRoot(), resolved once. */
  private real: string | null = null;
  /** The policy's aboveKey() at the last walk: info/exclude and the `.gitignore` files above the root (null: none walked yet). */
  private aboveKey: string | null = null;
  /** The recorded folders' and files' stats being taken ahead while the cache file is read (open() only). */
  private statAhead: StatAhead | null = null;

  constructor(root: string, opts: PolicyOptions = {}) {
    super(root, opts);
    this.tree = new TreeWalk(this.root, this.policy);
  }

  /**
   * Walks the workspace (treeWalk.ts) and lists the files the policy admits (no content read) that are new or whose
   * size, mtime or ctime changed (the one lstat a known file costs gives all three; indexContent.ts's met): every
   * indexed file it meets as a regular file within the size limit gets `seen = this.generation` (the others are gone).
   * Only known files are stat'ed: a new one is read anyway. Returns null when the folder records could not be used
   * (`useRecords`: a `.gitignore` changed): then walk again without.
   */
  private walk(useRecords: boolean, ahead: StatAhead | null = null): Found[] | null {
    const found: Found[] = [];
    const gen = ++this.generation;
    this.content.beginWalk();
    const complete = this.tree.walk(
      useRecords,
      (rel, abs, pre) => {
        // its own cache, rewritten by every run that changed something: found changed by the next
        if (rel === this.ownCache) return;
        // stats taken ahead (statAhead.ts) or now
        const met = this.content.met(rel, gen, () => (pre === undefined ? statOrNull(abs, false) : pre));
        if (met) found.push({ rel, stat: met === 'new' ? null : met });
      },
      ahead,
      // a recorded file found unchanged by its place among the restored entries: no path made, nothing looked up
      (at, st) => this.content.metRecorded(at, gen, st),
    );
    return complete ? found : null;
  }

  /** The absolute path of a workspace-relative one (disk.ts's absoluteIn: the one rule). */
  private absolute(rel: string): string {
    return absoluteIn(this.root, rel);
  }

  /**
   * Brings the index in line with the disk: new and changed files (size, mtime or ctime) are read, vanished or newly
   * excluded ones dropped. The first call builds the whole index. Yields to the event loop now and then.
   */
  async refresh(): Promise<RefreshStats> {
    const t0 = Date.now();
    // git's log (history.ts) does not depend on the walk: it runs while the tree is walked and read
    const history = this.history.refresh(this.root);
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
    const gone = this.files.unseen(gen);
    if (gone.length || found.length) this.content.ensureText();
    for (const rel of gone) {
      this.content.drop(rel);
      removed++;
    }
    // a changed one is in `found`: reading it tells again whether it is text
    this.content.endWalk();
    let read = 0;
    let next = 0;
    const ahead = { workerFiles: 0 };
    const readFrom = Date.now();
    // a large build reads ahead on a worker thread (readAhead.ts); results come in the order of `found`
    for await (const chunk of readFiles(this.root, this.policy.maxBytes, found, { stats: ahead })) {
      for (const got of chunk) if (this.content.put(found[next++].rel, got, readFrom) !== null) read++;
    }
    this.content.graph.resolveImports();
    if (read > 1000) this.content.text.dropMemo();
    await history;
    return { files: this.files.size, read, removed, listed: this.tree.listed, readAhead: ahead.workerFiles, statAhead: statAhead?.taken ?? 0, ms: Date.now() - t0 };
  }

  /**
   * Re-reads the given workspace-relative paths (created, changed or deleted files, or folders). A changed
   * `.gitignore` or a folder event falls back to refresh(), since it may change which files are admitted.
   */
  async update(relPaths: string[]): Promise<RefreshStats> {
    const t0 = Date.now();
    const done = applyPaths(this.pathTarget(), relPaths, true);
    if (done === 'refresh') return this.refresh();
    await this.history.refresh(this.root);
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
    applyPaths(this.pathTarget(), [relPath], false);
    return this.files.has(relPath);
  }


  /** What applyPaths (pathEvents.ts) works on. */
  private pathTarget(): PathTarget {
    return { root: this.root, realRoot: this.realRoot(), policy: this.policy, content: this.content };
  }

  /** The workspace's real path (cacheLocation.ts's realRootOf), resolved once. */
  private realRoot(): string {
    return (this.real ??= realRootOf(this.root));
  }

  /** Writes the cache file (indexStore.ts). */
  async save(cacheFile = defaultCacheFile(this.root)): Promise<void> {
    this.content.ensureText();
    const header: CacheHeader = { root: this.realRoot(), policy: policyKey(this.policy), notText: this.content.notTextRows(), above: this.aboveKey, dirs: this.tree.rows() };
    await writeIndexFile(cacheFile, header, [...this.files.values()], this.content.text);
  }

  /**
   * The index of a workspace, from its cache file when one matches (same root and policy), brought up to date with
   * refresh(); built from scratch otherwise (`cacheDamaged`: there was one, but not as it was written). The cache file
   * is rewritten when anything changed.
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
  ): Promise<{ index: WorkspaceIndex; stats: RefreshStats; fromCache: boolean; cacheDamaged: boolean }> {
    const index = new WorkspaceIndex(root, opts);
    if (!fs.existsSync(index.root) || !fs.statSync(index.root).isDirectory()) throw new Error(`workspace folder ${index.root} does not exist`);
    const cacheFile = opts.cacheFile === null ? null : (opts.cacheFile ?? defaultCacheFile(index.root));
    let fromCache = false;
    let cacheDamaged = false;
    // git's log (history.ts) runs while the cache file is read and the tree walked: refresh() waits for this read
    void index.history.refresh(index.root);
    if (cacheFile) {
      index.ownCache = relativeToRoot(index.realRoot(), cacheFile);
      const into = { root: index.root, realRoot: index.realRoot(), policy: index.policy, content: index.content, tree: index.tree };
      const got = loadIndexCache(cacheFile, into, opts.lazy ?? false, opts.statAhead, () => (cacheDamaged = true));
      fromCache = !!got;
      index.aboveKey = got?.above ?? null;
      index.statAhead = got?.statAhead ?? null;
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
    return { index, stats, fromCache, cacheDamaged };
  }
}