// The project's own formatter on DevA's proposal, in the scratch copy before the checks run — what a developer's
// editor does on save. DevA cannot run anything, so it guesses the formatter's line breaks, and a lint that runs the
// formatter (eslint-plugin-prettier, `prettier --check`) fails a wrong guess and costs a fix round: in two trials on
// a React app, Prettier's layout of a lone JSX child cost one each time. The formatter formats DevA's new files, and
// the files it changes that the formatter leaves as they are on the unchanged code (so a file the project never
// formatted does not come back rewritten line by line); what it changed becomes the proposal, which the diff shows.
// Formatters:
//  - Prettier, where the project configures it (a Prettier config file or package.json's `prettier` key, in the
//    workspace or a folder above it up to its repository's root) and has it installed (its node_modules, or one
//    above it as the type checker is found: detect.ts);
//  - gofmt, for a Go module (go.mod) when gofmt is on PATH (Go code is gofmt's by convention).
// It runs only with the checks, under the same consent: it is the project's own program.
import { promises as fsp } from 'fs';
import * as path from 'path';
import which from 'which';
import { shellWord } from '../text/shell';
import { isPrettierConfig } from '../workspace/fileKinds';
import type { ProposedFile } from '../model/types';
import { ancestorPath, foldersUpToRepoRoot } from './scratchAncestors';
import { runCheck } from './run';
import type { Scratch } from './scratch';

export interface Formatter {
  /** As the user knows it: "Prettier", "gofmt". */
  name: string;
  /** The files it formats, by name. */
  handles(relPath: string): boolean;
  /** The command that prints the files (of `files`) it would change, one a line. */
  listCommand(files: string[]): string;
  /** The command that formats `files` in place. */
  writeCommand(files: string[]): string;
}

/** The files Prettier formats without a plugin. */
const PRETTIER_FILES = /\.(?:[cm]?[jt]sx?|json5?|css|scss|less|html|vue|md|mdx|ya?ml|graphql|gql|hbs|handlebars)$/i;

/** Files a formatter is asked about in one command (a longer list is split: command lines have a limit). */
const FILES_PER_COMMAND = 50;

/** Time limit of one formatter command. */
export const FORMAT_TIMEOUT_MS = 60_000;

async function exists(p: string): Promise<boolean> {
  return fsp.access(p).then(
    () => true,
    () => false,
  );
}

/** Whether `dir` configures Prettier: a config file, or a `prettier` key in its package.json. */
async function configuresPrettier(dir: string): Promise<boolean> {
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  if (names.some(isPrettierConfig)) return true;
  if (!names.includes('package.json')) return false;
  try {
    const pkg = JSON.parse(await fsp.readFile(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
    return pkg !== null && typeof pkg === 'object' && pkg.prettier !== undefined;
  } catch {
    return false;
  }
}

/** The project's Prettier as a script for `node`, relative to the workspace (its node_modules or one above), or null. */
async function localPrettier(workspace: string): Promise<string | null> {
  const levels = (await ancestorPath(workspace)).length;
  for (let up = 0; up <= levels; up++) {
    const dir = [...Array<string>(up).fill('..'), 'node_modules', 'prettier'];
    try {
      const pkg = JSON.parse(await fsp.readFile(path.join(workspace, ...dir, 'package.json'), 'utf8')) as { bin?: unknown };
      const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin && typeof pkg.bin === 'object' ? (pkg.bin as Record<string, unknown>).prettier : undefined;
      if (typeof bin === 'string' && (await exists(path.join(workspace, ...dir, bin)))) return [...dir, ...bin.split('/').filter((s) => s && s !== '.')].join('/');
    } catch {
      /* not installed at this level */
    }
  }
  return null;
}

const words = (files: string[]) => files.map((f) => shellWord(f)).join(' ');

/** The project's formatter (see the header), or null when it has none this knows. */
export async function detectFormatter(workspace: string): Promise<Formatter | null> {
  const dirs = [workspace, ...(await foldersUpToRepoRoot(workspace))];
  let configured = false;
  for (const d of dirs) if ((configured = await configuresPrettier(d))) break;
  const prettier = configured ? await localPrettier(workspace) : null;
  if (prettier) {
    const run = `node ${shellWord(prettier)}`;
    return {
      name: 'Prettier',
      handles: (p) => PRETTIER_FILES.test(p),
      listCommand: (files) => `${run} --list-different ${words(files)}`,
      writeCommand: (files) => `${run} --write ${words(files)}`,
    };
  }
  if ((await exists(path.join(workspace, 'go.mod'))) && (await which('gofmt', { nothrow: true }))) {
    return {
      name: 'gofmt',
      handles: (p) => /\.go$/.test(p),
      listCommand: (files) => `gofmt -l ${words(files)}`,
      writeCommand: (files) => `gofmt -w ${words(files)}`,
    };
  }
  return null;
}

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

/** One formatter command in the scratch copy, with the checks' environment, time limit and Stop. */
function runFormatter(command: string, o: FormatRunOptions) {
  return runCheck({ command, cwd: o.scratch.dir, round: 0, timeoutMs: o.timeoutMs ?? FORMAT_TIMEOUT_MS, signal: o.signal, env: { ...process.env, ...o.scratch.env } });
}

/**
 * Of `relPaths` (as they are in the scratch copy now), the ones the formatter would change. A run that fails (the
 * formatter cannot read a file, it crashed) counts all its files as not formatted: better left alone than rewritten.
 */
export async function unformatted(relPaths: string[], o: FormatRunOptions): Promise<Set<string>> {
  const out = new Set<string>();
  for (const part of chunks(relPaths, FILES_PER_COMMAND)) {
    const run = await runFormatter(o.formatter.listCommand(part), o);
    // Prettier 3 exits 1 when it lists a file; gofmt -l exits 0; an error is another code or no run at all
    if (run.status === 'error' || run.status === 'timeout' || run.status === 'cancelled' || (run.exitCode !== 0 && run.exitCode !== 1)) {
      part.forEach((p) => out.add(p));
      continue;
    }
    const listed = new Set(run.output.split('\n').map((l) => l.trim().replace(/\\/g, '/').replace(/^\.\//, '')));
    for (const p of part) if (listed.has(p)) out.add(p);
  }
  return out;
}

/**
 * Formats the proposed files among `targets` (relative paths) in the scratch copy, where the proposal was written,
 * and reads them back: the proposal with the formatted contents, and the files that changed. A file the formatter
 * cannot format (a syntax error) stays as DevA wrote it; the checks then say why.
 */
export async function formatProposed(files: ProposedFile[], targets: string[], o: FormatRunOptions): Promise<{ files: ProposedFile[]; formatted: string[] }> {
  const wanted = new Set(targets);
  const chosen = files.filter((f) => f.status === 'proposed' && f.relPath && wanted.has(f.relPath) && o.formatter.handles(f.relPath));
  if (!chosen.length) return { files, formatted: [] };
  for (const part of chunks(chosen.map((f) => f.relPath!), FILES_PER_COMMAND)) {
    await runFormatter(o.formatter.writeCommand(part), o);
    if (o.signal?.aborted) return { files, formatted: [] };
  }
  const out = await Promise.all(
    files.map(async (f) => {
      if (!chosen.includes(f)) return f;
      const now = await fsp.readFile(path.join(o.scratch.dir, ...f.relPath!.split('/')), 'utf8').catch(() => null);
      return now === null || now === f.content ? f : { ...f, content: now };
    }),
  );
  // in the proposal's order (the reads above finish in any order)
  const formatted = out.filter((f, i) => f !== files[i]).map((f) => f.relPath!);
  return { files: out, formatted };
}
