// Reading one file for the index: its bytes (disk.ts's readInto), whether they are text (policy.ts's textOf) and its
// top-level symbols and imports (symbols.ts). A function of the disk alone, so the index (workspaceIndex.ts, for a
// few files) and the read-ahead worker of a build (readAhead.ts, indexWorker.ts) run the same code on each file.
import { readInto, stampOf, statOrNull, type FileStamp } from './disk';
import { textOf } from './policy';
import { scanFile } from './symbols';

/**
 * How long after a change a file or folder may change again under the same size and times: the step of the file
 * system's clock. Whole-second mtimes (FAT, HFS+, many network file systems) step by up to 2 s; finer ones (ext4, APFS,
 * NTFS) by the kernel's tick, a few milliseconds.
 */
const RACY_MS = 3000;
const FINE_RACY_MS = 50;

/**
 * Whether what was read or listed at `readAt` may be stale under an unchanged size and mtime: the mtime is within one
 * clock step (RACY_MS) of the read. An mtime further in the future (a skewed clock, an archive's dates) is not: it
 * would keep a file "racy" — read again, the cache rewritten — on every run until the clock caught up.
 */
export function racyRead(mtimeMs: number, readAt: number): boolean {
  const step = mtimeMs % 1000 === 0 ? RACY_MS : FINE_RACY_MS;
  return Math.abs(readAt - mtimeMs) < step;
}

/**
 * Whether a file (or folder) read or listed at `readAt` under `stamp` may change again under the same stamp: its
 * mtime or its ctime (the last change of any kind: a rewrite whose mtime was put back moves only the ctime) within a
 * clock step of the read (racyRead). A later change moves the ctime to a later step than this, which the comparison
 * of the stamps sees.
 */
export function racyStamp(stamp: FileStamp, readAt: number): boolean {
  return racyRead(stamp.mtimeMs, readAt) || racyRead(stamp.ctimeMs, readAt);
}

/** What reading a file for the index found. */
export type FileRead =
  /**
   * It could not be read (a permission error, an I/O error): the index lets it go, and remembers it by `stat` (an
   * lstat after the failure; null when it is no regular file now) until that changes (a chmod changes the ctime).
   */
  | { kind: 'failed'; stat: FileStamp | null }
  /** Not stat'ed before, and no regular file within the size limit (or gone, or a symlink now): not admitted. */
  | { kind: 'gone' }
  /** Not text (a NUL byte, invalid UTF-8, or grown past the size limit): remembered by its stamp. */
  | ({ kind: 'binary' } & FileStamp)
  | ({ kind: 'text'; text: string; symbols: string[]; imports: string[] } & FileStamp);

/**
 * A file's text as the index reads it (disk.ts's readInto: never through a symlink, never waiting on a FIFO, at most
 * `maxBytes` + 1 bytes): null when it is no regular file within the limit (or gone, unless `stat` says it was one);
 * `text` null when its bytes are not text or grew past the limit. Other errors throw.
 */
export function readText(abs: string, maxBytes: number, stat?: FileStamp): (FileStamp & { text: string | null }) | null {
  const got = readInto(abs, maxBytes, stat);
  if (!got) return null;
  return { ...stampOf(got), text: got.buf.length > maxBytes ? null : textOf(got.buf) };
}

/** Reads the file at `abs` (its workspace-relative path `rel` tells its language) for the index. */
export function readForIndex(abs: string, rel: string, maxBytes: number, stat: FileStamp | null): FileRead {
  let got;
  try {
    got = readText(abs, maxBytes, stat ?? undefined);
  } catch {
    const st = statOrNull(abs, false);
    return { kind: 'failed', stat: st?.isFile() ? stampOf(st) : null };
  }
  if (!got) return { kind: 'gone' };
  const { size, mtimeMs, ctimeMs, text } = got;
  if (text === null) return { kind: 'binary', size, mtimeMs, ctimeMs };
  const scan = scanFile(rel, text);
  return { kind: 'text', size, mtimeMs, ctimeMs, text, symbols: scan.symbols, imports: scan.imports };
}
