// How a map line names a file's symbols — DevA's and DA's maps (pack.ts), init's code map (cape/initFactsCodeLines.ts):
// the path, then its first names and `… (+N)` for the rest. Where a line shows a product's interface (DA's map of a
// workspace without UI files, init's code map), its public names go with their signatures (signatures.ts) as its room
// allows: first as many names as fit bare, then the first of them with their signatures — a line never names fewer
// symbols for them.
import { scanFile } from './symbols';
import { signaturesOf } from './signatures';

/** Map lines list at most this many symbols. */
export const MAP_SYMBOLS = 12;

/**
 * The first `shown` of `names`, the first `signed` of them by their signatures (`signatures[i]` stands for
 * `names[i]`), then `… (+N)` counting the rest: how a map line names a file's symbols.
 */
export function namesWithin(names: readonly string[], shown: number, signatures: readonly string[] = [], signed = 0): string {
  const more = names.length - shown;
  const named = names.slice(0, shown).map((n, i) => (i < signed ? (signatures[i] ?? n) : n));
  return [...named, ...(more > 0 ? [`… (+${more})`] : [])].join(', ');
}

/** A map line: the path, then its top-level symbols (`shown` at most, MAP_SYMBOLS by default, counting the rest). */
export function mapLine(p: string, symbols: readonly string[], shown = MAP_SYMBOLS): string {
  return symbols.length ? `${p} — ${namesWithin(symbols, shown)}` : p;
}

/** The largest n in [lo, hi] for which `fits` holds, `fits` holding up to some n and not after; lo when none. */
export function most(lo: number, hi: number, fits: (n: number) => boolean): number {
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The signatures of a file's public names (`publics`, its first symbols), one for each, the name itself where it
 * has none: read from its text (signatures.ts), only for those names.
 */
export function publicSignatures(relPath: string, text: string, publics: readonly string[]): string[] {
  const found = signaturesOf(relPath, text, publics);
  return publics.map((n) => found.get(n) ?? n);
}

/**
 * A map line of a product's interface within `maxChars`: the path, then the file's names as its text gives them
 * (scanFile: public ones first) or, when it does not read, `symbols` (the index's) — as many as fit bare, `shown` at
 * most, counting the rest — then the first public ones among them with their signatures, as the room left allows.
 */
export function interfaceLine(p: string, text: string | null, symbols: readonly string[], shown: number, maxChars: number): string {
  const scan = text === null ? null : scanFile(p, text);
  const names = scan?.symbols.length ? scan.symbols : symbols;
  if (!names.length) return p;
  const line = (n: number, signatures: readonly string[] = [], signed = 0) => `${p} — ${namesWithin(names, n, signatures, signed)}`;
  const n = most(0, Math.min(shown, names.length), (k) => line(k).length <= maxChars);
  if (text === null || !scan?.symbols.length) return line(n);
  const signatures = publicSignatures(p, text, names.slice(0, Math.min(n, names.length - scan.internal)));
  return line(n, signatures, most(0, signatures.length, (k) => line(n, signatures, k).length <= maxChars));
}
