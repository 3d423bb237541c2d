// The bench's preload (bench/procStats.ts): a child process reports its own CPU time and peak RSS once, at the main
// thread's exit — a worker thread the child starts (the index's stat worker) exits first and must not report for it.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as path from 'path';
import { PROC_STATS_TAG } from '../../bench/procStatsTag';

describe('bench process stats', () => {
  it("reports the main thread's figures once, not a worker thread's", () => {
    const preload = path.join(__dirname, '..', '..', 'bench', 'procStats.js');
    // a worker that exits at once, then this thread busy until the process has used 300 ms more of CPU
    const script = `const { Worker } = require('worker_threads');
const w = new Worker('0', { eval: true });
w.on('exit', () => { const c = process.cpuUsage(); for (let d = c; d.user + d.system < 300000; d = process.cpuUsage(c)); });`;
    const r = spawnSync(process.execPath, ['--require', preload, '-e', script], { encoding: 'utf8' });
    assert.strictEqual(r.status, 0, r.stderr);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith(PROC_STATS_TAG));
    assert.strictEqual(lines.length, 1, r.stderr);
    const stats = JSON.parse(lines[0].slice(PROC_STATS_TAG.length)) as { cpuMs: number; maxRssMB: number };
    assert.ok(stats.cpuMs >= 300, `${stats.cpuMs} ms of CPU: the 300 ms the main thread spent after the worker count`);
    assert.ok(stats.maxRssMB > 0);
  });
});
