// The run queue: one CAPE session at a time in this window. start/resume → checks (folder, trust, task id,
// objective) → provider.getClient('session') → the checks on DevA's proposal (./checksConsent.ts) → core runSession, each SessionEvent handed to `hooks.onEvent`.
// A second start while one runs asks: stop the running one, or start when it is done. Stop / CAPE: Cancel
// Session abort the HTTP request through the run's AbortController. How a run ended is told by ./runOutcome.ts.
import { requireTrust, requireWorkspace } from '../commands/util';
import { assertTaskId, runSession, toolsOn, type SessionEvent, type SessionResult } from '../core';
import type { Services } from '../services';
import type { RunProgress } from './statusBar';
import { stepLabel } from './stepLabels';
import { workspaceSessionOptions } from '../workspace/indexService';
import { sessionChecks } from './checksConsent';
import { showError, showInformation, showWarning } from '../notify';

export interface RunRequest {
  objective?: string;
  resumeTaskId?: string;
  /** A resume of a session paused for the Cape Master's questions: the user's answers, or "Continue anyway". */
  answers?: string[];
  skipQuestions?: boolean;
}

interface CurrentRun extends RunProgress {
  abort: AbortController;
  taskId: string | null;
  step: RunProgress['step'];
  done: Promise<void>;
}

/** What the runner tells the rest of the extension (the controller wires these to the panel and status bar). */
export interface SessionRunHooks {
  /** A run took the slot (its progress) or ended (undefined). */
  onRunning(run: RunProgress | undefined): void;
  /** The task id or the step of the running session changed. */
  onProgress(run: RunProgress): void;
  /** Right after a run took the slot: show the session's view. */
  openView(): void;
  /** Before the first request: give a loading view a moment, so the stream is seen from its first word. */
  whenViewReady(): Promise<void>;
  onEvent(e: SessionEvent): void;
  /** cape/ files the loader skipped or missed (all at once, before the first step). */
  onCapeWarnings(warnings: string[]): void;
  onEnded(result: SessionResult, where: { root: string; capeFolder: string }): void;
}

export class SessionRunner {
  private current: CurrentRun | undefined;
  private closed = false;

  constructor(
    private readonly services: Services,
    private readonly hooks: SessionRunHooks,
  ) {}

  get running(): boolean {
    return this.current !== undefined;
  }

  cancel(): void {
    const cur = this.current;
    if (!cur) {
      void showInformation('No CAPE session is running.');
      return;
    }
    if (!cur.abort.signal.aborted) {
      this.services.output.info(`session ${cur.taskId ?? '(starting)'}: cancelled by the user${cur.step ? ` during ${cur.step}` : ''}`);
      cur.abort.abort();
    }
  }

  /** Runs one session (after the running one, if the user chose so); resolves when it ended. */
  async run(req: RunRequest): Promise<void> {
    if (this.closed) return;
    if (!(await this.waitForSlot(req))) return;

    const action = req.resumeTaskId ? 'resume a session' : 'start a session';
    const root = requireWorkspace(this.services, action);
    if (!root) return;
    if (!requireTrust(action)) return;
    if (req.resumeTaskId) {
      try {
        assertTaskId(req.resumeTaskId);
      } catch (err) {
        void showError(`CAPE: ${(err as Error).message}`);
        return;
      }
    } else if (!req.objective || !req.objective.trim()) {
      void showError('CAPE: the objective is empty. Say what the team should work on.');
      return;
    }

    // Claim the single slot before the first await so a concurrent start sees it.
    let finish!: () => void;
    const run: CurrentRun = { abort: new AbortController(), taskId: req.resumeTaskId ?? null, step: null, done: new Promise<void>((r) => (finish = r)) };
    this.current = run;
    this.hooks.onRunning(run);
    try {
      try {
        this.hooks.openView();
      } catch (err) {
        // The session still runs (and is saved) without a view; the log says why the view failed.
        this.services.output.error(`the chat panel could not be opened: ${(err as Error).message}`);
      }
      const resolved = await this.services.provider.getClient('session');
      if (!resolved) {
        this.services.output.info('session not started: no model client (the prompt was cancelled)');
        return;
      }
      if (run.abort.signal.aborted) {
        this.services.output.info('session not started: cancelled before the first request');
        return;
      }
      await this.hooks.whenViewReady();
      const settings = this.services.settings();
      const capeFolder = settings.capeFolder;
      this.services.output.info(
        `${req.resumeTaskId ? `resuming ${req.resumeTaskId}` : 'starting a session'} with ${resolved.label} (model ${resolved.model}) in ${root}`,
      );
      const { config: checks, notRun: checksNotRun } = await sessionChecks(this.services, root);
      if (run.abort.signal.aborted) {
        this.services.output.info('session not started: cancelled before the first request');
        return;
      }
      if (checks) this.services.output.info(`checks on DevA's proposal: ${checks.commands.join(', ')} (up to ${checks.fixRounds} fix rounds${checks.failFirst ? '; fail-first' : ''})`);
      let warnings: string[] = [];
      const result = await runSession({
        workspace: root,
        capeFolder,
        objective: req.objective,
        language: settings.language || 'English',
        model: resolved.model,
        llm: resolved.client,
        prompts: this.services.prompts,
        tools: settings.tools && !toolsOn(settings.tools) ? false : settings.tools,
        ...(settings.feedbackRounds !== undefined ? { feedbackRounds: settings.feedbackRounds } : {}),
        checks,
        ...(checksNotRun ? { checksNotRun } : {}),
        ...(settings.maxSessionCostUsd ? { maxCostUsd: settings.maxSessionCostUsd } : {}),
        onEvent: (e) => this.onEvent(e, run),
        onWarning: (w) => {
          // Warnings come in bursts (the cape/ loader's before the first step, the KPT merge's at the end): one
          // report per burst, and a later burst is reported too.
          warnings.push(w);
          if (warnings.length === 1) {
            setTimeout(() => {
              const burst = warnings;
              warnings = [];
              this.hooks.onCapeWarnings(burst);
            }, 0);
          }
        },
        signal: run.abort.signal,
        ...(await workspaceSessionOptions(this.services, root)),
        ...(req.resumeTaskId ? { resume: true, taskId: req.resumeTaskId, answers: req.answers, skipQuestions: req.skipQuestions } : {}),
      });
      this.hooks.onEnded(result, { root, capeFolder });
    } catch (err) {
      // runSession reports model/config failures in its result; anything thrown is unexpected.
      const message = err instanceof Error ? err.message : String(err);
      this.services.output.error(`session failed unexpectedly: ${message}`);
      void showError(`CAPE: the session failed unexpectedly: ${message}`, 'Show Log').then((c) => {
        if (c) this.services.output.show(true);
      });
    } finally {
      if (this.current === run) this.current = undefined;
      this.hooks.onRunning(undefined);
      this.services.refreshTrees();
      finish();
    }
  }

  /** Waits until no session runs (asking the user how); false when the user declined. */
  private async waitForSlot(req: RunRequest): Promise<boolean> {
    while (this.current) {
      const cur = this.current;
      const stop = 'Stop It and Start';
      const wait = 'Start When It Ends';
      const what = req.resumeTaskId ? `resume ${req.resumeTaskId}` : 'start a new session';
      const choice = await showWarning(
        `A CAPE session is running${cur.taskId ? ` (${cur.taskId}${cur.step ? `, ${stepLabel(cur.step)}` : ''})` : ''}. Only one session runs at a time: stop it and ${what} now, or ${what} when it ends?`,
        { modal: true },
        stop,
        wait,
      );
      if (choice === stop) {
        if (this.current === cur) cur.abort.abort();
        await cur.done;
      } else if (choice === wait) {
        await cur.done;
      } else {
        return false;
      }
    }
    return !this.closed;
  }

  private onEvent(e: SessionEvent, run: CurrentRun): void {
    if (e.type === 'session-started') {
      run.taskId = e.taskId;
      this.hooks.onProgress(run);
    } else if (e.type === 'step-started') {
      run.step = e.step;
      this.hooks.onProgress(run);
    }
    this.hooks.onEvent(e);
  }

  /** Aborts the running session; no new run starts afterwards. */
  dispose(): void {
    this.closed = true;
    this.current?.abort.abort();
  }
}
