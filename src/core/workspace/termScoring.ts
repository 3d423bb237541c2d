// The text index's ranking (termIndex.ts holds the term sets it reads), in two stages:
//  1. every file gets a cheap score from the term sets: Σ idf(t) × (path, symbol, content field boosts);
//  2. the best CANDIDATES of stage 1 are read from disk (lazily, only for this query) and scored by BM25+ with term
//     frequencies and length normalisation per field — what a full-text engine would compute for them.
import { terms } from './tokens';
import { contentStart, docEnd, pathStart, symStart, type FieldBoost } from './termDoc';
import type { QueryWords, TermExtractor } from './termExtract';
import type { Vocabulary } from './vocabulary';

/** Files re-scored with frequencies in stage 2. */
const CANDIDATES = 400;
/** BM25+ parameters: less length normalisation than the usual b = 0.75 (in code the longer file is more often the
 * one a change touches), and BM25+'s lower bound d for any matching term. */
const BM25 = { k: 1.2, b: 0.4, d: 0.5 };

/** What scoring reads of the text index. */
export interface TermStats {
  readonly vocab: Vocabulary;
  /** The Docs (termDoc.ts), back to back. */
  readonly arena: Uint32Array;
  /** Each file's Doc: its offset in the arena. */
  readonly docs: ReadonlyMap<string, number>;
  /** Per term id, the files whose content set holds it. */
  readonly df: Int32Array;
  /** Words of all files' capped content. */
  readonly totalLen: number;
  /** Counts a query's terms in a text (stage 2). */
  readonly reader: TermExtractor;
}

/** BM25's inverse document frequency of a term found in `df` of `n` documents (the one formula: history.ts uses it too). */
export function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** BM25's saturated term frequency: `tf` occurrences in a text of `len` words, against an average of `avgLen`. */
export function bm25Tf(tf: number, len: number, avgLen: number, k: number, b: number): number {
  return (tf * (k + 1)) / (tf + k * (1 - b + b * (len / avgLen)));
}

function idf(ix: TermStats, id: number): number {
  return bm25Idf(ix.docs.size, ix.df[id]);
}

/** Query terms known to the index: their ids with their counts in the query, and each term's id. */
function queryIds(ix: TermStats, query: string): { q: Map<number, number>; ids: Map<string, number> } {
  const q = new Map<number, number>();
  const ids = new Map<string, number>();
  for (const t of terms(query)) {
    const id = ids.get(t) ?? ix.vocab.get(t);
    if (id !== undefined && ix.df[id] > 0) (q.set(id, (q.get(id) ?? 0) + 1), ids.set(t, id));
  }
  return { q, ids };
}

/**
 * BM25+ scores of the files for a query: stage 1 over every file's term sets, stage 2 with frequencies over the
 * best candidates, whose text `read` returns (null: scored by stage 1 only).
 */
export function scoreFiles(ix: TermStats, query: string, boost: FieldBoost, read: (rel: string) => string | null): Map<string, number> {
  const out = new Map<string, number>();
  const { q, ids } = queryIds(ix, query);
  if (!q.size) return out;
  const weight = new Float64Array(ix.vocab.size);
  for (const [id, n] of q) weight[id] = idf(ix, id) * n;
  const rough: [string, number][] = [];
  const a = ix.arena;
  for (const [rel, at] of ix.docs) {
    let s = 0;
    const ys = symStart(a, at);
    const cs = contentStart(a, at);
    const end = docEnd(a, at);
    for (let i = pathStart(at); i < ys; i++) s += weight[a[i]] * boost.path;
    for (let i = ys; i < cs; i++) s += weight[a[i]] * boost.symbols;
    for (let i = cs; i < end; i++) s += weight[a[i]] * boost.content;
    if (s > 0) rough.push([rel, s]);
  }
  rough.sort((a, b) => b[1] - a[1]);
  const avg = ix.totalLen / Math.max(1, ix.docs.size);
  const words = { query: ids, raw: new Map<string, number[]>() };
  for (const [rel, s] of rough.slice(0, CANDIDATES)) {
    const text = read(rel);
    out.set(rel, text === null ? s : bm25(ix, rel, text, q, weight, boost, avg, words));
  }
  return out;
}

function bm25(ix: TermStats, rel: string, text: string, q: Map<number, number>, weight: Float64Array, boost: FieldBoost, avg: number, words: QueryWords): number {
  const a = ix.arena;
  const at = ix.docs.get(rel)!;
  const field = (counts: Map<number, number>, len: number, avgLen: number, b: number) => {
    let s = 0;
    for (const [id, tf] of counts) s += weight[id] * (BM25.d + bm25Tf(tf, len, Math.max(1, avgLen), BM25.k, BM25.b)) * b;
    return s;
  };
  const p = ix.reader.count(rel, q, words);
  const content = ix.reader.count(text, q, words);
  let symbols = 0;
  for (let i = symStart(a, at), cs = contentStart(a, at); i < cs; i++) if (q.has(a[i])) symbols += weight[a[i]] * (BM25.d + 1) * boost.symbols;
  return field(p.c, p.len, p.len, boost.path) + symbols + field(content.c, content.len, avg, boost.content);
}
