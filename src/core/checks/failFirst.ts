// Fail-first (ChecksConfig.failFirst): after the check loop, the final proposal's test files alone are written over a
// fresh scratch copy of the unchanged workspace and every check command runs once. A test that fails there and
// passes on the proposal shows the change; one that passes there too does not (metrics/tsr.ts reads the runs per
// criterion). The implementation files are left out, so nothing of the change but its tests is in the copy.
import type { ProposedFile } from '../model/types';
import { isTestFile } from '../workspace/rank';
import { createScratch } from './scratch';
import { runReported } from './run';
import type { CheckEvent, ChecksConfig, FailFirstRuns } from './types';

export interface FailFirstOptions extends ChecksConfig {
  workspace: string;
  capeFolder: string;
  /** The final proposal (its test files are applied; refused files never are). */
  files: ProposedFile[];
  emit: (e: CheckEvent) => void;
  signal?: AbortSignal;
}

/** The final proposal's test files (proposed, inside the workspace), by isTestFile's one rule. */
export function proposedTestFiles(files: readonly ProposedFile[]): ProposedFile[] {
  return files.filter((f) => f.status === 'proposed' && !!f.relPath && isTestFile(f.relPath));
}

/**
 * Runs every command once with only the proposal's test files applied. Returns `cancelled: true` (and the runs so
 * far) when Stop ends a run; the caller decides what a stop means.
 */
export async function runFailFirst(opts: FailFirstOptions): Promise<FailFirstRuns & { cancelled?: boolean }> {
  const tests = proposedTestFiles(opts.files);
  const result: FailFirstRuns = { testFiles: tests.map((f) => f.relPath!), runs: [], notWritten: [] };
  if (!tests.length || !opts.commands.length) return result;
  const scratch = await createScratch(opts.workspace, { capeFolder: opts.capeFolder, signal: opts.signal });
  try {
    result.notWritten = await scratch.overlay(tests);
    for (let i = 0; i < opts.commands.length; i++) {
      const { run, stopped } = await runReported({ ...opts, command: opts.commands[i], scratch, round: 0, index: i, total: opts.commands.length, place: { before: true } });
      result.runs.push(run);
      if (stopped) return { ...result, cancelled: true };
    }
  } finally {
    await scratch.dispose().catch(() => undefined);
  }
  return result;
}
