// The workspace index's walk of the tree (readdir, no content read, no stat of a file): which files the policy admits by name,
// and what each folder held when it was last listed (DirRecord), so a warm walk stats the files of an unchanged
// folder instead of listing it and testing every name against the rules again. The records travel in the index's
// cache file (DirRow in indexCache.ts).
import * as fs from 'fs';
import * as path from 'path';
import { childPath, folderPath, folderStat, stamp, type EntryStat } from './disk';
import { racyStamp } from './fileRead';
import type { DirRow } from './indexCache';
import type { WorkspacePolicy } from './policy';
import type { StatAhead } from './statAhead';

/**
 * What a walk found in one folder: the names of its files the policy admits by name, the subfolders it walks, and
 * the stamp of its `.gitignore`. A folder's mtime changes whenever an entry is added, removed or renamed in it, so
 * while the mtime and ctime (and every `.gitignore` on the way) are unchanged, the next walk stats these files
 * instead of listing the folder and testing every name against the rules again. The ctime too: a copy that keeps
 * times (`cp -rp`, `rsync -t` without `--delete`) adds entries to a folder and then puts its mtime back.
 */
interface DirRecord {
  /** The folder's mtime when listed (-1: listed too soon after a change to trust it). */
  mtimeMs: number;
  ctimeMs: number;
  /** The stamp (disk.ts) of its `.gitignore`, or null when it has none. */
  gitignore: string | null;
  /** Names joined by '/' (never part of a name): a few thousand strings to keep instead of one per file. */
  files: string;
  subdirs: string;
}

/**
 * Where the walk meets a file the policy admits by name (a regular file when its folder was listed), by its
 * workspace-relative and absolute paths. The walk does not stat it: a file the index knows is stat'ed to see whether
 * it changed, a new one is read anyway (and stat'ed through its descriptor, see disk.ts's readInto). `ahead` is its
 * stat when one was taken ahead (statAhead.ts; null: it was missing then; read it at once, it is reused), undefined
 * when not.
 */
export type NoteFile = (rel: string, abs: string, ahead?: EntryStat | null) => void;

/**
 * Where the walk meets a recorded file whose stat was taken ahead and whose place among the cache file's entries the
 * record gives (`entry`, -1 when it names none: statAhead.ts FolderAhead.entry): true when that entry is unchanged at
 * `stat` (and the callee took it as met), so the walk neither makes its paths nor notes it.
 */
export type KnownFile = (entry: number, stat: EntryStat | null) => boolean;

/** A record's file names (DirRecord.files: joined by '/', '' for none). */
export function recordedNames(files: string): string[] {
  return files ? files.split('/') : [];
}

/** How many names a record holds (recordedNames(files).length, no string made per name). */
export function recordedCount(files: string): number {
  let n = files ? 1 : 0;
  for (let i = files.indexOf('/'); i >= 0; i = files.indexOf('/', i + 1)) n++;
  return n;
}

export class TreeWalk {
  /** What the last walk found in each folder it walked (kept in the cache file). */
  private dirs = new Map<string, DirRecord>();
  /** Folders the last walk listed. */
  listed = 0;
  /** True when a walk changed the folder records (kept in the cache file) since they were loaded or built. */
  changed = false;

  constructor(
    private readonly root: string,
    private readonly policy: WorkspacePolicy,
  ) {}

  /**
   * Walks the workspace and calls `note` for every file the policy admits by name (no stat, no content read). Where a folder's record (see DirRecord) still holds, its files and subfolders are taken from it
   * and only stat'ed: no listing, no name or `.gitignore` checks. Returns false (and keeps the old records) when a
   * `.gitignore` changed since the records were made: then only a full walk (`useRecords` false) applies the rules
   * right. Rules files outside the walked folders (info/exclude, `.gitignore` above the root) are the caller's to
   * check (the policy's aboveKey()). `ahead`: the recorded folders' and files' stats taken ahead, used instead of
   * stat'ing them here, and `known` tells which of their files are unchanged. `stop`, asked before each folder: true
   * ends the walk there (a caller that wants a yes/no, not the whole tree); a stopped walk keeps the old records.
   */
  walk(useRecords: boolean, note: NoteFile, ahead?: StatAhead | null, known?: KnownFile, stop?: () => boolean): boolean {
    const records = new Map<string, DirRecord>();
    const now = Date.now();
    this.listed = 0;
    const stack: string[] = [''];
    while (stack.length) {
      if (stop?.()) return true;
      const rel = stack.pop()!;
      const old = useRecords ? this.dirs.get(rel) : undefined;
      const pre = old && ahead ? ahead.folder(rel, old.files) : undefined;
      const abs = folderPath(this.root, rel);
      const st = pre ? pre.stat : folderStat(this.root, rel);
      if (!st?.isDirectory()) continue;
      if (old && old.gitignore !== null && stamp(path.join(abs, '.gitignore')) !== old.gitignore) return false;
      if (old && old.mtimeMs === st.mtimeMs && old.ctimeMs === st.ctimeMs) {
        this.policy.noteDir(rel, old.gitignore !== null);
        const prefix = abs + path.sep;
        // the names are split only for a file the stats taken ahead do not show unchanged (`known`)
        let names: string[] | null = pre ? null : recordedNames(old.files);
        const count = pre ? pre.files : names!.length;
        for (let i = 0; i < count; i++) {
          const taken = pre?.file(i);
          if (pre && known?.(pre.entry(i), taken!)) continue;
          names ??= recordedNames(old.files);
          note(childPath(rel, names[i]), prefix + names[i], taken);
        }
        if (old.subdirs) for (const d of old.subdirs.split('/')) stack.push(childPath(rel, d));
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
      if (useRecords && (old ? old.gitignore !== null : false) !== hasGitignore) return false;
      if (useRecords && !old && hasGitignore) return false;
      this.policy.noteDir(rel, hasGitignore);
      const files: string[] = [];
      const subdirs: string[] = [];
      const prefix = abs + path.sep;
      for (const e of entries) {
        const r = childPath(rel, e.name);
        // symlinks are never followed nor listed: the model sees the real files once, where they are
        if (e.isDirectory()) {
          if (this.policy.skipDir(r)) continue;
          subdirs.push(e.name);
          stack.push(r);
        } else if (e.isFile()) {
          if (this.policy.skipFileName(r)) continue;
          files.push(e.name);
          note(r, prefix + e.name);
        }
      }
      // a folder changed within the clock's resolution may change again under the same times: list it next time
      const rec: DirRecord = {
        mtimeMs: racyStamp(st, now) ? -1 : st.mtimeMs,
        ctimeMs: st.ctimeMs,
        gitignore: hasGitignore ? stamp(prefix + '.gitignore') : null,
        files: files.join('/'),
        subdirs: subdirs.join('/'),
      };
      if (!old || old.mtimeMs !== rec.mtimeMs || old.ctimeMs !== rec.ctimeMs || old.gitignore !== rec.gitignore || old.files !== rec.files || old.subdirs !== rec.subdirs) {
        this.changed = true;
      }
      records.set(rel, rec);
    }
    if (records.size !== this.dirs.size) this.changed = true;
    this.dirs = records;
    return true;
  }

  /** The records as the cache file stores them. */
  rows(): DirRow[] {
    return [...this.dirs].map(([rel, d]) => [rel, d.mtimeMs, d.ctimeMs, d.gitignore, d.files, d.subdirs]);
  }

  /** Takes back the records of a cache file (malformed rows are skipped: their folders are listed again). */
  restore(dirs: readonly DirRow[]): void {
    for (const [rel, mtimeMs, ctimeMs, gitignore, files, subdirs] of dirs) {
      if (typeof rel === 'string' && typeof mtimeMs === 'number' && typeof ctimeMs === 'number' && typeof files === 'string' && typeof subdirs === 'string') {
        this.dirs.set(rel, { mtimeMs, ctimeMs, gitignore, files, subdirs });
      }
    }
  }
}
