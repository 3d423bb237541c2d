// The three workspace tools' bodies — read_file, search_files, list_files — under the read policy
// (workspace/policy.ts): each checks its path, reads or walks, and answers with its text and its record. A path the
// model gives is a named one (the policy reads installed dependencies by it); a walk enters them only from such a
// path inside them. The step's
// bounds, the records' order and the refusals of calls that did not check out are executor.ts's; the lines of a
// search's and a listing's answer, answerLines.ts's.
import { promises as fsp } from 'fs';
import * as fs from 'fs';
import * as path from 'path';
import { checkFilePath, MAX_PATH_CHARS } from '../files/pathSafety';
import { statOrNull, undecodableName } from '../workspace/disk';
import { shorten } from '../text/cut';
import { fileLines, numberedLines } from '../text/lines';
import { inDependencies, type WorkspacePolicy } from '../workspace/policy';
import type { ToolCallRecord } from '../model/types';
import type { ListFilesArgs, ReadFileArgs, SearchFilesArgs } from './args';
import { shownToolName } from './specs';
import { fold, hitExcerpt, listingLines } from './answerLines';

/**
 * A search with at most this many hits is focused: its record keeps where they are (path and line, never the text),
 * so the next step can build on what the role found (tools/reads.ts).
 */
export const FOCUSED_SEARCH_HITS = 10;
/** search_files stops after this many matching lines. */
export const MAX_SEARCH_HITS = 200;
/** Files looked at by one search or listing (a monorepo must not make one call scan the disk for minutes). */
export const MAX_WALK_FILES = 20_000;
/** Folders read by one search or listing (countless empty folders must not make one call walk without end). */
export const MAX_WALK_DIRS = 10_000;

/** A call's answer, before the step's bounds are applied (executor.ts). */
export interface Outcome {
  content: string;
  isError: boolean;
  record: Omit<ToolCallRecord, 'id' | 'chars'>;
  /** A file whose content was returned (read_file). */
  readPath?: string;
}

export interface WorkspaceCallsOptions {
  /** The bounds of one search's or listing's walk (default MAX_WALK_FILES files, MAX_WALK_DIRS folders). */
  walkBounds?: { files?: number; dirs?: number };
  signal?: AbortSignal;
}

export class WorkspaceCalls {
  constructor(
    private readonly policy: WorkspacePolicy,
    private readonly opts: WorkspaceCallsOptions = {},
  ) {}

  async readFile(a: ReadFileArgs): Promise<Outcome> {
    const res = await this.policy.read(a.path, true);
    if (!res.ok) return refused('read_file', a.path, res.reason + this.lineHint(a.path), res.relPath);
    const lines = fileLines(res.text);
    const total = lines.length;
    if (a.start_line === undefined && a.end_line === undefined) {
      return {
        content: res.text === '' ? `(${res.relPath} is empty)` : `${res.relPath}, ${total} line(s):\n${numberedLines(lines, 1)}`,
        isError: false,
        record: { tool: 'read_file', target: res.relPath, path: res.relPath },
        readPath: res.relPath,
      };
    }
    const from = a.start_line ?? 1;
    const to = Math.min(a.end_line ?? total, total);
    if (from > total) return refused('read_file', res.relPath, `${res.relPath} has ${total} lines; start_line ${from} is past its end`, res.relPath);
    const body = numberedLines(lines.slice(from - 1, to), from);
    return {
      content: `${res.relPath} lines ${from}–${to} of ${total}:\n${body}`,
      isError: false,
      record: { tool: 'read_file', target: res.relPath, path: res.relPath, lines: [from, to] },
      readPath: res.relPath,
    };
  }

  async searchFiles(a: SearchFilesArgs): Promise<Outcome> {
    const dir = this.checkDir(a.path, true);
    if (!dir.ok) return refused('search_files', a.query, dir.reason, a.path);
    const needle = fold(a.query);
    const hits: string[] = [];
    /** Where the hits are, for the record (a focused search's only). */
    const at: [string, number][] = [];
    let more = false;
    const walked: WalkEnd = {};
    const named = dir.file || inDependencies(dir.relDir);
    for await (const rel of dir.file ? one(dir.relDir) : this.walk(dir.relDir, walked)) {
      const res = await this.policy.read(rel, named);
      // the one file asked for, refused (too large, binary, a secret's name): why, not a "no matches" it may belie
      if (!res.ok && dir.file) return refused('search_files', a.query, res.reason, res.relPath ?? rel);
      if (!res.ok || !fold(res.text).includes(needle)) continue;
      const lines = res.text.split('\n');
      for (let i = 0; i < lines.length; i++) {
        if (!fold(lines[i]).includes(needle)) continue;
        if (hits.length >= MAX_SEARCH_HITS) {
          more = true;
          break;
        }
        // the line as it is in the file, its indentation kept (a SEARCH hunk copied from it must match), its end trimmed
        hits.push(`${rel}:${i + 1}: ${hitExcerpt(lines[i].trimEnd(), needle)}`);
        at.push([rel, i + 1]);
      }
      // "stopped at" only when a match past the limit was seen (the files after a full list are looked at for one)
      if (more) break;
    }
    const where = dir.file ? ` in ${dir.relDir}` : dir.relDir ? ` under ${dir.relDir}/` : '';
    const stopped = more
      ? `stopped at ${MAX_SEARCH_HITS} matches; search for something more specific`
      : walked.stopped && `stopped after ${walked.stopped}; search a sub-folder`;
    const content = (hits.length === 0 ? `no matches for "${a.query}"${where}` : hits.join('\n')) + (stopped ? `\n… (${stopped})` : '');
    return {
      content,
      isError: false,
      record: {
        tool: 'search_files',
        target: a.query,
        query: a.query,
        ...(dir.relDir ? { path: dir.relDir } : {}),
        hits: hits.length,
        ...(hits.length && hits.length <= FOCUSED_SEARCH_HITS ? { found: at } : {}),
      },
    };
  }

  async listFiles(a: ListFilesArgs): Promise<Outcome> {
    const dir = this.checkDir(a.path);
    if (!dir.ok) return refused('list_files', a.path ?? '.', dir.reason, a.path);
    const all: string[] = [];
    const walked: WalkEnd = {};
    for await (const rel of this.walk(dir.relDir, walked)) all.push(rel);
    const { lines, depth, cut } = listingLines(all, dir.relDir);
    // a summarized listing says how many files it stands for, so it does not read as cut short
    const notes = [
      (depth !== null || cut > 0) && `${all.length} files in all, each folder's files before its sub-folders`,
      depth !== null &&
        `${depth === 0 ? 'the files of each sub-folder are' : `files more than ${depth} folder(s) down are`} counted per folder; list_files on one of them shows its files`,
      cut > 0 && `${cut} more line(s) left out; list a sub-folder`,
      walked.stopped && `stopped after ${walked.stopped}; list a sub-folder`,
    ].filter(Boolean);
    const content = (all.length === 0 ? `no readable files under ${dir.relDir || 'the workspace root'}` : lines.join('\n')) + (notes.length ? `\n… (${notes.join('; ')})` : '');
    return { content, isError: false, record: { tool: 'list_files', target: dir.relDir || '.', path: dir.relDir || '.', hits: all.length } };
  }

  /** A path written as search_files shows a hit ("src/app.ts:12") names a readable file: how to read from that line. */
  private lineHint(p: string): string {
    const m = /^(.+):(\d+):?$/.exec(p);
    return m && this.policy.check(m[1], true).ok ? `; to read from line ${m[2]}, call read_file with path "${m[1]}" and start_line ${m[2]}` : '';
  }

  /**
   * A folder argument: the workspace root when absent, else the same path rules as files, and not an excluded folder.
   * With `fileToo`, a file passes as well (`file: true`; the read policy then decides on reading it).
   */
  private checkDir(p: string | undefined, fileToo = false): { ok: true; relDir: string; file?: true } | { ok: false; reason: string } {
    if (namesRoot(p ?? '')) return { ok: true, relDir: '' };
    // not trimmed: a space around a name is refused with the name meant, as for read_file and DevA's blocks (pathSafety)
    const safe = checkFilePath(this.policy.root, p!, { capeFolder: this.policy.capeFolder });
    if (!safe.ok) return safe;
    // a missing path is said after the folder rules (one under .git/ or cape/ is refused as such, existing or not)
    const st = statOrNull(safe.absPath);
    // a file is judged as a file, by the read policy (its folders, its name, its size, its content: searchFiles)
    if (fileToo && st?.isFile()) return { ok: true, relDir: safe.relPath, file: true };
    // the folders on the way, and (through a symlinked folder) those where it really leads
    for (const rel of new Set([safe.relPath, safe.realRelPath])) {
      const why = this.policy.excludedDir(rel, true);
      if (!why) continue;
      const via = rel === safe.relPath ? '' : ` leads through a symbolic link to ${rel}`;
      return { ok: false, reason: `${safe.relPath}${via}: ${why}` };
    }
    if (!st) return { ok: false, reason: `${safe.relPath} does not exist` };
    if (!st.isDirectory()) return { ok: false, reason: `${safe.relPath} is a file, not a folder (use read_file)` };
    // a folder reached through a symlinked one is walked where it really is: the ignore rules of the files under it
    // name their real paths (a walk under the link's path would list the files a root-anchored rule leaves out)
    return { ok: true, relDir: safe.realRelPath };
  }

  /**
   * The files under a folder the policy lets the model see by name (sorted, depth-first; symlinks are not followed),
   * up to the walk's bounds of files looked at and folders read; `end.stopped` says which one ended it early. Into
   * installed dependencies only from a folder inside them (the policy's named paths): from above, never.
   */
  private async *walk(relDir: string, end: WalkEnd): AsyncGenerator<string> {
    const named = inDependencies(relDir);
    const maxFiles = this.opts.walkBounds?.files ?? MAX_WALK_FILES;
    const maxDirs = this.opts.walkBounds?.dirs ?? MAX_WALK_DIRS;
    let seen = 0;
    let read = 0;
    const stack: string[] = [relDir];
    while (stack.length > 0) {
      if (this.opts.signal?.aborted) return;
      if (read++ >= maxDirs) {
        end.stopped = `reading ${maxDirs} folders`;
        return;
      }
      const dir = stack.pop()!;
      let entries: fs.Dirent[];
      const dirAbs = path.join(this.policy.root, ...dir.split('/').filter(Boolean));
      try {
        entries = await fsp.readdir(dirAbs, { withFileTypes: true });
      } catch {
        continue;
      }
      entries.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
      this.policy.noteDir(dir, entries.some((e) => e.name === '.gitignore' && e.isFile()));
      const subdirs: string[] = [];
      for (const e of entries) {
        const rel = dir ? `${dir}/${e.name}` : e.name;
        if (e.isDirectory()) {
          if (!this.policy.skipDir(rel, named)) subdirs.push(rel);
        } else if (e.isFile() && !this.policy.skipFileName(rel, named) && !undecodableName(dirAbs, e.name)) {
          if (++seen > maxFiles) {
            end.stopped = `looking at ${maxFiles} files`;
            return;
          }
          yield rel;
        }
      }
      for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
    }
  }
}

/**
 * A folder argument naming the workspace root: "", ".", "./", "/", "./.", the Windows way ".\\" — segments that are
 * all empty or "."; a lone "\\" is refused as a drive's root, like any absolute path.
 */
function namesRoot(p: string): boolean {
  const t = p.trim();
  return !t.startsWith('\\') && t.split(/[\\/]/).every((seg) => seg === '' || seg === '.');
}

async function* one(rel: string): AsyncGenerator<string> {
  yield rel;
}

/** How a walk ended: `stopped` names the bound that ended it before the last folder. */
interface WalkEnd {
  stopped?: string;
}
/** A refused call's answer and record, naming its target within MAX_PATH_CHARS (a model's text in a path field is not kept whole). */
export function refused(tool: string, target: string, reason: string, relPath?: string): Outcome {
  const named = (s: string) => shorten(s, MAX_PATH_CHARS);
  return {
    content: `refused: ${reason}`,
    isError: true,
    record: { tool: shownToolName(tool), target: named(relPath ?? target), refused: reason, ...(tool !== 'search_files' && relPath ? { path: named(relPath) } : {}) },
  };
}
