// The workspace index's worker thread, for one of two jobs:
//  - read ahead (readAhead.ts, a large build): reads the files in order with fileRead.ts's readForIndex and posts the
//    results in chunks, staying at most a few chunks ahead of what the index has taken (a shared counter), so the
//    texts in flight stay bounded however large the workspace is;
//  - stat ahead (statAhead.ts, a warm open): stats the folders and files the cache file records into shared memory
//    while the index reads the rest of its cache file (and then along with the index's thread, folder by folder),
//    then says it is done.
import { parentPort, workerData } from 'worker_threads';
import { absoluteIn, statClaimedFolders } from './disk';
import { readForIndex, type FileRead } from './fileRead';
import { CHUNK_CHARS, CHUNK_FILES, FLOW_STOP, FLOW_TAKEN, IN_FLIGHT, STAT_LATER, type ReadAheadJob, type StatAheadJob } from './readAheadProtocol';

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

/** Stats a stat-ahead job's folders and files with the index's thread, then says it is done. */
function stat(job: StatAheadJob): void {
  statClaimedFolders(job);
  parentPort!.postMessage('done');
}

if (parentPort && workerData) {
  const job = workerData as ReadAheadJob | StatAheadJob | typeof STAT_LATER;
  if ('kind' in job && job.kind === STAT_LATER.kind) parentPort.once('message', stat);
  else if ('kind' in job && job.kind === 'stat') stat(job);
  else run(job as ReadAheadJob);
}
