// Renders step outputs: a generic renderer for the free-form objects of POA/DA/DevA, the CM opening card and
// the retrospective (conversation, KPT, open questions; its metrics: metrics.ts). Structure is built with DOM calls;
// only string leaves go through markdown (sanitised), keys are plain text.
import { isPlainObject as isObj, WORKER_AGENTS, type KptLists, type OpenQuestion } from '../../src/core/model/types';
import { agentOfSpeaker, avatar, AGENT_NAME, h, icon } from './dom';
import { evidenceParts } from '../../src/core/session/evidence';
import { answeredBy, questionCounts, questionState } from '../../src/core/model/questionState';
import { renderInline, renderMarkdown } from './markdown';
import type { EnvelopeView } from './viewState';
import { str, strList } from './hostValues';

const MAX_DEPTH = 6;

/** "session_brief" / "openQuestionsForDevA" → "Session brief" / "Open questions for dev a" (kept readable). */
export function humanizeKey(key: string): string {
  const spaced = key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim();
  if (!spaced) return key;
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

const isPrimitive = (x: unknown): boolean => x === null || ['string', 'number', 'boolean'].includes(typeof x);

function leaf(x: unknown): HTMLElement {
  if (typeof x === 'string') return x.includes('\n') ? renderMarkdown(x) : renderInline(x);
  if (typeof x === 'boolean') return h('span', { class: 'value-bool', text: x ? 'yes' : 'no' });
  if (x === null) return h('span', { class: 'muted', text: '—' });
  return h('span', { class: 'value-num', text: str(x) });
}

/** Renders any JSON value as nested sections, lists and key/value rows. */
export function renderValue(value: unknown, depth = 0): HTMLElement {
  if (isPrimitive(value)) return leaf(value);
  if (depth >= MAX_DEPTH) return h('code', { class: 'value-deep', text: JSON.stringify(value).slice(0, 2000) });
  if (Array.isArray(value)) {
    if (value.length === 0) return h('span', { class: 'muted', text: '—' });
    if (value.every(isPrimitive)) return h('ul', { class: 'out-list' }, ...value.map((v) => h('li', {}, leaf(v))));
    return h('ol', { class: 'out-items' }, ...value.map((v) => h('li', { class: 'out-item' }, renderValue(v, depth + 1))));
  }
  const obj = value as Record<string, unknown>;
  const entries = Object.entries(obj);
  if (entries.length === 0) return h('span', { class: 'muted', text: '—' });
  const wrap = h('div', { class: `out-obj depth-${Math.min(depth, 3)}` });
  for (const [k, v] of entries) {
    if (depth === 0) {
      wrap.append(h('section', { class: 'out-section' }, h('h4', { class: 'out-heading', text: humanizeKey(k) }), renderValue(v, depth + 1)));
    } else if (isPrimitive(v)) {
      wrap.append(h('div', { class: 'kv' }, h('span', { class: 'kv-key', text: humanizeKey(k) }), h('span', { class: 'kv-value' }, leaf(v))));
    } else {
      wrap.append(h('div', { class: 'kv kv-block' }, h('div', { class: 'kv-key', text: humanizeKey(k) }), renderValue(v, depth + 1)));
    }
  }
  return wrap;
}

// ─── CM opening ────────────────────────────────────────────────────────────────────────────────────────────

/** The CM opening card, or null if the output does not look like an opening (then the generic renderer runs). */
export function renderOpeningCard(output: unknown): HTMLElement | null {
  if (!isObj(output) || (typeof output.session_brief !== 'string' && !isObj(output.dor_check))) return null;
  const dor = isObj(output.dor_check) ? output.dor_check : {};
  const passed = dor.passed === true;
  const concerns = strList(dor.concerns);
  const watch = strList(output.watch_out);
  const notes = isObj(output.coaching_notes) ? output.coaching_notes : {};
  const followups = strList(output.kpt_followups);

  const card = h('div', { class: 'opening-card' });
  if (str(output.session_brief)) {
    card.append(h('section', { class: 'card-section' }, h('h4', { class: 'out-heading', text: 'Session brief' }), renderMarkdown(str(output.session_brief))));
  }
  const dorHead = h(
    'div',
    { class: `dor ${passed ? 'dor-passed' : 'dor-failed'}` },
    icon(passed ? 'pass-filled' : 'warning'),
    h('span', { class: 'dor-label', text: passed ? 'Definition of Ready passed' : `Definition of Ready not met — ${concerns.length} concern${concerns.length === 1 ? '' : 's'}` }),
  );
  const dorSection = h('section', { class: 'card-section' }, dorHead);
  if (concerns.length) dorSection.append(h('ul', { class: 'concerns' }, ...concerns.map((c) => h('li', {}, renderInline(c)))));
  card.append(dorSection);
  if (watch.length) {
    card.append(
      h('section', { class: 'card-section' }, h('h4', { class: 'out-heading' }, icon('eye'), ' Watch out'), h('ul', { class: 'watch-out' }, ...watch.map((w) => h('li', {}, renderInline(w))))),
    );
  }
  const noteRows = WORKER_AGENTS.filter((a) => str(notes[a]).trim() !== '').map((a) =>
    h('div', { class: 'coach-note' }, avatar(a, true), h('div', { class: 'coach-body' }, h('div', { class: 'coach-name', text: `For ${AGENT_NAME[a]} (${a})` }), renderInline(str(notes[a])))),
  );
  if (noteRows.length) card.append(h('section', { class: 'card-section' }, h('h4', { class: 'out-heading', text: 'Coaching notes' }), ...noteRows));
  if (followups.length) {
    card.append(
      h('section', { class: 'card-section' }, h('h4', { class: 'out-heading' }, icon('history'), ' KPT follow-ups'), h('ul', { class: 'followups' }, ...followups.map((f) => h('li', {}, renderInline(f))))),
    );
  }
  return card;
}

// ─── Retrospective ─────────────────────────────────────────────────────────────────────────────────────────

export function renderConversation(turns: { speaker: string; text: string }[], label = 'Retrospective conversation'): HTMLElement {
  const list = h('ol', { class: 'conversation', attrs: { 'aria-label': label } });
  for (const t of turns) {
    const agent = agentOfSpeaker(t.speaker);
    list.append(
      h(
        'li',
        { class: `bubble-row ${agent === 'CM' ? 'from-cm' : 'from-agent'}` },
        avatar(agent, true),
        h('div', { class: `bubble bubble-${agent ? agent.toLowerCase() : 'other'}` }, h('div', { class: 'bubble-speaker', text: t.speaker || 'Unknown' }), renderInline(t.text)),
      ),
    );
  }
  return list;
}

export function renderKpt(kpt: KptLists): HTMLElement {
  const col = (title: string, cls: string, ico: string, items: string[]) =>
    h(
      'section',
      { class: `kpt-col kpt-${cls}` },
      h('h4', { class: 'kpt-title' }, icon(ico), ` ${title}`, h('span', { class: 'count', text: String(items.length) })),
      items.length ? h('ul', {}, ...items.map((i) => h('li', {}, renderInline(i)))) : h('p', { class: 'muted', text: 'Nothing this time.' }),
    );
  return h('div', { class: 'kpt' }, col('Keep', 'keep', 'thumbsup', kpt.keep), col('Problem', 'problem', 'warning', kpt.problem), col('Try', 'try', 'lightbulb', kpt.try));
}

/**
 * The roles' open questions at the session's end: those for the user to decide first, then those a later role answered
 * from the workspace, with its answer and where it saw it (so the user can check it) — one it answered only in part
 * with its own mark and where its open part went (core/model/questionState.ts). Null when no role asked any.
 */
export function renderOpenQuestions(questions: readonly OpenQuestion[]): HTMLElement | null {
  if (!questions.length) return null;
  const open = questions.filter((q) => !q.answer);
  const answered = questions.filter((q) => q.answer);
  const asked = (q: OpenQuestion) => [...(q.id ? [h('span', { class: 'question-id', text: q.id })] : []), ...(q.text ? [renderInline(q.text)] : [])];
  const list = h('ul', { class: 'open-questions', attrs: { 'aria-label': 'Open questions' } });
  for (const q of open) list.append(h('li', { class: 'open-question' }, icon('question'), ...asked(q)));
  for (const q of answered) {
    const a = q.answer!;
    const inPart = questionState(q) === 'answered-in-part';
    const by = capitalised(answeredBy(q));
    list.append(
      h(
        'li',
        { class: `open-question answered${inPart ? ' in-part' : ''}`, attrs: { title: inPart ? by : undefined } },
        icon(inPart ? 'arrow-circle-right' : 'pass'),
        ...asked(q),
        h('div', { class: 'question-answer' }, h('span', { class: 'answer-by', text: `${by}: ` }), renderInline(a.text), ...(a.evidence ? [renderEvidence(a.evidence)] : [])),
      ),
    );
  }
  const [toDecide, answeredCount] = questionCounts(questions);
  const says = [toDecide, answeredCount && `${answeredCount}: check them`].filter(Boolean).join(' · ');
  return h('div', { class: 'open-questions-block' }, h('p', { class: 'muted', text: says }), list);
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** An answer's evidence: each place it names opens the file at its lines (session/evidence.ts reads them). */
function renderEvidence(evidence: string): HTMLElement {
  const parts = evidenceParts(evidence).map((p) => {
    if (!p.place) return p.text;
    const { path, line, endLine } = p.place;
    const at = line === undefined ? '' : endLine === undefined ? ` at line ${line}` : ` at lines ${line}–${endLine}`;
    const data = { action: 'openFile', path, ...(line === undefined ? {} : { line: String(line) }), ...(endLine === undefined ? {} : { endLine: String(endLine) }) };
    return h('button', { class: 'link-button evidence-link', text: p.text, attrs: { type: 'button', title: `Open ${path}${at}` }, data });
  });
  return h('code', { class: 'answer-evidence' }, ...parts);
}

/** ASS, confidence and references of a worker's envelope, as a compact footer with the reflections. */
export function renderSelfAssessment(env: EnvelopeView): HTMLElement | null {
  const parts: HTMLElement[] = [];
  if (env.ass?.score != null) parts.push(h('span', { class: 'chip chip-ass', attrs: { title: 'Self-reported satisfaction (ASS)' } }, icon('star-full'), ` ASS ${env.ass.score}/5`));
  if (env.confidence != null) parts.push(h('span', { class: 'chip', attrs: { title: 'Confidence' } }, icon('verified'), ` Confidence ${env.confidence}`));
  if (env.ass?.contextAdequate != null)
    parts.push(h('span', { class: `chip ${env.ass.contextAdequate ? '' : 'chip-warn'}`, text: env.ass.contextAdequate ? 'Context adequate' : 'Context not adequate' }));
  for (const r of env.references) parts.push(h('span', { class: 'chip chip-ref', attrs: { title: 'Referenced' } }, icon('references'), ` ${r}`));
  const reflections: HTMLElement[] = [];
  if (env.ass?.positive) reflections.push(h('div', { class: 'kv kv-block' }, h('div', { class: 'kv-key', text: 'What went well' }), renderInline(env.ass.positive)));
  if (env.ass?.improvement) reflections.push(h('div', { class: 'kv kv-block' }, h('div', { class: 'kv-key', text: 'What to improve' }), renderInline(env.ass.improvement)));
  if (!parts.length && !reflections.length) return null;
  const foot = h('div', { class: 'self-assessment' }, h('div', { class: 'chips' }, ...parts));
  if (reflections.length) foot.append(h('details', { class: 'reflections' }, h('summary', { text: 'Self-assessment' }), ...reflections));
  return foot;
}
