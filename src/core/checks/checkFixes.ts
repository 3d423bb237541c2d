// What a check command changed in DevA's proposed files as it ran: a check that fixes as it checks (`eslint --fix .`,
// `prettier --write`, `biome check --write`) rewrites them in the scratch copy and then judges the fixed text. The
// loop reads the proposed files the copy holds before each command on the proposal (proposedInCopy) and again after
// it (takeCheckFixes): a file the command rewrote is taken into the proposal, as the formatter's layout is (format.ts
// reads it by these same rules), so the diff the user reviews is the text the checks ran on. Files outside the
// proposal it changed stay in the copy, which is thrown away, and are not told. A proposed file it removed, or left as
// no plain text file (text by files/text.ts's one rule: no NUL byte, valid UTF-8), is written back as the proposal has
// it: the proposal cannot remove a file, and the next checks see what the user would get. The runs on the unchanged
// workspace (baseline.ts, failFirst.ts) are not the proposal: nothing of theirs is taken. Nor is anything of a command
// that did not end by itself (killed at the time limit, by a signal): a file it was writing may be half written, so
// every proposed file it changed is written back as the proposal has it.
import { promises as fsp } from 'fs';
import * as path from 'path';
import { notTextReason } from '../files/text';
import type { ProposedFile } from '../model/types';
import type { Scratch } from './scratch';
import { plainFileOfCopy } from './scratchOverlay';

/** A proposed file as the copy holds it before a command: its bytes there, which are the proposal's text. */
export interface InCopy {
  file: ProposedFile;
  bytes: Buffer;
}

const inCopy = (dir: string, relPath: string) => path.join(dir, ...relPath.split('/'));

/** The bytes of `relPath` when it is a plain file of the copy (no link on its way: scratchOverlay.ts); else null. */
async function plainBytes(dir: string, relPath: string): Promise<Buffer | null> {
  if (!(await plainFileOfCopy(dir, relPath))) return null;
  return fsp.readFile(inCopy(dir, relPath)).catch(() => null);
}

/**
 * The proposed files the copy holds as the proposal has them: plain files of the copy with the proposal's text (one
 * the copy could not take holds the user's version, or is a link, and is no command's to change).
 */
export async function proposedInCopy(dir: string, files: readonly ProposedFile[]): Promise<InCopy[]> {
  const proposed = files.filter((f) => f.status === 'proposed' && f.relPath);
  const read = await Promise.all(proposed.map((f) => plainBytes(dir, f.relPath!)));
  return proposed.flatMap((file, i) => {
    const bytes = read[i];
    return bytes && bytes.equals(Buffer.from(file.content)) ? [{ file, bytes }] : [];
  });
}

/**
 * The proposal with what a command changed of `before` (proposedInCopy of the same `files`, read before it ran) taken in, and the paths it
 * changed, in the proposal's order. A file it removed, or left as no plain file or no text, is written back as the
 * proposal has it; so is every file it changed when it did not end by itself (`ended` false: see the header).
 */
export async function takeCheckFixes(
  scratch: Pick<Scratch, 'dir' | 'overlay'>,
  files: ProposedFile[],
  before: readonly InCopy[],
  ended: boolean,
): Promise<{ files: ProposedFile[]; fixed: string[] }> {
  const taken = new Map<ProposedFile, string>();
  const putBack: ProposedFile[] = [];
  for (const { file, bytes } of before) {
    const now = await plainBytes(scratch.dir, file.relPath!);
    if (now?.equals(bytes)) continue;
    if (ended && now && notTextReason(now) === null) taken.set(file, now.toString('utf8'));
    else putBack.push(file);
  }
  if (putBack.length) await scratch.overlay(putBack);
  if (!taken.size) return { files, fixed: [] };
  return { files: files.map((f) => (taken.has(f) ? { ...f, content: taken.get(f)! } : f)), fixed: files.filter((f) => taken.has(f)).map((f) => f.relPath!) };
}
