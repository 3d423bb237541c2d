// The text index's ranking (termIndex.ts holds the term sets it reads), in two stages:
//  1. every file gets a cheap score from the term sets: Σ idf(t) × (path, symbol, content field boosts) — from the
//     Docs in memory, or from the postings of the query's terms when the index is still in its cache file;
//  2. the best CANDIDATES of stage 1 are read from disk (lazily, only for this query) and scored by BM25+ with term
//     frequencies and length normalisation per field — what a full-text engine would compute for them.
import { terms } from './tokens';
import { contentStart, docEnd, pathStart, symStart, type FieldBoost } from './termDoc';
import type { QueryWords, TermExtractor } from './termExtract';
import { FIELD_ALL, FIELD_CONTENT, FIELD_PATH, FIELD_SYMBOLS, fieldBoostOf, POSTING_SHIFT } from './termPostings';
import type { StoredTerms } from './storedTerms';
import type { Vocabulary } from './vocabulary';

/** Files re-scored with frequencies in stage 2. */
const CANDIDATES = 400;
/** BM25+ parameters: less length normalisation than the usual b = 0.75 (in code the longer file is more often the
 * one a change touches), and BM25+'s lower bound d for any matching term. */
const BM25 = { k: 1.2, b: 0.4, d: 0.5 };

/** What scoring reads of the text index, in memory or left in the cache file (see TermIndex). */
interface TermCounts {
  readonly vocab: Vocabulary;
  /** Per term id, the files whose content set holds it. */
  readonly df: Int32Array;
  /** Words of all files' capped content. */
  readonly totalLen: number;
  /** Files indexed. */
  readonly files: number;
  /** Counts a query's terms in a text (stage 2). */
  readonly reader: TermExtractor;
}

/** The text index in memory: the Docs in their arena. */
export interface TermStats extends TermCounts {
  /** The Docs (termDoc.ts), back to back. */
  readonly arena: Uint32Array;
  /** Each file's Doc: its offset in the arena. */
  readonly docs: ReadonlyMap<string, number>;
}

/** The text index left in the cache file (storedTerms.ts): file i is paths[i] (`files` counts those with a Doc). */
export interface StoredStats extends TermCounts {
  readonly stored: StoredTerms;
  readonly paths: readonly string[];
}

/** BM25's usual parameters, for short texts (commit subjects, the sections and entries of the cape/ files). */
export const BM25_SHORT_TEXTS = { k: 1.2, b: 0.75 } as const;

/** BM25's inverse document frequency of a term found in `df` of `n` documents (the one formula: history.ts uses it too). */
export function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** BM25's saturated term frequency: `tf` occurrences in a text of `len` words, against an average of `avgLen`. */
export function bm25Tf(tf: number, len: number, avgLen: number, k: number, b: number): number {
  return (tf * (k + 1)) / (tf + k * (1 - b + b * (len / avgLen)));
}

/** A query's terms known to the index: ids with their counts in the query, each term's id, and each id's weight. */
interface Query {
  q: Map<number, number>;
  ids: Map<string, number>;
  weight: Map<number, number>;
}

function queryOf(ix: TermCounts, query: string): Query {
  const q = new Map<number, number>();
  const ids = new Map<string, number>();
  for (const t of terms(query)) {
    const id = ids.get(t) ?? ix.vocab.get(t);
    if (id !== undefined && ix.df[id] > 0) (q.set(id, (q.get(id) ?? 0) + 1), ids.set(t, id));
  }
  const weight = new Map<number, number>();
  for (const [id, n] of q) weight.set(id, bm25Idf(ix.files, ix.df[id]) * n);
  return { q, ids, weight };
}

/** Stage 1's scores: file, score, and where its Doc is (the arena offset, or the file's number in the cache). */
type Rough = [rel: string, score: number, ref: number][];

/**
 * Stage 1 on the Docs in memory: per file, Σ over the query's terms (in query order) of weight × the boosts of the
 * fields that hold it — the same sums, in the same order, as stage1Stored() computes from the postings.
 */
function stage1(ix: TermStats, qy: Query, boost: FieldBoost): Rough {
  const ids = [...qy.q.keys()];
  const w = ids.map((id) => qy.weight.get(id)!);
  const slot = new Int32Array(ix.vocab.size);
  ids.forEach((id, k) => (slot[id] = k + 1));
  const fields = new Uint8Array(ids.length);
  const rough: Rough = [];
  const a = ix.arena;
  for (const [rel, at] of ix.docs) {
    const ys = symStart(a, at);
    const cs = contentStart(a, at);
    const end = docEnd(a, at);
    let hit = false;
    for (let i = pathStart(at); i < ys; i++) if (slot[a[i]]) fields[slot[a[i]] - 1] |= FIELD_PATH;
    for (let i = ys; i < cs; i++) if (slot[a[i]]) fields[slot[a[i]] - 1] |= FIELD_SYMBOLS;
    for (let i = cs; i < end; i++) if (slot[a[i]]) ((fields[slot[a[i]] - 1] |= FIELD_CONTENT), (hit = true));
    if (!hit) continue;
    let s = 0;
    for (let k = 0; k < ids.length; k++) {
      if (fields[k]) s += w[k] * fieldBoostOf(fields[k], boost);
      fields[k] = 0;
    }
    if (s > 0) rough.push([rel, s, at]);
  }
  return rough;
}

/** Stage 1 from the postings of the query's terms (termPostings.ts), file order as the Docs' (see stage1()). */
function stage1Stored(ix: StoredStats, qy: Query, boost: FieldBoost): Rough {
  const s = new Float64Array(ix.paths.length);
  for (const id of qy.q.keys()) {
    const w = qy.weight.get(id)!;
    const list = ix.stored.postings(id);
    for (let i = 0; i < list.length; i++) s[list[i] >>> POSTING_SHIFT] += w * fieldBoostOf(list[i] & FIELD_ALL, boost);
  }
  const rough: Rough = [];
  for (let i = 0; i < s.length; i++) if (s[i] > 0) rough.push([ix.paths[i], s[i], i]);
  return rough;
}

/**
 * BM25+ scores of the files for a query: stage 1 over every file's term sets, stage 2 with frequencies over the
 * best candidates, whose text `read` returns (null: scored by stage 1 only).
 */
export function scoreFiles(ix: TermStats, query: string, boost: FieldBoost, read: (rel: string) => string | null): Map<string, number> {
  const qy = queryOf(ix, query);
  if (!qy.q.size) return new Map();
  const a = ix.arena;
  return stage2(ix, stage1(ix, qy, boost), qy, boost, read, (at) => a.subarray(symStart(a, at), contentStart(a, at)));
}

/** scoreFiles() on the text index left in the cache file: the same scores. Throws when the file turns out damaged. */
export function scoreStored(ix: StoredStats, query: string, boost: FieldBoost, read: (rel: string) => string | null): Map<string, number> {
  const qy = queryOf(ix, query);
  if (!qy.q.size) return new Map();
  return stage2(ix, stage1Stored(ix, qy, boost), qy, boost, read, (file) => {
    const doc = ix.stored.doc(file);
    return doc.subarray(symStart(doc, 0), contentStart(doc, 0));
  });
}

/** Stage 2: the best CANDIDATES of stage 1 by BM25+ with frequencies; `symbolIds` gives a candidate's symbol terms. */
function stage2(
  ix: TermCounts,
  rough: Rough,
  qy: Query,
  boost: FieldBoost,
  read: (rel: string) => string | null,
  symbolIds: (ref: number) => Uint32Array,
): Map<string, number> {
  const out = new Map<string, number>();
  rough.sort((a, b) => b[1] - a[1]);
  const avg = ix.totalLen / Math.max(1, ix.files);
  const words = { query: qy.ids, raw: new Map<string, number[]>() };
  for (const [rel, s, ref] of rough.slice(0, CANDIDATES)) {
    const text = read(rel);
    out.set(rel, text === null ? s : bm25(ix, rel, text, symbolIds(ref), qy, boost, avg, words));
  }
  return out;
}

function bm25(ix: TermCounts, rel: string, text: string, symbolIds: Uint32Array, qy: Query, boost: FieldBoost, avg: number, words: QueryWords): number {
  const field = (counts: Map<number, number>, len: number, avgLen: number, b: number) => {
    let s = 0;
    for (const [id, tf] of counts) s += qy.weight.get(id)! * (BM25.d + bm25Tf(tf, len, Math.max(1, avgLen), BM25.k, BM25.b)) * b;
    return s;
  };
  const p = ix.reader.count(rel, qy.q, words);
  const content = ix.reader.count(text, qy.q, words);
  let symbols = 0;
  for (let i = 0; i < symbolIds.length; i++) if (qy.q.has(symbolIds[i])) symbols += qy.weight.get(symbolIds[i])! * (BM25.d + 1) * boost.symbols;
  return field(p.c, p.len, p.len, boost.path) + symbols + field(content.c, content.len, avg, boost.content);
}
