// What a step's tool calls saw of the workspace — the files read_file returned (whole or by line range) and the lines
// a focused search_files found — so the next step can build on it: DevA's ranking weighs the files DA saw, its
// excerpts favour those lines, and its workspace section names them.
import type { ToolCallRecord } from '../model/types';

export interface FileRead {
  path: string;
  /** Read whole. */
  whole?: boolean;
  /** The line ranges read (1-based, inclusive), in the order read. */
  lines?: [number, number][];
  /** The lines a focused search found (workspaceCalls.ts FOCUSED_SEARCH_HITS), in file order. */
  hits?: number[];
  /** The line ranges the role's reply cites (`path:710-713`: session/citations.ts), in the order cited. */
  cited?: [number, number][];
}

const lineNumber = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n > 0;

/**
 * The files the calls saw, first seen first. Refused, limited and empty calls saw nothing; a record read back from a
 * damaged pair file gives what is well-formed in it.
 */
export function filesRead(records: readonly ToolCallRecord[] | undefined): FileRead[] {
  const byPath = new Map<string, FileRead>();
  const entry = (p: string) => {
    let e = byPath.get(p);
    if (!e) byPath.set(p, (e = { path: p }));
    return e;
  };
  for (const c of records ?? []) {
    if (c.refused || c.limited || !(c.chars > 0)) continue;
    if (c.tool === 'read_file' && typeof c.path === 'string' && c.path) {
      const r = c.lines;
      if (Array.isArray(r) && lineNumber(r[0]) && lineNumber(r[1]) && r[0] <= r[1]) {
        const e = entry(c.path);
        if (!e.whole) (e.lines ??= []).push([r[0], r[1]]);
        // a whole read cut at the budget names the lines it kept; one without them (none kept whole, or recorded before
        // cut reads named their lines) was not read whole
      } else if (r === undefined && !c.truncated) {
        const e = entry(c.path);
        e.whole = true;
        delete e.lines;
      }
    } else if (c.tool === 'search_files' && Array.isArray(c.found)) {
      for (const f of c.found) {
        if (!Array.isArray(f) || typeof f[0] !== 'string' || !f[0] || !lineNumber(f[1])) continue;
        const e = entry(f[0]);
        if (!(e.hits ??= []).includes(f[1])) e.hits.push(f[1]);
      }
    }
  }
  for (const e of byPath.values()) e.hits?.sort((a, b) => a - b);
  return [...byPath.values()];
}
