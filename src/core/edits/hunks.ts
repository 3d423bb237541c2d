// A proposal as hunks: the changed regions between the current text and the proposed text, for "Review Hunks" (each
// hunk becomes one TextEdit the user can tick in VS Code's refactor preview). Line-based, from jsdiff's diffLines:
// a run of removed and/or added lines is one hunk. Offsets are into the current text, so the hunks apply
// independently of one another (any subset gives a consistent file). The diff's cost is bounded (DIFF_WORK): past it,
// everything from the first line that differs to the last is one hunk. A run of added or removed lines that could
// equally sit a few lines up or down is placed where it ends with a blank line, as git places it (slideRuns).
import { diffLines } from 'diff';
import { fileLines, lineCount } from '../text/lines';

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

/**
 * What the line diff may cost, in lines of both texts × lines changed (Myers' algorithm takes about that many steps):
 * about half a second. A whole <file> re-indenting a 20,000-line module changes every line: unbounded, its diff took
 * 100 s and froze the editor during Review Hunks.
 */
const DIFF_WORK = 20_000_000;

interface LinePart {
  value: string;
  count: number;
  added?: boolean;
  removed?: boolean;
}

/** The lines of a text with their endings, as diffLines cuts them. */
const withEnds = (t: string): string[] => {
  const out: string[] = [];
  let at = 0;
  for (let nl = t.indexOf('\n'); nl !== -1; nl = t.indexOf('\n', at)) {
    out.push(t.slice(at, nl + 1));
    at = nl + 1;
  }
  if (at < t.length) out.push(t.slice(at));
  return out;
};

/** The change as one run: the lines both texts start and end with kept, everything between replaced. */
function oneRun(current: string, proposed: string): LinePart[] {
  const a = withEnds(current);
  const b = withEnds(proposed);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const part = (lines: string[], kind: { added?: boolean; removed?: boolean }): LinePart => ({ value: lines.join(''), count: lines.length, ...kind });
  return [
    part(a.slice(0, head), {}),
    part(a.slice(head, a.length - tail), { removed: true }),
    part(b.slice(head, b.length - tail), { added: true }),
    part(a.slice(a.length - tail), {}),
  ].filter((p) => p.count > 0);
}

const isBlank = (line: string) => line.trim() === '';

/**
 * Moves each run of lines only added (or only removed) between two kept runs to where a person would say the change
 * is, as git's diff does: a run can slide up while its last line repeats the kept line before it, and down while its
 * first line repeats the kept line after it. Of those places, the lowest where the run ends with a blank line is taken
 * (else it stays). jsdiff's choice is arbitrary among them: a function inserted above another's `/**` came out as two
 * hunks, the new doc comment ending with a stray `/**` and the old `/**` kept between them.
 */
function slideRuns(parts: LinePart[]): LinePart[] {
  const runs = parts.map((p) => ({ lines: withEnds(p.value), added: p.added, removed: p.removed }));
  for (let i = 0; i < runs.length; i++) {
    const x = runs[i];
    if (!(x.added || x.removed) || !x.lines.length) continue;
    const before = runs[i - 1];
    const after = runs[i + 1];
    if ((before && (before.added || before.removed)) || (after && (after.added || after.removed))) continue;
    const a = before?.lines ?? [];
    const b = after?.lines ?? [];
    // the run's lines with the kept lines around it: the run is a window of `len` lines over them, starting at `at`
    const len = x.lines.length;
    const line = (i: number) => (i < a.length ? a[i] : i < a.length + len ? x.lines[i - a.length] : b[i - a.length - len]);
    const total = a.length + len + b.length;
    let top = a.length;
    while (top > 0 && line(top - 1) === line(top - 1 + len)) top--;
    let bottom = a.length;
    while (bottom + len < total && line(bottom) === line(bottom + len)) bottom++;
    let at = a.length;
    for (let k = bottom; k >= top; k--) {
      if (isBlank(line(k + len - 1))) {
        at = k;
        break;
      }
    }
    if (at === a.length) continue;
    const all = [...a, ...x.lines, ...b];
    if (before) before.lines = all.slice(0, at);
    x.lines = all.slice(at, at + len);
    if (after) after.lines = all.slice(at + len);
  }
  return runs
    .filter((r) => r.lines.length)
    .map((r) => ({ value: r.lines.join(''), count: r.lines.length, ...(r.added ? { added: true } : {}), ...(r.removed ? { removed: true } : {}) }));
}

export function textHunks(current: string, proposed: string): TextHunk[] {
  const out: TextHunk[] = [];
  let offset = 0;
  let line = 1;
  let open: TextHunk | null = null;
  const maxEditLength = Math.max(1, Math.floor(DIFF_WORK / (lineCount(current) + lineCount(proposed))));
  for (const part of slideRuns(diffLines(current, proposed, { maxEditLength }) ?? oneRun(current, proposed))) {
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

/** Where a hunk is, for its entry in the refactor preview: "line 7", "lines 7–9", "insert after line 6" / "before line 1". */
export function hunkPlace(h: TextHunk): string {
  if (h.removed === 0) return h.line === 1 ? 'insert before line 1' : `insert after line ${h.line - 1}`;
  return h.removed === 1 ? `line ${h.line}` : `lines ${h.line}–${h.line + h.removed - 1}`;
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

/**
 * A proposal as the editor's document of the file holds text: VS Code keeps a file's UTF-8 byte-order mark outside the
 * document's text (and writes it back on save) and gives the document one line break, `eol`, which any text inserted
 * into it takes. So a leading BOM of the proposal is dropped (unless the document's text itself starts with one) and
 * its line breaks become `eol`. The file's bytes on save keep its BOM and line breaks.
 */
export function inDocumentForm(proposed: string, docText: string, eol: '\n' | '\r\n'): string {
  const text = proposed.startsWith('\uFEFF') && !docText.startsWith('\uFEFF') ? proposed.slice(1) : proposed;
  return text.replace(/\r\n|\r|\n/g, eol);
}

/**
 * The hunks of a proposal against the text the user sees (an open editor's, unsaved changes included), with the
 * proposal in the document's form (inDocumentForm): a CRLF file rewritten by a whole <file> (LF) is its changed
 * lines, not one hunk of every line, and a BOM is no change of line 1.
 */
export function documentHunks(docText: string, eol: '\n' | '\r\n', proposed: string): TextHunk[] {
  return textHunks(docText, inDocumentForm(proposed, docText, eol));
}

/**
 * A proposal's changes as a reader skims them: per hunk a heading with where it is and how many lines it removes
 * (`@@ line 14, 2 line(s) removed`), then the lines it adds (`+` and the line as it is, as a unified diff writes it), within `maxChars` — what is left out is counted
 * at the end ("… 12 more added line(s)"). Line endings and a byte-order mark do not count as changes (documentHunks). Only the proposal's own lines are
 * shown, never the current file's: a whole <file> may replace a file the model was never allowed to read (a secret
 * by name, an ignored one), and this text goes to the model (the retrospective, for the files DevA names for review).
 */
export function changedLinesText(current: string, proposed: string, maxChars: number): string {
  const out: string[] = [];
  let used = 0;
  let left = 0;
  const put = (l: string, counts: boolean) => {
    if (left || used + l.length + 1 > maxChars) {
      if (counts) left++;
      return;
    }
    out.push(l);
    used += l.length + 1;
  };
  for (const h of documentHunks(current.replace(/\r\n?/g, '\n'), '\n', proposed)) {
    put(`@@ line ${h.line}${h.removed ? `, ${h.removed} line(s) removed` : ''}`, false);
    for (const l of h.text ? fileLines(h.text) : []) put(`+${l}`, true);
  }
  if (left) out.push(`… ${left} more added line(s)`);
  return out.join('\n');
}
