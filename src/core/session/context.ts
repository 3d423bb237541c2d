// Need-to-know context: what each step's prompt contains, decided in ONE place (CONTEXT_MATRIX).
//
// The original CAPE CLI handed every downstream agent the full raw text of every upstream reply, gave the
// retrospective DevA's entire file contents and sent CM the whole kpt_merged.md. Here each agent receives only what
// its role needs: its own domain's project files whole (up to WHOLE_DOMAIN_LIMIT), the upstream work it builds on. What
// stays the same across sessions (preamble, role prompt, project files) comes first under 1-hour cache marks, so a
// session reads it from the cache the previous one wrote; per-session parts follow (buildStepContext).
//
// Every builder also reports two sizes so the runner (CR metric) and the benchmark can compare:
//  - passedChars:   the characters we actually send (system + user message)
//  - baselineChars: what the original CLI's way of building context would have sent for the same step
//                   (same preamble, role prompt and role assets, plus every upstream raw reply — DevA's raw reply
//                   including its file bodies for the retro — and the whole kpt_merged.md for the CM opening).
//
// Files: ./matrix.ts holds the matrix, ./sources.ts renders each source, ./outputs.ts cuts agents' outputs down (pickKeys, the retrospective's
// digest), ./packing.ts and ./clip.ts fit text into budgets.

import type { Envelope, FeedbackRecord, LlmRequest, ProposedFile, StepId, SystemBlock, ToolCallRecord } from '../model/types';
import type { ContextStep, RankQuery } from '../workspace';
import type { ChecksOutcome } from '../checks';
import type { ToolBounds } from '../tools/specs';
import type { DorAnswer } from './dorQuestions';
import { renderStepSource } from './sources';
import { CONTEXT_MATRIX, type ContextSource } from './matrix';

export { minifyMarkdown, packAssets } from './packing';
export { compact, markdownParts, pickKeys, RETRO_OUTLINE_BUDGET, retroAgentDigest } from './outputs';
export { renderSources } from './sources';
export { roleSection, TEAM_PART_BUDGET, WHOLE_DOMAIN_LIMIT } from './assetSources';

export { CONTEXT_MATRIX, domainFolderReaders, type ContextSource } from './matrix';

/** Everything a context builder may draw from. Each step only reads the sources its matrix row lists. */
export interface ContextInputs {
  taskId: string;
  objective: string;
  language: string;
  preamble: string;
  /** Rendered role prompt for the step. */
  rolePrompt: string;
  /** Asset text by cape-relative path (frontmatter stripped), e.g. '1_product/1_mvv.md'. */
  assets: Map<string, string>;
  kptDigest: string;
  /** The whole kpt_merged.md (baseline figure only — never sent). */
  kptFull: string;
  /**
   * The workspace section for DevA (best files whole, excerpts of large ones, then map lines) and DA (a map of UI
   * files), ranked for the step's work within its budget (core/workspace/pack.ts); absent when the workspace could
   * not be indexed.
   */
  workspace?: (step: ContextStep, query: RankQuery) => string;
  /** The step's tool bounds, when it has tools: its workspace section states them (tools/specs.ts toolBoundsText). */
  toolBounds?: ToolBounds;
  /** Envelopes of completed upstream steps. */
  envelopes: Partial<Record<StepId, Envelope>>;
  /** Raw replies of completed upstream steps (baseline figure only). */
  raws: Partial<Record<StepId, string>>;
  /** Tool calls of completed upstream steps: DevA's workspace section builds on the files DA read. */
  toolCalls?: Partial<Record<StepId, readonly ToolCallRecord[]>>;
  devaFiles: ProposedFile[];
  devaSummary: string | null;
  /** The checks on DevA's proposal (the retrospective gets their results, never their output). */
  checks?: ChecksOutcome;
  /** Whether a file DevA named exists (proposed, or in the workspace): the retrospective's criteria carry the checks' verdict. */
  fileExists?: (rel: string) => boolean;
  /** The check commands that will run on DevA's proposal (DevA is told them up front); none when no checks run. */
  plannedChecks?: readonly string[];
  /** Fail-first runs after the checks (ChecksConfig.failFirst): DevA's test files alone on the unchanged workspace. */
  plannedFailFirst?: boolean;
  /** The project's checks found but not run in this session (DevA and the retrospective are told). */
  checksNotRun?: readonly string[];
  /** A second CM opening: the first one's blocking questions and the user's answers (session/dorQuestions.ts). */
  dorAnswers?: readonly DorAnswer[];
  /** DevA → DA → DevA rounds of this session (session/blockers.ts): the retro sees what was asked and answered. */
  feedback?: readonly Pick<FeedbackRecord, 'from' | 'to' | 'questions' | 'answerText'>[];
  /** Overrides WHOLE_DOMAIN_LIMIT (characters of the role's cape/ project files sent whole, else packed into it). */
  assetBudget?: Partial<Record<StepId, number>>;
}

export interface BuiltContext {
  system: SystemBlock[];
  user: string;
  sources: readonly ContextSource[];
  passedChars: number;
  baselineChars: number;
}

/**
 * Sources that are the same in every session until the project's files change. They go in the system prompt right
 * after the role prompt, under one 1-hour cache mark, so a session reads them from the cache the previous one wrote;
 * everything that changes per session or step comes after them, in the user message.
 */
const STABLE_SOURCES: ReadonlySet<ContextSource> = new Set<ContextSource>([
  'cape:files',
  'team:dor',
  'team:dod',
  'team:process',
  'assets:1_product',
  'assets:2_design',
  'assets:3_development',
]);

/** The heading of the stable system block. */
export const STABLE_CONTEXT_HEADING = '# Team and project context';

/**
 * Builds the request for one step from the need-to-know matrix. Cache layout (the API caches prefixes: tools, then
 * system, then messages): the shared preamble, the role prompt, then the step's stable sources, each ending a 1-hour
 * cache mark (the client drops a mark below the model's minimum cacheable prefix); the per-session and per-step parts
 * (task id, objective, upstream work, KPT digest, workspace) follow in the user message.
 */
export function buildStepContext(step: StepId, inputs: ContextInputs): BuiltContext {
  const sources = CONTEXT_MATRIX[step];
  const stable: string[] = [];
  const perStep: string[] = [`Task: ${inputs.taskId}\nSession language: ${inputs.language}`];
  for (const s of sources) {
    // domain files too big to send whole are packed for this step's work: not session-independent then
    const { text, whole } = renderStepSource(s, step, inputs);
    if (text) (STABLE_SOURCES.has(s) && whole ? stable : perStep).push(text);
  }
  const body = perStep.join('\n\n');
  const system: SystemBlock[] = [
    { text: inputs.preamble, cache: '1h' },
    { text: inputs.rolePrompt, cache: '1h' },
    ...(stable.length ? [{ text: `${STABLE_CONTEXT_HEADING}\n\n${stable.join('\n\n')}`, cache: '1h' as const }] : []),
  ];
  const passedChars = system.reduce((n, b) => n + b.text.length, 0) + body.length;
  return { system, user: body, sources, passedChars, baselineChars: baselineChars(step, inputs) };
}

/** What the original CLI's way of building context would send for this step (for CR and the benchmark). */
export function baselineChars(step: StepId, inputs: ContextInputs): number {
  const fixed = inputs.preamble.length + inputs.rolePrompt.length + inputs.objective.length;
  let assets = 0;
  const folders: Record<StepId, string[]> = {
    cm_open: ['0_team', '4_orchestration'],
    poa: ['0_team', '1_product'],
    da: ['0_team', '2_design'],
    deva: ['0_team', '3_development'],
    cm_retro: ['0_team', '4_orchestration'],
  };
  for (const [rel, text] of inputs.assets) if (folders[step].some((f) => rel.startsWith(f + '/'))) assets += text.length;
  const order: StepId[] = ['cm_open', 'poa', 'da', 'deva'];
  const upstream = order.slice(0, order.indexOf(step) === -1 ? order.length : order.indexOf(step));
  const raws = upstream.reduce((n, s) => n + (inputs.raws[s]?.length ?? 0), 0);
  const kpt = step === 'cm_open' ? inputs.kptFull.length : 0;
  return fixed + assets + raws + kpt;
}

/** The LLM request for a step (messages: one user turn; a repair adds the bad reply and the repair request). */
export function toRequest(ctx: BuiltContext, model: string, maxTokens: number, signal?: AbortSignal): LlmRequest {
  return { model, maxTokens, system: ctx.system, messages: [{ role: 'user', content: ctx.user }], signal };
}
