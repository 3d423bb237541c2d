// The disk primitives of the workspace index (workspaceIndex.ts and its walk, treeWalk.ts): a stat that answers null
// instead of throwing, a file's `size:mtime:ctime` stamp, the one rule that makes a workspace-relative path absolute, and
// the read of a file's bytes into one reused buffer (a build reads tens of thousands of files), and the read of a
// part of an open file (the index's cache file).
import * as fs from 'fs';
import * as path from 'path';
import { STAT_FIELDS, STAT_KIND, type StatAheadJob } from './readAheadProtocol';

/** Options of the stats a walk makes (one object for all of them: a warm walk stats every file). */
const NO_THROW = { throwIfNoEntry: false } as const;

/** What the walk reads of a stat: an fs.Stats, or a stat taken ahead on the worker thread (statAhead.ts). */
export interface EntryStat {
  isFile(): boolean;
  isDirectory(): boolean;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/** lstat (stat for `follow`), or null when the entry is missing or cannot be stat'ed (ENOTDIR, EACCES, …). */
export function statOrNull(abs: string, follow = true): fs.Stats | null {
  try {
    return (follow ? fs.statSync(abs, NO_THROW) : fs.lstatSync(abs, NO_THROW)) ?? null;
  } catch {
    return null;
  }
}

/**
 * `size:mtime:ctime` of a file, or null when it does not exist. The ctime too, as git compares it: a rewrite that keeps
 * the size and puts the mtime back (`touch -r`, `rsync -t`, `cp -p`) still moves the ctime, which no user tool sets.
 */
export function stamp(abs: string): string | null {
  const st = statOrNull(abs);
  return st ? stampKey(st) : null;
}

/** A stamp as one string, `size:mtime:ctime` (the one format of stamp() and of the index's remembered files). */
export function stampKey(st: FileStamp): string {
  return `${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
}

/** The stamp of a stat (or of anything carrying one), as a plain object of its own. */
export function stampOf(st: FileStamp): FileStamp {
  return { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
}

/**
 * Whether a name a folder listing gave (`dirAbs`'s entry) is one it could not decode: its bytes on disk are not UTF-8
 * (a Latin-1 `café.ts`), so Node lists it with U+FFFD in their place and the path names no entry. A name that really
 * holds U+FFFD exists: only such names are looked up (one lstat).
 */
export function undecodableName(dirAbs: string, name: string): boolean {
  return name.includes('\uFFFD') && statOrNull(path.join(dirAbs, name), false) === null;
}

/** The workspace-relative path of the entry `name` of the walked folder `rel` ('' is the root). */
export function childPath(rel: string, name: string): string {
  return rel ? `${rel}/${name}` : name;
}

/** A walked folder's absolute path ('' is the root itself). */
export function folderPath(root: string, rel: string): string {
  return rel ? absoluteIn(root, rel) : root;
}

/**
 * A walked folder's stat as the walk takes it: the root followed (the user may have opened a symlink), a folder below
 * it lstat'ed (one replaced by a symlink is not followed). The walk (treeWalk.ts) and the stat-ahead worker
 * (indexWorker.ts) both take it here.
 */
export function folderStat(root: string, rel: string): fs.Stats | null {
  return statOrNull(folderPath(root, rel), !rel);
}

function putStat(out: Float64Array, at: number, st: fs.Stats | null): void {
  if (!st) return; // the shared memory starts zeroed: STAT_KIND.none
  out[at] = st.isFile() ? STAT_KIND.file : st.isDirectory() ? STAT_KIND.dir : STAT_KIND.other;
  out[at + 1] = st.size;
  out[at + 2] = st.mtimeMs;
  out[at + 3] = st.ctimeMs;
}

/**
 * Stats the folders of a stat-ahead job that are still unclaimed, claiming them one at a time (the worker and the
 * index's thread both run this, statAhead.ts): each folder as the walk takes it (folderStat), then its recorded files
 * lstat'ed, into the job's shared numbers. Returns how many folders this thread took.
 */
export function statClaimedFolders(job: StatAheadJob): number {
  const { root, dirs, files, starts, claim, out } = job;
  let took = 0;
  for (let i = Atomics.add(claim, 0, 1); i < dirs.length; i = Atomics.add(claim, 0, 1)) {
    took++;
    let at = starts[i] * STAT_FIELDS;
    putStat(out, at, folderStat(root, dirs[i]));
    if (!files[i]) continue;
    const prefix = folderPath(root, dirs[i]) + path.sep;
    for (const name of files[i].split('/')) {
      at += STAT_FIELDS;
      putStat(out, at, statOrNull(prefix + name, false));
    }
  }
  return took;
}

/**
 * The absolute path of a workspace-relative one under `root` (absolute, normalised): the root and the segments
 * joined without path.join's normalisation, which a build would pay per file (the OS resolves any `.` or `..` the
 * same way).
 */
export function absoluteIn(root: string, rel: string): string {
  const base = root.endsWith(path.sep) ? root : root + path.sep;
  return base + (path.sep === '/' ? rel : rel.split('/').join(path.sep));
}

/** The buffer readInto() reuses (a build reads tens of thousands of files: no allocation per file). */
let readBuffer = Buffer.allocUnsafe(1 << 16);

/**
 * Flags of an open for reading: never through a symlink (the walk admits regular files only, and one swapped in for a
 * symlink since is not followed), never blocking on a FIFO swapped in (O_NONBLOCK changes nothing for a regular file).
 */
const READ_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

/** A file's size, mtime and ctime (the inode's last change: a write, a chmod, a utimes), as a stat gave them. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/** A file read by readInto(): its bytes (in the shared buffer) and its size, mtime and ctime. */
export interface FileBytes extends FileStamp {
  buf: Buffer;
}

/**
 * A file's bytes, up to `limit` + 1 of them (enough to tell it is over the limit), in the shared read buffer: valid
 * until the next call. `known` is the file's stamp when the caller stat'ed it (reads stop at that size);
 * without it the open descriptor is stat'ed (one fstat instead of a walk's lstat of the path: a build reads every
 * file it finds) and null is returned when it is not a regular file of at most `limit` bytes, or vanished, or is a
 * symlink now. Other errors throw.
 */
export function readInto(abs: string, limit: number, known?: FileStamp): FileBytes | null {
  let fd: number;
  try {
    fd = fs.openSync(abs, READ_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (!known && (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR')) return null;
    throw err;
  }
  try {
    let size: number;
    let mtimeMs: number;
    let ctimeMs: number;
    if (known) ({ size, mtimeMs, ctimeMs } = known);
    else {
      const st = fs.fstatSync(fd);
      if (!st.isFile() || st.size > limit) return null;
      ({ size, mtimeMs, ctimeMs } = st);
    }
    const max = limit + 1;
    if (readBuffer.length < Math.min(size + 1, max)) readBuffer = Buffer.allocUnsafe(Math.min(Math.max(size + 1, readBuffer.length * 2), max));
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
      // the size stat'ed is read (a file that changed since has a new stamp: the next walk reads it)
      if (!got || n >= size) break;
    }
    return { buf: readBuffer.subarray(0, n), size, mtimeMs, ctimeMs };
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads `length` bytes at `position` of an open file into a buffer of its own (8-aligned for typed-array views); throws when the file is shorter. */
export function readAt(fd: number, length: number, position: number): Buffer {
  const buf = Buffer.allocUnsafeSlow(length);
  let got = 0;
  while (got < length) {
    const n = fs.readSync(fd, buf, got, length - got, position + got);
    if (n === 0) throw new Error('file shorter than expected');
    got += n;
  }
  return buf;
}
