// Init's workspace facts: what an existing codebase states about itself, gathered without a model and without running
// any of its commands (git is asked, read-only, for the version tags), for init's requests (initRequests.ts) to write the project files from the code as it is rather than from
// assumptions. In this order, which is also their order of importance: each part is cut to its own bound and to the
// room the parts before it left of WORKSPACE_FACTS_MAX_CHARS, and a part that no longer fits is named at the end.
// Facts well short of the max get more room: every bound is taken at the largest of ROOMIER_SCALES at which the whole
// still fits (initFactsText.ts's FactBounds), from the one walk. A project file written from some parts only gets them
// rendered for itself, their bounds grown by the room the parts it does not take leave (partsScale).
//  1. the manifests (initFactsManifests.ts): the root's — package.json, pyproject.toml, Cargo.toml and go.mod as fact
//     lines (their names, dependencies, scripts, tools…), the others by their head; the lockfile and the package
//     manager it names (checks/detect.ts); the head of the monorepo and toolchain settings (pnpm-workspace.yaml,
//     go.work…); the latest version tags of the workspace's git repository, how far HEAD is past the latest and the
//     last minor and major release (initFactsRelease.ts from versionTags.ts: git is asked, read-only) — then a few
//     sub-projects' (the folders one and two levels down that hold one, the workspace members the root names first:
//     initSubprojects.ts), with smaller bounds, and a count of those left;
//  2. the check commands CAPE detects (initFactsChecks.ts: detect.ts's detectedChecks, as `--check auto`), named,
//     never run, and the sub-projects they leave out, then the root's task runners (Makefile, justfile, Taskfile.yml)
//     with their targets' commands (initFactsTasks.ts);
//  3. the CI configuration files and the commands their steps run, those that check a change first (initFactsCi.ts);
//  4. the layout: the folders with their source files and tests, a few file names, the sub-folders where the code is
//     and the packages of a monorepo (initFactsLayout.ts, from workspace/layout.ts: the index's walk under the read
//     policy — no ignored, dependency, secret, .git/ or cape/ file is counted or named);
//  5. the code map: the source files the product's others import most (where none stands out, those with the most
//     symbols), then those nearest the answers, each with its top-level symbols (initFactsCode.ts, from the workspace
//     index: names only), when the caller gives the index;
//  6. for a workspace with a user interface (at the root or in a folder one level down), its style sources: the entry
//     page's head, the design tokens and fonts of the style files and the root component's style blocks, how the
//     components style themselves, the style files' names, the theme configuration (initFactsStyle.ts);
//  7. the opening paragraphs of the README (initFactsReadme.ts);
//  8. the head of the project's guidance for contributors and coding agents (CLAUDE.md, AGENTS.md…).
// Every file is read through the read policy (workspace/policy.ts): a secret, an ignored, a binary or a linked file is
// never read. A workspace without code (no source file, no manifest) has no facts: init then works from the answers.
import { WorkspacePolicy } from '../workspace/policy';
import { workspaceLayout, type WorkspaceLayout } from '../workspace/layout';
import { TreeWalk } from '../workspace/treeWalk';
import { MANIFEST_NAMES, SOURCE_FILE } from '../workspace/fileKinds';
import { detectedChecks, lockfileOf } from '../checks/detect';
import { itemsWithin } from './initManifests';
import { manifestsPart, type ManifestSources } from './initFactsManifests';
import { checksPart, type CheckSources } from './initFactsChecks';
import { FACT_PARTS, inPartsOrder, noSources, quoted, scaled, setKey, walkFiles, type FactBounds, type FactPart, type FactSources, type WalkFiles } from './initFactsText';
import { layoutPart } from './initFactsLayout';
import { ciPart, ciServiceOf } from './initFactsCi';
import { isStyleSource, stylePart } from './initFactsStyle';
import { codeLines, codePart, type CodeLines } from './initFactsCode';
import { readmeOf, readmeOpening } from './initFactsReadme';
import { tasksPart } from './initFactsTasks';
import type { WorkspaceIndex } from '../workspace/workspaceIndex';
import { versionTags } from '../workspace/versionTags';

/**
 * All the facts at most: about 3,500 tokens, sent with the decisions request and each file request that takes them —
 * every file of prompts/inputs.json, so ten requests and about 35,000 input tokens in all, which init spends once. An
 * init trial on tinyhttp at 6,000 cut its CLAUDE.md to a sixth and hid its lint and build scripts, so the files
 * assumed what the project states; 12,000 → 13,500 made room for the code map (PART_CHARS.code) with the guidance's share
 * kept, 13,900 for the task runners' targets (PART_CHARS.tasks), only where the workspace has a task file.
 */
export const WORKSPACE_FACTS_MAX_CHARS = 13900;

/**
 * Each part's bound (the guidance's: each guidance file's). Together they leave the guidance files, which come last, at
 * least one file's bound: the one quoted first is whole up to its bound on any workspace, and what the parts leave
 * unused goes to the others.
 */
const PART_CHARS: Readonly<Record<FactPart, number>> = { manifests: 2800, checks: 500, tasks: 400, ci: 700, layout: 2300, code: 1500, style: 1200, readme: 1200, guidance: 3000 };
const sumOf = (parts: readonly FactPart[]) => parts.reduce((sum, p) => sum + PART_CHARS[p], 0);
/** The key of all the parts (setKey), whose facts are WorkspaceFacts's `text`. */
const ALL_PARTS = setKey(FACT_PARTS);
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

/** The project's own guidance for contributors and coding agents, in the order they are quoted. */
const GUIDANCE_FILES: readonly string[] = ['CLAUDE.md', 'AGENTS.md', '.github/copilot-instructions.md', '.cursorrules', 'CONTRIBUTING.md', '.github/CONTRIBUTING.md'];

/** The facts of a set of parts, as a request quotes them, and what they were made from. */
interface RenderedFacts {
  /** At most WORKSPACE_FACTS_MAX_CHARS characters. */
  text: string;
  /** The workspace files they quote or summarise, in the order they appear. */
  files: string[];
  /** What else they show, from names alone (the detected check commands, the folder layout…), in the order it appears. */
  listed: string[];
}

/** All the parts' facts (`text`), and those of some parts only; `files` and `listed` name what any of them shows. */
export interface WorkspaceFacts extends RenderedFacts {
  /**
   * The facts of each set of parts a file is written from (readWorkspaceFacts's `sets`) but all, by setKey, rendered for
   * itself at its own scale (partsScale), '' when the workspace showed none of its parts; not a Map: `--json` shows it.
   */
  some: Readonly<Record<string, string>>;
}

/** A workspace file the facts quote, and its text. */
interface Quotable {
  file: string;
  text: string;
}

/**
 * What the facts are rendered from, found, read and parsed once whatever the scale and the set of parts: the walk with
 * its reader and memo (WalkFiles), the lockfile, the detected checks, the README and the guidance files.
 */
interface Found extends ManifestSources, CheckSources, WalkFiles {
  layout: WorkspaceLayout;
  /** The code map's lines (initFactsCode.ts), ranked once; null without an index. */
  code: CodeLines | null;
  /** The README the part quotes (readmeOf), null without one that reads. */
  readme: Quotable | null;
  /** The guidance files that read, in GUIDANCE_FILES order. */
  guidance: Quotable[];
}

/** Where the code part's names come from: the workspace's index, and what to rank its files for (the answers). */
export interface CodeSource {
  index: WorkspaceIndex;
  query: string;
}

/** Whether a file makes its workspace one that holds code: a source file, or a manifest at the root. The one test of it (facts, questionnaire). */
const isCodeFile = (rel: string): boolean => SOURCE_FILE.test(rel) || (!rel.includes('/') && MANIFEST_NAMES.includes(rel));

/**
 * True when the workspace holds code, so that init reads facts from it and asks about the next release rather than a
 * first version (initAnswers.ts's initQuestions); false for one without code, or one that cannot be walked (then init
 * has no facts either). Names only: no file is read, and the walk stops at the first code file (VS Code asks this
 * before the first question).
 */
export function workspaceHasCode(workspace: string, capeFolder?: string): boolean {
  const policy = new WorkspacePolicy(workspace, { capeFolder });
  let code = false;
  try {
    new TreeWalk(workspace, policy).walk(false, (rel) => void (code ||= isCodeFile(rel)), null, undefined, () => code);
    return code;
  } catch {
    return false;
  } finally {
    policy.forget();
  }
}

/**
 * The workspace facts (see the header), or null when the workspace holds no code: all the parts, and each of `sets`
 * (the parts a project file is written from) rendered for itself. Reads only what the read policy admits; runs nothing.
 */
export async function readWorkspaceFacts(
  workspace: string,
  capeFolder?: string,
  code?: CodeSource | (() => Promise<CodeSource | undefined>),
  sets: readonly (readonly FactPart[])[] = [],
): Promise<WorkspaceFacts | null> {
  // one policy for the walk and every read: the .gitignore files and secret rules parsed once, dropped at the end
  const policy = new WorkspacePolicy(workspace, { capeFolder });
  try {
    return await factsUnder(workspace, policy, code, sets);
  } finally {
    policy.forget();
  }
}

/** The paths the walk keeps for the parts that name files it finds anywhere: CI configuration, style sources. */
const keptForParts = (rel: string): boolean => ciServiceOf(rel) !== null || isStyleSource(rel);

/** readWorkspaceFacts's work, under the policy it made and forgets. */
async function factsUnder(
  workspace: string,
  policy: WorkspacePolicy,
  code: CodeSource | (() => Promise<CodeSource | undefined>) | undefined,
  sets: readonly (readonly FactPart[])[],
): Promise<WorkspaceFacts | null> {
  let hasCode = false;
  const layout = workspaceLayout(workspace, policy, (rel) => {
    hasCode ||= isCodeFile(rel);
    return keptForParts(rel);
  });
  if (!hasCode) return null;
  // the index only now that the workspace holds code: opening one may build it
  const source = typeof code === 'function' ? await code() : code;
  const [lock, checks, release] = await Promise.all([lockfileOf(workspace), detectedChecks(workspace, policy.capeFolder), versionTags(workspace)]);
  // each file read, and what the parts parse of it parsed, once for all the renders (up to three for each set of parts)
  const walk = walkFiles(policy, layout);
  const { read } = walk;
  const quotable = (file: string): Quotable[] => {
    const text = read(file);
    return text === null ? [] : [{ file, text }];
  };
  const readme = readmeOf(layout.rootFiles);
  const found: Found = {
    ...walk,
    lock,
    checks,
    release,
    code: source ? codeLines(source.index, source.query, read) : null,
    readme: readme ? (quotable(readme)[0] ?? null) : null,
    guidance: GUIDANCE_FILES.flatMap(quotable),
  };
  const some: Record<string, string> = {};
  const facts: WorkspaceFacts = { ...fittedFacts(found, FACT_PARTS), some };
  for (const set of sets) {
    const key = setKey(set);
    if (key === ALL_PARTS || some[key] !== undefined) continue;
    const { text, files, listed } = fittedFacts(found, inPartsOrder(set));
    some[key] = text;
    facts.files.push(...files.filter((f) => !facts.files.includes(f)));
    facts.listed.push(...listed.filter((l) => !facts.listed.includes(l)));
  }
  return facts;
}

/**
 * The facts of `parts` with every bound at their scale (partsScale) times the largest of ROOMIER_SCALES at which they
 * fit whole, no part cut or left out for the total's sake; else at their scale, within WORKSPACE_FACTS_MAX_CHARS.
 */
function fittedFacts(found: Found, parts: readonly FactPart[]): RenderedFacts {
  const scale = partsScale(parts);
  for (const roomier of ROOMIER_SCALES) {
    const facts = renderFacts(found, parts, { scale: scale * roomier }, Infinity);
    if (facts.text.length <= WORKSPACE_FACTS_MAX_CHARS) return facts;
  }
  return renderFacts(found, parts, { scale }, WORKSPACE_FACTS_MAX_CHARS);
}

/** The facts of `parts` from what was found, every bound at the scale of `bounds`, within `total` characters. */
function renderFacts(found: Found, parts: readonly FactPart[], bounds: FactBounds, total: number): RenderedFacts {
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
    facts.files.push(...from.files);
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
  if (takes('code') && found.code) add(codePart(found.code, from, within(PART_CHARS.code)), 'the code map', from);
  from = noSources();
  if (takes('style')) add(stylePart(found, from, within(PART_CHARS.style), bounds), 'the style sources', from);
  const { readme } = found;
  if (takes('readme') && readme) addQuoted(readme.file, 'its opening', readmeOpening(readme.text, scaled(PART_CHARS.readme, bounds)), PART_CHARS.readme);
  for (const { file, text } of takes('guidance') ? found.guidance : []) addQuoted(file, 'its head', text, PART_CHARS.guidance);
  if (leftOut.length) texts.push(`[left out for room: ${itemsWithin(leftOut, LEFT_OUT_CHARS - 30)}]`);
  facts.text = texts.join('\n\n');
  return facts;
}

/**
 * The facts a project file is written from: all of them (`only` absent or naming every part), or those of the parts it
 * names, read for them (readWorkspaceFacts's `sets`; '' when the workspace showed none of those). Each ends with the
 * line naming what was left out for room, if any.
 */
export function factsText(facts: WorkspaceFacts, only: readonly FactPart[] = FACT_PARTS): string {
  const key = setKey(only);
  const text = key === ALL_PARTS ? facts.text : facts.some[key];
  if (text === undefined) throw new Error(`the workspace facts were not read for the parts ${inPartsOrder(only).join(', ')}`);
  return text;
}

/**
 * One line for the person who runs init: what the facts were read from, that nothing was run, and what was sent — the
 * most one request carried (all the parts, or a set of them grown into the others' room: partsScale, which can be
 * the larger), with the `requests` that carried them or some of their parts (init.ts's InitResult.factsRequests).
 */
export function describeFacts(facts: WorkspaceFacts, requests: number): string {
  const most = Math.max(facts.text.length, ...Object.values(facts.some).map((t) => t.length)).toLocaleString('en-US');
  const sent = requests === 1 ? `up to ${most} characters, sent with 1 request` : `up to ${most} characters a request, sent with ${requests} requests, each file's with the parts it is written from`;
  return `read from the workspace (nothing run; ${sent}): ${[...facts.files, ...facts.listed].join(', ')}`;
}
