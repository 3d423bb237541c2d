// The index's cache file (indexCache.ts lays it out) held open while parts of it are still to be read: a one-off
// query reads only what it needs of the Docs and postings (storedTerms.ts), of the files' symbols and specifiers
// (indexEntry.ts's StoredPieces) and of the vocabulary (vocabulary.ts). Each part holds the file until it has read
// all of itself, or is dropped; the file is closed once no part holds it. The file was checked whole when it was
// opened (cacheDigest.ts), and a cache file written since (renamed over it) leaves this open one as it was.
import * as fs from 'fs';
import { readAt } from './disk';

export class OpenCacheFile {
  private fd: number | null;
  private holders = 0;

  constructor(fd: number) {
    this.fd = fd;
  }

  /** A part that reads from the file until it calls the release() this returns (once; later calls do nothing). */
  hold(): () => void {
    this.holders++;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      if (--this.holders <= 0) this.close();
    };
  }

  /** `length` bytes at `position`, in a buffer of their own; throws once the file is closed. */
  read(length: number, position: number): Buffer {
    if (this.fd === null) throw new Error('cache file closed');
    return readAt(this.fd, length, position);
  }

  close(): void {
    if (this.fd === null) return;
    try {
      fs.closeSync(this.fd);
    } catch {
      /* already closed */
    }
    this.fd = null;
  }
}
