// The rules git keeps for a work tree, as the read policy applies them (policy.ts, over gitignoreRules.ts): where a
// workspace's repository and its git folder are (a `.git` folder, or a `.git` file naming it: a linked worktree, a
// submodule), its `info/exclude`, and the matchers of `.gitignore` texts. Reading them never follows a work tree's symbolic link and
// never waits on a FIFO. Plain Node: nothing in src/core may import 'vscode'.
import * as fs from 'fs';
import * as path from 'path';
import ignore, { type Ignore } from 'ignore';
import { statOrNull } from './disk';
import { NO_FOLLOW, NO_WAIT } from '../files/openFlags';
import { withoutTrailingSpaces } from '../text/blanks';

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
  // its line's value without the spaces and tabs around it (cut by code: a lazy value between two runs of them
  // was quadratic in a long run)
  const line = text === null ? undefined : /^gitdir:(.*)$/m.exec(text)?.[1];
  const value = line === undefined ? '' : withoutTrailingSpaces(line.replace(/^[ \t]+/, ''));
  return value ? path.resolve(root, value) : null;
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
 * The most `**` folder segments a rule may have (`**` segments in a row count as one: git matches them alike).
 * `ignore` compiles each to a `(?:\/[^\/]+)*` of one RegExp, and a deep path that fails the rule tries every way of
 * sharing its folders among them: with 10 of them, 2 s per path 32 folders deep; with 3, a millisecond at 32 and
 * 6 ms at 64. A rule with more is rare (git, which matches without a RegExp, takes it); here it is dropped, as a
 * line too long is.
 */
export const MAX_GLOBSTARS = 3;

/**
 * The `ignore` matcher of rules files' texts, as git reads them, less the lines no RegExp can hold or match in time:
 * `ignore` compiles a rule when a path is first tested, and one line of tens of thousands of characters throws
 * "Regular expression too large" there, failing every walk and read of the workspace (git takes such a line, which
 * can match no real path); a rule of more than MAX_GLOBSTARS `**` segments would freeze every walk and read.
 */
export function gitignoreMatcher(texts: readonly string[]): Ignore {
  const lines = texts.join('\n').split(/\r?\n/);
  let changed = false;
  const usable: string[] = [];
  for (const line of lines) {
    const rule = usableRule(line);
    if (rule !== line) changed = true;
    if (rule !== null) usable.push(rule);
  }
  return ignore({ ignorecase: GIT_IGNORECASE }).add(changed ? usable.join('\n') : texts.join('\n'));
}

/** A rule's `**` folder segment (the first may carry the rule's `!`). */
const isGlobstar = (seg: string, i: number): boolean => seg === '**' || (i === 0 && seg === '!**');

/** A rule line as gitignoreMatcher takes it: a run of `**` segments as one, or null when it is dropped. */
function usableRule(line: string): string | null {
  let rule = line;
  if (line.includes('**') && !line.startsWith('#')) {
    const segs = line.split('/');
    const kept = segs.filter((seg, i) => !(i > 0 && isGlobstar(seg, i) && isGlobstar(segs[i - 1], i - 1)));
    if (kept.filter(isGlobstar).length > MAX_GLOBSTARS) return null;
    if (kept.length < segs.length) rule = kept.join('/');
  }
  if (rule.length <= LONG_RULE_CHARS) return rule;
  try {
    const one = ignore({ ignorecase: GIT_IGNORECASE }).add(rule);
    one.test('x');
    one.test('x/');
    return rule;
  } catch {
    return null;
  }
}
