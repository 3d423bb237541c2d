// Teams: kpt_merged.md (and kpt_archive.md) only ever grow by lines, so git's built-in `union` merge driver merges
// two teammates' sessions without conflicts. CAPE makes sure the workspace's .gitattributes says so for its KPT files.
import { promises as fsp } from 'fs';
import * as path from 'path';
import { writeFileAtomic } from '../files/fsAtomic';
import { checkWorkspaceLocation, isInside } from '../files/pathSafety';
import { notTextReason } from '../files/text';

export const GITATTRIBUTES = '.gitattributes';

/** A workspace-relative path as a .gitattributes pattern (`/` separators; whitespace as `[[:space:]]`). */
export function gitattributesPattern(relPath: string): string {
  return relPath
    .split(path.sep)
    .join('/')
    .replace(/[\\*?[\]!#]/g, (c) => `\\${c}`)
    .replace(/\s/g, '[[:space:]]');
}

/** True when some line of `.gitattributes` already gives attributes to exactly this pattern (with or without `/`). */
export function hasAttributeLine(gitattributes: string, pattern: string): boolean {
  return gitattributes.split(/\r\n|\r|\n/).some((line) => {
    const t = line.trim();
    if (!t || t.startsWith('#')) return false;
    const first = t.split(/\s+/)[0];
    return first === pattern || first === `/${pattern}`;
  });
}

/**
 * Makes sure `<workspace>/.gitattributes` has `<relative path of filePath> merge=union`. Any existing line for that
 * exact path is respected as the team's choice (e.g. `… -merge` to opt out), so a removed line comes back only when
 * no line names the file at all. Never throws: a .gitattributes that leads outside the workspace or is not text is
 * left alone with a warning. Returns whether a line was added.
 */
export async function ensureUnionMerge(workspaceRoot: string, filePath: string, onWarning?: (m: string) => void): Promise<boolean> {
  if (!isInside(workspaceRoot, filePath, { strict: true })) return false;
  const rel = path.relative(workspaceRoot, filePath);
  const pattern = gitattributesPattern(rel);
  const target = path.join(workspaceRoot, GITATTRIBUTES);
  const warn = (m: string): void => {
    try {
      onWarning?.(m);
    } catch {
      /* a listener's bug must not fail the write */
    }
  };
  try {
    const where = checkWorkspaceLocation(workspaceRoot, GITATTRIBUTES);
    if (!where.ok) {
      warn(`${GITATTRIBUTES} was not updated: ${where.reason}. Add "${pattern} merge=union" yourself so teammates' KPT merges without conflicts.`);
      return false;
    }
    let existing = '';
    try {
      const bytes = await fsp.readFile(target);
      const notText = notTextReason(bytes);
      if (notText) {
        warn(`${GITATTRIBUTES} was not updated: ${notText}. Add "${pattern} merge=union" yourself.`);
        return false;
      }
      existing = bytes.toString('utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    if (hasAttributeLine(existing, pattern)) return false;
    const eol = /\r\n/.test(existing) ? '\r\n' : '\n';
    const sep = existing === '' || /\n$/.test(existing) ? '' : eol;
    await writeFileAtomic(target, `${existing}${sep}${pattern} merge=union${eol}`);
    return true;
  } catch (err) {
    warn(`${GITATTRIBUTES} could not be updated (${(err as Error).message}). Add "${pattern} merge=union" yourself.`);
    return false;
  }
}
