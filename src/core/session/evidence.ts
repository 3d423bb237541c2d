// Where an answered question's evidence points: the places a role names in `evidence` ("src/list.tsx:22-26, 82-88;
// src/api.ts:13"), cut out of the text so the panel can open each at its lines. The roles cite lines by the numbers
// read_file and search_files show (text/lines.ts), so `path:line` is the usual form; `path#L12-L20` is read too. A
// bare word with a dot ("e.g.", "v1.2", "README.md") is not taken for a place: a place has a line, or a folder and
// an extension ("src/delete-discussion.tsx"). The host checks every path again before opening it (inside the
// workspace, a file). Plain functions on strings: the webview imports them too.

/** A file and, when the evidence names them, its lines (1-based, `endLine` ≥ `line`). */
export interface EvidencePlace {
  path: string;
  line?: number;
  endLine?: number;
}

/** A piece of the evidence text, in order: the pieces' texts joined are the evidence as written. */
export interface EvidencePart {
  text: string;
  place?: EvidencePlace;
}

/** Lines past this are not taken for line numbers (a date or an id, not a line); the panel's messages check it too. */
export const MAX_LINE = 10_000_000;

// a path (segments of word characters, dots, @, +, -), then `:12`, `:12-20`, `:12–20`, `#L12`, `#L12-L20`
const PLACE = /(?<![\w./@+\\-])((?:[\w@.+-]+\/)*[\w@.+-]*[\w@+-])(?::(\d{1,8})(?:\s?[-–]\s?(\d{1,8}))?|#L(\d{1,8})(?:-L?(\d{1,8}))?)?(?![\w/@+\\-])/g;
// after a place with lines: more lines of the same file (", 82-88")
const MORE_LINES = /,\s?(\d{1,8})(?:\s?[-–]\s?(\d{1,8}))?(?![\w./:@-])/y;

function lines(from: string | undefined, to: string | undefined): Omit<EvidencePlace, 'path'> | null {
  const line = Number(from);
  if (!Number.isInteger(line) || line < 1 || line > MAX_LINE) return null;
  const end = to === undefined ? NaN : Number(to);
  return Number.isInteger(end) && end > line && end <= MAX_LINE ? { line, endLine: end } : { line };
}

/** A path worth linking without lines: in a folder, with an extension. */
function filePath(p: string): boolean {
  return p.includes('/') && /\.[A-Za-z][A-Za-z0-9]{0,9}$/.test(p);
}

/** The evidence text cut into plain text and places (see the header). */
export function evidenceParts(evidence: string): EvidencePart[] {
  const out: EvidencePart[] = [];
  let at = 0;
  const text = (to: number) => {
    if (to > at) out.push({ text: evidence.slice(at, to) });
    at = to;
  };
  PLACE.lastIndex = 0;
  for (let m = PLACE.exec(evidence); m; m = PLACE.exec(evidence)) {
    const path = m[1];
    const span = m[2] !== undefined ? lines(m[2], m[3]) : m[4] !== undefined ? lines(m[4], m[5]) : null;
    if (!span && !filePath(path)) continue;
    if (path.split('/').some((s) => s === '..' || s === '')) continue;
    text(m.index);
    out.push({ text: m[0], place: { path, ...(span ?? {}) } });
    at = m.index + m[0].length;
    if (!span) continue;
    MORE_LINES.lastIndex = at;
    for (let more = MORE_LINES.exec(evidence); more; more = MORE_LINES.exec(evidence)) {
      const next = lines(more[1], more[2]);
      if (!next) break;
      const numbers = more[0].indexOf(more[1]);
      text(more.index + numbers);
      out.push({ text: more[0].slice(numbers), place: { path, ...next } });
      at = more.index + more[0].length;
      MORE_LINES.lastIndex = at;
    }
    PLACE.lastIndex = at;
  }
  text(evidence.length);
  return out;
}
