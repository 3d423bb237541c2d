// How much of the workspace the checks copy. The scratch copy (scratch.ts) is made up to three times for one proposal
// — the checks and their fix rounds, the unchanged workspace after a first failure (baseline.ts), fail-first
// (failFirst.ts) — each as large as the workspace less what scratchCopy.ts links or leaves out (installed
// dependencies, version control, caches, build output). A workspace past the limit (WORKSPACE_COPY_LIMIT, or the
// user's: `cape.checkCopyLimit`, the CLI's `--check-copy-limit`, in MB) is measured before anything is copied and not
// copied at all: its checks do not run, and each command's run says why and what to do, as the run of a command that
// could not start does (status 'error'). The session goes on with the proposal unchecked; nothing is lost.
// Light on purpose (the CLI's help names the default): the measuring is scratch.ts's.
import { formatBytes } from '../text/size';
import { checksFinished } from './verdict';
import type { CheckEvent, CheckRun, ChecksOutcome, TreeSize } from './types';

const MB = 1024 * 1024;

/**
 * What a scratch copy of the workspace may hold by default: 200 MB in 20,000 files, a project's sources, tests and
 * fixtures with room to spare. Past it the copy is mostly data or generated output, and copying it (up to three times
 * a proposal) costs minutes of disk I/O and as much temp space. A limit the user sets in MB scales both figures
 * (copyLimitOfMb); the manifest's default for `cape.checkCopyLimit` is this one's MB.
 */
export const WORKSPACE_COPY_LIMIT: TreeSize = { files: 20_000, bytes: 200 * MB };

/** WORKSPACE_COPY_LIMIT in MB, as the setting and the CLI's flag take a limit (and the CLI's help names it). */
export const DEFAULT_COPY_LIMIT_MB = WORKSPACE_COPY_LIMIT.bytes / MB;

/** The smallest limit the setting takes, in MB (the manifest's minimum): a smaller one is raised to it. */
export const MIN_COPY_LIMIT_MB = 1;

/** The copy limit of `mb` megabytes (at least MIN_COPY_LIMIT_MB): as many files per MB as WORKSPACE_COPY_LIMIT allows. */
export function copyLimitOfMb(mb: number): TreeSize {
  const bytes = Math.round(Math.max(MIN_COPY_LIMIT_MB, mb) * MB);
  return { files: Math.round((WORKSPACE_COPY_LIMIT.files * bytes) / WORKSPACE_COPY_LIMIT.bytes), bytes };
}

/**
 * Why the workspace is not copied for the checks, as the output of each command's run: what it holds past `limit`
 * (`size`, measured as the copy would copy it: scratch.ts copyTooLarge), and what to do. Null when it is within.
 */
export function notCopiedReason(size: TreeSize, limit: TreeSize): string | null {
  const over =
    size.files > limit.files ? `more than ${limit.files.toLocaleString('en-US')} files` : size.bytes > limit.bytes ? `more than ${formatBytes(limit.bytes)}` : null;
  if (!over) return null;
  return (
    `[not run: the workspace holds ${over} to copy (installed dependencies, caches and build output aside), past the checks' ` +
    `limit (${formatBytes(limit.bytes)}, ${limit.files.toLocaleString('en-US')} files). No scratch copy was made and no check ran. ` +
    'To run them, raise the limit (cape.checkCopyLimit, in MB; the CLI: --check-copy-limit MB) or move data and generated files ' +
    "out of the workspace; DevA's proposal is kept unchecked for your review.]"
  );
}

/**
 * The loop's outcome when the workspace is not copied (scratch.ts copyTooLarge): each command's run says `reason`, with the events
 * a run has, then checks-finished. Nothing ran; no fix round is asked.
 */
export function notCopied(outcome: ChecksOutcome, reason: string, emit: (e: CheckEvent) => void): ChecksOutcome {
  const total = outcome.commands.length;
  outcome.commands.forEach((command, index) => {
    emit({ type: 'check-started', round: 0, command, index, total });
    const run: CheckRun = { command, round: 0, status: 'error', passed: false, exitCode: null, durationMs: 0, output: reason, outputChars: 0 };
    outcome.runs.push(run);
    emit({ type: 'check-finished', run });
  });
  emit(checksFinished(outcome));
  return outcome;
}
