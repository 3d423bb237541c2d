// The workspace index: every file the policy lets the model see, with its size, mtime, top-level symbols and
// resolved relative imports, plus a light text index (termIndex.ts: term sets of paths, symbols and content, with a
// BM25 re-scoring of the best candidates read lazily from disk).
//
// Kept up to date incrementally, never rebuilt per session:
//  - refresh() walks the tree (readdir + stat only) and re-reads just the files whose size or mtime changed; the CLI
//    calls it on each run after loading the cache file;
//  - update(paths) re-reads the named files (the VS Code file watcher calls it with the changed paths);
//  - the cache file lives OUTSIDE the workspace, in the user's cache folder (CAPE_CACHE_DIR, else
//    $XDG_CACHE_HOME/cape-vscode, %LOCALAPPDATA%\cape-vscode, ~/Library/Caches/cape-vscode or ~/.cache/cape-vscode),
//    one file per workspace (named by a hash of its real path): nothing to commit or ignore, and deleting it only
//    costs one rebuild.
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ensureDir, writeFileAtomic } from '../files/fsAtomic';
import { BUILTIN_IGNORES, SECRET_NAME_PATTERNS, textOf, WorkspacePolicy, type PolicyOptions } from './policy';
import { scanFile } from './symbols';
import { gitHistory, historyKey, NO_HISTORY, type History } from './history';
import { TermIndex, type FieldBoost } from './termIndex';
import { cacheChunks, FileEntry, joinItems, readCache, type CacheHeader } from './indexCache';

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
/** Index files kept in the cache folder (one per workspace; the least recently written go first). */
const CACHE_KEEP = 50;
/** Where the CLI keeps the index of a workspace between runs. */
export function defaultCacheFile(root: string): string {
  let real = path.resolve(root);
  try {
    real = fs.realpathSync.native(real);
  } catch {
    /* a missing root fails later, with a clearer message */
  }
  const base =
    process.env.CAPE_CACHE_DIR ||
    (process.env.XDG_CACHE_HOME
      ? path.join(process.env.XDG_CACHE_HOME, 'cape-vscode')
      : process.platform === 'win32'
        ? path.join(process.env.LOCALAPPDATA || path.join(os.homedir(), 'AppData', 'Local'), 'cape-vscode')
        : process.platform === 'darwin'
          ? path.join(os.homedir(), 'Library', 'Caches', 'cape-vscode')
          : path.join(os.homedir(), '.cache', 'cape-vscode'));
  const hash = crypto.createHash('sha256').update(real).digest('hex').slice(0, 16);
  return path.join(base, `index-${path.basename(real).replace(/[^\w.-]/g, '_').slice(0, 40)}-${hash}.idx`);
}

const RESOLVE_EXT = ['', '.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts', '.d.ts', '.vue', '.svelte', '.json', '.css', '.scss'];
const INDEX_FILES = RESOLVE_EXT.filter(Boolean).map((e) => '/index' + e);

/**
 * What a walk found in one folder: the names of its files the policy admits by name, the subfolders it walks, and
 * the stamp of its `.gitignore`. A folder's mtime changes whenever an entry is added, removed or renamed in it, so
 * while the mtime (and every `.gitignore` on the way) is unchanged, the next walk stats these files instead of
 * listing the folder and testing every name against the rules again.
 */
interface DirRecord {
  /** The folder's mtime when listed (-1: listed too soon after a change to trust it). */
  mtimeMs: number;
  /** `size:mtime` of its `.gitignore`, or null when it has none. */
  gitignore: string | null;
  /** Names joined by '/' (never part of a name): a few thousand strings to keep instead of one per file. */
  files: string;
  subdirs: string;
}

/** A specifier whose last segment is `.`, `..`, empty, `@` or `~` (one per line of a file's specifier text). */
const NAMELESS_SPEC = /(^|\/)(\.\.?|[@~])?\/?$/m;

/** A file the walk found new or changed. */
interface Found {
  rel: string;
  size: number;
  mtimeMs: number;
}

/** A folder changed less than this before it was listed is listed again next time (coarse file system clocks). */
const RACY_MS = 3000;

/** `size:mtime` of a file, or null when it does not exist. */
function stamp(abs: string): string | null {
  const st = statOrNull(abs);
  return st ? `${st.size}:${st.mtimeMs}` : null;
}

/** Options of the stats a walk makes (one object for all of them: a warm walk stats every file). */
const NO_THROW = { throwIfNoEntry: false } as const;

/** lstat (stat for `follow`), or null when the entry is missing or cannot be stat'ed (ENOTDIR, EACCES, …). */
function statOrNull(abs: string, follow = true): fs.Stats | null {
  try {
    return (follow ? fs.statSync(abs, NO_THROW) : fs.lstatSync(abs, NO_THROW)) ?? null;
  } catch {
    return null;
  }
}

/** The buffer readInto() reuses (a build reads tens of thousands of files: no allocation, no fstat per file). */
let readBuffer = Buffer.allocUnsafe(1 << 16);

/**
 * A file's bytes, up to `limit` + 1 of them (enough to tell it is over the limit), in the shared read buffer: valid
 * until the next call. Reads stop at `expected` bytes (its size when the walk stat'ed it).
 */
function readInto(abs: string, expected: number, limit: number): Buffer {
  const fd = fs.openSync(abs, 'r');
  try {
    const max = limit + 1;
    if (readBuffer.length < Math.min(expected + 1, max)) readBuffer = Buffer.allocUnsafe(Math.min(Math.max(expected + 1, readBuffer.length * 2), max));
    let n = 0;
    for (;;) {
      if (n === readBuffer.length) {
        if (n >= max) break;
        const bigger = Buffer.allocUnsafe(Math.min(n * 2, max));
        readBuffer.copy(bigger, 0, 0, n);
        readBuffer = bigger;
      }
      const got = fs.readSync(fd, readBuffer, n, readBuffer.length - n, null);
      n += got;
      // the size the walk recorded is read (a file that grew since has a new size and mtime: the next walk reads it)
      if (!got || n >= expected) break;
    }
    return readBuffer.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}

export interface RefreshStats {
  files: number;
  read: number;
  removed: number;
  /** Folders listed (the others were unchanged since the last walk: their files were only stat'ed). */
  listed: number;
  ms: number;
}

export class WorkspaceIndex {
  readonly root: string;
  readonly policy: WorkspacePolicy;
  private readonly files = new Map<string, FileEntry>();
  /** Files admitted by name whose content is not text, by `size:mtime`, so a refresh does not re-read them. */
  private readonly notText = new Map<string, string>();
  private text = new TermIndex();
  private importers: Map<string, string[]> | null = null;
  /** Files (re)indexed whose specifiers are not resolved yet. */
  private readonly toResolve = new Set<string>();
  /** Paths added to or removed from the index since imports were last resolved. */
  private setChanges: string[] = [];
  /** False until every file's imports were resolved once (a restored cache's were). */
  private resolvedOnce = false;
  /** Git recency and co-change of the files (history.ts), recomputed when HEAD moves. */
  private history: History = NO_HISTORY;
  private recencyKey: string | null = null;
  /** Every file path without its extension, and every folder (rebuilt by resolveImports). */
  private stems: Set<string> | null = null;
  /** What the last walk found in each folder it walked (kept in the cache file). */
  private dirs = new Map<string, DirRecord>();
  /** stamp() of `.git/info/exclude` at the last walk. */
  private excludeStamp: string | null = null;
  /** Folders the last walk listed. */
  private listed = 0;
  /** True when a walk changed the folder records (kept in the cache file) since the index was loaded or built. */
  private dirsChanged = false;
  /** Counts walks: a file the last walk met has `seen` equal to it. */
  private generation = 0;
  /** Files of `notText` the last walk met unchanged. */
  private readonly notTextSeen = new Set<string>();

  constructor(root: string, opts: PolicyOptions = {}) {
    this.root = path.resolve(root);
    this.policy = new WorkspacePolicy(this.root, opts);
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
   * Walks the workspace and lists the files the policy admits (no content read) that are new or whose size or mtime
   * changed; every indexed file it meets gets `seen = this.generation` (the others are gone). Where a
   * folder's record (see DirRecord) still holds, its files and subfolders are taken from it and only stat'ed: no
   * listing, no name or `.gitignore` checks. Returns null when a `.gitignore` (or `.git/info/exclude`) changed since
   * the records were made: then only a full walk applies the rules right.
   */
  private walk(useRecords: boolean): Found[] | null {
    const found: Found[] = [];
    const gen = ++this.generation;
    this.notTextSeen.clear();
    const note = (rel: string, f: fs.Stats) => {
      const cur = this.files.get(rel);
      if (cur) {
        cur.seen = gen;
        if (cur.size === f.size && cur.mtimeMs === f.mtimeMs) return;
      } else if (this.notText.get(rel) === `${f.size}:${f.mtimeMs}`) {
        this.notTextSeen.add(rel);
        return;
      }
      found.push({ rel, size: f.size, mtimeMs: f.mtimeMs });
    };
    const records = new Map<string, DirRecord>();
    const now = Date.now();
    this.listed = 0;
    if (useRecords && stamp(path.join(this.root, '.git', 'info', 'exclude')) !== this.excludeStamp) return null;
    const stack: string[] = [''];
    while (stack.length) {
      const rel = stack.pop()!;
      const abs = rel ? this.absolute(rel) : this.root;
      // lstat below the root: a folder replaced by a symlink is not followed
      const st = statOrNull(abs, !rel);
      if (!st?.isDirectory()) continue;
      const old = useRecords ? this.dirs.get(rel) : undefined;
      if (old && old.gitignore !== null && stamp(path.join(abs, '.gitignore')) !== old.gitignore) return null;
      if (old && old.mtimeMs === st.mtimeMs) {
        this.policy.noteDir(rel, old.gitignore !== null);
        const prefix = abs + path.sep;
        for (const name of old.files ? old.files.split('/') : []) {
          const f = statOrNull(prefix + name, false);
          if (f?.isFile() && f.size <= this.policy.maxBytes) note(rel ? `${rel}/${name}` : name, f);
        }
        if (old.subdirs) for (const d of old.subdirs.split('/')) stack.push(rel ? `${rel}/${d}` : d);
        records.set(rel, old);
        continue;
      }
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(abs, { withFileTypes: true });
      } catch {
        continue;
      }
      this.listed++;
      const hasGitignore = entries.some((e) => e.name === '.gitignore' && e.isFile());
      // a .gitignore that appeared or went away changes what is admitted below: only a full walk gets that right
      if (useRecords && (old ? old.gitignore !== null : false) !== hasGitignore) return null;
      if (useRecords && !old && hasGitignore) return null;
      this.policy.noteDir(rel, hasGitignore);
      // a folder changed within the clock's resolution may change again under the same mtime: list it next time
      const files: string[] = [];
      const subdirs: string[] = [];
      const prefix = abs + path.sep;
      for (const e of entries) {
        const r = rel ? `${rel}/${e.name}` : e.name;
        // symlinks are never followed nor listed: the model sees the real files once, where they are
        if (e.isDirectory()) {
          if (this.policy.skipDir(r)) continue;
          subdirs.push(e.name);
          stack.push(r);
        } else if (e.isFile()) {
          if (this.policy.skipFileName(r)) continue;
          files.push(e.name);
          const f = statOrNull(prefix + e.name, false);
          if (f?.isFile() && f.size <= this.policy.maxBytes) note(r, f);
        }
      }
      const rec: DirRecord = {
        mtimeMs: now - st.mtimeMs > RACY_MS ? st.mtimeMs : -1,
        gitignore: hasGitignore ? stamp(prefix + '.gitignore') : null,
        files: files.join('/'),
        subdirs: subdirs.join('/'),
      };
      if (!old || old.mtimeMs !== rec.mtimeMs || old.gitignore !== rec.gitignore || old.files !== rec.files || old.subdirs !== rec.subdirs) this.dirsChanged = true;
      records.set(rel, rec);
    }
    if (records.size !== this.dirs.size) this.dirsChanged = true;
    this.dirs = records;
    const exclude = stamp(path.join(this.root, '.git', 'info', 'exclude'));
    if (exclude !== this.excludeStamp) this.dirsChanged = true;
    this.excludeStamp = exclude;
    return found;
  }

  /**
   * The absolute path of a workspace-relative one: the root and the segments joined without path.join's
   * normalisation, which a build would pay per file (the OS resolves any `.` or `..` the same way).
   */
  private absolute(rel: string): string {
    const base = this.root.endsWith(path.sep) ? this.root : this.root + path.sep;
    return base + (path.sep === '/' ? rel : rel.split('/').join(path.sep));
  }

  /** Reads and indexes one file (already admitted by name); false when its content is not text. */
  private indexFile(rel: string, size: number, mtimeMs: number): boolean {
    let buf: Buffer;
    try {
      buf = readInto(this.absolute(rel), size, this.policy.maxBytes);
    } catch {
      this.drop(rel);
      return false;
    }
    const text = buf.length > this.policy.maxBytes ? null : textOf(buf);
    if (text === null) {
      this.drop(rel);
      this.notText.set(rel, `${size}:${mtimeMs}`);
      return false;
    }
    this.notText.delete(rel);
    const scan = scanFile(rel, text);
    this.text.set(rel, scan.symbols, text);
    // kept as one string each (split on first use): no piece of the file's text stays alive
    if (!this.files.has(rel)) this.setChanges.push(rel);
    this.files.set(rel, new FileEntry(rel, size, mtimeMs, text.length, joinItems(scan.symbols), joinItems(scan.imports)));
    this.toResolve.add(rel);
    return true;
  }

  private drop(rel: string): void {
    if (!this.files.delete(rel)) return;
    this.text.delete(rel);
    this.toResolve.delete(rel);
    this.setChanges.push(rel);
  }

  /**
   * Brings the index in line with the disk: new and changed files (size or mtime) are read, vanished or newly
   * excluded ones dropped. The first call builds the whole index. Yields to the event loop now and then.
   */
  async refresh(): Promise<RefreshStats> {
    const t0 = Date.now();
    this.policy.forget();
    let found = this.walk(true);
    if (!found) {
      this.policy.forget();
      found = this.walk(false)!;
    }
    // the matchers remember an answer per path walked: let them go (they are rebuilt lazily for later checks)
    this.policy.forget();
    let removed = 0;
    const gen = this.generation;
    for (const f of [...this.files.values()]) {
      if (f.seen !== gen) {
        this.drop(f.path);
        removed++;
      }
    }
    // a changed one is in `found`: indexFile() tells again whether it is text
    for (const rel of [...this.notText.keys()]) if (!this.notTextSeen.has(rel)) this.notText.delete(rel);
    let read = 0;
    for (const { rel, size, mtimeMs } of found) {
      this.indexFile(rel, size, mtimeMs);
      if (++read % 1000 === 0) await new Promise((r) => setImmediate(r));
    }
    this.resolveImports();
    if (read > 1000) this.text.dropMemo();
    await this.refreshHistory();
    return { files: this.files.size, read, removed, listed: this.listed, ms: Date.now() - t0 };
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
    return { files: this.files.size, read: done.read, removed: done.removed, listed: 0, ms: Date.now() - t0 };
  }

  /**
   * Whether an indexed file is still on disk as the index knows it, without waiting for a file event: a file that
   * vanished (or is no longer an admitted file) is dropped, one whose size or mtime changed is re-read. A file
   * watcher can miss events (code-server's does; so do network drives and bursts of changes), and what a prompt
   * lists must exist. Returns false when the file is not (or no longer) in the index.
   */
  confirm(relPath: string): boolean {
    const cur = this.files.get(relPath);
    if (!cur) return false;
    const st = statOrNull(this.absolute(relPath), false);
    if (st?.isFile() && st.size === cur.size && st.mtimeMs === cur.mtimeMs) return true;
    this.applyPaths([relPath], false);
    return this.files.has(relPath);
  }

  /**
   * The synchronous part of update(): re-reads or drops each path; 'refresh' as soon as a path is a `.gitignore` or a
   * folder and `folders` allows falling back to a walk (the paths before it are applied, the rest left to the walk).
   */
  private applyPaths(relPaths: string[], folders: boolean): { read: number; removed: number } | 'refresh' {
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
      if (this.indexFile(rel, st!.size, st!.mtimeMs)) read++;
    }
    this.resolveImports();
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

  /** The files git saw change together with this one, each with the share of its commits (empty without git). */
  coChangedWith(relPath: string): ReadonlyMap<string, number> {
    return this.history.coChange.get(relPath) ?? EMPTY;
  }

  /**
   * Resolves the import specifiers of the files (re)indexed since the last call, and of the files whose resolution
   * the files added or removed since may change (affectedBy); every file's on the first call (or after many changes).
   */
  private resolveImports(): void {
    if (!this.toResolve.size && !this.setChanges.length) return;
    let todo: Iterable<FileEntry>;
    if (!this.resolvedOnce || this.setChanges.length > this.files.size / 4) {
      // every file: first the stems that settle most specifiers naming no file in one look-up
      this.stems = new Set();
      for (const p of this.files.keys()) this.addStems(p);
      todo = this.files.values();
    } else {
      for (const p of this.setChanges) if (this.stems && this.files.has(p)) this.addStems(p);
      const affected = this.affectedBy(this.setChanges);
      for (const rel of this.toResolve) affected.add(this.files.get(rel)!);
      todo = affected;
    }
    for (const f of todo) {
      const out: string[] = [];
      for (const spec of f.specs) {
        const target = this.resolve(f.path, spec);
        if (target && target !== f.path && !out.includes(target)) out.push(target);
      }
      f.imports = out;
    }
    this.toResolve.clear();
    this.setChanges = [];
    this.resolvedOnce = true;
    this.importers = null;
  }

  /** Adds a file's path without extension and its folders to `stems` (kept a superset: removals leave theirs). */
  private addStems(p: string): void {
    this.stems!.add(p.replace(/(\.d)?\.[^./]+$/, ''));
    for (let i = p.lastIndexOf('/'); i > 0; i = p.lastIndexOf('/', i - 1)) this.stems!.add(p.slice(0, i));
  }

  /**
   * The files whose specifiers may resolve differently now that these paths were added or removed (a superset).
   * A specifier reaches a file X through the base it names: X itself, X without its extension, X's `.js` twin, or
   * X's folder for an index file; so it holds X's name without extension, or its folder's name for an index file —
   * unless its last segment is `.`, `..`, empty, `@` or `~` (its base is a folder named elsewhere): files with such a
   * specifier are always included, and so are the files under an index file's folder.
   */
  private affectedBy(changed: readonly string[]): Set<FileEntry> {
    const out = new Set<FileEntry>();
    if (!changed.length) return out;
    const names = new Set<string>();
    const under: string[] = [];
    for (const p of changed) {
      const base = p.slice(p.lastIndexOf('/') + 1);
      const stem = base.replace(/(\.d)?\.[^./]+$/, '');
      names.add(stem || base);
      if (stem === 'index') {
        const dir = p.slice(0, Math.max(0, p.lastIndexOf('/')));
        names.add(dir.slice(dir.lastIndexOf('/') + 1));
        under.push(dir ? dir + '/' : '');
      }
    }
    const nameList = [...names].filter(Boolean);
    for (const f of this.files.values()) {
      const specs = f.specText();
      if (!specs) continue;
      if (NAMELESS_SPEC.test(specs) || nameList.some((n) => specs.includes(n)) || under.some((d) => f.path.startsWith(d))) out.add(f);
    }
    return out;
  }

  /** The indexed file a specifier names, or null (bare package names are not workspace files). */
  resolve(from: string, spec: string): string | null {
    let base: string;
    if (spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..') {
      base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
    } else if (spec.startsWith('@/') || spec.startsWith('~/')) {
      base = spec.slice(2);
      const inSrc = this.resolveBase('src/' + base);
      if (inSrc) return inSrc;
    } else if (spec.startsWith('/')) {
      base = spec.slice(1);
    } else return null;
    if (base.startsWith('..')) return null;
    return this.resolveBase(base);
  }

  private resolveBase(base: string): string | null {
    const clean = base.replace(/\/$/, '');
    // most specifiers that name no file are settled by one look-up (no file, folder or stem of that name)
    if (this.stems && !this.files.has(clean) && !this.stems.has(clean) && !this.stems.has(clean.replace(/\.[^./]+$/, ''))) return null;
    for (const ext of RESOLVE_EXT) if (this.files.has(clean + ext)) return clean + ext;
    // TypeScript's ESM style: `./x.js` names `x.ts`
    const js = /\.(m|c)?jsx?$/.exec(clean);
    if (js) {
      const stemPath = clean.slice(0, -js[0].length);
      for (const ext of ['.ts', '.tsx', '.mts', '.cts']) if (this.files.has(stemPath + ext)) return stemPath + ext;
    }
    for (const idx of INDEX_FILES) if (this.files.has(clean + idx)) return clean + idx;
    return null;
  }

  /** Files that import the given file. */
  importersOf(relPath: string): string[] {
    if (!this.importers) {
      this.importers = new Map();
      for (const f of this.files.values()) {
        for (const t of f.imports) {
          const list = this.importers.get(t);
          if (list) list.push(f.path);
          else this.importers.set(t, [f.path]);
        }
      }
    }
    return this.importers.get(relPath) ?? [];
  }

  /** BM25 scores (path, symbols, content with field boosts) of the files for a free-text query. */
  textScores(query: string, boost: FieldBoost = { path: 3, symbols: 2, content: 1 }): Map<string, number> {
    if (!query.trim()) return new Map();
    return this.text.scores(query, boost, (rel) => this.readIndexed(rel));
  }

  /** The current text of an indexed file, for ranking only (null when it vanished or is no longer text). */
  readIndexed(rel: string): string | null {
    if (!this.files.has(rel)) return null;
    try {
      const buf = fs.readFileSync(this.absolute(rel));
      return buf.length > this.policy.maxBytes ? null : textOf(buf);
    } catch {
      return null;
    }
  }

  /** Writes the cache file atomically; the cache folder keeps the CACHE_KEEP most recently written indexes. */
  async save(cacheFile = defaultCacheFile(this.root)): Promise<void> {
    if (os.endianness() !== 'LE') return;
    const dir = path.dirname(cacheFile);
    await ensureDir(dir);
    const files = [...this.files.values()];
    const header: CacheHeader = {
      root: this.root,
      policy: this.policyKey(),
      notText: [...this.notText],
      dirs: [...this.dirs].map(([rel, d]) => [rel, d.mtimeMs, d.gitignore, d.files, d.subdirs]),
      exclude: this.excludeStamp,
    };
    await writeFileAtomic(cacheFile, cacheChunks(header, files, this.text.serialize(files.map((f) => f.path))));
    try {
      const old = fs
        .readdirSync(dir)
        .filter((n) => /^index-.*\.(idx|json)$/.test(n))
        .map((n) => ({ p: path.join(dir, n), t: fs.statSync(path.join(dir, n)).mtimeMs }))
        .sort((a, b) => b.t - a.t);
      // an older version's cache of this workspace, then the least recently written beyond CACHE_KEEP
      for (const o of old) if (o.p === cacheFile.replace(/\.idx$/, '.json')) fs.rmSync(o.p, { force: true });
      for (const o of old.slice(CACHE_KEEP)) fs.rmSync(o.p, { force: true });
    } catch {
      /* pruning is housekeeping only */
    }
  }

  /**
   * The index of a workspace, from its cache file when one matches (same root and policy), brought up to date with
   * refresh(); built from scratch otherwise. The cache file is rewritten when anything changed.
   */
  static async open(root: string, opts: PolicyOptions & { cacheFile?: string | null } = {}): Promise<{ index: WorkspaceIndex; stats: RefreshStats; fromCache: boolean }> {
    const index = new WorkspaceIndex(root, opts);
    if (!fs.existsSync(index.root) || !fs.statSync(index.root).isDirectory()) throw new Error(`workspace folder ${index.root} does not exist`);
    const cacheFile = opts.cacheFile === null ? null : (opts.cacheFile ?? defaultCacheFile(index.root));
    let fromCache = false;
    if (cacheFile) fromCache = index.loadCache(cacheFile);
    const stats = await index.refresh();
    // a folder listed again only because it changed moments ago (RACY_MS) but found as recorded changes nothing
    if (cacheFile && (!fromCache || stats.read || stats.removed || index.dirsChanged)) {
      try {
        await index.save(cacheFile);
      } catch {
        /* a read-only cache folder only costs the next run a rebuild */
      }
    }
    return { index, stats, fromCache };
  }

  /** What decides which files are admitted besides the disk (a cache made under other rules is not used). */
  private policyKey(): unknown {
    return { capeFolder: this.policy.capeFolder, maxBytes: this.policy.maxBytes, secrets: SECRET_NAME_PATTERNS, builtins: BUILTIN_IGNORES };
  }

  private loadCache(cacheFile: string): boolean {
    let cache;
    try {
      if (os.endianness() !== 'LE') return false;
      cache = readCache(fs.readFileSync(cacheFile), { root: this.root, policy: this.policyKey() });
    } catch {
      return false;
    }
    if (!cache) return false;
    const text = new TermIndex();
    if (!text.restore(cache.text, cache.files.map((f) => f.path))) return false;
    for (const f of cache.files) this.files.set(f.path, f);
    this.text = text;
    for (const [rel, key] of cache.header.notText) this.notText.set(rel, key);
    for (const [rel, mtimeMs, gitignore, files, subdirs] of cache.header.dirs) {
      if (typeof rel === 'string' && typeof mtimeMs === 'number' && typeof files === 'string' && typeof subdirs === 'string') this.dirs.set(rel, { mtimeMs, gitignore, files, subdirs });
    }
    this.excludeStamp = cache.header.exclude ?? null;
    // the imports were resolved against the same file set; a refresh resolves what its changes may affect
    this.resolvedOnce = true;
    return true;
  }
}
