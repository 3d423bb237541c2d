// Recent change history of a workspace that is a git repository: how recently and how often each file changed in
// the last commits. Files a project changed lately are the ones its next change most often touches (a feature in
// progress, a module being reworked); the ranking uses this as a prior on files the text already points to, never on
// its own. No git repository, no git binary or any git error: no history (the ranking works without it).
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

/** Commits looked at. */
const COMMITS = 150;
/** Commits that touch more files than this are sweeping changes (formatting, renames, releases): skipped. */
const MAX_FILES_PER_COMMIT = 12;
/** Each older commit weighs this much less than the next newer one. */
const DECAY = 0.97;

/** Per workspace-relative path, a recency in (0, 1]: 1 for the most recently and often changed file. */
export type Recency = Map<string, number>;

/** What identifies the repository's current history without running git (HEAD and its reflog change on commit). */
export function historyKey(root: string): string | null {
  const git = path.join(root, '.git');
  try {
    const parts: string[] = [];
    for (const f of ['HEAD', path.join('logs', 'HEAD')]) {
      const st = fs.statSync(path.join(git, f), { throwIfNoEntry: false });
      parts.push(st ? `${st.size}:${st.mtimeMs}` : '-');
    }
    return parts[0] === '-' ? null : parts.join('|');
  } catch {
    return null;
  }
}

/** Parses `git log --format=%x01 --name-only` output into per-path recency. */
export function recencyFromLog(log: string): Recency {
  const raw = new Map<string, number>();
  let weight = 1;
  for (const commit of log.split('\x01').slice(1)) {
    const files = commit.split('\n').map((l) => l.trim()).filter(Boolean);
    if (files.length && files.length <= MAX_FILES_PER_COMMIT) for (const f of files) raw.set(f, (raw.get(f) ?? 0) + weight);
    weight *= DECAY;
  }
  let max = 0;
  for (const v of raw.values()) max = Math.max(max, v);
  const out: Recency = new Map();
  for (const [f, v] of raw) out.set(f, v / max);
  return out;
}

/** The recency of the workspace's files from git, or an empty map. */
export function gitRecency(root: string): Promise<Recency> {
  if (!historyKey(root)) return Promise.resolve(new Map());
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-C', root, '-c', 'core.quotepath=off', 'log', '--no-merges', '--no-renames', '--name-only', '--format=%x01', '-n', String(COMMITS), 'HEAD', '--'],
      { timeout: 5000, maxBuffer: 8 * 1024 * 1024, windowsHide: true },
      (err, stdout) => resolve(err ? new Map() : recencyFromLog(String(stdout))),
    );
  });
}
