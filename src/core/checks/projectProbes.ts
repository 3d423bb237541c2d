// What the detection of a project's checks (detect.ts) and of its formatter (formatters.ts) asks of a workspace,
// reading and never running anything: whether a file is there, a project file's text or JSON, where its installed
// packages may be (its node_modules and those above it in a monorepo), a program of its virtual environment (its own,
// one up to the workspace's root for a sub-project, or one up to the repository's root), and a program on PATH.
import { promises as fsp } from 'fs';
import * as path from 'path';
import which from 'which';
import { shellWord } from '../text/shell';
import { ancestorPath, foldersUpToRepoRoot } from './scratchAncestors';

/** Whether a path exists (anything there, readable or not). */
export async function exists(p: string): Promise<boolean> {
  return fsp.access(p).then(
    () => true,
    () => false,
  );
}

/** The first of these workspace-relative files that exists (its name is the detected command's reason), else null. */
export async function firstIn(workspace: string, names: readonly string[]): Promise<string | null> {
  for (const name of names) if (await exists(path.join(workspace, name))) return name;
  return null;
}

/**
 * A project file's text without a leading byte-order mark (which an editor on Windows may write: JSON.parse refuses
 * it, and a section at the first line would not be at a line's start), or '' when it cannot be read.
 */
export async function readText(p: string): Promise<string> {
  return (await fsp.readFile(p, 'utf8').catch(() => '')).replace(/^\uFEFF/, '');
}

/** The names make looks for, in the order it reads them (GNU make: the first one present is the Makefile). */
const MAKEFILE_NAMES: readonly string[] = ['GNUmakefile', 'makefile', 'Makefile'];

/** The Makefile make would read in this folder, as named there, or null when there is none. */
export async function makefileIn(dir: string): Promise<string | null> {
  const names = new Set(await fsp.readdir(dir).catch(() => [] as string[]));
  return MAKEFILE_NAMES.find((n) => names.has(n)) ?? null;
}

/** A project's JSON file (package.json) parsed, by readText; throws when it is missing or not JSON. */
export async function readJson(p: string): Promise<unknown> {
  return JSON.parse(await readText(p)) as unknown;
}

/**
 * Where the project's installed packages may be, relative to the workspace and nearest first: its own node_modules,
 * then, for a package inside a monorepo, those of the folders above it that the scratch copy keeps
 * (scratchAncestors.ts), as path segments (`['..', 'node_modules']`).
 */
export async function nodeModulesUp(workspace: string): Promise<string[][]> {
  const levels = (await ancestorPath(workspace)).length;
  return Array.from({ length: levels + 1 }, (_, up) => [...Array<string>(up).fill('..'), 'node_modules']);
}

/** The project's virtual environments, where its Python tools are installed (scratch.ts links them and reads their site-packages). */
export const VENVS: readonly string[] = ['.venv', 'venv'];

/**
 * The ways up from a project's folder `dir` to the workspace's `root`, nearest first: `[]` (the folder itself), `['..']`,
 * `['..', '..']`… one per level (only `[]` for the root itself). The one count of a sub-project's levels for the
 * lookups that climb it (a virtual environment, a build wrapper, a formatter's settings).
 */
export function levelsUpTo(dir: string, root: string): string[][] {
  const levels = path.relative(path.resolve(root), path.resolve(dir)).split(path.sep).filter(Boolean).length;
  return Array.from({ length: levels + 1 }, (_, i) => Array<string>(i).fill('..'));
}

/**
 * A program of the project's virtual environment: the one in its folder `dir`, as a relative path (the checks run in a
 * copy of the workspace, where the environment is linked); else — for a sub-project of the workspace `root` — one in
 * a folder above it up to `root`, as a relative path too (`../.venv/bin/python`: a uv workspace keeps its members'
 * environment at its root); else — for a package of a monorepo — one at a folder above the workspace up to the
 * repository's root, by its absolute path (outside the copy); null when there is none.
 */
export async function venvProgram(dir: string, names: readonly string[], root: string = dir): Promise<string | null> {
  const win = process.platform === 'win32';
  const inVenv = (v: string, name: string) => (win ? `${v}\\Scripts\\${name}.exe` : `${v}/bin/${name}`);
  for (const above of levelsUpTo(dir, root)) {
    for (const name of names) {
      for (const v of VENVS) if (await exists(path.join(dir, ...above, inVenv(v, name)))) return [...above, inVenv(v, name)].join(win ? '\\' : '/');
    }
  }
  for (const above of await foldersUpToRepoRoot(root)) {
    for (const name of names) {
      for (const v of VENVS) {
        const abs = path.join(above, inVenv(v, name));
        if (await exists(abs)) return shellWord(abs);
      }
    }
  }
  return null;
}

/** The first of the names that is a program on PATH; null when none is. */
export async function onPath(names: readonly string[]): Promise<string | null> {
  for (const name of names) if (await which(name, { nothrow: true })) return name;
  return null;
}

/** A Python tool of the project in `dir`: the virtual environment's (venvProgram), else the one on PATH (null when neither has one). */
export const pythonTool = async (dir: string, names: readonly string[], root: string = dir) => (await venvProgram(dir, names, root)) ?? (await onPath(names));
