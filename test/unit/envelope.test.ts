// Envelope schemas: normalisation of real recorded replies and tolerance/strictness on synthetic ones.
import * as assert from 'assert';
import { normaliseAgentName, validateEnvelope } from '../../src/core/reply/envelope';
import type { CmOpeningOutput, Envelope, StepId } from '../../src/core/model/types';
import { loadRecordedSessions } from '../helpers/fixtures';

/** The JSON object of a recorded reply (the fixtures all use a ```json fence). */
function recordedJson(raw: string): Record<string, unknown> {
  const start = raw.indexOf('{');
  const fenceEnd = raw.indexOf('\n```', start);
  return JSON.parse(raw.slice(start, fenceEnd)) as Record<string, unknown>;
}

function ok(step: StepId, json: unknown): Envelope {
  const r = validateEnvelope(step, json);
  if (!r.ok) assert.fail(`expected ${step} to validate, got:\n${r.error}`);
  return r.envelope;
}

function err(step: StepId, json: unknown): string {
  const r = validateEnvelope(step, json);
  if (r.ok) assert.fail(`expected ${step} to be rejected`);
  return r.error;
}

function worker(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    agent: 'POA',
    role: 'Product Owner Agent',
    task_id: 'task-1',
    voice: 'I read the brief.',
    output: { acceptance_criteria: [{ given: 'a', when: 'b', then: 'c' }] },
    references: ['CM'],
    confidence: 4,
    ass: { score: 4, positive: 'clear brief', improvement: 'ask earlier', context_adequate: true },
    ...over,
  };
}

function opening(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    agent: 'CM',
    role: 'Cape Master',
    phase: 'opening',
    task_id: 'task-1',
    voice: 'Let us start.',
    output: {
      session_brief: 'Build the edit feature.',
      dor_check: { passed: false, concerns: ['no persona'] },
      watch_out: ['scope creep'],
      coaching_notes: { POA: 'values', DA: 'specs', DevA: 'files' },
    },
    ...over,
  };
}

function retro(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    agent: 'CM',
    role: 'Cape Master',
    phase: 'retrospective',
    task_id: 'task-1',
    conversation: [
      { speaker: 'CM', text: 'How did it go?' },
      { speaker: 'POA', text: 'Fine.' },
    ],
    kpt: { keep: ['k1'], problem: ['p1'], try: ['t1'] },
    metrics: { ass_average: 4 },
    ...over,
  };
}

describe('envelope: recorded sessions', () => {
  const sessions = loadRecordedSessions();

  it('finds recorded sessions to check', () => {
    assert.ok(sessions.length > 0, 'no recorded sessions in ../shared');
  });

  for (const s of sessions) {
    for (const st of s.steps) {
      it(`${s.file.split(/[\\/]/).pop()} ${st.step} validates and normalises`, () => {
        const json = recordedJson(st.raw);
        const env = ok(st.step, json);
        assert.strictEqual(env.agent, { cm_open: 'CM', poa: 'POA', da: 'DA', deva: 'DevA', cm_retro: 'CM' }[st.step]);
        assert.strictEqual(env.task_id, json.task_id);
        if (st.step === 'cm_open') {
          const o = env.output as CmOpeningOutput;
          assert.strictEqual(env.phase, 'opening');
          assert.strictEqual(env.voice, json.voice);
          assert.strictEqual(typeof o.session_brief, 'string');
          assert.strictEqual(typeof o.dor_check.passed, 'boolean');
          for (const a of ['POA', 'DA', 'DevA'] as const) assert.strictEqual(typeof o.coaching_notes[a], 'string');
          assert.ok(o.coaching_notes.POA.length > 0);
        } else if (st.step === 'cm_retro') {
          const conv = json.conversation as { speaker: string; text: string }[];
          assert.strictEqual(env.phase, 'retrospective');
          assert.strictEqual(env.output, null);
          assert.deepStrictEqual(env.conversation, conv.map((t) => ({ speaker: t.speaker, text: t.text })));
          const kpt = json.kpt as Record<string, string[]>;
          assert.deepStrictEqual(env.kpt, { keep: kpt.keep, problem: kpt.problem, try: kpt.try });
          assert.deepStrictEqual(env.reportedMetrics, json.metrics);
          // No voice key in the recorded retros: the first CM turn stands in for it.
          assert.strictEqual(env.voice, conv.find((t) => t.speaker === 'CM')?.text ?? '');
        } else {
          assert.strictEqual(env.voice, json.voice);
          assert.ok(env.ass !== null && env.ass.score !== null && env.ass.score >= 1 && env.ass.score <= 5);
          assert.ok(Array.isArray(env.references));
          const output = env.output as Record<string, unknown>;
          assert.ok(!('ass' in output) && !('confidence' in output) && !('references' in output), 'self-report must be hoisted out of output');
          const src = (json.ass ?? (json.output as Record<string, unknown>).ass) as { score: number };
          assert.strictEqual(env.ass.score, src.score);
        }
      });
    }
  }
});

describe('envelope: worker steps', () => {
  it('normalises a well-formed POA reply', () => {
    const env = ok('poa', worker());
    assert.deepStrictEqual(env, {
      agent: 'POA',
      role: 'Product Owner Agent',
      task_id: 'task-1',
      voice: 'I read the brief.',
      output: { acceptance_criteria: [{ given: 'a', when: 'b', then: 'c' }] },
      references: ['CM'],
      confidence: 4,
      ass: { score: 4, positive: 'clear brief', improvement: 'ask earlier', context_adequate: true },
    });
  });

  it('tolerates missing references and confidence', () => {
    const j = worker();
    delete j.references;
    delete j.confidence;
    const env = ok('da', { ...j, agent: 'DA' });
    assert.deepStrictEqual(env.references, []);
    assert.strictEqual(env.confidence, null);
  });

  it('hoists ass, confidence and references nested inside output', () => {
    const j = worker({ agent: 'DevA' });
    const output = { アーキテクチャ決定: { 方式: 'CSS' }, references: ['POA', 'DA'], confidence: 5, ass: { score: '3', positive: 'p', improvement: 'i', context_adequate: 'yes' } };
    delete j.references;
    delete j.confidence;
    delete j.ass;
    const env = ok('deva', { ...j, output });
    assert.deepStrictEqual(env.output, { アーキテクチャ決定: { 方式: 'CSS' } });
    assert.deepStrictEqual(env.references, ['POA', 'DA']);
    assert.strictEqual(env.confidence, 5);
    assert.deepStrictEqual(env.ass, { score: 3, positive: 'p', improvement: 'i', context_adequate: true });
  });

  it('hoists a voice nested inside output when the top level has none', () => {
    const j = worker({ output: { voice: 'nested', plan: 'x' } });
    delete j.voice;
    const env = ok('poa', j);
    assert.strictEqual(env.voice, 'nested');
    assert.deepStrictEqual(env.output, { plan: 'x' });
  });

  it('keeps long descriptive references and converts object references to text', () => {
    const long = 'POA: acceptance criteria AC-001-1 to AC-004-2, which defined the scope of the edit feature in detail';
    const env = ok('poa', worker({ references: [long, { agent: 'DA', note: 'tokens' }, 3] }));
    assert.deepStrictEqual(env.references, [long, 'DA — tokens', '3']);
  });

  it('accepts agent name variants', () => {
    assert.strictEqual(ok('deva', worker({ agent: 'DEVA', role: 'Developer Agent' })).agent, 'DevA');
    assert.strictEqual(ok('deva', worker({ agent: 'Developer Agent' })).agent, 'DevA');
    assert.strictEqual(ok('poa', worker({ agent: 'product_owner' })).agent, 'POA');
    assert.strictEqual(ok('cm_open', opening({ agent: 'Cape Master' })).agent, 'CM');
    assert.strictEqual(normaliseAgentName('cape-master'), 'CM');
    assert.strictEqual(normaliseAgentName('Designer'), 'DA');
    assert.strictEqual(normaliseAgentName('someone'), null);
    assert.strictEqual(normaliseAgentName(7), null);
  });

  it('fills a missing agent and role from the step', () => {
    const j = worker();
    delete j.agent;
    delete j.role;
    const env = ok('poa', j);
    assert.strictEqual(env.agent, 'POA');
    assert.strictEqual(env.role, 'Product Owner Agent');
  });

  it('rejects a reply from a different agent than the step expects', () => {
    assert.match(err('poa', worker({ agent: 'DA' })), /^agent: .*POA/);
    assert.match(err('deva', worker({ agent: 'CM' })), /agent/);
    assert.match(err('da', worker({ agent: undefined, role: 'Product Owner Agent' })), /^role: /);
    assert.match(err('da', worker({ agent: 'Bob', role: 'Bob' })), /unknown agent/);
  });

  it('requires voice as a string and output as an object or non-empty text', () => {
    const j = worker();
    delete j.voice;
    assert.match(err('poa', j), /^voice: required/m);
    assert.match(err('poa', worker({ voice: 42 })), /^voice: expected a string/m);
    assert.match(err('poa', worker({ output: null })), /^output: /m);
    assert.match(err('poa', worker({ output: 42 })), /^output: expected an object with your step output, or your step output as markdown text/m);
    assert.match(err('da', worker({ agent: 'DA', output: ['a', 'b'] })), /^output: expected an object .*got an array/m);
    assert.match(err('deva', worker({ agent: 'DevA', output: '  \n ' })), /^output: /m);
    const o = { ...worker() };
    delete o.output;
    assert.match(err('poa', o), /^output: required/m);
    // a long wrong value is shortened without splitting an emoji: the message goes back to the model in a request
    const e = err('poa', worker({ confidence: 'x'.repeat(36) + '😀'.repeat(5) }));
    assert.match(e, /^confidence: expected .*got a string \("x{36}…"\)/m);
    assert.ok(!/[\uD800-\uDFFF]/.test(e), e);
  });

  it('accepts a string output as the CAPE paper writes it, kept as is (POA, DA, DevA)', () => {
    const md = '## Acceptance criteria\n\n- Given a visitor, when they open the page, then they see the title.\n';
    for (const [step, agent] of [['poa', 'POA'], ['da', 'DA'], ['deva', 'DevA']] as const) {
      const env = ok(step, worker({ agent, role: undefined, output: md }));
      assert.strictEqual(env.output, md, step);
      assert.strictEqual(env.agent, agent);
    }
    // The paper's example literally.
    assert.strictEqual(ok('poa', worker({ output: 'Domain-specific content' })).output, 'Domain-specific content');
    // The opening still needs its object (the engine reads its DoR check and coaching notes).
    assert.match(err('cm_open', { agent: 'CM', phase: 'opening', voice: 'v', output: 'Domain-specific content' }), /^output: expected an object/m);
  });

  it('validates ass.score and confidence ranges, coercing numeric strings', () => {
    assert.match(err('poa', worker({ ass: { score: 7, positive: '', improvement: '', context_adequate: true } })), /^ass\.score: must be between 1 and 5 \(got 7\)/m);
    assert.match(err('poa', worker({ confidence: 0 })), /^confidence: must be between 1 and 5/m);
    assert.match(err('poa', worker({ ass: { score: 'great' } })), /^ass\.score: expected a number/m);
    assert.match(err('poa', worker({ ass: undefined })), /^ass: required/m);
    const env = ok('poa', worker({ confidence: '4', ass: { score: '5/5', positive: 'p' } }));
    assert.strictEqual(env.confidence, 4);
    assert.deepStrictEqual(env.ass, { score: 5, positive: 'p', improvement: '', context_adequate: null });
  });

  it('reports several problems at once, one "path: message" per line', () => {
    const e = err('poa', worker({ voice: 1, ass: { score: 9 }, references: 5 }));
    const lines = e.split('\n');
    assert.ok(lines.length >= 3, e);
    for (const l of lines) assert.match(l, /^[\w.[\]]+: .+/);
  });

  it('rejects non-objects and survives hostile input', () => {
    assert.match(err('poa', null), /expected a JSON object/);
    assert.match(err('poa', [worker()]), /expected a JSON object, got an array/);
    assert.match(err('cm_retro', 'text'), /expected a JSON object/);
    const hostile = worker({ output: Object.create(null) as object, voice: 'x'.repeat(100000) });
    assert.strictEqual(ok('poa', hostile).voice.length, 100000);
    const proto = JSON.parse('{"agent":"POA","voice":"v","output":{"__proto__":{"polluted":1}},"ass":{"score":3}}') as unknown;
    ok('poa', proto);
    assert.strictEqual(({} as Record<string, unknown>).polluted, undefined);
  });
});

describe('envelope: CM opening', () => {
  it('normalises the opening output', () => {
    const env = ok('cm_open', opening());
    assert.strictEqual(env.phase, 'opening');
    assert.deepStrictEqual(env.output, {
      session_brief: 'Build the edit feature.',
      dor_check: { passed: false, concerns: ['no persona'] },
      watch_out: ['scope creep'],
      coaching_notes: { POA: 'values', DA: 'specs', DevA: 'files' },
    });
    assert.strictEqual(env.ass, null);
    assert.deepStrictEqual(env.references, []);
  });

  it('tolerates coaching note key variants, missing notes and kpt_followups', () => {
    const env = ok(
      'cm_open',
      opening({
        phase: undefined,
        output: {
          session_brief: 'b',
          dor_check: { passed: 'true' },
          watch_out: 'one risk',
          coaching_notes: { poa: 'v', DEVA: 'f' },
          kpt_followups: ['Problem seen 3 times'],
        },
      }),
    );
    const o = env.output as CmOpeningOutput;
    assert.deepStrictEqual(o.coaching_notes, { POA: 'v', DA: '', DevA: 'f' });
    assert.deepStrictEqual(o.dor_check, { passed: true, concerns: [] });
    assert.deepStrictEqual(o.watch_out, ['one risk']);
    assert.deepStrictEqual(o.kpt_followups, ['Problem seen 3 times']);
  });

  it('rejects a missing brief, a retro phase or a worker agent', () => {
    assert.match(err('cm_open', opening({ output: { dor_check: { passed: true }, watch_out: [], coaching_notes: {} } })), /^output\.session_brief: required/m);
    assert.match(err('cm_open', opening({ phase: 'retrospective' })), /^phase: /m);
    assert.match(err('cm_open', opening({ agent: 'POA' })), /^agent: /m);
    assert.match(err('cm_open', opening({ output: { session_brief: 'b', dor_check: { passed: 'maybe' }, coaching_notes: {} } })), /^output\.dor_check\.passed: /m);
  });
});

describe('envelope: CM retrospective', () => {
  it('normalises conversation, kpt and metrics; voice falls back to the first CM turn', () => {
    const env = ok('cm_retro', retro());
    assert.strictEqual(env.voice, 'How did it go?');
    assert.strictEqual(env.output, null);
    assert.deepStrictEqual(env.kpt, { keep: ['k1'], problem: ['p1'], try: ['t1'] });
    assert.deepStrictEqual(env.reportedMetrics, { ass_average: 4 });
    assert.strictEqual(env.conversation?.length, 2);
  });

  it('keeps an explicit voice and uses "" when there is no CM turn', () => {
    assert.strictEqual(ok('cm_retro', retro({ voice: 'Thanks all.' })).voice, 'Thanks all.');
    assert.strictEqual(ok('cm_retro', retro({ conversation: [{ speaker: 'POA', text: 'x' }] })).voice, '');
  });

  it('keeps more than 10 KPT items, tolerates key case, object items and missing lists', () => {
    const many = Array.from({ length: 12 }, (_, k) => `keep ${k}`);
    const env = ok('cm_retro', retro({ kpt: { Keep: many, Problem: [{ text: 'slow' }] }, metrics: undefined }));
    assert.strictEqual(env.kpt?.keep.length, 12);
    assert.deepStrictEqual(env.kpt?.problem, ['slow']);
    assert.deepStrictEqual(env.kpt?.try, []);
    assert.deepStrictEqual(env.reportedMetrics, {});
  });

  it('reads a KPT list written as one multi-line string as its lines; a one-line string stays one item', () => {
    const env = ok('cm_retro', retro({ kpt: { keep: '- 良かった点A\n- 良かった点B\n- 良かった点C', problem: '1. 問題X\n2. 問題Y', try: 'トライP\nトライQ' } }));
    assert.deepStrictEqual(env.kpt, { keep: ['良かった点A', '良かった点B', '良かった点C'], problem: ['問題X', '問題Y'], try: ['トライP', 'トライQ'] });
    assert.deepStrictEqual(ok('cm_retro', retro({ kpt: { keep: '- one item', problem: [], try: 'A, B and C' } })).kpt, { keep: ['- one item'], problem: [], try: ['A, B and C'] });
    assert.deepStrictEqual((ok('cm_open', opening({ output: { ...(opening().output as object), watch_out: '・scope\n・tests\n' } })).output as CmOpeningOutput).watch_out, ['scope', 'tests']);
  });

  it('tolerates agent/message as turn fields', () => {
    const env = ok('cm_retro', retro({ conversation: [{ agent: 'DA', message: 'hi' }] }));
    assert.deepStrictEqual(env.conversation, [{ speaker: 'DA', text: 'hi' }]);
  });

  it('rejects a missing conversation, a bad turn or a missing kpt', () => {
    assert.match(err('cm_retro', retro({ conversation: undefined })), /^conversation: required/m);
    assert.match(err('cm_retro', retro({ conversation: [{ speaker: 'CM' }] })), /^conversation\[0\]\.text: required/m);
    assert.match(err('cm_retro', retro({ kpt: undefined })), /^kpt: required/m);
    assert.match(err('cm_retro', retro({ phase: 'opening' })), /^phase: /m);
  });
});

describe('envelope: DevA blockers', () => {
  const deva = (output: unknown) => ({
    agent: 'DevA',
    role: 'Developer Agent',
    task_id: 't',
    voice: 'v',
    output,
    references: [],
    confidence: 3,
    ass: { score: 3, positive: '', improvement: '', context_adequate: true },
  });

  it('absent, empty or unusable blockers leave the envelope without blockers', () => {
    for (const output of [{ file_list: [] }, { blockers: [] }, { blockers: null }, { blockers: [{ to: 'DA' }, 42, '  '] }, 'markdown output']) {
      assert.strictEqual(ok('deva', deva(output)).blockers, undefined, JSON.stringify(output));
    }
  });

  it('reads {to, question}, plain strings (→ DA) and agent names in any spelling', () => {
    const env = ok('deva', deva({ Blockers: [{ to: 'Designer Agent', question: ' Which breakpoint? ' }, 'Is the icon decorative?', { agent: 'po', text: 'Drop AC-3?' }] }));
    assert.deepStrictEqual(env.blockers, [
      { to: 'DA', question: 'Which breakpoint?' },
      { to: 'DA', question: 'Is the icon decorative?' },
      { to: 'POA', question: 'Drop AC-3?' },
    ]);
    assert.ok((env.output as Record<string, unknown>).Blockers, 'the output keeps what DevA wrote');
  });

  it('only DevA has blockers', () => {
    const da = { ...deva({ blockers: ['x'] }), agent: 'DA', role: 'Designer Agent' };
    assert.strictEqual(ok('da', da).blockers, undefined);
  });
});
