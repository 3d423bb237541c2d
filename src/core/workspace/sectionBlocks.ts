// The blocks of DevA's workspace section other than map lines, as pack.ts places them: a file's code block (a fence
// longer than any backtick run in it, the language from the extension), an excerpted file's block (each range headed
// by its line numbers and by the names and words of the work it holds, so DevA can tell which range matters), and the
// line naming what the upstream role (DA) saw with its tools. pack.ts decides what goes where within the budget.
import { RANK_WEIGHTS, type RankQuery } from './rank';
import { codeIdentifiers } from './rankSignals';
import { LONG_LINE, selectExcerpt, type ExcerptRange, type RangeAbout } from './excerpts';
import { fileLines, lineCount } from '../text/lines';
import { declaredName } from './excerptLines';
import { CHANGELOG_FILE } from './fileKinds';
import { fenceFor } from '../text/markdown';
import { terms, termSpellings, wordTerms } from './tokens';
import { interfaceLine, workWords, type WorkWords } from './mapLines';
import type { NameCalls } from './docCalls';
import type { PackedFile } from './pack';

/** Each excerpted file's text at most, and what the map keeps at least of the room the whole files leave. */
const EXCERPT_CHARS = 4000;
const MAP_MIN = 2000;
/**
 * An excerpted file's public names with their signatures (mapLines.ts interfaceLine: a class's members too), under its
 * heading, within this many characters and names: a commander trial's DevA, shown three ranges of the 2,789-line
 * command.js and no map line of it, could not tell which of `Command`'s methods existed without reading.
 */
const EXCERPT_NAMES_CHARS = 600;
const EXCERPT_NAMES = 40;
/** How much more than a word of the objective its code identifiers weigh in an excerpt (`storeOptionsAsProperties`). */
const EXCERPT_IDENTIFIER_WEIGHT = 3;

function langOf(p: string): string {
  // the extension after a name: a dotfile's name (`.prettierrc`, `.editorconfig`) is no language
  const m = /[^/.]\.([A-Za-z0-9]+)$/.exec(p);
  return m ? m[1].toLowerCase() : '';
}

/** A file sent whole: its path as a heading, then its text in a code block. */
export function wholeFileBlock(p: string, text: string): string {
  const fence = fenceFor(text);
  return `### ${p}\n${fence}${langOf(p)}\n${text}${text.endsWith('\n') ? '' : '\n'}${fence}`;
}

export interface PackState {
  budget: number;
  used: number;
  readText: (relPath: string) => string | null;
  blocks: string[];
  files: PackedFile[];
  /**
   * How often the project's documentation calls a name (docCalls.ts), which orders a class's members: built once for
   * the section, the map's lines use the same.
   */
  calls: NameCalls;
}

/** What an excerpt looks for: its terms and their weights, and how the ranges' headings spell them. */
export interface ExcerptQuery {
  terms: ReadonlyMap<string, number>;
  spelled: ReadonlyMap<string, string>;
  /** How a line's terms are read (excerpts.ts selectExcerpt): tokens.ts terms when absent. */
  lineTerms?: (line: string) => Iterable<string>;
}

/**
 * The work's terms for excerpts: the objective's words weigh fully; of the upstream work only the code it names
 * (`_excessArguments`, camelCase, snake_case or in backticks), as in the ranking: its prose words (a trial: "lets",
 * "actually", "typed") opened ranges of comments unrelated to the change; an identifier the objective writes as code
 * names what to change (rankSignals.ts codeIdentifiers) and weighs EXCERPT_IDENTIFIER_WEIGHT.
 */
export function workExcerptQuery(q: RankQuery): ExcerptQuery {
  const queryTerms = new Map<string, number>();
  for (const id of codeIdentifiers(q.work ?? '')) for (const t of wordTerms(id)) queryTerms.set(t, RANK_WEIGHTS.work);
  for (const t of terms(q.objective)) queryTerms.set(t, 1);
  for (const id of codeIdentifiers(q.objective)) {
    const own = wordTerms(id);
    if (own.length) queryTerms.set(own[own.length - 1], EXCERPT_IDENTIFIER_WEIGHT);
  }
  // how the work writes its words, for the ranges' headings
  const spelled = termSpellings(q.objective);
  termSpellings(q.work ?? '', spelled);
  return { terms: queryTerms, spelled };
}

/** A file to excerpt: by the work's terms, or by a query of its own, with what its heading says it is. */
export interface ExcerptCandidate {
  path: string;
  query?: ExcerptQuery;
  /** After the heading's line count: "; declares names of lib/option.js". */
  about?: string;
  /** Whether its heading names its public names (excerptNames): by default. */
  declares?: boolean;
}

/**
 * Adds excerpts of `candidates` (in rank order) to the blocks and files; returns the characters used, with `saying`
 * (what the head then says of them) once there are some. `bound`: each file's excerpt in `perFile` characters at most
 * (EXCERPT_CHARS by default), all of them within `chars`, `files` of them at most, leaving the map `mapMin` (MAP_MIN by
 * default).
 */
export function packExcerpts(
  candidates: readonly ExcerptCandidate[],
  q: RankQuery,
  st: PackState,
  saying: number,
  bound: { perFile?: number; chars?: number; files?: number; mapMin?: number } = {},
): number {
  const start = st.used;
  let used = start + saying;
  if (!candidates.length) return start;
  // the work's query and words, made once and only for a candidate that takes them (a companion has its own query
  // and names no public names)
  let workQuery: ExcerptQuery | undefined;
  let work: WorkWords | undefined;
  const end = Math.min(start + (bound.chars ?? Infinity), st.budget - (bound.mapMin ?? MAP_MIN));
  let left = bound.files ?? Infinity;
  for (const c of candidates) {
    if (left <= 0) break;
    const room = Math.min(bound.perFile ?? EXCERPT_CHARS, end - used);
    if (room < 500) break;
    const text = st.readText(c.path);
    if (text === null) continue;
    const query = c.query ?? (workQuery ??= workExcerptQuery(q));
    const fence = fenceFor(text);
    const lang = langOf(c.path);
    // a changelog's headings are its releases: no names worth a line
    const changelog = CHANGELOG_FILE.test(c.path);
    const names = c.declares === false || changelog ? '' : excerptNames(c.path, text, (work ??= workWords(`${q.objective}\n${q.work ?? ''}`)), st.calls);
    const heading = (lines: number) => `### ${c.path} (excerpts of ${lines} lines${c.about ?? ''})${names}`;
    const range = (r: ExcerptRange, about: RangeAbout) => `${excerptLines([r])}${rangeLabel(about, query.spelled)}:\n${fence}${lang}\n`;
    // the block is the file's heading, then per range its heading, text and closing fence, each on its own line
    const fileLineCount = lineCount(text);
    const overhead = (r: ExcerptRange, about: RangeAbout) => range(r, about).length + 1 + fence.length + 1;
    const seen = q.read?.files.find((f) => f.path === c.path);
    // the lines its reply cites first — every place's own lines before any place's lines around it (a commander trial's
    // DA cited eight places in help.js; their contexts, in the order cited, filled the room before the method it named
    // as the one to change), then the ranges it read by line numbers — are shown as they are (pinned) and favoured,
    // with the lines around its finds
    const places = (seen?.cited ?? []).map(([start, end]) => ({ start, end: Math.min(end, start + CITED_MAX_LINES - 1) }));
    // then the declarations of the functions and methods its handoff names, where this file declares them
    const named = namedDeclarations(text, q.read?.names ?? []);
    const cited = [...places, ...named, ...places.map(({ start, end }) => ({ start: start - CITED_CONTEXT, end: end + CITED_CONTEXT }))];
    // and a changelog's head, where the next entry goes, as much of it as fits (a Python trial's DevA got three old
    // releases' entries that named the work's words, and wrote its entry without seeing the file's top)
    const pinned = [...cited, ...(seen?.lines ?? []).map(([start, end]) => ({ start, end }))];
    const head = changelog ? CHANGELOG_HEAD_LINES : 0;
    const favoured = seen && [...pinned, ...(head ? [{ start: 1, end: head }] : []), ...(seen.hits ?? []).map((h) => ({ start: h - HIT_CONTEXT, end: h + HIT_CONTEXT }))];
    const ex = selectExcerpt(text, query.terms, room - heading(fileLineCount).length - 2, {
      overhead,
      head,
      ...(favoured ? { favoured } : {}),
      ...(pinned.length ? { pinned } : {}),
      ...(query.lineTerms ? { lineTerms: query.lineTerms } : {}),
    });
    if (!ex) continue;
    const block = [heading(ex.lines), ...ex.ranges.map((r, i) => `${range(r, ex.about[i])}${ex.texts[i]}\n${fence}`)].join('\n');
    if (used + block.length + 2 > end) continue;
    st.blocks.push(block);
    st.files.push({ path: c.path, chars: ex.chars, whole: false, excerpts: ex.ranges });
    used += block.length + 2;
    left--;
  }
  return used === start + saying ? start : used;
}

/**
 * "\nDeclares: class Command, new Command(name), Command.option(flags, description)…", or '' when it names none: a
 * class's members in the order of `calls`, as DA's map gives them.
 */
function excerptNames(p: string, text: string, work: WorkWords, calls: NameCalls): string {
  const line = interfaceLine(p, text, [], EXCERPT_NAMES, p.length + 3 + EXCERPT_NAMES_CHARS, work, calls);
  return line.startsWith(`${p} — `) ? `\nDeclares: ${line.slice(p.length + 3)}` : '';
}

/** A named declaration's lines shown from its first: its signature and the start of its body. */
const NAMED_LINES = 8;

/** The lines where `text` declares one of `names` (excerptLines.ts declaredName), NAMED_LINES each, in the file's order. */
function namedDeclarations(text: string, names: readonly string[]): ExcerptRange[] {
  if (!names.length) return [];
  const wanted = new Set(names);
  const out: ExcerptRange[] = [];
  fileLines(text).forEach((line, i) => {
    const name = line.length <= LONG_LINE ? declaredName(line) : null;
    if (name !== null && wanted.has(name)) out.push({ start: i + 1, end: i + NAMED_LINES });
  });
  return out;
}

/** The lines of a changelog's head its excerpts open with: its title and the latest release's first entries. */
const CHANGELOG_HEAD_LINES = 30;

/** The files the head names at most, of the upstream role's reads and of its searches' finds. */
const READS_NAMED = 8;
/** Lines either side of an upstream search's hit that its excerpts favour. */
const HIT_CONTEXT = 2;
/**
 * Lines either side of a place the upstream role's reply cites that its excerpts show, and the lines of a cited range
 * shown at most (a citation of a whole file's lines is no place).
 */
const CITED_CONTEXT = 4;
const CITED_MAX_LINES = 40;

/**
 * "DA read for this work: src/App.tsx, src/theme.ts (lines 1–40). Its searches found: src/menu.ts (lines 12, 40)."
 * — or '' when the upstream role saw nothing.
 */
export function upstreamReadSaying(q: RankQuery, known: (relPath: string) => boolean): string {
  const files = (q.read?.files ?? []).filter((f) => known(f.path));
  const list = (named: string[]) => `${named.slice(0, READS_NAMED).join(', ')}${named.length > READS_NAMED ? `, and ${named.length - READS_NAMED} more` : ''}`;
  const read = files
    .filter((f) => f.whole || f.lines?.length)
    .map((f) => (f.whole || !f.lines ? f.path : `${f.path} (${excerptLines(linesRead(f.lines))})`));
  const found = files.filter((f) => f.hits?.length).map((f) => `${f.path} (${excerptLines(f.hits!.map((h) => ({ start: h, end: h })))})`);
  const by = q.read?.by ?? '';
  if (read.length && found.length) return `${by} read for this work: ${list(read)}. Its searches found: ${list(found)}.\n`;
  if (read.length) return `${by} read for this work: ${list(read)}.\n`;
  return found.length ? `${by}'s searches for this work found: ${list(found)}.\n` : '';
}

/** The line ranges read, in file order, each line once: ranges read twice, overlapping or touching are one. */
function linesRead(lines: readonly (readonly [number, number])[]): ExcerptRange[] {
  const out: ExcerptRange[] = [];
  for (const [start, end] of [...lines].sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1];
    if (last && start <= last.end + 1) last.end = Math.max(last.end, end);
    else out.push({ start, end });
  }
  return out;
}

/** An excerpted file's ranges as people read them: "lines 120–168, 402–455", "line 7". */
export function excerptLines(ranges: readonly ExcerptRange[]): string {
  const spans = ranges.map((r) => (r.start === r.end ? `${r.start}` : `${r.start}–${r.end}`));
  return `${ranges.length === 1 && ranges[0].start === ranges[0].end ? 'line' : 'lines'} ${spans.join(', ')}`;
}

/** Names and words of the work a range's heading shows at most. */
const LABEL_NAMES = 2;
const LABEL_WORDS = 4;

/**
 * Why a range was picked, for its heading: " (declares addOption; mentions option, flags)", or '' when it shows none
 * of the work's words as the work writes them. Trial: without it, ranges picked by the upstream work's words looked
 * as relevant as the one holding the method the objective named.
 */
export function rangeLabel(about: RangeAbout, spelled: ReadonlyMap<string, string>): string {
  const names = about.declares.slice(0, LABEL_NAMES);
  // a word already said by a longer name or word (`option` in `addOption`) is not said again
  const said = names.map((n) => n.toLowerCase());
  const words: string[] = [];
  for (const t of about.terms) {
    const w = spelled.get(t);
    if (!w || words.length >= LABEL_WORDS || said.some((s) => s.includes(w.toLowerCase()))) continue;
    words.push(w);
    said.push(w.toLowerCase());
  }
  const parts = [names.length ? `declares ${names.join(', ')}` : '', words.length ? `mentions ${words.join(', ')}` : ''].filter(Boolean);
  return parts.length ? ` (${parts.join('; ')})` : '';
}

