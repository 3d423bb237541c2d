// Init's workspace facts (initFacts.ts), how its parts share the room: each part's bound (PART_CHARS) within the
// facts' total (WORKSPACE_FACTS_MAX_CHARS), the scale a set of parts is bounded at (partsScale) and the larger ones
// tried while the whole fits (ROOMIER_SCALES), the room the whole leaves then given to the code map (withCodeRoom),
// and the render of a set of parts from what the walk found — each part
// in its order of importance, cut to its bound and to the room the parts before it left, a part that no longer fits
// named at the end.
import type { WorkspaceLayout } from '../workspace/layout';
import { itemsWithin } from './initManifests';
import { manifestsPart, type ManifestSources } from './initFactsManifests';
import { checksPart, type CheckSources } from './initFactsChecks';
import { FACT_PARTS, noSources, quoted, scaled, type FactBounds, type FactPart, type FactSources, type WalkFiles } from './initFactsText';
import { layoutPart } from './initFactsLayout';
import { ciPart } from './initFactsCi';
import { stylePart } from './initFactsStyle';
import { codePart, type CodeLines } from './initFactsCode';
import { readmeOpening } from './initFactsReadme';
import { tasksPart } from './initFactsTasks';
import { statusPart } from './initFactsStatus';

/**
 * All the facts at most: about 3,500 tokens, sent with the decisions request and each file request that takes them —
 * every file of prompts/inputs.json, so ten requests and about 35,000 input tokens in all, which init spends once. An
 * init trial on tinyhttp at 6,000 cut its CLAUDE.md to a sixth and hid its lint and build scripts, so the files
 * assumed what the project states; 12,000 → 13,500 made room for the code map (PART_CHARS.code) with the guidance's share
 * kept, 13,900 for the task runners' targets (PART_CHARS.tasks), only where the workspace has a task file, 14,500 for
 * the docs' status notes (PART_CHARS.status), only where the docs state one.
 */
export const WORKSPACE_FACTS_MAX_CHARS = 14500;

/**
 * Each part's bound (the guidance's: each guidance file's). Together they leave the guidance files, which come last, at
 * least one file's bound: the one quoted first is whole up to its bound on any workspace, and what the parts leave
 * unused goes to the others.
 */
const PART_CHARS: Readonly<Record<FactPart, number>> = { manifests: 2800, checks: 500, tasks: 400, ci: 700, layout: 2300, code: 1500, style: 1200, readme: 1200, status: 600, guidance: 3000 };
const sumOf = (parts: readonly FactPart[]) => parts.reduce((sum, p) => sum + PART_CHARS[p], 0);
/**
 * The scale a set of parts is bounded at before ROOMIER_SCALES: the parts a request takes share the room of them all
 * in proportion to their bounds — 1 for all of them, about 5.7 for the brand's style and README. The one rule of a part's
 * room; the facts of any set still fit WORKSPACE_FACTS_MAX_CHARS (fittedFacts).
 */
const partsScale = (parts: readonly FactPart[]): number => sumOf(FACT_PARTS) / sumOf(parts);
/** Kept for the closing line that names the parts left out for room. */
const LEFT_OUT_CHARS = 200;
/**
 * The larger scales tried for every bound (FactBounds), largest first: a Vue app's facts came to 5,161 characters with
 * its tsconfig.json, its CI commands, a folder line and its fonts cut by their own bounds.
 */
const ROOMIER_SCALES: readonly number[] = [2, 1.5];

/** The facts of a set of parts, as a request quotes them, and what they were made from. */
export interface RenderedFacts {
  /** At most WORKSPACE_FACTS_MAX_CHARS characters. */
  text: string;
  /** The workspace files they quote or summarise, in the order they appear. */
  files: string[];
  /** What else they show, from names alone (the detected check commands, the folder layout…), in the order it appears. */
  listed: string[];
}

/** A workspace file the facts quote, and its text. */
export interface Quotable {
  file: string;
  text: string;
}

/**
 * What the facts are rendered from, found, read and parsed once whatever the scale and the set of parts: the walk with
 * its reader and memo (WalkFiles), the lockfile, the detected checks, the README and the guidance files.
 */
export interface Found extends ManifestSources, CheckSources, WalkFiles {
  layout: WorkspaceLayout;
  /** The code map's lines (initFactsCode.ts), ranked once; null without an index. */
  code: CodeLines | null;
  /** The README the part quotes (readmeOf), null without one that reads. */
  readme: Quotable | null;
  /** The guidance files that read, in GUIDANCE_FILES order. */
  guidance: Quotable[];
}

/**
 * The facts of `parts` with every bound at their scale (partsScale) times the largest of ROOMIER_SCALES at which they
 * fit whole, no part cut or left out for the total's sake, the room they leave given to the code map (withCodeRoom);
 * else at their scale, within WORKSPACE_FACTS_MAX_CHARS.
 */
export function fittedFacts(found: Found, parts: readonly FactPart[]): RenderedFacts {
  const scale = partsScale(parts);
  for (const roomier of ROOMIER_SCALES) {
    const bounds = { scale: scale * roomier };
    const facts = renderFacts(found, parts, bounds, Infinity);
    if (facts.text.length <= WORKSPACE_FACTS_MAX_CHARS) return withCodeRoom(found, parts, bounds, facts);
  }
  return renderFacts(found, parts, { scale }, WORKSPACE_FACTS_MAX_CHARS);
}

/**
 * Facts that fit whole (`facts`, rendered at `bounds`), rendered again with the code map given the room they leave of
 * WORKSPACE_FACTS_MAX_CHARS where its own bound cut it short of what its public names and their signatures need (its
 * internal names counted): the other parts as they were. The map is the part whose lines grow with room, and it comes
 * before the style, the README, the status notes and the guidance in importance: on unjs/ufo the requests with every
 * part (the decisions, the development files) cut it to 2,988 of its 3,326 characters at twice its bound,
 * `isEqual(a, b, options: CompareURLOptions = {})` a bare name, while the facts came to 5,205 of the 13,900 (the total
 * then); the requests with fewer parts, at a larger scale, showed it whole.
 */
function withCodeRoom(found: Found, parts: readonly FactPart[], bounds: FactBounds, facts: RenderedFacts): RenderedFacts {
  const left = WORKSPACE_FACTS_MAX_CHARS - facts.text.length;
  if (!found.code || !parts.includes('code') || left <= 0) return facts;
  // the map `facts` holds (its room there: the bound, the total being Infinity), not laid out again (codePart keeps it),
  // and the map the public names need, laid out once for every set of parts
  const shown = codePart(found.code, noSources(), scaled(PART_CHARS.code, bounds))?.length ?? 0;
  const needs = codePart(found.code, noSources(), Infinity, false)?.length ?? 0;
  if (shown >= needs) return facts;
  // a map not shown before takes its separator from the room too
  return renderFacts(found, parts, bounds, Infinity, Math.min(needs, shown ? shown + left : left - 2));
}

/**
 * The facts of `parts` from what was found, every bound at the scale of `bounds` (the code map's `codeRoom` when
 * given), within `total` characters.
 */
function renderFacts(found: Found, parts: readonly FactPart[], bounds: FactBounds, total: number, codeRoom?: number): RenderedFacts {
  const facts: RenderedFacts = { text: '', files: [], listed: [] };
  const texts: string[] = [];
  const leftOut: string[] = [];
  let room = total - LEFT_OUT_CHARS;
  /** A part's bound at the scale: its own, or the room left when that is less. */
  const within = (bound: number) => Math.max(0, Math.min(scaled(bound, bounds), room - 2));
  /** Adds a part that fits, with what it was made from; names one that does not among those left out. */
  const add = (part: string | null, name: string, from: FactSources) => {
    if (!part) return;
    if (part.length + 2 > room) {
      leftOut.push(name);
      return;
    }
    texts.push(part);
    room -= part.length + 2;
    // each file named once: a README the README part quotes may hold a status note too
    facts.files.push(...from.files.filter((f) => !facts.files.includes(f)));
    facts.listed.push(...from.listed);
  };
  /** A file's head, quoted when it fits (an empty file is not: nothing to quote). */
  const addQuoted = (file: string, what: string, text: string, bound: number) => {
    if (!text.trim()) return;
    const block = quoted(`${file} (${what})`, text, within(bound));
    if (block) add(block, file, { files: [file], listed: [] });
    else leftOut.push(file);
  };
  const takes = (part: FactPart) => parts.includes(part);
  let from = noSources();
  if (takes('manifests')) add(manifestsPart(found, from, within(PART_CHARS.manifests), bounds), 'the manifests', from);
  from = noSources();
  if (takes('checks')) add(checksPart(found, from, within(PART_CHARS.checks)), 'the check commands', from);
  from = noSources();
  if (takes('tasks')) add(tasksPart(found, from, within(PART_CHARS.tasks), bounds), 'the task runners', from);
  from = noSources();
  if (takes('ci')) add(ciPart(found, from, within(PART_CHARS.ci), bounds), 'the CI configuration', from);
  if (takes('layout')) add(layoutPart(found.layout, within(PART_CHARS.layout), bounds), 'the layout', { files: [], listed: ['the folder layout'] });
  from = noSources();
  const codeMax = codeRoom === undefined ? within(PART_CHARS.code) : Math.max(0, Math.min(codeRoom, room - 2));
  if (takes('code') && found.code) add(codePart(found.code, from, codeMax), 'the code map', from);
  from = noSources();
  if (takes('style')) add(stylePart(found, from, within(PART_CHARS.style), bounds), 'the style sources', from);
  const { readme } = found;
  if (takes('readme') && readme) addQuoted(readme.file, 'its opening', readmeOpening(readme.text, scaled(PART_CHARS.readme, bounds)), PART_CHARS.readme);
  from = noSources();
  if (takes('status')) add(statusPart(found, from, within(PART_CHARS.status)), "the docs' status notes", from);
  for (const { file, text } of takes('guidance') ? found.guidance : []) addQuoted(file, 'its head', text, PART_CHARS.guidance);
  if (leftOut.length) texts.push(`[left out for room: ${itemsWithin(leftOut, LEFT_OUT_CHARS - 30)}]`);
  facts.text = texts.join('\n\n');
  return facts;
}
