// Init's workspace facts (initFacts.ts), which sub-projects the manifests part shows, in what order: the folders one
// and two levels down that hold a manifest (workspace/layout.ts's walk: names only, under the read policy), the
// members the root's workspace names first (package.json `workspaces`, pyproject.toml's uv, PDM or Hatch workspace,
// Cargo's `[workspace] members`, go.work's `use`, pnpm-workspace.yaml's `packages`; a folder a `!` glob or an
// `exclude` leaves out is not one), then the others; most source files first within each.
import type { FolderCount, WorkspaceLayout } from '../workspace/layout';
import { MANIFEST_NAMES } from '../workspace/fileKinds';

/** A folder that holds manifests: its path and theirs (in MANIFEST_NAMES order). */
export interface Subproject {
  dir: string;
  manifests: string[];
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

/** A member glob's segments (`./packages/*` → packages, *); none for one outside the workspace (`../x`, `/x`). */
function globSegments(glob: string): string[] {
  const segs = glob.replace(/\\/g, '/').split('/').filter((s) => s && s !== '.');
  return glob.startsWith('/') || segs.includes('..') ? [] : segs;
}

/** Whether the root names a folder as a member: a glob matches it and no negated one (`!packages/legacy`) leaves it out. */
function isMember(dir: string, members: readonly string[]): boolean {
  const path = dir.split('/');
  const matches = (glob: string) => {
    const segs = globSegments(glob);
    return segs.length > 0 && segmentsMatch(segs, path);
  };
  return members.some((m) => !m.startsWith('!') && matches(m)) && !members.some((m) => m.startsWith('!') && matches(m.slice(1)));
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

/** A folder's count of the walk: a top folder's, or a sub-folder's (layout.subfolders). */
function folderCount(layout: WorkspaceLayout, dir: string): FolderCount | undefined {
  const slash = dir.indexOf('/');
  const list = slash < 0 ? layout.folders : (layout.subfolders.get(dir.slice(0, slash)) ?? []);
  return list.find((f) => f.path === dir);
}

/**
 * The folders one and two levels down that hold a manifest, with their manifests: those `members` (the root's
 * workspace globs, `!` before one left out) name first, then the others; most source files first within each, then
 * by path.
 */
export function subprojects(layout: WorkspaceLayout, members: readonly string[]): Subproject[] {
  const byDir = new Map<string, string[]>();
  for (const file of layout.subManifests) {
    const dir = file.slice(0, file.lastIndexOf('/'));
    byDir.set(dir, [...(byDir.get(dir) ?? []), file]);
  }
  const kind = (f: string) => MANIFEST_NAMES.indexOf(f.slice(f.lastIndexOf('/') + 1));
  const ranked = [...byDir].map(([dir, manifests]) => ({
    dir,
    manifests: manifests.sort((a, b) => kind(a) - kind(b)),
    member: isMember(dir, members),
    source: folderCount(layout, dir)?.source ?? 0,
  }));
  ranked.sort((a, b) => Number(b.member) - Number(a.member) || b.source - a.source || (a.dir < b.dir ? -1 : 1));
  return ranked.map(({ dir, manifests }) => ({ dir, manifests }));
}
