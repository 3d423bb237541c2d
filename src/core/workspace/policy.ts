// The workspace domain (src/core/workspace/) owns what of the user's workspace the model may see: which files exist
// for it (the index), which may be read (this policy), how they are ranked for a step's work and what part of them a
// step's prompt receives. Plain Node: nothing in src/core may import 'vscode'.
//
// This file is the one policy every reader applies (the index, the ranked map, the tools read_file / search_files /
// list_files). A workspace-relative path may be read only when ALL of these hold:
//  1. the path rules of writing hold too (src/core/files/pathSafety.ts — one truth): relative, no `..`, inside the
//     workspace after resolving symlinks, not a symlink itself, nothing under `.git/`; the index leaves out the names
//     no such path can name (a newline, a backslash, a Windows device name…: pathNames.ts's nameRefusal);
//  2. it is not under `.git/` or the configured cape folder (the team's context reaches the roles through the
//     need-to-know matrix, not as code), nor under a dependency/tool folder of BUILTIN_IGNORES;
//  3. `.gitignore` does not exclude it — every `.gitignore` from the root down to the file's folder, deeper files
//     overriding shallower ones and a `!negation` re-including, as git does (rules via the `ignore` package), plus
//     the repository's `info/exclude` (infoExcludeOf: a linked worktree's is the main one's), and in a folder of a
//     repository the `.gitignore` files of the folders above it (gitignoreRules.ts); a path
//     under an ignored folder stays ignored (git never looks inside it); case matters
//     as git's default core.ignorecase of the platform says (GIT_IGNORECASE);
//  4. its name is not a secret's (SECRET_NAME_PATTERNS, secretNames.ts): refused by name, before any byte is read;
//  5. it is a regular file of at most MAX_READ_BYTES (1 MB);
//  6. it is text: no NUL byte and valid UTF-8 (checked on the content, which is then returned — no second read).
// One exception, for a path the model names (`named`: read_file's path, the folder or file list_files or search_files
// is given — not a path a walk from above finds): installed dependencies, a DEPENDENCIES folder at any depth
// (node_modules/cookie/index.js, pnpm's node_modules/.pnpm/cookie@1.0.2/node_modules/cookie/index.js), may be read, as
// a developer reads how a package does something. Inside one, rule 2's dependency folders and rule 3 are set aside;
// every other rule holds (secret names, .git/, size, binaries, inside the workspace), the folders above it keep all
// the rules (`dist/node_modules/…` under an ignored dist/ stays refused), and where a symlink leads is judged too:
// pnpm's links lead into node_modules/.pnpm, inside the workspace; one leading out of it, or into another ignored
// folder, stays refused. No walk from above enters one (the index, search_files and list_files without such a path),
// and a refusal by rule 2 or 3 of a named path says that dependencies can be read by their path (NAMED_DEPENDENCIES).
import * as fs from 'fs';
import * as path from 'path';
import ignore, { type Ignore } from 'ignore';
import { checkFilePath, MAX_PATH_CHARS } from '../files/pathSafety';
import { nameRefusal } from '../files/pathNames';
import { readInto } from './disk';
import { GitignoreRules } from './gitignoreRules';
import { formatBytes } from '../text/size';
import { capeFolderKey, DEFAULT_CAPE_FOLDER } from '../model/types';
import { secretPattern, secretsMatcher } from './secretNames';

/**
 * Folders skipped even when no `.gitignore` names them: installed dependencies and tool caches are not the user's
 * code, and a workspace without a `.gitignore` would otherwise index hundreds of thousands of files. A `.gitignore`
 * negation (`!node_modules/`) does not re-include them; a path the model names may lie in node_modules/ (the header).
 */
export const BUILTIN_IGNORES: readonly string[] = [
  // JavaScript packages and package-manager stores
  'node_modules/',
  'bower_components/',
  '.vscode-test/',
  '.yarn/cache/',
  '.pnpm-store/',
  // Python virtual environments and tool caches
  '.venv/',
  '__pycache__/',
  '.tox/',
  '.mypy_cache/',
  '.pytest_cache/',
  // build caches of JVM and web frameworks (generated code)
  '.gradle/',
  '.next/',
  '.nuxt/',
  '.svelte-kit/',
  '.turbo/',
  '.parcel-cache/',
  '.angular/',
];

/** The folder of installed dependencies that a named path may lie in (see the header), at any depth. */
export const DEPENDENCIES = 'node_modules';

/** What a refusal by rule 2 or 3 of a named path adds: the one exception, where the model may read. */
const NAMED_DEPENDENCIES = `; of ignored paths only installed dependencies (${DEPENDENCIES}/…) can be read, by their explicit path`;

/** Whether a workspace-relative folder is (or lies in) an installed-dependencies folder (DEPENDENCIES at any depth). */
export function inDependencies(relDir: string): boolean {
  return relDir.split('/').includes(DEPENDENCIES);
}

/** The folder of a workspace-relative path ('' at the root). */
const folderOf = (relPath: string): string => relPath.slice(0, Math.max(0, relPath.lastIndexOf('/')));

/**
 * Bump when a rule of admission changes in code rather than in the lists above: an index cache made under the old
 * rules is then not used (indexStore.ts's policyKey).
 */
export const POLICY_REVISION = 3;

/** Larger files are neither indexed nor read (generated bundles, data dumps, lock files of monorepos). */
export const MAX_READ_BYTES = 1024 * 1024;

export interface PolicyOptions {
  /** The CAPE folder (relative to the workspace; default 'cape'), skipped entirely. */
  capeFolder?: string;
  /** Overrides MAX_READ_BYTES (tests). */
  maxBytes?: number;
}

export type ReadCheck = { ok: true; relPath: string; absPath: string; size: number; mtimeMs: number } | { ok: false; relPath?: string; reason: string };
export type ReadResult = { ok: true; relPath: string; absPath: string; size: number; mtimeMs: number; text: string } | { ok: false; relPath?: string; reason: string };

// An `ignore` matcher remembers the answer for every path it was asked about (and each of its folders), for good:
// matchers that test every path of a walk belong to one WorkspacePolicy and are dropped by its forget(), so a
// 50,000-file workspace does not leave 50,000 answers in memory for the life of the process.
const builtinsMatcher = (): Ignore => ignore({ ignorecase: true }).add(BUILTIN_IGNORES as string[]);

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** True for content a text reader must not receive: a NUL byte, or bytes that are not valid UTF-8. */
export function isBinaryContent(buf: Uint8Array): boolean {
  return textOf(buf) === null;
}

/** The text of some content (a UTF-8 byte-order mark dropped), or null when it is binary (see isBinaryContent); one decoding pass. */
export function textOf(buf: Uint8Array): string | null {
  if (buf.includes(0)) return null;
  try {
    // the decoder drops a leading byte-order mark itself (ignoreBOM is false)
    return utf8.decode(buf);
  } catch {
    return null;
  }
}

/**
 * The policy for one workspace. Keeps the parsed `.gitignore` files (lazily, per folder); call `forget()` for a
 * `.gitignore` that changed (the index does on file events).
 */
export class WorkspacePolicy {
  readonly root: string;
  readonly capeFolder: string;
  readonly maxBytes: number;
  /** The workspace's `.gitignore` rules (and info/exclude), parsed lazily, dropped by forget(). */
  private readonly ignores: GitignoreRules;
  /** This policy's secret and built-in matchers (see secretsMatcher), made on first use, dropped by forget(). */
  private secrets: Ignore | null = null;
  private builtins: Ignore | null = null;

  constructor(root: string, opts: PolicyOptions = {}) {
    this.root = path.resolve(root);
    this.capeFolder = capeFolderKey(opts.capeFolder ?? DEFAULT_CAPE_FOLDER);
    this.maxBytes = opts.maxBytes ?? MAX_READ_BYTES;
    this.ignores = new GitignoreRules(this.root);
  }

  /**
   * Drops the cached rules of the folder holding this `.gitignore` (workspace-relative), or all of them and every
   * answer the matchers remember.
   */
  forget(gitignoreRel?: string): void {
    this.ignores.forget(gitignoreRel);
    if (gitignoreRel === undefined) this.secrets = this.builtins = null;
  }

  /** Tells the policy whether a folder has a `.gitignore` (the walker knows from its listing: saves a failed read). */
  noteDir(dirRel: string, hasGitignore: boolean): void {
    this.ignores.noteDir(dirRel, hasGitignore);
  }

  /** The stamps of the rules files outside the walked folders (GitignoreRules.aboveKey). */
  aboveKey(): string {
    return this.ignores.aboveKey();
  }

  /**
   * Why a folder (workspace-relative, posix) is not walked, or null. Lexical, plus the `.gitignore` of its parents;
   * the caller guarantees that the folder's own parents were not excluded. `named`: a path the model named, or one
   * below it (see the header: installed dependencies).
   */
  skipDir(relDir: string, named = false): string | null {
    const lower = relDir.toLowerCase();
    const name = lower.slice(lower.lastIndexOf('/') + 1);
    if (name === '.git') return '.git/ holds the repository, not the workspace';
    const unnamed = this.unaddressable(relDir, 2);
    if (unnamed) return unnamed;
    if (lower === this.capeFolder.toLowerCase()) {
      return `${this.capeFolder}/ is the team's context; it reaches each role through the need-to-know matrix, not as code`;
    }
    const dependency = named && inDependencies(relDir);
    const hint = named ? NAMED_DEPENDENCIES : '';
    if (!dependency && (this.builtins ??= builtinsMatcher()).ignores(relDir + '/')) return `${relDir}/ is a dependency or tool folder (not indexed)${hint}`;
    if ((this.secrets ??= secretsMatcher()).ignores(relDir + '/')) return `${relDir}/ holds credentials`;
    const gi = dependency ? null : this.ignores.gitignored(relDir, true);
    return gi ? `ignored by ${gi}${hint}` : null;
  }

  /** Why a file is excluded by its name (secret, `.gitignore`), or null; reads no file content. `named`: as skipDir's. */
  skipFileName(relPath: string, named = false): string | null {
    const secret = secretPattern(relPath, (this.secrets ??= secretsMatcher()));
    if (secret) return `secret file (name matches "${secret}"); never read`;
    const unnamed = this.unaddressable(relPath, 0);
    if (unnamed) return unnamed;
    const gi = named && inDependencies(folderOf(relPath)) ? null : this.ignores.gitignored(relPath, false);
    return gi ? `ignored by ${gi}${named ? NAMED_DEPENDENCIES : ''}` : null;
  }

  /**
   * Why an entry found on disk cannot be named by a path the read check (rule 1) accepts, or null: its name (a newline,
   * a backslash, a Windows device name…: pathNames.ts's nameRefusal) or its length (`below`: the fewest characters a
   * path below it adds, 2 for a folder). Its folders were checked on the way down.
   */
  private unaddressable(relPath: string, below: number): string | null {
    if (relPath.length + below > MAX_PATH_CHARS) return `the path is longer than ${MAX_PATH_CHARS} characters`;
    const slash = relPath.lastIndexOf('/');
    return nameRefusal(relPath.slice(slash + 1), slash < 0);
  }

  /**
   * Why an existing entry's folders or name exclude it, checking every folder from the root down, or null. `named`:
   * a path the model named (see the header).
   */
  excluded(relPath: string, named = false): string | null {
    const slash = relPath.lastIndexOf('/');
    return (slash > 0 ? this.excludedDir(relPath.slice(0, slash), named) : null) ?? this.skipFileName(relPath, named);
  }

  /** Why an existing folder or one of the folders above it excludes it, checking from the root down, or null. */
  excludedDir(relDir: string, named = false): string | null {
    const segs = relDir.split('/');
    for (let i = 1; i <= segs.length; i++) {
      const why = this.skipDir(segs.slice(0, i).join('/'), named);
      if (why) return why;
    }
    return null;
  }

  /**
   * Whether a path given by the model (or the user) may be read, and why not — everything but the content check.
   * Never reads file content. `named`: the model named it (read_file): installed dependencies may be read (see the
   * header).
   */
  check(p: string, named = false): ReadCheck {
    const safe = checkFilePath(this.root, p, { capeFolder: this.capeFolder });
    if (!safe.ok) return { ok: false, reason: safe.reason };
    const relPath = safe.relPath;
    const why = this.excluded(relPath, named);
    if (why) return { ok: false, relPath, reason: `${relPath}: ${why}` };
    // a symlinked folder on the way leads where its target is: cape/, a credentials or an ignored folder stay excluded
    const whyReal = safe.realRelPath !== relPath ? this.excluded(safe.realRelPath, named) : null;
    if (whyReal) return { ok: false, relPath, reason: `${relPath} leads through a symbolic link to ${safe.realRelPath}: ${whyReal}` };
    let st: fs.Stats;
    try {
      st = fs.statSync(safe.absPath);
    } catch {
      return { ok: false, relPath, reason: `${relPath} does not exist` };
    }
    if (st.isDirectory()) return { ok: false, relPath, reason: `${relPath} is a folder, not a file` };
    if (!st.isFile()) return { ok: false, relPath, reason: `${relPath} is not a regular file` };
    if (st.size > this.maxBytes) return { ok: false, relPath, reason: `${relPath} is ${formatBytes(st.size)}, over the ${formatBytes(this.maxBytes)} limit` };
    return { ok: true, relPath, absPath: safe.absPath, size: st.size, mtimeMs: st.mtimeMs };
  }

  /**
   * Reads a file the policy allows, as text; binaries (NUL byte, invalid UTF-8) are refused with the reason. The file
   * read is the file checked: it is opened as the index reads (disk.ts's readInto: never through a symlink, never
   * waiting on a FIFO, at most the limit + 1 bytes), so one swapped after the check is refused, not followed.
   */
  async read(p: string, named = false): Promise<ReadResult> {
    return this.readSync(p, named);
  }

  /** read(), synchronously (packing a prompt section reads a handful of files). */
  readSync(p: string, named = false): ReadResult {
    const c = this.check(p, named);
    if (!c.ok) return c;
    let got;
    try {
      got = readInto(c.absPath, this.maxBytes);
    } catch (err) {
      return { ok: false, relPath: c.relPath, reason: `${c.relPath} cannot be read: ${(err as Error).message}` };
    }
    if (got) return this.asText(c, got.buf);
    // no longer a regular file within the limit (or gone) since the check: the check says what it is now
    const now = this.check(p, named);
    return now.ok ? { ok: false, relPath: c.relPath, reason: `${c.relPath} changed while it was read; read it again` } : now;
  }

  private asText(c: Extract<ReadCheck, { ok: true }>, buf: Buffer): ReadResult {
    if (buf.length > this.maxBytes) return { ok: false, relPath: c.relPath, reason: `${c.relPath} is ${formatBytes(buf.length)}, over the ${formatBytes(this.maxBytes)} limit` };
    const text = textOf(buf);
    if (text === null) return { ok: false, relPath: c.relPath, reason: `${c.relPath} is a binary file (not UTF-8 text)` };
    return { ...c, size: buf.length, text };
  }
}
