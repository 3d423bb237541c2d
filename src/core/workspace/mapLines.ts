// How a map line names a file's symbols — DevA's and DA's maps (pack.ts), init's code map (cape/initFactsCodeLines.ts):
// the path, then its first names and `… (+N)` for the rest. Where a line shows a product's interface (DA's map of a
// workspace without UI files, init's code map, DevA's first few lines), its public names — then the public types'
// members (`Command.option`, `Show.show`: fileNames; the ones the project's documentation calls the most first:
// byCalls over docCalls.ts) — go with their signatures (signatures.ts) as its room allows: first as many names as fit
// bare, then signatures for them — those whose words match the work's first (the objective and criteria for DA, the
// answers' product and features for init), then the others in the line's order; a line never names fewer symbols for
// them. A C/C++ source file whose header is on the same map names the header's declarations by it (HeaderDeclares).
import { JS_EXT, MAX_SYMBOLS, scanFile } from './symbols';
import { defaultFunctionMembers } from './defaultFunction';
import { signaturesOf, typeMembers } from './signatures';
import { memberName, type MemberFocus, type TypeMember } from './signatureDecls';
import { constructorSymbol, methodSymbol, symbolOwnName } from './symbolNames';
import { NO_CALLS, type NameCalls } from './docCalls';
import { terms } from './tokens';
import { headerTwinPaths } from './languageFiles';

/** Map lines list at most this many symbols. */
export const MAP_SYMBOLS = 12;

/** A file's public names' signatures and the order they are given in. */
export interface Signed {
  /** One for each public name, in file order (the name itself where it has none). */
  signatures: readonly string[];
  /** Each one's place in the order signatures are given (signingPlaces); a name's index where absent. */
  places: readonly number[];
}

/** No signatures: a line of names alone. */
export const UNSIGNED: Signed = { signatures: [], places: [] };

/**
 * The first `shown` of `names`, the `signed` first in `sig`'s order by their signatures (`sig.signatures[i]` stands for
 * `names[i]`), then `… (+N)` counting the rest: how a map line names a file's symbols.
 */
export function namesWithin(names: readonly string[], shown: number, sig: Signed = UNSIGNED, signed = 0): string {
  const more = names.length - shown;
  const named = names.slice(0, shown).map((n, i) => ((sig.places[i] ?? i) < signed ? (sig.signatures[i] ?? n) : n));
  return [...named, ...(more > 0 ? [`… (+${more})`] : [])].join(', ');
}

/** The words of the work a map's signatures are ordered by, as the ranking reads a query (tokens.ts terms). */
export type WorkWords = ReadonlySet<string>;
export const workWords = (text: string): WorkWords => new Set(terms(text));

/**
 * Each name's place in the order its signature is given in (`places[i]` for `names[i]`): first those whose own words
 * (terms: split at camelCase and snake_case, normalised and stemmed as the ranking reads the work; a method's, its own
 * name's) match the most of the work's, then the others, each in file order.
 */
export function signingPlaces(names: readonly string[], work: WorkWords): number[] {
  const hits = names.map((n) => workHits(symbolOwnName(n), work));
  const order = names.map((_, i) => i).sort((a, b) => hits[b] - hits[a] || a - b);
  const places: number[] = [];
  order.forEach((i, place) => (places[i] = place));
  return places;
}

/** How many of the work's words a name holds (terms: split at camelCase and snake_case, normalised and stemmed). */
const workHits = (name: string, work: WorkWords): number => new Set(terms(name).filter((t) => work.has(t))).size;

/** How many of the work's words a type's member holds in its own name (workHits, as signingPlaces reads a name). */
export function memberFocus(work: WorkWords): MemberFocus {
  return (member) => workHits(memberName(member), work);
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
 * has none: read from its text (signatures.ts; its types' `members` as fileNames found them), only for those names;
 * given in the order of `work` (signingPlaces), a type's members that hold its words first where the type's signature
 * is cut (memberFocus).
 */
export function publicSignatures(relPath: string, text: string, publics: readonly string[], work: WorkWords, members: readonly TypeMember[]): Signed {
  const found = signaturesOf(relPath, text, publics, members, work.size ? memberFocus(work) : undefined);
  return { signatures: publics.map((n) => found.get(n) ?? n), places: signingPlaces(publics, work) };
}

/**
 * A C/C++ source file's header twin on the same map (languageFiles.ts headerTwinPaths) and the names it declares: the
 * source file's line names those by the header (`defines 84 names of parson.h`) rather than twice — a trial's DA map
 * gave parson.c's and parson.h's eighty functions with their signatures in full, ~1,450 characters each.
 */
export interface HeaderDeclares {
  path: string;
  names: ReadonlySet<string>;
}

/** `p`'s header twin among the files `listed` (their symbols, or null when not listed), with the names it declares. */
export function headerDeclaring(p: string, listed: (rel: string) => readonly string[] | null): HeaderDeclares | null {
  for (const h of headerTwinPaths(p)) {
    const names = listed(h);
    if (names?.length) return { path: h, names: new Set(names) };
  }
  return null;
}

/** How a line names the public names its header twin declares (HeaderDeclares), `count` of them. */
export const declaredByHeader = (header: string, count: number): string => `defines ${count} name${count === 1 ? '' : 's'} of ${header.slice(header.lastIndexOf('/') + 1)}`;

/** A file's names for an interface line: as its text gives them, or the index's (fileNames). */
export interface FileNames {
  names: readonly string[];
  /** How many of `names`, the last ones, the language says are internal (symbols.ts ScanResult.internal). */
  internal: number;
  /** Whether they were read from the text (false: the index's, none called internal, and no signature to read). */
  read: boolean;
  /** The members of the text's types (typeMembers), found once for their names and their signatures (publicSignatures). */
  members: readonly TypeMember[];
  /** The public names left out as its header twin declares them (fileNames' `header`): the header's path and their count. */
  declared?: { path: string; count: number };
}

/**
 * A type's members (in file order) in the order an interface line gives them: its constructor (a TS/JS class's `new X`,
 * a Python class's `X.__init__`) first, then the fields a TypeScript constructor's parameters declare, then the others;
 * within each, by how many times the project's documentation calls their own names (`calls`: docCalls.ts), the most
 * first, file order among equals — the API its users write before the rest. The fields a JS/TS constructor assigns
 * (`this.flags = flags`) are among the others, after the class's declared members in file order (signaturesTs.ts
 * classMembers): after the methods called as often as they are, and without documentation after all the methods — a
 * class's state, not the calls its users write, and commander's Option assigns eighteen.
 */
function byCalls(type: string, members: readonly TypeMember[], calls: NameCalls): string[] {
  const ctors = new Set([constructorSymbol(type), methodSymbol(type, '__init__')]);
  const group = members.map((m) => (ctors.has(m.symbol) ? 2 : m.constructorField ? 1 : 0));
  const count = members.map((m) => calls(symbolOwnName(m.symbol)));
  return members
    .map((_, i) => i)
    .sort((a, b) => group[b] - group[a] || count[b] - count[a] || a - b)
    .map((i) => members[i].symbol);
}

/**
 * A file's names as its text gives them (scanFile: public ones first, and how many are internal), its public types'
 * members the index does not name (signatures.ts typeMembers: `Command.option`, `new Command`, `Show.show`) after all
 * its public top-level names, in their types' order, and before its internal ones — so a class of many members does
 * not crowd the file's functions out of a line's few names — or, when it does not read or names none, `symbols` (the
 * index's, none called internal): DA's interface lines and init's code map alike. A JavaScript file whose default
 * export is a function that installs its API names the members it assigns first (defaultFunction.ts), or only them
 * when it has no top-level symbol. MAX_SYMBOLS names at most, as a scan gives (members past them left out). A type's
 * members come in the order of `calls` (byCalls: those the project's documentation calls the most first; without
 * documentation, file order). An internal type's members are no interface: left out too. With `header` (a C/C++ source
 * file's header twin on the same map), the public names it declares are left out and counted (`declared`).
 */
export function fileNames(p: string, text: string | null, symbols: readonly string[], calls: NameCalls = NO_CALLS, header: HeaderDeclares | null = null): FileNames {
  const found = namesOf(p, text, symbols, calls);
  if (!header) return found;
  // the public names the header declares: named by the header (declaredByHeader), the file's others kept in order
  const publics = found.names.length - found.internal;
  const names = found.names.filter((n, i) => i >= publics || !header.names.has(n));
  const count = found.names.length - names.length;
  return count ? { ...found, names, declared: { path: header.path, count } } : found;
}

/** fileNames without a header twin. */
function namesOf(p: string, text: string | null, symbols: readonly string[], calls: NameCalls): FileNames {
  const scan = text === null ? null : scanFile(p, text);
  // a plugin whose default export installs its API by assignments (defaultFunction.ts): those are its public names
  const installed = text !== null && JS_EXT.test(p) ? defaultFunctionMembers(text) : [];
  if (!scan?.symbols.length) {
    if (installed.length) return { names: installed.map((m) => m.symbol), internal: 0, read: true, members: installed };
    return { names: symbols, internal: 0, read: false, members: [] };
  }
  const tops = scan.symbols.slice(0, scan.symbols.length - scan.internal);
  const publicTypes = new Set(tops);
  // each public type's members not named yet (a Rust `impl dyn Show` block's method is a symbol already), in file order
  const named = new Set(scan.symbols);
  const membersOf = new Map<string, TypeMember[]>();
  const members = typeMembers(p, text!);
  for (const m of members) {
    if (!publicTypes.has(m.type) || named.has(m.symbol)) continue;
    named.add(m.symbol);
    (membersOf.get(m.type) ?? membersOf.set(m.type, []).get(m.type)!).push(m);
  }
  // then each type's in the order of `calls`, while the names are no more than a scan gives
  let room = MAX_SYMBOLS - scan.symbols.length;
  const ordered = new Map<string, string[]>();
  for (const [type, list] of membersOf) {
    const kept = byCalls(type, list, calls).slice(0, Math.max(0, room));
    ordered.set(type, kept);
    room -= kept.length;
  }
  const own = installed.filter((m) => !named.has(m.symbol)).slice(0, Math.max(0, room));
  // a plugin's installed members first: its top-level functions beside them are mostly its helpers (Day.js's utc)
  const names = [...own.map((m) => m.symbol), ...tops, ...tops.flatMap((n) => ordered.get(n) ?? []), ...scan.symbols.slice(tops.length)];
  return { names, internal: scan.internal, read: true, members: [...members, ...own] };
}

/**
 * A map line of a product's interface within `maxChars`: the path, then the file's names as its text gives them
 * (fileNames: public ones first, the public types' members after them, in the order of `calls`) or, when it does not
 * read, `symbols` (the index's) — as many as fit bare, `shown` at most, counting the rest — then the public ones among
 * them with their signatures, those of `work` first (signingPlaces), as the room left allows. A C/C++ source file whose
 * `header` twin is on the map names the header's declarations by it first (declaredByHeader), then its other names.
 */
export function interfaceLine(p: string, text: string | null, symbols: readonly string[], shown: number, maxChars: number, work: WorkWords, calls: NameCalls = NO_CALLS, header: HeaderDeclares | null = null): string {
  const { names, internal, read, members, declared } = fileNames(p, text, symbols, calls, header);
  const lead = declared ? declaredByHeader(declared.path, declared.count) : '';
  if (!names.length) return lead ? `${p} — ${lead}` : p;
  const line = (n: number, sig: Signed = UNSIGNED, signed = 0) => `${p} — ${lead ? `${lead}; ` : ''}${namesWithin(names, n, sig, signed)}`;
  const n = most(0, Math.min(shown, names.length), (k) => line(k).length <= maxChars);
  if (text === null || !read) return line(n);
  const sig = publicSignatures(p, text, names.slice(0, Math.min(n, names.length - internal)), work, members);
  return line(n, sig, most(0, sig.signatures.length, (k) => line(n, sig, k).length <= maxChars));
}
