// Init's workspace facts: what an existing codebase states about itself, gathered without a model and without running
// anything, for init's requests (initRequests.ts) to write the project files from the code as it is rather than from
// assumptions. In this order, each part cut to its own bound and all of it to WORKSPACE_FACTS_MAX_CHARS:
//  1. the root's manifests: package.json's fields (initManifests.ts), the lockfile and the package manager it names
//     (checks/detect.ts), the head of the others and of the monorepo and toolchain settings (pyproject.toml, go.mod…);
//  2. the check commands CAPE detects (detect.ts's detectChecks, the one `--check auto` runs), named, never run;
//  3. the layout: the top-level folders and the packages of a monorepo with their source-file counts
//     (workspace/layout.ts: the index's walk under the read policy — no ignored, dependency, secret, .git/ or cape/
//     file is counted or named);
//  4. the opening paragraphs of the README;
//  5. the head of the project's guidance for contributors and coding agents (CLAUDE.md, AGENTS.md…).
// Every file is read through the read policy (workspace/policy.ts): a secret, an ignored, a binary or a linked file is
// never read. A workspace without code (no source file, no manifest) has no facts: init then works from the answers.
import { WorkspacePolicy } from '../workspace/policy';
import { workspaceLayout, type WorkspaceLayout } from '../workspace/layout';
import { detectChecks, lockfileOf } from '../checks/detect';
import { headOf, joinWithin, NOT_SHOWN_CHARS } from '../text/cut';
import { fenceFor } from '../text/markdown';
import { itemsWithin, packageJsonLines } from './initManifests';

/**
 * All the facts at most: about 3,000 tokens, sent with the decisions request and each file request that takes them —
 * every file of prompts/inputs.json, so ten requests and about 30,000 input tokens in all, which init spends once. An
 * init trial on tinyhttp at 6,000 cut its CLAUDE.md to a sixth and hid its lint and build scripts, so the files
 * assumed what the project states.
 */
export const WORKSPACE_FACTS_MAX_CHARS = 12000;

/** Each part's bound; what a part leaves unused goes to the guidance files, which come last. */
const MANIFESTS_CHARS = 2800;
/** package.json's lines at most, and each other manifest's head: a second manifest still finds room. */
const PACKAGE_JSON_CHARS = 2000;
const MANIFEST_HEAD_CHARS = 500;
const CHECKS_CHARS = 500;
const LAYOUT_CHARS = 1500;
const README_CHARS = 1200;
const GUIDANCE_FILE_CHARS = 3000;
/** A top folder's packages at most, their "… N more" included. */
const PACKAGES_CHARS = 400;

/** Root files besides the manifests that say how the project is built and checked: monorepo and toolchain settings. */
const SETTINGS_FILES: readonly string[] = ['pnpm-workspace.yaml', 'go.work', 'requirements.txt', 'tsconfig.json'];
/** The project's own guidance for contributors and coding agents, in the order they are quoted. */
const GUIDANCE_FILES: readonly string[] = ['CLAUDE.md', 'AGENTS.md', '.github/copilot-instructions.md', '.cursorrules', 'CONTRIBUTING.md', '.github/CONTRIBUTING.md'];
/** A README at the root, by its name (README.md preferred). */
const README_NAME = /^readme(?:\.(?:md|markdown|rst|txt|adoc))?$/i;

export interface WorkspaceFacts {
  /** The facts as the requests quote them: at most WORKSPACE_FACTS_MAX_CHARS characters. */
  text: string;
  /** The workspace files they quote or summarise, in the order they appear (the layout and check commands aside). */
  files: string[];
}

/** Lines joined within `max` characters, then a line counting those left out (`… 3 more folders`: joinWithin). */
const linesWithin = (lines: readonly string[], max: number, what = ''): string => joinWithin(lines, max, '\n', (n) => `\n- … ${n} more${what}`);

/** A file's text quoted under a heading in a fence it cannot close, cut (headOf) so the whole fits in `max`; null when too little room. */
function quoted(title: string, text: string, max: number): string | null {
  const body = text.trim();
  const fence = fenceFor(body);
  const head = `## ${title}\n${fence}\n`;
  const room = max - head.length - fence.length - 1 - NOT_SHOWN_CHARS;
  if (room < 120 || !body) return null;
  return `${head}${headOf(body, room)}\n${fence}`;
}

/** A README block without its images (inline or by reference), the links left empty by them, and its HTML tags. */
function withoutDecoration(block: string): string {
  return block
    .split('\n')
    .filter((line) => !/^\s*\[[^\]\n]*\]:/.test(line))
    .join('\n')
    .replace(/!\[[^\]]*\](?:\([^)]*\)|\[[^\]]*\])?/g, '')
    .replace(/\[\s*\](?:\([^)]*\)|\[[^\]]*\])?/g, '')
    .replace(/<[^<>]*>/g, '');
}

/**
 * The opening of a README: its first paragraphs (headings kept, badge, image and HTML lines dropped), three of prose
 * at most, ending with the one that reaches `max` characters (the caller cuts it to its room).
 */
export function readmeOpening(text: string, max: number): string {
  const decoration = /^\s*(?:\[!\[|!\[|<\/?[a-z!]|\[[^\]\n]*\]:)/i;
  const kept: string[] = [];
  let prose = 0;
  let size = 0;
  for (const block of text.replace(/\r\n?/g, '\n').split(/\n[ \t]*\n/)) {
    // a block of badges says nothing once its images, the links around them and its tags are gone — a badge's
    // text wrapped onto a line of its own ("Status][ci-img]][ci]") included
    if (!/[\p{L}\p{N}]/u.test(withoutDecoration(block))) continue;
    const lines = block
      .split('\n')
      .filter((l) => l.trim() && !decoration.test(l))
      .map((l) => l.trimEnd());
    if (!lines.length) continue;
    kept.push(lines.join('\n'));
    size += kept[kept.length - 1].length + 2;
    if (!/^#/.test(lines[0]) && ++prose >= 3) break;
    if (size >= max) break;
  }
  return kept.join('\n\n');
}

function manifestsPart(policy: WorkspacePolicy, layout: WorkspaceLayout, lock: { file: string; manager: string } | null, files: string[], max: number): string | null {
  const blocks: string[] = [];
  let room = max;
  const add = (block: string | null, file: string) => {
    if (!block || block.length + 2 > room) return;
    blocks.push(block);
    room -= block.length + 2;
    files.push(file);
  };
  for (const name of [...layout.rootManifests, ...SETTINGS_FILES]) {
    const read = policy.readSync(name);
    if (!read.ok) continue;
    if (name === 'package.json') {
      let lines: string[];
      try {
        lines = packageJsonLines(JSON.parse(read.text));
      } catch {
        lines = ['- (not valid JSON)'];
      }
      if (lock) lines.push(`- lockfile: ${lock.file} (${lock.manager})`);
      const head = '## package.json\n';
      add(head + linesWithin(lines, Math.min(PACKAGE_JSON_CHARS, room) - head.length), name);
    } else add(quoted(`${name} (its head)`, read.text, Math.min(MANIFEST_HEAD_CHARS, room - 2)), name);
  }
  if (lock && !files.includes('package.json')) add(`## Lockfile\n- ${lock.file} (${lock.manager})`, lock.file);
  return blocks.length ? blocks.join('\n\n') : null;
}

async function checksPart(workspace: string, max: number): Promise<string> {
  const checks = await detectChecks(workspace);
  const lines = checks.map((c) => `- \`${c.command}\`${c.reason ? ` (${c.reason})` : ''}`);
  const head = '## Check commands CAPE detects (named here, not run)\n';
  return head + (lines.length ? linesWithin(lines, max - head.length) : '- none recognised');
}

function layoutPart(layout: WorkspaceLayout, max: number): string {
  const lines = layout.folders.map((f) => {
    const name = f.path ? `${f.path}/` : '(files at the root)';
    const counts = `${f.source} source file${f.source === 1 ? '' : 's'}${f.source === f.files ? '' : ` (${f.files} in all)`}`;
    const packages = (layout.packages.get(f.path) ?? []).map((p) => `${p.path}/ ${p.source}`);
    return `- ${name} — ${counts}${packages.length ? `; packages (source files): ${itemsWithin(packages, PACKAGES_CHARS)}` : ''}`;
  });
  const head = `## Layout (${layout.source} source files; ignored, dependency and secret files not counted)\n`;
  return head + linesWithin(lines, max - head.length, ' folders');
}

/** Whether a workspace holds code: a source file, or a manifest at its root. The one test of it (facts, questionnaire). */
const holdsCode = (layout: WorkspaceLayout): boolean => layout.source > 0 || layout.rootManifests.length > 0;

/**
 * True when the workspace holds code, so that init reads facts from it and asks about the next release rather than a
 * first version (initAnswers.ts's initQuestions); false for one without code, or one that cannot be walked (then init
 * has no facts either). Names only: no file is read.
 */
export function workspaceHasCode(workspace: string, capeFolder?: string): boolean {
  const policy = new WorkspacePolicy(workspace, { capeFolder });
  try {
    return holdsCode(workspaceLayout(workspace, policy));
  } catch {
    return false;
  } finally {
    policy.forget();
  }
}

/**
 * The workspace facts (see the header), or null when the workspace holds no code. Reads only what the read policy
 * admits; runs nothing.
 */
export async function readWorkspaceFacts(workspace: string, capeFolder?: string): Promise<WorkspaceFacts | null> {
  // one policy for the walk and every read: the .gitignore files and secret rules parsed once, dropped at the end
  const policy = new WorkspacePolicy(workspace, { capeFolder });
  try {
    return await factsUnder(workspace, policy);
  } finally {
    policy.forget();
  }
}

/** readWorkspaceFacts's work, under the policy it made and forgets. */
async function factsUnder(workspace: string, policy: WorkspacePolicy): Promise<WorkspaceFacts | null> {
  const layout = workspaceLayout(workspace, policy);
  if (!holdsCode(layout)) return null;
  const files: string[] = [];
  const parts: string[] = [];
  let room = WORKSPACE_FACTS_MAX_CHARS;
  const add = (part: string | null) => {
    if (!part || part.length + 2 > room) return false;
    parts.push(part);
    room -= part.length + 2;
    return true;
  };
  add(manifestsPart(policy, layout, await lockfileOf(workspace), files, Math.min(MANIFESTS_CHARS, room)));
  add(await checksPart(workspace, Math.min(CHECKS_CHARS, room - 2)));
  add(layoutPart(layout, Math.min(LAYOUT_CHARS, room - 2)));
  const readme = layout.rootFiles
    .filter((n) => README_NAME.test(n))
    .sort((a, b) => Number(!/\.md$/i.test(a)) - Number(!/\.md$/i.test(b)) || (a < b ? -1 : 1))[0];
  const readmeText = readme ? policy.readSync(readme) : null;
  if (readme && readmeText?.ok && add(quoted(`${readme} (its opening)`, readmeOpening(readmeText.text, README_CHARS), Math.min(README_CHARS, room - 2)))) files.push(readme);
  for (const name of GUIDANCE_FILES) {
    const read = policy.readSync(name);
    if (read.ok && add(quoted(`${name} (its head)`, read.text, Math.min(GUIDANCE_FILE_CHARS, room - 2)))) files.push(name);
  }
  return { text: parts.join('\n\n'), files };
}

/**
 * One line for the person who runs init: what the facts were read from, that nothing was run, and what was sent — the
 * facts' size, with each of the `requests` that carried them (init.ts's InitResult.factsRequests).
 */
export function describeFacts(facts: WorkspaceFacts, requests: number): string {
  const from = [...facts.files, 'the folder layout', 'the detected check commands'];
  const sent = requests === 1 ? 'with 1 request' : `with each of ${requests} requests`;
  return `read from the workspace (nothing run; ${facts.text.length.toLocaleString('en-US')} characters sent ${sent}): ${from.join(', ')}`;
}
