// What the workspace index answers (workspaceIndex.ts keeps it in step with the disk and writes its cache file): its
// files, git's recency, co-change and recent commits (history.ts), the import graph (importGraph.ts) and the BM25 text
// scores (termIndex.ts), over what indexContent.ts holds.
import * as path from 'path';
import { WorkspacePolicy, type PolicyOptions } from './policy';
import { HistoryWatch, type Commit } from './history';
import { type FieldBoost } from './termIndex';
import { IndexContent } from './indexContent';
import type { IndexedFile } from './indexEntry';

const EMPTY: ReadonlyMap<string, number> = new Map();

export abstract class IndexQueries {
  readonly root: string;
  readonly policy: WorkspacePolicy;
  protected readonly content: IndexContent;
  /** content.files, named once: the walk and the queries read them. */
  protected readonly files: IndexContent['files'];
  /** Git recency and co-change of the files (history.ts), recomputed when HEAD moves. */
  protected readonly history = new HistoryWatch();

  constructor(root: string, opts: PolicyOptions = {}) {
    this.root = path.resolve(root);
    this.policy = new WorkspacePolicy(this.root, opts);
    this.content = new IndexContent(this.root, this.policy.maxBytes);
    this.files = this.content.files;
  }

  get size(): number {
    return this.files.size;
  }

  get(relPath: string): IndexedFile | undefined {
    return this.files.get(relPath);
  }

  /** Every indexed file, each restored one made on the way: for paths alone, paths() makes none. */
  all(): IterableIterator<IndexedFile> {
    return this.files.values();
  }

  /** Every indexed file's path, in the order of all() (no entry made for a file restored from the cache file). */
  paths(): IterableIterator<string> {
    return this.files.keys();
  }

  /** How recently and often git saw the file change, in [0, 1] (0 outside a git repository). */
  recencyOf(relPath: string): number {
    return this.history.current.recency.get(relPath) ?? 0;
  }

  /** Every file git saw change lately, with its recencyOf (empty outside a git repository). */
  recentFiles(): ReadonlyMap<string, number> {
    return this.history.current.recency;
  }

  /** The files git saw change together with this one, each with the share of its commits (empty without git). */
  coChangedWith(relPath: string): ReadonlyMap<string, number> {
    return this.history.current.coChange.get(relPath) ?? EMPTY;
  }

  /** The recent commits git saw (subject terms and files), newest first; none outside a git repository. */
  commits(): readonly Commit[] {
    return this.history.current.commits;
  }

  /** The indexed file a specifier names, or null (bare package names are not workspace files). */
  resolve(from: string, spec: string): string | null {
    return this.content.graph.resolve(from, spec);
  }

  /** Files that import the given file. */
  importersOf(relPath: string): string[] {
    return this.content.graph.importersOf(relPath);
  }

  /** BM25 scores (path, symbols, content with field boosts) of the files for a free-text query. */
  textScores(query: string, boost: FieldBoost = { path: 3, symbols: 2, content: 1 }): Map<string, number> {
    if (!query.trim()) return new Map();
    return this.content.text.scores(query, boost, (rel) => this.content.readIndexed(rel));
  }

  /** The current text of an indexed file, for ranking only (indexContent.ts's readIndexed). */
  readIndexed(rel: string): string | null {
    return this.content.readIndexed(rel);
  }
}
