// Ranking the workspace's files for a step's work.
//
// 1. Text: BM25 over path, symbols and content (termIndex.ts: per-file word sets pick the candidates, the best are
//    re-scored from their text), with the path and symbols boosted. The objective is what the person typed and
//    weighs most; the upstream work (POA's criteria and scope, DA's specs) adds its own, damped score, so long
//    specifications do not drown the objective.
// 2. Structure: the best text matches pass part of their score to the files they import and to the files that import
//    them (a test next to its subject, a component and its hook, a route and its handler), since a change rarely
//    stays in one file.
// 3. Names: a file whose name (without extension) is made of words of the objective scores higher (×1.6), and one
//    whose symbol is an identifier written in the objective gets a bonus — a person who names a function means it.
// 4. Kind: built output, lock files, changelogs and docs are damped (kindPrior) whatever their text says.
// 5. History: in a git repository, a file the text points to weighs up to twice as much when git saw it change
//    recently and often (history.ts) — the next change most often lands where the last ones did.
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
  sameStem: 0.3,
  recent: 1,
};

/**
 * How likely a kind of file is to be what a development step changes, whatever its text says: built and minified
 * output, source maps and lock files almost never; changelogs and other docs match every request's words but are
 * rarely the change; configuration and data sometimes.
 */
export function kindPrior(relPath: string): number {
  const p = relPath.toLowerCase();
  if (/(^|\/)(dist|build|out|coverage|vendor|\.next|\.nuxt|target|generated)\//.test(p) || /\.min\.(js|css)$|\.map$|(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|npm-shrinkwrap\.json)$/.test(p)) return 0.05;
  if (/(^|\/)(changelog|history|changes|license|licence|authors|contributors|code_of_conduct)[^/]*$/.test(p)) return 0.1;
  if (/\.(md|mdx|markdown|txt|rst|adoc)$/.test(p)) return 0.35;
  if (/\.(json|ya?ml|toml|ini|lock|xml|csv|svg)$|(^|\/)\.[^/]+$/.test(p)) return 0.5;
  return 1;
}

/** The name stem a source file and its test share (`lib/adapters/fetch.js` and `test/unit/adapters/fetch.spec.js`). */
function nameStem(relPath: string): string {
  return path.posix.basename(relPath).toLowerCase().replace(/\.[^.]+$/, '').replace(/\.(test|spec|d)$/, '');
}

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
  for (const [p, s] of base) base.set(p, s * kindPrior(p) * (1 + w.recent * index.recencyOf(p)));

  // names written in the objective
  const objTerms = new Set(terms(q.objective));
  const rawIdents = new Set([...q.objective.matchAll(/[A-Za-z_$][\w$]{2,}/g)].map((m) => m[0]));
  for (const [p] of base) {
    const f = index.get(p);
    if (!f) continue;
    const nameTerms = terms(nameStem(p));
    const prior = kindPrior(p);
    if (nameTerms.length && nameTerms.every((t) => objTerms.has(t))) base.set(p, base.get(p)! * (1 + w.nameHit));
    if (f.symbols.some((s) => s.length > 3 && rawIdents.has(s))) base.set(p, base.get(p)! + w.symbolHit * prior);
  }

  // structure: seeds pass score along import edges and to files of the same name stem (a source and its test)
  const seeds = [...base.entries()].sort((a, b) => b[1] - a[1]).slice(0, w.seeds);
  const final = new Map(base);
  const add = (t: string, v: number) => final.set(t, (final.get(t) ?? 0) + v * kindPrior(t));
  let byStem: Map<string, string[]> | null = null;
  for (const [p, s] of seeds) {
    const f = index.get(p);
    if (!f) continue;
    for (const t of f.imports) add(t, w.importedBySeed * s);
    for (const t of index.importersOf(p)) add(t, w.importsSeed * s);
    if (!byStem) {
      byStem = new Map();
      for (const g of index.all()) {
        const k = nameStem(g.path);
        const list = byStem.get(k);
        if (list) list.push(g.path);
        else byStem.set(k, [g.path]);
      }
    }
    const twins = byStem.get(nameStem(p)) ?? [];
    if (twins.length <= 4) for (const t of twins) if (t !== p && !f.imports.includes(t)) add(t, w.sameStem * s);
  }
  return [...final.entries()]
    .filter(([, s]) => s > 0)
    .map(([p, s]) => ({ path: p, score: s }))
    .sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
}
