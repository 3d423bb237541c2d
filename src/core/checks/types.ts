// The checks domain's types: what a check command is, what one run of it gave, the loop's configuration (with its
// default fix rounds) and the outcome of the whole loop (checks → fix request → DevA's fixed blocks → checks again).
// Other domains (the runner, the retrospective context, metrics such as TSR, the CLI's --json, the panel) read these
// types; they never look at a process themselves. What one run gave is ./runTypes.ts's (re-exported here).
import type { CheckRun, CheckStatus } from './runTypes';

/** Where a check command came from: the `cape.checks` setting, the CLI's `--check`, or detected in the workspace. */
export type CheckSource = 'setting' | 'flag' | 'detected';

export interface CheckCommand {
  /** A shell command line, run with the scratch copy as the working directory. */
  command: string;
  source: CheckSource;
  /** Why a detected command was chosen, for people ("package.json script \"test\""). */
  reason?: string;
}

/** What one language's detection (detect.ts) found in a project folder: its static checks, and its tests. */
export type FoundChecks = [statics: CheckCommand[], tests: CheckCommand[]];

/**
 * One language's detection of a project's checks (detect.ts FAMILIES): `dir` is the project's folder, `root` the
 * workspace's (the same, for the workspace's own project), where a sub-project's environment may be (a uv workspace's
 * `.venv/`, the lockfile of a JavaScript workspace). Reads, never runs anything.
 */
export type DetectFamily = (dir: string, root: string) => Promise<FoundChecks>;

/** Fix rounds after a failing check, unless configured (`cape.fixRounds`, `--fix-rounds`). */
export const DEFAULT_FIX_ROUNDS = 2;

/** What a copy of a folder holds, or may hold: its files and their bytes (scratchCopy.ts measureTree, copyLimit.ts). */
export interface TreeSize {
  files: number;
  bytes: number;
}

export interface ChecksConfig {
  commands: string[];
  /** Fix rounds allowed (0: the checks run once and their results are reported). Default DEFAULT_FIX_ROUNDS. */
  fixRounds?: number;
  /** Per command run; default DEFAULT_CHECK_TIMEOUT_MS (./run.ts). */
  timeoutMs?: number;
  outputCap?: number;
  /**
   * Fail-first (`cape.failFirst`, `--fail-first`): once the loop ends, every command that runs tests (not a static
   * check: detect.ts isStaticCheck) runs once more on the unchanged workspace with only the final proposal's test
   * files applied, so each criterion's tests are seen failing before the change (or passing already). Off by default:
   * it adds one run per test command.
   */
  failFirst?: boolean;
  /**
   * The project's formatter on DevA's files before the checks (format.ts; `cape.formatProposal`, the CLI's
   * `--no-format` to turn it off). On unless false.
   */
  format?: boolean;
  /**
   * The most the scratch copy of the workspace may hold (copyLimit.ts: `cape.checkCopyLimit`, `--check-copy-limit`);
   * past it the checks do not run. Default WORKSPACE_COPY_LIMIT.
   */
  copyLimit?: TreeSize;
  /**
   * The API key the session uses (LlmClient.credential, set by the session, not configured): hidden in every run's
   * output as `[hidden: the API key]` (checkEnv.ts), never given to a check.
   */
  apiKey?: string;
}

export type { CheckRun, CheckStatus, TestCaseResult } from './runTypes';

/** One fix round: what DevA was sent and what its reply changed. */
export interface FixRound {
  round: number;
  /** The fix request (the failing commands, exit codes and trimmed outputs). */
  request: string;
  /** DevA's reply, verbatim. */
  reply: string;
  /** Workspace-relative paths the reply changed in the proposal, with their new content. */
  files: { path: string; content: string }[];
  /** Blocks of the reply that could not be used (refused path, a hunk matching nowhere), with the reason. */
  problems: string[];
}

/**
 * A proposed file the scratch copy could not take (scratchOverlay.ts): a link of the user's on its way, a linked
 * dependency folder too large to copy, a write that failed. The checks did not see it.
 */
export interface NotWritten {
  /** Workspace-relative. */
  path: string;
  /** Why, as a clause after the path ("src/vendor is a linked folder, so …"). */
  reason: string;
}

/** The fail-first runs: DevA's test files alone on the unchanged workspace (ChecksConfig.failFirst). */
export interface FailFirstRuns {
  /** The final proposal's test files that were applied (workspace-relative); empty: nothing ran. */
  testFiles: string[];
  /** One run per test command (round 0), in command order; empty when the proposal has no test file. */
  runs: CheckRun[];
  /**
   * The commands not run (failFirst.ts failFirstLeftOut): static checks (a linter, a type checker: isStaticCheck),
   * which run no test, and a command run in a sub-folder none of DevA's test files is under, whose tests are all the
   * unchanged workspace's: their verdict there says nothing of whether a test shows the change.
   */
  skipped?: string[];
  /** Test files that could not be written to the scratch copy, with the reason. */
  notWritten: string[];
}

/**
 * What the project's formatter (format.ts), or a check that fixes as it runs (`eslint --fix .`: checkFixes.ts), changed
 * in DevA's files in round `round` (0: the proposal, N: fix round N's files), taken into the proposal: the user reviews
 * the text the checks ran on. `by`: the formatter ("Prettier"), before the round's checks; or, with `check`, the check
 * command, as it ran.
 */
export interface TakenChange {
  round: number;
  by: string;
  files: string[];
  check?: true;
}

/** The whole check loop of a session. */
export interface ChecksOutcome {
  commands: string[];
  /** Every run, in the order they ran (round by round, command by command). */
  runs: CheckRun[];
  fixRounds: FixRound[];
  /** The fix rounds allowed. */
  maxFixRounds: number;
  /** Every command passed in the last round that ran. */
  passed: boolean;
  /** The fail-first runs, when they were asked for (ChecksConfig.failFirst) and the loop was not stopped. */
  before?: FailFirstRuns;
  /**
   * The failing commands run on the unchanged workspace (nothing applied), one run each, taken when each first failed
   * (baseline.ts); absent when no command failed.
   */
  baseline?: CheckRun[];
  /** The loop stopped before a fix round because every failing test case fails on the unchanged workspace too. */
  failsAsBefore?: boolean;
  /**
   * The loop stopped because DevA's last fix round changed no file (and every block it wrote was used): it judged the
   * failure not its own, and asking again would bring the same answer.
   */
  fixDeclined?: boolean;
  /** What the project's formatter or a check that fixes as it runs changed in DevA's files, in the order it did. */
  formatted?: TakenChange[];
  /**
   * Files of the final proposal the scratch copy could not take, so no check saw them (the checks ran on the user's
   * version, or none); absent when every file was written.
   */
  notWritten?: NotWritten[];
}

/** One command's result for `--json` ("checks") and the retrospective: its last run, and how many runs it took. */
export interface CheckSummary {
  command: string;
  passed: boolean;
  exitCode: number | null;
  /** Runs of this command (1 when it passed at once; 1 + fix rounds otherwise). */
  rounds: number;
  status: CheckStatus;
}

/** The check loop's progress as session events (the runner wraps them with the step). */
export type CheckEvent =
  /**
   * `before`: a fail-first run (DevA's test files alone on the unchanged workspace), after the loop's last round.
   * `baseline`: the command on the unchanged workspace (nothing applied), after its first failure on the proposal.
   * `targets`: the cargo test targets it runs once each, as one run (fail-first: cargoTargets.ts).
   */
  | { type: 'check-started'; round: number; command: string; index: number; total: number; before?: boolean; baseline?: boolean; targets?: string[] }
  | { type: 'check-finished'; run: CheckRun; before?: boolean; baseline?: boolean }
  /** A fix request goes to DevA: round `round` of at most `max`, for the failing commands. */
  | { type: 'fix-round'; round: number; max: number; failing: string[] }
  /** The project's formatter or a check that fixes as it runs changed these of DevA's files (TakenChange). */
  | ({ type: 'formatted' } & TakenChange)
  /** Proposed files of round `round` the scratch copy could not take: the checks do not see them. */
  | { type: 'not-written'; round: number; files: NotWritten[] }
  /** DevA's fix reply was applied to the proposal: the files it changed, the blocks it could not use. */
  | { type: 'fix-applied'; round: number; files: string[]; problems: string[] }
  /**
   * failsAsBefore: no fix round was asked, every failure being there on the unchanged workspace too. fixDeclined: no
   * further round was asked, DevA's last one having changed no file. notRun: no check could start, and why, short
   * (verdict.ts notRunReason). notChecked: the final proposal's files no check saw (ChecksOutcome.notWritten's paths).
   */
  | {
      type: 'checks-finished';
      passed: boolean;
      summary: CheckSummary[];
      fixRounds: number;
      failsAsBefore?: boolean;
      fixDeclined?: boolean;
      notRun?: string;
      notChecked?: string[];
    };

export function summarizeChecks(outcome: ChecksOutcome): CheckSummary[] {
  return outcome.commands.map((command) => {
    const runs = outcome.runs.filter((r) => r.command === command);
    const last = runs[runs.length - 1];
    return {
      command,
      passed: last?.passed ?? false,
      exitCode: last?.exitCode ?? null,
      rounds: runs.length,
      status: last?.status ?? 'error',
    };
  });
}
