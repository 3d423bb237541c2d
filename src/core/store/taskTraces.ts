// What is on disk for a task id, and what a killed process left behind: a new session must not reuse an id that has
// a state, a step record or a retrospective; the hidden temporary files of interrupted atomic writes are removed once
// they are old enough that no write in flight can own them.
import { promises as fsp } from 'fs';
import * as path from 'path';
import { isAtomicTempName, removeStaleAtomicTemps } from '../files/fsAtomic';
import { PAIR_NAME, assertTaskId, parseRetrospectiveName } from './records';
import type { SessionLayout } from './layout';

/** The workspace-relative paths of a task id's state file, step records and retrospectives (empty when unused). */
export async function taskTraces(layout: SessionLayout, taskId: string): Promise<string[]> {
  assertTaskId(taskId);
  const out: string[] = [];
  const state = layout.statePath(taskId);
  if (await fsp.lstat(state).then(() => true, () => false)) out.push(layout.relative(state));
  const list = async (dir: string, match: (name: string) => boolean) => {
    const names = await fsp.readdir(dir).catch(() => [] as string[]);
    for (const name of names.sort()) if (!isAtomicTempName(name) && match(name)) out.push(layout.relative(path.join(dir, name)));
  };
  await list(layout.pairDir, (n) => PAIR_NAME.exec(n)?.[1] === taskId);
  await list(layout.retrospectiveDir, (n) => parseRetrospectiveName(n)?.taskId === taskId);
  return out;
}

/** Removes the stale temporary files of 5_sessions/'s folders (see removeStaleAtomicTemps); returns them, workspace-relative. */
export async function removeLeftovers(layout: SessionLayout, minAgeMs?: number): Promise<string[]> {
  const out: string[] = [];
  for (const dir of [layout.pairDir, layout.stateDir, layout.retrospectiveDir, layout.failedDir, layout.pendingDir]) {
    for (const name of await removeStaleAtomicTemps(dir, minAgeMs)) out.push(layout.relative(path.join(dir, name)));
  }
  return out;
}
