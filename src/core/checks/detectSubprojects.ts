// The sub-projects of a workspace, whose checks detect.ts gives for each language its root has none of: the folders
// one level down (`backend/`, `frontend/`, `api/`), then the members its root declares up to two levels down —
// package.json's `workspaces`, uv's `[tool.uv.workspace] members` (pyproject.toml), go.work's `use`, Cargo's
// `[workspace] members`; a member is a folder's path or, as `packages/*`, a folder's folders. A folder the workspace
// read policy leaves out (ignored by a .gitignore, a dependency or tool folder, the cape folder, one holding
// credentials: workspace/policy.ts), a hidden one, a link, one the checks' copy links as installed dependencies
// (vendor/, venv/: scratchCopy.ts LINKED_DEPENDENCY_DIRS) and a build folder is no sub-project. Each language's
// detection runs on the folder by the same rules as on the root (detect.ts FAMILIES), its commands run in it
// (runFolder.ts: `cd backend && …`, their paths as they are from there) and their reasons name it
// (`backend/pyproject.toml [tool.ruff]`). At most MAX_SUBPROJECTS folders give checks, in the order above.
import { promises as fsp } from 'fs';
import * as path from 'path';
import { WorkspacePolicy } from '../workspace/policy';
import { isPlainObject } from '../model/types';
import { isBuildFolder, LINKED_DEPENDENCY_DIRS } from './scratchCopy';
import { readJson, readText } from './projectProbes';
import { inFolder } from './runFolder';
import type { CheckCommand, DetectFamily, FoundChecks } from './types';

/** The most sub-projects whose checks are detected: each runs its whole suite in every round. */
export const MAX_SUBPROJECTS = 4;

/** The folders of a folder (not links to one), in name order; none when it cannot be read. */
async function foldersIn(dir: string): Promise<string[]> {
  const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/** A TOML table's body (from its `[header]` line to the next table's), '' when the text has none. */
function tomlTable(text: string, header: string): string {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => l.trim() === header);
  if (start < 0) return '';
  const end = lines.findIndex((l, i) => i > start && l.trimStart().startsWith('['));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** The strings of a TOML table's `members = [ … ]` (on one line or several). */
function tomlMembers(table: string): string[] {
  const list = /^[ \t]*members[ \t]*=[ \t]*\[([^\]]*)\]/m.exec(table)?.[1] ?? '';
  return [...list.matchAll(/"([^"\n]*)"|'([^'\n]*)'/g)].map((m) => m[1] ?? m[2]);
}

/** go.work's `use` paths: `use ./api`, or the lines of a `use ( … )` block; comments (`//`) left out. */
function goWorkUses(text: string): string[] {
  const uses: string[] = [];
  let block = false;
  for (const raw of text.split(/\r?\n/)) {
    const comment = raw.indexOf('//');
    const line = (comment < 0 ? raw : raw.slice(0, comment)).trim();
    if (block) {
      if (line === ')') block = false;
      else if (line) uses.push(line);
    } else if (/^use\s*\($/.test(line)) block = true;
    else if (line.startsWith('use ')) uses.push(line.slice(4).trim());
  }
  return uses.map((u) => u.replace(/^"(.*)"$/, '$1'));
}

/** package.json's `workspaces` (a list of globs, or `{ packages: [...] }`): the members npm, Yarn and Bun run. */
async function packageWorkspaces(root: string): Promise<string[]> {
  const pkg = await readJson(path.join(root, 'package.json')).catch(() => null);
  const list = isPlainObject(pkg) ? (isPlainObject(pkg.workspaces) ? pkg.workspaces.packages : pkg.workspaces) : undefined;
  return Array.isArray(list) ? list.filter((g): g is string => typeof g === 'string') : [];
}

/** The members the root's manifests declare, as written (see the header). */
async function declaredMembers(root: string): Promise<string[]> {
  const [npm, pyproject, cargo, goWork] = await Promise.all([
    packageWorkspaces(root),
    readText(path.join(root, 'pyproject.toml')),
    readText(path.join(root, 'Cargo.toml')),
    readText(path.join(root, 'go.work')),
  ]);
  return [...npm, ...tomlMembers(tomlTable(pyproject, '[tool.uv.workspace]')), ...tomlMembers(tomlTable(cargo, '[workspace]')), ...goWorkUses(goWork)];
}

/**
 * The folders a member names, workspace-relative: a path of one or two folders (`backend`, `./services/api`), or the
 * folders of one folder (`packages/*`); none for another pattern, or a path out of the workspace.
 */
async function memberFolders(root: string, member: string): Promise<string[]> {
  const parts = member.trim().replace(/\\/g, '/').replace(/^\.\//, '').split('/');
  while (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length > 2 || parts.some((p) => p === '' || p === '.' || p === '..' || p.includes(':'))) return [];
  if (parts.length === 2 && parts[1] === '*' && !parts[0].includes('*')) return (await foldersIn(path.join(root, parts[0]))).map((n) => `${parts[0]}/${n}`);
  return parts.some((p) => p.includes('*')) ? [] : [parts.join('/')];
}

/** Whether a workspace folder (`/`-separated) may be a sub-project (see the header): each level of it checked. */
async function mayBeProject(root: string, rel: string, policy: WorkspacePolicy, rootNames: readonly string[]): Promise<boolean> {
  const parts = rel.split('/');
  for (let i = 0; i < parts.length; i++) {
    const name = parts[i];
    if (name.startsWith('.') || LINKED_DEPENDENCY_DIRS.has(name) || policy.skipDir(parts.slice(0, i + 1).join('/')) !== null) return false;
  }
  if (isBuildFolder(parts[0], rootNames)) return false;
  return fsp.lstat(path.join(root, ...parts)).then((st) => st.isDirectory(), () => false);
}

/** The workspace's folders that may be sub-projects, workspace-relative and `/`-separated, in the header's order. */
export async function subprojectFolders(root: string, capeFolder: string): Promise<string[]> {
  const policy = new WorkspacePolicy(root, { capeFolder });
  try {
    const rootNames = await fsp.readdir(root).catch(() => [] as string[]);
    const members = (await Promise.all((await declaredMembers(root)).map((m) => memberFolders(root, m)))).flat().sort();
    const folders: string[] = [];
    for (const rel of [...(await foldersIn(root)), ...members]) {
      if (!folders.includes(rel) && (await mayBeProject(root, rel, policy, rootNames))) folders.push(rel);
    }
    return folders;
  } finally {
    policy.forget();
  }
}

/**
 * The checks of the workspace's sub-projects (see the header) for the languages of `families` (those its root has no
 * check of): each folder's static checks and tests, run in it.
 */
export async function subprojectChecks(root: string, families: readonly DetectFamily[], capeFolder: string): Promise<FoundChecks> {
  const statics: CheckCommand[] = [];
  const tests: CheckCommand[] = [];
  let projects = 0;
  for (const folder of await subprojectFolders(root, capeFolder)) {
    if (projects >= MAX_SUBPROJECTS) break;
    const dir = path.join(root, ...folder.split('/'));
    const found = await Promise.all(families.map((detect) => detect(dir, root)));
    if (!found.some(([s, t]) => s.length || t.length)) continue;
    projects++;
    const inSub = (c: CheckCommand): CheckCommand => ({ ...c, command: inFolder(folder, c.command), reason: `${folder}/${c.reason ?? ''}` });
    statics.push(...found.flatMap(([s]) => s).map(inSub));
    tests.push(...found.flatMap(([, t]) => t).map(inSub));
  }
  return [statics, tests];
}
