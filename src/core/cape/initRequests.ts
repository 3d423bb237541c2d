// The init generator's model requests: the shared-decisions request and one request per project file, built from
// the answers, the workspace facts (initFacts.ts: to the decisions and the files inputs.json marks), the decisions
// and the kept files; each reply checked (initChecks.ts) and repaired once.

import * as fs from 'fs';
import { contentText, SESSIONS_FOLDER, type LlmRequest, type LlmResult } from '../model/types';
import { parseFrontmatter, readFrontmatter } from './frontmatter';
import { headOf } from '../text/cut';
import { withoutControls } from '../text/controls';
import { INIT_ANSWER_IDS, type InitAnswerId, type InputSpec, type PromptAssets, type PromptTemplate, renderPrompt } from './prompts';
import {
  INPUT_FILE_MAX_CHARS,
  INPUT_FILE_TARGET_CHARS,
  type InitDecisions,
  type ReplyCheck,
  checkDecisionsReply,
  formatDecisions,
} from './initChecks';
import { initQuestions, type InitAnswers } from './initAnswers';
import { factsText, type WorkspaceFacts } from './initFacts';
import type { FactPart } from './initFactsText';

/** Variables of prompts/roles/init.md. */
export const INIT_PROMPT_VARS = ['language', 'path', 'title', 'purpose', 'sections', 'other_files', 'max_chars'] as const;
/** Variables of prompts/roles/init_decisions.md. */
export const INIT_DECISIONS_PROMPT_VARS = ['language', 'files', 'decisions'] as const;

/** Where the shared decisions are kept, relative to the cape folder (not a cape/ asset: never loaded into sessions). */
export const INIT_DECISIONS_FILE = `${SESSIONS_FOLDER}/init_decisions.md`;

const DEFAULT_MAX_TOKENS = 8192;
const DECISIONS_MAX_TOKENS = 2048;

// ---------------------------------------------------------------------------------------------
// Requests

/** The answers as tagged data blocks ("not answered" ones tell the model to assume, visibly). */
const UNANSWERED = '(not answered: propose a sensible choice for this product and mark it "(assumption)")';
/** Where the workspace has code, what it shows comes before an assumption. */
const UNANSWERED_WITH_FACTS = '(not answered: take it from the workspace facts where they show it; otherwise propose a sensible choice for this product and mark it "(assumption)")';
/** In a file request the decisions already fixed most unanswered values: the model must not invent another. */
const UNANSWERED_FILE = '(not answered: use the shared decision on this where there is one; otherwise propose a sensible choice and mark it "(assumption)")';

/**
 * Each answer labelled with its question as it was asked: on a workspace with code (facts given) the `features`
 * question asked about the next release (initQuestions).
 */
function answerBlocks(ids: readonly InitAnswerId[], opts: RequestOptions, unanswered: string): string[] {
  const { answers } = opts;
  const questions = initQuestions(!!opts.facts);
  const lines: string[] = [];
  for (const id of ids) {
    const q = questions.find((x) => x.id === id)!;
    const a = answers[id]?.trim();
    lines.push(`<answer id="${id}" question="${q.prompt}">`);
    lines.push(a ? a : unanswered);
    lines.push('</answer>', '');
  }
  return lines;
}

/** The first `# ` heading of a template (its title), else its path. */
function templateTitle(t: PromptTemplate): string {
  return /^#\s+(\S.*)$/m.exec(t.content)?.[1].trim() ?? t.relPath;
}

/** Every other file of cape/: the framework files (already written) and the other project files. */
function otherFilesList(spec: InputSpec | null, prompts: PromptAssets): string {
  const generic = prompts.templates.map((t) => `- cape/${t.relPath} — ${templateTitle(t)} (framework file, already written)`);
  const inputs = prompts.inputs
    .filter((s) => s.path !== spec?.path)
    .map((s) => `- cape/${s.path} — ${s.title}: ${s.purpose}`);
  return [...generic, ...inputs].join('\n');
}

/**
 * The workspace facts as a tagged data block after a line saying what they are: all of them, or the parts `only`
 * names (factsText); no lines without facts.
 */
function factsBlock(facts: WorkspaceFacts | null | undefined, only?: readonly FactPart[]): string[] {
  const text = facts ? factsText(facts, only) : '';
  if (!text) return [];
  const which = only ? ' (the parts this file is written from)' : '';
  return [`The workspace already holds code. CAPE read these facts from it, without running anything${which}:`, '', '<workspace_facts>', text, '</workspace_facts>', ''];
}

interface RequestOptions {
  answers: InitAnswers;
  /**
   * What the workspace's code shows (initFacts.ts); null or absent for a workspace without code. Given, it also labels
   * the `features` answer as the next release's (initQuestions), in every request, whether or not it quotes them.
   */
  facts?: WorkspaceFacts | null;
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
  const lines = [
    'The developer answered the setup questionnaire as follows.',
    '',
    ...answerBlocks(INIT_ANSWER_IDS, opts, opts.facts ? UNANSWERED_WITH_FACTS : UNANSWERED),
    ...factsBlock(opts.facts),
  ];
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
  const lines: string[] = ['The developer answered the setup questionnaire as follows.', '', ...answerBlocks(spec.answers, opts, UNANSWERED_FILE)];
  if (spec.facts) lines.push(...factsBlock(opts.facts, spec.facts === true ? undefined : spec.facts));
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

/** How a user completes a partly written cape/ (named by its CLI flag and VS Code choice, never the internal mode). */
export const FINISH_LATER = 'fill the missing files with `cape init --missing-only` (VS Code: "CAPE: Initialize Project" → Fill only missing files)';

/**
 * A reply the model refused (stop_reason "refusal": the API's safety classifier stopped it) is not checked: it is no
 * malformed file ("the reply was empty") and a repair request would only continue the refused conversation.
 */
function failOnRefusal(res: LlmResult): LlmResult {
  if (res.stopReason === 'refusal') throw new Error(`the model refused to write it (stop_reason "refusal"): reword the answers it may have declined, then ${FINISH_LATER}`);
  return res;
}

/**
 * One checked reply: the request, then — when the check fails — one repair request quoting the problems. Throws
 * with every remaining problem when the repaired reply is still unusable. `call` does the model call (with retry).
 * The reply is checked, and so written, as text only (withoutControls): a generated cape/ file or init_decisions.md
 * keeps no escape sequence to act on the terminal that shows it.
 */
export async function checkedReply<T>(
  req: LlmRequest,
  call: (r: LlmRequest) => Promise<LlmResult>,
  check: (res: LlmResult) => ReplyCheck<T>,
  repairText: (problems: string[]) => string,
): Promise<{ value: T; repaired: boolean }> {
  const checkText = (res: LlmResult) => check({ ...res, text: withoutControls(res.text) });
  const first = failOnRefusal(await call(req));
  const c1 = checkText(first);
  if (c1.ok) return { value: c1.value, repaired: false };
  const second = failOnRefusal(await call(repairRequest(req, first.text, repairText(c1.problems))));
  const c2 = checkText(second);
  if (c2.ok) return { value: c2.value, repaired: true };
  throw new Error(`the reply could not be used even after one repair request: ${c2.problems.join('; ')}`);
}

/** The bodies of the kept input files, bounded, for the decisions request. */
export async function readExistingInputs(paths: readonly string[], target: (p: string) => string): Promise<ExistingInputFile[]> {
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
    const cut = headOf(body, room);
    if (cut === '') continue;
    out.push({ path: p, text: cut });
    total += Math.min(room, body.length);
  }
  return out;
}

/** Reads decisions stored by an earlier run (missing-only mode reuses them); null when absent or incomplete. */
export async function readStoredDecisions(file: string, specs: PromptAssets['decisions']): Promise<InitDecisions | null> {
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

/**
 * The language an earlier run wrote the files in (the decisions file's `language`), or null when it is not known:
 * a later missing-only run given no language writes the missing files in it, so they match the files kept.
 */
export async function readStoredLanguage(file: string): Promise<string | null> {
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch {
    return null;
  }
  const language = readFrontmatter(text)?.language;
  return typeof language === 'string' && language.trim() ? language.trim() : null;
}
