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

import type { CmOpeningOutput, Envelope, FeedbackRecord, LlmRequest, ProposedFile, StepId, SystemBlock, WorkerAgent } from '../model/types';
import { STEP_AGENT, isPlainObject as isObject } from '../model/types';
import { GENERIC_CAPE_FILES, INPUT_CAPE_FILES } from '../cape/assets';
import { boundedList, clip, minifyMarkdown, packAssets, splitSections } from './packing';
import { acceptanceCriteria, namedTests, type Criterion } from '../metrics/tsr';

export { minifyMarkdown, packAssets } from './packing';
import type { ContextStep, RankQuery } from '../workspace';
import { answersText, type DorAnswer } from './dorQuestions';
import { checksForRetro, type ChecksOutcome } from '../checks';

/** A context source a step may receive. */
export type ContextSource =
  | 'objective'
  | 'cape:files'
  | 'kptDigest'
  | 'user:answers'
  | 'team:dor'
  | 'team:dod'
  | 'team:process'
  | 'cm:brief'
  | 'cm:watchOuts'
  | 'cm:coachingNote'
  | 'cm:goAhead'
  | 'poa:acceptance'
  | 'poa:scope'
  | 'da:specs'
  | 'assets:1_product'
  | 'assets:2_design'
  | 'assets:3_development'
  | 'workspace:ranked'
  | 'workspace:ui'
  | 'retro:opening'
  | 'retro:envelopes'
  | 'retro:feedback'
  | 'retro:devaFiles'
  | 'retro:checks'
  | 'checks:planned'
  | 'retro:criteria';

/**
 * The need-to-know matrix. A source absent from a step's list is never sent to that step.
 * - The retro never receives file bodies (only DevA's file list and summary).
 * - CM receives a bounded KPT digest, never the whole history.
 */
export const CONTEXT_MATRIX: Record<StepId, readonly ContextSource[]> = {
  cm_open: ['objective', 'user:answers', 'cape:files', 'team:dor', 'team:process', 'kptDigest'],
  poa: ['objective', 'cm:brief', 'cm:coachingNote', 'cm:watchOuts', 'assets:1_product', 'team:dor', 'team:dod'],
  da: ['objective', 'cm:coachingNote', 'poa:acceptance', 'poa:scope', 'assets:2_design', 'workspace:ui', 'team:dor', 'team:dod'],
  deva: [
    'objective',
    'cm:coachingNote',
    'cm:goAhead',
    'poa:acceptance',
    'da:specs',
    'assets:3_development',
    'workspace:ranked',
    'checks:planned',
    'team:dor',
    'team:dod',
  ],
  cm_retro: ['objective', 'retro:opening', 'retro:envelopes', 'retro:feedback', 'retro:devaFiles', 'retro:checks', 'retro:criteria'],
};

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
   * The workspace section for DevA (best files whole, then map lines) and DA (a map of UI files), ranked for the
   * step's work within its budget (core/workspace/pack.ts); absent when the workspace could not be indexed.
   */
  workspace?: (step: ContextStep, query: RankQuery) => string;
  /** Envelopes of completed upstream steps. */
  envelopes: Partial<Record<StepId, Envelope>>;
  /** Raw replies of completed upstream steps (baseline figure only). */
  raws: Partial<Record<StepId, string>>;
  devaFiles: ProposedFile[];
  devaSummary: string | null;
  /** The checks on DevA's proposal (the retrospective gets their results, never their output). */
  checks?: ChecksOutcome;
  /** The check commands that will run on DevA's proposal (DevA is told them up front); none when no checks run. */
  plannedChecks?: readonly string[];
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

const ROLE_HEADINGS: Record<WorkerAgent, RegExp> = {
  POA: /\b(POA|product owner)\b/i,
  DA: /\b(DA|designer|design agent)\b/i,
  DevA: /\b(DevA|developer|development agent)\b/i,
};

/**
 * Pulls the sections of a markdown document whose heading names the role (with their subsections); the whole text when
 * none does. `#` lines inside code fences are not headings.
 */
export function roleSection(markdown: string, agent: WorkerAgent): string {
  const out: string[] = [];
  let level = 0;
  for (const s of splitSections(markdown)) {
    if (s.level === 0) continue;
    if (level && s.level <= level) level = 0;
    if (!level && ROLE_HEADINGS[agent].test(s.title)) level = s.level;
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

/** The role's domain files: whole (the same in every session, so cacheable) or, when too big, packed for this work. */
function assetsUnder(inputs: ContextInputs, folder: string, step: StepId): { text: string; whole: boolean } {
  const files: [string, string][] = [...inputs.assets.entries()]
    .filter(([rel, text]) => rel.startsWith(folder + '/') && !FRAMEWORK_FILES.has(rel) && text.trim())
    .sort(([a], [b]) => a.localeCompare(b));
  const budget = inputs.assetBudget?.[step] ?? WHOLE_DOMAIN_LIMIT;
  const whole = packAssets(files, Infinity, '');
  if (whole.length <= budget) return { text: whole, whole: true };
  return { text: packAssets(files, budget, relevanceQuery(step, inputs), ROLE_FOCUS[step]), whole: false };
}

const DOR_FILE = '0_team/3_dor.md';
const DOD_FILE = '0_team/4_dod.md';
const PROCESS_FILE = '4_orchestration/1_process.md';

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

/** What the workspace is ranked by: the objective, and the upstream work (POA's criteria and scope, DA's specs). */
function workspaceQuery(step: StepId, inputs: ContextInputs): RankQuery {
  const work = [compact(inputs.envelopes.poa?.output)];
  if (step === 'deva') work.push(compact(inputs.envelopes.da?.output));
  return { objective: inputs.objective, work: work.join('\n') };
}

function asset(inputs: ContextInputs, rel: string): string {
  return (inputs.assets.get(rel) ?? '').trim();
}

/** A team file (or the agent's part of it), within TEAM_PART_BUDGET. */
function teamPart(inputs: ContextInputs, rel: string, worker: WorkerAgent | null): string {
  const text = asset(inputs, rel);
  return clip(minifyMarkdown(worker ? roleSection(text, worker) : text), TEAM_PART_BUDGET, '\n[… cut to fit the context budget]');
}

/** Compact, stable serialisation of structured output (no indentation: the model does not need it). */
export function compact(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

type Json = Record<string, unknown>;

/** Selects top-level keys of a free-form output object whose names match; falls back to the whole object. */
export function pickKeys(output: unknown, include: RegExp, exclude?: RegExp): unknown {
  if (!isObject(output)) return output;
  const picked: Json = {};
  for (const [k, v] of Object.entries(output)) {
    if (include.test(k) && !(exclude && exclude.test(k))) picked[k] = v;
  }
  return Object.keys(picked).length ? picked : output;
}

// POA's output keys vary between runs (and languages); these patterns pick the acceptance criteria / scope parts.
const POA_ACCEPTANCE = /accept|criteria|stor(y|ies)|given|\bac\b|受け入れ|ストーリー|基準/i;
const POA_SCOPE = /scope|exclu|moscow|priorit|open_question|question|constraint|スコープ|除外|優先|持ち越し|質問|制約/i;
// DA's rationale/summary prose is for the retro; DevA gets the specifications and handoff notes.
const DA_NOT_FOR_DEVA = /rationale|philosophy|assessment|summary|approach|理由|方針|サマリー|根拠/i;

const OPEN_QUESTIONS = /question|質問|未解決/i;
const DEPARTURES = /departure|deviation|逸脱|相違/i;
const IDENTIFYING = ['id', 'name', 'decision', 'story', 'path', 'title', 'component', 'priority', 'action'];

function listOf(v: unknown): unknown[] {
  return Array.isArray(v) ? v : v === undefined || v === null || v === '' ? [] : [v];
}

/** A short outline of an output value: strings clipped at a sentence end, list items reduced to what names them. */
function outline(v: unknown, depth = 0): unknown {
  if (typeof v === 'string') return clip(v, 240);
  if (!v || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const items = v.slice(0, 12).map((item) => {
      if (!isObject(item)) return outline(item, depth + 1);
      const named: Json = {};
      for (const k of IDENTIFYING) if (typeof item[k] === 'string') named[k] = clip(item[k] as string, 160);
      for (const [k, sub] of Object.entries(item)) {
        if (Array.isArray(sub) && sub.length && sub.every((x) => isObject(x) && typeof x.id === 'string')) named[k] = sub.map((x) => (x as Json).id);
      }
      return Object.keys(named).length ? named : clip(compact(item), 160);
    });
    return v.length > 12 ? [...items, `(${v.length - 12} more)`] : items;
  }
  if (depth >= 2) return clip(compact(v), 240);
  const out: Json = {};
  for (const [k, sub] of Object.entries(v)) out[k] = outline(sub, depth + 1);
  return out;
}

/** Characters of an agent's output outline in the retrospective request. */
export const RETRO_OUTLINE_BUDGET = 2000;

const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+/;

/**
 * A markdown output (the paper's `"output": "…"` string) as named parts, so the retrospective digest reads it like an
 * object output: one key per heading (the text before the first heading under "text"), a section that is only a list
 * becomes its items.
 */
export function markdownParts(markdown: string): Json {
  const parts: Json = {};
  for (const sec of splitSections(markdown)) {
    if (!sec.body) continue;
    const lines = sec.body.split(/\r?\n/).filter((l) => l.trim() !== '');
    const value = lines.every((l) => LIST_ITEM.test(l)) ? lines.map((l) => l.replace(LIST_ITEM, '').trim()) : sec.body;
    let key = sec.level === 0 ? 'text' : sec.title;
    for (let n = 2; key in parts; n++) key = `${sec.level === 0 ? 'text' : sec.title} (${n})`;
    parts[key] = value;
  }
  return parts;
}

/**
 * What the retrospective gets of one agent: its voice, an outline of its output (bounded), and — whole, each item cut
 * only at a sentence end when very long — its open questions, its departures from the specs or criteria and its
 * self-assessment. Never a prefix of the raw output. A markdown output is read section by section (markdownParts).
 */
export function retroAgentDigest(env: Envelope): Json {
  const output = typeof env.output === 'string' ? markdownParts(env.output) : isObject(env.output) ? env.output : {};
  const questions: unknown[] = [];
  const departures: unknown[] = [];
  const rest: Json = {};
  for (const [k, v] of Object.entries(output)) {
    if (OPEN_QUESTIONS.test(k)) questions.push(...listOf(v));
    else if (DEPARTURES.test(k)) departures.push(...listOf(v));
    // DevA's criterion → test map reaches the retrospective whole in its own section ('retro:criteria').
    else if (k !== 'criteria_tests') rest[k] = v;
  }
  let delivered = outline(rest);
  if (compact(delivered).length > RETRO_OUTLINE_BUDGET) {
    const short: Json = {};
    const entries = Object.entries(rest);
    let used = 2;
    for (const [i, [k, v]] of entries.entries()) {
      const value = Array.isArray(v) ? `${v.length} item(s)` : clip(compact(v), 160);
      used += JSON.stringify(k).length + JSON.stringify(value).length + 2;
      // Many parts (a long markdown output has one per heading): name how many more rather than exceed the budget.
      if (used > RETRO_OUTLINE_BUDGET - 40) {
        short['…'] = `${entries.length - i} more part(s)`;
        break;
      }
      short[k] = value;
    }
    delivered = short;
  }
  return {
    voice: clip(env.voice, 800),
    delivered,
    open_questions: boundedList(questions, 2500),
    departures: boundedList(departures, 2000),
    references: boundedList(env.references, 800, 160),
    confidence: env.confidence,
    ass: env.ass
      ? { ...env.ass, positive: clip(env.ass.positive ?? '', 800), improvement: clip(env.ass.improvement ?? '', 800) }
      : null,
  };
}

function cmOpening(inputs: ContextInputs): CmOpeningOutput | null {
  const env = inputs.envelopes.cm_open;
  return env && isObject(env.output) ? (env.output as unknown as CmOpeningOutput) : null;
}

function section(title: string, body: string): string {
  return body.trim() ? `## ${title}\n${body.trim()}` : '';
}

function renderSource(source: ContextSource, step: StepId, inputs: ContextInputs): string {
  const agent = STEP_AGENT[step];
  const worker = (agent === 'CM' ? null : agent) as WorkerAgent | null;
  const opening = cmOpening(inputs);
  switch (source) {
    case 'objective':
      return section('Objective', inputs.objective);
    case 'cape:files': {
      // What the DoR item "the files needed exist in cape/" is checked against.
      const present = INPUT_CAPE_FILES.filter((rel) => inputs.assets.get(rel)?.trim());
      const missing = INPUT_CAPE_FILES.filter((rel) => !inputs.assets.get(rel)?.trim());
      return section(
        'Project files in cape/',
        `Present: ${present.map((r) => `cape/${r}`).join(', ') || '(none)'}\nMissing or empty: ${missing.map((r) => `cape/${r}`).join(', ') || '(none)'}`,
      );
    }
    case 'user:answers':
      return inputs.dorAnswers?.length ? section("Your blocking questions and the user's answers", answersText([...inputs.dorAnswers])) : '';
    case 'kptDigest':
      return section('KPT history digest (from earlier sessions)', inputs.kptDigest || '(no earlier sessions)');
    case 'team:dor':
      return section(`Definition of Ready (cape/${DOR_FILE}${worker ? `, ${worker} items` : ''})`, teamPart(inputs, DOR_FILE, worker));
    case 'team:dod':
      return section(`Definition of Done (cape/${DOD_FILE}${worker ? `, ${worker} items` : ''})`, teamPart(inputs, DOD_FILE, worker));
    case 'team:process':
      return section(`Session process (cape/${PROCESS_FILE})`, teamPart(inputs, PROCESS_FILE, null));
    case 'cm:brief':
      return opening
        ? section(
            'Cape Master brief',
            `${opening.session_brief}\n\nDefinition of Ready: ${opening.dor_check?.passed ? 'passed' : 'concerns'}` +
              (opening.dor_check?.concerns?.length ? '\n' + opening.dor_check.concerns.map((c) => `- ${c}`).join('\n') : ''),
          )
        : '';
    case 'cm:watchOuts':
      return opening?.watch_out?.length ? section('Watch out', opening.watch_out.map((w) => `- ${w}`).join('\n')) : '';
    case 'cm:coachingNote':
      return worker && opening?.coaching_notes?.[worker]
        ? section(`Cape Master's coaching note for you (${worker})`, opening.coaching_notes[worker])
        : '';
    case 'cm:goAhead': {
      const g = opening?.go_ahead;
      if (!g || (!g.pre_approved.length && !g.needs_approval.length)) return '';
      const list = (items: string[]) => (items.length ? items.map((i) => `- ${i}`).join('\n') : '- (none named)');
      return section(
        "Cape Master's go-ahead",
        `Pre-approved (make these without asking):\n${list(g.pre_approved)}\n\nNeeds the human's approval (deliver as proposals, name them in open_questions):\n${list(g.needs_approval)}`,
      );
    }
    case 'poa:acceptance': {
      const out = inputs.envelopes.poa?.output;
      return out === undefined ? '' : section("POA's acceptance criteria", compact(pickKeys(out, POA_ACCEPTANCE)));
    }
    case 'poa:scope': {
      const out = inputs.envelopes.poa?.output;
      if (out === undefined) return '';
      const scope = pickKeys(out, POA_SCOPE);
      // pickKeys falls back to the whole object; do not send it twice next to the acceptance criteria.
      return scope === out ? '' : section("POA's scope and priorities", compact(scope));
    }
    case 'da:specs': {
      const out = inputs.envelopes.da?.output;
      if (!isObject(out)) return out === undefined ? '' : section("DA's design specifications", compact(out));
      const specs: Json = {};
      for (const [k, v] of Object.entries(out)) if (!DA_NOT_FOR_DEVA.test(k)) specs[k] = v;
      return section("DA's design specifications", compact(Object.keys(specs).length ? specs : out));
    }
    case 'assets:1_product':
      return section('Product context (cape/1_product)', assetsUnder(inputs, '1_product', step).text);
    case 'assets:2_design':
      return section('Design context (cape/2_design)', assetsUnder(inputs, '2_design', step).text);
    case 'assets:3_development':
      return section('Development context (cape/3_development)', assetsUnder(inputs, '3_development', step).text);
    case 'workspace:ranked':
      return section('Workspace (existing files, ranked for this work)', inputs.workspace?.('deva', workspaceQuery(step, inputs)) || '(none: the workspace has no files outside cape/ yet)');
    case 'workspace:ui':
      return section('Workspace UI files (existing components and styles)', inputs.workspace?.('da', workspaceQuery(step, inputs)) ?? '');
    case 'retro:opening':
      return opening
        ? section(
            'Your opening (Cape Master)',
            compact({
              session_brief: opening.session_brief,
              dor_check: opening.dor_check,
              watch_out: opening.watch_out,
              coaching_notes: opening.coaching_notes,
              go_ahead: opening.go_ahead,
            }),
          )
        : '';
    case 'retro:envelopes': {
      const parts: string[] = [];
      for (const s of ['poa', 'da', 'deva'] as const) {
        const env = inputs.envelopes[s];
        if (env) parts.push(`### ${env.agent}\n` + compact(retroAgentDigest(env)));
      }
      return section(
        'What each agent delivered (voice, an outline of its output, its open questions and departures, its self-assessment)',
        parts.join('\n\n'),
      );
    }
    case 'retro:feedback': {
      const rounds = inputs.feedback ?? [];
      return section(
        'Questions DevA asked during its step, and the answers it built on',
        rounds
          .map((f) => `${f.from} asked ${f.to}:\n${f.questions.map((q) => `- ${clip(q, 600)}`).join('\n')}\n${f.to} answered: ${f.answerText ? clip(f.answerText, 1500) : '(no usable answer: DevA decided alone)'}`)
          .join('\n\n'),
      );
    }
    case 'retro:devaFiles': {
      if (!inputs.devaFiles.length && !inputs.devaSummary) return '';
      const list = inputs.devaFiles
        .map((f) => `- ${f.relPath ?? f.path} (${f.action}${f.status === 'refused' ? `, refused: ${f.reason}` : ''})`)
        .join('\n');
      return section("DevA's files (list and summary only)", `${list}\n\n${inputs.devaSummary ?? ''}`);
    }
    case 'checks:planned': {
      const commands = (inputs.plannedChecks ?? []).map((c) => (c.includes('`') ? c : `\`${c}\``));
      return commands.length
        ? section('Checks on your proposal', `After your reply CAPE runs ${commands.join(', ')} on a scratch copy of the workspace with your files applied; a failing check comes back to you with its output to fix.`)
        : '';
    }
    case 'retro:checks':
      return inputs.checks && inputs.checks.commands.length ? section("The project's checks on DevA's proposal (results only)", checksForRetro(inputs.checks)) : '';
    case 'retro:criteria': {
      const criteria = acceptanceCriteria(inputs.envelopes.poa?.output);
      if (!criteria.length) return '';
      const tests = namedTests(inputs.envelopes.deva?.output);
      const line = (c: Criterion) => {
        const t = tests.get(c.id);
        return `- ${c.id}: ${clip(c.text, 400)} — DevA's test: ${t ? `${t.file}${t.name ? ` › ${t.name}` : ''}` : '(none named)'}`;
      };
      return section("POA's acceptance criteria, with the test DevA named for each", criteria.map(line).join('\n'));
    }
  }
}

/** Some sources rendered as `step` would receive them (for a request outside the five steps, e.g. a blocker). */
export function renderSources(step: StepId, sources: readonly ContextSource[], inputs: ContextInputs): string {
  return sources.map((s) => renderSource(s, step, inputs)).filter(Boolean).join('\n\n');
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

const ASSET_FOLDER: Partial<Record<ContextSource, string>> = {
  'assets:1_product': '1_product',
  'assets:2_design': '2_design',
  'assets:3_development': '3_development',
};

/** Whether a source's text for this step is session-independent (domain files too big to send whole are packed per work). */
function isStable(source: ContextSource, step: StepId, inputs: ContextInputs): boolean {
  if (!STABLE_SOURCES.has(source)) return false;
  const folder = ASSET_FOLDER[source];
  return !folder || assetsUnder(inputs, folder, step).whole;
}

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
    const text = renderSource(s, step, inputs);
    if (text) (isStable(s, step, inputs) ? stable : perStep).push(text);
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
