// Fail-first (ChecksConfig.failFirst): after the check loop, the final proposal's test files alone are written over a
// fresh scratch copy of the unchanged workspace and every check command that runs tests runs once. A test that fails
// there and passes on the proposal shows the change; one that passes there too does not (metrics/tsr.ts reads the
// runs per criterion). The implementation files are left out, so nothing of the change but its tests is in the copy.
// A run that failed before it ran DevA's tests (a tool missing, a package manager refusing to start: notReached.ts)
// is marked as it ends: it observed nothing, and says so.
// Static checks (a linter, a type checker) are skipped: they run no test, and a trial's transcript read a lint pass
// on the unchanged code as "DevA's tests pass without the change too". So is a command run in a sub-folder
// (`cd backend && pytest`: runFolder.ts) none of DevA's test files is under: it would run a whole suite of tests that
// are all the unchanged workspace's, and say nothing. A command at the root always runs. Those left out are recorded
// (FailFirstRuns.skipped), each said with its reason (failFirstLeftOut).
// A `cargo test` whose crate holds two or more of DevA's test files, each an integration-test target, and none of them
// elsewhere, runs once per target (`--test <name>`: cargoTargets.ts), as one run whose output is theirs in order: cargo
// builds every target before it runs any, so a file needing the change would stop a guard beside it from running.
// A CMake build and CTest (`cmake --build b && cd b && ctest`) keeps going past a test program that does not build, and
// CTest runs whatever built (ctestPrograms.ts keepGoingSteps), for the same reason.
import type { ProposedFile } from '../model/types';
import { isTestFile } from '../workspace/testFiles';
import { isStaticCheck } from './commands';
import { createScratch, disposeScratch } from './scratch';
import { runReported } from './run';
import { perTargetRuns } from './cargoTargets';
import { keepGoingSteps } from './ctestPrograms';
import { reachesFile, runFolder, runFolders } from './runFolder';
import { notWrittenLine } from './verdict';
import { failFirstNotReached, markedNotReached, referenceOf } from './notReached';
import { markedAlready } from './baseline';
import type { CheckEvent, CheckRun, ChecksConfig, FailFirstRuns } from './types';

export interface FailFirstOptions extends ChecksConfig {
  workspace: string;
  capeFolder: string;
  /** The final proposal (its test files are applied; refused files never are). */
  files: ProposedFile[];
  emit: (e: CheckEvent) => void;
  signal?: AbortSignal;
  /** Told of a scratch copy that could not be removed. */
  onWarning?: (message: string) => void;
  /**
   * The loop's runs (ChecksOutcome.runs, .baseline), which tell a run that failed before it ran DevA's tests
   * (notReached.ts failFirstNotReached).
   */
  loopRuns?: { proposal: readonly CheckRun[]; unchanged?: readonly CheckRun[] };
}

/** The final proposal's test files (proposed, inside the workspace), by isTestFile's one rule. */
export function proposedTestFiles(files: readonly ProposedFile[]): ProposedFile[] {
  return files.filter((f) => f.status === 'proposed' && !!f.relPath && isTestFile(f.relPath));
}

/**
 * The folder one of DevA's test files must be under for fail-first to run `command`: the one it runs in (runFolder),
 * '' for the workspace (any test file: it always runs); null when it never runs it (a static check runs no test).
 */
function failFirstNeeds(command: string): string | null {
  return isStaticCheck(command) ? null : runFolder(command);
}

/**
 * Why fail-first leaves `command` out, said after it ("`npm run lint` not run: a static check runs no test"), for DevA's
 * `testFiles`; null when it runs it (a test command at the root, or in a folder one of them is under: reachesFile).
 */
export function failFirstLeftOut(command: string, testFiles: readonly string[]): string | null {
  const folder = failFirstNeeds(command);
  if (folder === null) return 'a static check runs no test';
  return !folder || testFiles.some((f) => reachesFile(command, f)) ? null : `no test file of DevA's under ${folder}/`;
}

/** The commands fail-first runs for DevA's `testFiles`, and those it leaves out (failFirstLeftOut), each in their order. */
export function failFirstCommands(commands: readonly string[], testFiles: readonly string[]): { run: string[]; skipped: string[] } {
  const left = commands.map((c) => failFirstLeftOut(c, testFiles) !== null);
  return { run: commands.filter((_, i) => !left[i]), skipped: commands.filter((_, i) => left[i]) };
}

/**
 * The commands fail-first will run, before DevA's test files are known, as the checks' announcements (the CLI's, the
 * consent prompt) name them, each written by `quote`: the test commands, one run in a sub-folder with when it runs
 * (failFirstNeeds, failFirstLeftOut's rule) — "`cd backend && pytest` (when DevA has a test file under backend/)".
 */
export function failFirstPlan(commands: readonly string[], quote: (command: string) => string): string[] {
  return commands.flatMap((command) => {
    const folder = failFirstNeeds(command);
    if (folder === null) return [];
    return [folder ? `${quote(command)} (when DevA has a test file under ${folder}/)` : quote(command)];
  });
}

/**
 * Runs every test command that can reach the proposal's test files (failFirstCommands) once with only those files
 * applied. Returns `cancelled: true` (and the runs so far) when Stop ends a run; the caller decides what a stop means.
 */
export async function runFailFirst(opts: FailFirstOptions): Promise<FailFirstRuns & { cancelled?: boolean }> {
  const tests = proposedTestFiles(opts.files);
  const testFiles = tests.map((f) => f.relPath!);
  const { run: commands, skipped } = failFirstCommands(opts.commands, testFiles);
  const result: FailFirstRuns = { testFiles, runs: [], notWritten: [], ...(skipped.length ? { skipped } : {}) };
  if (!tests.length || !commands.length) return result;
  const scratch = await createScratch(opts.workspace, { capeFolder: opts.capeFolder, signal: opts.signal, folders: runFolders(commands) });
  try {
    const notWritten = await scratch.overlay(tests);
    result.notWritten = notWritten.map(notWrittenLine);
    // a file the copy does not hold is no target to run (`--test` would name a target cargo cannot find)
    const written = testFiles.filter((f) => !notWritten.some((n) => n.path === f));
    for (let i = 0; i < commands.length; i++) {
      const ref = referenceOf(commands[i], opts.loopRuns);
      const mark = (r: CheckRun) => markedAlready(markedNotReached(r, failFirstNotReached(r, result.testFiles, ref)), ref.base);
      const perTarget = (await perTargetRuns(opts.workspace, commands[i], written)) ?? undefined;
      // a run per target has steps of its own (runReported takes them first)
      const steps = keepGoingSteps(commands[i], process.platform) ?? undefined;
      const { run, stopped } = await runReported({ ...opts, command: commands[i], scratch, round: 0, index: i, total: commands.length, place: { before: true }, mark, perTarget, steps });
      result.runs.push(run);
      if (stopped) return { ...result, cancelled: true };
    }
  } finally {
    await disposeScratch(scratch, opts.onWarning);
  }
  return result;
}
