// Runs a step's tool calls under the read policy (workspace/policy.ts: path rules, .git, cape/, secrets, .gitignore,
// size, binaries) and the step's bounds. A refused call gets an error result that says why, and nothing of the
// refused file is read into a result. Calls of one turn run in parallel; their characters are then counted in the
// calls' order, so the outcome does not depend on which read finished first. Past a bound every call receives
// LIMIT_REACHED. Each call becomes a ToolCallRecord (what was asked, how much was returned, why it was refused — never
// the body) for the session events and the pair artifact.
import { promises as fsp } from 'fs';
import * as fs from 'fs';
import * as path from 'path';
import { checkFilePath } from '../files/pathSafety';
import { shorten, sliceWhole } from '../text/cut';
import { WorkspacePolicy } from '../workspace/policy';
import type { ToolAnswer } from '../llm/toolLoop';
import type { ToolCall, ToolCallRecord } from '../model/types';
import { checkToolArgs, type ListFilesArgs, type ReadFileArgs, type SearchFilesArgs } from './args';
import { DEFAULT_MAX_TOOL_CALLS, DEFAULT_MAX_TOOL_CHARS, LIMIT_REACHED, type ToolBounds } from './specs';

/**
 * A search with at most this many hits is focused: its record keeps where they are (path and line, never the text),
 * so the next step can build on what the role found (tools/reads.ts).
 */
export const FOCUSED_SEARCH_HITS = 10;
/** search_files stops after this many matching lines; list_files after this many paths. */
export const MAX_SEARCH_HITS = 200;
export const MAX_LIST_ENTRIES = 1000;
/** Files looked at by one search or listing (a monorepo must not make one call scan the disk for minutes). */
export const MAX_WALK_FILES = 20_000;
/** Folders read by one search or listing (countless empty folders must not make one call walk without end). */
export const MAX_WALK_DIRS = 10_000;
const MAX_HIT_LINE_CHARS = 240;

export interface ToolRunnerOptions {
  workspace: string;
  capeFolder?: string;
  bounds?: Partial<ToolBounds>;
  /** Called once per call, in the calls' order, when its result is final. */
  onCall?: (record: ToolCallRecord) => void;
  signal?: AbortSignal;
  /** A policy already built for this workspace (shares its parsed .gitignore files). */
  policy?: WorkspacePolicy;
  /** The bounds of one search's or listing's walk (default MAX_WALK_FILES files, MAX_WALK_DIRS folders). */
  walkBounds?: { files?: number; dirs?: number };
}

interface Outcome {
  content: string;
  isError: boolean;
  record: Omit<ToolCallRecord, 'id' | 'chars'>;
  /** A file whose content was returned (read_file). */
  readPath?: string;
}

/** Positive integer bounds; anything else falls back to the default. */
export function resolveBounds(b: Partial<ToolBounds> = {}): ToolBounds {
  const ok = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;
  return { maxCalls: ok(b.maxCalls) ? b.maxCalls : DEFAULT_MAX_TOOL_CALLS, maxChars: ok(b.maxChars) ? b.maxChars : DEFAULT_MAX_TOOL_CHARS };
}

export class ToolRunner {
  readonly bounds: ToolBounds;
  readonly records: ToolCallRecord[] = [];
  /** Workspace-relative paths whose content (whole or in part) was returned by read_file. */
  readonly readPaths = new Set<string>();
  private readonly policy: WorkspacePolicy;
  private calls = 0;
  private chars = 0;

  constructor(private readonly opts: ToolRunnerOptions) {
    this.bounds = resolveBounds(opts.bounds);
    this.policy = opts.policy ?? new WorkspacePolicy(opts.workspace, { capeFolder: opts.capeFolder });
  }

  get usedCalls(): number {
    return this.calls;
  }

  get usedChars(): number {
    return this.chars;
  }

  /** No further call can be answered. */
  spent(): boolean {
    return this.calls >= this.bounds.maxCalls || this.chars >= this.bounds.maxChars;
  }

  /** Answers every call of one turn (in parallel), in the calls' order. */
  async execute(calls: ToolCall[]): Promise<ToolAnswer[]> {
    const planned = calls.map((c) => {
      if (this.spent()) return null;
      this.calls++;
      return this.run(c);
    });
    const outcomes = await Promise.all(planned);
    const answers: ToolAnswer[] = [];
    calls.forEach((c, i) => {
      let o = outcomes[i];
      if (!o) {
        o = { content: LIMIT_REACHED, isError: true, record: { tool: c.name, target: targetOf(c.input), limited: true } };
      } else if (!o.isError && this.chars >= this.bounds.maxChars) {
        // an earlier call of this turn used the rest of the budget
        o = { content: LIMIT_REACHED, isError: true, record: { ...o.record, limited: true } };
      } else if (!o.isError) {
        const left = this.bounds.maxChars - this.chars;
        if (o.content.length > left) {
          const cut = cutAt(o.content, left);
          o = {
            ...o,
            content: `${cut}\n[… cut here: the step's tool budget of ${this.bounds.maxChars} characters is used up — ${LIMIT_REACHED}]`,
            record: { ...o.record, truncated: true },
          };
          this.chars += cut.length;
        } else {
          this.chars += o.content.length;
        }
        if (o.readPath) this.readPaths.add(o.readPath);
      }
      const record: ToolCallRecord = { id: c.id, ...o.record, chars: o.isError ? 0 : o.content.length };
      this.records.push(record);
      try {
        this.opts.onCall?.(record);
      } catch {
        /* a listener's bug must not break the step */
      }
      answers.push({ toolUseId: c.id, content: o.content, isError: o.isError });
    });
    return answers;
  }

  private async run(c: ToolCall): Promise<Outcome> {
    // input the model could not finish or did not write as an object: refused like bad arguments (and counted alike,
    // so a model whose every call is cut off still meets the step's limit)
    if (c.problem) return refused(c.name, targetOf(c.input), c.problem);
    const checked = checkToolArgs(c.name, c.input);
    if (!checked.ok) return refused(c.name, targetOf(c.input), checked.reason);
    try {
      switch (checked.call.tool) {
        case 'read_file':
          return await this.readFile(checked.call.args);
        case 'search_files':
          return await this.searchFiles(checked.call.args);
        case 'list_files':
          return await this.listFiles(checked.call.args);
      }
    } catch (err) {
      return refused(c.name, targetOf(c.input), `the call failed: ${(err as Error).message}`);
    }
  }

  private async readFile(a: ReadFileArgs): Promise<Outcome> {
    const res = await this.policy.read(a.path);
    if (!res.ok) return refused('read_file', a.path, res.reason, res.relPath);
    const lines = res.text.split('\n');
    const total = res.text.endsWith('\n') ? lines.length - 1 : lines.length;
    if (a.start_line === undefined && a.end_line === undefined) {
      return {
        content: res.text === '' ? `(${res.relPath} is empty)` : res.text,
        isError: false,
        record: { tool: 'read_file', target: res.relPath, path: res.relPath },
        readPath: res.relPath,
      };
    }
    const from = a.start_line ?? 1;
    const to = Math.min(a.end_line ?? total, total);
    if (from > total) return refused('read_file', res.relPath, `${res.relPath} has ${total} lines; start_line ${from} is past its end`, res.relPath);
    const body = lines.slice(from - 1, to).join('\n');
    return {
      content: `${res.relPath} lines ${from}–${to} of ${total}:\n${body}`,
      isError: false,
      record: { tool: 'read_file', target: res.relPath, path: res.relPath, lines: [from, to] },
      readPath: res.relPath,
    };
  }

  private async searchFiles(a: SearchFilesArgs): Promise<Outcome> {
    const dir = this.checkDir(a.path);
    if (!dir.ok) return refused('search_files', a.query, dir.reason, a.path);
    const needle = a.query.toLowerCase();
    const hits: string[] = [];
    /** Where the hits are, for the record (a focused search's only). */
    const at: [string, number][] = [];
    let more = false;
    const walked: WalkEnd = {};
    for await (const rel of this.walk(dir.relDir, walked)) {
      if (hits.length >= MAX_SEARCH_HITS) {
        more = true;
        break;
      }
      const res = await this.policy.read(rel);
      if (!res.ok || !res.text.toLowerCase().includes(needle)) continue;
      const lines = res.text.split('\n');
      for (let i = 0; i < lines.length; i++) {
        if (!lines[i].toLowerCase().includes(needle)) continue;
        if (hits.length >= MAX_SEARCH_HITS) {
          more = true;
          break;
        }
        hits.push(`${rel}:${i + 1}: ${hitExcerpt(lines[i].replace(/\r$/, '').trim(), needle)}`);
        at.push([rel, i + 1]);
      }
    }
    const where = dir.relDir ? ` under ${dir.relDir}/` : '';
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

  private async listFiles(a: ListFilesArgs): Promise<Outcome> {
    const dir = this.checkDir(a.path);
    if (!dir.ok) return refused('list_files', a.path ?? '.', dir.reason, a.path);
    const out: string[] = [];
    let more = false;
    const walked: WalkEnd = {};
    for await (const rel of this.walk(dir.relDir, walked)) {
      if (out.length >= MAX_LIST_ENTRIES) {
        more = true;
        break;
      }
      out.push(rel);
    }
    const stopped = more ? `stopped at ${MAX_LIST_ENTRIES} files` : walked.stopped && `stopped after ${walked.stopped}`;
    const content =
      (out.length === 0 ? `no readable files under ${dir.relDir || 'the workspace root'}` : out.join('\n')) + (stopped ? `\n… (${stopped}; list a sub-folder)` : '');
    return { content, isError: false, record: { tool: 'list_files', target: dir.relDir || '.', path: dir.relDir || '.', hits: out.length } };
  }

  /** A folder argument: the workspace root when absent, else the same path rules as files, and not an excluded folder. */
  private checkDir(p: string | undefined): { ok: true; relDir: string } | { ok: false; reason: string } {
    const trimmed = (p ?? '').trim();
    if (trimmed === '' || /^\.?\/*$/.test(trimmed)) return { ok: true, relDir: '' };
    const safe = checkFilePath(this.policy.root, trimmed, { capeFolder: this.policy.capeFolder });
    if (!safe.ok) return safe;
    // the folders on the way, and (through a symlinked folder) those where it really leads
    for (const rel of new Set([safe.relPath, safe.realRelPath])) {
      const why = this.policy.excludedDir(rel);
      if (!why) continue;
      const via = rel === safe.relPath ? '' : ` leads through a symbolic link to ${rel}`;
      return { ok: false, reason: `${safe.relPath}${via}: ${why}` };
    }
    let st: fs.Stats;
    try {
      st = fs.statSync(safe.absPath);
    } catch {
      return { ok: false, reason: `${safe.relPath} does not exist` };
    }
    if (!st.isDirectory()) return { ok: false, reason: `${safe.relPath} is a file, not a folder (use read_file)` };
    return { ok: true, relDir: safe.relPath };
  }

  /**
   * The files under a folder the policy lets the model see by name (sorted, depth-first; symlinks are not followed),
   * up to the walk's bounds of files looked at and folders read; `end.stopped` says which one ended it early.
   */
  private async *walk(relDir: string, end: WalkEnd): AsyncGenerator<string> {
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
      try {
        entries = await fsp.readdir(path.join(this.policy.root, ...dir.split('/').filter(Boolean)), { withFileTypes: true });
      } catch {
        continue;
      }
      entries.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
      this.policy.noteDir(dir, entries.some((e) => e.name === '.gitignore' && e.isFile()));
      const subdirs: string[] = [];
      for (const e of entries) {
        const rel = dir ? `${dir}/${e.name}` : e.name;
        if (e.isDirectory()) {
          if (!this.policy.skipDir(rel)) subdirs.push(rel);
        } else if (e.isFile() && !this.policy.skipFileName(rel)) {
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

/** How a walk ended: `stopped` names the bound that ended it before the last folder. */
interface WalkEnd {
  stopped?: string;
}

function refused(tool: string, target: string, reason: string, relPath?: string): Outcome {
  return {
    content: `refused: ${reason}`,
    isError: true,
    record: { tool, target: relPath ?? target, refused: reason, ...(tool !== 'search_files' && relPath ? { path: relPath } : {}) },
  };
}

/** What a call was about (a path or a query), for records of calls whose arguments did not check out. */
function targetOf(input: unknown): string {
  const o = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  const v = o.path ?? o.query;
  const s = typeof v === 'string' ? v : '';
  return shorten(s, 200);
}

/**
 * A matching line as a search hit: whole when short, else MAX_HIT_LINE_CHARS around the match (a minified line's
 * match may be thousands of characters in), with … where it was cut, never inside a surrogate pair.
 */
function hitExcerpt(text: string, needle: string): string {
  if (text.length <= MAX_HIT_LINE_CHARS) return text;
  const at = Math.max(0, text.toLowerCase().indexOf(needle));
  let start = Math.max(0, at - Math.floor((MAX_HIT_LINE_CHARS - needle.length) / 3));
  const end = Math.min(text.length, start + MAX_HIT_LINE_CHARS);
  start = Math.max(0, end - MAX_HIT_LINE_CHARS);
  return (start > 0 ? '…' : '') + sliceWhole(text, start, end) + (end < text.length ? '…' : '');
}

/** The first `n` characters of `text`, ending at a line break when one is near. */
function cutAt(text: string, n: number): string {
  if (n <= 0) return '';
  const head = sliceWhole(text, 0, n);
  const nl = head.lastIndexOf('\n');
  return nl > n * 0.8 ? head.slice(0, nl) : head;
}
