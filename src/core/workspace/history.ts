// Recent change history of a workspace that is a git repository: how recently and how often each file changed in
// the last commits, which files changed together, and what each commit's subject said. Files a project changed
// lately are the ones its next change most often touches (a feature in progress, a module being reworked), files
// that changed together before (a module and its test, a type and its implementations) tend to change together
// again, and the files of the past commits whose subjects read most like the objective are likely places for the
// new change (subjectScores). The ranking uses these as priors next to the text, damped. Renames are followed, so what a file went
// through under its earlier paths counts for the path it has now (projects move files: `test/` to `__tests__/`,
// `x.js` to `x.test.js`). A workspace that is a folder of a repository gets the commits that touched it, with its own
// paths. No git repository, no git binary or any git error: no history (the ranking works without it).
import { execFile } from 'child_process';
import * as path from 'path';
import { terms } from './tokens';
import { BM25_SHORT_TEXTS, bm25Idf, bm25Tf } from './termScoring';
import { gitDirOf, gitTopOf } from './gitRules';
import { stamp } from './disk';

/**
 * Commits looked at. 1,000 on the localization bench (each case's clone holds a few hundred to a thousand earlier
 * commits) gave whole 0.573 of the modified files, all of them in 0.444 of cases, against 300's 0.571 / 0.448 — the
 * same files in the first ten (0.706); with co-change decaying slower over them (0.999 a commit) 0.563 / 0.425.
 */
const COMMITS = 300;
/** Commits that touch more files than this are sweeping changes (formatting, renames, releases): skipped. */
const MAX_FILES_PER_COMMIT = 12;
/** Each older commit weighs this much less than the next newer one (for recency; co-change decays slower). */
const DECAY = 0.97;
const CO_DECAY = 0.995;

/** Per workspace-relative path, a recency in (0, 1]: 1 for the most recently and often changed file. */
export type Recency = Map<string, number>;

/** One commit that is not a sweeping change: the terms of its subject (tokens.ts) and its files by current path. */
export interface Commit {
  words: string[];
  files: string[];
}

/** What git says about the workspace's files. */
export interface History {
  recency: Recency;
  /**
   * Per path, the files that changed in the same commits, each with the share of the path's (decayed) commits that
   * also changed it — an estimate of "when this file changes, that one changes too", in (0, 1].
   */
  coChange: Map<string, Map<string, number>>;
  /** Newest first. */
  commits: Commit[];
}

export const NO_HISTORY: History = { recency: new Map(), coChange: new Map(), commits: [] };

/** What identifies the repository's current history without running git (HEAD and its reflog change on commit). */
export function historyKey(root: string): string | null {
  const top = gitTopOf(root);
  const git = top && gitDirOf(top);
  if (!git) return null;
  const parts = ['HEAD', path.join('logs', 'HEAD')].map((f) => stamp(path.join(git, f)) ?? '-');
  return parts[0] === '-' ? null : parts.join('|');
}

/**
 * The commits of `git log --format=%x01%s%x02 --name-status -M` output (the subject and `%x02` may be missing, and
 * `--name-only` works too), newest first, each with its subject and paths. A rename (`R…␉old␉new`) is followed:
 * older commits that touched `old` count for the path it has now, through any later renames.
 */
function commitsOf(log: string): { subject: string; files: string[] }[] {
  const now = new Map<string, string>(); // a path in older commits → the path it has now
  const current = (p: string) => now.get(p) ?? p;
  const out: { subject: string; files: string[] }[] = [];
  for (const chunk of log.split('\x01').slice(1)) {
    const end = chunk.indexOf('\x02');
    const files = new Set<string>();
    const renames: [string, string][] = [];
    for (const raw of chunk.slice(end + 1).split('\n')) {
      const line = raw.trim();
      if (!line) continue;
      const cols = line.split('\t');
      if (cols.length === 1) files.add(current(line));
      else if (/^[RC]/.test(cols[0]) && cols.length >= 3) {
        files.add(current(cols[2]));
        if (cols[0][0] === 'R') renames.push([cols[1], cols[2]]);
      } else files.add(current(cols[cols.length - 1]));
    }
    // after this commit's own paths are mapped: its renames apply to the older commits
    for (const [from, to] of renames) now.set(from, current(to));
    out.push({ subject: end >= 0 ? chunk.slice(0, end) : '', files: [...files] });
  }
  return out;
}

/** Parses `git log --format=%x01 --name-only` output into per-path recency. */
export function recencyFromLog(log: string): Recency {
  return historyFromLog(log).recency;
}

/** Parses `git log --format=%x01%s%x02 --name-status -M` output into recency, co-change and commits. */
export function historyFromLog(log: string): History {
  const raw = new Map<string, number>();
  const seen = new Map<string, number>();
  const pairs = new Map<string, Map<string, number>>();
  let weight = 1;
  let coWeight = 1;
  const commits: Commit[] = [];
  for (const { subject, files } of commitsOf(log)) {
    if (files.length && files.length <= MAX_FILES_PER_COMMIT) {
      commits.push({ words: terms(subject), files });
      for (const f of files) {
        raw.set(f, (raw.get(f) ?? 0) + weight);
        seen.set(f, (seen.get(f) ?? 0) + coWeight);
      }
      if (files.length > 1) {
        for (const a of files) {
          let m = pairs.get(a);
          if (!m) pairs.set(a, (m = new Map()));
          for (const b of files) if (b !== a) m.set(b, (m.get(b) ?? 0) + coWeight);
        }
      }
    }
    weight *= DECAY;
    coWeight *= CO_DECAY;
  }
  let max = 0;
  for (const v of raw.values()) max = Math.max(max, v);
  const recency: Recency = new Map();
  for (const [f, v] of raw) recency.set(f, v / max);
  // one shared commit is weak evidence: the share is taken over the path's commits plus one
  const coChange = new Map<string, Map<string, number>>();
  for (const [a, m] of pairs) {
    const n = seen.get(a)! + 1;
    const out = new Map<string, number>();
    for (const [b, v] of m) out.set(b, v / n);
    coChange.set(a, out);
  }
  return { recency, coChange, commits };
}

/**
 * What a git command prints about the workspace's repository (`args` after `git -C root -c core.quotepath=off`), or
 * null: no repository (historyKey), no git binary, an error, more than 5 s or 16 MB. The one way CAPE asks git about a
 * workspace (the history here, the version tags: versionTags.ts). The repository's own config is the workspace's,
 * which may be untrusted: a caller's command must not be one that config can make run a program.
 */
export function gitOutput(root: string, args: readonly string[]): Promise<string | null> {
  if (!historyKey(root)) return Promise.resolve(null);
  return new Promise((resolve) => {
    execFile('git', ['-C', root, '-c', 'core.quotepath=off', ...args], { timeout: 5000, maxBuffer: 16 * 1024 * 1024, windowsHide: true }, (err, stdout) =>
      resolve(err ? null : String(stdout)),
    );
  });
}

/** The history of the workspace's files from git, or none. */
export async function gitHistory(root: string): Promise<History> {
  // a folder of the repository opened alone: the commits that touched it, with paths relative to it
  const below = gitDirOf(root) === null ? ['--relative'] : [];
  // `log.showSignature` in the repository's config would make this log run whatever `gpg.program` it names on every
  // signed commit (--no-show-signature overrides it)
  const log = await gitOutput(root, ['log', '--no-show-signature', '--no-merges', '-M', ...below, '--name-status', '--format=%x01%s%x02', '-n', String(COMMITS), 'HEAD', '--', ...(below.length ? ['.'] : [])]);
  return log === null ? NO_HISTORY : historyFromLog(log);
}

/**
 * A workspace's history, read again from git only when its HEAD or reflog moved (historyKey: two stats). A refresh
 * that finds the key of a read still under way waits for that read, and a read that a newer key overtook is dropped.
 */
export class HistoryWatch {
  private key: string | null = null;
  private history: History = NO_HISTORY;
  private reading: Promise<void> = Promise.resolve();

  get current(): History {
    return this.history;
  }

  refresh(root: string): Promise<void> {
    const key = historyKey(root);
    if (key === this.key) return this.reading;
    this.key = key;
    this.reading = (key ? gitHistory(root) : Promise.resolve(NO_HISTORY)).then((h) => {
      if (this.key === key) this.history = h;
    });
    return this.reading;
  }
}

/** The past commits whose subjects are most like the objective that point at files (a handful: further ones are noise). */
const SUBJECT_COMMITS = 5;

/**
 * Per file, how much the past commits whose subjects read most like the objective point at it: each commit's
 * subject is scored by BM25 against the objective's terms (a word rare among the subjects weighs most, so "fix" or
 * "update" say little), and the best SUBJECT_COMMITS share their score among the files they changed (a commit of
 * two files says more about each than one of ten). Raw sums, 0 for files no such commit changed.
 */
export function subjectScores(commits: readonly Commit[], objective: string): Map<string, number> {
  const out = new Map<string, number>();
  const query = new Set(terms(objective));
  if (!query.size || !commits.length) return out;
  const df = new Map<string, number>();
  let totalLength = 0;
  for (const c of commits) {
    totalLength += c.words.length;
    for (const t of new Set(c.words)) if (query.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
  }
  if (!df.size) return out;
  const n = commits.length;
  const avg = totalLength / n || 1;
  // commit subjects are short texts: the usual parameters
  const { k, b } = BM25_SHORT_TEXTS;
  const scored: [Commit, number][] = [];
  for (const c of commits) {
    const tf = new Map<string, number>();
    for (const t of c.words) if (query.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
    let s = 0;
    for (const [t, f] of tf) s += bm25Idf(n, df.get(t)!) * bm25Tf(f, c.words.length, avg, k, b);
    if (s > 0) scored.push([c, s]);
  }
  scored.sort((x, y) => y[1] - x[1]);
  for (const [c, s] of scored.slice(0, SUBJECT_COMMITS)) {
    for (const f of c.files) out.set(f, (out.get(f) ?? 0) + s / c.files.length);
  }
  return out;
}
