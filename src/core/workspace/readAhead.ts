// Reading the files of a large index build ahead of the index, on the machine's second core: a worker thread
// (indexWorker.ts) opens, reads, decodes and scans the files (fileRead.ts's readForIndex) while this thread puts the
// previous chunk's terms together (workspaceIndex.ts). Results come in the order asked, so a build with the worker
// indexes exactly what one without it does. A small build reads on this thread (a worker costs its start); a worker
// that cannot start or fails midway leaves the rest to this thread, from the first file it did not answer.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Worker } from 'worker_threads';
import { absoluteIn, type FileStamp } from './disk';
import { readForIndex, type FileRead } from './fileRead';
import { CHUNK_FILES, FLOW_STOP, FLOW_TAKEN, type ReadAheadChunk, type ReadAheadJob } from './readAheadProtocol';

/** One file to read: its workspace-relative path, and its stamp when the walk stat'ed it. */
export interface ReadItem {
  rel: string;
  stat: FileStamp | null;
}

/** Builds reading fewer files than this read them on this thread (starting a worker costs tens of milliseconds). */
export const READ_AHEAD_MIN_FILES = 2000;
/** The worker's script: next to this module under out/, next to the bundle under dist/ (esbuild.mjs builds both). */
export const READ_AHEAD_WORKER = path.join(__dirname, 'indexWorker.js');

export interface ReadAheadOptions {
  /** Use a worker from this many files on (default READ_AHEAD_MIN_FILES; Infinity never). */
  minFiles?: number;
  /** The worker's script (default READ_AHEAD_WORKER). */
  workerFile?: string;
  /** Filled in: how many of the files the worker read (the rest were read on this thread). */
  stats?: { workerFiles: number };
}

/** The chunks a worker posted, taken in order; fails (after the chunks it did post) when the worker errs or exits early. */
class ChunkQueue {
  private readonly queue: ReadAheadChunk[] = [];
  private waiting: { resolve: (c: ReadAheadChunk) => void; reject: (e: Error) => void } | null = null;
  private failure: Error | null = null;

  push(c: ReadAheadChunk): void {
    if (this.waiting) {
      this.waiting.resolve(c);
      this.waiting = null;
    } else this.queue.push(c);
  }

  fail(e: Error): void {
    this.failure ??= e;
    this.waiting?.reject(e);
    this.waiting = null;
  }

  next(): Promise<ReadAheadChunk> {
    const c = this.queue.shift();
    if (c) return Promise.resolve(c);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }
}

function startWorker(root: string, maxBytes: number, items: readonly ReadItem[], file: string): { worker: Worker; chunks: ChunkQueue; flow: Int32Array } | null {
  if (!fs.existsSync(file)) return null;
  const flow = new Int32Array(new SharedArrayBuffer(8));
  const job: ReadAheadJob = {
    root,
    maxBytes,
    rels: items.map((i) => i.rel),
    sizes: Float64Array.from(items, (i) => i.stat?.size ?? -1),
    mtimes: Float64Array.from(items, (i) => i.stat?.mtimeMs ?? 0),
    ctimes: Float64Array.from(items, (i) => i.stat?.ctimeMs ?? 0),
    flow,
  };
  let worker: Worker;
  try {
    worker = new Worker(file, { workerData: job });
  } catch {
    return null;
  }
  const chunks = new ChunkQueue();
  worker.on('message', (c: ReadAheadChunk) => chunks.push(c));
  worker.on('error', (e) => chunks.fail(e));
  worker.on('exit', (code) => chunks.fail(new Error(`index read-ahead worker exited (${code})`)));
  return { worker, chunks, flow };
}

/**
 * The files' readForIndex results, in the order of `items`, a chunk at a time (each chunk is the results of the
 * next files). The event loop runs at least every IN_FLIGHT + 1 chunks (a worker is never further ahead), and between
 * chunks read on this thread.
 */
export async function* readFiles(root: string, maxBytes: number, items: readonly ReadItem[], opts: ReadAheadOptions = {}): AsyncGenerator<FileRead[]> {
  let done = 0;
  const minFiles = opts.minFiles ?? READ_AHEAD_MIN_FILES;
  const started = items.length >= minFiles && os.availableParallelism() > 1 ? startWorker(root, maxBytes, items, opts.workerFile ?? READ_AHEAD_WORKER) : null;
  if (started) {
    const { worker, chunks, flow } = started;
    try {
      while (done < items.length) {
        let chunk: ReadAheadChunk;
        try {
          chunk = await chunks.next();
        } catch {
          break; // the rest is read here
        }
        if (chunk.from !== done || !chunk.results.length) break;
        done += chunk.results.length;
        if (opts.stats) opts.stats.workerFiles = done;
        Atomics.add(flow, FLOW_TAKEN, 1);
        Atomics.notify(flow, FLOW_TAKEN);
        yield chunk.results;
      }
    } finally {
      Atomics.store(flow, FLOW_STOP, 1);
      Atomics.notify(flow, FLOW_TAKEN);
      void worker.terminate();
    }
  }
  while (done < items.length) {
    const end = Math.min(items.length, done + CHUNK_FILES);
    const out: FileRead[] = [];
    for (; done < end; done++) {
      const { rel, stat } = items[done];
      out.push(readForIndex(absoluteIn(root, rel), rel, maxBytes, stat));
    }
    yield out;
    if (done < items.length) await new Promise((r) => setImmediate(r));
  }
}
