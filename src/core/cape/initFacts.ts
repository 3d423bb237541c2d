// Init's workspace facts: what an existing codebase states about itself, gathered without a model and without running
// any of its commands (git is asked, read-only, for the version tags), for init's requests (initRequests.ts) to write the project files from the code as it is rather than from
// assumptions. In this order, which is also their order of importance: each part is cut to its own bound and to the
// room the parts before it left of WORKSPACE_FACTS_MAX_CHARS, and a part that no longer fits is named at the end
// (initFactsRoom.ts, how the parts share the room).
// Facts well short of the max get more room: every bound is taken at the largest of ROOMIER_SCALES at which the whole
// still fits (initFactsText.ts's FactBounds), from the one walk, and the room the whole leaves goes to the code map
// where its bound cut its public signatures (initFactsRoom.ts withCodeRoom). A project file written from some parts only gets them
// rendered for itself, their bounds grown by the room the parts it does not take leave (partsScale).
//  1. the manifests (initFactsManifests.ts): the root's — package.json, pyproject.toml, Cargo.toml and go.mod as fact
//     lines (their names, dependencies, scripts, tools…), the others by their head; the lockfile and the package
//     manager it names (checks/detect.ts); the head of the monorepo and toolchain settings (pnpm-workspace.yaml,
//     go.work…); the latest version tags of the workspace's git repository, how far HEAD is past the latest and the
//     last minor and major release (initFactsRelease.ts from versionTags.ts: git is asked, read-only) — then a few
//     sub-projects' (the folders one and two levels down that hold one, the workspace members the root names first:
//     initSubprojects.ts), with smaller bounds, and a count of those left;
//  2. the check commands CAPE detects (initFactsChecks.ts: detect.ts's detectedChecks, as `--check auto`), named,
//     never run, and the sub-projects they leave out, then the root's task runners (Makefile, justfile, Taskfile.yml, tox.ini)
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
//  8. the status the documentation pages state — maintenance mode, deprecated, to be removed, experimental… — by their
//     sentences, the same on several pages once (initFactsStatus.ts): the project's policy;
//  9. the head of the project's guidance for contributors and coding agents (CLAUDE.md, AGENTS.md…).
// Every file is read through the read policy (workspace/policy.ts): a secret, an ignored, a binary or a linked file is
// never read. A workspace without code (no source file, no manifest) has no facts: init then works from the answers.
import { WorkspacePolicy } from '../workspace/policy';
import { workspaceLayout } from '../workspace/layout';
import { TreeWalk } from '../workspace/treeWalk';
import { isDocPage, MANIFEST_NAMES, readmeOf, SOURCE_FILE } from '../workspace/fileKinds';
import { detectedChecks, lockfileOf } from '../checks/detect';
import { FACT_PARTS, inPartsOrder, setKey, walkFiles, type FactPart } from './initFactsText';
import { ciServiceOf } from './initFactsCi';
import { isStyleSource } from './initFactsStyle';
import { codeLines } from './initFactsCode';
import { fittedFacts, type Found, type Quotable, type RenderedFacts } from './initFactsRoom';
import type { WorkspaceIndex } from '../workspace/workspaceIndex';
import { versionTags } from '../workspace/versionTags';

export { WORKSPACE_FACTS_MAX_CHARS } from './initFactsRoom';

/** The key of all the parts (setKey), whose facts are WorkspaceFacts's `text`. */
const ALL_PARTS = setKey(FACT_PARTS);

/** The project's own guidance for contributors and coding agents, in the order they are quoted. */
const GUIDANCE_FILES: readonly string[] = ['CLAUDE.md', 'AGENTS.md', '.github/copilot-instructions.md', '.cursorrules', 'CONTRIBUTING.md', '.github/CONTRIBUTING.md'];

/** All the parts' facts (`text`), and those of some parts only; `files` and `listed` name what any of them shows. */
export interface WorkspaceFacts extends RenderedFacts {
  /**
   * The facts of each set of parts a file is written from (readWorkspaceFacts's `sets`) but all, by setKey, rendered for
   * itself at its own scale (partsScale), '' when the workspace showed none of its parts; not a Map: `--json` shows it.
   */
  some: Readonly<Record<string, string>>;
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

/** The paths the walk keeps for the parts that name files it finds anywhere: CI configuration, style sources, documentation pages. */
const keptForParts = (rel: string): boolean => ciServiceOf(rel) !== null || isStyleSource(rel) || isDocPage(rel);

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
