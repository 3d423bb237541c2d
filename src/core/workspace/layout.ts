// The workspace's layout in numbers: its folders down to three levels with how many source files and tests each holds,
// how the tests are named and a few of the other source files by name, the packages of a monorepo (a folder one level
// below a top folder that holds a manifest), the manifests one and two levels down, and the paths a caller asks to
// keep — from the index's own walk (treeWalk.ts) under the read policy, so .gitignore, the dependency and tool
// folders, secret files, .git/ and the cape folder are left out as they are for the model everywhere else. Names
// only: no file is read. Init's workspace facts render it.
import { TreeWalk } from './treeWalk';
import type { WorkspacePolicy } from './policy';
import { MANIFEST_NAMES, SOURCE_FILE } from './fileKinds';
import { isTestFile, testNamePattern } from './testFiles';

/** Source files that are not tests a folder keeps by name (FolderCount.examples). */
const EXAMPLES = 3;
/** Test name patterns a folder keeps (FolderCount.testNames); a test named otherwise is counted, not its pattern. */
const TEST_PATTERNS = 4;
/** How deep the walk counts folders: the top folders, their sub-folders and theirs. */
const FOLDER_DEPTH = 3;

/** One folder and the source files below it (`files`: every file the policy admits there, source or not). */
export interface FolderCount {
  /** Workspace-relative path ('' for the files at the root). */
  path: string;
  source: number;
  files: number;
  /** The source files among them that are tests (isTestFile). */
  tests: number;
  /**
   * How the tests are named (testNamePattern; a test whose name shows no pattern is only counted), with how many of
   * them each: TEST_PATTERNS at most.
   */
  testNames: Map<string, number>;
  /** A few of its source files that are not tests, by their path below the folder: the shallowest first, then by name. */
  examples: string[];
}

export interface WorkspaceLayout {
  /** Source files in the whole workspace. */
  source: number;
  /** The manifests at the root (MANIFEST_NAMES), by name. */
  rootManifests: string[];
  /** The manifests one and two levels down (`backend/pyproject.toml`, `packages/web/package.json`), by path. */
  subManifests: string[];
  /** Every file at the root the policy admits, by name (sorted). */
  rootFiles: string[];
  /** The top-level folders ('' for the root's own files), most source files first, then by name. */
  folders: FolderCount[];
  /** Per top-level folder, its packages (sub-folders that hold a manifest), most source files first. */
  packages: Map<string, FolderCount[]>;
  /** Per folder of the first two levels, its sub-folders, most source files first. */
  subfolders: Map<string, FolderCount[]>;
  /** The paths the caller's `keep` admitted, in the walk's order. */
  kept: string[];
}

const bySize = (a: FolderCount, b: FolderCount) => b.source - a.source || b.files - a.files || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** Shallower paths first, then by name. */
/** Shallower paths first, then by name: the order a folder's examples and style files are named in. */
export const byDepth = (a: string, b: string) => a.split('/').length - b.split('/').length || (a < b ? -1 : a > b ? 1 : 0);

/** Counts one file in a folder: `below` is its path under the folder, `test` whether it is one and its name's pattern. */
function countIn(c: FolderCount, below: string, isSource: boolean, test: { pattern: string | null } | null): void {
  c.files++;
  if (!isSource) return;
  c.source++;
  if (test !== null) {
    c.tests++;
    if (test.pattern !== null) {
      const n = c.testNames.get(test.pattern);
      if (n !== undefined || c.testNames.size < TEST_PATTERNS) c.testNames.set(test.pattern, (n ?? 0) + 1);
    }
  } else if (c.examples.length < EXAMPLES || byDepth(below, c.examples[EXAMPLES - 1]) < 0) {
    c.examples.push(below);
    c.examples.sort(byDepth);
    c.examples.length = Math.min(c.examples.length, EXAMPLES);
  }
}

/**
 * Walks the workspace (names only) under the caller's read policy and counts its source files per folder down to
 * FOLDER_DEPTH and per package; the paths `keep` admits are kept by name. The policy stays the caller's: it keeps what
 * the walk taught it until the caller forgets it.
 */
export function workspaceLayout(root: string, policy: WorkspacePolicy, keep?: (rel: string) => boolean): WorkspaceLayout {
  const byPath = new Map<string, FolderCount>();
  const packageDirs = new Set<string>();
  const rootManifests: string[] = [];
  const subManifests: string[] = [];
  const rootFiles: string[] = [];
  const kept: string[] = [];
  const manifests = new Set(MANIFEST_NAMES);
  let source = 0;
  const folder = (key: string) => {
    let c = byPath.get(key);
    if (!c) byPath.set(key, (c = { path: key, source: 0, files: 0, tests: 0, testNames: new Map(), examples: [] }));
    return c;
  };
  new TreeWalk(root, policy).walk(false, (rel) => {
    const isSource = SOURCE_FILE.test(rel);
    const test = isSource && isTestFile(rel) ? { pattern: testNamePattern(rel) } : null;
    if (isSource) source++;
    if (keep?.(rel)) kept.push(rel);
    const parts = rel.split('/');
    if (parts.length === 1) {
      rootFiles.push(rel);
      if (manifests.has(rel)) rootManifests.push(rel);
      countIn(folder(''), rel, isSource, test);
    }
    for (let depth = 1; depth < parts.length && depth <= FOLDER_DEPTH; depth++) {
      countIn(folder(parts.slice(0, depth).join('/')), parts.slice(depth).join('/'), isSource, test);
    }
    if ((parts.length === 2 || parts.length === 3) && manifests.has(parts[parts.length - 1])) {
      subManifests.push(rel);
      if (parts.length === 3) packageDirs.add(`${parts[0]}/${parts[1]}`);
    }
  });
  const packages = new Map<string, FolderCount[]>();
  for (const dir of packageDirs) {
    const top = dir.slice(0, dir.indexOf('/'));
    const list = packages.get(top) ?? [];
    list.push(byPath.get(dir)!);
    packages.set(top, list);
  }
  for (const list of packages.values()) list.sort(bySize);
  const folders: FolderCount[] = [];
  const subfolders = new Map<string, FolderCount[]>();
  for (const c of byPath.values()) {
    const slash = c.path.lastIndexOf('/');
    if (slash < 0) folders.push(c);
    else {
      const parent = c.path.slice(0, slash);
      const list = subfolders.get(parent) ?? [];
      list.push(c);
      subfolders.set(parent, list);
    }
  }
  for (const list of subfolders.values()) list.sort(bySize);
  rootManifests.sort((a, b) => MANIFEST_NAMES.indexOf(a) - MANIFEST_NAMES.indexOf(b));
  rootFiles.sort();
  return { source, rootManifests, subManifests, rootFiles, folders: folders.sort(bySize), packages, subfolders, kept };
}
