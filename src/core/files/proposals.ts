// DevA's file blocks as proposals, and writing the approved ones: the only way the engine writes workspace files.
// Each path passes pathSafety.ts's checks when proposed and again right before its write (a symlink created since is
// still caught), and once more after the parent folders are created; each write is atomic (fsAtomic.ts).
import * as fs from 'fs';
import * as path from 'path';
import type { ProposedFile } from '../model/types';
import { ensureDir, writeFileAtomic } from './fsAtomic';
import { inFileForm } from './text';
import { checkBeforeWrite, checkFilePath, checkProposalWrite, lstatOrNull, rootOf, samePathKey, sizeRefusal, targetRefusal, type PathCheckOptions } from './pathSafety';

/**
 * Turns DevA's file blocks into proposals: 'create' or 'modify' (with the current content read from disk, and the
 * new content in the file's line breaks and byte-order mark: inFileForm) or 'refused' with a reason. When one reply writes the same path twice, the last block wins and the earlier ones are
 * refused as duplicates. Nothing is written.
 */
export async function proposeFiles(
  workspaceRoot: string,
  blocks: { path: string; content: string }[],
  opts: PathCheckOptions = {},
): Promise<ProposedFile[]> {
  const checks = blocks.map((b) => checkFilePath(workspaceRoot, b.path, opts));
  const lastIndex = new Map<string, number>();
  checks.forEach((c, i) => {
    // by where the path really leads: `src/a.ts` and `link-to-src/a.ts` are one file, and the earlier block would be lost
    if (c.ok) lastIndex.set(samePathKey(c.realRelPath), i);
  });
  const out: ProposedFile[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i];
    const content = typeof block.content === 'string' ? block.content : '';
    const check = checks[i];
    const base = { path: String(block.path ?? ''), content };
    if (!check.ok) {
      out.push({ ...base, action: 'create', status: 'refused', reason: check.reason });
      continue;
    }
    const located = { ...base, relPath: check.relPath, absPath: check.absPath };
    if (lastIndex.get(samePathKey(check.realRelPath)) !== i) {
      const later = checks[lastIndex.get(samePathKey(check.realRelPath))!] as { relPath: string };
      const how = samePathKey(later.relPath) === samePathKey(check.relPath) ? 'the same name but for case or Unicode normalization' : 'the same file through a symbolic link';
      const also = later.relPath === check.relPath ? check.relPath : `${check.relPath} (as ${later.relPath}, ${how})`;
      out.push({ ...located, action: 'create', status: 'refused', reason: `duplicate: a later block in the same reply also writes ${also}` });
      continue;
    }
    const tooLarge = sizeRefusal(content);
    if (tooLarge) {
      out.push({ ...located, action: 'create', status: 'refused', reason: tooLarge });
      continue;
    }
    const st = lstatOrNull(check.absPath);
    const notAFile = targetRefusal(check.relPath, st);
    if (notAFile) {
      out.push({ ...located, action: 'modify', status: 'refused', reason: notAFile });
    } else if (st) {
      try {
        const currentContent = await fs.promises.readFile(check.absPath, 'utf8');
        out.push({ ...located, content: inFileForm(content, currentContent), action: 'modify', status: 'proposed', currentContent });
      } catch (err) {
        out.push({ ...located, action: 'modify', status: 'refused', reason: `cannot read the current file: ${(err as Error).message}` });
      }
    } else {
      out.push({ ...located, action: 'create', status: 'proposed' });
    }
  }
  return out;
}

export interface ApplyOptions {
  /** Apply only these (matched against relPath or the original path); the others are returned unchanged. */
  only?: Set<string>;
  /**
   * The workspace to check against. Pass it whenever the proposals come from outside this process (a saved step
   * record, the webview): without it the root is derived from each file's absPath and relPath.
   */
  workspaceRoot?: string;
  capeFolder?: string;
}

/**
 * Writes the accepted proposals (status 'proposed'), each atomically, after checking the path AGAIN at write time
 * (a symlink created since the proposal is still caught), creating parent directories, and checking once more
 * after creating them. Returns every file with status 'applied' or 'refused' (with the reason); files not
 * selected by `only`, or already applied/refused, are returned unchanged. Never throws for a single file.
 */
export async function applyProposedFiles(files: ProposedFile[], opts: ApplyOptions = {}): Promise<ProposedFile[]> {
  const out: ProposedFile[] = [];
  for (const f of files) {
    if (f.status !== 'proposed') {
      out.push(f);
      continue;
    }
    if (opts.only && !opts.only.has(f.relPath ?? '') && !opts.only.has(f.path)) {
      out.push(f);
      continue;
    }
    out.push(await applyOne(f, opts));
  }
  return out;
}

async function applyOne(f: ProposedFile, opts: ApplyOptions): Promise<ProposedFile> {
  const root = opts.workspaceRoot ?? rootOf(f);
  if (!root) return { ...f, status: 'refused', reason: 'the proposal has no workspace location (it was never checked)' };
  const check = checkProposalWrite(root, f, opts);
  if (!check.ok) return { ...f, status: 'refused', reason: check.reason };
  try {
    await ensureDir(path.dirname(check.absPath));
    // the directories we just created (or that appeared meanwhile) must still lead inside the workspace
    const again = checkBeforeWrite(root, check.relPath, f.content, opts);
    if (!again.ok) return { ...f, status: 'refused', reason: again.reason };
    await writeFileAtomic(again.absPath, f.content);
    return { ...f, relPath: again.relPath, absPath: again.absPath, status: 'applied', reason: undefined };
  } catch (err) {
    return { ...f, status: 'refused', reason: `write failed: ${(err as Error).message}` };
  }
}
