// The init generator: creates a workspace's cape/ folder.
//  1. Copies the generic framework files (prompts/templates → cape/, frontmatter `type: generic`).
//  2. Fixes the shared decisions (prompts/inputs.json `decisions`: name, UI language, stack, hosting, test tooling,
//     budgets, ids…) with one small request from every answer, and stores them in cape/5_sessions/init_decisions.md
//     ('missing-only' reuses them, so files written later agree with the ones already there).
//  3. Writes each project input file (prompts/inputs.json `files`) from the answers it needs plus the decisions, with
//     one model call per file, in parallel with bounded concurrency. Each reply is checked (initChecks.ts) and
//     repaired once; each file is written atomically as soon as it is usable, so a cancelled or failed run leaves only
//     complete files; a re-run in 'missing-only' mode fills the gaps.
// Why one decisions request rather than writing the files in dependency order: the order would chain the nine
// calls (architecture before standards before guideline…), while the decisions cost one short call before a single
// parallel wave, and every file — not only the later ones — gets the same values.
// Plain Node: used by both the VS Code questionnaire and the CLI.

import * as fs from 'fs';
import * as path from 'path';
import pLimit from 'p-limit';
import { contentText, DEFAULT_CAPE_FOLDER, type LlmClient, type LlmRequest, type LlmResult } from '../model/types';
import { GENERIC_CAPE_FILES, SESSIONS_FOLDER } from './assets';
import { parseFrontmatter, parseYaml } from './frontmatter';
import { isInside } from '../files/pathSafety';
import { INIT_ANSWER_IDS, InitAnswerId, InputSpec, PromptAssets, PromptTemplate, renderPrompt } from './prompts';
import {
  INPUT_FILE_MAX_CHARS,
  INPUT_FILE_TARGET_CHARS,
  type InitDecisions,
  type ReplyCheck,
  checkDecisionsReply,
  checkInputReply,
  decisionsRepairPrompt,
  formatDecisions,
  inputRepairPrompt,
} from './initChecks';
import { ensureDir, writeFileAtomic } from '../files/fsAtomic';
import { LlmError } from '../llm/errors';
import { StepRetryOptions, withStepRetry } from '../llm/retry';

export type InitAnswers = Record<InitAnswerId, string>;

export interface InitQuestion {
  id: InitAnswerId;
  /** The question shown to the user. */
  prompt: string;
  /** An example answer shown greyed out in the input box. */
  placeHolder: string;
  required: boolean;
  /** Answers offered in a quick pick (free text stays possible); absent for a plain input box. */
  suggestions?: readonly string[];
}

/**
 * The init questionnaire, in the order it is asked (VS Code quick inputs and the CLI prompt): the required answers
 * first, then what the files would otherwise each invent (UI language, stack, hosting, tests, team, look and feel).
 */
export const INIT_QUESTIONS: readonly InitQuestion[] = Object.freeze([
  {
    id: 'product',
    prompt: 'What are you building? (one or two sentences)',
    placeHolder: 'e.g. A mobile-first web app that lets small bakeries take pre-orders for pickup',
    required: true,
  },
  {
    id: 'users',
    prompt: 'Who are the users?',
    placeHolder: 'e.g. Bakery owners (non-technical) and their regular customers, mostly on phones',
    required: true,
  },
  {
    id: 'problem',
    prompt: 'What problem does it solve for them?',
    placeHolder: 'e.g. Owners lose sales to sold-out shelves and phone orders get mixed up',
    required: true,
  },
  {
    id: 'features',
    prompt: 'Which features must the first version have?',
    placeHolder: 'e.g. Product list with stock, pre-order with pickup time, owner dashboard of orders',
    required: true,
  },
  {
    id: 'uiLanguage',
    prompt: 'Which language(s) will the user interface use? (leave empty for the team language)',
    placeHolder: 'e.g. Japanese first, English later; dates as YYYY/MM/DD',
    required: false,
  },
  {
    id: 'stack',
    prompt: 'Which technology stack? (leave empty to let the team propose one)',
    placeHolder: 'e.g. TypeScript, React, Node 20, PostgreSQL',
    required: false,
  },
  {
    id: 'hosting',
    prompt: 'Where will it run, and what backend or data storage does it need? (leave empty to let the team propose one)',
    placeHolder: 'e.g. Static site on Netlify, Supabase for accounts and orders; or: offline only, data in the browser',
    required: false,
  },
  {
    id: 'testTooling',
    prompt: 'Which test tools should the team use? (leave empty to let the team propose them)',
    placeHolder: 'e.g. Vitest for units, Playwright for end-to-end, run on every pull request',
    required: false,
  },
  {
    id: 'teamSize',
    prompt: 'Who works on it? (team size and roles; leave empty to let the team assume)',
    placeHolder: 'e.g. Two developers and a part-time designer',
    required: false,
    suggestions: Object.freeze([
      'Just me (solo developer)',
      'Two or three developers',
      'A team of four to eight, with a designer',
      'Several teams',
    ]),
  },
  {
    id: 'designFeel',
    prompt: 'How should it look and feel? (leave empty to let the team propose one)',
    placeHolder: 'e.g. Warm and friendly, large touch targets, lots of whitespace',
    required: false,
    suggestions: Object.freeze([
      'Clean and minimal, lots of whitespace',
      'Warm and friendly, rounded shapes, large touch targets',
      'Professional and data-dense, like a dashboard',
      'Bold and playful, strong colours',
      'Accessible first: high contrast, large text, keyboard friendly',
    ]),
  },
]);

/** Longest accepted answer: longer ones are almost certainly a pasted file, and would bloat every call. */
export const MAX_ANSWER_CHARS = 20_000;

export type InitMode = 'fail-if-exists' | 'overwrite' | 'missing-only';

/** How a user completes a partly written cape/ (named by its CLI flag and VS Code choice, never the internal mode). */
const FINISH_LATER = 'fill the missing files with `cape init --missing-only` (VS Code: "CAPE: Initialize Project" → Fill only missing files)';

export interface InitProgress {
  done: number;
  total: number;
  /** Workspace-relative path of the file just finished (written or failed). */
  file: string;
}

export interface InitOptions {
  workspace: string;
  /** Workspace-relative folder (default 'cape'). */
  capeFolder?: string;
  answers: InitAnswers;
  llm: LlmClient;
  model: string;
  /** Language of the generated files, e.g. 'English', 'Japanese'. */
  language: string;
  mode: InitMode;
  /** Model calls in flight at once (default 4). */
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (p: InitProgress) => void;
  prompts: PromptAssets;
  /** Output token limit per file (default 8192). A reply cut off at the limit is not written. */
  maxTokens?: number;
  /** Step retry settings for each file's model call (default: withStepRetry's defaults). */
  retry?: Omit<StepRetryOptions, 'signal'>;
}

export interface InitResult {
  /** Workspace-relative paths written (templates and generated inputs). */
  written: string[];
  /** Workspace-relative paths left alone because they already existed. */
  skipped: string[];
  /** Files that could not be written, with a message saying why (a cancelled run lists the files it did not write). */
  failed: { path: string; error: string }[];
  /** True when the signal aborted the run. */
  cancelled: boolean;
  /** Files whose first reply failed the checks and was repaired by one more request (workspace-relative). */
  repaired: string[];
  /** The shared decisions every file request received (null when no input file was generated). */
  decisions: InitDecisions | null;
}

/** Variables of prompts/roles/init.md. */
export const INIT_PROMPT_VARS = ['language', 'path', 'title', 'purpose', 'sections', 'other_files', 'max_chars'] as const;
/** Variables of prompts/roles/init_decisions.md. */
export const INIT_DECISIONS_PROMPT_VARS = ['language', 'files', 'decisions'] as const;

/** Where the shared decisions are kept, relative to the cape folder (not a cape/ asset: never loaded into sessions). */
export const INIT_DECISIONS_FILE = `${SESSIONS_FOLDER}/init_decisions.md`;

const DEFAULT_MAX_TOKENS = 8192;
const DECISIONS_MAX_TOKENS = 2048;

// ---------------------------------------------------------------------------------------------
// Answers

function normaliseKey(k: string): string {
  return k.toLowerCase().replace(/[\s_-]/g, '');
}

function answerToString(id: string, v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number')) {
    return v.map((x) => `- ${String(x).trim()}`).join('\n');
  }
  throw new Error(`answer "${id}" must be text (or a list of lines), not ${Array.isArray(v) ? 'a nested list' : typeof v}`);
}

/**
 * Validates answers given as an object (keys: the INIT_QUESTIONS ids; snake_case / kebab-case spellings such as
 * design_feel are accepted). Missing optional answers become ''. Throws a message listing every missing required
 * answer with its question.
 */
export function normaliseAnswers(input: unknown): InitAnswers {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new Error(`answers must be an object with the keys ${INIT_ANSWER_IDS.join(', ')}`);
  }
  const byNorm = new Map<string, InitAnswerId>(INIT_ANSWER_IDS.map((id) => [normaliseKey(id), id]));
  const out = Object.fromEntries(INIT_ANSWER_IDS.map((id) => [id, ''])) as InitAnswers;
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    const id = byNorm.get(normaliseKey(key));
    if (!id) {
      unknown.push(key);
      continue;
    }
    const text = answerToString(id, value);
    if (text.length > MAX_ANSWER_CHARS) {
      throw new Error(`answer "${id}" is ${text.length} characters; keep it under ${MAX_ANSWER_CHARS}`);
    }
    out[id] = text;
  }
  const missing = INIT_QUESTIONS.filter((q) => q.required && out[q.id] === '');
  if (missing.length > 0) {
    const list = missing.map((q) => `  ${q.id}: ${q.prompt}`).join('\n');
    const extra = unknown.length > 0 ? `\n(unrecognised keys: ${unknown.join(', ')})` : '';
    throw new Error(`missing required answer(s):\n${list}${extra}`);
  }
  return out;
}

/**
 * Parses an answers file, JSON or YAML (`product: …` lines), into InitAnswers. YAML is parsed with js-yaml's safe
 * schema (no code, no custom tags). Throws a clear error for invalid syntax or missing required answers.
 */
export function parseAnswersFile(text: string): InitAnswers {
  const src = text.replace(/^\uFEFF/, '');
  if (src.trim() === '') throw new Error('the answers file is empty; expected JSON or YAML with ' + INIT_ANSWER_IDS.join(', '));
  let data: unknown;
  if (/^\s*[{[]/.test(src)) {
    try {
      data = JSON.parse(src);
    } catch (err) {
      throw new Error(`the answers file is not valid JSON: ${(err as Error).message}`);
    }
  } else {
    try {
      data = parseYaml(src);
    } catch (err) {
      const e = err as { mark?: { line?: number }; reason?: string; message?: string };
      const line = typeof e.mark?.line === 'number' ? ` (line ${e.mark.line + 1})` : '';
      throw new Error(`the answers file is not valid YAML${line}: ${(e.reason || e.message || String(err)).split('\n')[0]}`);
    }
  }
  return normaliseAnswers(data);
}

// ---------------------------------------------------------------------------------------------
// Requests

/** The answers as tagged data blocks ("not answered" ones tell the model to assume, visibly). */
const UNANSWERED = '(not answered: propose a sensible choice for this product and mark it "(assumption)")';
/** In a file request the decisions already fixed most unanswered values: the model must not invent another. */
const UNANSWERED_FILE = '(not answered: use the shared decision on this where there is one; otherwise propose a sensible choice and mark it "(assumption)")';

function answerBlocks(ids: readonly InitAnswerId[], answers: InitAnswers, unanswered = UNANSWERED): string[] {
  const lines: string[] = [];
  for (const id of ids) {
    const q = INIT_QUESTIONS.find((x) => x.id === id)!;
    const a = answers[id]?.trim();
    lines.push(`<answer id="${id}" question="${q.prompt}">`);
    lines.push(a ? a : unanswered);
    lines.push('</answer>', '');
  }
  return lines;
}

/** The first `# ` heading of a template (its title), else its path. */
function templateTitle(t: PromptTemplate): string {
  return /^#\s+(.+)$/m.exec(t.content)?.[1].trim() ?? t.relPath;
}

/** Every other file of cape/: the framework files (already written) and the other project files. */
function otherFilesList(spec: InputSpec | null, prompts: PromptAssets): string {
  const generic = prompts.templates.map((t) => `- cape/${t.relPath} — ${templateTitle(t)} (framework file, already written)`);
  const inputs = prompts.inputs
    .filter((s) => s.path !== spec?.path)
    .map((s) => `- cape/${s.path} — ${s.title}: ${s.purpose}`);
  return [...generic, ...inputs].join('\n');
}

interface RequestOptions {
  answers: InitAnswers;
  language: string;
  model: string;
  prompts: PromptAssets;
  maxTokens?: number;
  signal?: AbortSignal;
}

/** A project file that already exists and is kept (missing-only): the decisions must agree with it. */
export interface ExistingInputFile {
  /** cape-relative path. */
  path: string;
  /** Its body (bounded). */
  text: string;
}

/**
 * Per kept file and in total, what of the existing files the decisions request quotes: a whole file of the asked
 * length, every file (a trial with a smaller total lost the architecture, where the stack was). 64,000 characters is
 * about 16 K input tokens for one request of a fast model.
 */
const EXISTING_FILE_CHARS = INPUT_FILE_MAX_CHARS;
const EXISTING_TOTAL_CHARS = 64_000;

/** The first request: fixes the shared decisions from every answer (and the kept files). Exported for tests. */
export function buildDecisionsRequest(opts: RequestOptions & { existing?: readonly ExistingInputFile[] }): LlmRequest {
  const system = renderPrompt(opts.prompts.roles.init_decisions, {
    language: opts.language,
    files: opts.prompts.inputs.map((s) => `- cape/${s.path} — ${s.title}`).join('\n'),
    decisions: opts.prompts.decisions.map((d) => `- ${d.key}: ${d.meaning}`).join('\n'),
  });
  const lines = ['The developer answered the setup questionnaire as follows.', '', ...answerBlocks(INIT_ANSWER_IDS, opts.answers)];
  const existing = opts.existing ?? [];
  if (existing.length > 0) {
    lines.push('These project files already exist and are kept; only the others will be written with your decisions.', '');
    for (const f of existing) lines.push(`<existing_file path="cape/${f.path}">`, f.text, '</existing_file>', '');
  }
  lines.push(`Fix the ${opts.prompts.decisions.length} shared decisions now.`);
  return {
    model: opts.model,
    maxTokens: DECISIONS_MAX_TOKENS,
    system: [{ text: system }],
    messages: [{ role: 'user', content: lines.join('\n') }],
    signal: opts.signal,
  };
}

/** The model request that writes one input file. Exported for tests and the benchmark. */
export function buildInitRequest(spec: InputSpec, opts: RequestOptions & { decisions: InitDecisions }): LlmRequest {
  const system = renderPrompt(opts.prompts.roles.init, {
    language: opts.language,
    path: spec.path,
    title: spec.title,
    purpose: spec.purpose,
    sections: spec.sections.map((s, i) => `${i + 1}. ${s}`).join('\n'),
    other_files: otherFilesList(spec, opts.prompts),
    max_chars: INPUT_FILE_TARGET_CHARS.toLocaleString('en-US'),
  });
  const lines: string[] = ['The developer answered the setup questionnaire as follows.', '', ...answerBlocks(spec.answers, opts.answers, UNANSWERED_FILE)];
  lines.push('<shared_decisions>', formatDecisions(opts.decisions), '</shared_decisions>', '');
  lines.push(`Write cape/${spec.path} now.`);
  return {
    model: opts.model,
    maxTokens: opts.maxTokens ?? DEFAULT_MAX_TOKENS,
    system: [{ text: system }],
    messages: [{ role: 'user', content: lines.join('\n') }],
    signal: opts.signal,
  };
}

/** The same request continued with the bad reply and a request quoting its problems. */
function repairRequest(req: LlmRequest, badReply: string, repair: string): LlmRequest {
  if (badReply.trim() === '') {
    // an empty assistant turn is refused by the API: add the repair note to the request instead
    return { ...req, messages: [{ role: 'user', content: `${contentText(req.messages[0].content)}\n\n${repair}` }] };
  }
  return { ...req, messages: [...req.messages, { role: 'assistant', content: badReply.trimEnd() }, { role: 'user', content: repair }] };
}

/**
 * One checked reply: the request, then — when the check fails — one repair request quoting the problems. Throws
 * with every remaining problem when the repaired reply is still unusable. `call` does the model call (with retry).
 */
async function checkedReply<T>(
  req: LlmRequest,
  call: (r: LlmRequest) => Promise<LlmResult>,
  check: (res: LlmResult) => ReplyCheck<T>,
  repairText: (problems: string[]) => string,
): Promise<{ value: T; repaired: boolean }> {
  const first = await call(req);
  const c1 = check(first);
  if (c1.ok) return { value: c1.value, repaired: false };
  const second = await call(repairRequest(req, first.text, repairText(c1.problems)));
  const c2 = check(second);
  if (c2.ok) return { value: c2.value, repaired: true };
  throw new Error(`the reply could not be used even after one repair request: ${c2.problems.join('; ')}`);
}

/** The bodies of the kept input files, bounded, for the decisions request. */
async function readExistingInputs(paths: readonly string[], target: (p: string) => string): Promise<ExistingInputFile[]> {
  const out: ExistingInputFile[] = [];
  let total = 0;
  for (const p of paths) {
    if (total >= EXISTING_TOTAL_CHARS) break;
    let text: string;
    try {
      const st = await fs.promises.lstat(target(p));
      if (!st.isFile()) continue; // a symlink or folder is not quoted
      text = await fs.promises.readFile(target(p), 'utf8');
    } catch {
      continue;
    }
    const fm = parseFrontmatter(text);
    const body = (fm.ok ? fm.body : text).trim();
    const room = Math.min(EXISTING_FILE_CHARS, EXISTING_TOTAL_CHARS - total);
    const cut = body.length > room ? `${body.slice(0, room)}\n[… ${body.length - room} more characters not shown]` : body;
    if (cut === '') continue;
    out.push({ path: p, text: cut });
    total += Math.min(body.length, room);
  }
  return out;
}

/** Reads decisions stored by an earlier run (missing-only mode reuses them); null when absent or incomplete. */
async function readStoredDecisions(file: string, specs: PromptAssets['decisions']): Promise<InitDecisions | null> {
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch {
    return null;
  }
  const fm = parseFrontmatter(text);
  if (!fm.ok) return null;
  const c = checkDecisionsReply(fm.body, specs, null);
  return c.ok ? c.value : null;
}

// ---------------------------------------------------------------------------------------------
// Filesystem helpers

function lexists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Validates the cape folder option: a plain relative path inside the workspace. */
function resolveCapeDir(workspace: string, capeFolder: string): { abs: string; rel: string } {
  const rel = capeFolder.replace(/\\/g, '/').replace(/\/+$/, '');
  if (rel === '' || rel.startsWith('/') || /^[A-Za-z]:/.test(rel) || rel.split('/').some((s) => s === '..' || s === '.' || s === '')) {
    throw new Error(`capeFolder must be a relative folder inside the workspace (got "${capeFolder}")`);
  }
  if (rel.split('/')[0] === '.git') throw new Error('capeFolder must not be inside .git/');
  return { abs: path.join(workspace, ...rel.split('/')), rel };
}

/** Creates `dir` (inside capeAbs) and checks that, after symlinks, it is still inside the real cape folder. */
async function ensureSafeDir(capeReal: string, dir: string): Promise<void> {
  await ensureDir(dir);
  const real = await fs.promises.realpath(dir);
  if (!isInside(capeReal, real)) {
    throw new Error(`${dir} resolves through a symbolic link to ${real}, outside the cape folder; refusing to write there`);
  }
}

// ---------------------------------------------------------------------------------------------
// The generator

/**
 * Creates or completes `<workspace>/<capeFolder>`. Never throws for a single file's failure (see `failed`);
 * throws for bad options, an existing cape folder in 'fail-if-exists' mode, or an unusable workspace.
 */
export async function initCape(opts: InitOptions): Promise<InitResult> {
  const workspace = path.resolve(opts.workspace);
  let wsStat: fs.Stats;
  try {
    wsStat = await fs.promises.stat(workspace);
  } catch {
    throw new Error(`workspace folder not found: ${workspace}`);
  }
  if (!wsStat.isDirectory()) throw new Error(`workspace is not a folder: ${workspace}`);
  const answers = normaliseAnswers(opts.answers);
  if (!opts.language || !opts.language.trim()) throw new Error('language must be set (e.g. "English")');
  if (!opts.model || !opts.model.trim()) throw new Error('model must be set');
  const concurrency = Math.max(1, Math.floor(opts.concurrency ?? 4) || 1);
  const { abs: capeAbs, rel: capeRel } = resolveCapeDir(workspace, opts.capeFolder ?? DEFAULT_CAPE_FOLDER);
  const wsRel = (capeRelPath: string) => `${capeRel}/${capeRelPath}`;

  if (lexists(capeAbs)) {
    const st = await fs.promises.stat(capeAbs).catch(() => null);
    if (!st || !st.isDirectory()) throw new Error(`${capeAbs} exists but is not a folder; move it away and run init again`);
    if (opts.mode === 'fail-if-exists' && (await fs.promises.readdir(capeAbs)).length > 0) {
      throw new Error(
        `${capeRel}/ already exists in ${workspace}. Add only the missing files with \`cape init --missing-only\`, or ` +
          'regenerate every template and input file with `cape init --force` (sessions are never touched); in VS Code, ' +
          '"CAPE: Initialize Project" asks which.',
      );
    }
  }
  await ensureDir(capeAbs);
  const realWorkspace = await fs.promises.realpath(workspace);
  const capeReal = await fs.promises.realpath(capeAbs);
  if (!isInside(realWorkspace, capeReal)) {
    throw new Error(`${capeAbs} resolves to ${capeReal}, outside the workspace; refusing to write there`);
  }

  const result: InitResult = { written: [], skipped: [], failed: [], cancelled: false, repaired: [], decisions: null };
  const overwrite = opts.mode === 'overwrite';
  const target = (capeRelPath: string) => path.join(capeAbs, ...capeRelPath.split('/'));

  const templates = opts.prompts.templates.filter((t) => {
    if (!overwrite && lexists(target(t.relPath))) {
      result.skipped.push(wsRel(t.relPath));
      return false;
    }
    return true;
  });
  const inputs = opts.prompts.inputs.filter((s) => {
    if (!overwrite && lexists(target(s.path))) {
      result.skipped.push(wsRel(s.path));
      return false;
    }
    return true;
  });

  const total = templates.length + inputs.length;
  let done = 0;
  const progress = (capeRelPath: string) => {
    done++;
    try {
      opts.onProgress?.({ done, total, file: wsRel(capeRelPath) });
    } catch {
      // a failing progress callback must not break generation
    }
  };

  /** Writes one file atomically; in non-overwrite modes a file that appeared meanwhile is left alone. */
  const writeOne = async (capeRelPath: string, content: string): Promise<void> => {
    const file = target(capeRelPath);
    await ensureSafeDir(capeReal, path.dirname(file));
    if (!overwrite && lexists(file)) {
      result.skipped.push(wsRel(capeRelPath));
      return;
    }
    await writeFileAtomic(file, content);
    result.written.push(wsRel(capeRelPath));
  };

  const cancelledMessage = `cancelled before this file was written; ${FINISH_LATER}`;

  // 1. Generic templates: copied verbatim.
  for (const t of templates) {
    if (opts.signal?.aborted) {
      result.failed.push({ path: wsRel(t.relPath), error: cancelledMessage });
      continue;
    }
    try {
      await writeOne(t.relPath, t.content);
    } catch (err) {
      result.failed.push({ path: wsRel(t.relPath), error: (err as Error).message });
    }
    progress(t.relPath);
  }

  const requestOptions = {
    answers,
    language: opts.language,
    model: opts.model,
    prompts: opts.prompts,
    maxTokens: opts.maxTokens,
    signal: opts.signal,
  };
  const call = (req: LlmRequest) => withStepRetry(() => opts.llm.stream(req, () => undefined), { ...opts.retry, signal: opts.signal });
  const isCancel = (err: unknown) => opts.signal?.aborted || (err instanceof LlmError && err.kind === 'cancelled');

  // 2. The shared decisions: stored ones in missing-only mode, else one request (repaired once).
  let fatal: string | null = null;
  let decisions: InitDecisions | null = null;
  if (inputs.length > 0 && !opts.signal?.aborted) {
    const decisionsFile = target(INIT_DECISIONS_FILE);
    if (opts.mode === 'missing-only') decisions = await readStoredDecisions(decisionsFile, opts.prompts.decisions);
    if (!decisions) {
      try {
        const kept = opts.prompts.inputs.filter((s) => !inputs.includes(s)).map((s) => s.path);
        const req = buildDecisionsRequest({ ...requestOptions, existing: await readExistingInputs(kept, target) });
        decisions = (
          await checkedReply(
            req,
            call,
            (res) => checkDecisionsReply(res.text, opts.prompts.decisions, res.stopReason),
            (problems) => decisionsRepairPrompt(opts.prompts.decisions, problems),
          )
        ).value;
      } catch (err) {
        if (!isCancel(err)) fatal = `the shared decisions could not be fixed: ${(err as Error).message}`;
      }
      if (decisions) {
        const note = 'The shared decisions every generated input file was written with. `init --missing-only` reuses them.';
        // kept for later missing-only runs; if it cannot be stored, this run still uses the decisions
        await ensureSafeDir(capeReal, path.dirname(decisionsFile))
          .then(() => writeFileAtomic(decisionsFile, `---\ntype: init-decisions\n---\n\n${note}\n\n${formatDecisions(decisions!)}\n`))
          .catch(() => undefined);
      }
    }
    result.decisions = decisions;
  }

  // 3. Input files: one model call each (plus one repair when the reply fails its check), at most `concurrency` at a
  // time (p-limit), started in input order.
  const generate = async (spec: (typeof inputs)[number]): Promise<void> => {
    if (opts.signal?.aborted) {
      result.failed.push({ path: wsRel(spec.path), error: cancelledMessage });
      return;
    }
    if (fatal || !decisions) {
      result.failed.push({ path: wsRel(spec.path), error: `not generated: ${fatal ?? 'cancelled'}` });
      return;
    }
    try {
      const req = buildInitRequest(spec, { ...requestOptions, decisions });
      const { value: content, repaired } = await checkedReply(
        req,
        call,
        (res) => checkInputReply(res.text, spec, res.stopReason, req.maxTokens),
        (problems) => inputRepairPrompt(spec, problems),
      );
      if (opts.signal?.aborted) {
        result.failed.push({ path: wsRel(spec.path), error: cancelledMessage });
        return;
      }
      await writeOne(spec.path, content);
      if (repaired) result.repaired.push(wsRel(spec.path));
    } catch (err) {
      const message = isCancel(err) ? cancelledMessage : `${(err as Error).message}; nothing was written`;
      result.failed.push({ path: wsRel(spec.path), error: message });
      // a bad key or bad configuration will fail every remaining file the same way: stop calling the API
      if (err instanceof LlmError && (err.kind === 'auth' || err.kind === 'config')) fatal = err.message;
    }
    progress(spec.path);
  };
  const limit = pLimit(concurrency);
  await Promise.all(inputs.map((spec) => limit(() => generate(spec))));

  result.cancelled = opts.signal?.aborted ?? false;
  const order = (p: string) => {
    const rel = p.slice(capeRel.length + 1);
    const gi = (GENERIC_CAPE_FILES as readonly string[]).indexOf(rel);
    const ii = opts.prompts.inputs.findIndex((s) => s.path === rel);
    return gi >= 0 ? gi : 100 + (ii >= 0 ? ii : 0);
  };
  result.written.sort((a, b) => order(a) - order(b));
  result.skipped.sort((a, b) => order(a) - order(b));
  result.failed.sort((a, b) => order(a.path) - order(b.path));
  result.repaired.sort((a, b) => order(a) - order(b));
  return result;
}
