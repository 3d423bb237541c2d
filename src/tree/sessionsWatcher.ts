// The tree views' change signal: one debounced "session files changed" for `<root>/<capeFolder>/5_sessions/`
// (retrospectives, KPT, session state), whoever wrote them (this window, another window, the CLI, git). Two sources
// feed it, re-pointed when the cape folder or the workspace changes:
//  1. the extension's shared file watcher (src/workspace/fileWatcher.ts, one per workspace folder), filtered to
//     `<capeFolder>/5_sessions/**`; the step records under pair/ are ignored (neither view shows them);
//  2. Node watchers on the chain root → cape → 5_sessions → retrospective | state (see ./dirWatch.ts for why); an
//     event on a parent counts only when it concerns the next folder of the chain (a top-level file save in the
//     workspace does not reload the views).
import * as path from 'path';
import * as vscode from 'vscode';
import { capeFolderRefusal, SESSIONS_FOLDER, SessionLayout } from '../core';
import type { FileWatcherApi } from '../workspace/fileWatcher';
import { DirWatch } from './dirWatch';

/** Watcher events are coalesced for this long before the views reload. */
export const REFRESH_DEBOUNCE_MS = 200;

export interface SessionsLocation {
  root: string;
  capeFolder: string;
}

/** The session records' layout at a location, or null when its CAPE folder setting cannot be used. */
export function sessionLayout(where: SessionsLocation): SessionLayout | null {
  return capeFolderRefusal(where.capeFolder) ? null : new SessionLayout(where.root, where.capeFolder);
}

export class SessionsWatcher implements vscode.Disposable {
  private subscription: vscode.Disposable | undefined;
  /** watched folder → the only entry name that matters (null: all) */
  private chain = new Map<string, string | null>();
  private readonly dirWatch: DirWatch;
  private timer: NodeJS.Timeout | undefined;
  private pending: Promise<void> | null = null;
  private settle: (() => void) | null = null;

  /** `onChange` runs once per burst of events (debounced); the promise it returns is what `whenIdle` waits for. */
  constructor(
    private readonly location: () => SessionsLocation | undefined,
    private readonly onChange: () => Promise<void>,
    private readonly files: FileWatcherApi,
  ) {
    this.dirWatch = new DirWatch((dir, name) => {
      const wanted = this.chain.get(dir);
      if (wanted === undefined || (wanted !== null && name !== null && name !== wanted)) return;
      this.schedule();
    });
    this.rewatch();
  }

  /** Watches the current location again (after a change of cape.capeFolder or of the workspace folders). */
  rewatch(): void {
    const where = this.location();
    const layout = where ? sessionLayout(where) : null;
    this.chain = new Map();
    if (where && layout) {
      this.chain.set(where.root, where.capeFolder);
      this.chain.set(path.join(where.root, where.capeFolder), SESSIONS_FOLDER);
      this.chain.set(layout.sessionsDir, null); // retrospective/ or state/ appearing
      this.chain.set(layout.retrospectiveDir, null);
      this.chain.set(layout.stateDir, null);
    }
    this.dirWatch.setDirs([...this.chain.keys()]);
    // Subscribe before letting the old subscription go: the same folder keeps its one watcher.
    const old = this.subscription;
    this.subscription = undefined;
    if (where && layout) {
      const sessions = layout.relative(layout.sessionsDir);
      const pair = layout.relative(layout.pairDir);
      this.subscription = this.files.subscribe(where.root, ({ rel }) => {
        if (rel !== sessions && !rel.startsWith(`${sessions}/`)) return;
        if (rel.startsWith(`${pair}/`)) return; // step records: neither view shows them
        this.schedule();
      });
    }
    old?.dispose();
  }

  /** Folders created since the last call get their Node watcher (call before each reload). */
  arm(): void {
    this.dirWatch.arm();
  }

  /** Debounced change: bursts of file events (atomic writes, lock files) cause one reload. */
  schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    if (!this.pending) this.pending = new Promise<void>((resolve) => (this.settle = resolve));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const done = this.settle;
      this.pending = null;
      this.settle = null;
      void this.onChange().finally(() => done?.());
    }, REFRESH_DEBOUNCE_MS);
  }

  /** Resolves when a scheduled change (if any) has been handled. */
  async whenIdle(): Promise<void> {
    if (this.pending) await this.pending;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.settle?.();
    this.subscription?.dispose();
    this.dirWatch.dispose();
  }
}
