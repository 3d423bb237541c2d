// Preloaded into the bench's child processes (node --require): on exit, writes the process's own CPU time and peak
// RSS to stderr on one tagged line, so a figure measures a fresh process (the CLI, the index) and nothing else. Only
// the main thread's exit counts: node preloads this into the process's worker threads too (the index's stat worker
// exits first, and its line, with the process's figures at that moment, was the one the bench read).
import { isMainThread } from 'worker_threads';
import { PROC_STATS_TAG } from './procStatsTag';

// preloaded: no main module yet
if (!require.main && isMainThread) {
  process.on('exit', () => {
    const c = process.cpuUsage();
    process.stderr.write(`${PROC_STATS_TAG}${JSON.stringify({ cpuMs: (c.user + c.system) / 1000, maxRssMB: process.resourceUsage().maxRSS / 1024 })}\n`);
  });
}
