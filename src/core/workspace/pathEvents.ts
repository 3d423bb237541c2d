// Named paths brought in step with the disk (the workspace index's update() from the file watcher's events, and
// confirm() of one file before a prompt names it): each re-read or dropped, as the walk would, or 'refresh' when a
// path is a `.gitignore` or a folder and only a walk can tell what it changes. Split from workspaceIndex.ts.
import { absoluteIn, statOrNull } from './disk';
import { relativeToRoot } from './cacheLocation';
import type { WorkspacePolicy } from './policy';
import type { IndexContent } from './indexContent';

/** What applyPaths works on: the index's root (and its real path), its read policy and its content. */
export interface PathTarget {
  root: string;
  realRoot: string;
  policy: WorkspacePolicy;
  content: IndexContent;
}

/**
 * The synchronous part of update(): re-reads or drops each path; 'refresh' as soon as a path is a `.gitignore` or a
 * folder and `folders` allows falling back to a walk (the paths before it are applied, the rest left to the walk).
 */
export function applyPaths(t: PathTarget, relPaths: string[], folders: boolean): { read: number; removed: number } | 'refresh' {
  t.content.ensureText();
  let read = 0;
  let removed = 0;
  for (const raw of relPaths) {
    const rel = raw.replace(/\\/g, '/').replace(/^\.\/+/, '');
    if (folders && rel.endsWith('.gitignore')) return 'refresh';
    const st = statOrNull(absoluteIn(t.root, rel), false);
    if (folders && st?.isDirectory()) return 'refresh';
    // reached as the walk reaches it: no symlinked folder on the way (an lstat follows those; a folder swapped for a
    // link out of the workspace would otherwise lead its files into the index, and its symbols into a prompt)
    const admitted = st?.isFile() && st.size <= t.policy.maxBytes && !t.policy.excluded(rel) && relativeToRoot(t.realRoot, absoluteIn(t.root, rel)) === rel;
    if (!admitted) {
      if (t.content.drop(rel)) {
        removed++;
      } else if (!st) {
        // a deleted folder: drop everything below it
        for (const k of [...t.content.files.keys()]) if (k.startsWith(rel + '/')) (t.content.drop(k), removed++);
      }
      continue;
    }
    if (t.content.readFile(rel, { size: st!.size, mtimeMs: st!.mtimeMs, ctimeMs: st!.ctimeMs })) read++;
  }
  t.content.graph.resolveImports();
  return { read, removed };
}
