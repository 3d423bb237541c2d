// The disk primitives of the workspace index (workspaceIndex.ts and its walk, treeWalk.ts): a stat that answers null
// instead of throwing, a file's `size:mtime` stamp, the one rule that makes a workspace-relative path absolute, and
// the read of a file's bytes into one reused buffer (a build reads tens of thousands of files).
import * as fs from 'fs';
import * as path from 'path';

/** Options of the stats a walk makes (one object for all of them: a warm walk stats every file). */
const NO_THROW = { throwIfNoEntry: false } as const;

/** lstat (stat for `follow`), or null when the entry is missing or cannot be stat'ed (ENOTDIR, EACCES, …). */
export function statOrNull(abs: string, follow = true): fs.Stats | null {
  try {
    return (follow ? fs.statSync(abs, NO_THROW) : fs.lstatSync(abs, NO_THROW)) ?? null;
  } catch {
    return null;
  }
}

/** `size:mtime` of a file, or null when it does not exist. */
export function stamp(abs: string): string | null {
  const st = statOrNull(abs);
  return st ? `${st.size}:${st.mtimeMs}` : null;
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

/** The buffer readInto() reuses (a build reads tens of thousands of files: no allocation, no fstat per file). */
let readBuffer = Buffer.allocUnsafe(1 << 16);

/**
 * A file's bytes, up to `limit` + 1 of them (enough to tell it is over the limit), in the shared read buffer: valid
 * until the next call. Reads stop at `expected` bytes (its size when the walk stat'ed it).
 */
export function readInto(abs: string, expected: number, limit: number): Buffer {
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
