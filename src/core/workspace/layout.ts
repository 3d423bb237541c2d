// The workspace's layout in numbers: its top-level folders with how many source files each holds, and the packages
// of a monorepo (a folder one level below a top folder that holds a manifest), from the index's own walk (treeWalk.ts)
// under the read policy — so .gitignore, the dependency and tool folders, secret files, .git/ and the cape folder are
// left out as they are for the model everywhere else. Names only: no file is read. Init's workspace facts render it.
import { TreeWalk } from './treeWalk';
import type { WorkspacePolicy } from './policy';
import { MANIFEST_NAMES, SOURCE_FILE } from './fileKinds';

/** One folder and the source files below it (`files`: every file the policy admits there, source or not). */
export interface FolderCount {
  /** Workspace-relative path ('' for the files at the root). */
  path: string;
  source: number;
  files: number;
}

export interface WorkspaceLayout {
  /** Source files in the whole workspace. */
  source: number;
  /** The manifests at the root (MANIFEST_NAMES), by name. */
  rootManifests: string[];
  /** Every file at the root the policy admits, by name (sorted). */
  rootFiles: string[];
  /** The top-level folders ('' for the root's own files), most source files first, then by name. */
  folders: FolderCount[];
  /** Per top-level folder, its packages (sub-folders that hold a manifest), most source files first. */
  packages: Map<string, FolderCount[]>;
}

const bySize = (a: FolderCount, b: FolderCount) => b.source - a.source || b.files - a.files || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/**
 * Walks the workspace (names only) under the caller's read policy and counts its source files per top-level folder
 * and per package. The policy stays the caller's: it keeps what the walk taught it until the caller forgets it.
 */
export function workspaceLayout(root: string, policy: WorkspacePolicy): WorkspaceLayout {
  const top = new Map<string, FolderCount>();
  const second = new Map<string, FolderCount>();
  const packageDirs = new Set<string>();
  const rootManifests: string[] = [];
  const rootFiles: string[] = [];
  const manifests = new Set(MANIFEST_NAMES);
  let source = 0;
  const count = (map: Map<string, FolderCount>, key: string, isSource: boolean) => {
    let c = map.get(key);
    if (!c) map.set(key, (c = { path: key, source: 0, files: 0 }));
    c.files++;
    if (isSource) c.source++;
  };
  new TreeWalk(root, policy).walk(false, (rel) => {
    const isSource = SOURCE_FILE.test(rel);
    if (isSource) source++;
    const parts = rel.split('/');
    if (parts.length === 1) {
      rootFiles.push(rel);
      if (manifests.has(rel)) rootManifests.push(rel);
    }
    count(top, parts.length === 1 ? '' : parts[0], isSource);
    if (parts.length >= 3) count(second, `${parts[0]}/${parts[1]}`, isSource);
    if (parts.length === 3 && manifests.has(parts[2])) packageDirs.add(`${parts[0]}/${parts[1]}`);
  });
  const packages = new Map<string, FolderCount[]>();
  for (const dir of packageDirs) {
    const folder = dir.slice(0, dir.indexOf('/'));
    const list = packages.get(folder) ?? [];
    list.push(second.get(dir)!);
    packages.set(folder, list);
  }
  for (const list of packages.values()) list.sort(bySize);
  rootManifests.sort((a, b) => MANIFEST_NAMES.indexOf(a) - MANIFEST_NAMES.indexOf(b));
  rootFiles.sort();
  return { source, rootManifests, rootFiles, folders: [...top.values()].sort(bySize), packages };
}
