// The sub-projects of a workspace, whose checks detect.ts gives for each language its root has none of: the folders
// one level down (`backend/`, `frontend/`, `api/`), then the folders two levels down that are members its root
// declares (workspace/members.ts: package.json's `workspaces`, pnpm-workspace.yaml, the uv, PDM or Hatch workspace of
// pyproject.toml, Cargo's `[workspace]`, go.work's `use`; a folder a `!` glob or an `exclude` leaves out is none). A
// folder the workspace read policy leaves out (ignored by a .gitignore, a dependency or tool folder, the cape folder,
// one holding credentials: workspace/policy.ts), a hidden one, a link, one the checks' copy links as installed
// dependencies (vendor/, venv/: scratchCopy.ts LINKED_DEPENDENCY_DIRS) and a build folder is no sub-project. Each
// language's detection runs on the folder by the same rules as on the root (detect.ts FAMILIES), its commands run in
// it (runFolder.ts: `cd backend && …`, their paths as they are from there) and their reasons name it
// (`backend/pyproject.toml [tool.ruff]`). At most MAX_SUBPROJECTS folders give checks, in the order above, none inside
// or around another (pickSubprojects: the one rule, which the formatters' sub-projects follow too, formatters.ts).
import { promises as fsp } from 'fs';
import * as path from 'path';
import { WorkspacePolicy } from '../workspace/policy';
import { declaredMembers, isMember, mayHoldMembers, MEMBER_FILES } from '../workspace/members';
import { isBuildFolder, LINKED_DEPENDENCY_DIRS } from './scratchCopy';
import { readText } from './projectProbes';
import { inFolder } from './runFolder';
import type { CheckCommand, DetectFamily, FoundChecks } from './types';

/** The most sub-projects whose checks are detected: each runs its whole suite in every round. */
export const MAX_SUBPROJECTS = 4;

/** The most sub-projects left out that the checks' announcement names (leftOutSubprojectsSaying). */
const NAMED_LEFT_OUT = 3;

/** The folders of a folder (not links to one), in name order; none when it cannot be read. */
async function foldersIn(dir: string): Promise<string[]> {
  const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/** The members the root declares (workspace/members.ts), its files read from the disk. */
async function rootMembers(root: string): Promise<string[]> {
  const texts = new Map(await Promise.all(MEMBER_FILES.map(async (f) => [f, await readText(path.join(root, f))] as const)));
  return declaredMembers((rel) => texts.get(rel) ?? null);
}

/** Whether a workspace folder (`/`-separated, a real folder: foldersIn lists no link) may be a sub-project (see the header). */
function mayBeProject(rel: string, policy: WorkspacePolicy, rootNames: readonly string[]): boolean {
  const parts = rel.split('/');
  if (parts.some((n) => n.startsWith('.') || LINKED_DEPENDENCY_DIRS.has(n)) || policy.excludedDir(rel) !== null) return false;
  return !isBuildFolder(parts[0], rootNames);
}

/** The workspace's folders that may be sub-projects, workspace-relative and `/`-separated, in the header's order. */
export async function subprojectFolders(root: string, capeFolder: string): Promise<string[]> {
  const policy = new WorkspacePolicy(root, { capeFolder });
  try {
    const entries = await fsp.readdir(root, { withFileTypes: true }).catch(() => []);
    const rootNames = entries.map((e) => e.name);
    const tops = entries
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    const declared = await rootMembers(root);
    const below = await Promise.all(tops.filter((top) => mayHoldMembers(top, declared)).map(async (top) => (await foldersIn(path.join(root, top))).map((n) => `${top}/${n}`)));
    const members = below.flat().filter((rel) => isMember(rel, declared));
    // tops are single names, members `top/name`: the two lists never overlap
    return [...tops, ...members].filter((rel) => mayBeProject(rel, policy, rootNames));
  } finally {
    policy.forget();
  }
}

/** A sub-project pickSubprojects took: its folder (workspace-relative, `/`-separated), and each detector's find there. */
export interface Subproject<T> {
  folder: string;
  found: T[];
}

/**
 * The sub-projects of `root` for a set of detectors (each language's checks, or its formatter), by the one rule the
 * checks and the formatters share: the folders of subprojectFolders in its order, a folder inside or around one taken
 * already skipped (its project's suite or formatter covers it, or it covers theirs), one where no detector finds
 * anything (`finds`) skipped, at most MAX_SUBPROJECTS taken. `left`, with `countLeft` (else none, and no folder is
 * read past the limit): the folders past it where a detector does find something, by the same rule (their projects
 * are left out, for the caller to say).
 */
export async function pickSubprojects<T>(
  root: string,
  capeFolder: string,
  detectors: readonly ((dir: string, root: string) => Promise<T>)[],
  finds: (found: T) => boolean,
  countLeft = false,
): Promise<{ taken: Subproject<T>[]; left: string[] }> {
  const taken: Subproject<T>[] = [];
  const left: string[] = [];
  const near = (folder: string) => (f: string) => folder.startsWith(`${f}/`) || f.startsWith(`${folder}/`);
  for (const folder of detectors.length ? await subprojectFolders(root, capeFolder) : []) {
    if (taken.length >= MAX_SUBPROJECTS && !countLeft) break;
    if (taken.some((t) => near(folder)(t.folder)) || left.some(near(folder))) continue;
    const found = await Promise.all(detectors.map((detect) => detect(path.join(root, ...folder.split('/')), root)));
    if (!found.some(finds)) continue;
    if (taken.length < MAX_SUBPROJECTS) taken.push({ folder, found });
    else left.push(folder);
  }
  return { taken, left };
}

/**
 * The checks of the workspace's sub-projects (pickSubprojects) for the languages of `families` (those its root has no
 * check of): each folder's static checks and tests, run in it; `left`, the sub-projects with checks past
 * MAX_SUBPROJECTS (always counted: every caller says them).
 */
export async function subprojectChecks(
  root: string,
  families: readonly DetectFamily[],
  capeFolder: string,
): Promise<{ found: FoundChecks; left: string[] }> {
  const { taken, left } = await pickSubprojects(root, capeFolder, families, ([s, t]) => s.length > 0 || t.length > 0, true);
  const inSub = (folder: string) => (c: CheckCommand): CheckCommand => ({ ...c, command: inFolder(folder, c.command), reason: `${folder}/${c.reason ?? ''}` });
  const statics = taken.flatMap(({ folder, found }) => found.flatMap(([s]) => s).map(inSub(folder)));
  const tests = taken.flatMap(({ folder, found }) => found.flatMap(([, t]) => t).map(inSub(folder)));
  return { found: [statics, tests], left };
}

/**
 * How the checks' announcement (the CLI's, the VS Code consent; init's facts too) says the sub-projects with checks
 * left out past MAX_SUBPROJECTS (pickSubprojects' `left`): how many, up to NAMED_LEFT_OUT by name, and how to run
 * theirs — `runTheirs` says how its surface adds a check, given one run in the first of them (`cd e && …`). '' for
 * none.
 */
export function leftOutSubprojectsSaying(left: readonly string[], runTheirs: (example: string) => string): string {
  if (!left.length) return '';
  const more = left.length > NAMED_LEFT_OUT ? ` and ${left.length - NAMED_LEFT_OUT} more` : '';
  const named = `${left.slice(0, NAMED_LEFT_OUT).map((f) => `${f}/`).join(', ')}${more}`;
  const many = left.length > 1;
  return `${left.length} more sub-project${many ? 's' : ''} with checks ${many ? 'are' : 'is'} left out (at most ${MAX_SUBPROJECTS} are detected): ${named}; ${runTheirs(inFolder(left[0], '…'))}`;
}
