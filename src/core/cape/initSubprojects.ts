// Init's workspace facts (initFacts.ts), which sub-projects the manifests part shows, in what order: the folders one
// and two levels down that hold a manifest (workspace/layout.ts's walk: names only, under the read policy), the
// members the root declares first (workspace/members.ts: the globs it reads from the root's files and whether a
// folder is one), then the others; most source files first within each.
import type { FolderCount, WorkspaceLayout } from '../workspace/layout';
import { MANIFEST_NAMES } from '../workspace/fileKinds';
import { isMember } from '../workspace/members';

/** A folder that holds manifests: its path and theirs (in MANIFEST_NAMES order). */
export interface Subproject {
  dir: string;
  manifests: string[];
}

/** A folder's count of the walk: a top folder's, or a sub-folder's (layout.subfolders). */
function folderCount(layout: WorkspaceLayout, dir: string): FolderCount | undefined {
  const slash = dir.indexOf('/');
  const list = slash < 0 ? layout.folders : (layout.subfolders.get(dir.slice(0, slash)) ?? []);
  return list.find((f) => f.path === dir);
}

/**
 * The folders one and two levels down that hold a manifest, with their manifests: those `members` (the root's
 * declared members: workspace/members.ts) name first, then the others; most source files first within each, then
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
