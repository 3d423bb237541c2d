// The scratch copy the checks run in: the workspace copied into a new folder of the OS temp dir, with DevA's
// proposed files written over it. The user's tree is never written. Dependency folders (node_modules, virtual
// environments, vendor trees) are linked, not copied — entry by entry when they link workspace packages (npm, yarn
// and pnpm workspaces), so those resolve to the copy; .git, the cape folder, the caches tools rebuild (`__pycache__`,
// pytest's, mypy's and ruff's caches), the build folders of BUILD_FOLDERS (Rust's, Maven's `target/`, Gradle's
// `build/`, .NET's `bin/`) and what cannot be read (UNCOPIABLE) are left out. Cargo builds into a folder of ours in
// the OS temp dir instead, one per workspace, kept between runs and sessions so only the project's own crate is
// rebuilt (Scratch.env); a package inside a monorepo keeps its place under the folders it draws on (the hoisted
// node_modules, the shared configuration: scratchAncestors.ts); a Python package the project's virtual environment installed editable from the workspace
// (`pip install -e .`, a .pth naming `src/`) is imported from the copy, by PYTHONPATH. A proposed file that would land
// inside a linked folder (and so in the user's real dependencies) is not written, and said so.
import { createHash } from 'crypto';
import { promises as fsp, constants as fsc } from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { ProposedFile } from '../model/types';
import { isInside } from '../files/pathSafety';
import { VENVS } from './detect';
import { ancestorPath, foldersUpToRepoRoot, isDir, isEntryFolder, mirrorAncestors, VERSION_CONTROL } from './scratchAncestors';

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
const SKIPPED = new Set([...VERSION_CONTROL, '__pycache__', '.pytest_cache', '.mypy_cache', '.ruff_cache']);

/** Whether a folder holds a Rust project (a Cargo.toml). */
function hasCargoToml(dir: string): Promise<boolean> {
  return fsp.access(path.join(dir, 'Cargo.toml')).then(
    () => true,
    () => false,
  );
}

/**
 * Build output folders, left out of the copy when the build file that writes them is beside them (a `target/` or
 * `build/` without one may be source): what the build writes, often hundreds of MB, which the checks rebuild from the
 * copied sources. .NET's `obj/` is copied: it holds the restore's record, without which `dotnet test` would restore
 * again, and that can need the network.
 */
const BUILD_FOLDERS: readonly { name: string; builtBy: RegExp }[] = [
  { name: 'target', builtBy: /^(Cargo\.toml|pom\.xml)$/ },
  { name: 'build', builtBy: /^build\.gradle(\.kts)?$/ },
  { name: 'bin', builtBy: /\.(cs|fs|vb)proj$/ },
];

/** Whether `name`, a folder among `siblings` (the names in its parent folder), is a build folder (BUILD_FOLDERS). */
export function isBuildFolder(name: string, siblings: readonly string[]): boolean {
  const b = BUILD_FOLDERS.find((f) => f.name === name);
  return !!b && siblings.some((s) => b.builtBy.test(s));
}

export interface Scratch {
  dir: string;
  /** Writes the proposals (status 'proposed' with a relPath) over the copy; returns the paths not written and why. */
  overlay(files: ProposedFile[]): Promise<string[]>;
  /** Removes the copy (links are removed, never followed). */
  dispose(): Promise<void>;
  /**
   * Environment the checks run with in this copy, beside the process's own (a Rust project's CARGO_TARGET_DIR, the
   * PYTHONPATH of editable installs).
   */
  env: Record<string, string>;
}

/**
 * Where cargo builds a Rust workspace's checks: a folder of ours in the OS temp dir, the same for every copy of that
 * workspace, so the dependencies compiled once are reused (the user's own `target/` is never written). None when the
 * workspace has no Cargo.toml or the user chose a target folder (CARGO_TARGET_DIR) already.
 */
export async function checksBuildEnv(workspace: string): Promise<Record<string, string>> {
  if (process.env.CARGO_TARGET_DIR || !(await hasCargoToml(workspace))) return {};
  const id = createHash('sha256').update(await fsp.realpath(workspace)).digest('hex').slice(0, 16);
  return { CARGO_TARGET_DIR: path.join(os.tmpdir(), 'cape-cargo-target', id) };
}

/**
 * Where the project's virtual environments (VENVS: those detect.ts runs — the workspace's, and for a package of
 * a monorepo those up to its repository's root) install packages.
 */
async function venvSitePackages(workspace: string): Promise<string[]> {
  const out: string[] = [];
  for (const dir of [workspace, ...(await foldersUpToRepoRoot(workspace))]) {
    for (const v of VENVS) {
      out.push(path.join(dir, v, 'Lib', 'site-packages')); // Windows
      for (const d of await fsp.readdir(path.join(dir, v, 'lib')).catch(() => [] as string[])) {
        if (d.startsWith('python')) out.push(path.join(dir, v, 'lib', d, 'site-packages'));
      }
    }
  }
  return out;
}

/**
 * Workspace folders the project's virtual environment imports from its real place (a .pth naming them, as `pip install
 * -e .` leaves for a src layout with setuptools, hatch, pdm, poetry or flit — and the user's own PYTHONPATH), put first
 * on PYTHONPATH as their copies: else the checks would import the user's unchanged code, never the proposal.
 */
export async function editableSourcesEnv(workspace: string, copy: string): Promise<Record<string, string>> {
  const roots = [...new Set([path.resolve(workspace), await fsp.realpath(workspace).catch(() => path.resolve(workspace))])];
  const inCopy = (p: string) => {
    for (const root of roots) {
      if (!isInside(root, p, { strict: true })) continue;
      const r = path.relative(root, p);
      // a folder inside a linked one (a package pip put in .venv/src/) is the user's in the copy too
      return r.split(path.sep).some((d) => LINKED_DEPENDENCY_DIRS.has(d)) ? null : path.join(copy, r);
    }
    return null;
  };
  const named: string[] = [];
  for (const site of await venvSitePackages(workspace)) {
    for (const pth of (await fsp.readdir(site).catch(() => [] as string[])).filter((f) => f.endsWith('.pth'))) {
      // a .pth line is a folder to add, unless it imports (runs code) or is a comment
      const text = await fsp.readFile(path.join(site, pth), 'utf8').catch(() => '');
      for (const line of text.split(/\r?\n/)) if (line.trim() && !/^(#|import\s)/.test(line)) named.push(path.resolve(site, line.trim()));
    }
  }
  const own = (process.env.PYTHONPATH ?? '').split(path.delimiter).filter(Boolean);
  const copies = [...new Set([...named, ...own].map(inCopy).filter((p): p is string => p !== null))];
  const exists = await Promise.all(copies.map(isDir));
  const first = copies.filter((_, i) => exists[i]);
  return first.length ? { PYTHONPATH: [...first, ...own].join(path.delimiter) } : {};
}

/**
 * What the copy leaves out rather than fail on: a folder or file the user may not read (a container's data volume of
 * another user), or one removed between listing and copying (what a running dev server or watcher rewrites).
 */
const UNCOPIABLE = new Set(['EACCES', 'EPERM', 'ENOENT']);

/** Copies `src` (the folder `rel` of `workspace`) to `dest`, but what `skip` says and what cannot be read (UNCOPIABLE). */
async function copyTree(workspace: string, src: string, dest: string, skip: (rel: string, name: string) => boolean, rel: string, signal?: AbortSignal): Promise<void> {
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
    if (skip(r, e.name) || (e.isDirectory() && isBuildFolder(e.name, names))) continue;
    const s = path.join(src, e.name);
    const d = path.join(dest, e.name);
    if (e.isDirectory()) {
      if (!LINKED_DEPENDENCY_DIRS.has(e.name)) await copyTree(workspace, s, d, skip, r, signal);
      else if (await linksWorkspacePackages(s, workspace)) await linkEntries(s, d, true);
      else await fsp.symlink(s, d, process.platform === 'win32' ? 'junction' : 'dir');
    } else if (e.isFile()) {
      await fsp.copyFile(s, d, fsc.COPYFILE_FICLONE).catch((err: NodeJS.ErrnoException) => {
        if (!UNCOPIABLE.has(err.code ?? '')) throw err;
      });
    } else if (e.isSymbolicLink()) {
      await copyLink(s, d);
    }
    // sockets, FIFOs, devices: not copied
  }
}

/** A link kept as the same link: a relative one resolves inside the copy, an absolute one where it always did. */
function copyLink(src: string, dest: string): Promise<void> {
  return fsp
    .readlink(src)
    .then((to) => fsp.symlink(to, dest))
    .catch(() => undefined);
}

/**
 * Whether a dependency folder links a package of the workspace outside it (`node_modules/@acme/bar ->
 * ../../packages/bar`): linked whole, such a package would resolve to the user's tree, not the copy the proposal is in.
 */
async function linksWorkspacePackages(dir: string, workspace: string): Promise<boolean> {
  const inside = (p: string, root: string) => isInside(root, p, { strict: true });
  const look = async (folder: string, top: boolean): Promise<boolean> => {
    for (const e of await fsp.readdir(folder, { withFileTypes: true }).catch(() => [])) {
      const p = path.join(folder, e.name);
      if (top && e.isDirectory() && e.name.startsWith('@') && (await look(p, false))) return true;
      if (!e.isSymbolicLink()) continue;
      const to = await fsp.readlink(p).catch(() => null);
      if (to !== null && inside(path.resolve(folder, to), workspace) && !inside(path.resolve(folder, to), dir)) return true;
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
async function linkEntries(src: string, dest: string, top: boolean): Promise<void> {
  await fsp.mkdir(dest);
  for (const e of await fsp.readdir(src, { withFileTypes: true })) {
    const s = path.join(src, e.name);
    const d = path.join(dest, e.name);
    if (e.isSymbolicLink()) await copyLink(s, d);
    else if (top && e.isDirectory() && isEntryFolder(e.name)) await linkEntries(s, d, false);
    else if (e.isDirectory()) await fsp.symlink(s, d, process.platform === 'win32' ? 'junction' : 'dir');
    else if (e.isFile()) await fsp.copyFile(s, d); // the package manager's own records, small
  }
}

/** Copies the workspace (without .git and `capeFolder`) into a new temp folder. */
export async function createScratch(workspace: string, opts: { capeFolder: string; signal?: AbortSignal }): Promise<Scratch> {
  const top = await fsp.mkdtemp(path.join(os.tmpdir(), 'cape-checks-'));
  const cape = opts.capeFolder.replace(/\\/g, '/').replace(/^\.\/|\/+$/g, '');
  const dispose = () => fsp.rm(top, { recursive: true, force: true, maxRetries: 3 });
  let real: string;
  try {
    // a package inside a monorepo keeps its place under the folders it draws on (scratchAncestors.ts)
    const dir = await mirrorAncestors(workspace, await ancestorPath(workspace), top);
    real = await fsp.realpath(dir);
    await copyTree(workspace, workspace, dir, (rel, name) => SKIPPED.has(name) || rel === cape, '', opts.signal);
  } catch (e) {
    await dispose();
    throw e;
  }
  return {
    dir: real,
    dispose,
    env: { ...(await checksBuildEnv(workspace)), ...(await editableSourcesEnv(workspace, real)) },
    async overlay(files) {
      const notWritten: string[] = [];
      for (const f of files) {
        if (f.status !== 'proposed' || !f.relPath) continue;
        const parts = f.relPath.split('/');
        const target = path.join(real, ...parts);
        // Each folder on the way must be a real folder of the copy (or not exist yet): never a link, which could
        // lead into the user's own dependencies or tree.
        const blocked = await linkOnTheWay(real, parts.slice(0, -1));
        if (blocked) {
          notWritten.push(`${f.relPath}: ${blocked} is a linked folder, so the file was not written to the scratch copy`);
          continue;
        }
        try {
          await fsp.mkdir(path.dirname(target), { recursive: true });
          // a file's mode stays (an executable script the checks run), as applying it keeps it (files/fsAtomic.ts)
          const mode = await fsp.lstat(target).then((st) => (st.isFile() ? st.mode & 0o777 : undefined), () => undefined);
          await fsp.rm(target, { force: true }); // a link in the copy is replaced, never followed
          await fsp.writeFile(target, f.content);
          if (mode !== undefined) await fsp.chmod(target, mode);
        } catch (e) {
          notWritten.push(`${f.relPath}: could not be written to the scratch copy (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
        }
      }
      return notWritten;
    },
  };
}

/** The first folder of `parts` (under root) that is a link or not a folder, as a relative path; null when none. */
async function linkOnTheWay(root: string, parts: string[]): Promise<string | null> {
  let cur = root;
  for (let i = 0; i < parts.length; i++) {
    cur = path.join(cur, parts[i]);
    let st;
    try {
      st = await fsp.lstat(cur);
    } catch {
      return null; // missing from here on: created inside the copy
    }
    if (st.isSymbolicLink() || !st.isDirectory()) return parts.slice(0, i + 1).join('/');
  }
  return null;
}
