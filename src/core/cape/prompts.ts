// Loads the prompt assets shipped with the tool (prompts/): the shared preamble, the role prompts, the generic cape/
// templates and the list of project input files the init questionnaire generates. Also renders `{{var}}` templates.
//
// Layout of the prompts folder:
//   shared/preamble.md      identical for every call (no variables) — sent first and marked cacheable
//   roles/<id>.md           one per step plus init.md; optional frontmatter, body rendered with renderPrompt
//   templates/<folder>/*.md generic cape/ files (frontmatter `type: generic`), copied verbatim by init
//   inputs.json             the input files init generates (path, title, answers, facts, purpose, sections) and the
//                           shared decisions init fixes first for all of them (key, meaning)

import * as fs from 'fs';
import * as path from 'path';
import * as z from '../model/schema';
import { CAPE_FOLDERS, GENERIC_CAPE_FILES } from './capeLayout';
import { parseFrontmatter, quoteFrontmatterValue } from './frontmatter';
import { FACT_PARTS, type FactPart } from './initFactsText';

/** The role prompts: one per session step, DA answering a blocker of DevA, and init's shared-decisions request and its file generator. */
export const ROLE_PROMPT_IDS = ['cm_open', 'poa', 'da', 'deva', 'cm_retro', 'da_answer', 'init_decisions', 'init'] as const;
export type RolePromptId = (typeof ROLE_PROMPT_IDS)[number];

/**
 * Variables every session role prompt gets (init expects more: see INIT_PROMPT_VARS in init.ts). No task id: the role
 * prompt must stay the same from session to session to be read from the prompt cache.
 */
export const SESSION_PROMPT_VARS = ['language'] as const;

/** Ids of the init questionnaire answers (INIT_QUESTIONS in init.ts gives their prompts). */
export const INIT_ANSWER_IDS = [
  'product',
  'users',
  'problem',
  'features',
  'uiLanguage',
  'stack',
  'hosting',
  'testTooling',
  'teamSize',
  'designFeel',
] as const;
export type InitAnswerId = (typeof INIT_ANSWER_IDS)[number];

/** One project input file the init generator writes (from prompts/inputs.json). */
export interface InputSpec {
  /** cape-relative path, e.g. '1_product/1_mvv.md'. */
  path: string;
  title: string;
  /** The questionnaire answers this file is written from. */
  answers: InitAnswerId[];
  /**
   * True when the file is written from the workspace facts too, where the workspace has code (initFacts.ts), or the
   * parts of them it is written from (a persona needs the README, not the CI commands).
   */
  facts?: boolean | FactPart[];
  /** What the file is for and who reads it. */
  purpose: string;
  /** Required sections, in order. */
  sections: string[];
}

/** One value init fixes once for every input file (from prompts/inputs.json `decisions`). */
export interface InitDecisionSpec {
  /** snake_case key the model must answer, e.g. 'performance_budget'. */
  key: string;
  /** What the value must say (shown to the model). */
  meaning: string;
}

/** A generic cape/ file to be copied verbatim into a workspace. */
export interface PromptTemplate {
  /** cape-relative path, e.g. '0_team/3_dor.md'. */
  relPath: string;
  /** Full file text including frontmatter. */
  content: string;
}

export interface PromptAssets {
  dir: string;
  /** The shared preamble (no variables). */
  preamble: string;
  /** Role prompt bodies (frontmatter removed), to be rendered with renderPrompt. */
  roles: Record<RolePromptId, string>;
  /** Frontmatter of each role prompt (informational: step, agent). */
  roleMeta: Record<RolePromptId, Record<string, unknown>>;
  /** The generic cape/ templates, in path order. */
  templates: PromptTemplate[];
  inputs: InputSpec[];
  /** The shared decisions init fixes before writing the input files. */
  decisions: InitDecisionSpec[];
}

export class PromptAssetsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PromptAssetsError';
  }
}

const VAR_RE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** The `{{var}}` names a template uses, without duplicates, in order of first use. */
export function promptVariables(template: string): string[] {
  const seen = new Set<string>();
  for (const m of template.matchAll(VAR_RE)) seen.add(m[1]);
  return [...seen];
}

/**
 * Replaces every `{{name}}` (spaces inside the braces allowed) with vars[name], in a single pass: values are never
 * re-scanned, so a value containing `{{x}}` is inserted literally. Throws when the template uses a variable that
 * is not provided — an unreplaced placeholder reaching the model is always a bug.
 */
export function renderPrompt(template: string, vars: Record<string, string>): string {
  const missing = promptVariables(template).filter((name) => !Object.prototype.hasOwnProperty.call(vars, name));
  if (missing.length > 0) {
    throw new Error(
      `prompt variable(s) ${missing.map((n) => `{{${n}}}`).join(', ')} not provided; ` +
        `given: ${Object.keys(vars).join(', ') || '(none)'}`,
    );
  }
  return template.replace(VAR_RE, (_m, name: string) => {
    const value = vars[name];
    if (typeof value !== 'string') throw new Error(`prompt variable {{${name}}} must be a string, got ${typeof value}`);
    return value;
  });
}

/**
 * The prompts/ folder shipped next to the code: `../prompts` (bundled dist/), `../../../prompts` (src/core/cape run
 * from source) or `../../../../prompts` (compiled out/src/core/cape), whichever exists first.
 */
export function defaultPromptsDir(): string {
  const candidates = ['../prompts', '../../../prompts', '../../../../prompts'].map((p) => path.resolve(__dirname, p));
  for (const c of candidates) {
    if (fs.existsSync(path.join(c, 'roles')) && fs.existsSync(path.join(c, 'shared'))) return c;
  }
  throw new PromptAssetsError(
    `the prompts folder was not found next to the program (looked in ${candidates.join(', ')}); reinstall the extension or CLI`,
  );
}

const safeRelPath = z.lazy(() =>
  z.string().check(
    z.minLength(1),
    z.refine(
      (p) =>
        !p.startsWith('/') &&
        !p.includes('\\') &&
        !p.split('/').some((seg) => seg === '' || seg === '.' || seg === '..') &&
        /\.md$/.test(p) &&
        (CAPE_FOLDERS as readonly string[]).includes(p.split('/')[0]),
      { message: 'must be a cape-relative .md path inside one of ' + CAPE_FOLDERS.join(', ') },
    ),
  ),
);

const text = z.lazy(() => z.string().check(z.minLength(1)));
/** A list with at least one item. */
const nonEmptyList = <T extends z.ZodMiniType>(item: T) => z.array(item).check(z.minLength(1));

const inputsSchema = z.lazy(() =>
  z.object({
    decisions: nonEmptyList(z.object({ key: z.string().check(z.regex(/^[a-z][a-z0-9_]*$/, 'must be a snake_case key')), meaning: text })),
    files: nonEmptyList(
      z.object({
        path: safeRelPath,
        title: text,
        answers: nonEmptyList(z.enum(INIT_ANSWER_IDS)),
        facts: z.optional(z.union([z.boolean(), nonEmptyList(z.enum(FACT_PARTS))])),
        purpose: text,
        sections: nonEmptyList(text),
      }),
    ),
  }),
);

function readText(file: string, what: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new PromptAssetsError(`cannot read ${what} at ${file}: ${(err as Error).message}`);
  }
}

function listMarkdown(root: string, rel = ''): string[] {
  const out: string[] = [];
  const entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
  for (const e of entries) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.name.startsWith('.')) continue;
    if (e.isDirectory()) out.push(...listMarkdown(root, r));
    else if (e.isFile() && e.name.endsWith('.md')) out.push(r);
  }
  return out.sort();
}

/** Loads and validates the prompts folder. Throws PromptAssetsError with the offending file on any problem. */
export function loadPromptAssets(promptsDir: string): PromptAssets {
  const dir = path.resolve(promptsDir);
  if (!fs.existsSync(dir)) throw new PromptAssetsError(`prompts folder not found: ${dir}`);

  const preamblePath = path.join(dir, 'shared', 'preamble.md');
  const preamble = readText(preamblePath, 'the shared preamble').replace(/^\uFEFF/, '');
  const preambleVars = promptVariables(preamble);
  if (preambleVars.length > 0) {
    throw new PromptAssetsError(
      `${preamblePath} must be identical for every call but uses variable(s) ${preambleVars.join(', ')}`,
    );
  }

  const roles = {} as Record<RolePromptId, string>;
  const roleMeta = {} as Record<RolePromptId, Record<string, unknown>>;
  for (const id of ROLE_PROMPT_IDS) {
    const file = path.join(dir, 'roles', `${id}.md`);
    const fm = parseFrontmatter(readText(file, `the ${id} role prompt`));
    if (!fm.ok) throw new PromptAssetsError(`${file}${fm.line ? `:${fm.line}` : ''}: ${fm.message}`);
    if (fm.body.trim() === '') throw new PromptAssetsError(`${file} is empty`);
    roles[id] = fm.body;
    roleMeta[id] = fm.data;
  }

  const templatesDir = path.join(dir, 'templates');
  if (!fs.existsSync(templatesDir)) throw new PromptAssetsError(`templates folder not found: ${templatesDir}`);
  const templates: PromptTemplate[] = [];
  for (const relPath of listMarkdown(templatesDir)) {
    const file = path.join(templatesDir, ...relPath.split('/'));
    const content = readText(file, 'a cape/ template');
    const fm = parseFrontmatter(content);
    if (!fm.ok) throw new PromptAssetsError(`${file}${fm.line ? `:${fm.line}` : ''}: ${fm.message}`);
    if (fm.data.type !== 'generic') {
      throw new PromptAssetsError(`${file} must have frontmatter "type: generic" (found ${quoteFrontmatterValue(fm.data.type)})`);
    }
    templates.push({ relPath, content });
  }
  const missingTemplates = GENERIC_CAPE_FILES.filter((p) => !templates.some((t) => t.relPath === p));
  if (missingTemplates.length > 0) {
    throw new PromptAssetsError(`templates missing from ${templatesDir}: ${missingTemplates.join(', ')}`);
  }

  const inputsPath = path.join(dir, 'inputs.json');
  let rawInputs: unknown;
  try {
    rawInputs = JSON.parse(readText(inputsPath, 'the input file list'));
  } catch (err) {
    if (err instanceof PromptAssetsError) throw err;
    throw new PromptAssetsError(`${inputsPath} is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = inputsSchema.safeParse(rawInputs);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new PromptAssetsError(`${inputsPath}: ${first.path.join('.')}: ${first.message}`);
  }
  const inputs: InputSpec[] = parsed.data.files.map((f) => ({ ...f, answers: [...f.answers], sections: [...f.sections] }));
  const seen = new Set<string>();
  for (const f of inputs) {
    if (seen.has(f.path)) throw new PromptAssetsError(`${inputsPath}: duplicate path ${f.path}`);
    if ((GENERIC_CAPE_FILES as readonly string[]).includes(f.path)) {
      throw new PromptAssetsError(`${inputsPath}: ${f.path} is a generic template, not an input file`);
    }
    seen.add(f.path);
  }
  const decisions: InitDecisionSpec[] = parsed.data.decisions.map((d) => ({ ...d }));
  const keys = new Set<string>();
  for (const d of decisions) {
    if (keys.has(d.key)) throw new PromptAssetsError(`${inputsPath}: duplicate decision key ${d.key}`);
    keys.add(d.key);
  }

  return { dir, preamble, roles, roleMeta, templates, inputs, decisions };
}

/**
 * Cape-relative path → body (frontmatter stripped) of every generic template: the fallback the session uses when a
 * workspace's cape/ lacks the framework files (e.g. a folder made by the original CLI).
 */
export function templateBodies(assets: PromptAssets): Map<string, string> {
  const out = new Map<string, string>();
  for (const t of assets.templates) {
    const fm = parseFrontmatter(t.content);
    out.set(t.relPath, fm.ok ? fm.body : t.content);
  }
  return out;
}
