// Safety of the paths in DevA's <file path="…"> blocks and of CAPE's own files. The engine writes files ONLY through
// applyProposedFiles (proposals.ts), which checks them here again right before each write.
// Plain Node: nothing in src/core may import 'vscode'.
//
// Policy (decisions documented here once):
// - Backslashes are separators, whatever the platform: `a\b` is `a/b`, and `..\x` is refused like `../x`.
// - Any `..` segment is refused, even `a/../b` that would stay inside: simpler to reason about, and a model has
//   no legitimate reason to write one. `.` segments and repeated separators are dropped (`./a//b` → `a/b`).
// - Names are never decoded: `%2e%2e` is a literal file name (filesystems do not decode it), and Unicode
//   lookalikes (full-width dots, Cyrillic letters) are just names. Invisible characters (zero-width, bidi
//   controls) are refused: they make a path look like something else in the review UI and some filesystems
//   (HFS+) ignore them, so `.g\u200Cit` could be `.git`.
// - Segments ending with a dot or a space are refused (Windows strips them: `.git.` is `.git`), so are `:` (drive
//   letters and NTFS alternate streams, `.git::$INDEX_ALLOCATION`) and the 8.3 short name of .git (`GIT~1`).
// - Segments starting or ending with white space (any: U+00A0 too) are refused, the reason naming the name meant:
//   `<file path=" src/a.ts">` would make a folder " src" that nobody meant, next to src/. Never trimmed silently:
//   the path would then differ from the one the model and the user see.
// - Windows reserved device names (CON, NUL, COM1, `aux.c`, …; deviceNameRefusal): on Windows always refused (the
//   name opens a device). Elsewhere such a file or folder is an ordinary one (the Linux kernel has `aux.c`): an
//   existing one is read and edited, and only a path that would create one is refused (a repository with it cannot
//   be checked out on Windows).
// - `.git` as any segment (any case) and `<cape>/5_sessions` (any case, anywhere) are protected.
// - The deepest existing ancestor is realpath'd: a symlinked directory that points outside the workspace is caught,
//   also when it is created after the proposal (applyProposedFiles checks again right before writing). A symlink
//   as the file itself is refused (we would not know which file the user meant to change).
import * as fs from 'fs';
import * as path from 'path';
import { DEFAULT_CAPE_FOLDER, SESSIONS_FOLDER, type ProposedFile } from '../model/types';
import { deviceNameRefusal, INVISIBLE, segmentRefusal, show } from './pathNames';
import { formatBytes } from '../text/size';

export const MAX_PATH_CHARS = 1024;
/** Larger proposed files are refused: a model reply has no business writing this much into one file. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/**
 * `realRelPath`: where the path really leads, workspace-relative, after resolving symbolic links (equal to `relPath`
 * when no link is on the way) — a reader applies its exclusions to both.
 */
export type PathCheck = { ok: true; relPath: string; absPath: string; realRelPath: string } | { ok: false; reason: string };

export interface PathCheckOptions {
  /** The CAPE folder whose 5_sessions/ is protected (default 'cape'). */
  capeFolder?: string;
  /** Whose rules of device names apply (default: this process's platform; see deviceNameRefusal). */
  platform?: NodeJS.Platform;
}

function refuse(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}

/** The first device-name refusal among `segments` below `root` (each looked up on disk only when it is a device name). */
function devicePathRefusal(root: string, segments: string[], platform: NodeJS.Platform): string | null {
  for (let i = 0; i < segments.length; i++) {
    const why = deviceNameRefusal(segments[i], () => lstatOrNull(path.join(root, ...segments.slice(0, i + 1))) !== null, platform);
    if (why) return why;
  }
  return null;
}


/**
 * Lexical checks only (no filesystem access): returns the normalised segments or the reason for refusal.
 */
function lexicalCheck(p: unknown, capeFolder: string): { ok: true; segments: string[] } | { ok: false; reason: string } {
  if (typeof p !== 'string' || p.trim() === '') return refuse('empty path');
  if (p.length > MAX_PATH_CHARS) return refuse(`path is too long (${p.length} characters, limit ${MAX_PATH_CHARS})`);
  if (p.includes('\0')) return refuse('path contains a NUL byte');
  // eslint-disable-next-line no-control-regex
  const ctl = /[\u0001-\u001F\u007F-\u009F]/.exec(p);
  if (ctl) return refuse(`path contains a control character (U+${ctl[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')})`);
  if (INVISIBLE.test(p)) return refuse('path contains an invisible (zero-width or text-direction) character');
  const s = p.replace(/\\/g, '/');
  if (/^\/\/[?.]\//.test(s)) return refuse(`Windows device path ${show(p)} is not allowed; use a workspace-relative path`);
  if (s.startsWith('//')) return refuse(`UNC network path ${show(p)} is not allowed; use a workspace-relative path`);
  if (/^[a-zA-Z]:/.test(s)) return refuse(`Windows drive path ${show(p)} is not allowed; use a workspace-relative path`);
  if (s.startsWith('/')) return refuse(`absolute path ${show(p)} is not allowed; use a workspace-relative path`);
  if (s.startsWith('~')) return refuse(`home-directory path ${show(p)} is not allowed ("~" is not expanded); use a workspace-relative path`);
  const segments = s.split('/').filter((seg) => seg !== '' && seg !== '.');
  if (segments.length === 0) return refuse('the path is the workspace root itself, not a file');
  const cape = capeFolder.toLowerCase();
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    if (seg === '..') return refuse(`".." segments are not allowed (${show(p)}); use a workspace-relative path without them`);
    const why = segmentRefusal(seg, p);
    if (why) return refuse(why);
    if (seg.toLowerCase() === cape && segments[i + 1]?.toLowerCase() === SESSIONS_FOLDER) {
      return refuse(`${capeFolder}/${SESSIONS_FOLDER}/ holds the session records; an agent neither reads nor writes them`);
    }
  }
  return { ok: true, segments };
}

/**
 * True when `child` is `parent` itself or below it (`strict`: below it only). Lexical, on resolved paths: pass
 * realpaths to account for symlinks. The one "is inside" check of core. A name that merely starts with two dots
 * (`..cache`) is inside.
 */
export function isInside(parent: string, child: string, opts: { strict?: boolean } = {}): boolean {
  const rel = path.relative(parent, child);
  if (rel === '') return !opts.strict;
  return rel !== '..' && !rel.startsWith('..' + path.sep) && !path.isAbsolute(rel);
}

export function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch {
    return null;
  }
}

/**
 * Where `segments` (below the workspace root) really lead: the deepest existing entry (lstat, so a dangling link
 * counts) is realpath'd and the rest appended. Refuses when that lies outside the workspace (a symlinked folder or
 * file pointing out) or a link is broken or loops. The one rule for "inside the workspace" — used for DevA's paths
 * and for CAPE's own files (cape/, 5_sessions/, kpt_merged.md).
 */
function resolveInWorkspace(
  workspaceRoot: string,
  segments: string[],
): { ok: true; realRoot: string; realTarget: string } | { ok: false; reason: string } {
  const root = path.resolve(workspaceRoot);
  let realRoot: string;
  try {
    realRoot = fs.realpathSync.native(root);
  } catch {
    return refuse(`workspace folder ${root} does not exist`);
  }
  const absPath = path.join(root, ...segments);
  if (!isInside(root, absPath, { strict: true })) return refuse(`path ${show(segments.join('/'))} resolves outside the workspace`);
  let existing = absPath;
  let rest: string[] = [];
  for (let i = segments.length; i >= 0; i--) {
    existing = path.join(root, ...segments.slice(0, i));
    rest = segments.slice(i);
    if (i === 0 || lstatOrNull(existing)) break;
  }
  let realExisting: string;
  try {
    realExisting = fs.realpathSync.native(existing);
  } catch {
    return refuse(`${path.relative(root, existing) || '.'} is a broken or looping symbolic link`);
  }
  const realTarget = path.join(realExisting, ...rest);
  if (!isInside(realRoot, realTarget, { strict: true })) {
    return refuse(`${segments.join('/')} resolves through a symbolic link to ${realTarget}, outside the workspace`);
  }
  return { ok: true, realRoot, realTarget };
}

/**
 * Checks that CAPE's own file or folder `relPath` (e.g. `cape`, `cape/5_sessions/retrospective/kpt_merged.md`)
 * really lies inside the workspace before CAPE reads or writes it: symbolic links (of the entry itself or of any
 * folder above it) may be used, but only when they resolve inside the workspace. Unlike checkFilePath, cape/ and
 * 5_sessions/ are not protected here (they are CAPE's own). Returns the reason to tell the user when refused.
 */
export function checkWorkspaceLocation(workspaceRoot: string, relPath: string): { ok: true; realPath: string } | { ok: false; reason: string } {
  const segments = relPath.split(/[\\/]/).filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) return refuse(`".." segments are not allowed (${show(relPath)})`);
  const where = resolveInWorkspace(workspaceRoot, segments);
  return where.ok ? { ok: true, realPath: where.realTarget } : where;
}

/**
 * Checks one path proposed by the model against the workspace. Refuses with a specific reason: empty, too long,
 * NUL/control/invisible characters, absolute POSIX, Windows drive, UNC and device paths, `~`, any `..`, `.git`,
 * `<cape>/5_sessions`, trailing dot/space tricks, device names (deviceNameRefusal: on Windows, or a new one), the
 * workspace root itself, a symlink as the target, and paths whose deepest existing ancestor resolves (realpath)
 * outside the workspace.
 */
export function checkFilePath(workspaceRoot: string, p: string, opts: PathCheckOptions = {}): PathCheck {
  const lex = lexicalCheck(p, opts.capeFolder ?? DEFAULT_CAPE_FOLDER);
  if (!lex.ok) return lex;
  const platform = opts.platform ?? process.platform;
  const device = devicePathRefusal(path.resolve(workspaceRoot), lex.segments, platform);
  if (device) return refuse(device);
  const relPath = lex.segments.join('/');
  const absPath = path.join(path.resolve(workspaceRoot), ...lex.segments);
  // a symlink as the file itself is refused (we would not know which file the user meant to change)
  if (lstatOrNull(absPath)?.isSymbolicLink()) return refuse(`${relPath} is a symbolic link (which file it means is unclear); use ${linkTarget(workspaceRoot, absPath)}`);
  const where = resolveInWorkspace(workspaceRoot, lex.segments);
  if (!where.ok) return where;
  const { realRoot, realTarget } = where;
  // a symlink may also have led to a protected place inside the workspace (e.g. link → .git)
  const realRel = path.relative(realRoot, realTarget).split(path.sep).join('/');
  if (realRel !== relPath) {
    const again = lexicalCheck(realRel, opts.capeFolder ?? DEFAULT_CAPE_FOLDER);
    const why = again.ok ? devicePathRefusal(realRoot, again.segments, platform) : again.reason;
    if (why) return refuse(`${relPath} resolves through a symbolic link to ${realRel}: ${why}`);
  }
  return { ok: true, relPath, absPath, realRelPath: realRel };
}

/**
 * What to use instead of a symbolic link: the path it leads to when that is inside the workspace (a pnpm package,
 * `node_modules/x` → `node_modules/.pnpm/x@1.0.0/node_modules/x`, which the model cannot guess), else the file it
 * points to, unnamed (a place outside the workspace is not told).
 */
function linkTarget(workspaceRoot: string, absPath: string): string {
  try {
    const realRoot = fs.realpathSync.native(workspaceRoot);
    const real = fs.realpathSync.native(absPath);
    if (isInside(realRoot, real, { strict: true })) return `the path it leads to, ${path.relative(realRoot, real).split(path.sep).join('/')}`;
  } catch {
    /* broken or looping: as for a target outside */
  }
  return 'the path of the file it points to';
}

export type WriteCheck = { ok: true; relPath: string; absPath: string; exists: boolean } | { ok: false; reason: string };

/** Why `content` is too large to write (over MAX_FILE_BYTES in UTF-8), or null: one check for a proposal and its write. */
export function sizeRefusal(content: string): string | null {
  return Buffer.byteLength(content, 'utf8') > MAX_FILE_BYTES ? `content is larger than ${formatBytes(MAX_FILE_BYTES)}` : null;
}

/** Why the existing entry at `relPath` (its lstat, null when there is none) cannot be written over, or null. */
export function targetRefusal(relPath: string, st: fs.Stats | null): string | null {
  if (!st || st.isFile()) return null;
  return st.isDirectory() ? `${relPath} is an existing directory` : `${relPath} exists and is not a regular file`;
}

/**
 * THE pre-write check, shared by every writer of proposals (the CLI's `--apply` through applyProposedFiles and the
 * extension's Apply in src/edits/applyEdits.ts, both through checkProposalWrite), run right before the write: the
 * path again (a symlink or a protected folder that appeared since the proposal is caught), text content, the size
 * cap, and an existing entry that is not a regular file. `exists` tells whether the target is an existing file (replace vs create).
 */
export function checkBeforeWrite(workspaceRoot: string, target: string, content: unknown, opts: PathCheckOptions = {}): WriteCheck {
  const check = checkFilePath(workspaceRoot, target, opts);
  if (!check.ok) return check;
  if (typeof content !== 'string') return refuse('the proposal has no text content');
  const tooLarge = sizeRefusal(content);
  if (tooLarge) return refuse(tooLarge);
  const st = lstatOrNull(check.absPath);
  const notAFile = targetRefusal(check.relPath, st);
  if (notAFile) return refuse(notAFile);
  return { ok: true, relPath: check.relPath, absPath: check.absPath, exists: st !== null };
}

/**
 * checkBeforeWrite for one proposal: also refuses a proposal made against another folder than `workspaceRoot` (its
 * absPath is not where its relPath leads here). A window's workspace folder can change between the proposal and
 * Apply (multi-root): folder B's proposal is never written into folder A.
 */
export function checkProposalWrite(
  workspaceRoot: string,
  f: Pick<ProposedFile, 'path' | 'relPath' | 'absPath' | 'content'>,
  opts: PathCheckOptions = {},
): WriteCheck {
  const check = checkBeforeWrite(workspaceRoot, f.relPath ?? f.path, f.content, opts);
  if (!check.ok || !f.absPath) return check;
  const same = (a: string, b: string) => (process.platform === 'win32' || process.platform === 'darwin' ? a.toLowerCase() === b.toLowerCase() : a === b);
  if (!same(path.resolve(f.absPath), check.absPath)) {
    const was = rootOf(f);
    return refuse(`${check.relPath} was proposed for another folder${was ? ` (${was})` : ''}, not ${path.resolve(workspaceRoot)}; run the session in this folder`);
  }
  return check;
}

/**
 * The one rule for "the same file" among the paths of one reply (written twice, edited and rewritten, fixed in a
 * repair): NFC and case folded, as a case-insensitive file system (macOS's and Windows' defaults) or an NFD one sees
 * them. Folded on every platform: two paths that differ only in case are rare in a workspace, and taking them for one
 * file refuses a write, never makes two writes to one file.
 */
export function samePathKey(relPath: string): string {
  return relPath.normalize('NFC').toLowerCase();
}

/** The workspace root a proposal was made against: absPath minus relPath (both set by proposeFiles). */
export function rootOf(f: Pick<ProposedFile, 'relPath' | 'absPath'>): string | null {
  if (!f.absPath || !f.relPath) return null;
  const up = f.relPath.split('/').map(() => '..');
  const root = path.resolve(f.absPath, ...up);
  return path.join(root, ...f.relPath.split('/')) === path.resolve(f.absPath) ? root : null;
}
