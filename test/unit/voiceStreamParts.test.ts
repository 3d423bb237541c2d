// The voice extractor's parts on their own (src/core/reply/): the string decoder and the value skipper across every
// chunk boundary (inside an escape, inside \uXXXX, between the halves of a surrogate pair), the outbox's ordering and
// surrogate holding, and the retrospective turns. End-to-end behaviour: voiceStream.test.ts.
import * as assert from 'assert';
import { JsonStringDecoder } from '../../src/core/reply/jsonStringDecoder';
import { JsonValueSkipper } from '../../src/core/reply/jsonValueSkipper';
import { VoiceOutbox } from '../../src/core/reply/voiceOutbox';
import { RetroTurns } from '../../src/core/reply/retroTurns';

/** Cuts `text` at the given indexes (sorted, inside the text). */
function cutAt(text: string, cuts: number[]): string[] {
  const out: string[] = [];
  let from = 0;
  for (const c of cuts) {
    out.push(text.slice(from, c));
    from = c;
  }
  out.push(text.slice(from));
  return out;
}

/** Decodes a string body (after its opening quote) fed as `chunks`; returns the text and what follows the quote. */
function decode(chunks: string[]): { text: string; rest: string; closed: boolean } {
  let text = '';
  let rest = '';
  const d = new JsonStringDecoder((t) => (text += t));
  d.begin();
  for (const c of chunks) {
    if (d.closed) {
      rest += c;
      continue;
    }
    const i = d.read(c, 0);
    if (d.closed) rest += c.slice(i);
    else assert.strictEqual(i, c.length);
  }
  return { text, rest, closed: d.closed };
}

/** Skips a value whose first character is body[0], fed as `chunks` of body.slice(1); returns what follows it. */
function skip(body: string, chunks: string[]): { rest: string; done: boolean } {
  const k = new JsonValueSkipper();
  k.start(body.charCodeAt(0));
  let rest = '';
  for (const c of chunks) {
    if (k.done) {
      rest += c;
      continue;
    }
    const i = k.skip(c, 0);
    if (k.done) rest += c.slice(i);
    else assert.strictEqual(i, c.length);
  }
  return { rest, done: k.done };
}

describe('voiceStream parts: JsonStringDecoder', () => {
  const value = 'a\n\t"q" \\ / \b\f\r é 😀 日本 end';
  const body = JSON.stringify(value).slice(1).replace('é', '\\u00E9').replace('😀', '\\ud83d\\ude00').replace(' / ', ' \\/ ') + ', "next": 1}';

  it('decodes every escape whole, at every single and double split point', () => {
    assert.ok(body.includes('\\u00E9') && body.includes('\\ud83d\\ude00') && body.includes('\\/'));
    for (let a = 1; a < body.length; a++) {
      assert.deepStrictEqual(decode(cutAt(body, [a])), { text: value, rest: ', "next": 1}', closed: true }, `cut at ${a}`);
      for (let b = a + 1; b < Math.min(body.length, a + 7); b++) {
        assert.strictEqual(decode(cutAt(body, [a, b])).text, value, `cuts at ${a}, ${b}`);
      }
    }
    assert.strictEqual(decode(body.split('')).text, value);
  });

  it('slices plain runs rather than concatenating characters', () => {
    const pieces: string[] = [];
    const d = new JsonStringDecoder((t) => pieces.push(t));
    d.begin();
    assert.strictEqual(d.read('xx"plain text\\nmore"tail', 3), 20);
    assert.deepStrictEqual(pieces, ['plain text', '\n', 'more']);
  });

  it('stays open until the closing quote, and reads a new string after begin()', () => {
    const r = decode(['abc', '\\', '"', 'def']);
    assert.deepStrictEqual(r, { text: 'abc"def', rest: '', closed: false });
    let text = '';
    const d = new JsonStringDecoder((t) => (text += t));
    d.begin();
    d.read('one\\u00', 0); // stopped inside an escape …
    d.begin(); // … a new string starts clean
    assert.strictEqual(d.read('two"', 0), 4);
    assert.strictEqual(text, 'onetwo');
  });

  it('keeps malformed escapes readable: \\uZZ12 gives U+FFFD then the text, \\q gives q', () => {
    for (const chunks of [['a\\uZZ12b\\qc"'], 'a\\uZZ12b\\qc"'.split('')]) assert.strictEqual(decode(chunks).text, 'a\ufffdZZ12bqc');
    assert.strictEqual(decode(['\\u00', 'g"']).text, '\ufffdg');
  });
});

describe('voiceStream parts: JsonValueSkipper', () => {
  const cases: [string, string][] = [
    ['{"a": "}]\\"{", "b": [1, {"c": "\\\\"}], "voice": "x"}', ', "next": 1}'],
    ['[1, [2, [3]], "]", {}]', '\n}'],
    ['"a \\" } ] string"', ', "k": 2}'],
    ['-12.5e3', ', "k": 2}'],
    ['true', '}'],
    ['tr"ue{', ' ,"k": 2}'], // a quote or brace inside a scalar belongs to it
    ['{"a": [1, 2}}', ', "k": 1}'], // a mismatched closer still closes one level
  ];

  it('finds the end of each value at every split point', () => {
    for (const [value, after] of cases) {
      const body = value + after;
      for (let a = 1; a < body.length; a++) {
        assert.deepStrictEqual(skip(body, cutAt(body.slice(1), [a - 1].filter((x) => x > 0))), { rest: after, done: true }, `${value} cut at ${a}`);
      }
      assert.deepStrictEqual(skip(body, body.slice(1).split('')), { rest: after, done: true }, `${value} one char at a time`);
    }
  });

  it('a backslash at the end of a chunk takes the first character of the next', () => {
    assert.deepStrictEqual(skip('"ab\\"c", 1', ['ab\\', '"c', '", 1']), { rest: ', 1', done: true });
    assert.deepStrictEqual(skip('{"a": "\\', ['"a": "\\', '"}"}', 'rest']), { rest: 'rest', done: true });
  });

  it('is not done while the value is open', () => {
    assert.deepStrictEqual(skip('{"a": {"b": "}"}', ['"a": {"b": "}"}']), { rest: '', done: false });
    assert.deepStrictEqual(skip('12', ['2']), { rest: '', done: false });
  });
});

describe('voiceStream parts: VoiceOutbox and RetroTurns', () => {
  it('keeps the order of voice and output and holds a trailing high surrogate until its pair or the end', () => {
    const calls: string[] = [];
    const box = new VoiceOutbox({ onVoice: (t) => calls.push('v:' + t), onOutput: (t) => calls.push('o:' + t) });
    box.voice('a');
    box.output('{');
    box.voice('b\ud83d');
    box.flush(true);
    assert.deepStrictEqual(calls, ['v:a', 'o:{', 'v:b']);
    box.voice('\ude00c');
    box.output('');
    box.output('\ud83c');
    box.flush(true);
    box.flush(false);
    assert.deepStrictEqual(calls, ['v:a', 'o:{', 'v:b', 'v:😀c', 'o:\ud83c']);
  });

  it('drops output without an onOutput handler', () => {
    const calls: string[] = [];
    const box = new VoiceOutbox({ onVoice: (t) => calls.push(t) });
    box.output('{"x":1}');
    box.voice('v');
    box.flush(false);
    assert.deepStrictEqual(calls, ['v']);
  });

  it('voices turns as "Speaker: text", holding a text that comes before its speaker', () => {
    let voiced = '';
    const box = new VoiceOutbox({ onVoice: (t) => (voiced += t) });
    const turns = new RetroTurns(box);
    const str = (key: string, text: string) => {
      const taken = turns.valueStarts(key);
      if (taken) turns.write(text);
      turns.valueEnds();
      return taken;
    };
    turns.begin();
    assert.ok(str('speaker', ' CM '));
    assert.ok(str('text', 'one'));
    assert.ok(!str('text', 'second text of the same turn'));
    assert.ok(!str('mood', 'ignored'));
    turns.finish();
    turns.begin();
    assert.ok(str('message', 'held'));
    assert.ok(str('agent', 'DA'));
    box.flush(false);
    assert.strictEqual(voiced, 'CM: one');
    turns.finish();
    turns.finish(); // once only
    box.flush(false);
    assert.strictEqual(voiced, 'CM: one\n\nDA: held');
    assert.strictEqual(turns.count, 2);
  });
});
