// Words for ranking: identifiers split at camelCase, PascalCase, snake_case, kebab-case and digits
// (`getThemeColor` → get, theme, color; `MAX_FILE_BYTES` → max, file, bytes; `HTTPServer` → http, server),
// lower-cased and lightly stemmed so "headers" meets `header` and "adding" meets `add`. Shared by the index (paths,
// symbols, content) and the query (objective, acceptance criteria, specs) so both sides speak the same words.

/** Words too common in code or in requests to tell files apart (the ranking's idf would damp them anyway). */
const STOP = new Set(
  (
    'a an and are as at be by can do does for from has have if in into is it its not of on or so than that the their then ' +
    'there these this to was we were when which while will with you your should must shall may would could also each all ' +
    'any but our us user users get set new use used using via per one two been being only more most such other some make ' +
    'const let var function return import export default class extends implements interface type enum async await void ' +
    'null undefined true false else elif try catch finally throw throws public private protected static readonly ' +
    'string number boolean object any unknown never require module exports self def pass none fn pub mut impl struct ' +
    'func package go nil err int str bool val'
  ).split(' '),
);

/** Splits one identifier into lower-case parts (`parseHTTPHeaders2` → parse, http, headers, 2). */
export function splitIdentifier(id: string): string[] {
  return isAscii(id) ? splitAscii(id) : splitAny(id);
}

/** The general rule (any script): camelCase and acronym boundaries, letters before digits, other characters. */
function splitAny(id: string): string[] {
  return id
    // an acronym's plural `s` (pluralEnd) dropped first: `URLs` → `URL`; one capital looked behind, so linear
    .replace(/(?<=[A-Z])([A-Z])s(?![a-z])/g, '$1 ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    // the last capital of a run followed by a lower-case letter (`HTTPServer`): a lookahead, so that each capital is
    // tried once, not from each start of a long run
    .replace(/([A-Z])(?=[A-Z][a-z])/g, '$1 ')
    .replace(/([A-Za-z])([0-9])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((s) => s.toLowerCase());
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 127) return false;
  return true;
}

const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
function kind(c: number): number {
  if (c >= 97 && c <= 122) return LOWER;
  if (c >= 65 && c <= 90) return UPPER;
  if (c >= 48 && c <= 57) return DIGIT;
  return 0;
}

let splitCuts = new Int32Array(64);

/**
 * splitAny's rule in one pass for ASCII identifiers (the index splits every distinct word of a monorepo; the
 * regex chain took most of that time): a part ends before an upper-case letter that follows a lower-case letter or
 * digit, before the last capital of a run followed by a lower-case letter (`HTTPServer`) other than an acronym's plural
 * `s`, which is dropped (`URLs` → url: pluralEnd), before a digit that follows a letter, and at any other character.
 */
function splitAscii(id: string): string[] {
  if (splitCuts.length < 2 * id.length) splitCuts = new Int32Array(2 * id.length);
  const n = asciiParts(id, 0, id.length, splitCuts);
  const out: string[] = new Array(n);
  for (let p = 0; p < n; p++) out[p] = id.slice(splitCuts[2 * p], splitCuts[2 * p + 1]).toLowerCase();
  return out;
}

/**
 * The parts of the ASCII identifier s[start, stop) by splitAscii's rule, as [from, to) pairs in `out` (which holds at
 * least 2 × (stop - start) elements); returns their number. The index (termIndex.ts) splits words with it in place,
 * without a string per part.
 */
export function asciiParts(s: string, start: number, stop: number, out: Int32Array): number {
  let n = 0;
  let from = -1;
  let prev = 0;
  for (let i = start; i <= stop; i++) {
    const k = i < stop ? kind(s.charCodeAt(i)) : 0;
    if (!k) {
      if (from >= 0) (out[2 * n] = from), (out[2 * n++ + 1] = i);
      from = -1;
    } else if (from < 0) from = i;
    else if (k === LOWER && prev === UPPER && i - from >= 2 && pluralEnd(s, i, stop)) {
      // an acronym's plural: the part ends before its `s`, which is dropped
      (out[2 * n] = from), (out[2 * n++ + 1] = i);
      from = -1;
    } else if ((k === UPPER && (prev !== UPPER || (i + 1 < stop && kind(s.charCodeAt(i + 1)) === LOWER && !pluralEnd(s, i + 1, stop)))) || (k === DIGIT && prev !== DIGIT)) {
      (out[2 * n] = from), (out[2 * n++ + 1] = i);
      from = i;
    }
    prev = k;
  }
  return n;
}

/**
 * Whether s[at] is the `s` of an acronym's plural (`URLs`, `IDsFor`, `APIs`): an `s` after capitals that ends the word
 * or is followed by a capital or digit. The acronym is then one part without it (`url`, `id`, `api`), where the
 * camelCase rule would cut before its last capital (`ur`, `ls`) and the request's "URLs" would never meet the code's
 * `url` (nor would a kept `ids` or `apis`: the stemmer leaves short words and `-is` endings alone).
 */
function pluralEnd(s: string, at: number, stop: number): boolean {
  return s.charCodeAt(at) === 115 && (at + 1 >= stop || kind(s.charCodeAt(at + 1)) !== LOWER);
}

/** A light English stemmer (plural, -ing, -ed, -ly): enough to match request words with identifiers. */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) return w.slice(0, -3) + 'y';
  if (w.length > 4 && /(ches|shes|sses|xes)$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  let stripped = false;
  if (w.length > 5 && w.endsWith('ing')) (w = w.slice(0, -3)), (stripped = true);
  else if (w.length > 4 && w.endsWith('ed')) (w = w.slice(0, -2)), (stripped = true);
  else if (w.length > 5 && w.endsWith('ly')) w = w.slice(0, -2);
  // running → run, stopped → stop; but adding → add
  if (stripped && w.length >= 4 && /([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
  return w;
}

/** Normalises one word for the index and the query; null for stop words, numbers and one-letter words. */
export function normalizeTerm(word: string): string | null {
  const w = word.toLowerCase();
  if (w.length < 2 || w.length > 40 || STOP.has(w) || /^\d+$/.test(w)) return null;
  return stem(w);
}

const NOT_WORD = /[^\p{L}\p{N}_$]+/u;

/**
 * The terms of a text: each identifier-like run, split into its parts, normalised; the whole identifier is kept too
 * when it had several parts (`getTheme` → get… theme, gettheme), so an exact identifier in a request ranks higher.
 */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const word of wordsOf(text)) wordTerms(word, out);
  return out;
}

/** The identifier-like runs of a text (letters, digits, `_` and `$`) as written, as terms() splits it ('' among them). */
export function wordsOf(text: string): string[] {
  return text.split(NOT_WORD);
}

/**
 * How a text writes each of its terms, first spelling kept, added to `into`: a whole identifier as written
 * (`storeOptionsAsProperties`), a word or an identifier's part lower-cased (`flags` for the term `flag`). What an
 * excerpt's heading shows of the work's words.
 */
export function termSpellings(text: string, into: Map<string, string> = new Map()): Map<string, string> {
  for (const word of wordsOf(text)) {
    const raw = withoutAffixes(word);
    if (!raw) continue;
    const parts = splitIdentifier(raw);
    for (const p of parts) {
      const t = normalizeTerm(p);
      if (t && !into.has(t)) into.set(t, p);
    }
    const ts = wordTerms(word);
    if (parts.length > 1 && ts.length && !into.has(ts[ts.length - 1])) into.set(ts[ts.length - 1], raw);
  }
  return into;
}

/** The longest identifier (after trimming `_` and `$`) whose whole, lower-cased, is a term too. */
export const WHOLE_MAX = 40;

/** The word without leading and trailing `_` / `$` (by index: a regexp for it tried each start of a run). */
function withoutAffixes(word: string): string {
  let a = 0;
  let b = word.length;
  while (a < b && (word.charCodeAt(a) === 95 || word.charCodeAt(a) === 36)) a++;
  while (b > a && (word.charCodeAt(b - 1) === 95 || word.charCodeAt(b - 1) === 36)) b--;
  return a > 0 || b < word.length ? word.slice(a, b) : word;
}

/**
 * terms() of one word (a run of letters, digits, `_` and `$`, as terms() splits a text), appended to `out`: the
 * index calls it for each distinct word it meets, without terms()'s split.
 */
export function wordTerms(word: string, out: string[] = []): string[] {
  const raw = withoutAffixes(word);
  if (!raw) return out;
  const parts = splitIdentifier(raw);
  for (const p of parts) {
    const t = normalizeTerm(p);
    if (t) out.push(t);
  }
  if (parts.length > 1 && raw.length <= WHOLE_MAX) out.push(raw.toLowerCase().replace(/[_$-]/g, ''));
  return out;
}

/**
 * A copy of a string that does not keep its source alive. V8 makes a substring of 13+ characters a view of the
 * text it was cut from, so a symbol name or a memoised word kept from a file would keep that whole file in memory
 * (on a 50,000-file workspace, the whole workspace).
 */
export function detach(s: string): string {
  return s.length < 13 ? s : (JSON.parse(JSON.stringify(s)) as string);
}
