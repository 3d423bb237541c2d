// The reads under the cape/ loader (assets.ts): a file's first bytes, never half a UTF-8 character (readBounded); the
// .md files below a folder too deep to load, for its issue (mdFilesBelow); and the secret-file rule applied to a cape/
// file and to its link target (secretRefusal: secretNames.ts, the one rule of every read of the workspace).
import * as fs from 'fs';
import * as path from 'path';
import { notTextReason } from '../files/text';
import { secretPattern } from '../workspace/secretNames';

/** A path with forward slashes. */
export function toRel(p: string): string {
  return p.split(path.sep).join('/');
}

/** The first at most `max` bytes, without a trailing partial UTF-8 character. */
function utf8Prefix(buf: Buffer, max: number): Buffer {
  let end = Math.min(buf.length, max);
  // Step back over continuation bytes (10xxxxxx) so we never split a character.
  while (end > 0 && end < buf.length && (buf[end] & 0xc0) === 0x80) end--;
  return buf.subarray(0, end);
}

/** A file's text, at most its first `max` bytes (`truncated` then), and why it is no text (NUL bytes, invalid UTF-8), if so. */
export async function readBounded(file: string, max: number): Promise<{ text: string; truncated: boolean; size: number; notText: string | null }> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const size = (await handle.stat()).size;
    const want = Math.min(size, max + 4);
    const buf = Buffer.alloc(want);
    const { bytesRead } = await handle.read(buf, 0, want, 0);
    const data = buf.subarray(0, bytesRead);
    if (size > max) {
      const prefix = utf8Prefix(data, max);
      return { text: prefix.toString('utf8'), truncated: true, size, notText: notTextReason(prefix) };
    }
    return { text: data.toString('utf8'), truncated: false, size, notText: notTextReason(data) };
  } finally {
    await handle.close();
  }
}

/** Up to `max` .md files below `abs` (cape-relative names), for the issue of a folder that is too deep to load. */
export async function mdFilesBelow(abs: string, rel: string, max: number): Promise<{ names: string[]; more: boolean }> {
  const names: string[] = [];
  let more = false;
  let budget = 2000; // entries looked at: a pathological tree must not stall the session
  const visit = async (dir: string, r: string): Promise<void> => {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (--budget < 0 || more) return;
      if (e.name.startsWith('.')) continue;
      const childRel = `${r}/${e.name}`;
      if (e.isDirectory()) await visit(path.join(dir, e.name), childRel); // symlinks are not followed here
      else if (e.isFile() && /\.md$/i.test(e.name)) {
        if (names.length < max) names.push(childRel);
        else more = true;
      }
    }
  };
  await visit(abs, rel);
  return { names, more: more || budget < 0 };
}

/**
 * Why a cape/ file is not read because it is a secret's by name, or null. `rel` is its path inside cape/, `realRel` its
 * link target's (what is read); both are tested as the workspace sees them (`cape/<rel>`, the cape folder being a single
 * name at the top of the workspace), against the same patterns as every other read.
 */
export function secretRefusal(folder: string, rel: string, realRel: string): string | null {
  const own = secretPattern(`${folder}/${rel}`);
  const target = own ? null : secretPattern(`${folder}/${realRel}`);
  if (!own && !target) return null;
  const renamed = rel.replace(/(?<![^/])[^/]+$/, 'notes.md');
  return own
    ? `its name matches the secret-file pattern "${own}": files named like secrets are never read or sent to the model. ` +
        `If it holds no secret, rename it (e.g. to ${renamed})`
    : `it links to ${realRel}, whose name matches the secret-file pattern "${target}": files named like secrets are never ` +
        'read or sent to the model; not followed';
}
