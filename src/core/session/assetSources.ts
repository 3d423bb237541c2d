// The cape/ files as a step receives them (sources.ts renders the sections): a role's domain folder whole, or packed
// for the step's work when too big (assetsUnder, ranked by relevanceQuery with the role's always-needed sections,
// ROLE_FOCUS), and a team file's part for a role (teamPart: the DoR / DoD sections naming it, roleSection) within its
// budget, a fence it leaves open closed; and every folder's project files together (projectFiles), which the Cape
// Master's opening outlines and takes the objective's passages from.
import { GENERIC_CAPE_FILES } from '../cape/capeLayout';
import { STEP_AGENT, isPlainObject as isObject, type CmOpeningOutput, type StepId, type WorkerAgent } from '../model/types';
import type { ContextInputs } from './context';
import { domainFolderReaders, type ContextSource } from './matrix';
import { compact } from './outputs';
import { ROLE_MENTION } from '../reply/agentNames';
import { minifyMarkdown, packAssets, splitSections } from './packing';
import { clipMarkdown } from './clip';
import { withFenceClosed } from '../text';

/**
 * Pulls the sections of a markdown document whose heading names the role (ROLE_MENTION: "## DA (Designer agent)",
 * "## デザイナー"), with their subsections; the whole text when none does. `#` lines inside code fences are not headings.
 */
export function roleSection(markdown: string, agent: WorkerAgent): string {
  const out: string[] = [];
  let level = 0;
  for (const s of splitSections(markdown)) {
    if (s.level === 0) continue;
    if (level && s.level <= level) level = 0;
    if (!level && ROLE_MENTION[agent].test(s.title)) level = s.level;
    if (level) out.push(s.body ? `${s.headingLine}\n${s.body}` : s.headingLine);
  }
  return out.length ? out.join('\n\n').trim() : markdown.trim();
}

// The framework's role files (e.g. 1_product/0_role.md) repeat the role prompt: they would only take the project's room.
const FRAMEWORK_FILES = new Set<string>(GENERIC_CAPE_FILES);

/**
 * A role's own domain files (cape/1_product for POA, …) go in whole when they total at most this many characters
 * (as sent: minified, with their path lines). Beyond it they are packed into this budget, every file keeping its
 * opening section (packAssets).
 */
export const WHOLE_DOMAIN_LIMIT = 32_000;

/** The project's files of a cape/ domain folder (not the framework's role files, not empty ones), by path. */
export function domainFiles(inputs: ContextInputs, folder: string): [string, string][] {
  return [...inputs.assets.entries()]
    .filter(([rel, text]) => rel.startsWith(folder + '/') && !FRAMEWORK_FILES.has(rel) && text.trim())
    .sort(([a], [b]) => a.localeCompare(b));
}

/**
 * Every project file a role receives (each domain folder's, the expected ones and any the project added), by folder
 * and path, as `cape/<path>` → text: what the Cape Master's opening outlines and takes the objective's passages from.
 */
export function projectFiles(inputs: ContextInputs): [string, string][] {
  return [...domainFolderReaders().keys()]
    .sort()
    .flatMap((folder) => domainFiles(inputs, folder).map(([rel, text]): [string, string] => [`cape/${rel}`, text]));
}

/** The role's domain files: whole (the same in every session, so cacheable) or, when too big, packed for this work. */
export function assetsUnder(inputs: ContextInputs, folder: string, step: StepId): { text: string; whole: boolean } {
  const files = domainFiles(inputs, folder);
  const budget = inputs.assetBudget?.[step] ?? WHOLE_DOMAIN_LIMIT;
  const whole = packAssets(files, Infinity, '');
  if (whole.length <= budget) return { text: whole, whole: true };
  return { text: packAssets(files, budget, relevanceQuery(step, inputs), ROLE_FOCUS[step]), whole: false };
}

/** The domain folder each assets source sends, and its section's title. */
export const ASSET_SOURCES: Partial<Record<ContextSource, { folder: string; title: string }>> = {
  'assets:1_product': { folder: '1_product', title: 'Product context (cape/1_product)' },
  'assets:2_design': { folder: '2_design', title: 'Design context (cape/2_design)' },
  'assets:3_development': { folder: '3_development', title: 'Development context (cape/3_development)' },
};

/** Budget (characters) of each team part: the DoR / DoD lines and the session process. */
export const TEAM_PART_BUDGET = 4000;

/**
 * Sections each role always needs from its files whatever the objective, matched on their heading path (trials: DA
 * lost the colour palette and DevA the test runner to sections that merely shared words with the objective).
 */
const ROLE_FOCUS: Partial<Record<StepId, RegExp>> = {
  poa: /persona|user|goal|backlog|milestone|ペルソナ|ユーザー|目標|バックログ|マイルストーン/i,
  da: /colou?r|palette|typograph|font|accessib|contrast|色|カラー|フォント|アクセシビリティ/i,
  deva: /test|tooling|command|convention|structure|folder|テスト|ツール|コマンド|規約|構成/i,
};

/** What the step's work is about: used to rank asset sections when they do not all fit. */
function relevanceQuery(step: StepId, inputs: ContextInputs): string {
  const opening = cmOpening(inputs);
  const agent = STEP_AGENT[step];
  const parts = [inputs.objective, opening?.session_brief ?? ''];
  if (agent !== 'CM') parts.push(opening?.coaching_notes?.[agent as WorkerAgent] ?? '');
  if (step === 'da' || step === 'deva') parts.push(compact(inputs.envelopes.poa?.output));
  if (step === 'deva') parts.push(compact(inputs.envelopes.da?.output));
  return parts.join('\n');
}

export function asset(inputs: ContextInputs, rel: string): string {
  return (inputs.assets.get(rel) ?? '').trim();
}

/** A team file (or the agent's part of it), within TEAM_PART_BUDGET; a fence it leaves open is closed. */
export function teamPart(inputs: ContextInputs, rel: string, worker: WorkerAgent | null): string {
  const text = asset(inputs, rel);
  return clipMarkdown(withFenceClosed(minifyMarkdown(worker ? roleSection(text, worker) : text)), TEAM_PART_BUDGET);
}

export function cmOpening(inputs: ContextInputs): CmOpeningOutput | null {
  const env = inputs.envelopes.cm_open;
  return env && isObject(env.output) ? (env.output as unknown as CmOpeningOutput) : null;
}
