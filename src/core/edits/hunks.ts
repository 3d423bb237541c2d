// A proposal as hunks: the changed regions between the current text and the proposed text, for "Review Hunks" (each
// hunk becomes one TextEdit the user can tick in VS Code's refactor preview). Line-based, from jsdiff's diffLines:
// a run of removed and/or added lines is one hunk. Offsets are into the current text, so the hunks apply
// independently of one another (any subset gives a consistent file).
import { diffLines } from 'diff';

export interface TextHunk {
  /** Character offsets [start, end) in the current text that the hunk replaces. */
  start: number;
  end: number;
  /** The replacement text. */
  text: string;
  /** 1-based first line in the current text and number of lines removed / added, for labels. */
  line: number;
  removed: number;
  added: number;
}

export function textHunks(current: string, proposed: string): TextHunk[] {
  const out: TextHunk[] = [];
  let offset = 0;
  let line = 1;
  let open: TextHunk | null = null;
  for (const part of diffLines(current, proposed)) {
    const lines = part.count ?? 0;
    if (!part.added && !part.removed) {
      if (open) out.push(open);
      open = null;
      offset += part.value.length;
      line += lines;
      continue;
    }
    open ??= { start: offset, end: offset, text: '', line, removed: 0, added: 0 };
    if (part.removed) {
      open.end += part.value.length;
      open.removed += lines;
      offset += part.value.length;
      line += lines;
    } else {
      open.text += part.value;
      open.added += lines;
    }
  }
  if (open) out.push(open);
  return out;
}

/** Applies a subset of hunks (for tests and previews): the result of ticking only those in the refactor preview. */
export function applyTextHunks(current: string, hunks: readonly TextHunk[]): string {
  let out = '';
  let at = 0;
  for (const h of [...hunks].sort((a, b) => a.start - b.start)) {
    out += current.slice(at, h.start) + h.text;
    at = h.end;
  }
  return out + current.slice(at);
}
