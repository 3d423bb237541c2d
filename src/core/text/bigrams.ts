/**
 * The distinct character bigrams of `s`, over code points (a surrogate pair stays one character); a one-character
 * string yields itself. `keep` filters bigrams (e.g. drop those made only of spaces and punctuation).
 */
export function charBigrams(s: string, keep?: (gram: string) => boolean): Set<string> {
  const chars = Array.from(s);
  const out = new Set<string>();
  if (chars.length === 1) {
    if (!keep || keep(chars[0])) out.add(chars[0]);
    return out;
  }
  for (let i = 0; i + 1 < chars.length; i++) {
    const g = chars[i] + chars[i + 1];
    if (!keep || keep(g)) out.add(g);
  }
  return out;
}
