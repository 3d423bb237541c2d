// The read-ahead worker of a large index build (readAhead.ts starts it and says what to read): reads the files in
// order with fileRead.ts's readForIndex and posts the results in chunks, staying at most a few chunks ahead of what
// the index has taken (a shared counter), so the texts in flight stay bounded however large the workspace is.
import { parentPort, workerData } from 'worker_threads';
import { absoluteIn } from './disk';
import { readForIndex, type FileRead } from './fileRead';
import { CHUNK_CHARS, CHUNK_FILES, FLOW_STOP, FLOW_TAKEN, IN_FLIGHT, type ReadAheadJob } from './readAheadProtocol';

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

if (parentPort && workerData) run(workerData as ReadAheadJob);
