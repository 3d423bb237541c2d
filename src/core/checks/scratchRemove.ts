// How a scratch copy of the workspace (./scratch.ts) is removed: links are removed, never followed, and a folder a
// check made read-only is made the owner's again first; at once as the checks end (removeCopy), or synchronously as
// the process ends (removeCopySync, through processEnd.ts), when nothing asynchronous runs any more.
import * as fs from 'fs';
import { promises as fsp } from 'fs';
import * as path from 'path';

/** Folders a removal may fail on for want of permission: a folder a check made read-only (`chmod 555`). */
const DENIED = new Set(['EACCES', 'EPERM']);

/** How a copy is removed: whole (its links removed, never followed), a missing one no error, a busy folder tried again. */
const RM_OPTIONS: fs.RmOptions = { recursive: true, force: true, maxRetries: 3 };

/**
 * Removes a copy; a removal denied (a folder a check made read-only) is tried again once every folder of the copy is
 * the owner's to change (u+rwx; links are not followed, so nothing of the user's tree is touched). Throws, naming
 * the folder, when it still cannot.
 */
export async function removeCopy(top: string): Promise<void> {
  const rm = () => fsp.rm(top, RM_OPTIONS);
  await rm()
    .catch((e: unknown) => secondTry(top, e, rm))
    .catch((e: unknown) => {
      throw new Error(`the checks' scratch copy ${top} could not be removed (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    });
}

/** removeCopy as the process ends (processEnd.ts): synchronous, nothing asynchronous runs after. */
export function removeCopySync(top: string): void {
  const rm = () => fs.rmSync(top, RM_OPTIONS);
  try {
    rm();
  } catch (e) {
    secondTry(top, e, rm);
  }
}

/**
 * The second try of a removal (`rm`, synchronous or not) that failed with `e`: when it was denied, `rm` again once
 * every folder of the copy is the owner's; else `e` thrown. Synchronous itself (ownFolders), as it was in either.
 */
function secondTry<T>(top: string, e: unknown, rm: () => T): T {
  if (!DENIED.has((e as NodeJS.ErrnoException).code ?? '')) throw e;
  ownFolders(top);
  return rm();
}

/** Gives the owner rwx on `dir` and every folder below it (never through a link). Synchronous: the process may be ending. */
function ownFolders(dir: string): void {
  const attempt = <T>(f: () => T): T | undefined => {
    try {
      return f();
    } catch {
      return undefined;
    }
  };
  const st = attempt(() => fs.lstatSync(dir));
  if (!st?.isDirectory()) return;
  attempt(() => fs.chmodSync(dir, (st.mode & 0o7777) | 0o700));
  for (const e of attempt(() => fs.readdirSync(dir, { withFileTypes: true })) ?? []) if (e.isDirectory()) ownFolders(path.join(dir, e.name));
}
