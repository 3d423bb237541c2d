// What readAhead.ts and its worker (indexWorker.ts) agree on: the job, the chunk bounds and the shared flow counter.
// Kept apart from readAhead.ts so the worker's bundle does not carry the main side.
import type { FileRead } from './fileRead';

/** The files a worker reads, in order: a size below 0 means "not stat'ed" (the read stats the open file). */
export interface ReadAheadJob {
  root: string;
  maxBytes: number;
  rels: string[];
  sizes: Float64Array;
  mtimes: Float64Array;
  ctimes: Float64Array;
  /** [FLOW_TAKEN]: chunks the index has taken; [FLOW_STOP]: 1 when the index stopped wanting them. */
  flow: Int32Array;
}

/** A chunk of results: those of the files from `from` on, in order. */
export interface ReadAheadChunk {
  from: number;
  results: FileRead[];
}

export const FLOW_TAKEN = 0;
export const FLOW_STOP = 1;
/** A chunk holds at most this many files, and ends after the file that takes its texts past CHUNK_CHARS. */
export const CHUNK_FILES = 128;
export const CHUNK_CHARS = 1024 * 1024;
/** Chunks the worker may be ahead of the index: at most IN_FLIGHT × (CHUNK_CHARS + one file) characters in flight. */
export const IN_FLIGHT = 3;

/**
 * A stat-ahead job (statAhead.ts): the folders of the cache file's records, each followed by its recorded files,
 * stat'ed into `out` (STAT_FIELDS numbers per entry; the root followed, everything else lstat'ed). The worker and,
 * once it has read the cache file, the index's own thread share the work: each claims the next folder from `claim`
 * (Atomics.add), so the stats end on both cores at once.
 */
export interface StatAheadJob {
  kind: 'stat';
  root: string;
  /** Workspace-relative folders ('' is the root). */
  dirs: string[];
  /** Per folder, its recorded file names joined by '/'. */
  files: string[];
  /** Per folder, the entry where its own stat goes (its files' follow). */
  starts: Int32Array;
  /** [0]: the next folder to claim. */
  claim: Int32Array;
  out: Float64Array;
}

/** The workerData of a stat worker started before its job is known (statAhead.ts spawn()): the job comes as its first message. */
export const STAT_LATER = { kind: 'stat-later' } as const;

/** Numbers per stat'ed entry: [STAT_KIND, size, mtimeMs, ctimeMs]. */
export const STAT_FIELDS = 4;
/** What an entry was: missing or not stat'able, a regular file, a folder, anything else (a symlink, a device…). */
export const STAT_KIND = { none: 0, file: 1, dir: 2, other: 3 } as const;
