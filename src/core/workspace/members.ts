// The workspace members a repository's root declares, and whether a folder is one — the one rule init's facts order
// sub-projects by (cape/initSubprojects.ts: members first) and the checks look for a sub-project's checks by
// (checks/detectSubprojects.ts: the members two levels down). Read from the root's files, through the reader the
// caller passes (init its read policy, the checks the disk): package.json `workspaces` (a list, or `{ packages }`),
// pnpm-workspace.yaml `packages`, pyproject.toml's uv, PDM and Hatch workspaces (`members`, `exclude`), Cargo.toml's
// `[workspace]` (`members`, `exclude`) and go.work's `use`; TOML parsed (text/toml.ts), never matched by a pattern.
// A member is a glob of folders (`packages/*`, `apps/**`, `./svc`), one written `!` (pnpm's) or an `exclude` leaves
// folders out; one outside the workspace (`../x`, `/x`) names none.
import { isPlainObject } from '../model/types';
import { parseToml, tableAt, type TomlTable } from '../text/toml';
import { directives, unquoted } from './goDirectives';

/** A root file's text by its workspace-relative path; null when it is missing or not to be read. */
export type ReadRootFile = (rel: string) => string | null;

/** The strings of a list (members, excludes), as written. */
export const stringsIn = (list: unknown): string[] => (Array.isArray(list) ? list.filter((s): s is string => typeof s === 'string') : []);

/** A workspace's members and those it excludes, as written. */
export interface TomlWorkspace {
  members: string[];
  exclude: string[];
}

/** npm's, Yarn's and Bun's `workspaces` of a parsed package.json (a list of globs, or `{ packages: [...] }`). */
export const packageWorkspaces = (workspaces: unknown): string[] => stringsIn(isPlainObject(workspaces) ? workspaces.packages : workspaces);

/**
 * The workspaces of uv, PDM and Hatch (Hatch's per environment) in a parsed pyproject.toml, each with its members (a
 * Hatch member may be `{ path = … }`) and those it excludes.
 */
export function pythonWorkspaces(doc: TomlTable): TomlWorkspace[] {
  const tool = tableAt(doc, 'tool');
  const hatch = Object.values(tableAt(tool, 'hatch', 'envs')).flatMap((env) => (isPlainObject(env) ? [tableAt(env, 'workspace')] : []));
  return [tableAt(tool, 'uv', 'workspace'), tableAt(tool, 'pdm', 'workspace'), ...hatch].map((w) => ({
    members: Array.isArray(w.members) ? stringsIn(w.members.map((m) => (isPlainObject(m) ? m.path : m))) : [],
    exclude: stringsIn(w.exclude),
  }));
}

/** A parsed Cargo.toml's `[workspace]`: its members and those it excludes. */
export function cargoWorkspace(doc: TomlTable): TomlWorkspace {
  const w = tableAt(doc, 'workspace');
  return { members: stringsIn(w.members), exclude: stringsIn(w.exclude) };
}

/** The globs a pnpm-workspace.yaml lists under `packages:` (a block list, or a flow list on its line). */
export function pnpmPackages(text: string): string[] {
  const unquote = (s: string) => s.trim().replace(/^["']|["']$/g, '');
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const at = lines.findIndex((l) => l.startsWith('packages:'));
  if (at < 0) return [];
  const flow = lines[at].slice('packages:'.length).trim();
  if (flow.startsWith('[')) return flow.slice(1, flow.lastIndexOf(']') < 0 ? undefined : flow.lastIndexOf(']')).split(',').map(unquote).filter(Boolean);
  const out: string[] = [];
  for (const line of lines.slice(at + 1)) {
    const item = line.trim();
    if (!item || item.startsWith('#')) continue;
    // a block sequence may stand at the key's own indentation (`packages:` then `- apps/*`)
    if (!item.startsWith('-')) break;
    const hash = item.indexOf(' #');
    const value = unquote((hash < 0 ? item : item.slice(0, hash)).slice(1));
    if (value) out.push(value);
  }
  return out;
}

/** The folders a go.work uses: `use ./api`, or the lines of a `use ( … )` block; comments (`//`) and quotes left out. */
export function goWorkUses(text: string): string[] {
  return directives(text)
    .filter((d) => d.verb === 'use')
    .map((d) => unquoted(d.args));
}

/** A workspace's members, then those it excludes marked `!` (as pnpm's globs mark them). */
const withExcluded = ({ members, exclude }: TomlWorkspace): string[] => [...members, ...exclude.map((e) => `!${e}`)];

/** A JSON document, or undefined when the text is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch {
    return undefined;
  }
}

/** Each root file that declares members, and the members its text declares (those left out marked `!`). */
const MEMBERS_OF: Readonly<Record<string, (text: string) => string[]>> = {
  'package.json': (text) => {
    const pkg = parseJson(text);
    return packageWorkspaces(isPlainObject(pkg) ? pkg.workspaces : undefined);
  },
  'pnpm-workspace.yaml': pnpmPackages,
  'pyproject.toml': (text) => pythonWorkspaces(parseToml(text) ?? {}).flatMap(withExcluded),
  'Cargo.toml': (text) => withExcluded(cargoWorkspace(parseToml(text) ?? {})),
  'go.work': goWorkUses,
};

/** The root files that declare members (root-relative), those declaredMembers reads. */
export const MEMBER_FILES: readonly string[] = Object.keys(MEMBERS_OF);

/**
 * The members the root's files declare, as globs, those left out (pnpm's `!`, an `exclude`) marked `!`; a file that
 * is missing or does not parse declares none.
 */
export function declaredMembers(read: ReadRootFile): string[] {
  return MEMBER_FILES.flatMap((file) => {
    const text = read(file);
    return text ? MEMBERS_OF[file](text) : [];
  });
}

/** Whether one path segment matches a glob segment, where `*` stands for any run of characters. */
function segmentMatches(glob: string, name: string): boolean {
  const parts = glob.split('*');
  if (parts.length === 1) return glob === name;
  const first = parts[0];
  const last = parts[parts.length - 1];
  if (name.length < first.length + last.length || !name.startsWith(first) || !name.endsWith(last)) return false;
  // each middle part at its leftmost place after the one before: enough when `*` is the only wildcard
  let at = first.length;
  const end = name.length - last.length;
  for (const mid of parts.slice(1, -1)) {
    const i = name.indexOf(mid, at);
    if (i < 0 || i + mid.length > end) return false;
    at = i + mid.length;
  }
  return true;
}

/** Whether a folder's segments match a glob's, where `**` stands for any number of segments. */
function segmentsMatch(glob: readonly string[], path: readonly string[]): boolean {
  if (!glob.length) return !path.length;
  if (glob[0] === '**') return segmentsMatch(glob.slice(1), path) || (path.length > 0 && segmentsMatch(glob, path.slice(1)));
  return path.length > 0 && segmentMatches(glob[0], path[0]) && segmentsMatch(glob.slice(1), path.slice(1));
}

/** A member glob's segments (`./packages/*` → packages, *); none for one outside the workspace (`../x`, `/x`, `C:/x`). */
function globSegments(glob: string): string[] {
  const segs = glob.trim().replace(/\\/g, '/').split('/').filter((s) => s && s !== '.');
  return glob.startsWith('/') || segs.includes('..') || segs.some((s) => s.includes(':')) ? [] : segs;
}

/** The segments of the members that name folders (`packages/*`), and of those that leave folders out (`!packages/legacy`). */
function split(members: readonly string[]): { named: string[][]; left: string[][] } {
  const segs = (globs: string[]) => globs.map(globSegments).filter((s) => s.length > 0);
  return { named: segs(members.filter((m) => !m.startsWith('!'))), left: segs(members.filter((m) => m.startsWith('!')).map((m) => m.slice(1))) };
}

/** Whether the root declares a folder (workspace-relative, `/`-separated) a member: a glob names it and none leaves it out. */
export function isMember(dir: string, members: readonly string[]): boolean {
  const path = dir.split('/');
  const { named, left } = split(members);
  return named.some((g) => segmentsMatch(g, path)) && !left.some((g) => segmentsMatch(g, path));
}

/** Whether a folder one level down may hold members a level below it: a glob that names folders in it could. */
export function mayHoldMembers(top: string, members: readonly string[]): boolean {
  return split(members).named.some((g) => g[0] === '**' || (g.length > 1 && segmentMatches(g[0], top)));
}
