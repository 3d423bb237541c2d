// Shared by the tree providers: reloads that coalesce (the latest request wins), a change event once the latest load
// has landed, and a way to wait for it (getChildren and tests).
import * as vscode from 'vscode';

export abstract class LatestLoader<T> implements vscode.Disposable {
  protected readonly changed = new vscode.EventEmitter<T | undefined | void>();
  readonly onDidChangeTreeData = this.changed.event;

  protected loading: Promise<void> | null = null;
  private generation = 0;
  protected disposed = false;

  /**
   * Loads the data for generation `gen`; must only publish its result when isLatest(gen). Returns false when nothing
   * changed, so the view is not re-rendered for nothing (a re-render rebuilds every row, the one under a menu too).
   */
  protected abstract load(gen: number): Promise<boolean | void>;

  protected isLatest(gen: number): boolean {
    return gen === this.generation && !this.disposed;
  }

  /** Reloads, then fires a change event. Concurrent calls coalesce: the latest one wins. */
  refresh(): Promise<void> {
    const gen = ++this.generation;
    const run = this.load(gen).then((changed) => {
      if (changed !== false && this.isLatest(gen)) this.changed.fire();
    });
    this.loading = run;
    return run;
  }

  /** Resolves when the latest requested load has finished. */
  async whenLoaded(): Promise<void> {
    while (this.loading) {
      const l = this.loading;
      await l;
      if (l === this.loading) break;
    }
  }

  /** Loads on first use, then waits for the latest load (for getChildren). */
  protected async ready(): Promise<void> {
    if (!this.loading) void this.refresh();
    await this.whenLoaded();
  }

  dispose(): void {
    this.disposed = true;
    this.changed.dispose();
  }
}
