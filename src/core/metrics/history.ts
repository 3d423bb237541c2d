// The ASS history read back from the retrospective files of earlier sessions, for the satisfaction trend (ST), and
// readHead, which reads a retrospective's start up to the end of its frontmatter (written by store.ts, read here and by
// store/retrospectives.ts, through cape/frontmatter.ts). Plain Node: nothing in src/core may import 'vscode'.
import * as fs from 'fs';
import { promises as fsp } from 'fs';
import * as path from 'path';
import { readFrontmatter } from '../cape/frontmatter';
import { parseRetrospectiveName } from '../store/records';
import { NO_FOLLOW, NO_WAIT } from '../files/openFlags';

/** Bytes read at a time from the start of a retrospective to find its frontmatter (usually all it takes). */
export const FRONTMATTER_READ_BYTES = 16 * 1024;
/**
 * The most read to find the end of a frontmatter: the longest objective (8,000 characters) takes up to 10 bytes a
 * character in YAML (a control character or an emoji escaped), so 256 KiB holds any frontmatter CAPE writes.
 */
export const FRONTMATTER_MAX_BYTES = 256 * 1024;

/** A text that opens a frontmatter block (`---`) whose closing line has not been read yet. */
function frontmatterUnclosed(text: string): boolean {
  return /^\uFEFF?---[ \t]*\r?\n/.test(text) && !/\n---[ \t]*(\r?\n|$)/.test(text);
}

/**
 * The start of a file, enough for its frontmatter (read on until it closes, up to FRONTMATTER_MAX_BYTES). A plain
 * file only: a link (which may lead out of the workspace) or a FIFO (which would keep the read waiting, and the
 * session's end with it) is an error, which the callers take as an unreadable file.
 */
export async function readHead(file: string): Promise<string> {
  const fh = await fsp.open(file, fs.constants.O_RDONLY | NO_FOLLOW | NO_WAIT);
  try {
    if (!(await fh.stat()).isFile()) throw new Error(`${file} is not a plain file`);
    const parts: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.alloc(FRONTMATTER_READ_BYTES);
      const { bytesRead } = await fh.read(buf, 0, buf.length, total);
      parts.push(buf.subarray(0, bytesRead));
      total += bytesRead;
      const text = Buffer.concat(parts).toString('utf8');
      if (bytesRead < buf.length || total >= FRONTMATTER_MAX_BYTES || !frontmatterUnclosed(text)) return text;
    }
  } finally {
    await fh.close();
  }
}

/**
 * ASS averages recorded in the retrospective files of `dir` (cape/5_sessions/retrospective), oldest first, for ST.
 * Files without an `ass_average` (e.g. from the original CLI) or with an unreadable one are skipped. Ordered by the
 * frontmatter `date`, else by the date in the file name. One point per session (its `task_id`, else the task id in
 * the file name): the newest of its retrospectives. A missing folder is an empty history.
 */
export async function historyFromRetrospectives(dir: string, opts: { excludeTaskId?: string } = {}): Promise<number[]> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const points: { time: number; name: string; value: number; taskId: string }[] = [];
  for (const name of names) {
    const named = parseRetrospectiveName(name);
    if (!named) continue;
    let head: string;
    try {
      head = await readHead(path.join(dir, name));
    } catch {
      continue;
    }
    const fm = readFrontmatter(head);
    if (!fm) continue;
    const value = fm.ass_average;
    if (typeof value !== 'number' || !Number.isFinite(value)) continue;
    if (opts.excludeTaskId && fm.task_id === opts.excludeTaskId) continue;
    // A rerun of `cape repeat` is a measurement, not a team session: its satisfaction is not part of the trend.
    if (typeof fm.repeat_of === 'string' && fm.repeat_of) continue;
    const fromName = named.date.getTime();
    const fmTime = typeof fm.date === 'string' ? Date.parse(fm.date) : NaN;
    points.push({ time: Number.isFinite(fmTime) ? fmTime : fromName, name, value, taskId: typeof fm.task_id === 'string' && fm.task_id ? fm.task_id : named.taskId });
  }
  points.sort((a, b) => a.time - b.time || (a.name < b.name ? -1 : 1));
  // one point per session: a session finished again (`cape resume --from-step`) wrote a newer retrospective, whose
  // satisfaction replaces the earlier one's, at the newer one's place in time
  const newest = new Map(points.map((p) => [p.taskId, p]));
  return points.filter((p) => newest.get(p.taskId) === p).map((p) => p.value);
}
