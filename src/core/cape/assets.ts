// The cape/ asset loader: reads every markdown file under a workspace's cape/ folder (except 5_sessions/) and
// classifies it by its frontmatter (`type: generic` = framework file, `type: input` = project-specific).
//
// Frontmatter goes through the one codec, frontmatter.ts (gray-matter with safe options: ---js is never evaluated).
// Malformed YAML is reported with the file path and the 1-based line number; the file is skipped, others still load.
// Symlinks that resolve outside cape/ are never followed, and a file whose path, or whose link target's, is a secret's
// by name (secretNames.ts, the workspace's one rule) is never read. Files larger than MAX_ASSET_BYTES are truncated. Binary
// files and files that are not valid UTF-8 are skipped (they would put NUL bytes and U+FFFD into prompts), and so
// are folders nested deeper than MAX_DEPTH — each with an issue naming the file. The folders and files expected in
// cape/ are named in capeLayout.ts.

import * as fs from 'fs';
import * as path from 'path';
import { isInside } from '../files/pathSafety';
import { formatBytes } from '../text/size';
import { parseFrontmatter } from './frontmatter';
import { SESSIONS_FOLDER } from '../model/types';
import { mdFilesBelow, readBounded, secretRefusal, toRel } from './assetReads';
import { GENERIC_CAPE_FILES, INPUT_CAPE_FILES, type CapeFolder } from './capeLayout';

/** Files above this size are truncated (with an issue) so one huge file cannot blow up every prompt. */
export const MAX_ASSET_BYTES = 256 * 1024;

/**
 * At most this many bytes are loaded from cape/ in all (eight files at MAX_ASSET_BYTES): files load in walk order (folders
 * and names sorted) while they fit, the rest are skipped with one issue. Each step packs its folder's files into its
 * prompt; 200 files of 250 KB took 45 s and 876 MB to load and pack.
 */
export const MAX_CAPE_BYTES = 8 * MAX_ASSET_BYTES;

/** At most this many file names are listed in the issue of the files skipped beyond MAX_CAPE_BYTES. */
const MAX_OVER_NAMES = 5;

/** Directory nesting below cape/ beyond which we stop walking (guards against pathological trees). */
export const MAX_DEPTH = 8;

/** At most this many skipped file names are listed in the issue of a too-deep folder. */
const MAX_DEEP_NAMES = 5;

export type CapeFileType = 'generic' | 'input' | 'unknown';

export interface CapeFile {
  /** Path relative to cape/, forward slashes, e.g. '1_product/1_mvv.md'. */
  relPath: string;
  absPath: string;
  /** From frontmatter `type:`; anything other than generic/input (or no frontmatter) is 'unknown'. */
  type: CapeFileType;
  /** Parsed frontmatter (empty object when there is none). */
  data: Record<string, unknown>;
  /** The markdown body without frontmatter. */
  body: string;
  /** True when the file exceeded MAX_ASSET_BYTES and `body` holds only its beginning. */
  truncated: boolean;
}

/**
 * A problem found while loading. `missing`, `malformed` and `refused` are the documented kinds; `truncated`
 * (file over MAX_ASSET_BYTES, still loaded), `unreadable` (I/O error), `binary` (NUL bytes or invalid UTF-8,
 * skipped), `too-deep` (a folder below MAX_DEPTH levels, its files skipped) and `too-much` (the files beyond
 * MAX_CAPE_BYTES in all, skipped; path '.') are additions of this module.
 */
export type CapeIssueKind = 'missing' | 'malformed' | 'refused' | 'truncated' | 'unreadable' | 'binary' | 'too-deep' | 'too-much';

export interface CapeIssue {
  /** Path relative to cape/ ('.' for the folder itself). */
  path: string;
  /** 1-based line in the file, when known (malformed frontmatter). */
  line?: number;
  kind: CapeIssueKind;
  message: string;
}

export interface CapeAssets {
  /** Absolute path of the cape/ folder. */
  dir: string;
  /** Loaded files by cape-relative path, in path order. */
  files: Map<string, CapeFile>;
  issues: CapeIssue[];
  /** The loaded files of one top-level folder, in path order. */
  byFolder(folder: CapeFolder): CapeFile[];
}

// ---------------------------------------------------------------------------------------------
// Classification

export function classify(data: Record<string, unknown>): CapeFileType {
  const t = typeof data.type === 'string' ? data.type.trim().toLowerCase() : '';
  return t === 'generic' || t === 'input' ? t : 'unknown';
}

// ---------------------------------------------------------------------------------------------
// Loader

/**
 * Loads every .md file under `capeDir` except 5_sessions/. Never throws for content problems: they become issues.
 * A missing cape/ folder yields a 'missing' issue for the folder and for every expected file.
 */
export async function loadCape(capeDir: string): Promise<CapeAssets> {
  const dir = path.resolve(capeDir);
  const files = new Map<string, CapeFile>();
  const issues: CapeIssue[] = [];
  const reported = new Set<string>();

  let realRoot: string | null = null;
  try {
    const st = await fs.promises.stat(dir);
    if (st.isDirectory()) realRoot = await fs.promises.realpath(dir);
    else issues.push({ path: '.', kind: 'malformed', message: `${dir} is not a folder; cape/ must be a directory` });
  } catch {
    issues.push({
      path: '.',
      kind: 'missing',
      message: `cape folder not found at ${dir}; run "CAPE: Initialise cape/" (or \`cape init\`) to create it`,
    });
  }

  if (realRoot) {
    const visited = new Set<string>([realRoot]);
    const loaded: CapeFile[] = [];
    const folder = path.basename(dir);
    /** Bytes loaded so far (each file's at most MAX_ASSET_BYTES), and the files skipped beyond MAX_CAPE_BYTES. */
    let loadedBytes = 0;
    const over: string[] = [];
    /** `abs`: the folder as walked (through links); `real`: where it really is (inside realRoot). */
    const walk = async (abs: string, real: string, rel: string, depth: number): Promise<void> => {
      let entries: fs.Dirent[];
      try {
        entries = await fs.promises.readdir(abs, { withFileTypes: true });
      } catch (err) {
        issues.push({ path: rel || '.', kind: 'unreadable', message: `cannot read folder: ${(err as Error).message}` });
        return;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        const childRel = rel ? `${rel}/${entry.name}` : entry.name;
        const childAbs = path.join(abs, entry.name);
        if (entry.name.startsWith('.')) continue; // hidden files, editor swap files, our own atomic-write temps
        if (!rel && entry.name === SESSIONS_FOLDER) continue;
        let isDir = entry.isDirectory();
        let isFile = entry.isFile();
        let target = path.join(real, entry.name);
        if (entry.isSymbolicLink()) {
          try {
            target = await fs.promises.realpath(childAbs);
          } catch {
            issues.push({ path: childRel, kind: 'refused', message: 'broken symbolic link; not followed' });
            reported.add(childRel);
            continue;
          }
          if (!isInside(realRoot!, target)) {
            issues.push({
              path: childRel,
              kind: 'refused',
              message: `symbolic link points outside cape/ (${target}); not followed`,
            });
            reported.add(childRel);
            continue;
          }
          const st = await fs.promises.stat(target);
          isDir = st.isDirectory();
          isFile = st.isFile();
        }
        if (isDir) {
          if (depth >= MAX_DEPTH) {
            const { names, more } = await mdFilesBelow(target, childRel, MAX_DEEP_NAMES);
            if (names.length) {
              issues.push({
                path: childRel,
                kind: 'too-deep',
                message:
                  `is nested more than ${MAX_DEPTH} folder levels deep, so its files were not loaded: ` +
                  `${names.join(', ')}${more ? ', …' : ''}. Move them up to at most ${MAX_DEPTH} folder levels.`,
              });
              for (const n of names) reported.add(n);
            }
            continue;
          }
          const realDir = await fs.promises.realpath(target);
          if (visited.has(realDir)) continue; // symlink loop or a second link to the same folder
          visited.add(realDir);
          await walk(childAbs, realDir, childRel, depth + 1);
        } else if (isFile && /\.md$/i.test(entry.name)) {
          const secret = secretRefusal(folder, childRel, toRel(path.relative(realRoot!, target)));
          if (secret) {
            issues.push({ path: childRel, kind: 'refused', message: secret });
            reported.add(childRel);
            continue;
          }
          reported.add(childRel);
          // a file gone since the listing counts nothing here; loadOne reports it unreadable
          const size = over.length ? 0 : ((await fs.promises.stat(target).catch(() => null))?.size ?? 0);
          const bytes = Math.min(size, MAX_ASSET_BYTES);
          if (over.length || loadedBytes + bytes > MAX_CAPE_BYTES) {
            over.push(childRel);
            continue;
          }
          loadedBytes += bytes;
          const file = await loadOne(target, childAbs, childRel, issues);
          if (file) loaded.push(file);
        }
      }
    };
    await walk(dir, realRoot, '', 0);
    if (over.length) {
      const names = over.slice(0, MAX_OVER_NAMES).join(', ') + (over.length > MAX_OVER_NAMES ? `, and ${over.length - MAX_OVER_NAMES} more` : '');
      issues.push({
        path: '.',
        kind: 'too-much',
        message:
          `holds more markdown than the ${formatBytes(MAX_CAPE_BYTES)} CAPE loads: ${over.length} file${over.length > 1 ? 's' : ''} past it ` +
          `(in folder order) ${over.length > 1 ? 'were' : 'was'} not loaded: ${names}. Move what the team does not need out of the folder.`,
      });
    }
    loaded.sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
    for (const f of loaded) files.set(f.relPath, f);
  }

  for (const expected of [...GENERIC_CAPE_FILES, ...INPUT_CAPE_FILES]) {
    if (files.has(expected) || reported.has(expected)) continue;
    const generic = (GENERIC_CAPE_FILES as readonly string[]).includes(expected);
    issues.push({
      path: expected,
      kind: 'missing',
      message: generic
        ? `framework file ${expected} is missing; run \`cape init --missing-only\` to restore the generic templates`
        : `project input ${expected} is missing; run \`cape init --missing-only\` to generate it from the questionnaire`,
    });
  }

  return {
    dir,
    files,
    issues,
    byFolder(folder: CapeFolder): CapeFile[] {
      const prefix = folder + '/';
      return [...files.values()].filter((f) => f.relPath.startsWith(prefix));
    },
  };
}

async function loadOne(readPath: string, absPath: string, relPath: string, issues: CapeIssue[]): Promise<CapeFile | null> {
  let read: Awaited<ReturnType<typeof readBounded>>;
  try {
    read = await readBounded(readPath, MAX_ASSET_BYTES);
  } catch (err) {
    issues.push({ path: relPath, kind: 'unreadable', message: `cannot read file: ${(err as Error).message}` });
    return null;
  }
  if (read.notText) {
    issues.push({ path: relPath, kind: 'binary', message: read.notText });
    return null;
  }
  const fm = parseFrontmatter(read.text);
  if (!fm.ok) {
    // Only the file's beginning was read: its frontmatter may well close after the cut ("add a '---' line" would mislead).
    const message = fm.unclosed && read.truncated
      ? `its frontmatter does not end within the first ${formatBytes(MAX_ASSET_BYTES)}, all that is read of this ${formatBytes(read.size)} file; shorten the frontmatter`
      : fm.message;
    issues.push({
      path: relPath,
      line: fm.line,
      kind: fm.kind,
      message: `${relPath}${fm.line ? `:${fm.line}` : ''}: ${message}; the file was skipped`,
    });
    return null;
  }
  if (read.truncated) {
    issues.push({
      path: relPath,
      kind: 'truncated',
      message: `${relPath} is ${formatBytes(read.size)}; only the first ${formatBytes(MAX_ASSET_BYTES)} are used`,
    });
  }
  return {
    relPath: toRel(relPath),
    absPath,
    type: classify(fm.data),
    data: fm.data,
    body: fm.body,
    truncated: read.truncated,
  };
}

/** Cape-relative path → body text (frontmatter stripped), the shape the context builders take. */
export function capeBodies(assets: CapeAssets): Map<string, string> {
  const out = new Map<string, string>();
  for (const [rel, f] of assets.files) out.set(rel, f.body);
  return out;
}
