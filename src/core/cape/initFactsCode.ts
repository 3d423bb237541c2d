// Init's workspace facts (initFacts.ts), the code part: the names the code uses, as map lines (path — its top-level
// symbols, its public ones first, as many as the room gives: initFactsCodeLines.ts) — first the source files the most
// of the product's other files import (the core modules a change goes through: the models, the API client, the shared
// helpers; a test, an example, a benchmark or a fixture importing a file is no code depending on it; an import of a
// package's or a barrel's re-exported names counts toward the module defining them: workspace/reexports.ts), or, where no file stands out
// by its importers (a Go library's one package, whose files its importers all reach alike), those with the most
// top-level symbols, said so; then those the ranking (workspace/rank.ts) finds nearest the answers' product and next
// release. Without it an init trial on a full-stack repository (FastAPI + React) wrote the standards' naming examples
// and the architecture's data model as assumptions ("the facts show no source code"). Names, and the public ones'
// signatures as the room allows (workspace/signatures.ts: parameters, return types, public fields), a class's members
// those the README and docs/ call the most first (workspace/docCalls.ts): no code body is quoted. The files are found
// in the workspace index; each listed one is scanned again (workspace/symbols.ts scanFile, read with the facts' other
// files) for which of its names are internal, a count the index does not keep, and for
// its public names' signatures, which the index does not keep either. Tests,
// examples, benchmarks, fuzz targets, built output, docs and configuration are not listed (isProductFile, the rule
// the importers are counted by; kindPrior below 1). Each map is laid out once for each room the facts ask of it
// (codePart).
import { WorkspaceIndex } from '../workspace/workspaceIndex';
import type { CodeSource } from './initFacts';
import { rankFiles } from '../workspace/rank';
import { kindPrior } from '../workspace/rankSignals';
import { isProductFile, isProductSource } from '../workspace/fileKinds';
import { GO_FILE } from '../workspace/languageFiles';
import { fileNames, headerDeclaring, publicSignatures, UNSIGNED, workWords, type HeaderDeclares, type WorkWords } from '../workspace/mapLines';
import { readOnce, type FactSources, type ReadText } from './initFactsText';
import { mapBlocks, type MapFile } from './initFactsCodeLines';
import { docCalls, type NameCalls } from '../workspace/docCalls';
import { importersByDefinition } from '../workspace/reexports';

/** The most imported files listed at most, and the files importing one at least for it to count as a core module. */
const CORE_FILES = 8;
const MIN_IMPORTERS = 2;
/** The files nearest the answers listed at most (after the core ones, none twice). */
const RELATED_FILES = 12;

/**
 * A file the part may name: a source file of the product (isProductSource: not a test, an example, a benchmark or a fuzz
 * target) that has top-level symbols, not built output, docs or configuration (kindPrior).
 */
function listable(index: WorkspaceIndex, rel: string): boolean {
  return isProductSource(rel) && kindPrior(rel) === 1 && (index.get(rel)?.symbols.length ?? 0) > 0;
}

/** The code map's files, found once whatever the facts' scale: the core modules and those nearest the answers. */
export interface CodeLines {
  /** The core files' title: what singles them out, their importers or (no file stands out by them) their symbols. */
  readonly coreTitle: string;
  readonly core: readonly MapFile[];
  readonly related: readonly MapFile[];
}

/**
 * How the code map reads a listed file: through `read`, its public names' signatures given those of `work` first, its
 * types' members in the order the project's documentation calls them (`calls`).
 */
interface MapReading {
  index: WorkspaceIndex;
  read: ReadText;
  work: WorkWords;
  calls: NameCalls;
}

/**
 * A listed file with its names as it reads now (mapLines.ts fileNames: its public ones first, and how many are internal), or as
 * the index holds them when it does not read (none then called internal); `note` ends its line.
 */
function mapFile({ index, read, work, calls }: MapReading, rel: string, note = '', header: HeaderDeclares | null = null): MapFile {
  const text = read(rel);
  const { names, internal, read: fromText, members, declared } = fileNames(rel, text, index.get(rel)!.symbols, calls, header);
  const signed = text !== null && fromText ? publicSignatures(rel, text, names.slice(0, names.length - internal), work, members) : UNSIGNED;
  return { path: rel, names, internal, note, signed, ...(declared ? { declared } : {}) };
}

/**
 * The core modules: the listable files more of the product's files import than import the least imported listable
 * one, most first, each with its count — none when no file stands out (every file of a Go library's one package is
 * reached by each importer of the package alike). A file's importers are the product's files (a test, an example, a
 * benchmark or a fuzz target importing it is no code depending on it) that import the names it defines, through a
 * package's or a barrel's re-exports too (workspace/reexports.ts: `from pkg import Markdown` counts toward
 * `pkg/core.py`, which defines it, not toward `pkg/__init__.py`). A file's symbols are decoded only for those the
 * counts single out.
 */
function mostImported(index: WorkspaceIndex): [string, number][] {
  const importers = importersByDefinition(index, isProductFile);
  const counted = [...index.paths()].map((p) => [p, importers(p).length] as const).sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
  // the fewest importers a listable file has: most files have none, so the walk up stops at once
  const floor = counted.find(([p]) => listable(index, p))?.[1] ?? 0;
  const out: [string, number][] = [];
  for (let i = counted.length - 1; i >= 0 && out.length < CORE_FILES; i--) {
    const [p, n] = counted[i];
    if (n < MIN_IMPORTERS || n <= floor) break;
    if (listable(index, p)) out.push([p, n]);
  }
  return out.sort((a, b) => b[1] - a[1] || index.get(b[0])!.symbols.length - index.get(a[0])!.symbols.length || (a[0] < b[0] ? -1 : 1));
}

/**
 * The core modules' block: its title and its files — the most imported (mostImported), or where no file stands out by
 * its importers, those with the most top-level symbols.
 */
function coreFiles(index: WorkspaceIndex): { title: string; files: Listed[] } {
  const imported = mostImported(index);
  if (imported.length) {
    // a Go import reaches every file of the package: the count is the package's
    const files = imported.map(([p, n]) => ({ path: p, note: ` (${GO_FILE.test(p) ? 'its package ' : ''}imported by ${n})` }));
    return { title: 'The most imported files (core modules):', files };
  }
  const largest = [...index.paths()]
    .filter((p) => listable(index, p))
    .map((p) => [p, index.get(p)!.symbols.length] as const)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, CORE_FILES);
  return { title: 'The source files with the most top-level symbols (no file stands out by its importers):', files: largest.map(([p]) => ({ path: p, note: '' })) };
}

/** A file the code map lists, and what its line ends with (mapFile's `note`). */
interface Listed {
  path: string;
  note: string;
}

/**
 * The code map's files: the core modules (coreFiles), then the files nearest `query` (the answers' product and
 * features), each with its names (mapFile, its text read by `read`: by default through the index's read policy, the
 * checks of DevA's read_file) and its public names' signatures, those whose words `query` writes first; the ranking
 * runs once here, the facts render the lines at each scale (codePart).
 */
export function codeLines(index: WorkspaceIndex, query: string, read: ReadText = readOnce(index.policy)): CodeLines {
  const reading: MapReading = { index, read, work: workWords(query), calls: docCalls(index, read) };
  const { title, files } = coreFiles(index);
  const named = new Set(files.map((f) => f.path));
  const related: Listed[] = query.trim()
    ? rankFiles(index, { objective: query })
        .filter((r) => !named.has(r.path) && listable(index, r.path))
        .slice(0, RELATED_FILES)
        .map((r) => ({ path: r.path, note: '' }))
    : [];
  // a C/C++ source file whose header twin the map lists too names the header's declarations by it (HeaderDeclares)
  const listed = new Set([...files, ...related].map((f) => f.path));
  const header = (p: string) => headerDeclaring(p, (h) => (listed.has(h) ? (index.get(h)?.symbols ?? null) : null));
  const lines = (list: Listed[]) => list.map((f) => mapFile(reading, f.path, f.note, header(f.path)));
  return { coreTitle: title, core: lines(files), related: lines(related) };
}

/**
 * The code part within `max` characters; null when the index holds no source file with symbols. `internalNames` false:
 * internal names only counted (mapBlocks), the part its public names and their signatures need.
 */
export function codePart(lines: CodeLines, sources: FactSources, max: number, internalNames = true): string | null {
  if (!lines.core.length && !lines.related.length) return null;
  sources.listed.push('the code map (file names and their top-level symbols)');
  // the facts ask for the same map more than once (initFactsRoom.ts: the part at its bound, then what it needs, for
  // every set of parts): each distinct room is laid out once
  const rooms = codeMaps.get(lines) ?? codeMaps.set(lines, new Map()).get(lines)!;
  const key = `${max} ${internalNames}`;
  let map = rooms.get(key);
  if (map === undefined) rooms.set(key, (map = codeMap(lines, max, internalNames)));
  return map;
}

/** The code maps laid out for each CodeLines (which is never changed once found), by their room and internalNames. */
const codeMaps = new WeakMap<CodeLines, Map<string, string | null>>();

/**
 * How many code maps were laid out (codeMap) rather than taken from codeMaps, summed over the process: how a test
 * bounds the work (a count of work, not of time). Nothing in the product reads it.
 */
export const codeMapsLaidOut = { count: 0 };

/** codePart's map, laid out. */
function codeMap({ coreTitle, core, related }: CodeLines, max: number, internalNames: boolean): string | null {
  codeMapsLaidOut.count++;
  const head = '## Code map (path — its top-level symbols, public ones with their signatures as room allows; no code body quoted)\n';
  const blocks = mapBlocks(
    [
      [coreTitle, core],
      ['The files nearest the product and the next release:', related],
    ],
    max - head.length,
    internalNames,
  );
  return blocks.length ? head + blocks.join('\n') : null;
}

/**
 * The code map's source for init, opened only when asked (the facts ask once they know the workspace holds code): the
 * index (the caller's, else opened from its cache file, which warms it for the first session) and the text it is
 * ranked for (the answers' product and next release); none when it cannot be opened.
 */
export function codeSource(workspace: string, capeFolder: string, query: string, index?: () => Promise<WorkspaceIndex>): () => Promise<CodeSource | undefined> {
  return async () => {
    try {
      return { index: index ? await index() : (await WorkspaceIndex.open(workspace, { capeFolder })).index, query };
    } catch {
      return undefined;
    }
  };
}
