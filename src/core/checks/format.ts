// The project's own formatter on DevA's proposal, in the scratch copy before the checks run — what a developer's
// editor does on save. DevA cannot run anything, so it guesses the formatter's line breaks, and a lint that runs the
// formatter (eslint-plugin-prettier, `prettier --check`) fails a wrong guess and costs a fix round: in two trials on
// a React app, Prettier's layout of a lone JSX child cost one each time. The formatter formats DevA's new files, and
// the files it changes that the formatter leaves as they are on the unchanged code (so a file the project never
// formatted does not come back rewritten line by line); what it changed becomes the proposal, which the diff shows.
// Which formatter is the project's is formatters.ts's to say (one for the root, and one a sub-project of another
// language has, each run here on the files it handles: the check loop, loop.ts, runs them in turn).
// It runs only with the checks, under the same consent: it is the project's own program.
import { promises as fsp } from 'fs';
import * as path from 'path';
import type { ProposedFile } from '../model/types';
import { proposedInCopy, takeCheckFixes } from './checkFixes';
import type { Formatter } from './formatters';
import { runCheck } from './run';
import type { Scratch } from './scratch';
import { plainFileOfCopy } from './scratchOverlay';

export { detectFormatter, detectFormatters, formattersLayOut, type Formatter } from './formatters';

/** Files a formatter is asked about in one command (a longer list is split: command lines have a limit). */
const FILES_PER_COMMAND = 50;

/** Time limit of one formatter command. */
export const FORMAT_TIMEOUT_MS = 60_000;

function chunks<T>(xs: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

export interface FormatRunOptions {
  formatter: Formatter;
  scratch: Scratch;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * One formatter command in the scratch copy, with the checks' environment, time limit and Stop. Its output is read
 * here, not by DevA: kept whole (up to the run's cap), not trimmed to what DevA gets, so a list of 50 long paths
 * names all of them.
 * The environment is the copy's (Scratch.env), made for the folders the check commands run in (runFolders), not for
 * a sub-project formatter's own folder when no check runs there — and no formatter here needs it: what it adds for a
 * folder is cargo's build folder (CARGO_TARGET_DIR: rustfmt is left out, formatters.ts) and PYTHONPATH to the copy's
 * editable sources, which Black and Ruff never import (they parse the files they are given) and Prettier, Biome and
 * gofmt never read.
 */
function runFormatter(command: string, o: FormatRunOptions) {
  const env = { ...process.env, ...o.scratch.env };
  return runCheck({ command, cwd: o.scratch.dir, round: 0, timeoutMs: o.timeoutMs ?? FORMAT_TIMEOUT_MS, signal: o.signal, env, outputForModel: Number.POSITIVE_INFINITY });
}

/** Which of `relPaths` are plain files of the copy, no link on their way (scratchOverlay.ts plainFileOfCopy). */
async function plainFiles(relPaths: string[], o: FormatRunOptions): Promise<Set<string>> {
  const plain = await Promise.all(relPaths.map((p) => plainFileOfCopy(o.scratch.dir, p)));
  return new Set(relPaths.filter((_, i) => plain[i]));
}

/**
 * Of `relPaths` (as they are in the scratch copy now), the ones the formatter would change: listed by its own command,
 * or — for a formatter without one — formatted and compared, then put back as they were. A run that fails (the
 * formatter cannot read a file, it crashed) counts all its files as not formatted: better left alone than rewritten.
 * A file the copy links (under a linked dependency folder, or a link itself) counts as changed without the formatter
 * seeing it: its path leads into the user's tree, which is never written.
 */
async function unformatted(relPaths: string[], o: FormatRunOptions): Promise<Set<string>> {
  const plain = await plainFiles(relPaths, o);
  const out = new Set(relPaths.filter((p) => !plain.has(p)));
  for (const part of chunks([...plain], FILES_PER_COMMAND)) {
    const changed = o.formatter.listCommand ? await listed(part, o) : await changedByFormatting(part, o);
    for (const p of changed ?? part) out.add(p);
  }
  return out;
}

/**
 * The existing files among `files` that DevA changes and the formatter would change as they are on the unchanged code
 * (unformatted): they are left as DevA wrote them. Asked of the first proposal, and of each fix round's files the
 * proposal did not change before, while the copy still holds them unchanged.
 */
export function unformattedModified(files: readonly ProposedFile[], o: FormatRunOptions): Promise<Set<string>> {
  const modified = files.filter((f) => f.status === 'proposed' && f.action === 'modify' && f.relPath && o.formatter.handles(f.relPath)).map((f) => f.relPath!);
  return modified.length ? unformatted(modified, o) : Promise.resolve(new Set());
}

const failed = (run: Awaited<ReturnType<typeof runFormatter>>) =>
  // Prettier 3 exits 1 when it lists a file; gofmt -l exits 0; an error is another code or no run at all
  run.status === 'error' || run.status === 'timeout' || run.status === 'cancelled' || (run.exitCode !== 0 && run.exitCode !== 1);

/** The files of `part` the formatter's list command names; null when it failed. */
async function listed(part: string[], o: FormatRunOptions): Promise<string[] | null> {
  const run = await runFormatter(o.formatter.listCommand!(part), o);
  if (failed(run)) return null;
  const names = new Set(run.output.split('\n').map((l) => l.trim().replace(/\\/g, '/').replace(/^\.\//, '')));
  return part.filter((p) => names.has(p));
}

/** The files of `part` (plain files of the copy) that formatting changes, each put back as it was; null when the formatter failed. */
async function changedByFormatting(part: string[], o: FormatRunOptions): Promise<string[] | null> {
  const abs = (p: string) => path.join(o.scratch.dir, ...p.split('/'));
  const before = await Promise.all(part.map((p) => fsp.readFile(abs(p))));
  const run = await runFormatter(o.formatter.writeCommand(part), o);
  const changed = new Set<string>();
  await Promise.all(
    part.map(async (p, i) => {
      const now = await fsp.readFile(abs(p)).catch(() => null);
      if (now !== null && now.equals(before[i])) return;
      changed.add(p);
      await fsp.writeFile(abs(p), before[i]);
    }),
  );
  return run.status === 'passed' ? part.filter((p) => changed.has(p)) : null;
}

/**
 * Formats the proposed files among `targets` (relative paths) in the scratch copy, where the proposal was written,
 * and reads them back: the proposal with the formatted contents, and the files that changed. Only a plain file of the
 * copy that holds what DevA proposed is formatted: one overlay did not write (under a linked folder, a failed write)
 * is the user's or the unchanged one, and stays as DevA wrote it. A file the formatter cannot format (a syntax error)
 * stays as DevA wrote it too; the checks then say why. What it changed is read back as a check's fixes are
 * (checkFixes.ts): nothing is taken when a run did not end by itself (killed at the time limit), nor a file it left
 * as no text; such a file, and one it deleted, is written back to the copy as DevA proposed it.
 */
export async function formatProposed(files: ProposedFile[], targets: string[], o: FormatRunOptions): Promise<{ files: ProposedFile[]; formatted: string[] }> {
  const wanted = new Set(targets);
  const candidates = files.filter((f) => f.relPath && wanted.has(f.relPath) && o.formatter.handles(f.relPath));
  const before = await proposedInCopy(o.scratch.dir, candidates);
  if (!before.length) return { files, formatted: [] };
  let everyRunEnded = true;
  for (const part of chunks(before.map((b) => b.file.relPath!), FILES_PER_COMMAND)) {
    const run = await runFormatter(o.formatter.writeCommand(part), o);
    everyRunEnded &&= run.exitCode !== null;
    if (o.signal?.aborted) return { files, formatted: [] };
  }
  const { files: out, fixed } = await takeCheckFixes(o.scratch, files, before, everyRunEnded);
  return { files: out, formatted: fixed };
}
