// Reply parser: every recorded reply, fenced/bare/prose variants, file blocks, truncation, repair prompt.
import * as assert from 'assert';
import { extractFiles } from '../../src/core/reply/blocks';
import { parseReply, repairPrompt } from '../../src/core/reply/parser';
import { ERROR_MARK, excerptAround, matchBalanced, NO_ENVELOPE_ERROR, TRUNCATED_ERROR } from '../../src/core/reply/locate';
import { lineColumn } from '../../src/core/text/lines';
import type { ParsedReply, StepId } from '../../src/core/model/types';
import { loadRecordedSessions } from '../helpers/fixtures';

function ok(step: StepId, raw: string): ParsedReply {
  const r = parseReply(step, raw);
  if (!r.ok) assert.fail(`expected ${step} reply to parse, got: ${r.error}`);
  return r.reply;
}

function fail(step: StepId, raw: string): string {
  const r = parseReply(step, raw);
  if (r.ok) assert.fail(`expected ${step} reply to fail`);
  assert.strictEqual(r.raw, raw, 'the raw reply is returned with the error');
  return r.error;
}

const ENVELOPE = {
  agent: 'DevA',
  role: 'Developer Agent',
  task_id: 'task-9',
  voice: 'Implemented it. Note: a "<file path=\\"x\\">" inside JSON is just text {not a brace}.',
  output: { file_list: ['src/a.ts'], note: '```json inside a string``` and <file path="fake.ts">nope</file>' },
  references: ['POA', 'DA'],
  confidence: 4,
  ass: { score: 4, positive: 'p', improvement: 'i', context_adequate: true },
};

function devaReply(files: string, json = JSON.stringify(ENVELOPE, null, 2)): string {
  return '```json\n' + json + '\n```\n\n' + files;
}

describe('parser: recorded sessions', () => {
  const sessions = loadRecordedSessions();
  it('has recorded sessions to check', () => assert.ok(sessions.length > 0));

  for (const s of sessions) {
    for (const st of s.steps) {
      it(`${s.file.split(/[\\/]/).pop()} ${st.step} parses and validates`, () => {
        const reply = ok(st.step, st.raw);
        const opening = (st.raw.match(/<file /g) ?? []).length;
        assert.strictEqual(reply.files.length, opening, 'one parsed file per <file block');
        for (const f of reply.files) {
          assert.ok(f.path.length > 0);
          // Content is exact: it appears verbatim between its tags in the raw reply (the newline before </file>
          // ends its last line).
          assert.ok(st.raw.includes(`<file path="${f.path}">\n${f.content}</file>`), `content of ${f.path} is not byte-exact`);
          assert.ok(f.content.endsWith('\n'), `${f.path} ends with a newline`);
        }
        assert.strictEqual(reply.summary !== null, st.raw.includes('<summary>'));
        if (reply.summary !== null) {
          assert.ok(reply.summary.length > 0);
          assert.ok(!reply.summary.includes('</summary>'));
        }
      });
    }
  }
});

describe('parser: locating the JSON envelope', () => {
  const poa = { agent: 'POA', voice: 'v', output: { a: 1 }, ass: { score: 3 } };

  it('reads a ```json fence, a bare ``` fence, and bare JSON after prose', () => {
    assert.strictEqual(ok('poa', '```json\n' + JSON.stringify(poa) + '\n```').envelope.voice, 'v');
    assert.strictEqual(ok('poa', '```\n' + JSON.stringify(poa) + '\n```').envelope.voice, 'v');
    assert.strictEqual(ok('poa', 'Here is my reply {as promised}:\n' + JSON.stringify(poa)).envelope.voice, 'v');
    assert.strictEqual(ok('poa', 'Sure!\n\n```json\n' + JSON.stringify(poa, null, 2) + '\n```\nThanks.').envelope.voice, 'v');
  });

  it('prefers the fenced envelope over an example object in prose', () => {
    const raw = 'The format is {"example": true}.\n```json\n' + JSON.stringify(poa) + '\n```';
    assert.strictEqual(ok('poa', raw).envelope.voice, 'v');
  });

  it('takes a bare envelope before the blocks over a ```json example inside a <file> (a Markdown document)', () => {
    const raw = JSON.stringify(ENVELOPE) + '\n\n<file path="docs/api.md">\n# API\n\n```json\n{"output": "example"}\n```\n</file>\n';
    const reply = ok('deva', raw);
    assert.strictEqual(reply.envelope.voice, ENVELOPE.voice);
    assert.deepStrictEqual(reply.files, [{ path: 'docs/api.md', content: '# API\n\n```json\n{"output": "example"}\n```\n' }]);
  });

  it('is not fooled by braces, fences and quotes inside JSON strings', () => {
    const tricky = { ...poa, voice: 'a } b { c ``` d " e \\ f', output: { code: 'function f() { return "}"; }\n```\n' } };
    const env = ok('poa', '```json\n' + JSON.stringify(tricky) + '\n```').envelope;
    assert.strictEqual(env.voice, tricky.voice);
    assert.deepStrictEqual(env.output, tricky.output);
  });

  it('tolerates a BOM, trailing commas, comments and raw newlines in strings', () => {
    const raw = '\uFEFF```json\n{\n  "agent": "POA", // me\n  "voice": "line1\nline2",\n  "output": {"list": [1, 2,],},\n  "ass": {"score": 4,},\n}\n```';
    const env = ok('poa', raw).envelope;
    assert.strictEqual(env.voice, 'line1\nline2');
    assert.deepStrictEqual(env.output, { list: [1, 2] });
  });

  it('reports a reply truncated mid-JSON as a max_tokens problem', () => {
    const full = '```json\n' + JSON.stringify(poa, null, 2) + '\n```';
    for (const cut of [12, 30, full.length - 10]) {
      assert.strictEqual(fail('poa', full.slice(0, cut)), TRUNCATED_ERROR);
    }
    assert.match(TRUNCATED_ERROR, /ends before the JSON envelope is complete.*max_tokens/);
    // Truncated inside a string that contains braces: still truncation, not a nested object.
    assert.strictEqual(fail('poa', '```json\n{"agent": "POA", "output": {"a": {"b": 1}}, "voice": "abc {'), TRUNCATED_ERROR);
  });

  it('reports invalid JSON, missing JSON and empty replies clearly', () => {
    assert.match(fail('poa', '```json\n{"agent": "POA", : "v"}\n```'), /not valid JSON/);
    assert.strictEqual(fail('poa', 'I could not do it.'), NO_ENVELOPE_ERROR);
    assert.strictEqual(fail('poa', '```json\n[1, 2]\n```'), NO_ENVELOPE_ERROR);
    assert.match(NO_ENVELOPE_ERROR, /no JSON envelope found/);
    assert.match(fail('poa', '   '), /empty/);
  });

  it('reports schema problems with their paths', () => {
    const e = fail('poa', JSON.stringify({ ...poa, ass: { score: 8 } }));
    assert.match(e, /does not match the required format/);
    assert.match(e, /ass\.score: must be between 1 and 5/);
    assert.match(fail('da', JSON.stringify(poa)), /agent: .*DA/);
  });

  it('bounds the work on hostile input', () => {
    assert.ok(!parseReply('poa', '{"a":'.repeat(50000)).ok);
    assert.ok(!parseReply('poa', '{"x": 1} '.repeat(20000)).ok);
    assert.ok(!parseReply('poa', '{ '.repeat(100000)).ok);
    // Every `{` of an object nested 50,000 deep may start the envelope: examined again from each of them (no bound
    // on the candidates, none skipped inside one examined) that takes minutes (the suite's timeout fails the test),
    // examined once milliseconds. No time is asserted here. (It nests too deep to be an envelope: deepNesting.test.ts.)
    assert.match(fail('poa', '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000)), /nests deeper than 64 levels at line 1, column 321 /);
  });

  it('a fence line with a long run of spaces or tabs is read once: the envelope after it is still found (audit: 50 KB took 1.2 s)', () => {
    for (const run of [' '.repeat(200_000), '\t'.repeat(200_000)]) {
      assert.strictEqual(ok('poa', '```' + run + 'x\n```json' + run + '\n' + JSON.stringify(poa) + '\n```').envelope.voice, 'v');
      assert.strictEqual(ok('poa', '```json' + run + 'x\n' + JSON.stringify(poa)).envelope.voice, 'v');
    }
  });

  it('matchBalanced is string-aware', () => {
    assert.strictEqual(matchBalanced('x{"a":"}"}y', 1), 10);
    assert.strictEqual(matchBalanced('{"a":"\\"}"', 0), -1);
  });

  it('repairs the almost-JSON real models write (jsonrepair), but never completes a cut-off reply', () => {
    const almost = [
      '```json',
      '{',
      '  // the envelope',
      '  "agent": "POA", "role": "Product Owner", "task_id": "t-1",',
      '  "voice": "He said "ship it" and left',
      'the room, with a brace } inside",',
      "  'output': { 'goal': 'x', },",
      '  "references": ["a",],',
      '  "confidence": 4',
      '  "ass": { "score": 4, "positive": "p", "improvement": "i", "context_adequate": True },',
      '}',
      '```',
    ].join('\n');
    const r = parseReply('poa', almost);
    assert.ok(r.ok, r.ok ? '' : r.error);
    assert.strictEqual(r.reply.envelope.voice, 'He said "ship it" and left\nthe room, with a brace } inside');
    assert.deepStrictEqual(r.reply.envelope.references, ['a']);
    const cut = parseReply('poa', almost.slice(0, almost.indexOf('"references"')));
    assert.ok(!cut.ok && cut.error === TRUNCATED_ERROR, 'a cut-off envelope is reported as truncated, not repaired');
  });

  it('repairs a string with an odd number of unescaped quotes instead of reporting it as cut off', () => {
    // one stray quote flips the quote parity of everything after it: the envelope never seemed to close
    const raw = ['```json', '{"agent": "POA", "voice": "Designed for the 27" monitor first",', ' "output": {"goal": "g"},',
      ' "ass": {"score": 4, "positive": "p", "improvement": "i", "context_adequate": true}}', '```'].join('\n');
    const r = parseReply('poa', raw);
    assert.ok(r.ok, r.ok ? '' : r.error);
    assert.strictEqual(r.reply.envelope.voice, 'Designed for the 27" monitor first');
    // the same reply cut off is still reported as cut off, never completed
    assert.strictEqual(fail('poa', raw.slice(0, raw.indexOf('"ass"'))), TRUNCATED_ERROR);
  });

  it('reports an envelope with a mismatched bracket as invalid JSON, not as missing', () => {
    // jsonrepair turns it into an array of pieces: that is not the object the model wrote
    const e = fail('poa', '```json\n{"agent": "POA", "voice": "v", "output": {"list": ["a"}}, "ass": {"score": 4}}\n```');
    assert.notStrictEqual(e, NO_ENVELOPE_ERROR);
    assert.match(e, /not valid JSON .*line 2, column \d+/);
  });
});

describe('parser: where invalid JSON broke (issue 7 item 15)', () => {
  const long = 'x'.repeat(400);
  const broken = ['```json', '{', `  "agent": "POA", "voice": "${long}",`, `  "output": {"goal": "${long}"},`, '  "ass": {"score": 4 @@@ },', `  "references": ["${long}"]`, '}', '```'].join('\n');

  it('quotes the text around the error with a marker, and its line and column, not the start of the object', () => {
    const e = fail('poa', broken);
    assert.match(e, /not valid JSON/);
    assert.match(e, /\(invalid symbol\)/);
    assert.ok(!e.includes('repair stopped'), 'one place when the parsers agree');
    const near = /near: "(.*)"$/.exec(e)?.[1] ?? '';
    assert.ok(near.includes(ERROR_MARK), `marker missing: ${e}`);
    const [before, after] = near.split(ERROR_MARK);
    assert.ok(before.endsWith('"ass": {"score": 4 ') && after.startsWith('@@@ },'), `the excerpt is not at the error: ${near}`);
    assert.ok(!near.includes('"agent"'), 'the start of the object is not what is quoted');
    assert.ok(before.length <= 61 && after.length <= 61, 'at most 60 characters each side (+ …)');
    assert.match(e, /at line 5, column 22 of the reply/);
    assert.ok(!/at position \d+/.test(e), 'no slice-relative byte position');
  });

  it('a short object is quoted whole around the marker, without ellipses', () => {
    const e = fail('poa', '{"agent": "POA", "voice": "v", : "w"}');
    assert.match(e, /\(property name expected\) at line 1, column 32 of the reply, near: "\{"agent": "POA", "voice": "v", ⟪HERE⟫: "w"\}"$/);
  });

  it('also names where the repair stopped when that is elsewhere (a slip jsonrepair fixes comes first)', () => {
    const raw = '{"agent": "POA", "voice": "raw\nnewline", "output": {"goal": "' + 'y'.repeat(100) + '", "x": 1 @@@ }, "ass": {"score": 3}}';
    const e = fail('poa', raw);
    assert.match(e, /\(unexpected end of string\) at line 1, column 27 of the reply, near: .*; the repair stopped further on \(.*\) at line 2, column \d+ of the reply, near: ".*@@@.*"$/);
  });

  it('excerptAround marks the spot, flattens whitespace, adds … where the text goes on and never splits a surrogate pair', () => {
    assert.strictEqual(excerptAround('ab\n\n  cd', 4), `"ab ${ERROR_MARK} cd"`);
    const t = 'a'.repeat(100) + 'X' + 'b'.repeat(100);
    assert.strictEqual(excerptAround(t, 100), `"…${'a'.repeat(60)}${ERROR_MARK}X${'b'.repeat(59)}…"`);
    const emoji = '😀'.repeat(50);
    const ex = excerptAround(emoji, 61);
    // on each side of the mark (the spot itself, 61, is the middle of a pair)
    for (const side of ex.split(ERROR_MARK)) assert.ok(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(side), `no lone surrogate in ${JSON.stringify(side)}`);
    assert.deepStrictEqual(lineColumn('a\nbc\nd', 4), { line: 2, column: 3 });
    assert.deepStrictEqual(lineColumn('abc', 0), { line: 1, column: 1 });
  });
});

describe('parser: several envelopes in one reply (issue 7 item 15)', () => {
  const env = (voice: string, extra: Record<string, unknown> = {}) => JSON.stringify({ agent: 'POA', voice, output: { goal: voice }, ass: { score: 4 }, ...extra }, null, 2);
  const warnings = (raw: string, step: StepId = 'poa') => {
    const r = parseReply(step, raw);
    if (!r.ok) assert.fail(r.error);
    return r;
  };

  it('uses the last complete envelope and says so', () => {
    const raw = '```json\n' + env('first') + '\n```\nSorry, a correction:\n```json\n' + env('second') + '\n```\nAnd finally:\n' + env('third');
    const r = warnings(raw);
    assert.strictEqual(r.reply.envelope.voice, 'third');
    assert.strictEqual(r.warnings.length, 1);
    assert.match(r.warnings[0], /contains 3 JSON envelopes; the last complete one \(line \d+\) was used and the earlier ones \(lines 2, \d+\) ignored/);
  });

  it('one envelope gives no warning; an example object or an invalid second envelope is not a reply', () => {
    assert.deepStrictEqual(warnings('```json\n' + env('only') + '\n```').warnings, []);
    const r = warnings('```json\n' + env('real') + '\n```\nA config looks like {"name": "x"}; a bad one {"agent": "POA", "voice": 7}.');
    assert.strictEqual(r.reply.envelope.voice, 'real');
    assert.deepStrictEqual(r.warnings, []);
  });

  it('a later envelope that validates replaces a first one that does not', () => {
    const raw = '```json\n' + env('bad', { ass: { score: 9 } }) + '\n```\n```json\n' + env('good') + '\n```';
    const r = warnings(raw);
    assert.strictEqual(r.reply.envelope.voice, 'good');
    assert.match(r.warnings[0], /2 JSON envelopes/);
  });

  it('an incomplete envelope after a complete one is named and ignored', () => {
    const raw = '```json\n' + env('done') + '\n```\n```json\n' + env('cut').slice(0, 40);
    const r = warnings(raw);
    assert.strictEqual(r.reply.envelope.voice, 'done');
    assert.match(r.warnings[0], /another JSON envelope at line \d+ that is not complete; it was ignored/);
  });

  it('DevA: JSON inside a file block is never an envelope; files follow the envelope used', () => {
    const deva = (voice: string) => JSON.stringify({ ...ENVELOPE, voice });
    const fileBody = JSON.stringify({ agent: 'DevA', role: 'Developer Agent', voice: 'fixture', output: { a: 1 }, ass: { score: 5 } });
    const raw = '```json\n' + deva('one') + '\n```\n```json\n' + deva('two') + '\n```\n<file path="test/reply.json">\n' + fileBody + '\n</file>\n<summary>s</summary>';
    const r = warnings(raw, 'deva');
    assert.strictEqual(r.reply.envelope.voice, 'two');
    assert.deepStrictEqual(r.reply.files, [{ path: 'test/reply.json', content: `${fileBody}\n` }]);
    assert.strictEqual(r.reply.summary, 's');
    assert.match(r.warnings[0], /2 JSON envelopes/);
    const single = warnings(devaReply('<file path="test/reply.json">\n' + fileBody + '\n</file>'), 'deva');
    assert.deepStrictEqual(single.warnings, [], 'an envelope-shaped file is not a second envelope');
  });
});

describe('parser: file blocks and summary', () => {
  it('extracts files byte-exact, the newline before </file> ending the last line, with double or single quoted paths', () => {
    const a = 'const s = `template ${x}`;\n// </div> and </ strings\n```\nnot a fence end\n';
    const b = '{\n  "json": "inside a file"\n}';
    const raw = devaReply(`<file path="src/a.ts">\n${a}\n</file>\n\n<file path='src/b.json'>\n${b}\n</file>\n\n<summary>\nsrc/a.ts — a\n</summary>\n`);
    const reply = ok('deva', raw);
    assert.deepStrictEqual(reply.files, [
      { path: 'src/a.ts', content: `${a}\n` },
      { path: 'src/b.json', content: `${b}\n` },
    ]);
    assert.strictEqual(reply.summary, 'src/a.ts — a');
  });

  it('ignores file blocks quoted inside the JSON strings', () => {
    const reply = ok('deva', devaReply('<file path="real.ts">\nx\n</file>'));
    assert.deepStrictEqual(reply.files.map((f) => f.path), ['real.ts']);
    assert.strictEqual(reply.summary, null);
  });

  it('keeps leading blank lines beyond the tag\'s newline, trailing ones, and CRLF content', () => {
    const raw = devaReply('<file path="a.txt">\r\n\r\nline\r\n\r\n</file>\n<file path="b.txt">no newline</file>');
    assert.deepStrictEqual(ok('deva', raw).files, [
      { path: 'a.txt', content: '\r\nline\r\n\r\n' },
      { path: 'b.txt', content: 'no newline' },
    ]);
  });

  it('keeps a literal </file> inside a file that is followed by another block', () => {
    const content = 'const close = "</file>";\nexport {};';
    const raw = devaReply(`<file path="p.ts">\n${content}\n</file>\n<file path="q.ts">\nq\n</file>`);
    assert.deepStrictEqual(ok('deva', raw).files, [
      { path: 'p.ts', content: `${content}\n` },
      { path: 'q.ts', content: 'q\n' },
    ]);
  });

  it('a summary that names the </file> tag in its prose does not become the end of the last file', () => {
    const raw = devaReply('<file path="a.ts">\nexport const a = 1;\n</file>\n<summary>Each change is wrapped in <file>…</file> blocks.</summary>\n');
    const reply = ok('deva', raw);
    assert.deepStrictEqual(reply.files, [{ path: 'a.ts', content: 'export const a = 1;\n' }]);
    assert.strictEqual(reply.summary, 'Each change is wrapped in <file>…</file> blocks.');
    // a </file> that ends a line of the file's own text still belongs to the file (the last one closes it)
    const xliff = '<xliff>\n  <file original="a">\n  </file>\n</xliff>\n';
    assert.deepStrictEqual(ok('deva', devaReply(`<file path="a.xlf">\n${xliff}</file><summary>s</summary>`)).files, [{ path: 'a.xlf', content: xliff }]);
  });

  it('keeps HTML <summary> inside a file out of the reply summary', () => {
    const html = '<details>\n<summary>More</summary>\n</details>';
    const reply = ok('deva', devaReply(`<file path="a.html">\n${html}\n</file>\n<summary>one file</summary>`));
    assert.strictEqual(reply.files[0].content, `${html}\n`);
    assert.strictEqual(reply.summary, 'one file');
  });

  it('reports an unterminated file block instead of dropping it', () => {
    const e1 = fail('deva', devaReply('<file path="a.ts">\nconst a = 1;\n'));
    assert.match(e1, /<file path="a\.ts"> block is not closed with <\/file>.*max_tokens/);
    const e2 = fail('deva', devaReply('<file path="a.ts">\nconst a = 1;\n<file path="b.ts">\nb\n</file>'));
    assert.match(e2, /<file path="a\.ts"> block is not closed .*before the next <file> block/);
  });

  it('a block the reply begins mid-line or before the envelope is reported, not silently dropped', () => {
    const midLine = fail('deva', devaReply('Here is the new file: <file path="src/a.ts">\nexport const a = 1;\n</file>\n<summary>s</summary>'));
    assert.match(midLine, /<file path="src\/a\.ts"> tag does not start its line.*on a line of its own/);
    const between = fail('deva', devaReply('<file path="b.ts">\nb\n</file>\nAnd: <edit path="c.ts">\n<<<<<<< SEARCH\nc\n=======\nd\n>>>>>>> REPLACE\n</edit>'));
    assert.match(between, /<edit path="c\.ts"> tag does not start its line/);
    const before = fail('deva', '<file path="src/a.ts">\nexport const a = {"x": 1};\n</file>\n\n' + devaReply('<summary>s</summary>'));
    assert.match(before, /<file path="src\/a\.ts"> block comes before the JSON envelope.*after it/);
    // a tag named in prose, or quoted inside a file, is no block of the reply
    const fine = ok('deva', devaReply('<file path="doc.md">\nWrite <file path="x"> blocks, as in:\nthe tag <file path="a.ts">\n</file>\n<summary>uses <file path="…"> blocks</summary>'));
    assert.deepStrictEqual(fine.files, [{ path: 'doc.md', content: 'Write <file path="x"> blocks, as in:\nthe tag <file path="a.ts">\n' }]);
  });

  it('rejects an empty path', () => {
    assert.match(fail('deva', devaReply('<file path="">\nx\n</file>')), /empty path/);
  });

  it('finds a summary placed between the JSON and the files', () => {
    const reply = ok('deva', devaReply('<summary>before</summary>\n<file path="a.html">\n<summary>in html</summary>\n</file>'));
    assert.strictEqual(reply.summary, 'before');
    assert.strictEqual(reply.files[0].content, '<summary>in html</summary>\n');
  });

  it('tolerates an unclosed summary', () => {
    assert.strictEqual(ok('deva', devaReply('<summary>\nlast words')).summary, 'last words');
  });

  it('extractFiles works on its own from an offset', () => {
    const text = 'ignored <file path="x">\n1\n</file>\n<file path="y">\n2\n</file>';
    const r = extractFiles(text, text.indexOf('\n<file path="y">'));
    assert.ok(r.ok);
    assert.deepStrictEqual(r.scan.files, [{ path: 'y', content: '2\n' }]);
  });
});

describe('parser: repair prompt', () => {
  it('quotes the error and asks for the complete reply in the same format', () => {
    const p = repairPrompt('poa', 'ass.score: must be between 1 and 5 (got 7)\nvoice: required (a string)', '{"agent":"POA"}');
    assert.match(p, /> ass\.score: must be between 1 and 5 \(got 7\)/);
    assert.match(p, /> voice: required/);
    assert.match(p, /```json/);
    assert.match(p, /"agent": "POA"/);
    assert.ok(!p.includes('<file'), 'non-DevA steps are not asked for files');
  });

  it('asks DevA for its file blocks and summary, and a truncated reply to be concise', () => {
    const p = repairPrompt('deva', TRUNCATED_ERROR, '```json\n{"agent":');
    assert.match(p, /<file path=/);
    assert.match(p, /<summary>/);
    assert.match(p, /concise/);
  });

  it('describes the retrospective and opening shapes', () => {
    assert.match(repairPrompt('cm_retro', 'kpt: required', '{}'), /"conversation"/);
    assert.match(repairPrompt('cm_open', 'output.session_brief: required', '{}'), /"coaching_notes"/);
  });
});
