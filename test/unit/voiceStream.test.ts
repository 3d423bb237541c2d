// Streaming voice extractor: recorded replies in random chunks, escapes split anywhere, surrogate
// pairs, keys that must not trigger, the retrospective conversation and the raw output stream.
import * as assert from 'assert';
import { VoiceExtractor } from '../../src/core/reply/voiceStream';
import { loadRecordedSessions } from '../helpers/fixtures';

interface Run {
  voice: string;
  output: string;
  voiceCalls: string[];
}

/** Feeds `text` in chunks whose sizes come from `sizes` (cycled). */
function run(text: string, sizes: number[] | ((k: number) => number)): Run {
  const voiceCalls: string[] = [];
  let output = '';
  const x = new VoiceExtractor({ onVoice: (t) => voiceCalls.push(t), onOutput: (t) => (output += t) });
  for (let i = 0, k = 0; i < text.length; k++) {
    const n = typeof sizes === 'function' ? sizes(k) : sizes[k % sizes.length];
    x.push(text.slice(i, i + n));
    i += n;
  }
  x.end();
  return { voice: voiceCalls.join(''), output, voiceCalls };
}

/** Deterministic pseudo-random chunk sizes in [1, max]. */
function randomSizes(seed: number, max: number): (k: number) => number {
  let a = seed;
  return () => {
    a = (a * 1103515245 + 12345) & 0x7fffffff;
    return 1 + (a % max);
  };
}

function recordedJson(raw: string): Record<string, unknown> {
  const start = raw.indexOf('{');
  return JSON.parse(raw.slice(start, raw.indexOf('\n```', start))) as Record<string, unknown>;
}

describe('voiceStream: recorded replies', () => {
  const sessions = loadRecordedSessions();
  it('has recorded sessions to check', () => assert.ok(sessions.length > 0));

  for (const s of sessions) {
    for (const st of s.steps) {
      it(`${s.file.split(/[\\/]/).pop()} ${st.step}: streamed voice equals the parsed one for any chunking`, () => {
        const json = recordedJson(st.raw);
        const expected =
          typeof json.voice === 'string'
            ? json.voice
            : (json.conversation as { speaker: string; text: string }[]).map((t) => `${t.speaker}: ${t.text}`).join('\n\n');
        assert.ok(expected.length > 0);
        for (const sizes of [[1], [2], [7], [64], randomSizes(st.raw.length, 40), randomSizes(3, 400), [st.raw.length]]) {
          const r = run(st.raw, sizes);
          assert.strictEqual(r.voice, expected);
          if (json.output !== undefined) assert.deepStrictEqual(JSON.parse(r.output), json.output);
          else assert.strictEqual(r.output, '');
        }
      });
    }
  }
});

describe('voiceStream: escapes and unicode', () => {
  const voice = 'Line1\nTab\there "quoted" back\\slash /slash \b\f\r é 日本語 😀 end';
  const raw = '```json\n' + JSON.stringify({ agent: 'POA', voice, output: { x: 1 } }).replace('😀', '\\ud83d\\ude00').replace('é', '\\u00E9').replace('/slash', '\\/slash') + '\n```';

  it('decodes every JSON escape, at every possible split point', () => {
    assert.ok(raw.includes('\\ud83d\\ude00') && raw.includes('\\/') && raw.includes('\\u00E9'));
    for (let cut = 1; cut < raw.length; cut++) {
      assert.strictEqual(run(raw, [cut, raw.length]).voice, voice, `split at ${cut}`);
    }
    assert.strictEqual(run(raw, [1]).voice, voice);
    assert.strictEqual(run(raw, [3, 1, 2, 5]).voice, voice);
  });

  it('never emits half of an escaped surrogate pair on its own', () => {
    const r = run(raw, [1]);
    for (const call of r.voiceCalls) {
      const last = call.charCodeAt(call.length - 1);
      assert.ok(!(last >= 0xd800 && last <= 0xdbff), 'a call ended with a lone high surrogate');
    }
    assert.ok(r.voiceCalls.some((c) => c.includes('😀')));
  });

  it('keeps raw (unescaped) surrogate pairs whole when a push splits them', () => {
    const v = '🎉 party 👩‍💻 done 𝒳';
    const text = '{"voice": ' + JSON.stringify(v) + ', "agent": "DA"}';
    const r = run(text, [1]);
    assert.strictEqual(r.voice, v);
    for (const call of r.voiceCalls) {
      const first = call.charCodeAt(0);
      assert.ok(!(first >= 0xdc00 && first <= 0xdfff), 'a call started with a lone low surrogate');
    }
  });

  it('replaces a malformed \\u escape instead of failing', () => {
    assert.strictEqual(run('{"voice": "a\\uZZ12b", "agent": "POA"}', [1]).voice, 'a\ufffdZZ12b');
  });
});

describe('voiceStream: only the top-level voice triggers', () => {
  it('ignores "voice" keys in nested objects and "voice" text inside string values', () => {
    const json = {
      agent: 'DA',
      note: 'the "voice": "fake" key in a string',
      meta: { voice: 'nested voice', list: [{ voice: 'deeper' }] },
      output: { voice: 'inside output' },
      voice: 'the real one',
    };
    for (const sizes of [[1], [5], [1000]]) {
      const r = run(JSON.stringify(json, null, 2), sizes);
      assert.strictEqual(r.voice, 'the real one');
      assert.deepStrictEqual(JSON.parse(r.output), { voice: 'inside output' });
    }
  });

  it('ignores an escaped quote followed by voice-like text', () => {
    const r = run('{"agent": "POA", "x": "\\", \\"voice\\": \\"no", "voice": "yes"}', [1]);
    assert.strictEqual(r.voice, 'yes');
  });

  it('skips leading prose, including a brace in the prose', () => {
    const r = run('I will answer {briefly}.\n```json\n{"agent":"POA","voice":"hello","output":{}}\n```', [4]);
    assert.strictEqual(r.voice, 'hello');
    assert.strictEqual(r.output, '{}');
  });

  it('ignores everything after the envelope (DevA files)', () => {
    const text = '```json\n{"agent":"DevA","voice":"v","output":{"a":[1,2]}}\n```\n<file path="x.json">\n{"voice": "file", "output": 3}\n</file>';
    const r = run(text, [3]);
    assert.strictEqual(r.voice, 'v');
    assert.strictEqual(r.output, '{"a":[1,2]}');
  });

  it('emits only the first top-level voice and handles scalar/empty values', () => {
    assert.strictEqual(run('{"agent":"POA","voice":"","output":null}', [2]).voice, '');
    assert.strictEqual(run('{"agent":"POA","voice":"","output":null}', [2]).output, 'null');
    assert.strictEqual(run('{"agent":"POA","voice":"a","voice":"b"}', [1]).voice, 'a');
    assert.strictEqual(run('{"agent":"POA","voice":null,"confidence":4}', [1]).voice, '');
  });

  it('streams voice before output, in order, at most one call of each per push', () => {
    const events: string[] = [];
    const x = new VoiceExtractor({ onVoice: (t) => events.push('v:' + t), onOutput: (t) => events.push('o:' + t) });
    x.push('{"voice":"ab","output":{"k":"v"}}');
    x.end();
    assert.deepStrictEqual(events, ['v:ab', 'o:{"k":"v"}']);
    assert.ok(x.foundVoice && x.voiceComplete);
  });

  it('works without an onOutput handler and ignores pushes after end()', () => {
    const parts: string[] = [];
    const x = new VoiceExtractor({ onVoice: (t) => parts.push(t) });
    x.push('{"voice":"a');
    x.push('b"');
    x.end();
    x.push('more"}');
    assert.strictEqual(parts.join(''), 'ab');
  });
});

describe('voiceStream: retrospective conversation', () => {
  it('emits "Speaker: text" turns separated by blank lines', () => {
    const json = {
      agent: 'CM',
      phase: 'retrospective',
      conversation: [
        { speaker: 'CM', text: 'How was it?\nHonestly.' },
        { speaker: 'POA', text: 'Good "enough".' },
        { text: 'Text before speaker', speaker: 'DA' },
        { speaker: 'DevA' },
      ],
      kpt: { keep: ['a'], problem: [], try: [] },
    };
    const expected = 'CM: How was it?\nHonestly.\n\nPOA: Good "enough".\n\nDA: Text before speaker';
    for (const sizes of [[1], [9], [10000]]) assert.strictEqual(run(JSON.stringify(json, null, 2), sizes).voice, expected);
  });

  it('does not stream conversation text when a voice was already given', () => {
    const r = run('{"agent":"CM","voice":"Summary.","conversation":[{"speaker":"CM","text":"x"}]}', [1]);
    assert.strictEqual(r.voice, 'Summary.');
  });
});

describe('voiceStream: cost is linear in the input', () => {
  it('reads a 4 MB reply in chunks of 1 to 50 characters whole', () => {
    // About 200,000 chunks: an extractor that read again what it already had at each chunk would take hours here (the
    // suite's timeout fails the test), one that reads each character once under a second. No time is asserted here:
    // the throughput is the benchmark's (bench/voice.ts).
    const voice = 'ボイス "q" \\ \n'.repeat(100000);
    const output = { items: Array.from({ length: 20000 }, (_, k) => ({ k, s: 'x'.repeat(50) + '"{}' })) };
    const text = '```json\n' + JSON.stringify({ agent: 'POA', voice, output }) + '\n```';
    const r = run(text, [1, 2, 3, 50]);
    assert.strictEqual(r.voice, voice);
    assert.strictEqual(r.output, JSON.stringify(output));
  });
});
