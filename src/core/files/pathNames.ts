// The rules of one file or folder name in a workspace path (pathSafety.ts's policy, which documents them once): what
// a segment may not start or end with, the characters refused anywhere, Windows device names and `.git`. Split from
// pathSafety.ts, which applies them to whole paths and to the disk; the workspace index applies nameRefusal to every
// name it lists.
import { INVISIBLE_CHARS } from '../text/controls';
import { shorten } from '../text/cut';

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(\..*)?$/i;
// what text drops (text/controls.ts INVISIBLE_CHARS: zero-width, bidi, BOM) and the other default-ignorable
// characters a name must not hide: the joiners, variation selectors, the soft hyphen, fillers
export const INVISIBLE = new RegExp(String.raw`[${INVISIBLE_CHARS}\u200C\u200D\u00AD\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u3164\uFE00-\uFE0F\uFFA0]`);


export function show(p: string): string {
  return JSON.stringify(shorten(p, 80));
}

/**
 * Why a segment that starts with white space, or ends with a dot or white space, is refused (see the policy above),
 * with the name to write instead when there is one.
 */
function spacedRefusal(seg: string): string {
  const meant = seg.trim().replace(/(?<!\.)\.+$/, '').trim();
  // (no advice to write a name refused for another reason, such as `.git`)
  const instead = meant && !segmentRefusal(meant, meant) ? `; write ${show(meant)}` : '';
  if (/^\s/.test(seg)) return `segment ${show(seg)} starts with a space (it would make a file or folder whose name begins with one)${instead}`;
  if (/[. ]$/.test(seg)) return `segment ${show(seg)} ends with a dot or a space (Windows would strip it)${instead}`;
  return `segment ${show(seg)} ends with a space (it would make a file or folder whose name ends with one)${instead}`;
}

/** Why one segment of path `p` is refused (the rules above that look at a single name), or null. */
export function segmentRefusal(seg: string, p: string): string | null {
  if (/^\s|[.\s]$/.test(seg)) return spacedRefusal(seg);
  if (seg.includes(':')) return `segment ${show(seg)} contains ":" (drive letter or alternate data stream)`;
  if (/[<>"|?*]/.test(seg)) return `segment ${show(seg)} contains a character that is invalid in Windows file names`;
  if (seg.length > 255) return `segment ${show(seg)} is longer than 255 characters`;
  const lower = seg.toLowerCase();
  if (lower === '.git' || /^git~\d+$/.test(lower)) return `.git/ holds the repository's own data; an agent neither reads nor writes inside it (${show(p)})`;
  return null;
}

/**
 * Why a segment that is a Windows device name is refused, or null (not one, or an existing entry off Windows): the
 * one rule of device names. `exists`: whether the file or folder the segment names exists (a listed name does).
 */
export function deviceNameRefusal(seg: string, exists: () => boolean, platform: NodeJS.Platform): string | null {
  if (!WINDOWS_RESERVED.test(seg)) return null;
  if (platform === 'win32') return `segment ${show(seg)} is a reserved device name on Windows`;
  if (exists()) return null;
  return `segment ${show(seg)} is a reserved device name on Windows, and no file or folder of that name exists here: creating one would make the repository impossible to check out on Windows; choose another name`;
}


/** Matches the names nameRefusal may refuse but an overlong one: the characters it looks for, a trailing dot or space, the names of devices and of `.git`. */
const NAME_SUSPECT = new RegExp(`[\\u0000-\\u001F\\u007F-\\u009F\\\\:<>"|?*]|${INVISIBLE.source}|^\\s|[.\\s]$|${WINDOWS_RESERVED.source}|^(?:\\.git|git~\\d+)$`, 'i');

/**
 * Why a file or folder name as a directory listing gives it can never be part of a path checkFilePath accepts, or
 * null: the rules of one segment (a device name as an existing entry's), plus the characters refused anywhere in a
 * path (NUL, control, invisible) and the backslash (a separator in every path: `a\b` names `a/b`, not that name);
 * `atRoot`: the name is a path of its own (a top-level entry), which must not start with `~` either. Whoever lists
 * files to the model (the workspace index) leaves such names out, so nothing is offered that a read refuses.
 */
export function nameRefusal(name: string, atRoot = false, platform: NodeJS.Platform = process.platform): string | null {
  // a path starting with `~` reads as the home folder
  if (atRoot && name.startsWith('~')) return `name ${show(name)} at the workspace root reads as a home-directory path`;
  // a walk asks for every name it lists: one test clears an ordinary one
  if (name.length <= 255 && !NAME_SUSPECT.test(name)) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001F\u007F-\u009F]/.test(name)) return `name ${show(name)} contains a NUL or control character`;
  if (INVISIBLE.test(name)) return `name ${show(name)} contains an invisible (zero-width or text-direction) character`;
  if (name.includes('\\')) return `name ${show(name)} contains a backslash (a separator in workspace paths)`;
  return segmentRefusal(name, name) ?? deviceNameRefusal(name, () => true, platform);
}
