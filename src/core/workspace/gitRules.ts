// The rules git keeps for a work tree, as the read policy applies them (policy.ts, over gitignoreRules.ts): where a
// workspace's repository and its git folder are (a `.git` folder, or a `.git` file naming it: a linked worktree, a
// submodule), its `info/exclude`, and the matchers of `.gitignore` texts. Reading them never follows a work tree's symbolic link and
// never waits on a FIFO. Plain Node: nothing in src/core may import 'vscode'.
import * as fs from 'fs';
import * as path from 'path';
import ignore, { type Ignore } from 'ignore';
import { statOrNull } from './disk';
import { NO_FOLLOW, NO_WAIT } from '../files/openFlags';

/**
 * Whether `.gitignore` patterns match regardless of case: git's core.ignorecase, which `git init` sets only on a
 * case-insensitive file system (the default ones of macOS and Windows); elsewhere `build/` does not ignore `Build/`.
 */
export const GIT_IGNORECASE = process.platform === 'darwin' || process.platform === 'win32';

/** Folders looked up above the workspace root for the repository's top. */
export const MAX_LEVELS_ABOVE = 64;

/**
 * The git folder of a workspace that is a repository's checkout: `.git`, or where a `.git` file points (`gitdir:
 * PATH`, relative to the workspace or absolute: a linked worktree or a submodule). Null when there is none.
 */
export function gitDirOf(root: string): string | null {
  const dotGit = path.join(root, '.git');
  const st = statOrNull(dotGit);
  if (!st) return null;
  if (st.isDirectory()) return dotGit;
  // a few hundred bytes at most; a larger `.git` file is not git's
  if (!st.isFile() || st.size > 4096) return null;
  const text = readRules(dotGit, true);
  const m = text === null ? null : /^gitdir:[ \t]*(.+?)[ \t\r]*$/m.exec(text);
  return m ? path.resolve(root, m[1]) : null;
}

/** The folder at or above `root` that holds `.git` (the top of the repository `root` belongs to), or null. */
export function gitTopOf(root: string): string | null {
  for (let dir = path.resolve(root), i = 0; i <= MAX_LEVELS_ABOVE; i++) {
    if (fs.existsSync(path.join(dir, '.git'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
  return null;
}

/**
 * The `info/exclude` file of the repository whose top is `top`: in its git folder, or for a linked worktree in the
 * repository's (named by the worktree's `commondir`). Null when `top` holds no `.git`.
 */
export function infoExcludeOf(top: string): string | null {
  const git = gitDirOf(top);
  if (!git) return null;
  // a linked worktree's git folder names the repository's (`commondir`); null: not a linked worktree
  const commondir = readRules(path.join(git, 'commondir'), true);
  const common = commondir === null ? git : path.resolve(git, commondir.trim());
  return path.join(common, 'info', 'exclude');
}

/**
 * The text of a rules file (`.gitignore`, `info/exclude`) or of a small file of git's, or null when it is absent,
 * unreadable or no regular file (a FIFO there would make the read wait for ever, and the index with it; git itself
 * hangs on one). `follow` false: a symbolic link is not read, as git does not read a `.gitignore` of the work tree
 * that is one. A leading byte-order mark is dropped.
 */
export function readRules(file: string, follow: boolean): string | null {
  try {
    const fd = fs.openSync(file, fs.constants.O_RDONLY | NO_WAIT | (follow ? 0 : NO_FOLLOW));
    try {
      // without a byte-order mark (Notepad writes one), as git reads it: joined after another file's rules, a mark
      // kept would make the first rule match nothing
      return fs.fstatSync(fd).isFile() ? fs.readFileSync(fd, 'utf8').replace(/^\uFEFF/, '') : null;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
}

/** Rule lines longer than this are compiled once on their own before they are taken (see gitignoreMatcher). */
const LONG_RULE_CHARS = 1024;

/**
 * The `ignore` matcher of rules files' texts, as git reads them, less the lines no RegExp can hold: `ignore` compiles a
 * rule when a path is first tested, and one line of tens of thousands of characters throws "Regular expression too
 * large" there, failing every walk and read of the workspace (git takes such a line, which can match no real path).
 */
export function gitignoreMatcher(texts: readonly string[]): Ignore {
  const lines = texts.join('\n').split(/\r?\n/);
  const usable = lines.filter((line) => {
    if (line.length <= LONG_RULE_CHARS) return true;
    try {
      const one = ignore({ ignorecase: GIT_IGNORECASE }).add(line);
      one.test('x');
      one.test('x/');
      return true;
    } catch {
      return false;
    }
  });
  return ignore({ ignorecase: GIT_IGNORECASE }).add(usable.length === lines.length ? texts.join('\n') : usable.join('\n'));
}
