// Init's code map (initFactsCode.ts), how its lines share the part's room: the one rule of how many names a file's
// line shows. Every line gets the same most characters: the largest at which all the files listed fit whole (few
// files, each shows more: all of a file's public names when they fit), else a floor at which the last files are cut.
// Public names come first across the map (where the language tells which are: workspace/symbols.ts
// ScanResult.internal): a file's internal ones are only counted (`+10 internal`) until every file shows all its
// public ones, then named after them (`internal: …`) as the room allows; a file with no public name comes after those
// with some in its block. An init trial on gorilla/mux got twelve names a line whatever the room (DevA's map lines,
// workspace/pack.ts mapLine, which keep them): `mux.go`'s HandleFunc, Vars, Subrouter and Walk were behind `… (+42)`
// while the map named regexp.go's internal helpers.
import { namesWithin } from '../workspace/pack';
import { linesWithin } from './initFactsText';

/** A file of the code map: its names, public ones first, how many of them are internal, and what its line ends with. */
export interface MapFile {
  path: string;
  names: readonly string[];
  /** How many of `names`, the last ones, the language calls internal (ScanResult.internal); 0 where it does not tell. */
  internal: number;
  /** After the names: ` (imported by 3)`, or ''. */
  note: string;
}

/** A block of the map: its title and its files. */
export type MapBlock = readonly [title: string, files: readonly MapFile[]];

/** The most characters a line is given before the last files are cut: its path and a few names. */
const MIN_LINE_CHARS = 120;
/** The least room a block is started in. */
const MIN_BLOCK_ROOM = 60;

/** The largest n in [lo, hi] for which `fits` holds, `fits` holding up to some n and not after; lo when none. */
function most(lo: number, hi: number, fits: (n: number) => boolean): number {
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A file's line naming `pub` of its public names and `int` of its internal ones (counting the rest). */
function lineOf(f: MapFile, pub: number, int: number): string {
  const publics = f.names.length - f.internal;
  const parts: string[] = [];
  if (publics) parts.push(namesWithin(f.names.slice(0, publics), pub));
  if (f.internal) parts.push(int ? `internal: ${namesWithin(f.names.slice(publics), int)}` : `+${f.internal} internal`);
  return parts.length ? `${f.path} — ${parts.join('; ')}${f.note}` : `${f.path}${f.note}`;
}

/**
 * The file's line with the most of its public names within `cap` characters and, once they are all shown, the most
 * of its internal ones within `internalCap` (none: their count). Each name shown lengthens the line (its count shrinks
 * by a digit at most) but the last, which takes the place of `… (+1)`: that one is tried first.
 */
function fileLineWithin(f: MapFile, cap: number, internalCap = 0): string {
  const publics = f.names.length - f.internal;
  const fitsPublic = (n: number) => lineOf(f, n, 0).length <= cap;
  const pub = fitsPublic(publics) ? publics : most(0, publics - 1, fitsPublic);
  if (pub < publics || !f.internal) return lineOf(f, pub, 0);
  const fitsInternal = (n: number) => lineOf(f, publics, n).length <= internalCap;
  return lineOf(f, publics, fitsInternal(f.internal) ? f.internal : most(0, f.internal - 1, fitsInternal));
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
 * internal names counted (or at MIN_LINE_CHARS, the last files cut); once every public name is shown, the internal
 * ones within the largest cap at which every file still fits.
 */
export function mapBlocks(blocks: readonly MapBlock[], room: number): string[] {
  const ordered = blocks
    .filter(([, files]) => files.length)
    .map(([title, files]): MapBlock => [title, [...files.filter((f) => !nonePublic(f)), ...files.filter(nonePublic)]]);
  const all = ordered.flatMap(([, files]) => files);
  const longest = (line: (f: MapFile) => string) => Math.max(...all.map((f) => line(f).length));
  /** Whether every block fits whole with these lines. */
  const whole = (line: (f: MapFile) => string) =>
    ordered.reduce((n, [title, files]) => n + title.length + files.reduce((m, f) => m + line(f).length + 1, 0), ordered.length - 1) <= room;
  const publicFull = longest((f) => fileLineWithin(f, Infinity));
  if (!whole((f) => fileLineWithin(f, publicFull))) {
    const cap = most(MIN_LINE_CHARS, Math.max(MIN_LINE_CHARS, publicFull - 1), (c) => whole((f) => fileLineWithin(f, c)));
    return blocksAt(ordered, room, (f) => fileLineWithin(f, cap));
  }
  const full = longest((f) => fileLineWithin(f, Infinity, Infinity));
  const withInternal = (c: number) => whole((f) => fileLineWithin(f, Infinity, c));
  const internalCap = withInternal(full) ? full : most(0, full - 1, withInternal);
  return blocksAt(ordered, room, (f) => fileLineWithin(f, Infinity, internalCap));
}
