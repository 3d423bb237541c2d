// A CLI session on a small project of a test's own whose checks run with the project's real toolchain (pytest, go,
// rspec, mvn): the workspace with the demo session's replies, DevA's carrying the test's blocks; and what each of
// those tests asserts of a check that fails on the unchanged code too.
import * as assert from 'assert';
import * as path from 'path';
import type { FakeAnthropic } from '../fake-anthropic/server';
import { runCli, workspaceWithOriginalCape, writeFiles, type CliRun } from './cli';
import { demoDir, demoRepliesWithDevA, type CriterionTest } from './demo';

/** The demo notes app with the original cape/ and `files`; the five replies queued, DevA's with `blocks` and `tests`. */
export function checksWorkspace(fake: FakeAnthropic, taskId: string, files: Record<string, string>, blocks: string, tests: readonly CriterionTest[]): string {
  const ws = workspaceWithOriginalCape(`cape-${taskId}-`, path.join(demoDir(), 'workspace'));
  writeFiles(ws, files);
  fake.enqueue(...demoRepliesWithDevA(taskId, blocks, tests).map((text) => ({ text })));
  return ws;
}

/** `cape start … --check CHECK --fail-first --json` on the workspace, against the fake server. */
export function runWithChecks(fake: FakeAnthropic, ws: string, taskId: string, objective: string, check: string, timeoutMs?: number): Promise<CliRun> {
  return runCli(['start', '--workspace', ws, '--objective', objective, '--task', taskId, '--check', check, '--fail-first', '--json'], { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'k' }, timeoutMs);
}

/**
 * The session completed without a fix round (five requests) because the failing check fails on the unchanged code
 * too (`why`), and each criterion's verdicts are [id, computed, before].
 */
export function assertFailedAsBefore(run: CliRun, fake: FakeAnthropic, why: string, criteria: readonly (readonly [string, string, string | null])[]): void {
  assert.strictEqual(run.code, 0, run.stderr);
  assert.strictEqual(fake.requests.length, 5, `${why}: no fix round`);
  assert.strictEqual(run.json.checksFailAsBefore, true);
  assert.deepStrictEqual(
    run.json.metrics.criteria.map((c: { id: string; computed: string; before?: string }) => [c.id, c.computed, c.before ?? null]),
    criteria,
  );
}
