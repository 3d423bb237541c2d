// Benchmark: the edit matcher (src/core/edits/match.ts) on its worst inputs, a 50,000-line file of `}` lines against a
// 500-line SEARCH of `}` lines: one that matches nowhere (its last line differs), one that matches only shifted (no
// exact place, the indentation shift fits everywhere), and one that matches nowhere but with indentation ignored.
// Comparing the SEARCH at every line took seconds for each; finding it by line keys (src/core/edits/locate.ts) takes
// time linear in the lines. And Review Hunks' diff (src/core/edits/hunks.ts) of the same file re-indented on every
// line, which took minutes unbounded and is one hunk past the diff's bound.
// Run: node out/bench/editMatch.js  →  "edit matcher, 50000-line file × 500-line SEARCH: …"
import { applyHunks } from '../src/core/edits/match';
import { textHunks } from '../src/core/edits/hunks';

export interface EditMatchBench {
  fileLines: number;
  searchLines: number;
  /** Milliseconds of one applyHunks, by case. */
  ms: { nowhere: number; shifted: number; hint: number };
  /** Milliseconds of Review Hunks' diff (textHunks) of the file against itself re-indented on every line. */
  reviewHunksMs: number;
}

function timed(content: string, search: string[], expect: RegExp): number {
  const t0 = process.hrtime.bigint();
  const r = applyHunks(content, [{ search, replace: ['x'] }]);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.ok || !expect.test(r.failures[0].reason)) throw new Error(`edit matcher bench: unexpected result ${JSON.stringify(r.ok ? 'applied' : r.failures[0].reason)}`);
  return ms;
}

export function benchEditMatch(fileLines = 50_000, searchLines = 500): EditMatchBench {
  const content = `${Array(fileLines).fill('}').join('\n')}\n`;
  const nowhere = timed(content, [...Array(searchLines - 1).fill('}'), 'x'], /matches nowhere/);
  const shifted = timed(content, Array(searchLines).fill('  }'), /matches \d+ places/);
  const hint = timed(content, [...Array(searchLines - 1).fill('  }'), '\t}'], /indented differently/);
  const reindented = content.replace(/^\}/gm, '\t}');
  const t0 = process.hrtime.bigint();
  if (textHunks(content, reindented).length !== 1) throw new Error('edit matcher bench: a re-indented file is not one hunk');
  const reviewHunksMs = Number(process.hrtime.bigint() - t0) / 1e6;
  return { fileLines, searchLines, ms: { nowhere, shifted, hint }, reviewHunksMs };
}

export function editMatchLine(b: EditMatchBench): string {
  const { nowhere, shifted, hint } = b.ms;
  return `edit matcher, ${b.fileLines}-line file × ${b.searchLines}-line SEARCH: ${nowhere.toFixed(0)} ms matching nowhere, ${shifted.toFixed(0)} ms matching everywhere shifted, ${hint.toFixed(0)} ms with an indentation hint; Review Hunks of the file re-indented: ${b.reviewHunksMs.toFixed(0)} ms`;
}

if (require.main === module) console.log(editMatchLine(benchEditMatch()));
