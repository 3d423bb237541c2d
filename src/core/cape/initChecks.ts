// The checks init applies to each model reply before anything is written, and the repair requests that quote what
// was wrong. Two kinds of reply:
//  - the shared decisions (one `- key: value` line per decision of prompts/inputs.json), fixed once and given to
//    every file request;
//  - a project input file: frontmatter with `type: input`, no surrounding code fence (stripped when that is the only
//    problem), every required section as a heading, a length within bounds, not cut off at the output limit.
// A reply that fails is repaired once by init.ts (the bad reply, then a request quoting these problems); a reply that
// still fails is reported and nothing is written.

import type { InitDecisionSpec, InputSpec } from './prompts';
import { parseFrontmatter, quoteFrontmatterValue } from './frontmatter';
import { fenceTracker, headingOf } from '../text/markdown';
import { sliceWhole } from '../text/cut';
import { LINE_BREAK, withoutCr } from '../text/lines';

/** The length each input file is asked to stay under (rendered into prompts/roles/init.md as {{max_chars}}). */
export const INPUT_FILE_TARGET_CHARS = 8_000;
/** A file longer than this (half again the target) is "far over its length": repaired, never written as is. */
export const INPUT_FILE_MAX_CHARS = 12_000;
/** A body shorter than this cannot hold the required sections: the reply is chatter or a stub. */
export const INPUT_FILE_MIN_CHARS = 300;
/** The whole decisions reply stays small: it is repeated in every file request. */
export const DECISIONS_MAX_CHARS = 5_000;

export type ReplyCheck<T> = { ok: true; value: T; notes: string[] } | { ok: false; problems: string[] };

/** A line (trimmed) that opens the fence wrapping a reply: its run, then at most a document language. */
const WRAPPING_FENCE_LINE = /^(`{3,}|~{3,})(?:[ \t]*(?:markdown|md|yaml|text))?$/i;

/**
 * Removes a code fence wrapping the whole reply (```markdown … ```), optionally preceded by a short lead-in line
 * such as "Here is the file:" (and blank lines). Fences inside the document are kept. Read line by line: a regex over
 * the whole reply backtracked quadratically on a fence line followed by a long run of spaces.
 */
export function stripWrappingFence(text: string): string {
  const t = text.trim();
  const lines = t.split('\n');
  const trimmed = (i: number) => lines[i].trim();
  // the last line closes the fence with the same run, alone on its line
  const closing = trimmed(lines.length - 1);
  const opensAt = (i: number) => i < lines.length - 2 && WRAPPING_FENCE_LINE.exec(trimmed(i))?.[1] === closing;
  let open = 0;
  if (!opensAt(0)) {
    // a lead-in line is tolerated only when it is chatter, not part of the document
    const leadIn = lines[0];
    if (leadIn.length > 200 || /^\s*(#|---|[-*] )/.test(leadIn)) return t;
    open = 1;
    while (open < lines.length && trimmed(open) === '') open++;
    if (!opensAt(open)) return t;
  }
  return withoutCr(lines.slice(open + 1, -1).join('\n'));
}

/** Markdown headings outside fenced code blocks. */
function countHeadings(markdown: string): number {
  const outside = fenceTracker();
  let n = 0;
  for (const line of markdown.split(/\r?\n/)) if (outside(line) && headingOf(line)?.title) n++;
  return n;
}

const FRONTMATTER_HINT = 'the file must start with the frontmatter "---", "type: input", "---" on three lines';

/**
 * Checks a reply meant to become `cape/<spec.path>`. On success `value` is the exact file content to write (a
 * wrapping fence removed, a final newline added); `notes` says what was tidied. On failure `problems` are
 * sentences for the repair request and the error message.
 */
export function checkInputReply(reply: string, spec: InputSpec, stopReason: string | null, maxTokens: number): ReplyCheck<string> {
  const problems: string[] = [];
  const notes: string[] = [];
  if (stopReason === 'max_tokens') {
    problems.push(`the reply was cut off at the output limit (${maxTokens} tokens), so the file is incomplete`);
  }
  if (reply.trim() === '') return { ok: false, problems: [...problems, 'the reply was empty'] };
  const text = stripWrappingFence(reply);
  if (text !== reply.trim()) notes.push('removed the code fence around the reply');

  const fm = parseFrontmatter(text);
  let body = text;
  if (!fm.ok) {
    problems.push(
      fm.kind === 'refused'
        ? `its frontmatter is refused (${fm.message}); ${FRONTMATTER_HINT}`
        : `its frontmatter is not valid YAML (line ${fm.line ?? '?'}: ${fm.message}); ${FRONTMATTER_HINT}`,
    );
  } else {
    body = fm.body;
    if (!fm.hasFrontmatter) {
      const first = sliceWhole(text.split('\n', 1)[0], 0, 80);
      problems.push(`it does not start with the frontmatter (it starts with "${first}"); ${FRONTMATTER_HINT}`);
    } else if (fm.data.type !== 'input') {
      problems.push(`its frontmatter says type: ${quoteFrontmatterValue(fm.data.type)}; it must say type: input`);
    }
  }
  const size = body.trim().length;
  if (size === 0) problems.push('the file has no content after the frontmatter');
  else if (size < INPUT_FILE_MIN_CHARS) problems.push(`the file is only ${size} characters long, too short to hold the required sections`);
  if (size > INPUT_FILE_MAX_CHARS) {
    problems.push(`the file is ${size} characters long; it must stay under ${INPUT_FILE_TARGET_CHARS.toLocaleString('en-US')} characters`);
  }
  const headings = countHeadings(body);
  if (size > 0 && headings < spec.sections.length) {
    problems.push(`it has ${headings} markdown heading(s), but each of the ${spec.sections.length} required sections needs its own heading`);
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: text.endsWith('\n') ? text : `${text}\n`, notes };
}

/** The follow-up request after a bad file reply (sent after the bad reply itself). */
export function inputRepairPrompt(spec: InputSpec, problems: readonly string[]): string {
  const cutOff = problems.some((p) => p.includes('cut off') || p.includes('characters long;'));
  return [
    `Your reply cannot be saved as cape/${spec.path}:`,
    '',
    ...problems.map((p) => `> ${p}`),
    '',
    'Send the whole file again, corrected: the frontmatter first (---, type: input, ---), then one # heading and the',
    `${spec.sections.length} required sections, each under its own heading, in the same language.`,
    cutOff
      ? `Be more concise so that it fits: stay under ${INPUT_FILE_TARGET_CHARS.toLocaleString('en-US')} characters.`
      : 'Keep your content; only fix the problems listed above.',
    'Reply with the file only: no code fence and nothing before or after it.',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Shared decisions

export type InitDecisions = Record<string, string>;

/** What comes before a decision line's first colon (trimmed): a bullet, bold or code marks, and the key. */
const DECISION_KEY = /^(?:[-*]\s+)?\**`?([A-Za-z][A-Za-z0-9_ ]*)`?\**$/;

/**
 * The key and value of a `- key: value` line, or null. Split at the line's first colon (no key has one), so each
 * side is read once: one regex over the line retried the spaces after a key before every colon it did not find.
 */
function decisionLine(line: string): { key: string; value: string } | null {
  const colon = line.indexOf(':');
  if (colon === -1) return null;
  const key = DECISION_KEY.exec(line.slice(0, colon).trim())?.[1];
  const value = line.slice(colon + 1).trimStart();
  return key === undefined || LINE_BREAK.test(value) ? null : { key, value };
}

/** Reads `- key: value` lines (bullets, bold keys and a wrapping fence tolerated) into the decisions of `specs`. */
export function checkDecisionsReply(reply: string, specs: readonly InitDecisionSpec[], stopReason: string | null): ReplyCheck<InitDecisions> {
  const problems: string[] = [];
  if (stopReason === 'max_tokens') problems.push('the reply was cut off at the output limit');
  const text = stripWrappingFence(reply);
  if (text === '') return { ok: false, problems: [...problems, 'the reply was empty'] };
  if (text.length > DECISIONS_MAX_CHARS) problems.push(`the reply is ${text.length} characters long; keep it under ${DECISIONS_MAX_CHARS}`);
  const known = new Set(specs.map((s) => s.key));
  const found: InitDecisions = {};
  const empty: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const d = decisionLine(line);
    if (!d) continue;
    const key = d.key.trim().toLowerCase().replace(/\s+/g, '_');
    if (!known.has(key) || key in found) continue;
    const value = d.value.trim().replace(/^\*\*\s*/, '');
    if (value === '') empty.push(key);
    else found[key] = value;
  }
  const missing = specs.map((s) => s.key).filter((k) => !(k in found) && !empty.includes(k));
  if (missing.length > 0) problems.push(`these decisions are missing: ${missing.join(', ')}`);
  if (empty.length > 0) problems.push(`these decisions have no value: ${empty.join(', ')}`);
  if (problems.length > 0) return { ok: false, problems };
  const ordered = Object.fromEntries(specs.map((s) => [s.key, found[s.key]]));
  return { ok: true, value: ordered, notes: [] };
}

/** The follow-up request after a bad decisions reply. */
export function decisionsRepairPrompt(specs: readonly InitDecisionSpec[], problems: readonly string[]): string {
  return [
    'Your reply cannot be used as the shared decisions:',
    '',
    ...problems.map((p) => `> ${p}`),
    '',
    `Send all ${specs.length} decisions again, one line each, in this order: ${specs.map((s) => s.key).join(', ')}.`,
    'Each line is "- key: value". Nothing else: no heading, no explanation, no code fence.',
  ].join('\n');
}

/** The decisions as `- key: value` lines: what every file request receives and what init stores. */
export function formatDecisions(decisions: InitDecisions): string {
  return Object.entries(decisions)
    .map(([k, v]) => `- ${k}: ${v}`)
    .join('\n');
}
