// The tag of the line bench/procStats.ts writes (its own module: importing the tag must not install the exit hook).
export const PROC_STATS_TAG = 'CAPE_BENCH_PROC_STATS ';
