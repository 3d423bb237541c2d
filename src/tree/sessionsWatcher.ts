// THE file watcher of the tree views: one debounced "session files changed" signal for
// `<root>/<capeFolder>/5_sessions/` (retrospectives, KPT, session state), whoever wrote them (this window, another
// window, the CLI, git). Two sources feed it, recreated when the cape folder or the workspace changes:
//  1. VS Code's watcher on `<capeFolder>/5_sessions/**` (remote file systems, other platforms' semantics); the step
//     records under pair/ are ignored (neither view shows them);
//  2. Node watchers on the chain root → cape → 5_sessions → retrospective | state (see ./dirWatch.ts for why); an
//     event on a parent counts only when it concerns the next folder of the chain (a top-level file save in the
//     workspace does not reload the views).
import * as path from 'path';
import * as vscode from 'vscode';
import { DirWatch } from './dirWatch';

/** Watcher events are coalesced for this long before the views reload. */
export const REFRESH_DEBOUNCE_MS = 200;

export interface SessionsLocation {
  root: string;
  capeFolder: string;
}

export class SessionsWatcher implements vscode.Disposable {
  private watcher: vscode.FileSystemWatcher | undefined;
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
    this.chain = new Map();
    if (where) {
      const cape = path.join(where.root, where.capeFolder);
      const sessions = path.join(cape, '5_sessions');
      this.chain.set(where.root, where.capeFolder);
      this.chain.set(cape, '5_sessions');
      this.chain.set(sessions, null); // retrospective/ or state/ appearing
      this.chain.set(path.join(sessions, 'retrospective'), null);
      this.chain.set(path.join(sessions, 'state'), null);
    }
    this.dirWatch.setDirs([...this.chain.keys()]);
    this.watcher?.dispose();
    this.watcher = undefined;
    if (!where) return;
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.fsPath === where.root);
    const base = folder ?? vscode.Uri.file(where.root);
    const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(base, `${where.capeFolder}/5_sessions/**`));
    const onFsEvent = (uri: vscode.Uri): void => {
      const rel = uri.fsPath.split(path.sep).join('/');
      if (/\/5_sessions\/pair\//.test(rel)) return; // step records: neither view shows them
      this.schedule();
    };
    w.onDidCreate(onFsEvent);
    w.onDidChange(onFsEvent);
    w.onDidDelete(onFsEvent);
    this.watcher = w;
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
    this.watcher?.dispose();
    this.dirWatch.dispose();
  }
}
