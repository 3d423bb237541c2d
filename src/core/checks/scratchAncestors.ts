// The folders above the workspace, as the checks of a package inside a monorepo need them. Opened on its own
// (`code packages/web`), such a package finds its dependencies in the node_modules the package manager hoisted to the
// repository's root, its tools in that folder's `.bin/` (npm and pnpm put every ancestor's on PATH) and often its
// configuration there too (`"extends": "../../tsconfig.base.json"`). A copy of the workspace alone, in the OS temp
// dir, finds none of them: every check fails on the unchanged code as on the proposal, and tells nothing.
//
// So the scratch copy keeps the workspace's place under those folders: `<temp>/<path from the top ancestor>/`, the top
// ancestor being the farthest one with a node_modules folder (at most MAX_LEVELS up; never past the repository root,
// the folder holding `.git`, a file in a worktree or submodule; never the home folder or the file system's root). On each level on the way down the
// files are copied (a check may write what it reads), but secrets by name (`.env`, `.npmrc`…: workspace/secretNames.ts)
// and files over MAX_FILE_BYTES are linked, so their content is not duplicated; the other folders (its sibling
// packages, a shared configuration folder) are copied too, by the caller's rule (scratch.ts: within a bound, linked
// past it) — a check of this package may write them (`tsc -b` builds the projects it references, a test runner keeps
// its cache beside them) and must not write the user's. node_modules is rebuilt of links: a link to a package of the
// mirrored tree (npm, yarn and pnpm workspaces link the packages in) leads to its copy, where the proposal is, any
// other to where it always led. A workspace at its repository's root, or under no node_modules, is copied alone.
import { promises as fsp } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { isInside } from '../files/pathSafety';
import { secretPattern } from '../workspace/secretNames';

/** How far above the workspace the checks may need folders: `packages/<scope>/<name>/` is three levels. */
export const MAX_LEVELS = 5;
/** Files of an ancestor folder larger than this are linked rather than copied (a data file, a lock file of many MB). */
const MAX_FILE_BYTES = 256 * 1024;
/** Version control folders: left out of the ancestors, as of the copy (./scratch.ts). */
export const VERSION_CONTROL: readonly string[] = ['.git', '.hg', '.svn'];
const SKIPPED = new Set(VERSION_CONTROL);

const HOME = path.resolve(os.homedir());

/** The names of the folders the checks make in the OS temp folder: a scratch copy (`cape-checks-…`), cargo's builds. */
export const SCRATCH_PREFIX = 'cape-checks-';
export const CARGO_TARGET_FOLDER = 'cape-cargo-target';

/**
 * Whether the folder `name` of `dir` is one the checks made in the OS temp folder (a scratch copy, being made too):
 * where that lies inside the tree copied (TMPDIR in the workspace), a copy of it would copy itself until its path is
 * too long.
 */
export async function isOursInTemp(dir: string, name: string): Promise<boolean> {
  if (!name.startsWith(SCRATCH_PREFIX) && name !== CARGO_TARGET_FOLDER) return false;
  const real = (p: string) => fsp.realpath(p).catch(() => path.resolve(p));
  return (await real(dir)) === (await real(os.tmpdir()));
}

/** Whether `p` is a folder (following links); false when it is not there. */
export const isDir = (p: string): Promise<boolean> => fsp.stat(p).then((st) => st.isDirectory(), () => false);

/** Whether a folder is a repository's root: it holds `.git`, a folder or, in a worktree or a submodule, a file. */
const isRepoRoot = (dir: string): Promise<boolean> => fsp.lstat(path.join(dir, '.git')).then(() => true, () => false);

/** A link to a folder (a junction on Windows, which needs no privilege). */
export function linkFolder(target: string, at: string): Promise<void> {
  return fsp.symlink(target, at, process.platform === 'win32' ? 'junction' : 'dir');
}

/** A folder of scoped packages (`@acme/`) or of installed programs (`.bin/`), whose entries are links themselves. */
export const isEntryFolder = (name: string): boolean => name.startsWith('@') || name === '.bin';

/**
 * The folders above the workspace the checks may look in, nearest first: at most MAX_LEVELS, never the home folder
 * or the file system's root, and none past the repository's root (the folder holding `.git`); `atRepoRoot` when the
 * last of them is that root. None for a workspace at its repository's root. The one climb of ancestorPath and
 * foldersUpToRepoRoot.
 */
async function foldersAbove(workspace: string): Promise<{ folders: string[]; atRepoRoot: boolean }> {
  let cur = path.resolve(workspace);
  const folders: string[] = [];
  if (await isRepoRoot(cur)) return { folders, atRepoRoot: false };
  for (let level = 1; level <= MAX_LEVELS; level++) {
    const up = path.dirname(cur);
    // never the file system's root or the user's home folder: a node_modules there is no project's
    if (up === cur || up === path.dirname(up) || up === HOME) break;
    folders.push(up);
    cur = up;
    if (await isRepoRoot(cur)) return { folders, atRepoRoot: true };
  }
  return { folders, atRepoRoot: false };
}

/**
 * The workspace's path below the top ancestor the checks need (see the header), as folder names; [] when none is
 * needed (no ancestor has a node_modules folder, or the workspace is the repository root).
 */
export async function ancestorPath(workspace: string): Promise<string[]> {
  const { folders } = await foldersAbove(workspace);
  let top: string | null = null;
  for (const dir of folders) if (await isDir(path.join(dir, 'node_modules'))) top = dir;
  return top === null ? [] : path.relative(top, path.resolve(workspace)).split(path.sep);
}

/**
 * The folders above the workspace up to its repository's root, nearest first, for a workspace that is a folder inside
 * a repository (a package of a monorepo, where a Python project keeps one virtual environment at the root): [] for a
 * repository's root, and where no repository root is found within MAX_LEVELS — a folder above that is no project's.
 * Never the home folder (a dotfiles repository there holds no project) or the file system's root.
 */
export async function foldersUpToRepoRoot(workspace: string): Promise<string[]> {
  const { folders, atRepoRoot } = await foldersAbove(workspace);
  return atRepoRoot ? folders : [];
}

/**
 * Builds the ancestors `below` (ancestorPath) of `workspace` under `root`, each level as the header says, and returns
 * the folder the workspace is to be copied into (`root/<below…>`, created empty). `copyFolder` makes each other folder
 * of those levels (a copy, or a link).
 */
export async function mirrorAncestors(workspace: string, below: readonly string[], root: string, copyFolder: (src: string, dest: string) => Promise<void>): Promise<string> {
  const ws = path.resolve(workspace);
  let src = ws;
  for (let i = 0; i < below.length; i++) src = path.dirname(src);
  const realTop = await fsp.realpath(src).catch(() => src);
  let dest = root;
  for (const seg of below) {
    for (const e of await fsp.readdir(src, { withFileTypes: true }).catch(() => [])) {
      if (e.name === seg || SKIPPED.has(e.name) || (await isOursInTemp(src, e.name))) continue;
      const s = path.join(src, e.name);
      const d = path.join(dest, e.name);
      if (e.isDirectory() && e.name === 'node_modules') await relinkModules(s, d, realTop, root, true);
      else if (e.isDirectory()) await copyFolder(s, d);
      else if (e.isFile()) {
        const size = await fsp.stat(s).then((st) => st.size, () => Infinity);
        const copy = size <= MAX_FILE_BYTES && secretPattern(e.name) === null;
        await (copy ? fsp.copyFile(s, d) : fsp.symlink(s, d)).catch(() => undefined);
      } else if (e.isSymbolicLink()) await fsp.symlink(await fsp.realpath(s).catch(() => s), d).catch(() => undefined);
    }
    src = path.join(src, seg);
    dest = path.join(dest, seg);
    await fsp.mkdir(dest);
  }
  return dest;
}

/**
 * An ancestor's node_modules as links: each package to where it is, but a package of the mirrored tree (inside
 * `realTop`, the top ancestor's real path: the workspace, a sibling package) to its copy under `copy`; scope folders
 * (`@acme/`) and `.bin/` the same way one level down.
 */
async function relinkModules(src: string, dest: string, realTop: string, copy: string, top: boolean): Promise<void> {
  await fsp.mkdir(dest);
  for (const e of await fsp.readdir(src, { withFileTypes: true }).catch(() => [])) {
    const s = path.join(src, e.name);
    const d = path.join(dest, e.name);
    if (top && e.isDirectory() && isEntryFolder(e.name)) {
      await relinkModules(s, d, realTop, copy, false);
      continue;
    }
    if (e.isFile()) {
      await fsp.copyFile(s, d).catch(() => undefined); // the package manager's own records, small
      continue;
    }
    if (!e.isDirectory() && !e.isSymbolicLink()) continue;
    const target = e.isSymbolicLink() ? await fsp.realpath(s).catch(() => null) : s;
    if (target === null) continue; // a dangling link resolves nowhere in the user's tree either
    // an installed package (this node_modules' own, or any other's) stays the user's; a package of the tree, its copy
    const rel = path.relative(realTop, target);
    const ofTree = isInside(realTop, target) && !rel.split(path.sep).includes('node_modules');
    const to = ofTree ? path.join(copy, rel) : target;
    const dir = await isDir(target);
    await (dir ? linkFolder(to, d) : fsp.symlink(to, d, 'file')).catch(() => undefined);
  }
}
