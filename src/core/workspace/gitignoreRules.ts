// The `.gitignore` rules the read policy (policy.ts, rule 3) applies to a workspace, as git reads them: every
// `.gitignore` from the root down to a path's folder (parsed on first use, cached per folder until forgotten), the
// repository's `info/exclude` with the root's, and, in a folder of a repository, the `.gitignore` files of the
// folders above it (unless they ignore the root itself). The matchers and where the repository is are gitRules.ts's.
// Plain Node: nothing in src/core may import 'vscode'.
import * as path from 'path';
import type { Ignore } from 'ignore';
import { stamp } from './disk';
import { gitignoreMatcher, gitTopOf, infoExcludeOf, readRules } from './gitRules';

/** `.gitignore` rules of a folder above the workspace root, inside the same git repository (see aboveRoot()). */
interface AboveLevel {
  /** The root's path below that folder, with a trailing slash ('packages/app/'). */
  prefix: string;
  /** The rules' file as the root sees it ('../../.gitignore'), for the reasons given. */
  label: string;
  ig: Ignore;
}

/** The `.gitignore` rules of one workspace root; `forget()` a `.gitignore` that changed (the index does on file events). */
export class GitignoreRules {
  private readonly rules = new Map<string, Ignore | null>();
  /** The rules of the folders above the root (aboveRoot()), made on first use, dropped by forget(). */
  private above: { key: string; levels: AboveLevel[] } | null = null;

  constructor(private readonly root: string) {}

  /** Drops the cached rules of the folder holding this `.gitignore` (workspace-relative), or all of them. */
  forget(gitignoreRel?: string): void {
    if (gitignoreRel === undefined) {
      this.rules.clear();
      this.above = null;
    } else this.rules.delete(path.posix.dirname(gitignoreRel.replace(/\\/g, '/')).replace(/^\.$/, ''));
  }

  /** Whether a folder has a `.gitignore` (the walker knows from its listing: saves a failed read). */
  noteDir(dirRel: string, hasGitignore: boolean): void {
    if (!hasGitignore && dirRel !== '') this.rules.set(dirRel, null);
    else if (hasGitignore && this.rules.get(dirRel) === null) this.rules.delete(dirRel);
  }

  /** The parsed `.gitignore` of a folder ('' = root, which also takes the repository's `info/exclude`), or null. */
  private rulesOf(dirRel: string): Ignore | null {
    const cached = this.rules.get(dirRel);
    if (cached !== undefined) return cached;
    const texts: string[] = [];
    if (dirRel === '') {
      const exclude = infoExcludeOf(this.root);
      const text = exclude && readRules(exclude, true);
      if (text !== null) texts.push(text);
    }
    const text = readRules(path.join(this.root, ...dirRel.split('/').filter(Boolean), '.gitignore'), false);
    if (text !== null) texts.push(text);
    const ig = texts.length ? gitignoreMatcher(texts) : null;
    this.rules.set(dirRel, ig);
    return ig;
  }

  /**
   * What `.gitignore` says above the root when the workspace is a folder inside a git repository (not its top): the
   * rules of each folder from the repository's top down to the root's parent, and the repository's `info/exclude`.
   * None when the root holds `.git` itself or no folder above it does, and none when they ignore the root itself
   * (opening an ignored folder is the user's choice, not a reason to show nothing). `key` stamps the files read (and,
   * at a repository's top, its info/exclude, which the root's own rules take), so the index can tell they changed
   * (aboveKey()).
   */
  private aboveRoot(): { key: string; levels: AboveLevel[] } {
    if (this.above) return this.above;
    const top = gitTopOf(this.root);
    if (!top) return (this.above = { key: '', levels: [] });
    if (top === this.root) {
      // the rules of the root itself (rulesOf('')) take the repository's info/exclude: its stamp tells a change
      const exclude = infoExcludeOf(top);
      return (this.above = { key: exclude ? (stamp(exclude) ?? '-') : '', levels: [] });
    }
    const segs = path.relative(top, this.root).split(path.sep);
    const levels: AboveLevel[] = [];
    const stamps: string[] = [];
    for (let i = 0; i < segs.length; i++) {
      const dir = path.join(top, ...segs.slice(0, i));
      const files = [path.join(dir, '.gitignore')];
      const exclude = i === 0 ? infoExcludeOf(top) : null;
      if (exclude) files.unshift(exclude);
      const texts: string[] = [];
      for (const f of files) {
        stamps.push(stamp(f) ?? '-');
        // the first is `info/exclude` when there is one (outside the work tree: followed like git does)
        const text = readRules(f, f === exclude);
        if (text !== null) texts.push(text);
      }
      if (!texts.length) continue;
      const label = `${'../'.repeat(segs.length - i)}.gitignore`;
      levels.push({ prefix: segs.slice(i).join('/') + '/', label, ig: gitignoreMatcher(texts) });
    }
    // the root itself as those rules see it (`ignore` also tests the folders on the way to it)
    let rootIgnored = false;
    for (const l of levels) {
      const r = l.ig.test(l.prefix);
      if (r.ignored) rootIgnored = true;
      else if (r.unignored) rootIgnored = false;
    }
    return (this.above = rootIgnored ? { key: stamps.join('|'), levels: [] } : { key: stamps.join('|'), levels });
  }

  /**
   * Stamps of the rules files outside the walked folders that the policy applies: the `.gitignore` files above the
   * root and the repository's `info/exclude` (see aboveRoot()). The walk's folder records hold only while it is the same.
   */
  aboveKey(): string {
    return this.aboveRoot().key;
  }

  /**
   * Whether `.gitignore` rules exclude this one entry, assuming its folders are not excluded (the walker prunes
   * excluded folders; the policy's `excluded()` checks the folders first). Returns the rule that excludes it, or null.
   */
  gitignored(relPath: string, isDir: boolean): string | null {
    let verdict: string | null = null;
    // a workspace that is a folder of a repository: the rules of the folders above it come first, as git reads them
    for (const { prefix, label, ig } of this.aboveRoot().levels) {
      const r = ig.test(prefix + relPath + (isDir ? '/' : ''));
      if (r.ignored) verdict = `${label}: ${r.rule?.pattern ?? relPath}`;
      else if (r.unignored) verdict = null;
    }
    // each level from the root down: the folder's rules test the rest of the path (no split/join per level)
    for (let at = 0; ; ) {
      const dir = at ? relPath.slice(0, at - 1) : '';
      const ig = this.rulesOf(dir);
      if (ig) {
        const sub = (at ? relPath.slice(at) : relPath) + (isDir ? '/' : '');
        const r = ig.test(sub);
        if (r.ignored) verdict = `${dir ? dir + '/' : ''}.gitignore: ${r.rule?.pattern ?? sub}`;
        else if (r.unignored) verdict = null;
      }
      const slash = relPath.indexOf('/', at);
      if (slash < 0) return verdict;
      at = slash + 1;
    }
  }
}
