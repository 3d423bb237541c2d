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

/** Where the CLI keeps the index of a workspace between runs. */
export function defaultCacheFile(root: string): string {
  let real = path.resolve(root);
  try {
    real = fs.realpathSync.native(real);
  } catch {
    /* a missing root fails later, with a clearer message */
  }
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
