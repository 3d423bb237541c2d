// Need-to-know context: what each step's prompt contains, decided in ONE place (CONTEXT_MATRIX).
//
// The original CAPE CLI handed every downstream agent the full raw text of every upstream reply, gave the
// retrospective DevA's entire file contents and sent CM the whole kpt_merged.md. Here each agent receives only what
// its role needs, and the shared preamble goes first as a cacheable system block so repeated calls hit the cache.
//
// Every builder also reports two sizes so the runner (CR metric) and the benchmark can compare:
//  - passedChars:   the characters we actually send (system + user message)
//  - baselineChars: what the original CLI's way of building context would have sent for the same step
//                   (same preamble, role prompt and role assets, plus every upstream raw reply — DevA's raw reply
//                   including its file bodies for the retro — and the whole kpt_merged.md for the CM opening).

import type { CmOpeningOutput, Envelope, LlmRequest, ProposedFile, StepId, SystemBlock, WorkerAgent } from '../model/types';
import { STEP_AGENT, isPlainObject as isObject } from '../model/types';

/** A context source a step may receive. */
export type ContextSource =
  | 'objective'
  | 'kptDigest'
  | 'team:dor'
  | 'team:dod'
  | 'team:process'
  | 'cm:brief'
  | 'cm:watchOuts'
  | 'cm:coachingNote'
  | 'poa:acceptance'
  | 'poa:scope'
  | 'da:specs'
  | 'assets:1_product'
  | 'assets:2_design'
  | 'assets:3_development'
  | 'workspace:tree'
  | 'retro:opening'
  | 'retro:envelopes'
  | 'retro:devaFiles';

/**
 * The need-to-know matrix. A source absent from a step's list is never sent to that step.
 * - The retro never receives file bodies (only DevA's file list and summary).
 * - CM receives a bounded KPT digest, never the whole history.
 */
export const CONTEXT_MATRIX: Record<StepId, readonly ContextSource[]> = {
  cm_open: ['objective', 'team:dor', 'team:process', 'kptDigest'],
  poa: ['objective', 'cm:brief', 'cm:coachingNote', 'cm:watchOuts', 'assets:1_product', 'team:dor', 'team:dod'],
  da: ['objective', 'cm:coachingNote', 'poa:acceptance', 'poa:scope', 'assets:2_design', 'team:dor', 'team:dod'],
  deva: [
    'objective',
    'cm:coachingNote',
    'poa:acceptance',
    'da:specs',
    'assets:3_development',
    'workspace:tree',
    'team:dor',
    'team:dod',
  ],
  cm_retro: ['objective', 'retro:opening', 'retro:envelopes', 'retro:devaFiles'],
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
  /** Workspace file listing (bounded) for DevA. */
  workspaceTree: string;
  /** Envelopes of completed upstream steps. */
  envelopes: Partial<Record<StepId, Envelope>>;
  /** Raw replies of completed upstream steps (baseline figure only). */
  raws: Partial<Record<StepId, string>>;
  devaFiles: ProposedFile[];
  devaSummary: string | null;
  /** Overrides DEFAULT_ASSET_BUDGET (characters of cape/ project files per step). */
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

/** Pulls the section of a markdown document whose heading names the role; the whole text when none does. */
export function roleSection(markdown: string, agent: WorkerAgent): string {
  const lines = markdown.split(/\r?\n/);
  const out: string[] = [];
  let level = 0;
  for (const line of lines) {
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    if (h) {
      if (level && h[1].length <= level) level = 0;
      if (!level && ROLE_HEADINGS[agent].test(h[2])) level = h[1].length;
    }
    if (level) out.push(line);
  }
  return out.length ? out.join('\n').trim() : markdown.trim();
}

function assetsUnder(inputs: ContextInputs, folder: string, step: StepId): string {
  const files: [string, string][] = [...inputs.assets.entries()]
    .filter(([rel, text]) => rel.startsWith(folder + '/') && text.trim())
    .sort(([a], [b]) => a.localeCompare(b));
  const budget = inputs.assetBudget?.[step] ?? DEFAULT_ASSET_BUDGET[step] ?? Infinity;
  return packAssets(files, budget, relevanceQuery(step, inputs));
}

/**
 * Per-step budget (characters) for the project's own cape/ files. Within it, whole files go in when they fit;
 * otherwise the sections most related to the session's work are kept (see packAssets) and the rest are named so the
 * agent knows they exist and can ask for them in open_questions.
 */
export const DEFAULT_ASSET_BUDGET: Partial<Record<StepId, number>> = { poa: 12000, da: 8000, deva: 15000 };

interface AssetChunk {
  file: string;
  heading: string;
  text: string;
  order: number;
  score: number;
}

/** Light markdown minification that changes no meaning: trailing spaces, rules, runs of blank lines, table padding. */
export function minifyMarkdown(text: string): string {
  return text
    .replace(/[ \t]+$/gm, '')
    .replace(/^(-{3,}|\*{3,}|_{3,})$/gm, '')
    .replace(/^(\|.*\|)$/gm, (row) => row.replace(/ {2,}/g, ' ').replace(/\|\s*:?-{3,}:?\s*(?=\|)/g, '|---'))
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function chunkMarkdown(file: string, text: string, start: number): AssetChunk[] {
  const chunks: AssetChunk[] = [];
  let heading = '';
  let buf: string[] = [];
  let fence = false;
  const flush = () => {
    const body = buf.join('\n').trim();
    if (body) chunks.push({ file, heading, text: body, order: start + chunks.length, score: 0 });
    buf = [];
  };
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const h = !fence && /^(#{1,4})\s+(.+)$/.exec(line);
    if (h) {
      flush();
      heading = h[2].trim();
    }
    buf.push(line);
  }
  flush();
  return chunks;
}

function bigramSet(text: string): Set<string> {
  const t = text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ');
  const out = new Set<string>();
  for (let i = 0; i + 1 < t.length; i++) {
    const g = t.slice(i, i + 2);
    if (!/^[\s\p{P}\p{S}]+$/u.test(g)) out.add(g);
  }
  return out;
}

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

/**
 * Packs the files into the budget. Each file keeps its title and opening section; the remaining sections are ranked by
 * how many character bigrams they share with the step's work (objective, brief, upstream outputs; bigrams work for
 * Japanese as well as English), normalised by the square root of their size so long sections do not win by bulk.
 * Kept sections stay in document order; omitted ones are listed by heading.
 */
export function packAssets(files: [string, string][], budget: number, query: string): string {
  const minified = files.map(([rel, text]) => [rel, minifyMarkdown(text)] as [string, string]);
  const whole = minified.map(([rel, text]) => `### cape/${rel}\n${text}`).join('\n\n');
  if (whole.length <= budget) return whole;

  const q = bigramSet(query);
  const perFile = minified.map(([rel, text], i) => chunkMarkdown(rel, text, i * 10000));
  const keep = new Set<AssetChunk>();
  let used = 0;
  for (const chunks of perFile) {
    if (!chunks.length) continue;
    keep.add(chunks[0]);
    used += chunks[0].text.length + 40;
  }
  const rest = perFile.flatMap((c) => c.slice(1));
  for (const c of rest) {
    const b = bigramSet(c.heading + '\n' + c.text);
    let shared = 0;
    for (const g of b) if (q.has(g)) shared++;
    c.score = b.size ? shared / Math.sqrt(b.size) : 0;
  }
  rest.sort((a, b) => b.score - a.score || a.order - b.order);
  for (const c of rest) {
    if (used + c.text.length + 2 > budget) continue;
    keep.add(c);
    used += c.text.length + 2;
  }
  return perFile
    .filter((chunks) => chunks.length)
    .map((chunks) => {
      const kept = chunks.filter((c) => keep.has(c));
      const omitted = chunks.filter((c) => !keep.has(c)).map((c) => c.heading || '(untitled)');
      const note = omitted.length ? `\n(Sections left out to keep the context small — ask in open_questions if you need one: ${omitted.join('; ')})` : '';
      return `### cape/${chunks[0].file}\n${kept.map((c) => c.text).join('\n\n')}${note}`;
    })
    .join('\n\n');
}

function asset(inputs: ContextInputs, rel: string): string {
  return (inputs.assets.get(rel) ?? '').trim();
}

/** Compact, stable serialisation of structured output (no indentation: the model does not need it). */
export function compact(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return text.slice(0, max) + ` …[${text.length - max} more characters omitted]`;
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
    case 'kptDigest':
      return section('KPT history digest (from earlier sessions)', inputs.kptDigest || '(no earlier sessions)');
    case 'team:dor': {
      const dor = asset(inputs, '0_team/3_dor.md');
      return section('Definition of Ready', worker ? roleSection(dor, worker) : dor);
    }
    case 'team:dod': {
      const dod = asset(inputs, '0_team/4_dod.md');
      return section('Definition of Done', worker ? roleSection(dod, worker) : dod);
    }
    case 'team:process':
      return section('Session process', asset(inputs, '4_orchestration/1_process.md'));
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
      return section('Product context (cape/1_product)', assetsUnder(inputs, '1_product', step));
    case 'assets:2_design':
      return section('Design context (cape/2_design)', assetsUnder(inputs, '2_design', step));
    case 'assets:3_development':
      return section('Development context (cape/3_development)', assetsUnder(inputs, '3_development', step));
    case 'workspace:tree':
      return inputs.workspaceTree ? section('Workspace files (existing)', inputs.workspaceTree) : '';
    case 'retro:opening':
      return opening
        ? section(
            'Your opening (Cape Master)',
            compact({
              session_brief: opening.session_brief,
              dor_check: opening.dor_check,
              watch_out: opening.watch_out,
              coaching_notes: opening.coaching_notes,
            }),
          )
        : '';
    case 'retro:envelopes': {
      const parts: string[] = [];
      for (const s of ['poa', 'da', 'deva'] as const) {
        const env = inputs.envelopes[s];
        if (!env) continue;
        parts.push(
          `### ${env.agent}\n` +
            compact({
              voice: env.voice,
              output: truncate(compact(s === 'deva' ? pickKeys(env.output, /architecture|decision|question|test/i) : env.output), 1200),
              references: env.references,
              confidence: env.confidence,
              ass: env.ass,
            }),
        );
      }
      return section('What each agent delivered (voice, output excerpt, self-assessment)', parts.join('\n\n'));
    }
    case 'retro:devaFiles': {
      if (!inputs.devaFiles.length && !inputs.devaSummary) return '';
      const list = inputs.devaFiles
        .map((f) => `- ${f.relPath ?? f.path} (${f.action}${f.status === 'refused' ? `, refused: ${f.reason}` : ''})`)
        .join('\n');
      return section("DevA's files (list and summary only)", `${list}\n\n${inputs.devaSummary ?? ''}`);
    }
  }
}

/** Builds the request for one step from the need-to-know matrix. */
export function buildStepContext(step: StepId, inputs: ContextInputs): BuiltContext {
  const sources = CONTEXT_MATRIX[step];
  const header = `Task: ${inputs.taskId}\nSession language: ${inputs.language}`;
  const body = [header, ...sources.map((s) => renderSource(s, step, inputs))].filter(Boolean).join('\n\n');
  const system: SystemBlock[] = [
    { text: inputs.preamble, cache: true },
    { text: inputs.rolePrompt },
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
