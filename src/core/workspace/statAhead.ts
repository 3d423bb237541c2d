// Stat ahead: a warm open of a large workspace stats every file the index knows (has it changed?) and every folder
// it walked (has an entry come or gone?). On a 50,000-file workspace those lstats are about half of a warm
// `cape context`, and reading the rest of the cache file is most of the other half; they do not depend on each
// other once the cache file's header is read, which lists the folders and their files (treeWalk.ts's records). So
// the header starts a worker thread (indexWorker.ts) that stats those entries into shared memory on the machine's
// second core while this thread reads the sections; once they are read, this thread stats too, taking the folders the
// worker has not yet claimed (disk.ts statClaimedFolders), so both cores finish the stats together instead of one
// waiting for the other. The walk then takes each recorded folder's stats from there instead of stat'ing, and, with
// the cache file's places of the recorded files among its entries (useEntries), takes a file whose stat is the one
// its entry recorded as it is, by that place (indexContent.ts metRecorded): no path made, nothing looked up, for
// the tens of thousands of files a warm open finds unchanged. A stat taken ahead is what a walk started a few
// hundred milliseconds earlier would have seen: a change after it is found by the next open, as one after a walk is.
// A small workspace stats on this thread (a worker costs its start), and a worker that cannot start or fails leaves
// every stat to the walk.
import * as fs from 'fs';
import * as os from 'os';
import { Worker } from 'worker_threads';
import { statClaimedFolders, statOrNull, type EntryStat } from './disk';
import type { DirRow } from './indexCache';
import { recordedCount } from './treeWalk';
import { READ_AHEAD_MIN_FILES, READ_AHEAD_WORKER } from './readAhead';
import { STAT_FIELDS, STAT_KIND, STAT_LATER, type StatAheadJob } from './readAheadProtocol';

/**
 * The stat worker's young generation, in megabytes: its garbage (a Stats object per entry) dies at once, and each
 * megabyte more V8 would grow it to is memory the process touches for nothing (on this VM a page costs ~10 µs the
 * first time): 1 MB instead of V8's default cut a warm `cape context` of 50,000 files by ~6 MB of RSS and ~20 ms.
 */
const STAT_WORKER_YOUNG_MB = 1;
/** The least a cache file holds per file (numbers, path, places, an empty Doc…): spawn()'s guess of a workspace's size. */
const CACHE_BYTES_PER_FILE = 64;

/** A stat worker and whether it did its job: true once it says so, false when it fails or exits first. */
export interface StatWorker {
  worker: Worker;
  done: Promise<boolean>;
}

/** Starts the worker with `workerData` (its job, or STAT_LATER), watched from its start; null when it does not start. */
function statWorker(file: string, workerData: StatAheadJob | typeof STAT_LATER): StatWorker | null {
  try {
    const worker = new Worker(file, { workerData, resourceLimits: { maxYoungGenerationSizeMb: STAT_WORKER_YOUNG_MB } });
    const done = new Promise<boolean>((resolve) => {
      worker.once('message', (m) => resolve(m === 'done'));
      worker.once('error', () => resolve(false));
      worker.once('exit', () => resolve(false));
    });
    return { worker, done };
  } catch {
    return null;
  }
}

/** One entry of the shared numbers read as a stat; the walk reads its fields at once and keeps nothing of it. */
class StatView implements EntryStat {
  at = 0;
  constructor(private readonly out: Float64Array) {}
  isFile(): boolean {
    return this.out[this.at] === STAT_KIND.file;
  }
  isDirectory(): boolean {
    return this.out[this.at] === STAT_KIND.dir;
  }
  get size(): number {
    return this.out[this.at + 1];
  }
  get mtimeMs(): number {
    return this.out[this.at + 2];
  }
  get ctimeMs(): number {
    return this.out[this.at + 3];
  }
  /** This view on entry `i`, or null when that entry was missing or could not be stat'ed (as statOrNull). */
  on(i: number): EntryStat | null {
    this.at = i * STAT_FIELDS;
    return this.out[this.at] === STAT_KIND.none ? null : this;
  }
}

/** A folder's stats taken ahead: its own, and its recorded files' by their place in the record. */
export interface FolderAhead {
  stat: EntryStat | null;
  /** The record's files (its names' count: the stats were taken for these). */
  files: number;
  /** The stat of the record's `i`-th file: valid until the next call. */
  file(i: number): EntryStat | null;
  /** The record's `i`-th file's place among the cache file's entries (indexCache.ts `recorded`), or -1: none known. */
  entry(i: number): number;
}

export interface StatAheadOptions {
  /** Use a worker from this many files on (default READ_AHEAD_MIN_FILES; Infinity never). */
  minFiles?: number;
  /** The worker's script (default READ_AHEAD_WORKER, the index's worker). */
  workerFile?: string;
}

export class StatAhead {
  private readonly dirView: StatView;
  private readonly fileView: StatView;
  private readonly done: Promise<boolean>;
  private worker: Worker | null;
  /** Stats the walk took from here (folders and files). */
  taken = 0;
  /** Folders this thread stat'ed itself while the worker was still at it (ready()). */
  helped = 0;
  /** The cache file's entries of the recorded files, row by row (useEntries()), or null: none known. */
  private entries: Int32Array | null = null;

  private constructor(
    { worker, done }: StatWorker,
    private readonly job: StatAheadJob,
    out: Float64Array,
    /**
     * Per folder: the place of its own stat among the entries, the file names its stats were taken for, and where its
     * files start in the cache file's `recorded`.
     */
    private readonly places: Map<string, { at: number; files: string; count: number; first: number }>,
    /** The recorded files of all rows (the length `recorded` must have), or -1 when a row could not be counted. */
    private readonly recordedFiles: number,
  ) {
    this.worker = worker;
    this.dirView = new StatView(out);
    this.fileView = new StatView(out);
    this.done = done;
  }

  /**
   * A worker started before the cache file is read, to take its job from start() once the header is: its own start
   * (tens of milliseconds) then overlaps the reading of the header instead of following it. Null where start() would
   * not use one: a cache file too small for a workspace of `minFiles` (at least CACHE_BYTES_PER_FILE a file), one core,
   * no worker script. The caller stops one that start() was not given.
   */
  static spawn(cacheFile: string, opts: StatAheadOptions = {}): StatWorker | null {
    const file = opts.workerFile ?? READ_AHEAD_WORKER;
    const bytes = statOrNull(cacheFile)?.size ?? 0;
    if (!bytes || bytes < (opts.minFiles ?? READ_AHEAD_MIN_FILES) * CACHE_BYTES_PER_FILE || os.availableParallelism() < 2 || !fs.existsSync(file)) return null;
    return statWorker(file, STAT_LATER);
  }

  /**
   * Starts stat'ing the recorded folders and their files (the cache header's rows; malformed ones are left to the
   * walk) on `spawned` (spawn()) or a worker started here, or null when the workspace is small, the machine has one
   * core, or no worker starts.
   */
  static start(root: string, rows: readonly DirRow[], files: number, opts: StatAheadOptions = {}, spawned: StatWorker | null = null): StatAhead | null {
    if (files < (opts.minFiles ?? READ_AHEAD_MIN_FILES) || os.availableParallelism() < 2) return null;
    const file = opts.workerFile ?? READ_AHEAD_WORKER;
    if (!spawned && !fs.existsSync(file)) return null;
    const dirs: string[] = [];
    const names: string[] = [];
    const starts: number[] = [];
    const places = new Map<string, { at: number; files: string; count: number; first: number }>();
    let entries = 0;
    // the recorded files of every row, as indexCache.ts lists their entries (-1: a row without its files' names)
    let recordedFiles = 0;
    for (const row of rows) {
      const [rel, , , , recorded] = row;
      const count = typeof recorded === 'string' ? recordedCount(recorded) : 0;
      const first = recordedFiles;
      recordedFiles = typeof recorded === 'string' && recordedFiles >= 0 ? recordedFiles + count : -1;
      if (typeof rel !== 'string' || typeof recorded !== 'string' || places.has(rel)) continue;
      places.set(rel, { at: entries, files: recorded, count, first });
      dirs.push(rel);
      names.push(recorded);
      starts.push(entries);
      entries += 1 + count;
    }
    const out = new Float64Array(new SharedArrayBuffer(entries * STAT_FIELDS * Float64Array.BYTES_PER_ELEMENT));
    const claim = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    const job: StatAheadJob = { kind: 'stat', root, dirs, files: names, starts: Int32Array.from(starts), claim, out };
    try {
      spawned?.worker.postMessage(job);
    } catch {
      return null;
    }
    const worker = spawned ?? statWorker(file, job);
    return worker && new StatAhead(worker, job, out, places, recordedFiles);
  }

  /**
   * Stats, on this thread, the folders the worker has not claimed yet, then waits for the worker to finish its own;
   * false when it failed (then nothing is taken from here: a folder it claimed may be left without its stats).
   */
  async ready(): Promise<boolean> {
    if (this.worker) this.helped += statClaimedFolders(this.job);
    const ok = await this.done;
    if (!ok) this.places.clear();
    return ok;
  }

  /**
   * The cache file's entries of the recorded files (indexCache.ts `recorded`, row by row as the header lists the
   * folders), once its sections are read; not used when they do not add up to the rows' files.
   */
  useEntries(recorded: Int32Array): void {
    this.entries = recorded.length === this.recordedFiles ? recorded : null;
  }

  /**
   * The stats taken ahead for a folder whose record lists `files`, or undefined when none were taken for it (a folder
   * not recorded, or recorded with other files): then the walk stats it itself.
   */
  folder(rel: string, files: string): FolderAhead | undefined {
    const place = this.places.get(rel);
    if (!place || place.files !== files) return undefined;
    const first = place.at + 1;
    this.taken++;
    const entries = this.entries;
    return {
      stat: this.dirView.on(place.at),
      files: place.count,
      file: (i) => {
        this.taken++;
        return this.fileView.on(first + i);
      },
      entry: (i) => (entries ? entries[place.first + i] : -1),
    };
  }

  /** Ends the worker (when it is still running) and lets the stats go. */
  stop(): void {
    this.places.clear();
    this.entries = null;
    if (this.worker) void this.worker.terminate();
    this.worker = null;
  }
}
