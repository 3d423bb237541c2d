// A backstop for vscode.workspace.createFileSystemWatcher: non-recursive Node watchers on the few folders the tree
// views show. Observed on code-server 4.100.3 (VS Code 1.100.3): the workspace's recursive watcher reports a folder
// created after the window opened, but nothing inside it — so a cape/ created by "Initialize Project" (or copied
// in) would never refresh the views. Watching these folders directly costs a handful of inotify watches.
import * as fs from 'fs';
import * as path from 'path';

export class DirWatch {
  private readonly watchers = new Map<string, fs.FSWatcher>();
  /** Identity (inode + birth time) of each watched folder: a folder re-created in between needs a new watcher. */
  private readonly inodes = new Map<string, string>();
  private dirs: string[] = [];
  private disposed = false;

  /** `onEvent` is called (undebounced) for any change of an entry of a watched folder (name null if unknown). */
  constructor(private readonly onEvent: (dir: string, name: string | null) => void) {}

  /** Sets the folders to watch (missing ones are skipped) and closes watchers of folders no longer wanted. */
  setDirs(dirs: string[]): void {
    this.dirs = [...new Set(dirs)];
    for (const [dir, w] of this.watchers) {
      if (!this.dirs.includes(dir)) this.close(dir, w);
    }
    this.arm();
  }

  /** Starts watching the wanted folders that exist now (call again after they may have been created). */
  arm(): void {
    if (this.disposed) return;
    for (const dir of this.dirs) {
      let ino: string;
      try {
        const st = fs.statSync(dir);
        if (!st.isDirectory()) throw new Error('not a folder');
        ino = `${st.ino}/${st.birthtimeMs}`;
      } catch {
        const old = this.watchers.get(dir);
        if (old) this.close(dir, old);
        continue; // missing: try again on the next arm()
      }
      const old = this.watchers.get(dir);
      if (old && this.inodes.get(dir) === ino) continue;
      if (old) this.close(dir, old);
      let w: fs.FSWatcher;
      try {
        w = fs.watch(dir, { persistent: false }, (event, name) => {
          // Linux reports the deletion (or move) of the watched folder itself as a 'rename' of its own name: that
          // watcher is dead (inode numbers are often reused at once, so arm() could not tell), drop it.
          if (event === 'rename' && name !== null && String(name) === path.basename(dir)) this.close(dir, w);
          this.onEvent(dir, name ? String(name) : null);
        });
      } catch {
        continue; // vanished meanwhile or not watchable: try again on the next arm()
      }
      // the folder was deleted or the watch broke: drop it so that arm() can re-create it later
      w.on('error', () => this.close(dir, w));
      this.watchers.set(dir, w);
      this.inodes.set(dir, ino);
    }
  }

  /** Folders watched right now (for diagnostics and tests). */
  get watching(): string[] {
    return [...this.watchers.keys()];
  }

  private close(dir: string, w: fs.FSWatcher): void {
    try {
      w.close();
    } catch {
      // already closed
    }
    if (this.watchers.get(dir) === w) {
      this.watchers.delete(dir);
      this.inodes.delete(dir);
    }
  }

  dispose(): void {
    this.disposed = true;
    for (const [dir, w] of this.watchers) this.close(dir, w);
  }
}
