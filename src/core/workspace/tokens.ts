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
  return id
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])([0-9])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((s) => s.toLowerCase());
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

const WORD = /[\p{L}\p{N}_$]+/gu;

/**
 * The terms of a text: each identifier-like run, split into its parts, normalised; the whole identifier is kept too
 * when it had several parts (`getTheme` → get… theme, gettheme), so an exact identifier in a request ranks higher.
 */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(WORD)) {
    const raw = m[0].replace(/^[_$]+|[_$]+$/g, '');
    if (!raw) continue;
    const parts = splitIdentifier(raw);
    for (const p of parts) {
      const t = normalizeTerm(p);
      if (t) out.push(t);
    }
    if (parts.length > 1 && raw.length <= 40) out.push(raw.toLowerCase().replace(/[_$-]/g, ''));
  }
  return out;
}
