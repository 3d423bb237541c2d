// Crash-safe file writes: a reader (or a crash) never sees a half-written file.
// Plain Node: nothing in src/core may import 'vscode'.
import { promises as fsp } from 'fs';
import * as path from 'path';
import * as crypto from 'crypto';
import { notTextReason } from './text';

/** Anything `FileHandle.writeFile` accepts; iterables let tests inject a failure mid-write. */
export type AtomicData = string | Uint8Array | Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>;

/** Creates a directory and its parents; no error when it already exists. */
export async function ensureDir(dir: string): Promise<void> {
  await fsp.mkdir(dir, { recursive: true });
}

/** True for the temporary names writeFileAtomic uses (so listings can skip leftovers of a crashed process). */
export function isAtomicTempName(name: string): boolean {
  return /^\..+\.[0-9a-f]{12}\.tmp$/.test(name);
}

/**
 * Removes the temporary files writeFileAtomic left in `dir` when its process was killed mid-write (kill -9, power
 * loss). Only names of that exact shape older than `minAgeMs` are removed, so a write in flight in another process
 * is never disturbed. Returns the names removed; a missing or unreadable folder removes nothing.
 */
export async function removeStaleAtomicTemps(dir: string, minAgeMs = 15_000, now: number = Date.now()): Promise<string[]> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!isAtomicTempName(name)) continue;
    const file = path.join(dir, name);
    try {
      const st = await fsp.lstat(file);
      if (!st.isFile() || now - st.mtimeMs < minAgeMs) continue;
      await fsp.rm(file, { force: true });
      removed.push(name);
    } catch {
      // gone meanwhile or not removable: leave it
    }
  }
  return removed;
}

/**
 * The error to throw when reading `filePath` failed with `err`. Node's own messages for some failures name no file
 * ("EISDIR: illegal operation on a directory, read"): this one always names it and says what is wrong, keeping `code`.
 */
export function fileReadError(filePath: string, err: unknown): NodeJS.ErrnoException {
  const e = err as NodeJS.ErrnoException;
  const why =
    e.code === 'EISDIR'
      ? 'it is a folder, not a file'
      : e.code === 'ENOENT'
        ? 'no such file'
        : e.code === 'EACCES' || e.code === 'EPERM'
          ? 'permission denied'
          : e.message;
  const out = new Error(`Cannot read ${filePath}: ${why}.`) as NodeJS.ErrnoException;
  out.code = e.code;
  out.path = filePath;
  return out;
}

/**
 * Reads a UTF-8 text file; a failure names the file (fileReadError), and so does content that is not text (binary,
 * or bytes that are not UTF-8: notTextReason), which is refused rather than decoded into NUL bytes and U+FFFD.
 */
export async function readTextFile(filePath: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await fsp.readFile(filePath);
  } catch (err) {
    throw fileReadError(filePath, err);
  }
  const notText = notTextReason(bytes);
  if (notText) throw new Error(`Cannot read ${filePath}: ${notText}.`);
  return bytes.toString('utf8');
}

const RENAME_RETRY_CODES = new Set(['EPERM', 'EACCES', 'EBUSY']);

/**
 * Writes `data` to `filePath` atomically: the bytes go to a temporary file in the same directory (same
 * filesystem, so the rename is atomic), which is fsynced and then renamed over the target. On any failure the
 * temporary file is removed and the previous content of `filePath` (if any) is left untouched.
 *
 * The parent directory must exist (call ensureDir first). When the target exists its permission bits are kept.
 * Renaming replaces a symlink or hard link at `filePath` with a regular file; it never writes through them.
 */
export async function writeFileAtomic(filePath: string, data: AtomicData): Promise<void> {
  const dir = path.dirname(filePath);
  const tmp = path.join(dir, `.${path.basename(filePath)}.${crypto.randomBytes(6).toString('hex')}.tmp`);
  let mode = 0o644;
  let existing = false;
  try {
    const st = await fsp.lstat(filePath);
    if (st.isFile()) {
      mode = st.mode & 0o777;
      existing = true;
    }
  } catch {
    // new file: default mode
  }
  let fh: import('fs').promises.FileHandle | undefined;
  try {
    fh = await fsp.open(tmp, 'wx', mode);
    // open() applies the umask: the existing file's bits (0o664 under umask 022) are set explicitly
    if (existing) await fh.chmod(mode);
    await fh.writeFile(data as Parameters<typeof fh.writeFile>[0]);
    await fh.sync();
    await fh.close();
    fh = undefined;
    await renameWithRetry(tmp, filePath);
  } catch (err) {
    if (fh) await fh.close().catch(() => undefined);
    await fsp.rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
  await syncDir(dir);
}

/** Windows refuses to rename over a file another process has open for a short while; retry briefly. */
async function renameWithRetry(from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await fsp.rename(from, to);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (process.platform !== 'win32' || !RENAME_RETRY_CODES.has(code) || attempt >= 8) throw err;
      await new Promise((r) => setTimeout(r, 20 * (attempt + 1)));
    }
  }
}

/** Best effort: persist the directory entry of the rename (not supported on Windows). */
async function syncDir(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  let fh: import('fs').promises.FileHandle | undefined;
  try {
    fh = await fsp.open(dir, 'r');
    await fh.sync();
  } catch {
    // some filesystems refuse fsync on directories; the data itself is already synced
  } finally {
    if (fh) await fh.close().catch(() => undefined);
  }
}

/**
 * Where a write meant for `p` goes: `realPath` (where `p` really leads, checked by the caller to be a place CAPE may
 * write) when `p` is a symbolic link, so the link stays a link and its target gets the text; else `p`. An atomic write
 * renames over its path, which would replace a link with a plain file and leave the linked file behind for good.
 */
export async function writePathThroughLink(p: string, realPath: string): Promise<string> {
  const st = await fsp.lstat(p).catch(() => null);
  return st?.isSymbolicLink() ? realPath : p;
}
