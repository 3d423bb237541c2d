// The workspace index's worker thread, for one of two jobs:
//  - read ahead (readAhead.ts, a large build): reads the files in order with fileRead.ts's readForIndex and posts the
//    results in chunks, staying at most a few chunks ahead of what the index has taken (a shared counter), so the
//    texts in flight stay bounded however large the workspace is;
//  - stat ahead (statAhead.ts, a warm open): stats the folders and files the cache file records into shared memory
//    while the index reads the rest of its cache file, then says it is done.
import * as fs from 'fs';
import * as path from 'path';
import { parentPort, workerData } from 'worker_threads';
import { absoluteIn, folderPath, folderStat, statOrNull } from './disk';
import { readForIndex, type FileRead } from './fileRead';
import { CHUNK_CHARS, CHUNK_FILES, FLOW_STOP, FLOW_TAKEN, IN_FLIGHT, STAT_FIELDS, STAT_KIND, type ReadAheadJob, type StatAheadJob } from './readAheadProtocol';

function run(job: ReadAheadJob): void {
  const { root, maxBytes, rels, sizes, mtimes, ctimes, flow } = job;
  let posted = 0;
  let i = 0;
  while (i < rels.length) {
    // wait while the index is IN_FLIGHT chunks behind (or stop when it gave up)
    for (;;) {
      if (Atomics.load(flow, FLOW_STOP)) return;
      const taken = Atomics.load(flow, FLOW_TAKEN);
      if (posted - taken < IN_FLIGHT) break;
      Atomics.wait(flow, FLOW_TAKEN, taken, 1000);
    }
    const from = i;
    const results: FileRead[] = [];
    let chars = 0;
    while (i < rels.length && results.length < CHUNK_FILES && chars < CHUNK_CHARS) {
      const stat = sizes[i] < 0 ? null : { size: sizes[i], mtimeMs: mtimes[i], ctimeMs: ctimes[i] };
      const r = readForIndex(absoluteIn(root, rels[i]), rels[i], maxBytes, stat);
      if (r.kind === 'text') chars += r.text.length;
      results.push(r);
      i++;
    }
    parentPort!.postMessage({ from, results });
    posted++;
  }
}

function put(out: Float64Array, at: number, st: fs.Stats | null): void {
  if (!st) return; // the shared memory starts zeroed: STAT_KIND.none
  out[at] = st.isFile() ? STAT_KIND.file : st.isDirectory() ? STAT_KIND.dir : STAT_KIND.other;
  out[at + 1] = st.size;
  out[at + 2] = st.mtimeMs;
  out[at + 3] = st.ctimeMs;
}

function stat(job: StatAheadJob): void {
  const { root, dirs, files, out } = job;
  let at = 0;
  for (let i = 0; i < dirs.length; i++) {
    // as the walk takes it (disk.ts folderStat)
    const abs = folderPath(root, dirs[i]);
    put(out, at, folderStat(root, dirs[i]));
    at += STAT_FIELDS;
    if (!files[i]) continue;
    const prefix = abs + path.sep;
    for (const name of files[i].split('/')) {
      put(out, at, statOrNull(prefix + name, false));
      at += STAT_FIELDS;
    }
  }
  parentPort!.postMessage('done');
}

if (parentPort && workerData) {
  const job = workerData as ReadAheadJob | StatAheadJob;
  if ('kind' in job && job.kind === 'stat') stat(job);
  else run(job as ReadAheadJob);
}
