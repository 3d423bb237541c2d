// What the scratch copy (./scratch.ts) copies of a tree, and what it links or leaves out: installed dependencies
// (LINKED_DEPENDENCY_DIRS) are linked, entry by entry when they link packages of the mirrored tree (npm, yarn and pnpm
// workspaces), so those resolve to the copy; version control and the caches tools rebuild (SKIPPED), the build folders
// of BUILD_FOLDERS and what cannot be read (UNCOPIABLE) are left out. measureTree tells what such a copy would hold,
// for what is copied only within a bound: the workspace (copyLimit.ts), the folders beside a monorepo package
// (scratch.ts).
import { promises as fsp, constants as fsc, type Dirent } from 'fs';
import * as path from 'path';
import { isInside } from '../files/pathSafety';
import { capeFolderKey } from '../model/types';
import { VENVS } from './projectProbes';
import { isEntryFolder, isOursInTemp, linkFolder, VERSION_CONTROL } from './scratchAncestors';
import type { TreeSize } from './types';

/** Folder names linked rather than copied, at any depth: installed dependencies, too big and not changed by DevA. */
export const LINKED_DEPENDENCY_DIRS: ReadonlySet<string> = new Set([
  'node_modules',
  'bower_components',
  ...VENVS,
  '.tox',
  'vendor',
  'Pods',
  '.gradle',
]);

/** Left out of the copy entirely, at any depth (the cape folder is added by the caller): version control, caches. */
export const SKIPPED: ReadonlySet<string> = new Set([...VERSION_CONTROL, '__pycache__', '.pytest_cache', '.mypy_cache', '.ruff_cache']);

/** What a copy of the workspace leaves out (copyTree's `skip`): SKIPPED at any depth, and the cape folder (capeFolderKey) at its place. */
export function workspaceSkip(capeFolder: string): (rel: string, name: string) => boolean {
  const cape = capeFolderKey(capeFolder);
  return (rel, name) => SKIPPED.has(name) || rel === cape;
}

/**
 * Build output folders, left out of the copy when the build file that writes them is beside them (a `target/` or
 * `build/` without one may be source): what the build writes, often hundreds of MB, which the checks rebuild from the
 * copied sources (a CMake build folder also names the source folder it was configured for: a copy of it is no
 * build of the copy's). .NET's `obj/` is copied: it holds the restore's record, without which `dotnet test` would restore
 * again, and that can need the network.
 */
const BUILD_FOLDERS: readonly { name: string; builtBy: RegExp }[] = [
  { name: 'target', builtBy: /^(Cargo\.toml|pom\.xml)$/ },
  { name: 'build', builtBy: /^(build\.gradle(\.kts)?|CMakeLists\.txt)$/ },
  { name: 'bin', builtBy: /\.(cs|fs|vb)proj$/ },
];

/** Whether `name`, a folder among `siblings` (the names in its parent folder), is a build folder (BUILD_FOLDERS). */
export function isBuildFolder(name: string, siblings: readonly string[]): boolean {
  const b = BUILD_FOLDERS.find((f) => f.name === name);
  return !!b && siblings.some((s) => b.builtBy.test(s));
}

/**
 * What the copy leaves out rather than fail on: a folder or file the user may not read (a container's data volume of
 * another user), or one removed between listing and copying (what a running dev server or watcher rewrites).
 */
const UNCOPIABLE = new Set(['EACCES', 'EPERM', 'ENOENT']);

/**
 * Copies `src` (the folder `rel` of the tree being copied) to `dest`, but what `skip` says and what cannot be read
 * (UNCOPIABLE). `region` is the part of the user's tree the scratch copy mirrors (the workspace, or for a package of a
 * monorepo the top ancestor: scratchAncestors.ts): a dependency folder linking a package inside it is rebuilt so the
 * link leads to that package's copy.
 */
export async function copyTree(region: string, src: string, dest: string, skip: (rel: string, name: string) => boolean, rel: string, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) throw new Error('cancelled');
  const entries = await fsp.readdir(src, { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    if (rel && UNCOPIABLE.has(e.code ?? '')) return null;
    throw e;
  });
  if (!entries) return;
  await fsp.mkdir(dest, { recursive: true });
  const names = entries.map((e) => e.name);
  for (const e of entries) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    const s = path.join(src, e.name);
    const d = path.join(dest, e.name);
    switch (planEntry(e, names, skip(r, e.name))) {
      case 'folder':
        if (await isOursInTemp(src, e.name)) break;
        await copyTree(region, s, d, skip, r, signal);
        break;
      case 'dependencies':
        if (await linksWorkspacePackages(s, region)) await linkEntries(s, d, region, true);
        else await linkFolder(s, d);
        break;
      case 'file':
        await fsp.copyFile(s, d, fsc.COPYFILE_FICLONE).catch((err: NodeJS.ErrnoException) => {
          if (!UNCOPIABLE.has(err.code ?? '')) throw err;
        });
        break;
      case 'link':
        await copyLink(s, d, region);
        break;
    }
  }
}

/**
 * What the copy does with an entry of a folder (`names`: the folder's entries; `skipped`: the caller's rule left it
 * out): leaves it out (and a build folder, BUILD_FOLDERS), copies a folder or a file, links a dependency folder
 * (LINKED_DEPENDENCY_DIRS), keeps a link as a link. Sockets, FIFOs and devices are left out. The one rule of copyTree
 * and measureTree.
 */
function planEntry(e: Dirent, names: readonly string[], skipped: boolean): 'leave' | 'folder' | 'dependencies' | 'file' | 'link' {
  if (skipped) return 'leave';
  if (e.isDirectory()) return isBuildFolder(e.name, names) ? 'leave' : LINKED_DEPENDENCY_DIRS.has(e.name) ? 'dependencies' : 'folder';
  return e.isFile() ? 'file' : e.isSymbolicLink() ? 'link' : 'leave';
}

/** Whether the relative path `to`, followed from the folder `from` inside `region`, never climbs above the region. */
function staysWithin(region: string, from: string, to: string): boolean {
  let depth = path.relative(region, from).split(path.sep).filter(Boolean).length;
  for (const seg of to.split(/[\\/]/)) {
    if (seg === '..' && --depth < 0) return false;
    if (seg && seg !== '.' && seg !== '..') depth++;
  }
  return true;
}

/**
 * A link kept as a link: an absolute one as it is, a relative one that stays inside `region` (the part of the user's
 * tree the copy mirrors) on its way as it is too, so it resolves inside the copy. A relative one that climbs out of
 * the region (`shared -> ../shared`, or `../ws/x` from the workspace's top, whose name the copy's top does not have)
 * leads to the same place in the user's tree, made absolute, as the links above the workspace do
 * (scratchAncestors.ts): kept relative, it would resolve beside the copy, in the OS temp folder, where anyone may have
 * put something.
 */
async function copyLink(src: string, dest: string, region: string): Promise<void> {
  try {
    const to = await fsp.readlink(src);
    const from = path.dirname(src);
    await fsp.symlink(path.isAbsolute(to) || staysWithin(region, from, to) ? to : path.resolve(await fsp.realpath(from), to), dest);
  } catch {
    /* a link that cannot be read or made is left out */
  }
}

/**
 * Whether a dependency folder links a package of the mirrored region outside it (`node_modules/@acme/bar ->
 * ../../packages/bar`): linked whole, such a package would resolve to the user's tree, not the copy the proposal is in.
 */
async function linksWorkspacePackages(dir: string, region: string): Promise<boolean> {
  const inside = (p: string, root: string) => isInside(root, p, { strict: true });
  const look = async (folder: string, top: boolean): Promise<boolean> => {
    for (const e of await fsp.readdir(folder, { withFileTypes: true }).catch(() => [])) {
      const p = path.join(folder, e.name);
      if (top && e.isDirectory() && e.name.startsWith('@') && (await look(p, false))) return true;
      if (!e.isSymbolicLink()) continue;
      const to = await fsp.readlink(p).catch(() => null);
      if (to !== null && inside(path.resolve(folder, to), region) && !inside(path.resolve(folder, to), dir)) return true;
    }
    return false;
  };
  return look(dir, true);
}

/**
 * A dependency folder rebuilt of links to its entries (linksWorkspacePackages said why): each package linked to the
 * user's, its files (the package manager's records) copied, each link kept as the same link — a workspace package's
 * relative link then leads to its copy — and scope and `.bin` folders rebuilt the same way one level down.
 */
async function linkEntries(src: string, dest: string, region: string, top: boolean): Promise<void> {
  await fsp.mkdir(dest);
  for (const e of await fsp.readdir(src, { withFileTypes: true })) {
    const s = path.join(src, e.name);
    const d = path.join(dest, e.name);
    if (e.isSymbolicLink()) await copyLink(s, d, region);
    else if (top && e.isDirectory() && isEntryFolder(e.name)) await linkEntries(s, d, region, false);
    else if (e.isDirectory()) await linkFolder(s, d);
    else if (e.isFile()) await fsp.copyFile(s, d); // the package manager's own records, small
  }
}

/**
 * What copyTree would copy of `src` (by its rule, planEntry, with the same `skip` and `rel`; dependency folders and
 * links are linked, so not counted), counted until it passes `limit`: the figures then are past it, not the whole.
 */
export async function measureTree(src: string, skip: (rel: string, name: string) => boolean, limit: TreeSize, rel: string): Promise<TreeSize> {
  const size: TreeSize = { files: 0, bytes: 0 };
  const walk = async (dir: string, rel: string): Promise<void> => {
    const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
    const names = entries.map((e) => e.name);
    for (const e of entries) {
      if (size.files > limit.files || size.bytes > limit.bytes) return;
      const r = rel ? `${rel}/${e.name}` : e.name;
      const plan = planEntry(e, names, skip(r, e.name));
      if (plan === 'folder' && !(await isOursInTemp(dir, e.name))) await walk(path.join(dir, e.name), r);
      else if (plan === 'file') {
        size.files++;
        size.bytes += await fsp.stat(path.join(dir, e.name)).then((st) => st.size, () => 0);
      }
    }
  };
  await walk(src, rel);
  return size;
}
