// Init's code map (initFactsCode.ts), how its lines share the part's room: the one rule of how many names a file's
// line shows. Every line gets the same most characters: the largest at which all the files listed fit whole (few
// files, each shows more: all of a file's public names when they fit), else a floor at which the last files are cut.
// Public names come first across the map (where the language tells which are: workspace/symbols.ts
// ScanResult.internal): a file's internal ones are only counted (`+10 internal`) until every file shows all its
// public ones, then named after them (`internal: …`) as the room allows; a file with no public name comes after those
// with some in its block. An init trial on gorilla/mux got twelve names a line whatever the room (DevA's map lines,
// workspace/mapLines.ts mapLine, which keep them): `mux.go`'s HandleFunc, Vars, Subrouter and Walk were behind
// `… (+42)` while the map named regexp.go's internal helpers. Between the two, once every public name is shown, the
// public names' signatures (workspace/signatures.ts: `Version.new(major: u64, …) -> Self`, `struct Version { major:
// u64, … }`) as the room allows, in each file those whose words the answers' product and features write first
// (mapLines.ts signingPlaces), then the others in file order: the project files are written from the code's shapes too.
import { declaredByHeader, most, namesWithin, type Signed } from '../workspace/mapLines';
import { linesWithin } from './initFactsText';

/** A file of the code map: its names, public ones first, how many of them are internal, and what its line ends with. */
export interface MapFile {
  path: string;
  names: readonly string[];
  /** How many of `names`, the last ones, the language calls internal (ScanResult.internal); 0 where it does not tell. */
  internal: number;
  /** After the names: ` (imported by 3)`, or ''. */
  note: string;
  /** The public names' signatures, one for each in order (the name itself where it has none), and the order they are given in; none when not read. */
  signed: Signed;
  /** The public names left out of `names` as its header twin on the map declares them (mapLines.ts HeaderDeclares). */
  declared?: { path: string; count: number };
}

/** A block of the map: its title and its files. */
export type MapBlock = readonly [title: string, files: readonly MapFile[]];

/** The most characters a line is given before the last files are cut: its path and a few names. */
const MIN_LINE_CHARS = 120;
/** The least room a block is started in. */
const MIN_BLOCK_ROOM = 60;

/** A file's line naming `pub` of its public names, the first `sig` by their signatures, and `int` of its internal ones (counting the rest). */
function lineOf(f: MapFile, pub: number, sig: number, int: number): string {
  const publics = f.names.length - f.internal;
  const parts: string[] = f.declared ? [declaredByHeader(f.declared.path, f.declared.count)] : [];
  if (publics) parts.push(namesWithin(f.names.slice(0, publics), pub, f.signed, sig));
  if (f.internal) parts.push(int ? `internal: ${namesWithin(f.names.slice(publics), int)}` : `+${f.internal} internal`);
  return parts.length ? `${f.path} — ${parts.join('; ')}${f.note}` : `${f.path}${f.note}`;
}

/**
 * The file's line with the most of its public names within `cap` characters; once they are all shown, the most of
 * their signatures (in their order: Signed.places) within `signedCap`; once those are all shown, the most of its internal names
 * within `internalCap` (none: their count). Each name shown lengthens the line (its count shrinks by a digit at most)
 * but the last, which takes the place of `… (+1)`: that one is tried first.
 */
function fileLineWithin(f: MapFile, cap: number, signedCap = 0, internalCap = 0): string {
  const publics = f.names.length - f.internal;
  const signs = f.signed.signatures.length;
  const within = (max: number, line: (n: number) => string) => (n: number) => line(n).length <= max;
  const fitsPublic = within(cap, (n) => lineOf(f, n, 0, 0));
  const pub = fitsPublic(publics) ? publics : most(0, publics - 1, fitsPublic);
  if (pub < publics) return lineOf(f, pub, 0, 0);
  const fitsSigned = within(signedCap, (n) => lineOf(f, publics, n, 0));
  const sig = fitsSigned(signs) ? signs : most(0, signs - 1, fitsSigned);
  if (sig < signs || !f.internal) return lineOf(f, publics, sig, 0);
  const fitsInternal = within(internalCap, (n) => lineOf(f, publics, signs, n));
  return lineOf(f, publics, signs, fitsInternal(f.internal) ? f.internal : most(0, f.internal - 1, fitsInternal));
}

/** A file whose language tells that none of its names is public. */
const nonePublic = (f: MapFile): boolean => f.internal > 0 && f.internal === f.names.length;

/** The blocks' texts within `room` characters (joined by a newline), each file's line `lineOf`: linesWithin cuts the last files. */
function blocksAt(blocks: readonly MapBlock[], room: number, line: (f: MapFile) => string): string[] {
  const out: string[] = [];
  for (const [title, files] of blocks) {
    if (room < title.length + MIN_BLOCK_ROOM) continue;
    const block = `${title}\n${linesWithin(files.map(line), room - title.length - 1, ' files')}`;
    out.push(block);
    room -= block.length + 1;
  }
  return out;
}

/**
 * The map's blocks within `room` characters: those with files, each a title and its files' lines (the files with no
 * public name last). Public names first across the map: at the largest cap at which every file fits whole with its
 * internal names counted (or at MIN_LINE_CHARS, the last files cut); once every public name is shown, their
 * signatures within the largest cap at which every file still fits; once every signature is, the internal names so
 * (`internalNames` false: only counted, the map its public names and their signatures need).
 */
export function mapBlocks(blocks: readonly MapBlock[], room: number, internalNames = true): string[] {
  const ordered = blocks
    .filter(([, files]) => files.length)
    .map(([title, files]): MapBlock => [title, [...files.filter((f) => !nonePublic(f)), ...files.filter(nonePublic)]]);
  const all = ordered.flatMap(([, files]) => files);
  const longest = (line: (f: MapFile) => string) => Math.max(...all.map((f) => line(f).length));
  /** Whether every block fits whole with these lines. */
  const whole = (line: (f: MapFile) => string) =>
    ordered.reduce((n, [title, files]) => n + title.length + files.reduce((m, f) => m + line(f).length + 1, 0), ordered.length - 1) <= room;
  // each layer in turn — the public names, their signatures, the internal names — is shown whole in every line when
  // the map fits so, else within the largest cap at which it does (the public names' no less than MIN_LINE_CHARS)
  const layers: [least: number, line: (cap: number) => (f: MapFile) => string][] = [
    [MIN_LINE_CHARS, (c) => (f) => fileLineWithin(f, c)],
    [0, (c) => (f) => fileLineWithin(f, Infinity, c)],
    [0, (c) => (f) => fileLineWithin(f, Infinity, Infinity, c)],
  ];
  if (!internalNames) layers.pop();
  for (const [least, line] of layers) {
    const full = longest(line(Infinity));
    if (whole(line(full))) continue;
    return blocksAt(ordered, room, line(most(least, Math.max(least, full - 1), (c) => whole(line(c)))));
  }
  return blocksAt(ordered, room, (f) => fileLineWithin(f, Infinity, Infinity, internalNames ? Infinity : 0));
}
