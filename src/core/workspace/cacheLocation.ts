// Where the workspace index's cache file lives (its layout is indexCache.ts): OUTSIDE the workspace, in the user's
// cache folder (CAPE_CACHE_DIR, else $XDG_CACHE_HOME/cape-vscode, %LOCALAPPDATA%\cape-vscode,
// ~/Library/Caches/cape-vscode or ~/.cache/cape-vscode), one file per workspace (named by a hash of its real path):
// nothing to commit or ignore, and deleting it only costs one rebuild. The folder keeps the CACHE_KEEP most recently
// written files.
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** Index files kept in the cache folder (one per workspace; the least recently written go first). */
const CACHE_KEEP = 50;

/**
 * A workspace's real path, which its cache file is made for and named by: the same folder opened through a symlink
 * shares the cache (its paths are relative) instead of each opening rebuilding it. As given (resolved) when it cannot
 * be resolved: a missing root fails later, with a clearer message.
 */
export function realRootOf(root: string): string {
  const abs = path.resolve(root);
  try {
    return fs.realpathSync.native(abs);
  } catch {
    return abs;
  }
}

/**
 * The '/'-separated path of `file` inside the workspace whose real path is `realRoot` (the file's folder's symlinks
 * resolved; a folder not made yet taken as given), or null when it is not inside: a cache folder inside the workspace
 * is never indexed, and a path a file event names is indexed only when it comes back as itself (no symlinked folder
 * on the way).
 */
export function relativeToRoot(realRoot: string, file: string): string | null {
  const abs = path.resolve(file);
  let dir = path.dirname(abs);
  try {
    dir = fs.realpathSync.native(dir);
  } catch {
    /* not made yet: as given */
  }
  const rel = path.relative(realRoot, path.join(dir, path.basename(abs)));
  return rel && rel.split(path.sep)[0] !== '..' && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : null;
}

/** Where the CLI keeps the index of a workspace between runs. */
export function defaultCacheFile(root: string): string {
  const real = realRootOf(root);
  const base =
    process.env.CAPE_CACHE_DIR ||
    (process.env.XDG_CACHE_HOME
      ? path.join(process.env.XDG_CACHE_HOME, 'cape-vscode')
      : process.platform === 'win32'
        ? path.join(process.env.LOCALAPPDATA || path.join(os.homedir(), 'AppData', 'Local'), 'cape-vscode')
        : process.platform === 'darwin'
          ? path.join(os.homedir(), 'Library', 'Caches', 'cape-vscode')
          : path.join(os.homedir(), '.cache', 'cape-vscode'));
  const hash = crypto.createHash('sha256').update(real).digest('hex').slice(0, 16);
  return path.join(base, `index-${path.basename(real).replace(/[^\w.-]/g, '_').slice(0, 40)}-${hash}.idx`);
}

/**
 * After `cacheFile` was written: removes an older version's cache of the same workspace (`.json`), then the least
 * recently written index files beyond CACHE_KEEP. Housekeeping only: errors are ignored.
 */
export function pruneCacheFolder(cacheFile: string): void {
  const dir = path.dirname(cacheFile);
  try {
    const old = fs
      .readdirSync(dir)
      .filter((n) => /^index-.*\.(idx|json)$/.test(n))
      .map((n) => ({ p: path.join(dir, n), t: fs.statSync(path.join(dir, n)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const o of old) if (o.p === cacheFile.replace(/\.idx$/, '.json')) fs.rmSync(o.p, { force: true });
    for (const o of old.slice(CACHE_KEEP)) fs.rmSync(o.p, { force: true });
  } catch {
    /* pruning is housekeeping only */
  }
}
