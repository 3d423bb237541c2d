// A past session's question ids qualified with its task id (model/questionIds.ts): the qualifier itself, the KPT merge
// that writes them so, the digest of a kpt_merged.md written before (its bare ids qualified on the way), and the
// matching of this session's answers, which never takes a qualified id for one of its own questions.
import * as assert from 'assert';
import { qualifiedQuestionId, qualifyQuestionIds } from '../../src/core/model/questionIds';
import { kptDigest, kptItemIds, mergeKptText, parseKpt } from '../../src/core/kpt';
import { collectOpenQuestions } from '../../src/core/session/openQuestions';
import type { Envelope } from '../../src/core/model/types';

const NOW = new Date(2026, 0, 15, 9, 30);

describe('question ids: qualified with their session', () => {
  it('qualifies a bare id with the task id, in the one format', () => {
    assert.strictEqual(qualifiedQuestionId('add-login', 'DA-Q1'), 'add-login/DA-Q1');
    assert.strictEqual(qualifyQuestionIds('DA-Q1 was left open for the human.', 'add-login'), 'add-login/DA-Q1 was left open for the human.');
  });

  it('qualifies several ids, written in any of the ways ID matching reads, as questionId writes them', () => {
    assert.strictEqual(
      qualifyQuestionIds('POA-Q2 and poa q3 went to DevA‑Q10; DA-Q1/DA-Q2 stayed open.', 'shop.v2'),
      'shop.v2/POA-Q2 and shop.v2/POA-Q3 went to shop.v2/DevA-Q10; shop.v2/DA-Q1/shop.v2/DA-Q2 stayed open.',
    );
  });

  it('leaves ids already qualified as they are (by any tag), so qualifying twice changes nothing', () => {
    const once = qualifyQuestionIds('older/DA-Q1 came back as DA-Q2; paths like docs/POA-Q1.md stay', 'task-9');
    assert.strictEqual(once, 'older/DA-Q1 came back as task-9/DA-Q2; paths like docs/POA-Q1.md stay');
    assert.strictEqual(qualifyQuestionIds(once, 'task-9'), once);
    assert.strictEqual(qualifyQuestionIds('ログイン改修／DA-Q1', 'task-9'), 'ログイン改修／DA-Q1', 'a Japanese tag and a full-width slash qualify too');
  });

  it('qualifies ids in Japanese text, where no space stands around them', () => {
    assert.strictEqual(
      qualifyQuestionIds('前回のDA-Q1は未回答のまま（POA-Q2も）人間の判断待ち。', 'ログイン改修'),
      '前回のログイン改修/DA-Q1は未回答のまま（ログイン改修/POA-Q2も）人間の判断待ち。',
    );
  });

  it('qualifies ids in code spans: they still name that session\'s question', () => {
    assert.strictEqual(qualifyQuestionIds('Answer `DA-Q1` before coding', 't7'), 'Answer `t7/DA-Q1` before coding');
  });

  it('leaves words that only look like an id alone', () => {
    const text = 'DA-Q1000, dada-q1, POAQ, and DA-Quick stay as written';
    assert.strictEqual(qualifyQuestionIds(text, 't7'), text);
  });
});

describe('question ids: the KPT merge and digest', () => {
  it("writes a session's KPT items with its question ids qualified, every other line of the file kept", () => {
    const before = '# KPT\n\n<!-- by hand -->\n## Problem\n- [old] DA-Q1 was never answered <!-- cape-kpt: resolved by t0 -->\n\n## Notes\n- POA-Q1 is a note\n';
    const after = mergeKptText(before, 'add-login', { keep: [], problem: ['DA-Q1 was left open and DevA guessed'], try: ['Answer DA-Q1 first'] }, { updatedAt: NOW });
    const lines = after.split('\n');
    assert.ok(lines.includes('- [add-login] add-login/DA-Q1 was left open and DevA guessed'), after);
    assert.ok(lines.includes('- [add-login] Answer add-login/DA-Q1 first'), after);
    // the file's other lines stay byte for byte: the old item (its bare id and its status), the comment, the notes
    for (const kept of ['<!-- by hand -->', '- [old] DA-Q1 was never answered <!-- cape-kpt: resolved by t0 -->', '- POA-Q1 is a note']) {
      assert.ok(lines.includes(kept), `${kept} kept`);
    }
    const items = parseKpt(after);
    assert.strictEqual(items.find((i) => i.taskId === 'old')?.status, 'resolved');
  });

  it('keeps the status of an item merged before ids were qualified when the same session merges again', () => {
    const before = '## Problem\n- [add-login] DA-Q1 was left open <!-- cape-kpt: resolved by t2 -->\n';
    const after = mergeKptText(before, 'add-login', { keep: [], problem: ['DA-Q1 was left open'], try: [] }, { updatedAt: NOW });
    assert.deepStrictEqual(parseKpt(after), [{ kind: 'problem', taskId: 'add-login', text: 'add-login/DA-Q1 was left open', status: 'resolved', statusBy: 't2' }]);
  });

  it('qualifies the bare ids of a file written before, by each line\'s [task-id] tag, in the digest only', () => {
    const old = '## Problem\n- [add-login] DA-Q1 was left open and DevA guessed the page size\n\n## Try\n- [search] Ask POA-Q2 again\n- Untagged DA-Q3 note\n';
    const digest = kptDigest(parseKpt(old));
    assert.match(digest, /^- \(1 session, add-login\) add-login\/DA-Q1 was left open and DevA guessed the page size$/m);
    assert.match(digest, /^- \[id t[0-9a-f]+\] \(1 session, search\) Ask search\/POA-Q2 again$/m);
    assert.match(digest, /untagged\/DA-Q3 note$/m);
    assert.doesNotMatch(digest, /(?<![\w.-]\/)\b(?:POA|DA|DevA)-Q\d/, 'no bare id left');
  });

  it("names an open Try in the digest by the file's id for it, not one of the qualified text", () => {
    const items = parseKpt('## Try\n- [s1] Ask POA-Q2 again\n');
    const digest = kptDigest(items);
    assert.ok(digest.includes(`[id ${kptItemIds(items)[0]}]`), digest);
    assert.ok(digest.includes('Ask s1/POA-Q2 again'), digest);
  });
});

function env(agent: 'POA' | 'DA' | 'DevA', output: unknown): Envelope {
  return { agent, role: agent, task_id: 't', voice: '', output, references: [], confidence: 4, ass: null };
}

describe("question ids: this session's matching takes no qualified id for its own", () => {
  const POA = env('POA', { open_questions: ['Should the export include archived rows?', 'Which date format do exports use?'] });

  it('an answer naming a past session\'s question by its qualified id settles none of this session\'s', () => {
    const DA = env('DA', { answered_questions: ['add-login/POA-Q1: the login form kept its remember-me box', { question: 'add-login/POA-Q2', answer: 'ISO 8601 there' }, 'ログイン改修/POA-Q1：前回は見送り'] });
    const qs = collectOpenQuestions({ poa: POA, da: DA });
    assert.strictEqual(qs.find((q) => q.id === 'POA-Q1')?.answer, undefined);
    assert.strictEqual(qs.find((q) => q.id === 'POA-Q2')?.answer, undefined);
    assert.strictEqual(qs.filter((q) => q.id === null).length, 3, 'all kept as answers to no question of this session');
  });

  it('the same answer by the bare id settles it (the matching still reads ours)', () => {
    const DA = env('DA', { answered_questions: ['POA-Q1: archived rows stay out (src/export.ts:12)', { 'POA-Q2': 'ISO 8601, as src/dates.ts writes them' }] });
    const qs = collectOpenQuestions({ poa: POA, da: DA });
    assert.strictEqual(qs.find((q) => q.id === 'POA-Q1')?.answer?.text, 'archived rows stay out (src/export.ts:12)');
    assert.strictEqual(qs.find((q) => q.id === 'POA-Q2')?.answer?.text, 'ISO 8601, as src/dates.ts writes them');
  });

  it('a question naming a past session\'s id carries no open part of this session\'s question of that number', () => {
    const DA = env('DA', {
      answered_questions: [{ question: 'POA-Q1', answer: 'archived rows stay out' }],
      open_questions: ['Like add-login/POA-Q1 before: should archived rows get a toggle later?'],
    });
    const qs = collectOpenQuestions({ poa: POA, da: DA });
    const q1 = qs.find((q) => q.id === 'POA-Q1')!;
    assert.strictEqual(q1.answer?.openPartIn, undefined, 'answered, not answered in part');
    assert.strictEqual(qs.find((q) => q.id === 'DA-Q1')?.text, 'Like add-login/POA-Q1 before: should archived rows get a toggle later?');
  });

  it("a role's question opening with a past session's id keeps that id in its text", () => {
    const DA = env('DA', { open_questions: ['add-login/DA-Q1: is the session cookie still shared?'] });
    const qs = collectOpenQuestions({ da: DA });
    assert.strictEqual(qs[0].id, 'DA-Q1');
    assert.strictEqual(qs[0].text, 'add-login/DA-Q1: is the session cookie still shared?');
  });
});
