// File locks: an exclusive lock file next to the file it guards that records its holder (pid, host, time), so a lock
// left by a killed process is recognised as stale (dead pid or age) and broken with a warning naming it. Two users:
// the KPT file (kpt_merged.md; held for a merge, waited for) and a running session (state/<task>.json; held for the
// whole run, never waited for: a second run of the same session is refused at once). Plain Node, no 'vscode'.
import { promises as fsp } from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as crypto from 'crypto';
import { ensureDir } from './fsAtomic';
import { formatDuration } from '../model/dates';

export interface LockOptions {
  /**
   * A lock file older than this is considered abandoned by a crashed process and taken over (default 30 s).
   * Infinity: only a holder of this host that no longer runs makes it stale (a lock held for a long run).
   */
  staleMs?: number;
  /** Give up waiting for the lock after this long (default 60 s; 0: do not wait). */
  timeoutMs?: number;
  /** Told when a stale lock is broken or the wait for a live holder gets long (CLI stderr, VS Code log). */
  onWarning?: (message: string) => void;
}

/** What a lock's user says when the lock stays taken: the holder as words, and the lock file. */
export interface LockUse {
  /** What a holder does with it, for the waiting message ("another CAPE session merging its KPT"). */
  holderDoing: string;
  /** The error thrown when the wait ends with the lock still held (default: a timeout naming the holder). */
  busy?: (holder: string, lockPath: string) => Error;
}

export class LockError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LockError';
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A lock without a token (an O_EXCL holder killed between create and write, or an older CAPE) is stale after this long. */
const EMPTY_LOCK_STALE_MS = 2_000;
/** Say that we are waiting once the wait for a live holder lasts this long. */
const SAY_WAITING_AFTER_MS = 3_000;

/** What a lock file says about its holder: `<pid> <host> <epoch ms> <random>` (older versions: no host). */
interface LockHolder {
  pid: number | null;
  host: string | null;
  since: number | null;
  raw: string;
}

/** This machine's name as written into lock files (one token). */
function hostName(): string {
  return os.hostname().replace(/\s+/g, '_') || 'localhost';
}

function parseHolder(raw: string): LockHolder {
  const parts = raw.trim().split(/\s+/);
  const pid = /^\d+$/.test(parts[0] ?? '') ? Number(parts[0]) : null;
  const withHost = parts.length >= 4;
  const since = Number(withHost ? parts[2] : parts[1]);
  return { pid, host: withHost ? parts[1] : null, since: Number.isFinite(since) && since > 0 ? since : null, raw };
}

/** False only when `pid` certainly does not exist on this machine (ESRCH); EPERM means it exists (another user). */
function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function describeHolder(h: LockHolder): string {
  if (h.pid === null) return 'an unknown process (the lock file is empty or unreadable)';
  const where = h.host ? ` on ${h.host}` : '';
  const since = h.since ? `, since ${new Date(h.since).toISOString()}` : '';
  return `process ${h.pid}${where}${since}`;
}

/** What the KPT file's lock says of its holder (the default use). */
const KPT_LOCK: LockUse = { holderDoing: 'another CAPE session merging its KPT' };

/**
 * Runs `fn` while holding `<filePath>.lock`, created atomically with its token (see tryTakeLock), so concurrent
 * sessions (in this process or others) serialise. The lock holds `<pid> <host> <epoch ms> <random>`. Waiting uses exponential backoff with
 * jitter. A lock is stale — and broken at once, with a warning naming it — when its holder is a process of this
 * host that no longer exists, when it stayed empty (holder killed before writing it) for 2 s, or when it is older
 * than `staleMs` (holder on another host, or pid reused). Breaking renames it to a unique name first (only one
 * contender can win that rename) and checks it again — if what was renamed turns out to be a fresh lock of another
 * contender, it is put back (link() fails if a new one exists). A live holder is waited for (said after 3 s) up to
 * `timeoutMs`, then a LockError (or `use.busy`'s error) names the lock file and its holder.
 *
 * Why not proper-lockfile: it detects staleness only by mtime (its holder must keep touching the lock), so a lock
 * of a killed process still costs the full stale period in silent waiting; a pid + host token lets us break it at
 * once and say whose it was.
 */
export async function withFileLock<T>(filePath: string, fn: () => Promise<T>, opts: LockOptions = {}, use: LockUse = KPT_LOCK): Promise<T> {
  const release = await acquireFileLock(filePath, opts, use);
  try {
    return await fn();
  } finally {
    await release();
  }
}

/** Takes `<filePath>.lock` as withFileLock does and returns its release (which removes only our own lock). */
export async function acquireFileLock(filePath: string, opts: LockOptions = {}, use: LockUse = KPT_LOCK): Promise<() => Promise<void>> {
  const staleMs = opts.staleMs ?? 30_000;
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const lockPath = `${filePath}.lock`;
  const token = `${process.pid} ${hostName()} ${Date.now()} ${crypto.randomBytes(8).toString('hex')}`;
  const warn = (m: string): void => {
    try {
      opts.onWarning?.(m);
    } catch {
      /* a listener's bug must not break the merge */
    }
  };
  const started = Date.now();
  let saidWaiting = false;
  let delay = 5;
  let goneBefore = false;
  await ensureDir(path.dirname(filePath));
  for (;;) {
    if (await tryTakeLock(lockPath, token)) break;
    const verdict = await staleVerdict(lockPath, staleMs);
    // released in between: try again at once; but a name that is there and cannot be opened (a dangling link) is
    // "gone" every time: from the second time on it is waited for and timed out like a live lock, never spun on
    const gone = verdict === 'gone';
    if (gone && !goneBefore) {
      goneBefore = true;
      continue;
    }
    goneBefore = gone;
    if (verdict !== 'live' && verdict !== 'gone') {
      if (await breakStaleLock(lockPath, staleMs)) warn(`Removed the stale lock ${lockPath}: ${verdict.why}.`);
      continue;
    }
    const waited = Date.now() - started;
    const holder = parseHolder(await fsp.readFile(lockPath, 'utf8').catch(() => ''));
    if (waited >= timeoutMs) {
      if (use.busy) throw use.busy(describeHolder(holder), lockPath);
      throw new LockError(
        `Timed out after ${formatDuration(timeoutMs)} waiting for the lock ${lockPath}, held by ${describeHolder(holder)}. ` +
          'If no other CAPE session is running, delete that file and retry.',
      );
    }
    if (!saidWaiting && waited > SAY_WAITING_AFTER_MS) {
      saidWaiting = true;
      warn(`Waiting for the lock ${lockPath}, held by ${describeHolder(holder)} (${use.holderDoing}).`);
    }
    await sleep(delay * (0.5 + Math.random()));
    delay = Math.min(delay * 1.6, 250);
  }
  return async () => {
    // release only our own lock (after a takeover by someone else it is not ours any more)
    const content = await fsp.readFile(lockPath, 'utf8').catch(() => null);
    if (content === token) await fsp.rm(lockPath, { force: true });
  };
}

/** Link errors that mean "this file system has no hard links": take the lock with O_EXCL instead. */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EINVAL']);

/**
 * Creates the lock holding `token`; false when another holder has it. The token is written to a private file first
 * and hard-linked into place (link() fails when the lock exists), so a lock is never seen empty or half written: a
 * holder that is slow between creating and writing its lock can never be taken for one killed in between. File
 * systems without hard links fall back to O_EXCL create + write.
 */
async function tryTakeLock(lockPath: string, token: string): Promise<boolean> {
  const own = `${lockPath}.${crypto.randomBytes(6).toString('hex')}.taking`;
  let fallback = false;
  try {
    await fsp.writeFile(own, token, { flag: 'wx' });
    try {
      await fsp.link(own, lockPath);
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (code === 'EEXIST') return false;
      if (!NO_LINKS.has(code)) throw err;
      fallback = true;
    }
  } finally {
    await fsp.rm(own, { force: true });
  }
  if (!fallback) return false;
  try {
    const fh = await fsp.open(lockPath, 'wx');
    try {
      await fh.writeFile(token);
    } finally {
      await fh.close();
    }
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/**
 * 'gone' (vanished: retry at once), 'live' (wait), or why the lock is stale. The age and the content are read
 * through one open handle, so they belong to the same lock: a fresh lock taken right after an old one was released
 * is never judged by the old one's age. A lock that is there but cannot be read (a folder, no permission) cannot be
 * judged: it is waited for like a live one, and the timeout's error names it.
 */
async function staleVerdict(lockPath: string, staleMs: number): Promise<'gone' | 'live' | { why: string }> {
  let st;
  let raw: string;
  try {
    const fh = await fsp.open(lockPath, 'r');
    try {
      st = await fh.stat();
      raw = await fh.readFile('utf8');
    } finally {
      await fh.close();
    }
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : 'live';
  }
  const age = Date.now() - st.mtimeMs;
  const holder = parseHolder(raw);
  if (holder.pid !== null && holder.host === hostName() && !processAlive(holder.pid)) {
    return { why: `its holder, ${describeHolder(holder)}, no longer runs` };
  }
  if (holder.pid === null && raw.trim() === '' && age > EMPTY_LOCK_STALE_MS) {
    return { why: `it stayed empty for ${formatDuration(age)} (its holder was killed while taking it)` };
  }
  if (age >= staleMs) return { why: `${describeHolder(holder)} held it for ${formatDuration(age)} (limit ${formatDuration(staleMs)})` };
  return 'live';
}

/**
 * Moves a stale lock aside; true when what we moved was indeed stale. If a contender's fresh lock replaced the stale
 * one in between, that is what we moved: it is put back (unless a newer one exists) and false is returned.
 */
async function breakStaleLock(lockPath: string, staleMs: number): Promise<boolean> {
  const aside = `${lockPath}.stale-${crypto.randomBytes(6).toString('hex')}`;
  try {
    await fsp.rename(lockPath, aside);
  } catch {
    return false; // another contender moved it first
  }
  try {
    if ((await staleVerdict(aside, staleMs)) === 'live') {
      await fsp.link(aside, lockPath).catch(() => undefined);
      return false;
    }
  } finally {
    await fsp.rm(aside, { force: true });
  }
  return true;
}
