// Runs one check command: a shell in the scratch folder, in its own process group, so a timeout or Stop kills the
// command and everything it started (a test runner's workers, a watch process), with the environment of checkEnv.ts
// (no Anthropic credential; the values of secret-looking variables hidden in its output). Output is kept up to a cap
// (its beginning and its end; the test cases are read from all of it as it arrives), and the run ends with the
// command: neither it nor anything of its group still holding its output (a server a test started and forgot) is
// running when this returns. A run may be several commands in turn (RunCheckOptions.steps: fail-first's per-target
// cargo runs, cargoTargets.ts; its CTest build that keeps going, ctestPrograms.ts), read as one: their outputs joined
// in order, the first non-zero exit code its own.
import { spawn, spawnSync, type ChildProcess } from 'child_process';
import { cleanOutput, KeptOutput, lineFeed, trimForModel } from './output';
import { passedFileReader, testCaseReader } from './testCases';
import { buildFailureReader, failedToBuild } from './buildFailures';
import { ctestProgramReader } from './ctestPrograms';
import { withSources } from './cmakeTests';
import { runFolder, workspaceCaseName, workspacePath } from './runFolder';
import { EXITED_BEFORE_SUMMARY, passedWithoutSummary, summaryReader } from './testSummary';
import { reportedFailureNote, reportedFailureReader } from './reportedFailures';
import type { CheckEvent, CheckRun, CheckStatus, ChecksConfig } from './types';
import type { Scratch } from './scratch';
import type { PerTarget } from './cargoTargets';
import { byTargetOf } from './cargoTargetMatch';
import { formatDuration, timerDelay } from '../model/dates';
import { untilProcessEnd } from './processEnd';
import { checkEnv, secretHider, secretValues } from './checkEnv';

/** Default time limit of one check command. */
export const DEFAULT_CHECK_TIMEOUT_MS = 120_000;
/** The shortest time limit the setting takes (the manifest's minimum, 1 s): a shorter one is raised to it. */
export const MIN_CHECK_TIMEOUT_MS = 1_000;
/** Characters of output kept per run (its first and last halves); the rest is counted, not kept. */
export const DEFAULT_OUTPUT_CAP = 1_000_000;

export interface RunCheckOptions {
  command: string;
  /**
   * The commands run in turn as this run of `command` (default: `command` alone), each with the time limit, their
   * outputs read as one in order; the run exits with the first non-zero exit code (0 when none), and Stop ends it.
   */
  steps?: readonly string[];
  cwd: string;
  round: number;
  timeoutMs?: number;
  outputCap?: number;
  /** Characters of the trimmed output kept in the result (what DevA receives). */
  outputForModel?: number;
  /** DevA's proposed files: the output's lines naming them are kept first in the trimmed output (output.ts trimForModel). */
  focusFiles?: readonly string[];
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  /** The session's API key (ChecksConfig.apiKey): hidden in the output, not in the command's environment. */
  apiKey?: string;
  now?: () => number;
  /**
   * The same command's run on the unchanged workspace, when one was taken (baseline.ts): a run that exits 0 without
   * the summary it wrote did not pass (testSummary.ts passedWithoutSummary).
   */
  base?: CheckRun;
}

/** Kills the whole process group (POSIX) or process tree (Windows). Never throws. */
function killTree(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    if (process.platform === 'win32') spawnSync('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore' });
    else process.kill(-child.pid, 'SIGKILL');
  } catch {
    try {
      child.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

/**
 * The checks running now, each with the release of its kill at the process's end. Each runs detached, in a group of
 * its own, so nothing ends it with this process: they are killed when it exits (a CLI that ends on an error, an
 * extension host that shuts down) or when a signal ends it (processEnd.ts), not left running the user's code in a
 * scratch copy about to go.
 */
const live = new Map<ChildProcess, () => void>();

function track(child: ChildProcess): void {
  live.set(child, untilProcessEnd(() => killTree(child)));
}

function untrack(child: ChildProcess): void {
  live.get(child)?.();
  live.delete(child);
}

/** A command that ended, let go: a process that left its group may still hold the pipes, so they are no longer read. */
function release(child: ChildProcess): void {
  untrack(child);
  child.stdout?.destroy();
  child.stderr?.destroy();
  child.unref();
}

/** Runs the command to its end, its time limit or Stop. Never throws: a command that cannot start is status 'error'. */
export function runCheck(opts: RunCheckOptions): Promise<CheckRun> {
  const now = opts.now ?? Date.now;
  const cap = opts.outputCap ?? DEFAULT_OUTPUT_CAP;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const started = now();
  const env = opts.env ?? process.env;
  // the session's API key and the values of the secret-looking variables, never kept in what the output becomes (checkEnv.ts)
  const hideSecrets = secretHider(secretValues({ ...process.env, ...env }, opts.apiKey));
  return new Promise((resolve) => {
    // its first and last cap / 2 characters (output.ts KeptOutput)
    const kept = new KeptOutput(cap);
    const keep = (chunk: string) => kept.add(chunk);
    // the test cases, the test files reported passed, a runner's summary and a build failure are read from the whole
    // output as it arrives, each stream by its lines: one in the part left out of the kept output counts as much as one
    // in its head or tail (a secret's value hidden there too)
    const reader = testCaseReader();
    const summary = summaryReader();
    const build = buildFailureReader();
    const programs = ctestProgramReader();
    const passedFiles = passedFileReader();
    const reported = reportedFailureReader();
    const onLine = (whole: string) => {
      const line = hideSecrets(whole);
      reader.line(line);
      summary.line(line);
      build.line(line);
      programs.line(line);
      passedFiles.line(line);
      reported.line(line);
    };
    const feeds = [lineFeed(onLine, opts.cwd), lineFeed(onLine, opts.cwd)];
    const finish = (ended: CheckStatus, exitCode: number | null, extra = '') => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (child) release(child);
      let text = hideSecrets(cleanOutput(kept.text(), opts.cwd));
      if (extra) text = `${text.trimEnd()}${text.trim() ? '\n' : ''}${extra}`;
      for (const f of feeds) f.end();
      // what a run in a sub-project's folder names, from there: as the workspace names it (runFolder.ts)
      const folder = runFolder(opts.command);
      const tests = reader.result();
      const inWorkspace = (paths: string[]) => paths.map((p) => workspacePath(folder, p));
      const kinds = summary.kinds();
      const ctest = programs.result();
      const read = { testSummary: summary.seen(ended === 'passed'), ...(kinds.length ? { summaryKinds: kinds } : {}) };
      // exit 0 without the summary its run on the unchanged workspace wrote: failed, saying why first (testSummary.ts)
      const early = passedWithoutSummary({ exitCode, ...read }, opts.base);
      // exit 0, yet a line reports failed tests: failed, the line quoted first (reportedFailures.ts)
      const failures = ended === 'passed' && !early ? reported.first() : null;
      const status = early || failures ? 'failed' : ended;
      resolve({
        command: opts.command,
        round: opts.round,
        status,
        passed: status === 'passed',
        exitCode,
        durationMs: Math.max(0, now() - started),
        output: `${early ? `${EXITED_BEFORE_SUMMARY}\n` : failures ? `${reportedFailureNote(failures)}\n` : ''}${trimForModel(text, opts.outputForModel, opts.focusFiles)}`,
        outputChars: kept.total,
        ...(tests ? { tests: tests.cases.map((c) => ({ ...c, name: workspaceCaseName(folder, c.name) })), ...(tests.listsPassed ? {} : { onlyFailuresNamed: true }), ...(tests.incomplete ? { testsIncomplete: true as const } : {}) } : {}),
        ...read,
        ...(status === 'failed' && failedToBuild(build, reader) ? { unbuilt: true as const } : {}),
        ...(status !== 'passed' ? { passedTestFiles: inWorkspace(passedFiles.files()), unbuiltGoPackages: build.goPackages(), unbuiltGoFolders: inWorkspace(build.goFolders()), unbuiltCargoTests: build.cargoTests(), unbuiltTestFiles: inWorkspace(reader.unloadedFiles()) } : {}),
        ...(status !== 'passed' && ctest ? { ctestPrograms: withSources(ctest, opts.cwd, folder) } : {}),
      });
    };
    let done = false;
    let ending: CheckStatus | null = null;
    let child: ChildProcess | undefined;
    const stop = (why: CheckStatus) => {
      if (ending || done) return;
      ending = why;
      if (child) killTree(child);
      // The group is dead; if a grandchild kept a pipe open past the kill, do not wait for it.
      setTimeout(() => finish(why, null, endNote(why)), 2000).unref();
    };
    const endNote = (why: CheckStatus) =>
      why === 'timeout' ? `[killed: the check ran longer than ${formatDuration(timeoutMs)}]` : why === 'cancelled' ? '[stopped by the user]' : '';
    const onAbort = () => stop('cancelled');
    let timer = setTimeout(() => stop('timeout'), timerDelay(timeoutMs));
    if (opts.signal?.aborted) {
      clearTimeout(timer);
      done = true;
      resolve({ command: opts.command, round: opts.round, status: 'cancelled', passed: false, exitCode: null, durationMs: 0, output: '[stopped by the user]', outputChars: 0 });
      return;
    }
    // the steps in turn (RunCheckOptions.steps), each with the time limit; the first to fail gives the exit code
    const steps = opts.steps?.length ? opts.steps : [opts.command];
    let failure: { code: number | null; note: string } | undefined;
    const read = (feed: (typeof feeds)[number]) => (chunk: string) => {
      if (done) return;
      keep(chunk);
      feed.write(chunk);
    };
    const start = (at: number): void => {
      let c: ChildProcess;
      try {
        c = spawn(steps[at], {
          cwd: opts.cwd,
          shell: true,
          detached: process.platform !== 'win32',
          windowsHide: true,
          stdio: ['ignore', 'pipe', 'pipe'],
          // CI=1 keeps test runners out of watch mode (react-scripts, vitest) and from prompting; the Anthropic
          // credentials are left out (checkEnv.ts). No colour variables: the output's colours are removed when it is
          // read (output.ts), and a project's own tests of colour handling (FORCE_COLOR, NO_COLOR) must see the
          // environment its developer runs them in.
          env: checkEnv(env),
        });
      } catch (e) {
        finish('error', null, `[could not start: ${(e as Error).message}]`);
        return;
      }
      child = c;
      track(c);
      c.stdout!.setEncoding('utf8').on('data', read(feeds[0]));
      c.stderr!.setEncoding('utf8').on('data', read(feeds[1]));
      c.on('error', (e) => finish('error', null, `[could not start: ${e.message}]`));
      let over = false;
      const ended = (code: number | null, signal: NodeJS.Signals | null) => {
        if (over || done) return;
        over = true;
        if (ending) return finish(ending, null, endNote(ending));
        if (code !== 0) failure ??= { code, note: code === null && signal ? `[ended by ${signal}]` : '' };
        if (at + 1 === steps.length) return finish(failure ? 'failed' : 'passed', failure ? failure.code : code, failure?.note);
        // the next step: its lines start on a line of their own, with a time limit of its own
        release(c);
        for (const f of feeds) f.end();
        clearTimeout(timer);
        timer = setTimeout(() => stop('timeout'), timerDelay(timeoutMs));
        start(at + 1);
      };
      c.on('exit', (code, signal) => {
        // The command ended. What still holds its output a moment later (a server a test started and forgot) is
        // killed with its group, and not waited for; a daemon that writes elsewhere (Gradle's, a compiler server) is
        // left to serve the next run.
        setTimeout(() => {
          if (over || done) return;
          if (!ending && process.platform !== 'win32') killTree(c);
          ended(code, signal);
        }, 2000).unref();
      });
      c.on('close', ended);
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    start(0);
  });
}

/** Where a reported run runs: on the proposal (nothing), DevA's tests alone (`before`), or nothing applied (`baseline`). */
export type RunPlace = { before?: true; baseline?: true };

export interface ReportedRunOptions extends Pick<ChecksConfig, 'timeoutMs' | 'outputCap' | 'apiKey'> {
  command: string;
  /** The scratch copy it runs in, with the environment its checks run with (scratch.ts). */
  scratch: Pick<Scratch, 'dir' | 'env'>;
  round: number;
  /** The command's place in the configured list, for the events. */
  index: number;
  total: number;
  place?: RunPlace;
  emit: (e: CheckEvent) => void;
  signal?: AbortSignal;
  /** The command's run on the unchanged workspace, when the loop took one (RunCheckOptions.base). */
  base?: CheckRun;
  /** DevA's proposed files, whose lines the trimmed output keeps first (RunCheckOptions.focusFiles). */
  focusFiles?: readonly string[];
  /** What the caller adds to the run before it is reported (failFirst.ts: whether it reached DevA's tests). */
  mark?: (run: CheckRun) => CheckRun;
  /** The command run once per cargo test target, as one run (cargoTargets.ts PerTarget; RunCheckOptions.steps). */
  perTarget?: PerTarget;
  /** The commands run in turn as this run of `command` otherwise (RunCheckOptions.steps: ctestPrograms.ts keepGoingSteps). */
  steps?: readonly string[];
}

/**
 * One run of a check as the loop, the baseline and fail-first report it: check-started, the run, check-finished.
 * `stopped` is true when Stop ended it (the caller decides what a stop means).
 */
export async function runReported(o: ReportedRunOptions): Promise<{ run: CheckRun; stopped: boolean }> {
  const place = o.place ?? {};
  const targets = o.perTarget ? { targets: o.perTarget.targets } : {};
  o.emit({ type: 'check-started', round: o.round, command: o.command, index: o.index, total: o.total, ...targets, ...place });
  const env = Object.keys(o.scratch.env).length ? { ...process.env, ...o.scratch.env } : undefined;
  const ran = await runCheck({ command: o.command, cwd: o.scratch.dir, round: o.round, timeoutMs: o.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS, outputCap: o.outputCap, signal: o.signal, env, apiKey: o.apiKey, base: o.base, steps: o.perTarget?.steps ?? o.steps, focusFiles: o.focusFiles });
  // a run per target says which targets it ran, and which of them did not compile (cargoTargets.ts ByTarget)
  const read = o.perTarget ? { ...ran, byTarget: byTargetOf(o.perTarget, ran) } : ran;
  const run = o.mark ? o.mark(read) : read;
  o.emit({ type: 'check-finished', run, ...place });
  return { run, stopped: run.status === 'cancelled' || !!o.signal?.aborted };
}
