// The scratch copy the checks run in: the workspace copied into a new folder of the OS temp dir, with DevA's
// proposed files written over it. The user's tree is never written. What is copied, linked (installed dependencies)
// or left out (version control, the cape folder, caches, build output) is scratchCopy.ts's. Cargo builds into a
// folder of ours in the OS temp dir instead, one per workspace, kept between runs and sessions so only the project's
// own crate is rebuilt (Scratch.env, for the workspace's crate or that of a folder a check runs in: `cd engine && …`);
// a package inside a monorepo keeps its place under the folders it draws on (the hoisted node_modules, the shared
// configuration, its sibling packages: scratchAncestors.ts); a Python package the project's virtual environment
// installed editable from the workspace (`pip install -e .`, a .pth naming `src/`) is imported from the copy, by
// PYTHONPATH (the environment of a folder a check runs in too). The caller names the folders its checks run in
// (runFolder.ts runFolders): the workspace is not scanned for sub-projects per copy. DevA's files are written over the
// copy by scratchOverlay.ts: a linked folder one lands in is copied first, within BESIDE_COPY_LIMIT; what cannot be
// written is said, never written through a link. A copy still there when the process exits or a signal ends it is
// removed then (processEnd.ts): it holds the workspace's files, `.env` and other secrets among them.
import { createHash } from 'crypto';
import { promises as fsp } from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { ProposedFile } from '../model/types';
import { isInside } from '../files/pathSafety';
import { VENVS } from './projectProbes';
import { ancestorPath, CARGO_TARGET_FOLDER, foldersUpToRepoRoot, isDir, linkFolder, mirrorAncestors, SCRATCH_PREFIX } from './scratchAncestors';
import { copyTree, LINKED_DEPENDENCY_DIRS, measureTree, SKIPPED, workspaceSkip } from './scratchCopy';
import type { NotWritten, TreeSize } from './types';
import { notCopiedReason, WORKSPACE_COPY_LIMIT } from './copyLimit';
import { untilProcessEnd } from './processEnd';
import { removeCopy, removeCopySync } from './scratchRemove';
import { overlayProposals } from './scratchOverlay';

/** Whether a folder holds a Rust project (a Cargo.toml). */
function hasCargoToml(dir: string): Promise<boolean> {
  return fsp.access(path.join(dir, 'Cargo.toml')).then(
    () => true,
    () => false,
  );
}

export interface Scratch {
  dir: string;
  /**
   * Writes the proposals (status 'proposed' with a relPath) over the copy; returns the files not written and why
   * (scratchOverlay.ts).
   */
  overlay(files: readonly ProposedFile[]): Promise<NotWritten[]>;
  /**
   * Removes the copy (links are removed, never followed), folders a check made read-only too; throws, naming the
   * folder left, when it cannot (disposeScratch reports that).
   */
  dispose(): Promise<void>;
  /**
   * Environment the checks run with in this copy, beside the process's own (a Rust project's CARGO_TARGET_DIR, the
   * PYTHONPATH of editable installs).
   */
  env: Record<string, string>;
}

/**
 * Where cargo builds a Rust workspace's checks: a folder of ours in the OS temp dir, the same for every copy of that
 * workspace, so the dependencies compiled once are reused (the user's own `target/` is never written). None when
 * neither the workspace nor a folder a check runs in (`projects`, absolute) has a Cargo.toml, or
 * the user chose a target folder (CARGO_TARGET_DIR) already.
 */
export async function checksBuildEnv(workspace: string, projects: readonly string[] = []): Promise<Record<string, string>> {
  if (process.env.CARGO_TARGET_DIR || !(await Promise.all([workspace, ...projects].map(hasCargoToml))).some(Boolean)) return {};
  const id = createHash('sha256').update(await fsp.realpath(workspace)).digest('hex').slice(0, 16);
  return { CARGO_TARGET_DIR: path.join(os.tmpdir(), CARGO_TARGET_FOLDER, id) };
}

/**
 * Where the project's virtual environments (VENVS: those detect.ts runs — the workspace's, those of the folders the
 * checks run in, `projects`, and for a package of a monorepo those up to its repository's root) install packages.
 */
async function venvSitePackages(workspace: string, projects: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const dir of [workspace, ...projects, ...(await foldersUpToRepoRoot(workspace))]) {
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
 * The folders a setuptools editable finder module (`__editable___calc_0_1_finder.py`) imports its packages from: its
 * `MAPPING = {'calc': '/ws/src/calc', 'calc.sub': …}` read as text (never run), each package's folder less one level
 * per part of its dotted name. Its finder comes after Python's own search of the path, so these folders' copies on
 * PYTHONPATH are what is imported.
 */
export function finderRoots(source: string): string[] {
  const mapping = /^MAPPING\s*(?::[^=\n]*)?=\s*\{(.*)\}\s*$/m.exec(source);
  if (!mapping) return [];
  const roots: string[] = [];
  // eslint-disable-next-line regexp/no-super-linear-move -- one line of setuptools' generated finder module, a few packages long
  for (const m of mapping[1].matchAll(/(['"])(.*?)\1\s*:\s*(['"])(.*?)\3/g)) {
    let dir = m[4].replace(/\\\\/g, '\\'); // the repr of a Windows path doubles its backslashes
    for (let i = 0; i < m[2].split('.').length; i++) dir = path.dirname(dir);
    if (path.isAbsolute(dir)) roots.push(dir);
  }
  return roots;
}

/**
 * Workspace folders the project's virtual environment imports from its real place (a .pth naming them, as `pip install
 * -e .` leaves for a src layout with setuptools, hatch, pdm, poetry or flit; setuptools' finder module, finderRoots —
 * and the user's own PYTHONPATH), put first on PYTHONPATH as their copies: else the checks would import the user's
 * unchanged code, never the proposal.
 */
export async function editableSourcesEnv(workspace: string, copy: string, projects: readonly string[] = []): Promise<Record<string, string>> {
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
  for (const site of await venvSitePackages(workspace, projects)) {
    const names = await fsp.readdir(site).catch(() => [] as string[]);
    for (const pth of names.filter((f) => f.endsWith('.pth'))) {
      // a .pth line is a folder to add, unless it imports (runs code) or is a comment
      const text = await fsp.readFile(path.join(site, pth), 'utf8').catch(() => '');
      for (const line of text.split(/\r?\n/)) if (line.trim() && !/^(#|import\s)/.test(line)) named.push(path.resolve(site, line.trim()));
    }
    // setuptools' other editable form: a finder module mapping each package to its folder, installed by a .pth's import
    for (const finder of names.filter((f) => /^__editable__.*finder\.py$/.test(f))) {
      named.push(...finderRoots(await fsp.readFile(path.join(site, finder), 'utf8').catch(() => '')));
    }
  }
  const own = (process.env.PYTHONPATH ?? '').split(path.delimiter).filter(Boolean);
  const copies = [...new Set([...named, ...own].map(inCopy).filter((p): p is string => p !== null))];
  const exists = await Promise.all(copies.map(isDir));
  const first = copies.filter((_, i) => exists[i]);
  return first.length ? { PYTHONPATH: [...first, ...own].join(path.delimiter) } : {};
}

/**
 * How much of the folders beside a monorepo package (its sibling packages, the repository's other folders) the copy
 * takes, in all: a folder past this is linked, as the rest of the user's tree, rather than copy a large repository for
 * every check run. And the most a linked dependency folder may hold to be copied when a proposed file lands in it
 * (scratchOverlay.ts).
 */
export const BESIDE_COPY_LIMIT: TreeSize = { files: 10_000, bytes: 100 * 1024 * 1024 };

/**
 * Copies a folder beside the workspace (scratchAncestors.ts) while the copies stay within BESIDE_COPY_LIMIT, in all;
 * links it past that. `region` is the top ancestor.
 */
function besideCopier(region: string, limit: TreeSize, signal?: AbortSignal): (src: string, dest: string) => Promise<void> {
  const left: TreeSize = { ...limit };
  const skip = (_rel: string, name: string) => SKIPPED.has(name);
  return async (src, dest) => {
    const size = await measureTree(src, skip, left, path.basename(src));
    if (size.files > left.files || size.bytes > left.bytes) {
      await linkFolder(src, dest);
      return;
    }
    left.files -= size.files;
    left.bytes -= size.bytes;
    // named by its folder, so a part it may not read is left out as in the workspace (copyTree's UNCOPIABLE)
    await copyTree(region, src, dest, skip, path.basename(src), signal);
  };
}

/**
 * Why the workspace is too large to copy for the checks (copyLimit.ts), measured as createScratch would copy it,
 * before anything is copied; null when it is within `limit`.
 */
export async function copyTooLarge(workspace: string, capeFolder: string, limit: TreeSize = WORKSPACE_COPY_LIMIT): Promise<string | null> {
  return notCopiedReason(await measureTree(workspace, workspaceSkip(capeFolder), limit, ''), limit);
}

/** Scratch.env for a copy of the workspace at `copy`: its own needs and those of the workspace `folders` checks run in. */
async function scratchEnv(workspace: string, folders: readonly string[], copy: string): Promise<Record<string, string>> {
  const projects = folders.map((f) => path.join(workspace, ...f.split('/')));
  return { ...(await checksBuildEnv(workspace, projects)), ...(await editableSourcesEnv(workspace, copy, projects)) };
}

/**
 * Copies the workspace (without .git and `capeFolder`) into a new temp folder; `besideLimit` (BESIDE_COPY_LIMIT by
 * default) bounds what is copied of the folders beside a monorepo package; `folders`, the workspace folders the checks
 * run in (runFolders of their commands: `cd backend && …`), whose crates and editable installs Scratch.env serves too.
 * The workspace itself is copied whole: the check loop measures it first (copyTooLarge).
 */
export async function createScratch(
  workspace: string,
  opts: { capeFolder: string; signal?: AbortSignal; besideLimit?: TreeSize; folders?: readonly string[] },
): Promise<Scratch> {
  const top = await fsp.mkdtemp(path.join(os.tmpdir(), SCRATCH_PREFIX));
  // removed, whatever is running in it, if the process ends first (processEnd.ts): it holds the workspace's files
  const release = untilProcessEnd(() => removeCopySync(top));
  const dispose = () => removeCopy(top).finally(release);
  let real: string;
  let region = path.resolve(workspace);
  try {
    // a package inside a monorepo keeps its place under the folders it draws on (scratchAncestors.ts)
    const below = await ancestorPath(workspace);
    for (let i = 0; i < below.length; i++) region = path.dirname(region);
    const dir = await mirrorAncestors(workspace, below, top, besideCopier(region, opts.besideLimit ?? BESIDE_COPY_LIMIT, opts.signal));
    real = await fsp.realpath(dir);
    await copyTree(region, workspace, dir, workspaceSkip(opts.capeFolder), '', opts.signal);
  } catch (e) {
    await dispose().catch(() => undefined); // the copy's error is the one to tell
    throw e;
  }
  return {
    dir: real,
    dispose,
    env: await scratchEnv(workspace, opts.folders ?? [], real),
    overlay: (files) => overlayProposals({ workspace, copy: real, region, capeFolder: opts.capeFolder, limit: opts.besideLimit ?? BESIDE_COPY_LIMIT, signal: opts.signal }, files),
  };
}

/**
 * Removes a scratch copy (none: nothing to do); one left behind is said to `warn` — it may hold copies of the
 * workspace's files, secrets among them — never thrown: the checks' verdict stands.
 */
export async function disposeScratch(scratch: Pick<Scratch, 'dispose'> | undefined, warn?: (message: string) => void): Promise<void> {
  try {
    await scratch?.dispose();
  } catch (e) {
    warn?.(`${(e as Error).message}; remove it by hand: it holds a copy of the workspace's files.`);
  }
}
