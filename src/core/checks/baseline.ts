// The unchanged workspace as the reference for a failure: when a check command first fails on DevA's proposal, the
// same command runs once on a scratch copy of the workspace with nothing applied. A failure whose failing test cases
// all fail there too was already there — not the proposal's doing (a broken or flaky test, the environment): the loop
// asks DevA for no fix round for it (loop.ts), the fix request of a mixed failure says which failures were already
// there and which are new, and the retrospective hears it; a fail-first run's cases failing there too are marked so
// (markedAlready), counted apart from DevA's tests. A linter's or compiler's run, which names no test case, is
// compared by the problems it names (file and message, without line numbers); its fix request still says whether the
// unchanged workspace passes. A run that names neither (the command failed before any test: a tool missing, a
// package manager refusing to start) is compared by its whole output and exit code, what differs between two runs
// aside (sameOutput.ts). A run killed at the time limit is compared only with one killed there too (a test command
// that starts a watcher or a server and never returns here): already there unless it names a failing test case or a
// problem the unchanged workspace's did not, or stopped before a case that passed there.
import { createScratch, disposeScratch, type Scratch } from './scratch';
import { runReported } from './run';
import { runFolders } from './runFolder';
import { lineWithin } from '../text';
import type { CheckEvent, CheckRun, ChecksConfig } from './types';
import { problemKeys } from './output';
import { wasTrimmed } from './trimMarks';
import { runUnbuiltGoPackages, runUnbuiltTestFiles } from './buildFailures';
import { endedBeforeSummary } from './testSummary';
import { NOISE_ASIDE, sameOutput } from './sameOutput';

/** Failing test cases a fix request names per group (already failing, new). */
const NAMED = 10;

export interface BaselineOptions extends Pick<ChecksConfig, 'timeoutMs' | 'outputCap' | 'apiKey'> {
  workspace: string;
  capeFolder: string;
  emit: (e: CheckEvent) => void;
  signal?: AbortSignal;
  /** Told of a scratch copy that could not be removed. */
  onWarning?: (message: string) => void;
}

/** The unchanged workspace's runs, one per command, taken when the command first failed. */
export class Baseline {
  private scratch: Scratch | undefined;
  private readonly runs = new Map<string, CheckRun>();

  constructor(private readonly opts: BaselineOptions) {}

  /** Every run taken, in the order they ran. */
  all(): CheckRun[] {
    return [...this.runs.values()];
  }

  get(command: string): CheckRun | undefined {
    return this.runs.get(command);
  }

  /**
   * Runs each failing command not yet run on the unchanged workspace (a run Stop ended, or one that could not start,
   * is not compared). Returns false when Stop ended a run.
   */
  async runFor(failing: readonly CheckRun[], commands: readonly string[]): Promise<boolean> {
    for (const f of failing) {
      if (this.runs.has(f.command) || f.status === 'cancelled' || f.status === 'error') continue;
      try {
        this.scratch ??= await createScratch(this.opts.workspace, { capeFolder: this.opts.capeFolder, signal: this.opts.signal, folders: runFolders(commands) });
      } catch (e) {
        if (this.opts.signal?.aborted) return false;
        throw e;
      }
      const { run, stopped } = await runReported({
        ...this.opts,
        command: f.command,
        scratch: this.scratch,
        round: f.round,
        index: commands.indexOf(f.command),
        total: commands.length,
        place: { baseline: true },
      });
      this.runs.set(f.command, run);
      if (stopped) return false;
    }
    return true;
  }

  async dispose(): Promise<void> {
    await disposeScratch(this.scratch, this.opts.onWarning);
  }
}

/** A run's failing test cases by name, in the order reported. */
export const failingNames = (r: Pick<CheckRun, 'tests'>): string[] => (r.tests ?? []).filter((t) => !t.passed).map((t) => t.name);

/** The names of the cases the unchanged workspace's run failed (none without that run). */
export const failingBefore = (base: Pick<CheckRun, 'tests'> | undefined): Set<string> => new Set(base ? failingNames(base) : []);

/**
 * The cases that passed on the unchanged workspace and the run does not name at all, when both runs name their
 * passing cases: the run ended before them (a process.exit in the code under test, a crash), or the proposal
 * removed or renamed them. Either way the run did not fail only as before.
 */
function missingCases(run: CheckRun, base: CheckRun): string[] {
  if (run.onlyFailuresNamed || base.onlyFailuresNamed) return [];
  const named = new Set((run.tests ?? []).map((t) => t.name));
  return (base.tests ?? []).filter((t) => t.passed && !named.has(t.name)).map((t) => t.name);
}

/** What a failing run and the unchanged workspace's run are compared by (comparable). */
interface Comparison {
  what: 'test cases' | 'problems' | 'output';
  now: string[];
  before: Set<string>;
  missing: string[];
}

/**
 * What a failing run and the unchanged workspace's run are compared by: the failing test cases (and the baseline's
 * passing ones the run does not name) when both named test cases, each run all of its own; otherwise — a linter's
 * or compiler's run — the problems both outputs name (output.ts problemKeys), when both ended with an exit code and
 * neither output was cut; and when neither names a test case nor a problem (a tool missing, a package manager that
 * refuses to start: the command failed before any test), the whole output with the same exit code, what differs
 * between two runs aside (sameOutput.ts) — `now` empty when they match; null when they cannot be compared or differ.
 * A run killed at the time limit only beside one killed there too: by their test cases when either named some (its
 * failing ones, and the cases that passed there it does not name: it stopped before them), else by the problems
 * they name when neither output was cut (two naming none are alike: what a watcher printed before the kill aside).
 */
function comparable(run: CheckRun, base: CheckRun): Comparison | null {
  const timedOut = run.status === 'timeout';
  if (timedOut && base.status !== 'timeout') return null;
  const now = failingNames(run);
  if (timedOut ? run.tests?.length || base.tests?.length : now.length && base.tests?.length) {
    if (run.testsIncomplete || base.testsIncomplete) return null;
    return { what: 'test cases', now, before: new Set(failingNames(base)), missing: missingCases(run, base) };
  }
  const ended = timedOut ? 'timeout' : 'failed';
  if (run.tests?.length || run.status !== ended || base.status !== ended || wasTrimmed(run.output) || wasTrimmed(base.output)) return null;
  const problems = problemKeys(run.output);
  if (problems.length || timedOut) return { what: 'problems', now: problems, before: new Set(problemKeys(base.output)), missing: [] };
  const same = !base.tests?.length && run.exitCode === base.exitCode && sameOutput(run.output, base.output);
  return same ? { what: 'output', now: [], before: new Set(), missing: [] } : null;
}

/**
 * Whether a failing run fails as the unchanged workspace does: that failed too, everything failing on the proposal
 * (its failing test cases by exact name, or the problems it names, lines aside; or, naming neither, its whole output
 * and exit code: comparable) fails there too, and every case that
 * passed there was reported on the proposal (missingCases). A run killed
 * at the time limit, or one where code or a test did not build (a Go package, a JavaScript test file that did not
 * load, too), where the unchanged workspace's was not, fails otherwise, whatever test cases it named before it stopped: the tests after those never ran; one
 * killed there too fails as before unless it names something new (comparable). So does
 * a run that ended before its test runner's summary (endedBeforeSummary), wherever the unchanged workspace's ended: a
 * runner that names only failures names none of the cases it never reached.
 */
export function failsAsBefore(run: CheckRun, base: CheckRun | undefined): boolean {
  if (run.passed || !base || base.passed || base.status === 'cancelled' || base.status === 'error') return false;
  if (endedBeforeSummary(run, base)) return false;
  if (run.unbuilt) {
    const before = new Set([...runUnbuiltGoPackages(base), ...runUnbuiltTestFiles(base)]);
    if (!base.unbuilt || [...runUnbuiltGoPackages(run), ...runUnbuiltTestFiles(run)].some((p) => !before.has(p))) return false;
  }
  const c = comparable(run, base);
  return !!c && !c.missing.length && c.now.every((n) => c.before.has(n));
}

/**
 * A fail-first run's failed cases marked (TestCaseResult.already) where the unchanged workspace's run of the command,
 * without DevA's test files, failed them too: a suite that already fails (a test bound to the environment, a package
 * not installed) fails there as much, and the run's count said "381 test cases failing" of a session's 15 new tests.
 */
export function markedAlready(run: CheckRun, base: CheckRun | undefined): CheckRun {
  const before = failingBefore(base);
  if (!before.size || !run.tests?.some((t) => !t.passed && before.has(t.name))) return run;
  return { ...run, tests: run.tests.map((t) => (!t.passed && before.has(t.name) ? { ...t, already: true as const } : t)) };
}

/** The fix request's lines on how the command fares on the unchanged workspace. */
export function baselineLines(run: CheckRun, base: CheckRun | undefined): string[] {
  if (!base || base.status === 'cancelled' || base.status === 'error') return [];
  if (base.passed) {
    return ['On the unchanged workspace (nothing of yours applied) this command passed. A test failing only on your proposal usually fails because of it; one far from your change may be flaky (timing, network).'];
  }
  const how = base.status === 'timeout' ? 'is killed at the time limit too' : `fails too (exit code ${base.exitCode ?? 'none'})`;
  const c = comparable(run, base);
  if (!c) return [`On the unchanged workspace (nothing of yours applied) this command ${how}: see whether the failure is yours before you change anything.`];
  if (c.what === 'output') return [`On the unchanged workspace (nothing of yours applied) this command ${how}.`, `Its output there is the same (${NOISE_ASIDE}): not caused by your files; leave it alone.`];
  const already = c.now.filter((n) => c.before.has(n));
  const fresh = c.now.filter((n) => !c.before.has(n));
  const list = (names: string[]) => [...names.slice(0, NAMED).map((n) => `- ${lineWithin(n, 160)}`), ...(names.length > NAMED ? [`- and ${names.length - NAMED} more`] : [])];
  const kind = c.what === 'problems' ? 'Problems (lines aside)' : 'Failing';
  const killedAsThere = run.status === 'timeout' && !fresh.length && !c.missing.length;
  return [
    `On the unchanged workspace (nothing of yours applied) this command ${how}.`,
    ...(already.length ? [`${kind} there too (not caused by your files; leave them alone):`, ...list(already)] : []),
    ...(fresh.length ? ['New with your proposal (fix these):', ...list(fresh)] : []),
    ...(c.missing.length ? ['Passed there but not reported with your proposal (did the run end before them?):', ...list(c.missing)] : []),
    ...(killedAsThere ? ["Your proposal's run names no failing test case or problem the unchanged workspace's did not: the time-out is not caused by your files; leave it alone."] : []),
  ];
}
