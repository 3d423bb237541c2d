// The Initialize Project questionnaire's content: the questions (ids, prompts, examples, which are optional) and their
// wording for a workspace that already holds code (initQuestions), the answer limits, and the answers read from a
// JSON/YAML answers file or the quick picks, normalised to one shape.

import { parseYaml } from './frontmatter';
import { FILE_DEPTH, parseJsonWithin, TooDeepError } from '../text/nesting';
import { INIT_ANSWER_IDS, type InitAnswerId } from './prompts';

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
    prompt: 'Which technology stack? (leave empty to take it from the existing code, or to let the team propose one)',
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
    prompt: 'Which test tools should the team use? (leave empty to take them from the existing code, or to let the team propose them)',
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

/**
 * The `features` question where the workspace already holds code (initFacts.ts's workspaceHasCode): what is built is
 * read from the code, so the question asks what the next release adds. Same answer id: an answers file keeps working.
 */
const NEXT_RELEASE_FEATURES = Object.freeze({
  prompt: 'What should the next release add or change? (what is built is read from the code)',
  placeHolder: 'e.g. Export orders as CSV, search by customer name, fix the slow start on large accounts',
});

/**
 * The questionnaire as it is asked and as the requests label its answers: INIT_QUESTIONS for a workspace without code;
 * where it holds code, the `features` question asks about the next release. The one place that wording is chosen.
 */
export function initQuestions(hasCode: boolean): readonly InitQuestion[] {
  return hasCode ? WITH_CODE_QUESTIONS : INIT_QUESTIONS;
}

/** The questionnaire for a workspace that holds code (initQuestions). */
const WITH_CODE_QUESTIONS: readonly InitQuestion[] = Object.freeze(
  INIT_QUESTIONS.map((q) => (q.id === 'features' ? Object.freeze({ ...q, ...NEXT_RELEASE_FEATURES }) : q)),
);

/** Longest accepted answer: longer ones are almost certainly a pasted file, and would bloat every call. */
export const MAX_ANSWER_CHARS = 20_000;

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
 * answer with its question as it is asked (initQuestions): `hasCode` tells whether the workspace holds code, or is
 * asked only when an answer is missing (workspaceHasCode walks the workspace).
 */
export function normaliseAnswers(input: unknown, hasCode: boolean | (() => boolean) = false): InitAnswers {
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
  if (INIT_QUESTIONS.some((q) => q.required && out[q.id] === '')) {
    const missing = initQuestions(typeof hasCode === 'function' ? hasCode() : hasCode).filter((q) => q.required && out[q.id] === '');
    const list = missing.map((q) => `  ${q.id}: ${q.prompt}`).join('\n');
    const extra = unknown.length > 0 ? `\n(unrecognised keys: ${unknown.join(', ')})` : '';
    throw new Error(`missing required answer(s):\n${list}${extra}`);
  }
  // a misspelt optional answer would otherwise be dropped without a word, and its file written without it
  if (unknown.length > 0) {
    throw new Error(
      `unrecognised answer key(s): ${unknown.map((k) => `"${k}"`).join(', ')}; nothing was written. ` +
        `The keys are ${INIT_ANSWER_IDS.join(', ')} (snake_case, kebab-case and camelCase all work); rename or remove the others.`,
    );
  }
  return out;
}

/**
 * Parses an answers file, JSON or YAML (`product: …` lines), into InitAnswers. YAML is parsed with js-yaml's safe
 * schema (no code, no custom tags). Throws a clear error for invalid syntax or missing required answers (worded for
 * the workspace: `hasCode`, see normaliseAnswers).
 */
export function parseAnswersFile(text: string, hasCode: boolean | (() => boolean) = false): InitAnswers {
  const src = text.replace(/^\uFEFF/, '');
  if (src.trim() === '') throw new Error('the answers file is empty; expected JSON or YAML with ' + INIT_ANSWER_IDS.join(', '));
  let data: unknown;
  const tooDeep = (err: TooDeepError) => new Error(`the answers file ${err.message}; each answer is text or a list of lines`);
  if (/^\s*[{[]/.test(src)) {
    try {
      data = parseJsonWithin(src, FILE_DEPTH);
    } catch (err) {
      if (err instanceof TooDeepError) throw tooDeep(err);
      throw new Error(`the answers file is not valid JSON: ${(err as Error).message}`);
    }
  } else {
    try {
      data = parseYaml(src);
    } catch (err) {
      if (err instanceof TooDeepError) throw tooDeep(err);
      const e = err as { mark?: { line?: number }; reason?: string; message?: string };
      const line = typeof e.mark?.line === 'number' ? ` (line ${e.mark.line + 1})` : '';
      throw new Error(`the answers file is not valid YAML${line}: ${(e.reason || e.message || String(err)).split('\n')[0]}`);
    }
  }
  return normaliseAnswers(data, hasCode);
}
