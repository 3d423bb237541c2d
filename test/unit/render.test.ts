// Markdown rendering of envelope outputs: structure, key humanising, Given/When/Then, HTML escaping.
import * as assert from 'assert';
import MarkdownIt from 'markdown-it';
import { parseReply } from '../../src/core/parser';
import { envelopeToMarkdown, escapeText, humaniseKey, openingToMarkdown, outputToMarkdown, retroToMarkdown } from '../../src/core/render';
import type { CmOpeningOutput, Envelope } from '../../src/core/types';
import { loadRecordedSessions } from '../helpers/fixtures';

const md = new MarkdownIt({ html: false });

describe('render: keys and escaping', () => {
  it('humanises ASCII keys and keeps non-ASCII keys as written', () => {
    assert.strictEqual(humaniseKey('business_value_statement'), 'Business value statement');
    assert.strictEqual(humaniseKey('userStories'), 'User stories');
    assert.strictEqual(humaniseKey('handoff_notes_for_devA'), 'Handoff notes for devA');
    assert.strictEqual(humaniseKey('ass_score'), 'ASS score');
    assert.strictEqual(humaniseKey('open-questions'), 'Open questions');
    assert.strictEqual(humaniseKey('受け入れ基準（Given-When-Then）'), '受け入れ基準（Given-When-Then）');
    assert.strictEqual(humaniseKey('DevAへのハンドオフノート'), 'DevAへのハンドオフノート');
    assert.strictEqual(humaniseKey('___'), '___');
  });

  it('escapes &, < and >', () => {
    assert.strictEqual(escapeText('a < b && c > d'), 'a &lt; b &amp;&amp; c &gt; d');
  });
});

describe('render: outputToMarkdown', () => {
  it('renders top-level keys as headings, arrays as bullets and nested objects as labelled items', () => {
    const out = outputToMarkdown({
      scope: { in_scope: ['edit', 'delete'], out_of_scope: [] },
      priority: 'high',
      risks: [{ risk: 'slow', mitigation: 'cache' }],
    });
    assert.strictEqual(
      out,
      [
        '### Scope',
        '',
        '- **In scope:**',
        '  - edit',
        '  - delete',
        '- **Out of scope:** _none_',
        '',
        '### Priority',
        '',
        'high',
        '',
        '### Risks',
        '',
        '- **Risk:** slow',
        '  - **Mitigation:** cache',
      ].join('\n'),
    );
  });

  it('renders Given/When/Then objects on one line, labelled by their id', () => {
    const out = outputToMarkdown({
      acceptance_criteria: [
        { id: 'AC-1', given: 'a list', when: 'I add', then: 'it shows', note: 'must' },
        { Given: 'x', Then: 'y' },
      ],
    });
    assert.ok(out.includes('- AC-1: **Given** a list **When** I add **Then** it shows'), out);
    assert.ok(out.includes('  - **Note:** must'), out);
    assert.ok(out.includes('- **Given** x **Then** y'), out);
  });

  it('heads object items with their id and title', () => {
    const out = outputToMarkdown({ stories: [{ id: 'US-1', title: 'Edit', persona: 'Yuki' }] });
    assert.ok(out.includes('- **US-1** — Edit\n  - **Persona:** Yuki'), out);
  });

  it('never emits raw HTML, in values or keys', () => {
    const out = outputToMarkdown({ '<b>key</b>': '<script>alert(1)</script> & <img src=x onerror=y>', list: ['<iframe>'] });
    assert.ok(!/<(script|img|iframe|b)\b/i.test(out), out);
    assert.ok(out.includes('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;img'));
    const html = md.render(out);
    assert.ok(!/<(script|img|iframe)\b/i.test(html), html);
    assert.ok(html.includes('&lt;script&gt;'), html);
  });

  it('keeps multi-line text inside its list item', () => {
    const out = outputToMarkdown({ notes: ['line 1\nline 2'] });
    assert.ok(out.includes('- line 1\n  line 2'), out);
    assert.ok(md.render(out).includes('<li>line 1\nline 2</li>'));
  });

  it('renders scalars, nulls, booleans and non-object outputs', () => {
    assert.strictEqual(outputToMarkdown(null), '');
    assert.strictEqual(outputToMarkdown('just <text>'), 'just &lt;text&gt;');
    assert.strictEqual(outputToMarkdown(['a', 2]), '- a\n- 2');
    assert.strictEqual(outputToMarkdown({ ok: true, n: null }), '### Ok\n\nyes\n\n### N\n\n—');
  });

  it('stops at maxDepth and shows deeper values as compact (escaped) JSON', () => {
    const deep = { a: { b: { c: { d: { e: '<x>' } } } } };
    const out = outputToMarkdown(deep, { maxDepth: 3 });
    assert.ok(out.includes('{"d":{"e":"&lt;x&gt;"}}'), out);
    assert.ok(!out.includes('**E:**'), out);
    const full = outputToMarkdown(deep);
    assert.ok(full.includes('**E:** &lt;x&gt;'), full);
  });

  it('survives cyclic and very wide values', () => {
    const cyc: Record<string, unknown> = { name: 'loop' };
    cyc.self = cyc;
    const out = outputToMarkdown({ cyc }, { maxDepth: 4 });
    assert.ok(out.includes('[unrenderable value]') || out.includes('…'), out);
    const wide = outputToMarkdown({ items: Array.from({ length: 5000 }, (_, k) => `item ${k}`) });
    assert.strictEqual(wide.split('\n').length, 5002);
  });

  it('honours headingLevel', () => {
    assert.strictEqual(outputToMarkdown({ a: 'b' }, { headingLevel: 2 }), '## A\n\nb');
  });
});

describe('render: opening and retrospective', () => {
  const opening: CmOpeningOutput = {
    session_brief: 'Edit <tasks>.',
    dor_check: { passed: false, concerns: ['no persona'] },
    watch_out: ['scope creep'],
    coaching_notes: { POA: 'values', DA: '', DevA: 'files\nand tests' },
    kpt_followups: ['Problem seen 3×'],
  };

  it('renders the opening sections', () => {
    const out = openingToMarkdown(opening);
    assert.ok(out.startsWith('### Session brief\n\nEdit &lt;tasks&gt;.'), out);
    assert.ok(out.includes('**Not ready.**\n\n- no persona'));
    assert.ok(out.includes('### Watch out\n\n- scope creep'));
    assert.ok(out.includes('- **DA:** —'));
    assert.ok(out.includes('- **DevA:** files\n  and tests'));
    assert.ok(out.includes('### KPT follow-ups\n\n- Problem seen 3×'));
  });

  it('renders the retrospective conversation, KPT and reported metrics', () => {
    const env: Envelope = {
      agent: 'CM',
      role: 'Cape Master',
      task_id: 't',
      phase: 'retrospective',
      voice: 'x',
      output: null,
      references: [],
      confidence: null,
      ass: null,
      conversation: [
        { speaker: 'CM', text: 'How?' },
        { speaker: 'POA', text: 'Fine <3' },
      ],
      kpt: { keep: ['k'], problem: [], try: ['t'] },
      reportedMetrics: { ass_average: 4.5 },
    };
    const out = retroToMarkdown(env);
    assert.ok(out.includes('**CM:** How?\n\n**POA:** Fine &lt;3'), out);
    assert.ok(out.includes('### Keep\n\n- k'));
    assert.ok(out.includes('### Problem\n\n_none_'));
    assert.ok(out.includes('### Try\n\n- t'));
    assert.ok(out.includes('- **ASS average:** 4.5'));
  });

  it('renders every recorded envelope without raw HTML and with one heading per top-level output key', () => {
    for (const s of loadRecordedSessions()) {
      for (const st of s.steps) {
        const r = parseReply(st.step, st.raw);
        assert.ok(r.ok);
        const env = r.reply.envelope;
        const out = envelopeToMarkdown(st.step, env);
        assert.ok(out.length > 0);
        assert.ok(!/<[a-z/!]/i.test(out), `raw HTML-like text in ${st.step}`);
        if (st.step !== 'cm_open' && st.step !== 'cm_retro') {
          const keys = Object.keys(env.output as object);
          assert.strictEqual((out.match(/^### /gm) ?? []).length, keys.length);
          for (const k of keys) assert.ok(out.includes(`### ${escapeText(humaniseKey(k))}`));
        }
      }
    }
  });
});
