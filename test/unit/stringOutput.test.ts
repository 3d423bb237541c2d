// A POA/DA/DevA output written as markdown text (the CAPE paper's `"output": "Domain-specific content"`): it
// validates, reaches the next agents as text (not a JSON-escaped string) and the retrospective reads it by section.
import * as assert from 'assert';
import { buildStepContext, markdownParts, retroAgentDigest } from '../../src/core/session/context';
import { contextInputs, contextText } from '../helpers/contextInputs';
import type { Envelope } from '../../src/core/model/types';
import { validateEnvelope } from '../../src/core/reply/envelope';

const POA_MD = `## User stories

- As a visitor I want to see "overdue" tasks in red, so that I act on them first.

## Acceptance criteria

1. Given a task whose due date has passed, when the list renders, then its badge says "Overdue".
2. Given a task due today, when the list renders, then it has no badge.
`;

const DA_MD = `Overdue badge: \`--cape-danger\` background, white text, 4.5:1 contrast.

## Rationale

Red alone is not enough for colour-blind users, so the badge has a word.
`;

const DEVA_MD = `## Plan

Add \`isOverdue(task, today)\` and render the badge.

## Open questions

- Should "today" follow the user's time zone or UTC?
- Is a task without a due date ever overdue?

## Departures

- The badge is a span, not the Badge component DA named: the project has none yet.
`;

function envelope(step: 'poa' | 'da' | 'deva', output: string): Envelope {
  const agent = { poa: 'POA', da: 'DA', deva: 'DevA' }[step];
  const r = validateEnvelope(step, {
    agent,
    task_id: 't',
    voice: `${agent} speaking`,
    output,
    references: [],
    confidence: 4,
    ass: { score: 4, positive: 'p', improvement: 'i', context_adequate: true },
  });
  if (!r.ok) assert.fail(r.error);
  return r.envelope;
}

const inputs = contextInputs;
const text = contextText;

describe('string outputs (the paper\'s envelope)', () => {
  const poa = envelope('poa', POA_MD);
  const da = envelope('da', DA_MD);
  const deva = envelope('deva', DEVA_MD);

  it('are stored in the envelope exactly as written', () => {
    assert.strictEqual(poa.output, POA_MD);
    assert.strictEqual(da.output, DA_MD);
    assert.strictEqual(deva.output, DEVA_MD);
  });

  it('DA receives POA\'s markdown as text, once, not as a JSON string', () => {
    const t = text(buildStepContext('da', inputs('da', { poa })));
    assert.ok(t.includes(POA_MD.trim()), 'POA\'s output reaches DA verbatim');
    assert.ok(!t.includes(JSON.stringify(POA_MD).slice(0, 40)), 'not JSON-escaped');
    assert.strictEqual(t.split('Given a task whose due date has passed').length - 1, 1, 'POA\'s text is sent once');
    assert.ok(!t.includes('POA speaking'), 'not POA\'s voice');
  });

  it('DevA receives POA\'s and DA\'s markdown as text', () => {
    const t = text(buildStepContext('deva', inputs('deva', { poa, da })));
    assert.ok(t.includes(POA_MD.trim()));
    assert.ok(t.includes(DA_MD.trim()));
    assert.ok(!t.includes('\\n## '), 'no escaped newlines');
  });

  it('the retrospective gets a markdown output\'s open questions and departures whole, by section', () => {
    const digest = retroAgentDigest(deva);
    assert.deepStrictEqual(digest.open_questions, ["Should \"today\" follow the user's time zone or UTC?", 'Is a task without a due date ever overdue?']);
    assert.deepStrictEqual(digest.departures, ['The badge is a span, not the Badge component DA named: the project has none yet.']);
    assert.deepStrictEqual(digest.delivered, { Plan: 'Add `isOverdue(task, today)` and render the badge.' });
    const t = text(buildStepContext('cm_retro', inputs('cm_retro', { poa, da, deva })));
    assert.ok(t.includes('Is a task without a due date ever overdue?'));
    assert.ok(t.includes('Red alone is not enough for colour-blind users'), 'DA\'s markdown reaches the retro');
  });

  it('bounds a huge markdown output in the retrospective outline', () => {
    const huge = Array.from({ length: 200 }, (_, i) => `## Part ${i}\n\n${'A sentence about the design. '.repeat(30)}`).join('\n\n');
    const digest = retroAgentDigest(envelope('deva', huge));
    assert.ok(JSON.stringify(digest.delivered).length <= 2000, `outline is bounded (${JSON.stringify(digest.delivered).length})`);
  });

  it('markdownParts names the text before the first heading and keeps repeated headings apart', () => {
    assert.deepStrictEqual(markdownParts('intro\n\n## A\nx\n## A\n- y\n- z\n'), { text: 'intro', A: 'x', 'A (2)': ['y', 'z'] });
  });

  it('markdownParts reads a list by the markers a list field is read by (text/markdown.ts listItems): `・`, `•`, `1)`', () => {
    assert.deepStrictEqual(markdownParts('## 良かった点\n・A\n・B\n## Try\n• C\n•D\n## Steps\n1) E\n2) F\n## Prose\nP\nQ\n'), {
      良かった点: ['A', 'B'],
      Try: ['C', 'D'],
      Steps: ['E', 'F'],
      Prose: 'P\nQ',
    });
  });
});
