// Pure markdown rendering of envelopes, shared by the CLI and the webview.
//
// Agents answer with free-form output objects (keys in English or Japanese, nested lists, acceptance
// criteria as Given/When/Then objects). These helpers turn them into readable markdown:
//   - top-level keys become headings, nested keys bold labels ("**Label:** value");
//   - ASCII keys are humanised ("handoff_notes_for_devA" → "Handoff notes for devA"), non-ASCII keys
//     are kept exactly as written;
//   - arrays become bullet lists, nested values are indented under their parent item;
//   - objects with given/when/then become "**Given** … **When** … **Then** …";
//   - text is escaped (& < >) so no raw HTML ever reaches a renderer: with html off, markdown shows
//     "<script>" literally; with html on it is still inert text.
import type { CmOpeningOutput, Envelope, StepId } from './types';

export interface RenderOptions {
  /** Nesting depth rendered as structure; deeper values are shown as compact JSON. Default 8. */
  maxDepth?: number;
  /** Level of the headings for top-level keys (1–6). Default 3. */
  headingLevel?: number;
}

const DEFAULT_MAX_DEPTH = 8;
const MAX_INLINE_JSON = 300;

/** Escapes the characters that could form HTML: & < >. */
export function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Words shown in capitals when humanising keys. */
const ACRONYMS = new Set(['ac', 'api', 'ass', 'css', 'dod', 'dor', 'id', 'kpi', 'kpt', 'mvp', 'qa', 'ui', 'url', 'ux', 'xrf', 'ett', 'tsr']);

/**
 * "business_value_statement" → "Business value statement", "userStories" → "User stories",
 * "handoff_notes_for_devA" → "Handoff notes for devA". Keys with non-ASCII characters are kept as is.
 */
export function humaniseKey(key: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(key)) return key;
  const spaced = key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z][a-z])/g, '$1 $2')
    .replace(/\s+/g, ' ')
    .trim();
  if (spaced === '') return key;
  const words = spaced.split(' ').map((w, k) => {
    if (ACRONYMS.has(w.toLowerCase())) return w.toUpperCase();
    return k > 0 && /^[A-Z][a-z]+$/.test(w) ? w.toLowerCase() : w;
  });
  const first = words[0];
  words[0] = first.charAt(0).toUpperCase() + first.slice(1);
  return words.join(' ');
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isScalar(v: unknown): boolean {
  return v === null || v === undefined || (typeof v !== 'object' && typeof v !== 'function');
}

function scalarText(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'string') return escapeText(v);
  return escapeText(String(v));
}

function compactJson(v: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = '[unrenderable value]';
  }
  if (s.length > MAX_INLINE_JSON) s = s.slice(0, MAX_INLINE_JSON) + '…';
  return escapeText(s);
}

/** Multi-line text inside a list item: continuation lines are indented to stay in the item. */
function indentContinuation(text: string, indent: string): string {
  return text.replace(/\r?\n/g, '\n' + indent);
}

const GWT_KEYS: Record<'given' | 'when' | 'then', string[]> = {
  given: ['given', '前提'],
  when: ['when', '操作', 'トリガー'],
  then: ['then', '結果', '期待結果'],
};

/** Finds given/when/then keys (case-insensitive, a few Japanese aliases). */
function gwtKeys(o: Record<string, unknown>): { given: string; when: string | null; then: string } | null {
  const find = (names: string[]) => Object.keys(o).find((k) => names.includes(k.trim().toLowerCase())) ?? null;
  const given = find(GWT_KEYS.given);
  const then = find(GWT_KEYS.then);
  if (given === null || then === null) return null;
  return { given, when: find(GWT_KEYS.when), then };
}

function gwtLine(o: Record<string, unknown>, keys: { given: string; when: string | null; then: string }): string {
  const part = (v: unknown) => (isScalar(v) ? scalarText(v) : compactJson(v));
  const segs = [`**Given** ${part(o[keys.given])}`];
  if (keys.when !== null) segs.push(`**When** ${part(o[keys.when])}`);
  segs.push(`**Then** ${part(o[keys.then])}`);
  return segs.join(' ');
}

const LABEL_KEYS = ['id', 'title', 'name'];

class Renderer {
  constructor(private readonly maxDepth: number) {}

  /** Lines of a bullet list for an array, each item prefixed with "- " at `indent`. */
  list(arr: unknown[], depth: number, indent: string): string[] {
    if (arr.length === 0) return [`${indent}- _none_`];
    const lines: string[] = [];
    for (const item of arr) lines.push(...this.item(item, depth, indent));
    return lines;
  }

  /** One list item (may span several lines). */
  item(v: unknown, depth: number, indent: string): string[] {
    const inner = indent + '  ';
    if (isScalar(v)) return [`${indent}- ${indentContinuation(scalarText(v), inner)}`];
    if (depth >= this.maxDepth) return [`${indent}- ${compactJson(v)}`];
    if (Array.isArray(v)) {
      if (v.length === 0) return [`${indent}- _none_`];
      const [first, ...rest] = this.list(v, depth + 1, inner);
      return [`${indent}- ${first.trimStart()}`, ...rest];
    }
    const o = v as Record<string, unknown>;
    const entries = Object.entries(o);
    if (entries.length === 0) return [`${indent}- _none_`];
    const gwt = gwtKeys(o);
    if (gwt) {
      const used = new Set<string>([gwt.given, gwt.then, ...(gwt.when ? [gwt.when] : [])]);
      const labelKey = LABEL_KEYS.find((k) => typeof o[k] === 'string' || typeof o[k] === 'number');
      if (labelKey) used.add(labelKey);
      const label = labelKey ? `${scalarText(o[labelKey])}: ` : '';
      const lines = [`${indent}- ${label}${gwtLine(o, gwt)}`];
      const rest = entries.filter(([k]) => !used.has(k));
      for (const [k, val] of rest) lines.push(...this.entry(k, val, depth + 1, inner));
      return lines;
    }
    // An object item. With an id/title/name, those head the bullet and the other entries are
    // nested under it; otherwise the first entry sits on the bullet line.
    const idKey = ['id', 'ID', 'Id'].find((k) => typeof o[k] === 'string' || typeof o[k] === 'number');
    const titleKey = ['title', 'name', 'Title', 'Name'].find((k) => typeof o[k] === 'string' || typeof o[k] === 'number');
    const lines: string[] = [];
    if (idKey || titleKey) {
      const head = [idKey ? `**${scalarText(o[idKey])}**` : '', titleKey ? indentContinuation(scalarText(o[titleKey]), inner) : '']
        .filter(Boolean)
        .join(' — ');
      lines.push(`${indent}- ${head}`);
      for (const [k, val] of entries) if (k !== idKey && k !== titleKey) lines.push(...this.entry(k, val, depth + 1, inner));
      return lines;
    }
    for (const [k, val] of entries) lines.push(...this.entry(k, val, depth + 1, inner));
    lines[0] = `${indent}- ${lines[0].slice(inner.length + 2)}`;
    return lines;
  }

  /** "- **Label:** value" or "- **Label**" followed by the nested value, at `indent`. */
  entry(key: string, v: unknown, depth: number, indent: string): string[] {
    const label = escapeText(humaniseKey(key));
    const inner = indent + '  ';
    if (isScalar(v)) return [`${indent}- **${label}:** ${indentContinuation(scalarText(v), inner)}`];
    if (depth >= this.maxDepth) return [`${indent}- **${label}:** ${compactJson(v)}`];
    if (Array.isArray(v)) {
      if (v.length === 0) return [`${indent}- **${label}:** _none_`];
      return [`${indent}- **${label}:**`, ...this.list(v, depth + 1, inner)];
    }
    const o = v as Record<string, unknown>;
    const gwt = gwtKeys(o);
    if (gwt && Object.keys(o).length <= 4) return [`${indent}- **${label}:** ${gwtLine(o, gwt)}`];
    const entries = Object.entries(o);
    if (entries.length === 0) return [`${indent}- **${label}:** _none_`];
    const lines = [`${indent}- **${label}:**`];
    for (const [k, val] of entries) lines.push(...this.entry(k, val, depth + 1, inner));
    return lines;
  }

  /** A value as a top-level block (under a heading). */
  block(v: unknown, depth: number): string {
    if (isScalar(v)) return typeof v === 'string' ? escapeText(v) : scalarText(v);
    if (depth >= this.maxDepth) return compactJson(v);
    if (Array.isArray(v)) return this.list(v, depth, '').join('\n');
    const o = v as Record<string, unknown>;
    const gwt = gwtKeys(o);
    if (gwt && Object.keys(o).length <= 4) return gwtLine(o, gwt);
    const entries = Object.entries(o);
    if (entries.length === 0) return '_none_';
    return entries.flatMap(([k, val]) => this.entry(k, val, depth + 1, '')).join('\n');
  }
}

/**
 * Renders an agent's free-form output as markdown: one heading per top-level key, then lists.
 * Never throws and never emits raw HTML.
 */
export function outputToMarkdown(output: unknown, opts: RenderOptions = {}): string {
  const maxDepth = Math.max(1, opts.maxDepth ?? DEFAULT_MAX_DEPTH);
  const hashes = '#'.repeat(Math.min(6, Math.max(1, opts.headingLevel ?? 3)));
  const r = new Renderer(maxDepth);
  if (output === null || output === undefined) return '';
  if (!isPlainObject(output)) return r.block(output, 0);
  const sections: string[] = [];
  for (const [k, v] of Object.entries(output)) {
    sections.push(`${hashes} ${escapeText(humaniseKey(k))}\n\n${r.block(v, 1)}`);
  }
  return sections.join('\n\n');
}

function bullets(items: string[]): string {
  if (items.length === 0) return '_none_';
  return items.map((t) => `- ${indentContinuation(escapeText(t), '  ')}`).join('\n');
}

/** The CM opening: brief, Definition of Ready, watch-outs, coaching notes, KPT follow-ups. */
export function openingToMarkdown(o: CmOpeningOutput, opts: Pick<RenderOptions, 'headingLevel'> = {}): string {
  const h = '#'.repeat(Math.min(6, Math.max(1, opts.headingLevel ?? 3)));
  const parts = [
    `${h} Session brief\n\n${escapeText(o.session_brief)}`,
    `${h} Definition of Ready\n\n${o.dor_check.passed ? '**Ready.**' : '**Not ready.**'}` +
      (o.dor_check.concerns.length > 0 ? `\n\n${bullets(o.dor_check.concerns)}` : ''),
    `${h} Watch out\n\n${bullets(o.watch_out)}`,
    `${h} Coaching notes\n\n` +
      (['POA', 'DA', 'DevA'] as const)
        .map((a) => `- **${a}:** ${o.coaching_notes[a] ? indentContinuation(escapeText(o.coaching_notes[a]), '  ') : '—'}`)
        .join('\n'),
  ];
  if (o.kpt_followups && o.kpt_followups.length > 0) parts.push(`${h} KPT follow-ups\n\n${bullets(o.kpt_followups)}`);
  return parts.join('\n\n');
}

/** The retrospective: the conversation, Keep/Problem/Try, and the metrics the model reported. */
export function retroToMarkdown(env: Envelope, opts: RenderOptions = {}): string {
  const level = Math.min(6, Math.max(1, opts.headingLevel ?? 3));
  const h = '#'.repeat(level);
  const parts: string[] = [];
  const turns = env.conversation ?? [];
  if (turns.length > 0) {
    parts.push(`${h} Conversation\n\n` + turns.map((t) => `**${escapeText(t.speaker)}:** ${escapeText(t.text)}`).join('\n\n'));
  } else if (env.voice) {
    parts.push(escapeText(env.voice));
  }
  const kpt = env.kpt ?? { keep: [], problem: [], try: [] };
  parts.push(`${h} Keep\n\n${bullets(kpt.keep)}`, `${h} Problem\n\n${bullets(kpt.problem)}`, `${h} Try\n\n${bullets(kpt.try)}`);
  const reported = env.reportedMetrics;
  if (reported && Object.keys(reported).length > 0) {
    parts.push(
      `${h} Metrics reported by the model\n\n_Informational only: the session metrics are computed from the envelopes._\n\n` +
        new Renderer(Math.max(1, opts.maxDepth ?? DEFAULT_MAX_DEPTH)).block(reported, 0),
    );
  }
  return parts.join('\n\n');
}

/** Markdown of one step's envelope output (opening, worker output or retrospective). */
export function envelopeToMarkdown(step: StepId, env: Envelope, opts: RenderOptions = {}): string {
  if (step === 'cm_open' && isPlainObject(env.output) && 'dor_check' in env.output) {
    return openingToMarkdown(env.output as unknown as CmOpeningOutput, opts);
  }
  if (step === 'cm_retro') return retroToMarkdown(env, opts);
  return outputToMarkdown(env.output, opts);
}
