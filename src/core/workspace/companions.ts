// The companions of the files DevA is shown whole or in excerpts: the files that keep a source file's public names in
// step with it, elsewhere in the workspace — a JavaScript file's type declarations (its package's package.json
// "types" or "typings" entry, a `.d.ts` of its name stem: fileKinds.ts nameStem), the type tests of the file or of
// those declarations (fileKinds.ts isTypeTest, of the same stems) — both within its package (the folder of its nearest
// package.json; without one, its own folder) — and the project's documentation (the README and docs/*.md:
// docCalls.ts docPaths; not a changelog or a licence: fileKinds.ts isProjectRecord). A change to a public name
// changes them too, but they are large and the ranking damps them: a trial on commander.js (`lib/option.js` to
// change, `typings/index.d.ts` 34 KB and `typings/index.test-d.ts` 25 KB beside it, each a map line) saw DevA read
// them with tool calls or forget them, and a new public method without its declaration breaks the users' type checks.
//
// Each companion gets excerpts (sectionBlocks.ts packExcerpts: the same windows, blocks and range headings as the
// other excerpts, its heading saying whose names it holds) at the lines naming the names the work touches in the files
// it accompanies: their public names (mapLines.ts fileNames) that the work names (excerptLines.ts declaredWeight:
// written whole, or all of their words said), and, in a file shown in excerpts, those its ranges declare — the members
// a new one goes beside. The names are looked up as written: a declaration or a type test holds one as an identifier,
// a document as a call (`.hideHelp(`: docCalls.ts callCounts); a changelog is no document of them. Declarations come
// first, then type tests, then documents, within COMPANION_CHARS of the room the whole files and the other excerpts
// leave (never room taken from whole files; the map keeps COMPANION_MAP_MIN, or MAP_MIN after documents); a file
// already shown whole or in excerpts is no companion.
import { fileLines } from '../text/lines';
import { callCounts, docPaths, type NameCalls } from './docCalls';
import { declaredName, declaredWeight } from './excerptLines';
import type { ExcerptRange } from './excerpts';
import { DECLARATION_FILE, isProductSource, isProjectRecord, JS_FILE } from './fileKinds';
import { filesByStem, isTypeTest, nameStem } from './testFiles';
import { fileNames } from './mapLines';
import { dirOf } from './moduleAliases';
import { joinWorkspace, parseConfig } from './moduleRules';
import type { PackedFile } from './pack';
import type { RankQuery } from './rank';
import { packExcerpts, workExcerptQuery, type ExcerptQuery, type PackState } from './sectionBlocks';
import { symbolOwnName } from './symbolNames';
import { wordsOf } from './tokens';
import type { WorkspaceIndex } from './workspaceIndex';

/**
 * The companions' excerpts take this many characters at most, together, and each one COMPANION_EXCERPT_CHARS: a few
 * windows at the names the work touches (a declaration and its doc comment, a type test's few lines, a README's
 * paragraph) say where they are; more would take the map's lines for windows at names merely used.
 */
export const COMPANION_CHARS = 6000;
const COMPANION_EXCERPT_CHARS = 2500;
/** And they are this many at most: two declaration files (`index.d.ts`, `index.d.cts`), a type test, a document. */
export const COMPANION_FILES = 4;
/**
 * The declarations and type tests may take the map's room down to this (the other excerpts leave it MAP_MIN, 2,000):
 * left behind, they break the users' type checks. On the localization bench, commander's `typings/index.d.ts`, changed
 * in 10 of its 40 cases and a map line in 9 of them, was then shown in excerpts in those 9 (at the 2,000 floor in
 * none: the whole files and the other excerpts left too little); the companions' excerpts together cost the map 7% of
 * its characters on average (4,441 → 4,117; 1,900 in each of the 87 cases of 520 that had some).
 */
const COMPANION_MAP_MIN = 1000;
/** What a name an excerpt's range declares weighs in a companion, against a name the work writes (1). */
const SIBLING_WEIGHT = 0.5;
/** The files a companion's heading names as those whose names it holds, at most. */
const NAMED_FILES = 2;
/** A name as a companion's lines write it: an identifier (not `new Option`). */
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** What a companion is to the files it accompanies, as its heading says it: declarations, type tests, documents, the order they get room in. */
const KINDS = ['declares names of', 'type tests of names of', 'documents names of'] as const;
/** Each kind's place in KINDS. */
const KIND = { declarations: 0, typeTests: 1, documents: 2 } as const;

export interface Companion {
  path: string;
  /** Its place in KINDS. */
  kind: number;
  /** The shown files whose names it holds, in the order they were shown. */
  of: string[];
  /** The names to look up in it, as written, with their weights. */
  names: Map<string, number>;
}

/**
 * The public names of the file `p` that the work touches, with their weights: those `workTerms` names (declaredWeight),
 * and, SIBLING_WEIGHT, those declared in `ranges` (the file's excerpts, when it is shown in excerpts).
 */
export function touchedNames(
  p: string,
  text: string,
  symbols: readonly string[],
  ranges: readonly ExcerptRange[] | undefined,
  workTerms: ReadonlyMap<string, number>,
  calls: NameCalls,
): Map<string, number> {
  const { names, internal } = fileNames(p, text, symbols, calls);
  const own = new Set(names.slice(0, names.length - internal).map(symbolOwnName).filter((n) => IDENTIFIER.test(n)));
  const out = new Map<string, number>();
  const add = (name: string, w: number) => {
    if (w > (out.get(name) ?? 0)) out.set(name, w);
  };
  for (const n of own) add(n, declaredWeight(n, workTerms));
  if (ranges) {
    const lines = fileLines(text);
    for (const r of ranges) {
      for (let k = r.start - 1; k < Math.min(r.end, lines.length); k++) {
        const d = declaredName(lines[k]);
        if (d && own.has(d)) add(d, SIBLING_WEIGHT);
      }
    }
  }
  for (const [n, w] of out) if (w <= 0) out.delete(n);
  return out;
}

/** The folder of the nearest package.json at or above `file` ('' for the root's), or null when there is none. */
function packageDir(index: WorkspaceIndex, file: string): string | null {
  for (let dir = dirOf(file); ; dir = dirOf(dir)) {
    if (index.get(dir ? `${dir}/package.json` : 'package.json')) return dir;
    if (!dir) return null;
  }
}

/** The declaration file the package.json in `dir` names ("types", else "typings"), when the index holds it. */
function packageTypes(index: WorkspaceIndex, dir: string, readText: (rel: string) => string | null): string | null {
  const pkg = parseConfig(readText(dir ? `${dir}/package.json` : 'package.json'));
  const entry = [pkg?.types, pkg?.typings].find((t): t is string => typeof t === 'string');
  const target = entry === undefined ? null : joinWorkspace(dir, entry);
  return target && DECLARATION_FILE.test(target) && index.get(target) ? target : null;
}

/** The companions of the `shown` files (whole or in excerpts, in order) not shown themselves, in the order of KINDS. */
export function companionsOf(index: WorkspaceIndex, shown: readonly PackedFile[], readText: (rel: string) => string | null, workTerms: ReadonlyMap<string, number>, calls: NameCalls): Companion[] {
  const sources: { path: string; names: Map<string, number>; types: string | null; under: string; pkg: string | null }[] = [];
  for (const f of shown) {
    if (!(f.whole || f.excerpts) || !isProductSource(f.path)) continue;
    const text = readText(f.path);
    if (text === null) continue;
    const names = touchedNames(f.path, text, index.get(f.path)?.symbols ?? [], f.excerpts, workTerms, calls);
    if (!names.size) continue;
    // its twins are its package's (a monorepo's `packages/b/index.d.ts` declares no name of `packages/a/lib/index.js`),
    // or, out of any package, its own folder's
    const pkg = packageDir(index, f.path);
    const under = pkg ?? dirOf(f.path);
    sources.push({ path: f.path, names, types: pkg !== null && JS_FILE.test(f.path) ? packageTypes(index, pkg, readText) : null, under: under ? `${under}/` : '', pkg });
  }
  if (!sources.length) return [];
  const stemsOf = (s: (typeof sources)[number]) => [nameStem(s.path), ...(s.types ? [nameStem(s.types)] : [])];
  const byStem = filesByStem(index.paths(), new Set(sources.flatMap(stemsOf)));
  const isShown = new Set(shown.filter((f) => f.whole || f.excerpts).map((f) => f.path));
  const found = new Map<string, Companion>();
  const add = (path: string, kind: number, of: (typeof sources)[number]) => {
    if (isShown.has(path)) return;
    const c = found.get(path) ?? found.set(path, { path, kind, of: [], names: new Map() }).get(path)!;
    if (!c.of.includes(of.path)) c.of.push(of.path);
    for (const [n, w] of of.names) if (w > (c.names.get(n) ?? 0)) c.names.set(n, w);
  };
  // a changelog under docs/ tells the names' history, not their use; a licence or a contribution guide neither
  const docs = docPaths(index).filter((p) => !isProjectRecord(p));
  for (const s of sources) {
    // under its package's folder and of that package, not of one nested in it (the root's `index.js` pairs with no
    // `packages/b/index.d.ts`)
    const twins = stemsOf(s)
      .flatMap((stem) => byStem.get(stem) ?? [])
      .filter((p) => p.startsWith(s.under) && (s.pkg === null || packageDir(index, p) === s.pkg));
    if (JS_FILE.test(s.path)) for (const d of [...(s.types ? [s.types] : []), ...twins.filter((p) => DECLARATION_FILE.test(p))]) add(d, KIND.declarations, s);
    for (const t of twins.filter(isTypeTest)) add(t, KIND.typeTests, s);
    for (const d of docs) add(d, KIND.documents, s);
  }
  return [...found.values()].sort((a, b) => a.kind - b.kind);
}

/** How a companion's lines name its names: a document by its calls, a declaration or a type test by its identifiers. */
function companionQuery(c: Companion): ExcerptQuery {
  const lineTerms = c.kind === KIND.documents ? (line: string) => callCounts(line).keys() : wordsOf;
  return { terms: c.names, spelled: new Map([...c.names.keys()].map((n) => [n, n])), lineTerms };
}

/**
 * Adds excerpts of the companions of the files shown so far (`st.files`) to the blocks and files, within
 * COMPANION_CHARS and COMPANION_FILES, the declarations and type tests down to COMPANION_MAP_MIN of the map's room;
 * returns the characters used, with `saying` (what the head then says of excerpts) once there are some. Their
 * headings name no public names (excerptNames): their ranges are the declarations, and a README's headings or a type
 * test's constants say nothing of the work.
 */
export function packCompanions(index: WorkspaceIndex, q: RankQuery, st: PackState, saying: number): number {
  const companions = companionsOf(index, st.files, st.readText, workExcerptQuery(q).terms, st.calls);
  const candidates = (docs: boolean) =>
    companions
      .filter((c) => (c.kind === KIND.documents) === docs)
      .map((c) => {
        const of = `${c.of.slice(0, NAMED_FILES).join(', ')}${c.of.length > NAMED_FILES ? ', …' : ''}`;
        return { path: c.path, query: companionQuery(c), about: `; ${KINDS[c.kind]} ${of}`, declares: false };
      });
  const before = st.blocks.length;
  const checked = packExcerpts(candidates(false), q, st, saying, { perFile: COMPANION_EXCERPT_CHARS, chars: COMPANION_CHARS, files: COMPANION_FILES, mapMin: COMPANION_MAP_MIN });
  const placed = st.blocks.length - before;
  const left = { perFile: COMPANION_EXCERPT_CHARS, chars: COMPANION_CHARS - (checked - st.used), files: COMPANION_FILES - placed };
  return packExcerpts(candidates(true), q, { ...st, used: checked }, placed ? 0 : saying, left);
}
