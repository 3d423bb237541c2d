// text/cut.ts: the cuts of text for people and for the model (shorten for a budget, lineWithin for a row in a list).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCheck } from '../../src/core/checks/run';
import { INPUT_FILE_MAX_CHARS } from '../../src/core/cape/initChecks';
import { readExistingInputs } from '../../src/core/cape/initRequests';
import { lineWithin, oneLine, shorten } from '../../src/core/text/cut';
import { fileLines, lineCount } from '../../src/core/text/lines';
import { kptDigest } from '../../src/core/kpt/digest';
import { cleanAnswer, dorQuestionsOf, MAX_DOR_ANSWER_CHARS, MAX_DOR_QUESTION_CHARS } from '../../src/core/session/dorQuestions';
import { checkInputReply } from '../../src/core/cape/initChecks';
import { blockersOf, MAX_BLOCKER_CHARS } from '../../src/core/reply/envelope';
import { failFirstOf } from '../../src/core/metrics/tsr';
import { readTestCases } from '../../src/core/checks/testCases';
import type { Envelope } from '../../src/core/model/types';

describe('text: lineWithin', () => {
  it('is one line that fits in max code points, the "…" included; a line that fits is kept whole', () => {
    assert.strictEqual(lineWithin('a\n b\t c', 100), 'a b c');
    assert.strictEqual(lineWithin('abcdef', 6), 'abcdef');
    assert.strictEqual(lineWithin('abcdefg', 6), 'abcde…');
    // an emoji is one character: never half of it, and the count is what a person sees
    assert.strictEqual(lineWithin('😀'.repeat(10), 10), '😀'.repeat(10));
    assert.strictEqual(lineWithin('😀'.repeat(11), 10), '😀'.repeat(9) + '…');
    // the cut does not leave a space before the mark
    assert.strictEqual(lineWithin('word another', 6), 'word…');
    assert.strictEqual(lineWithin('abc', 1), 'a…');
    // a cut inside a word ends before that word when a space is near; far away, or none (Japanese), it cuts in place
    assert.strictEqual(lineWithin('counting that failure as fail-first observed', 33), 'counting that failure as…');
    assert.strictEqual(lineWithin('counting that failure as fail-first observed', 36), 'counting that failure as fail-first…');
    assert.strictEqual(lineWithin('the fail-first check', 14), 'the fail-firs…');
    assert.strictEqual(lineWithin('失敗したテストを先に確認する'.repeat(3), 10), '失敗したテストを先…');
  });

  it('differs from shorten only where it should: shorten adds the mark on top of its budget', () => {
    assert.strictEqual(shorten('abcdefg', 6), 'abcdef…');
    assert.strictEqual(lineWithin(' x  y ', 10), oneLine(' x  y '));
  });

  it('cuts the KPT digest\'s items by the same rule', () => {
    const text = 'Keep the release notes short and to the point. '.repeat(10);
    const digest = kptDigest([{ kind: 'try', taskId: 't1', text }]);
    const line = digest.split('\n').find((l) => l.includes('release notes')) ?? '';
    assert.ok(line.includes(lineWithin(text, 260)), line);
  });
});

describe('text: cuts of what reaches the model never leave half of a character (sliceWhole)', () => {
  const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

  it('the KPT digest within any budget', () => {
    const items = Array.from({ length: 12 }, (_, i) => ({ kind: 'problem' as const, taskId: `t${i % 3}`, text: `${'😀'.repeat(30 + i)} issue ${i}` }));
    for (let max = 40; max <= 700; max += 7) {
      const d = kptDigest(items, { maxChars: max });
      assert.ok(d.length <= max, `${max}: ${d.length}`);
      assert.ok(!lone.test(d), `maxChars ${max}`);
    }
  });

  it('an existing input file quoted for init, cut at its share', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-cut-'));
    try {
      // the cut at INPUT_FILE_MAX_CHARS lands inside an emoji
      fs.writeFileSync(path.join(dir, 'a.md'), 'x'.repeat(INPUT_FILE_MAX_CHARS - 1) + '😀'.repeat(10));
      const [quoted] = await readExistingInputs(['a.md'], (p) => path.join(dir, p));
      assert.ok(!lone.test(quoted.text));
      assert.match(quoted.text, /\n\[… 20 more characters not shown\]$/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a check's output kept within its cap (head and tail)", async function () {
    this.timeout(20_000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-cut-'));
    try {
      const run = await runCheck({ command: `node -e "process.stdout.write('x' + '\\u{1F600}'.repeat(3000) + 'y')"`, cwd: dir, round: 0, outputCap: 2000, outputForModel: 100_000 });
      assert.match(run.output, /^x😀/);
      assert.match(run.output, /characters of output left out/);
      assert.match(run.output, /😀y$/);
      assert.ok(!lone.test(run.output), JSON.stringify(run.output.slice(990, 1010)));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('text: a file’s lines (fileLines, lineCount)', () => {
  it('numbers lines as read_file and excerpts do: a final newline ends the last line, CR stays with its line', () => {
    assert.deepStrictEqual(fileLines('a\r\nb\r\n'), ['a\r', 'b\r']);
    assert.deepStrictEqual(fileLines('a\n\nb'), ['a', '', 'b']);
    assert.deepStrictEqual(fileLines(''), ['']);
    for (const t of ['', 'a', 'a\n', 'a\nb', '\n', '\n\n', 'a\r\nb\r\n', 'x\n\ny']) assert.strictEqual(lineCount(t), fileLines(t).length, JSON.stringify(t));
  });
});

describe('text: bounded request text never ends in half an emoji', () => {
  /** A lone surrogate: invalid in the JSON of a request. */
  const lone = (t: string) => /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(t);
  /** `n` characters, then an emoji across the n+1-th and n+2-th: a cut at n+1 falls in its middle. */
  const across = (n: number, ch = 'a') => ch.repeat(n) + '😀' + ' and more';

  it("the Cape Master's blocking questions and the user's answers", () => {
    const env = { output: { dor_check: { questions: [across(MAX_DOR_QUESTION_CHARS - 1)] } } } as unknown as Envelope;
    const [q] = dorQuestionsOf(env);
    assert.ok(!lone(q) && q.length === MAX_DOR_QUESTION_CHARS - 1, JSON.stringify(q.slice(-3)));
    const a = cleanAnswer(across(MAX_DOR_ANSWER_CHARS - 1));
    assert.ok(!lone(a) && a.length === MAX_DOR_ANSWER_CHARS - 1, JSON.stringify(a.slice(-3)));
  });

  it("DevA's blocker questions, an init reply's first line quoted in its repair, a regression guard's name", () => {
    const [b] = blockersOf({ blockers: [{ to: 'DA', question: across(MAX_BLOCKER_CHARS - 1) }] });
    assert.ok(!lone(b.question), JSON.stringify(b.question.slice(-3)));
    const spec = { path: '1_product/1_mvv.md', title: 't', answers: [], purpose: 'p', sections: ['a'] };
    const reply = checkInputReply(across(79, 'x') + '\n' + 'body '.repeat(100), spec as never, 'end_turn', 8192);
    assert.ok(!reply.ok && !lone(reply.problems.join(' ')), JSON.stringify(reply));
    const guard = 'TestPatterns/' + across(65).replace(/ /g, '_');
    const output = `--- FAIL: TestPatterns (0.00s)\n    --- FAIL: ${guard} (0.00s)\n    --- FAIL: TestPatterns/new (0.00s)\nFAIL`;
    const read = readTestCases(output)!;
    const run = { command: 'go test ./...', passed: false, output, tests: read.cases, onlyFailuresNamed: !read.listsPassed };
    const verdict = failFirstOf([{ file: 'mux_test.go', name: guard, expect: 'pass' }, { file: 'mux_test.go', name: 'TestPatterns/new', expect: 'fail' }], () => true, [run]);
    assert.ok(verdict?.surprise && !lone(verdict.surprise), JSON.stringify(verdict));
  });
});
