// Reads and writes the workspace index's cache file: its place is cacheLocation.ts's, its layout indexCache.ts's.
// This module joins them with the file system: an atomic write (then the cache folder pruned), and a read that
// gives back the file entries and a restored text index only when the file is of this version, made for this root
// under the same rules (policyKey) and undamaged (its digest, then its structure) — anything else is null, and the
// caller rebuilds; and the index's content and folder records taken from it (loadIndexCache).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ensureDir, writeFileAtomic } from '../files/fsAtomic';
import { pruneCacheFolder } from './cacheLocation';
import { cacheChunks, readCache, type CacheHeader } from './indexCache';
import type { FileEntry } from './indexEntry';
import type { RestoredFiles } from './fileTable';
import { BUILTIN_IGNORES, POLICY_REVISION, type WorkspacePolicy } from './policy';
import { SECRET_NAME_PATTERNS } from './secretNames';
import { TermIndex } from './termIndex';
import { StatAhead, type StatAheadOptions } from './statAhead';
import type { IndexContent } from './indexContent';
import type { TreeWalk } from './treeWalk';

/** What decides which files are admitted besides the disk (a cache made under other rules is not used). */
export function policyKey(policy: WorkspacePolicy): unknown {
  return { capeFolder: policy.capeFolder, maxBytes: policy.maxBytes, secrets: SECRET_NAME_PATTERNS, builtins: BUILTIN_IGNORES, revision: POLICY_REVISION };
}

/** Writes the cache file atomically, then prunes the cache folder (nothing on big-endian machines). */
export async function writeIndexFile(cacheFile: string, header: CacheHeader, files: readonly FileEntry[], text: TermIndex): Promise<void> {
  if (os.endianness() !== 'LE') return;
  await ensureDir(path.dirname(cacheFile));
  await writeFileAtomic(cacheFile, cacheChunks(header, files, text.serialize(files.map((f) => f.path))));
  pruneCacheFolder(cacheFile);
}

/**
 * The cache file's content with its text index restored, or null (missing, other version or rules, damaged:
 * `onDamaged` is called then). With
 * `lazy`, the text index's Docs and the files' symbols and specifiers stay in the file until something needs them
 * (termIndex.ts, indexEntry.ts StoredPieces: a one-off query reads only what it asks for); the file then stays open
 * until they are read (cacheFile.ts). `onHeader` is called once the header is
 * read and matches, before the sections are.
 */
export function readIndexFile(
  cacheFile: string,
  expect: { root: string; policy: unknown },
  lazy = false,
  onHeader?: (header: CacheHeader, files: number) => void,
  onDamaged?: () => void,
): { header: CacheHeader; files: RestoredFiles; recorded: Int32Array; text: TermIndex } | null {
  if (os.endianness() !== 'LE') return null;
  let fd: number;
  try {
    fd = fs.openSync(cacheFile, 'r');
  } catch {
    return null;
  }
  const cache = readCache(fd, expect, onHeader, onDamaged);
  if (!cache) {
    fs.closeSync(fd);
    return null;
  }
  const text = new TermIndex();
  if (!text.restore(cache.text, cache.files.paths) || (!lazy && !text.load())) {
    cache.file.close();
    onDamaged?.();
    return null;
  }
  // not a one-off query: everything is read now, and the file closed
  if (!lazy) for (const pieces of [cache.files.symbols, cache.files.specs]) pieces.load();
  return { header: cache.header, files: cache.files, recorded: cache.recorded, text };
}

/**
 * The workspace index's content and folder records taken from its cache file when one matches (readIndexFile), with
 * `above` (the rules above the root when it was written) and the recorded folders' and files' stats being taken
 * ahead (statAhead.ts: started once the header matched, while the sections are read); null when there is none to take.
 */
export function loadIndexCache(
  cacheFile: string,
  into: { root: string; realRoot: string; policy: WorkspacePolicy; content: IndexContent; tree: TreeWalk },
  lazy: boolean,
  statAhead: StatAheadOptions | undefined,
  onDamaged: () => void,
): { above: string | null; statAhead: StatAhead | null } | null {
  // the stat worker starts before the header is read, and takes its job once it is (StatAhead.spawn)
  let spawned = StatAhead.spawn(cacheFile, statAhead);
  let ahead: StatAhead | null = null;
  const onHeader = (header: CacheHeader, files: number) => {
    ahead = StatAhead.start(into.root, header.dirs, files, statAhead, spawned);
    if (ahead) spawned = null;
  };
  const cache = readIndexFile(cacheFile, { root: into.realRoot, policy: policyKey(into.policy) }, lazy, onHeader, onDamaged);
  // a worker no job was given (no cache, another's, a small workspace) ends here
  if (spawned) void spawned.worker.terminate();
  if (!cache) {
    (ahead as StatAhead | null)?.stop();
    return null;
  }
  into.content.restore(cache);
  into.tree.restore(cache.header.dirs);
  // the walk takes a recorded file it finds unchanged by its place among the entries (IndexContent.metRecorded)
  (ahead as StatAhead | null)?.useEntries(cache.recorded);
  return { above: typeof cache.header.above === 'string' ? cache.header.above : null, statAhead: ahead };
}
