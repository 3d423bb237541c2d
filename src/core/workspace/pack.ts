// What a step's prompt receives of the workspace, within a character budget:
//  - DevA: the best-ranked files whole (picked by score per size among the well-ranked, shown in rank order), then
//    excerpts of the best-ranked files too large or too crowded out to go whole (excerpts.ts: the lines that speak
//    most of the work, each range headed by its line numbers and the work's names it declares and words it mentions,
//    so DevA can tell which range matters), then map lines (path — top-level symbols; the first few product source
//    files' with signatures: mapSection.ts) for the next ones, then bare paths while room remains, so DevA knows what
//    exists. The files DA read with its tools in this session rank near
//    the top (rank.ts), the head names them first, and those DA read in part get excerpts of the lines it saw
//    (UPSTREAM_EXCERPTS) before the others; after the excerpts, the companions of the files shown (companions.ts: a
//    JavaScript file's type declarations, type tests, the docs) get excerpts at the names the work touches;
//  - DA: map lines of the UI files only (components, styles), in rank order, within a smaller budget; in a workspace
//    without UI files (a library, a CLI), its interface is its code: map lines of the product's source files instead
//    (isProductSource), public names first where the language marks them, with their signatures as each line's room
//    allows, those whose words the objective and the criteria write first (mapLines.ts interfaceLine);
//  - POA and CM: nothing (see CONTEXT_MATRIX).
// The budget bounds the whole rendered section, headers included. `cape context` prints the same selection.
// sectionBlocks.ts renders the code and excerpt blocks and the line on what DA saw; mapSection.ts the map lines.
import { formatterGoverns, isDocPage, isFormatterConfig, isProductSource, isUiFile } from './fileKinds';
import { rankFiles, type RankQuery } from './rank';
import { ascending } from '../text/ascending';
import type { ExcerptRange } from './excerpts';
import { packExcerpts, upstreamReadSaying, wholeFileBlock } from './sectionBlocks';
import type { WorkspaceIndex } from './workspaceIndex';
import { docCalls } from './docCalls';
import { COMPANION_FILES, packCompanions } from './companions';
import { packMapLines } from './mapSection';

export type ContextStep = 'deva' | 'da';

/**
 * The documentation pages (fileKinds.ts isDocPage) DA's head names in a workspace without UI files, best ranked first:
 * two trials' DA on a Python library searched for the docs page of the extension it designed an option for.
 */
const DA_DOC_PAGES = 3;

/** Default budgets in characters (setting `cape.context.devBudget` / CLI `--budget` override DevA's). */
export const DEFAULT_WORKSPACE_BUDGET: Record<ContextStep, number> = { deva: 60_000, da: 6_000 };
/** The smallest budget the setting takes (the manifest's minimum): a smaller value is raised to it. */
export const MIN_WORKSPACE_BUDGET = 1_000;

/**
 * Below this share of the best score a file is not worth sending whole (it may still get a map line). 0.04 and 0.15
 * gave whole 0.573 / 0.569 of the localization bench's modified files (all of them in 0.446 of cases either way)
 * against 0.08's 0.572 / 0.446: the score-per-size pick rarely reaches that far.
 */
const WHOLE_MIN_RELATIVE_SCORE = 0.08;
/**
 * Which of the well-ranked files go whole: greedily by score per size, score / (chars + sizeFloor)^sizeWeight, so
 * one large file of middling rank does not crowd out several smaller ones ranked close to it; 0 would be plain rank
 * order. Exported for the bench's record; not settings. An exact knapsack maximising the summed chance of each file
 * being the change, that chance taken from its rank (1/(rank+1)^b, b 0.7–1.6, alone or × its share of the best score),
 * gave whole fewer of the localization bench's modified files (0.490–0.566 against this rule's 0.571, in the same
 * simulation of the pack): it fills the budget with small files, and a small file is rarely the change (of the files
 * ranked first, 9% of those under 1,000 characters were modified, 64% of those over 20,000). Sending the first one or
 * two files of the ranking whole before the pick (of the modified files crowded out, 28 were ranked first or second)
 * gave whole 0.570 / 0.568 of them, all of them in 0.446 / 0.448 of cases, against this rule's 0.571 / 0.448.
 */
export const WHOLE_PICK = { sizeWeight: 0.3, sizeFloor: 3000 };
/**
 * What DevA's whole files leave for the rest (excerpts, then the map): at most this, or 10% of the budget. Keeping
 * only 3,000 or 1,500 for the map gave whole 0.574 / 0.571 of the localization bench's modified files, all of them in
 * 0.440 / 0.437 of cases (6,000: 0.572 / 0.446): the room goes to files rarely the change, and DevA loses map lines.
 */
const MAP_RESERVE = 6000;
/**
 * Excerpts (excerpts.ts, rendered by sectionBlocks.ts) go to the files ranked in the first EXCERPT_RANK that are not
 * sent whole (too large, or crowded out), from the room the whole files leave. They never take room from whole files:
 * on the localization bench, excerpts paid for with whole files lowered the share of modified files given whole
 * (0.558 → 0.539) and raised the changed lines shown only a little more.
 */
const EXCERPT_RANK = 3;
/**
 * Besides those, and first, up to this many files the upstream role read in part (or found by searching) get
 * excerpts, wherever they rank, their windows favouring the lines it saw, in room kept for them from the whole files
 * (UPSTREAM_EXCERPT_CHARS each): a trial's DA read lines 830–965 of a 55,000-character `docs/api.md` for the entry
 * DevA was to add, and DevA, given only the file's map line, spent a call reading them again. The localization bench
 * has no upstream role, so its figures do not move.
 */
const UPSTREAM_EXCERPTS = 2;
const UPSTREAM_EXCERPT_CHARS = 3000;
/**
 * The project's formatter settings (fileKinds.ts isFormatterConfig) go to DevA whole, after the ranked whole files,
 * when each is at most this long (a Prettier or EditorConfig file is a few lines; a larger one is more than layout)
 * and, all of them, within FORMATTING_SHARE of the budget.
 */
const FORMATTING_MAX_CHARS = 1500;
const FORMATTING_SHARE = 0.05;
export interface PackedFile {
  path: string;
  /** Characters this file takes in the prompt: the whole text, its excerpts' text, or its map line. */
  chars: number;
  whole: boolean;
  /** For a large well-ranked file not sent whole: the line ranges sent (1-based, inclusive). */
  excerpts?: ExcerptRange[];
}

export interface WorkspaceContext {
  step: ContextStep;
  budget: number;
  /** Whole files first (in rank order), then excerpted files, then map lines (in rank order). */
  files: PackedFile[];
  /** Characters of the map lines (path + symbols). */
  mapChars: number;
  /** Characters of the whole rendered section (≤ budget). */
  totalChars: number;
  /** Files in the index. */
  indexed: number;
  /** The section as it goes into the prompt ('' when there is nothing to send). */
  text: string;
}

/** Whether any of the paths passes `keep`. */
function anyPath(paths: Iterable<string>, keep: (p: string) => boolean): boolean {
  for (const p of paths) if (keep(p)) return true;
  return false;
}

/** The paths that pass `keep`, in order (one array: the index's paths come from an iterator). */
function pathsWhere(paths: Iterable<string>, keep: (p: string) => boolean): string[] {
  const out: string[] = [];
  for (const p of paths) if (keep(p)) out.push(p);
  return out;
}

export interface PackOptions {
  step: ContextStep;
  budget?: number;
  /**
   * Reads a file's current text; null when it cannot be sent (vanished, now binary…). Default: through the index's
   * policy (the same checks as DevA's read_file).
   */
  readText?: (relPath: string) => string | null;
}

/** Selects and renders the workspace section of a step's prompt. */
export function packWorkspace(index: WorkspaceIndex, q: RankQuery, opts: PackOptions): WorkspaceContext {
  const budget = Math.max(0, Math.floor(opts.budget ?? DEFAULT_WORKSPACE_BUDGET[opts.step]));
  const read =
    opts.readText ??
    ((rel: string) => {
      const r = index.policy.readSync(rel);
      return r.ok ? r.text : null;
    });
  // each file read once for the section: the README for its calls and for a companion's excerpts alike
  const texts = new Map<string, string | null>();
  const readText = (rel: string): string | null => {
    if (!texts.has(rel)) texts.set(rel, read(rel));
    return texts.get(rel)!;
  };
  // DA: the UI files, or, in a workspace that has none, the code that is its interface
  const daApi = opts.step === 'da' && !anyPath(index.paths(), isUiFile);
  const keep = opts.step === 'da' ? (daApi ? isProductSource : isUiFile) : () => true;
  const rankedAll = rankFiles(index, q);
  const ranked = rankedAll.filter((r) => keep(r.path)).map((r) => ({ path: r.path, score: r.score }));
  // DA of a library writes the docs of what it designs: the pages nearest the work, named in the head
  const docPages = daApi ? rankedAll.filter((r) => r.score > 0 && isDocPage(r.path)).slice(0, DA_DOC_PAGES).map((r) => r.path) : [];
  // the files ranking left out, by path: listed only when the map gets that far
  const rest = function* () {
    const rankedSet = new Set(ranked.map((r) => r.path));
    for (const p of ascending(pathsWhere(index.paths(), (p) => keep(p) && !rankedSet.has(p)))) yield { path: p, score: 0 };
  };
  const candidates = function* () {
    yield* ranked;
    yield* rest();
  };
  const empty: WorkspaceContext = { step: opts.step, budget, files: [], mapChars: 0, totalChars: 0, indexed: index.size, text: '' };
  if (budget <= 0 || (!ranked.length && !anyPath(index.paths(), keep))) return empty;

  // only files the index holds: one gone since, or a damaged record's, is not named
  const reads = opts.step === 'deva' ? upstreamReadSaying(q, (p) => !!index.get(p)) : '';
  // the formatter's settings DevA may get (FORMATTING_MAX_CHARS), named in the head: those of the root and of the
  // folders that hold the whole files picked below
  const formatterFiles = opts.step === 'deva' ? pathsWhere(index.paths(), (p) => isFormatterConfig(p) && index.get(p)!.chars <= FORMATTING_MAX_CHARS) : [];
  const head = (whole: number, excerpted: number, mapped: number, formatted: readonly string[]) =>
    opts.step === 'deva'
      ? `${reads}Ranked for this work: ${whole} file(s) whole, ${excerpted ? `${excerpted} larger one(s) in excerpts, ` : ''}${mapped} more as map lines (path — top-level symbols; the first few with their signatures), of ${index.size} in the workspace. Whole files are shown as they are now: change them from what you see here.${excerpted ? " An excerpt shows some of its file's exact lines, each range headed by its line numbers and the work's names and words it holds: a SEARCH may quote them; search_files or read_file (start_line/end_line) find what it leaves out." : ''}${formatted.length ? ` The project's formatter settings (${formatted.join(', ')}) follow the whole files: lay out new and changed lines by them, as its formatter would.` : ''} Read a mapped file's lines before you edit them.`
      : daApi
        ? `No UI files (components, styles) in the workspace: its interface is its code${docPages.length ? `, and its documentation: the pages nearest this work are ${docPages.join(', ')}` : ''}. Its source files, ranked for this work: path — top-level symbols (public names first where the language marks them, with their signatures as room allows, those this work names first: parameters, return type, a type's public fields and their types; no code body).`
        : `UI files of the workspace (components, styles), ranked for this work: path — top-level symbols.`;
  // the head's room is kept before the whole files are picked; what it says of excerpts and of the formatter's
  // settings, only once there are some (from the room the whole files leave)
  const reserveHead = head(99999, 0, 99999, []).length + 2;
  const excerptsSaying = head(99999, EXCERPT_RANK + UPSTREAM_EXCERPTS + COMPANION_FILES, 99999, []).length + 2 - reserveHead;
  const mapHeading = '\n\n### Map\n';
  const files: PackedFile[] = [];
  const blocks: string[] = [];
  const formatted: string[] = []; // formatter settings sent whole beside the ranked files
  let used = reserveHead + mapHeading.length;
  const top = ranked.length ? ranked[0].score : 0;
  // how often the project's documentation calls a name, for the order of a class's members in DevA's excerpts and in
  // the map's signed lines alike: read at the first line that asks, once for the section
  const calls = docCalls(index, readText);

  if (opts.step === 'deva') {
    // the files the upstream role read in part, for their excerpts
    const seenUpstream = new Set((q.read?.files ?? []).filter((f) => (!f.whole && (f.lines?.length || f.hits?.length)) || f.cited?.length).map((f) => f.path));
    const seen = ranked.filter((c) => seenUpstream.has(c.path) && index.get(c.path));
    const upstream = seen.slice(0, UPSTREAM_EXCERPTS);
    // whole files: keep ~10% of the budget for the map of what follows, and room for those excerpts
    const wholeLimit = budget - Math.min(MAP_RESERVE, Math.floor(budget * 0.1)) - Math.min(upstream.length * UPSTREAM_EXCERPT_CHARS, Math.floor(budget * 0.15));
    const group = ranked.filter((c) => c.score > 0 && c.score >= top * WHOLE_MIN_RELATIVE_SCORE && index.get(c.path));
    const density = (c: { path: string; score: number }) => c.score / Math.pow(index.get(c.path)!.chars + WHOLE_PICK.sizeFloor, WHOLE_PICK.sizeWeight);
    const picked = new Map<string, { block: string; chars: number }>();
    for (const c of [...group].sort((a, b) => density(b) - density(a))) {
      const f = index.get(c.path)!;
      if (used + f.chars + c.path.length + 40 > wholeLimit) continue;
      const text = readText(c.path);
      if (text === null) {
        index.confirm(c.path); // vanished or no longer text: the index lets it go too
        continue;
      }
      const block = wholeFileBlock(c.path, text);
      if (used + block.length + 2 > wholeLimit) continue;
      picked.set(c.path, { block, chars: text.length });
      used += block.length + 2;
    }
    // in rank order
    for (const c of group) {
      const p = picked.get(c.path);
      if (!p) continue;
      blocks.push(p.block);
      files.push({ path: c.path, chars: p.chars, whole: true });
    }
    // the formatter's settings, so new lines are laid out as the project's lint expects: after the ranked whole
    // files, from the room they leave (the picks above do not change) — the root's, and those of a sub-project's folder
    // that holds a picked file (a trial's DevA read `frontend/biome.json` with a tool call), the nearest first
    const governing = formatterFiles
      .filter((c) => !c.includes('/') || [...picked.keys()].some((p) => formatterGoverns(c, p)))
      .sort((a, b) => b.split('/').length - a.split('/').length || (a < b ? -1 : 1));
    const formattingSaying = head(99999, 0, 99999, governing).length + 2 - reserveHead;
    let formatting = Math.floor(budget * FORMATTING_SHARE);
    for (const p of governing) {
      if (picked.has(p)) continue; // ranked whole already
      const text = readText(p);
      if (text === null) continue;
      const block = wholeFileBlock(p, text);
      const cost = block.length + 2 + (formatted.length ? 0 : formattingSaying);
      if (cost > formatting || used + cost > budget) continue;
      formatting -= cost;
      used += cost;
      blocks.push(block);
      files.push({ path: p, chars: text.length, whole: true });
      formatted.push(p);
    }
    const st = { budget, used, readText, blocks, files, calls };
    // the first UPSTREAM_EXCERPTS seen files not sent whole: one DA read or cited that went whole leaves its place to
    // the next (a commander trial: the cited command.js and help.js, the latter whole, left typings/index.d.ts, read by
    // DA, a map line)
    const excerptable = [...seen.filter((c) => !picked.has(c.path)).slice(0, UPSTREAM_EXCERPTS), ...group.slice(0, EXCERPT_RANK)].filter((c) => !picked.has(c.path));
    used = packExcerpts([...new Map(excerptable.map((c) => [c.path, c])).values()], q, st, excerptsSaying);
    // then the companions of the files shown (their declarations, type tests, docs), from the room left
    used = packCompanions(index, q, { ...st, used }, files.some((f) => f.excerpts) ? 0 : excerptsSaying);
  }
  const { lines, mapChars } = packMapLines(index, candidates(), q, { budget, used, readText, files, calls }, { step: opts.step, daApi });
  if (!files.length) return empty;
  const wholeCount = files.filter((f) => f.whole).length;
  const excerpted = blocks.length - wholeCount;
  const parts = [head(wholeCount - formatted.length, excerpted, files.length - blocks.length, formatted), ...blocks];
  let text = parts.join('\n\n');
  if (lines.length) text += (blocks.length ? mapHeading : '\n\n') + lines.join('\n');
  return { step: opts.step, budget, files, mapChars, totalChars: text.length, indexed: index.size, text };
}

export { excerptLines, rangeLabel } from './sectionBlocks';

/** How a packed file is sent, in the words `cape context` and Show Context use. */
export function packedForm(f: PackedFile): 'whole' | 'excerpts' | 'map line' {
  return f.whole ? 'whole' : f.excerpts ? 'excerpts' : 'map line';
}

/** "3 file(s) whole, 1 in excerpts, 40 as map lines" (excerpts named only when there are some). */
export function contextSummary(ctx: Pick<WorkspaceContext, 'files'>): string {
  const n = (form: ReturnType<typeof packedForm>) => ctx.files.filter((f) => packedForm(f) === form).length;
  const excerpted = n('excerpts');
  return `${n('whole')} file(s) whole, ${excerpted ? `${excerpted} in excerpts, ` : ''}${n('map line')} as map lines`;
}
