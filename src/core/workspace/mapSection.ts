// The map part of a step's workspace section (pack.ts packs the whole files and excerpts before it): one line per
// remaining file in rank order, then the files ranking left out, while the budget has room.
//  - DevA: path — top-level symbols; the first few product source files (those ranked right after the whole and
//    excerpted ones, the likeliest to be called or changed next) with their public names' signatures, the characters
//    signing adds within a share of the map's room, so DevA knows how to call what it was not sent whole without a
//    read_file; in both DevA's and DA's signed lines a type's members come in the order the project's documentation
//    calls them (docCalls.ts);
//  - DA without UI files: every line an interface line (public names with signatures, up to API_MAP_LINE_CHARS);
//    in either, a C/C++ source file whose header is on the map names the header's declarations by it, not again;
//  - DA with UI files: path — top-level symbols.
import { isProductSource } from './fileKinds';
import { headerDeclaring, interfaceLine, mapLine, MAP_SYMBOLS, workWords } from './mapLines';
import { NO_CALLS, type NameCalls } from './docCalls';
import type { RankQuery } from './rank';
import type { WorkspaceIndex } from './workspaceIndex';
import type { PackedFile } from './pack';

/**
 * DA's map of a workspace without UI files lists more: there the names are the product's interface (public names
 * first), and a second Rust trial's DA, shown `src/lib.rs — … (+8)`, spent six tool calls finding a type's methods.
 */
const API_MAP_SYMBOLS = 40;
/**
 * And its public names come with their signatures (mapLines.ts interfaceLine), each line within this many characters
 * so that one large file leaves most of DA's 6,000 to the others: three trials' DA, given names alone, had to guess
 * `Version::new`'s parameters and `Version`'s fields, or read the files to find them.
 */
export const API_MAP_LINE_CHARS = 1500;
/** The room past its path an interface line needs to be worth reading a file for (a few names). */
const MIN_API_LINE_NAMES = 40;
/**
 * DevA's first this many map lines of product source files carry signatures, each within SIGNED_LINE_CHARS, and what
 * signing adds to them (beyond their names) within SIGNED_SHARE of the room the map starts with, so the map still
 * lists the workspace's other files: a
 * TypeScript library's trial DevA made five tool calls, most to learn how the functions it was to call were declared.
 */
export const SIGNED_MAP_LINES = 6;
export const SIGNED_LINE_CHARS = 500;
const SIGNED_SHARE = 0.5;

export interface MapState {
  budget: number;
  /** Characters of the section used so far (head, whole files, excerpts, the map's heading). */
  used: number;
  readText: (relPath: string) => string | null;
  /** The files packed so far; the map's are appended. */
  files: PackedFile[];
  /** How often the project's documentation calls a name (docCalls.ts), the order of a type's members in signed lines. */
  calls: NameCalls;
}

/** What the map adds: its lines in order, their characters, and the section's characters used after them. */
export interface MapPart {
  lines: string[];
  mapChars: number;
  used: number;
}

/**
 * The map lines of `candidates` (in rank order, then the files ranking left out) not already in `st.files`, while they
 * fit; the files they name are appended to `st.files`. `daApi`: DA's map of a workspace without UI files.
 */
export function packMapLines(index: WorkspaceIndex, candidates: Iterable<{ path: string; score: number }>, q: RankQuery, st: MapState, mode: { step: 'deva' | 'da'; daApi: boolean }): MapPart {
  const shown = new Set(st.files.map((f) => f.path));
  const signing = mode.daApi || mode.step === 'deva';
  // the names whose words the work writes get their signatures first; a type's members come in the order the
  // project's documentation calls them (read at the first line that asks, once for the whole section)
  const work = signing ? workWords(`${q.objective}\n${q.work ?? ''}`) : new Set<string>();
  const calls = signing ? st.calls : NO_CALLS;
  let signedLeft = mode.step === 'deva' ? SIGNED_MAP_LINES : 0;
  let signRoom = Math.floor((st.budget - st.used) * SIGNED_SHARE);
  const lines: string[] = [];
  let mapChars = 0;
  let used = st.used;
  // a C/C++ source file's header twin, shown or to be listed (a product source file, DA's and DevA's map alike): the
  // source file's interface line names the header's declarations by it (mapLines.ts HeaderDeclares)
  const listed = (h: string) => (shown.has(h) || isProductSource(h) ? (index.get(h)?.symbols ?? null) : null);
  for (const c of candidates) {
    if (shown.has(c.path)) continue;
    // a map line names a file as it is now: one the file watcher missed going away is dropped, a changed one re-read
    if (!index.confirm(c.path)) continue;
    const f = index.get(c.path)!;
    let line: string;
    if (mode.daApi) {
      // DA's interface lines are cut to the room left, so each one read fits; once no line has room, no file is read
      const room = Math.min(API_MAP_LINE_CHARS, st.budget - used - 1);
      if (room < c.path.length + MIN_API_LINE_NAMES) break;
      line = interfaceLine(c.path, st.readText(c.path), f.symbols, API_MAP_SYMBOLS, room, work, calls, headerDeclaring(c.path, listed));
    } else {
      line = mapLine(c.path, f.symbols, MAP_SYMBOLS);
      if (signedLeft > 0 && c.score > 0 && f.symbols.length && isProductSource(c.path)) {
        signedLeft--;
        // within the room the budget has left, too: a signed line that does not fit gives way to the plain one
        const room = Math.min(SIGNED_LINE_CHARS, line.length + signRoom, st.budget - used - 1);
        const signed = interfaceLine(c.path, st.readText(c.path), f.symbols, MAP_SYMBOLS, room, work, calls, headerDeclaring(c.path, listed));
        if (signed.length > line.length && signed.length - line.length <= signRoom && signed.length <= room) {
          signRoom -= signed.length - line.length;
          line = signed;
        }
      }
    }
    if (used + line.length + 1 > st.budget) {
      if (line.length > 200) continue;
      break;
    }
    lines.push(line);
    st.files.push({ path: c.path, chars: line.length, whole: false });
    mapChars += line.length;
    used += line.length + 1;
  }
  return { lines, mapChars, used };
}
