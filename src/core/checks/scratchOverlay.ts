// DevA's proposed files written over the scratch copy (scratch.ts), and what could not be: the copy's own folders only,
// never through a link, which could lead into the user's tree. A proposed file under a folder the copy linked rather
// than copied (an installed-dependency name at any depth, scratchCopy.ts LINKED_DEPENDENCY_DIRS: a vendored
// `src/vendor/`, a patched package in node_modules/) gets that folder copied first, from the workspace, when it is
// within a bound: then the checks see the file, and its siblings resolve to the copy too. One past the bound, a link the
// user made, a file that cannot be written is not written, and returned with why (NotWritten): the check loop says so
// wherever it tells the checks' verdict, since the checks did not test it. And whether a path is a plain file of the
// copy, the one test of what a program that writes files (the formatter) may be given.
import { promises as fsp } from 'fs';
import * as path from 'path';
import type { ProposedFile } from '../model/types';
import { formatBytes } from '../text/size';
import { copyTree, measureTree, workspaceSkip } from './scratchCopy';
import { linkFolder } from './scratchAncestors';
import { removeCopy } from './scratchRemove';
import type { NotWritten, TreeSize } from './types';

export interface OverlayPlace {
  /** The user's workspace, whose folders linked in the copy are copied from. */
  workspace: string;
  /** The copy of the workspace (its real path). */
  copy: string;
  /** The part of the user's tree the copy mirrors (scratchCopy.ts copyTree's `region`). */
  region: string;
  capeFolder: string;
  /** The most a linked folder copied for a proposed file may hold. */
  limit: TreeSize;
  signal?: AbortSignal;
}

/** Writes the proposals (status 'proposed' with a relPath) over the copy; returns the files not written and why. */
export async function overlayProposals(place: OverlayPlace, files: readonly ProposedFile[]): Promise<NotWritten[]> {
  const notWritten: NotWritten[] = [];
  for (const f of files) {
    if (f.status !== 'proposed' || !f.relPath) continue;
    const parts = f.relPath.split('/');
    const target = path.join(place.copy, ...parts);
    const blocked = await folderOnTheWay(place, parts.slice(0, -1));
    if (blocked) {
      notWritten.push({ path: f.relPath, reason: `${blocked}, so the file was not written to the scratch copy the checks ran on` });
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
      notWritten.push({ path: f.relPath, reason: `it could not be written to the scratch copy the checks ran on (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` });
    }
  }
  return notWritten;
}

/**
 * Makes each folder of `parts` a real folder of the copy (or leaves it missing, to be created): a folder the copy
 * linked where the workspace has a real one is copied in its place, within the bound. Returns why a folder on the way
 * stays a link or is no folder (the reason's start, naming it), or null when the way is clear.
 */
async function folderOnTheWay(place: OverlayPlace, parts: string[]): Promise<string | null> {
  for (let blocked = await linkOnTheWay(place.copy, parts); blocked; blocked = await linkOnTheWay(place.copy, parts)) {
    const inCopy = path.join(place.copy, ...blocked.split('/'));
    const inWorkspace = path.join(place.workspace, ...blocked.split('/'));
    const [copySt, wsSt] = await Promise.all([fsp.lstat(inCopy), fsp.lstat(inWorkspace).catch(() => null)]);
    if (!copySt.isSymbolicLink()) return `${blocked} is not a folder`;
    // a link of the user's own stays one: the file would land wherever it leads
    if (!wsSt?.isDirectory()) return `${blocked} is a linked folder`;
    const skip = workspaceSkip(place.capeFolder);
    const size = await measureTree(inWorkspace, skip, place.limit, blocked);
    if (size.files > place.limit.files || size.bytes > place.limit.bytes) {
      return `${blocked} is an installed-dependency folder, linked rather than copied, and past the ${formatBytes(place.limit.bytes)} or ${place.limit.files.toLocaleString('en-US')} files it would be copied within`;
    }
    const to = await fsp.readlink(inCopy);
    await fsp.unlink(inCopy); // the link only: what it leads to is the user's
    try {
      await copyTree(place.region, inWorkspace, inCopy, skip, blocked, place.signal);
    } catch (e) {
      // the link back, not half a copy: the checks run on what the copy held
      await removeCopy(inCopy).then(() => linkFolder(to, inCopy)).catch(() => undefined);
      return `${blocked} is an installed-dependency folder, linked rather than copied, and copying it failed (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
    }
  }
  return null;
}

/**
 * Whether `relPath` is a plain file of the copy at `root` reached through real folders only: no link anywhere on the
 * way (a linked dependency folder, a link kept as a link) and not one itself. Only such a file may be given to a
 * program that writes it (the formatter): any other may lead into the user's tree.
 */
export async function plainFileOfCopy(root: string, relPath: string): Promise<boolean> {
  const parts = relPath.split('/');
  if (await linkOnTheWay(root, parts.slice(0, -1))) return false;
  return fsp.lstat(path.join(root, ...parts)).then((st) => st.isFile(), () => false);
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
