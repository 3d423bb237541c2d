// Ranking the workspace's files for a step's work.
//
// 1. Text: BM25 (minisearch) over path, symbols and content, with the path and symbols boosted. The objective is
//    what the person typed and weighs most; the upstream work (POA's criteria and scope, DA's specs) adds its own,
//    damped score, so long specifications do not drown the objective.
// 2. Structure: the best text matches pass part of their score to the files they import and to the files that import
//    them (a test next to its subject, a component and its hook, a route and its handler), since a change rarely
//    stays in one file.
// 3. Names: a file whose name (without extension) is a word of the objective, or whose exported symbol is an
//    identifier written in the objective, gets a bonus — a person who names a file or function means it.
import * as path from 'path';
import type { WorkspaceIndex } from './workspaceIndex';
import { terms } from './tokens';

export interface RankQuery {
  /** The objective as the person wrote it. */
  objective: string;
  /** The upstream work: acceptance criteria, scope, design specs (may be empty). */
  work?: string;
}

export interface RankedFile {
  path: string;
  score: number;
}

/** Weights, exported for the bench's record; not settings. */
export const RANK_WEIGHTS = {
  work: 0.5,
  seeds: 8,
  importedBySeed: 0.35,
  importsSeed: 0.3,
  nameHit: 0.6,
  symbolHit: 0.5,
  testPenalty: 0.85,
};

function normalise(scores: Map<string, number>): Map<string, number> {
  let max = 0;
  for (const v of scores.values()) if (v > max) max = v;
  if (max <= 0) return scores;
  const out = new Map<string, number>();
  for (const [k, v] of scores) out.set(k, v / max);
  return out;
}

/** Files in rank order (only those with a positive score). */
export function rankFiles(index: WorkspaceIndex, q: RankQuery): RankedFile[] {
  const w = RANK_WEIGHTS;
  const objective = normalise(index.textScores(q.objective));
  const work = q.work?.trim() ? normalise(index.textScores(q.work)) : new Map<string, number>();
  const base = new Map<string, number>();
  for (const [p, s] of objective) base.set(p, s);
  for (const [p, s] of work) base.set(p, (base.get(p) ?? 0) + w.work * s);

  // names written in the objective
  const objTerms = new Set(terms(q.objective));
  const rawIdents = new Set([...q.objective.matchAll(/[A-Za-z_$][\w$]{2,}/g)].map((m) => m[0]));
  for (const [p] of base) {
    const f = index.get(p);
    if (!f) continue;
    const stemName = path.posix.basename(p).replace(/\.[^.]+$/, '').replace(/\.(test|spec)$/, '');
    const nameTerms = terms(stemName);
    if (nameTerms.length && nameTerms.every((t) => objTerms.has(t))) base.set(p, base.get(p)! + w.nameHit);
    if (f.symbols.some((s) => s.length > 3 && rawIdents.has(s))) base.set(p, base.get(p)! + w.symbolHit);
  }

  // structure: seeds pass score along import edges
  const seeds = [...base.entries()].sort((a, b) => b[1] - a[1]).slice(0, w.seeds);
  const final = new Map(base);
  for (const [p, s] of seeds) {
    const f = index.get(p);
    if (!f) continue;
    for (const t of f.imports) final.set(t, (final.get(t) ?? 0) + w.importedBySeed * s);
    for (const t of index.importersOf(p)) final.set(t, (final.get(t) ?? 0) + w.importsSeed * s);
  }
  return [...final.entries()]
    .filter(([, s]) => s > 0)
    .map(([p, s]) => ({ path: p, score: s }))
    .sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
}
