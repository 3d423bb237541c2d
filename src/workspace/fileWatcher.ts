// THE file watcher of the extension: one vscode FileSystemWatcher ('**/*') per workspace folder, created when the
// first subscriber of that folder arrives and disposed with the last one (and on deactivation). Subscribers — the
// workspace index (./indexService.ts) and the tree views (src/tree/sessionsWatcher.ts) — each get every event of
// their folder with its workspace-relative path and keep what they need, so a file save costs one watcher, not one
// per feature. ESLint refuses createFileSystemWatcher anywhere else (eslint.config.mjs).
import * as path from 'path';
import * as vscode from 'vscode';
import { isInside } from '../core';

export type FileChangeKind = 'create' | 'change' | 'delete';

export interface FileChange {
  kind: FileChangeKind;
  uri: vscode.Uri;
  /** The watched folder (absolute). */
  root: string;
  /** The path inside `root`, '/'-separated (never empty, never outside `root`). */
  rel: string;
}

/** What a feature needs from the shared watcher (Services.fileWatcher). */
export interface FileWatcherApi {
  /** Calls `listener` for every file event under `root` until the returned disposable is disposed. */
  subscribe(root: string, listener: (change: FileChange) => void): vscode.Disposable;
  /** The folders watched right now, one FileSystemWatcher each (for diagnostics and tests). */
  readonly watchedFolders: string[];
  /** How many subscribers `root` has (for diagnostics and tests). */
  subscribers(root: string): number;
}

interface Watched {
  watcher: vscode.FileSystemWatcher;
  listeners: Set<(change: FileChange) => void>;
  subs: vscode.Disposable[];
}

export class WorkspaceFileWatcher implements FileWatcherApi, vscode.Disposable {
  private readonly folders = new Map<string, Watched>();
  private disposed = false;

  subscribe(root: string, listener: (change: FileChange) => void): vscode.Disposable {
    const key = path.resolve(root);
    if (this.disposed) return new vscode.Disposable(() => undefined);
    let w = this.folders.get(key);
    if (!w) w = this.watch(key);
    w.listeners.add(listener);
    let done = false;
    return new vscode.Disposable(() => {
      if (done) return;
      done = true;
      const cur = this.folders.get(key);
      if (!cur) return;
      cur.listeners.delete(listener);
      if (cur.listeners.size === 0) this.unwatch(key, cur);
    });
  }

  get watchedFolders(): string[] {
    return [...this.folders.keys()];
  }

  subscribers(root: string): number {
    return this.folders.get(path.resolve(root))?.listeners.size ?? 0;
  }

  dispose(): void {
    this.disposed = true;
    for (const [key, w] of [...this.folders]) this.unwatch(key, w);
  }

  private watch(root: string): Watched {
    // The workspace folder itself when it is one (VS Code then shares its recursive watcher), else the plain path.
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file' && path.resolve(f.uri.fsPath) === root);
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder ?? vscode.Uri.file(root), '**/*'));
    const listeners = new Set<(change: FileChange) => void>();
    const fire = (kind: FileChangeKind) => (uri: vscode.Uri) => {
      if (!isInside(root, uri.fsPath, { strict: true })) return;
      const rel = path.relative(root, uri.fsPath);
      const change: FileChange = { kind, uri, root, rel: rel.split(path.sep).join('/') };
      for (const l of [...listeners]) {
        try {
          l(change);
        } catch {
          // one subscriber's bug must not starve the others
        }
      }
    };
    const w: Watched = {
      watcher,
      listeners,
      subs: [watcher.onDidCreate(fire('create')), watcher.onDidChange(fire('change')), watcher.onDidDelete(fire('delete'))],
    };
    this.folders.set(root, w);
    return w;
  }

  private unwatch(root: string, w: Watched): void {
    if (this.folders.get(root) === w) this.folders.delete(root);
    for (const s of w.subs) s.dispose();
    w.watcher.dispose();
    w.listeners.clear();
  }
}
