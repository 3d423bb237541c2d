// Preloaded into the bench's child processes (node --require): on exit, writes the process's own CPU time and peak
// RSS to stderr on one tagged line, so a figure measures a fresh process (the CLI, the index) and nothing else.
export const PROC_STATS_TAG = 'CAPE_BENCH_PROC_STATS ';

// preloaded: no main module yet (imported by the bench for the tag: nothing to install)
if (!require.main) {
  process.on('exit', () => {
    const c = process.cpuUsage();
    process.stderr.write(`${PROC_STATS_TAG}${JSON.stringify({ cpuMs: (c.user + c.system) / 1000, maxRssMB: process.resourceUsage().maxRSS / 1024 })}\n`);
  });
}
