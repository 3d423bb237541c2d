// Excerpts of a large file: the line ranges that speak most of the work, for a well-ranked file too large (or too
// crowded out) to be sent whole. A change to a mature codebase lands in its big central files (a 2,000-line
// `core/index.ts`, a `command.js` that holds the whole API); a map line names them, but DevA needs their exact lines to
// write a SEARCH block, or at least to know which lines to read.
//
// Each line scores the query's terms it holds, a term weighing more the fewer lines of the file hold it (a word on
// every line says nothing about where; an identifier the work writes whole, `uploadProgress`, is a term of its own,
// rarer than its words), and as the query weighs it (pack.ts: the objective's words fully, its code identifiers more,
// the upstream work's less). A line that declares a name of the work (`storeOptionsAsProperties(value) {`, or
// `addOption(option) {` for "add an option": a name all of whose words the work says) holds a term of its own too,
// rarer still than the name's uses: the declaration is where the behaviour lives.
//
// The best lines each open a window: a few lines before, more after (a change follows its anchor), widened up to the
// block's header (the nearest line above with less indentation: the function or method the line belongs to). A
// window is worth its best line and a quarter of its other lines, so it is placed by what it is about, not by a line
// at its edge. Windows are taken best first — the first by the objective's terms alone when any line holds them (a
// trial: the upstream work's many words took a 2,188-line file's excerpts away from the method the objective named),
// the next ones with a term the windows before them showed counting a quarter — until the budget is spent; a window
// too long for the room left loses its lines before its best line first, then those after. They are shown in file
// order, merged when they touch. The excerpt's text is the file's own lines, byte for byte, so a SEARCH block can be
// copied from it. What a range costs to show beyond its lines (its heading and fences, as the caller renders them) is
// charged while the windows are picked, on the ranges as they will be merged, so the excerpt fits its budget as
// rendered; and each range says what of the work it holds (the declared names and terms), for its heading.
// The file's leading imports (from its first import line to its last, cut at the end to a fifth of the budget) are
// taken first: an <edit> that adds an import needs an import line to anchor its SEARCH (a trial's DevA, shown no
// import of a 2,400-line file, wrote a type inline rather than import it). On the localization bench the share of
// changed hunks shown went up on three repositories by 0.01 and down on none. How a line is read (the name it declares,
// its indentation, the imports at the file's top) is excerptLines.ts's.
import { fileLines } from '../text/lines';
import { terms } from './tokens';
import { declaredName, declaredWeight, importHeader, indentOf } from './excerptLines';

export interface ExcerptRange {
  /** 1-based, inclusive. */
  start: number;
  end: number;
}

/** What a range shows of the work: the names of the work it declares, and the query terms it holds, weightiest first. */
export interface RangeAbout {
  declares: string[];
  terms: string[];
}

export interface Excerpt {
  ranges: ExcerptRange[];
  /** Per range, what it shows of the work (its heading tells DevA why it was picked). */
  about: RangeAbout[];
  /** The ranges' text, each range's lines joined by '\n' (in file order, one entry per range). */
  texts: string[];
  /** Characters of the texts together (without what `overhead` adds). */
  chars: number;
  /** Lines in the file. */
  lines: number;
}

/** Lines shown before and after a window's best line, and how far up its header is looked for. */
export const EXCERPT_WINDOW = { before: 4, after: 14, header: 20 };
/** What the terms of a window's other lines add to its worth, against its best line's. */
const CONTEXT_SHARE = 0.25;
/**
 * How much more a window is worth when its best line is among the lines an upstream role read (a trial: DA read the
 * 100 lines of the branch to change, and the excerpts of the work's words fell either side of it).
 */
const FAVOURED = 2;
/**
 * A range an upstream role read by line numbers (`read_file` with start_line/end_line) is shown as it is, before the
 * work's words pick their windows, when it fits in this share of the excerpt's room; a longer one is only favoured (a
 * sqlparse trial: DA read lines 1–30 of the 827-line CHANGELOG, where the next entry goes, and DevA's excerpts, picked
 * by the work's words, began at line 21 — it read lines 1–12 again).
 */
const PINNED_SHARE = 0.6;
/** Windows touching or closer than this many lines are merged into one. */
const MERGE_GAP = 3;
/** At most this many windows are weighed (the best lines'). */
const MAX_WINDOWS = 200;
/** A line longer than this is minified or generated: its terms do not place an edit, nor does it declare a name worth pinning (sectionBlocks.ts). */
export const LONG_LINE = 500;

/** What share of an excerpt's budget the file's leading imports may take. */
const HEADER_SHARE = 0.2;

/** Marks a declared-name term (`\u0001storeoptionsasproperties`): no term of tokens.ts starts with it. */
const DECLARES = '\u0001';

/**
 * The ranges of `text` that hold the most of `queryTerms` (normalised terms, as tokens.ts makes them), weighted as
 * above, within `budget` characters: the ranges' text, and for each range `opts.overhead(range, about)` (its heading
 * and fences, as the caller renders them), counted on the ranges as they are finally merged. A window whose best line
 * is in one of `opts.favoured` (the lines an upstream role read for this work) is worth FAVOURED times as much;
 * `opts.pinned` (the ranges it read by line numbers) are shown first, after the imports, each where it fits in
 * PINNED_SHARE of the room; then the file's first `opts.head` lines, as many of them as fit there. `opts.lineTerms` reads a line's terms instead of tokens.ts terms (a companion's excerpts
 * look up names as written: companions.ts); a line then holds no declared-name term of its own. null when no line
 * holds any query term and nothing is pinned, nor a head asked for.
 */
export function selectExcerpt(
  text: string,
  queryTerms: ReadonlyMap<string, number>,
  budget: number,
  opts: {
    overhead?: (range: ExcerptRange, about: RangeAbout) => number;
    favoured?: readonly ExcerptRange[];
    pinned?: readonly ExcerptRange[];
    head?: number;
    lineTerms?: (line: string) => Iterable<string>;
  } = {},
): Excerpt | null {
  const { overhead, lineTerms: termsOf = terms } = opts;
  const lines = fileLines(text);
  const pinned = (opts.pinned ?? [])
    .map((r) => ({ start: Math.max(1, r.start), end: Math.min(lines.length, r.end) }))
    .filter((r) => r.start <= r.end);
  const head = Math.min(lines.length, opts.head ?? 0);
  if (!lines.length || budget <= 0 || (!queryTerms.size && !pinned.length && !head)) return null;
  // the query terms each line holds, and on how many lines each term is
  const lineTerms: (string[] | null)[] = new Array(lines.length).fill(null);
  const df = new Map<string, number>();
  /** The declared names' terms (DECLARES + name), their weights and the names as written. */
  const declares = new Map<string, number>();
  const declaredAs = new Map<string, string>();
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].length > LONG_LINE) continue;
    let held: string[] | null = null;
    const hold = (t: string) => {
      (held ??= []).push(t);
      df.set(t, (df.get(t) ?? 0) + 1);
    };
    for (const t of new Set(termsOf(lines[i]))) if (queryTerms.has(t)) hold(t);
    // the line that declares a name of the work is a term of its own: the few lines declaring it weigh more than the
    // many using it, and the declaration is where its behaviour lives
    const declared = held && !opts.lineTerms ? declaredName(lines[i]) : null;
    if (declared) {
      const w = declaredWeight(declared, queryTerms);
      if (w > 0) {
        const key = DECLARES + declared.toLowerCase();
        declares.set(key, w);
        if (!declaredAs.has(key)) declaredAs.set(key, declared);
        hold(key);
      }
    }
    lineTerms[i] = held;
  }
  if (!df.size && !pinned.length && !head) return null;
  /** The query's weight of a held term (a declared name's is its name's). */
  const queryWeight = (t: string) => (t.startsWith(DECLARES) ? declares.get(t)! : queryTerms.get(t)!);
  const weight = (t: string) => Math.log(1 + lines.length / df.get(t)!) * queryWeight(t);

  // one window per line holding a term: its range and the terms it shows
  interface Window {
    /** Its best line (0-based). */
    at: number;
    start: number; // 0-based, inclusive
    end: number;
    /** The terms of its best line, and of the other lines it shows. */
    own: readonly string[];
    held: Set<string>;
  }
  const windowAt = (i: number): Window => {
    let start = Math.max(0, i - EXCERPT_WINDOW.before);
    const own = indentOf(lines[i]);
    if (own > 0) {
      for (let j = i - 1; j >= Math.max(0, i - EXCERPT_WINDOW.header); j--) {
        const ind = indentOf(lines[j]);
        if (ind >= 0 && ind < own) {
          start = Math.min(start, j);
          break;
        }
      }
    }
    const end = Math.min(lines.length - 1, i + EXCERPT_WINDOW.after);
    const held = new Set<string>();
    for (let k = start; k <= end; k++) for (const t of lineTerms[k] ?? []) held.add(t);
    return { at: i, start, end, own: lineTerms[i] ?? [], held };
  };
  // the best lines open windows (a common term on hundreds of lines would make the pick below quadratic)
  const favoured = (i: number) => (opts.favoured?.some((r) => r.start <= i + 1 && r.end >= i + 1) ? FAVOURED : 1);
  const anchors: number[] = [];
  const lineValue = new Float64Array(lines.length);
  for (let i = 0; i < lines.length; i++) {
    if (!lineTerms[i]) continue;
    anchors.push(i);
    lineValue[i] = lineTerms[i]!.reduce((s, t) => s + weight(t), 0) * favoured(i);
  }
  anchors.sort((a, b) => lineValue[b] - lineValue[a] || a - b);
  const candidates = anchors.slice(0, MAX_WINDOWS).map(windowAt);

  const shown = new Set<string>();
  // the first window is the objective's (the terms of full weight) when any line holds them: the upstream work's many
  // words must not take the excerpt away from what the person asked for
  let first = [...df.keys()].some((t) => queryWeight(t) >= 1);
  // a window is worth its best line, and a little of the lines around it (context, not what places the change)
  const value = (w: Window) => {
    let v = 0;
    const f = favoured(w.at);
    for (const t of w.held) {
      if (first && queryWeight(t) < 1) continue;
      v += weight(t) * f * (shown.has(t) ? 0.25 : 1) * (w.own.includes(t) ? 1 : CONTEXT_SHARE);
    }
    return v;
  };
  // what the ranges cost as they would be finally shown: merged when close, each range's text and its overhead
  const lineStart = new Float64Array(lines.length + 1);
  for (let k = 0; k < lines.length; k++) lineStart[k + 1] = lineStart[k] + lines[k].length + 1;
  const merged = (spans: readonly ExcerptRange[]): ExcerptRange[] => {
    const out: ExcerptRange[] = [];
    for (const r of [...spans].sort((a, b) => a.start - b.start)) {
      const last = out[out.length - 1];
      // fill a small gap: a range of its own would cost a heading for fewer lines
      if (last && r.start - last.end <= MERGE_GAP + 1) last.end = Math.max(last.end, r.end);
      else out.push({ ...r });
    }
    return out;
  };
  const aboutOf = (r: ExcerptRange): RangeAbout => {
    const held = new Set<string>();
    for (let k = r.start - 1; k < r.end; k++) for (const t of lineTerms[k] ?? []) held.add(t);
    const declared = [...held].filter((t) => t.startsWith(DECLARES));
    const plain = [...held].filter((t) => !t.startsWith(DECLARES));
    const byWeight = (a: string, b: string) => weight(b) - weight(a);
    return { declares: declared.sort(byWeight).map((t) => declaredAs.get(t)!), terms: plain.sort(byWeight) };
  };
  const sizeOf = (spans: readonly ExcerptRange[]) =>
    merged(spans).reduce((s, r) => s + lineStart[r.end] - lineStart[r.start - 1] - 1 + (overhead ? overhead(r, aboutOf(r)) : 0), 0);

  const taken: ExcerptRange[] = [];
  const covered = new Uint8Array(lines.length);
  let used = 0;
  /** Takes a range (`size`: the ranges taken with it, as sizeOf counts them): its lines shown, their terms seen. */
  const take = (span: ExcerptRange, size: number) => {
    used = size;
    taken.push(span);
    for (let k = span.start - 1; k < span.end; k++) {
      covered[k] = 1;
      for (const t of lineTerms[k] ?? []) shown.add(t);
    }
  };
  // the file's imports first, where they fit: an <edit> that adds one needs an import line to anchor its SEARCH
  const header = importHeader(lines);
  // a long import block is cut at its end: any import line anchors a new one
  while (header && header.end > header.start && sizeOf([header]) > budget * HEADER_SHARE) header.end--;
  if (header && sizeOf([header]) <= budget * HEADER_SHARE) take(header, sizeOf([header]));
  // the lines an upstream role read by number, as they are, where they fit
  for (const r of pinned) {
    const size = sizeOf([...taken, r]);
    if (size - used <= budget * PINNED_SHARE && size <= budget) take(r, size);
  }
  // the file's first lines, cut at their end to what fits as a pinned range does
  if (head) {
    const r = { start: 1, end: head };
    const size = () => sizeOf([...taken, r]);
    while (r.end > 1 && (size() - used > budget * PINNED_SHARE || size() > budget)) r.end--;
    if (size() - used <= budget * PINNED_SHARE && size() <= budget) take(r, size());
  }
  const pool = new Set(candidates);
  while (pool.size) {
    let best: Window | null = null;
    let bestValue = 0;
    for (const w of pool) {
      const v = value(w);
      if (v > bestValue || (v === bestValue && best && w.start < best.start)) (best = w), (bestValue = v);
    }
    if (!best || bestValue <= 0) break;
    pool.delete(best);
    first = false;
    const span = { start: best.start + 1, end: best.end + 1 };
    const size = () => sizeOf([...taken, span]);
    // too long for the room left: fewer lines before its best line, then after it (a change follows its anchor)
    while (size() > budget && span.start <= best.at) span.start++;
    while (size() > budget && span.end > best.at + 1) span.end--;
    const after = size();
    if (after > budget) {
      if (budget - used < 200) break;
      continue;
    }
    take(span, after);
    // windows wholly inside what is shown add nothing
    for (const w of pool) {
      let inside = true;
      for (let k = w.start; k <= w.end && inside; k++) inside = covered[k] === 1;
      if (inside) pool.delete(w);
    }
  }
  if (!taken.length) return null;

  const ranges = merged(taken);
  const texts = ranges.map((r) => lines.slice(r.start - 1, r.end).join('\n'));
  return { ranges, about: ranges.map(aboutOf), texts, chars: texts.reduce((s, t) => s + t.length, 0), lines: lines.length };
}
