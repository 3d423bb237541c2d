// What of the checks must not outlive this process, and the one hook that ends it: the checks running now (run.ts
// kills their process groups) and the scratch copies of the workspace (scratch.ts removes them: they hold the
// workspace's files, `.env` and other secrets among them). Each registers a synchronous cleanup while it lasts; the
// cleanups run, newest first (a check is killed before the copy it runs in is removed), when the process exits or
// when a signal ends it (ENDING_SIGNALS). Synchronous, since the process is going down: nothing async runs after.
/** A cleanup run as the process ends: synchronous; what it throws is ignored. */
export type EndCleanup = () => void;

const cleanups = new Set<EndCleanup>();
let onExitAdded = false;

/**
 * The signals that end a process unless it handles them: the terminal closed (SIGHUP), `kill` (SIGTERM), Ctrl-C
 * (SIGINT, which the terminal sends to its foreground group only: never to a detached check). A process ended by one
 * never sees 'exit'. While a cleanup is registered, the first listener for each: where nothing else handles it
 * (runCheckLoop used as a library) the cleanups run and the signal is raised again, so the process ends by it as it
 * would have; where the process handles it itself (the CLI's Stop, cli/flags.ts abortOnStopSignals, whose abort kills
 * the checks and removes their copies; an extension host's own shutdown) it does nothing, so there is no second
 * handler deciding (the process's exit runs the cleanups left).
 */
export const ENDING_SIGNALS: readonly NodeJS.Signals[] = ['SIGHUP', 'SIGTERM', 'SIGINT'];

function runCleanups(): void {
  for (const c of [...cleanups].reverse()) {
    cleanups.delete(c);
    try {
      c();
    } catch {
      /* the process is ending: the others still run */
    }
  }
}

function onEndingSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return; // the process's own handler decides
  runCleanups();
  watchSignals(false); // with no listener left, the signal's default action is back: it ends the process
  process.kill(process.pid, signal);
}

function watchSignals(on: boolean): void {
  for (const s of ENDING_SIGNALS) {
    if (on) process.prependListener(s, onEndingSignal);
    else process.removeListener(s, onEndingSignal);
  }
}

/** Runs `cleanup` if the process exits or a signal ends it before the returned function is called (which releases it). */
export function untilProcessEnd(cleanup: EndCleanup): () => void {
  if (!cleanups.size) watchSignals(true);
  cleanups.add(cleanup);
  if (!onExitAdded) {
    onExitAdded = true;
    process.on('exit', runCleanups);
  }
  return () => {
    if (cleanups.delete(cleanup) && !cleanups.size) watchSignals(false);
  };
}
