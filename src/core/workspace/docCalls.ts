// How often the project's own documentation calls a name: the root README (fileKinds.ts readmeOf) and the Markdown
// files directly under a root docs/ folder, read within DOC_CALL_CHARS in all. A call is the name as a whole word
// right before `(`: `program.option('-d')` and `.option(` call `option`; `options(` and `$option(` do not. An
// interface line gives a type's members in this order (mapLines.ts fileNames): on commander.js the methods a user
// writes (`option`, `parse`, `action`) came after some seventy others in the source, past the line's room.
import { MARKDOWN_FILE, readmeOf } from './fileKinds';

/** The documentation read for its calls, in characters at most (as the index counts them): a large docs/ folder costs little. */
export const DOC_CALL_CHARS = 256 * 1024;

/** How many times the project's documentation calls a name (a method's own name: `option`); 0 when it never does. */
export type NameCalls = (name: string) => number;

/** No documentation: every name called 0 times (the members keep their source order). */
export const NO_CALLS: NameCalls = () => 0;

/** The index as docCalls reads it: its paths, and a file's characters there (to keep within the bound before reading). */
export interface DocFiles {
  paths(): Iterable<string>;
  get(relPath: string): { chars: number } | undefined;
}

/** A run of identifier characters, and the `(` right after it when there is one. */
const WORD = /[\p{L}\p{N}_$]+\(?/gu;
/** A word that starts with a digit is no name. */
const DIGIT_START = /^\p{N}/u;

/** Each name `text` calls (a whole word right before `(`), with how many times: one pass over the text. */
export function callCounts(text: string, into = new Map<string, number>()): Map<string, number> {
  for (const [word] of text.matchAll(WORD)) {
    if (!word.endsWith('(') || DIGIT_START.test(word)) continue;
    const name = word.slice(0, -1);
    into.set(name, (into.get(name) ?? 0) + 1);
  }
  return into;
}

/**
 * The documentation files whose calls count: the root README, then the Markdown files directly under `docs/` (any
 * case), by path. DevA's companions (companions.ts) take the same files as the documentation of a file's names.
 */
export function docPaths(files: DocFiles): string[] {
  const root: string[] = [];
  const docs: string[] = [];
  for (const p of files.paths()) {
    if (!p.includes('/')) root.push(p);
    else if (/^docs\/[^/]+$/i.test(p) && MARKDOWN_FILE.test(p)) docs.push(p);
  }
  const readme = readmeOf(root);
  return [...(readme ? [readme] : []), ...docs.sort()];
}

/**
 * The calls of the project's documentation (docPaths), read through `read` at the first ask and kept: built once for a
 * request's lines. A file whose characters (as the index counted them) would take the reading past DOC_CALL_CHARS is
 * not read: a README longer than DOC_CALL_CHARS counts no call, and the docs/ files after it are read within the
 * whole bound; a file grown since it was indexed is read up to the bound. Without documentation every name is called
 * 0 times.
 */
export function docCalls(files: DocFiles, read: (relPath: string) => string | null): NameCalls {
  let counts: Map<string, number> | undefined;
  const count = (): Map<string, number> => {
    counts = new Map();
    let left = DOC_CALL_CHARS;
    for (const p of docPaths(files)) {
      const chars = files.get(p)?.chars ?? Infinity;
      if (chars > left) continue;
      const text = read(p);
      if (text === null) continue;
      const scanned = text.slice(0, left);
      callCounts(scanned, counts);
      left -= scanned.length;
    }
    return counts;
  };
  return (name) => (counts ?? count()).get(name) ?? 0;
}
