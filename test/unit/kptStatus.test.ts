// Issue 11 §4: KPT item statuses (a trailing marker the original CLI still reads past), stable ids, marking under
// the lock, the status-aware digest, housekeeping into kpt_archive.md that never loses an item, and the
// .gitattributes union line with a real git merge of two branches.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { execFileSync } from 'child_process';
import {
  ensureUnionMerge,
  housekeepKptFile,
  kptDigest,
  kptItemIds,
  kptSessionAges,
  listKptItems,
  markKptFile,
  mergeKptFile,
  mergeKptText,
  parseKpt,
  parseKptDocument,
  planHousekeeping,
  planKptMark,
  KptStatusError,
} from '../../src/core/kpt';
import type { KptItem, KptStatus } from '../../src/core/model/types';
import { buildKptModel, kptContextValue } from '../../src/tree/model';
import { originalProjectDir } from '../helpers/fixtures';

const NOW = new Date(2026, 10, 30, 12, 0);
const realKpt = (): string => fs.readFileSync(path.join(originalProjectDir(), 'cape', '5_sessions', 'retrospective', 'kpt_merged.md'), 'utf8');
const tmpDir = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'cape-kptstatus-'));

/** Multiset key of an item: everything the file says about it. */
const key = (i: KptItem): string => JSON.stringify([i.kind, i.taskId, i.text, i.status ?? 'open', i.statusBy ?? null]);
const sortedKeys = (items: KptItem[]): string[] => items.map(key).sort();

/** The original CLI's own reading of a KPT line: `- [task-id] text` under a Keep/Problem/Try heading. */
function originalCliItems(md: string): { kind: string; taskId: string; text: string }[] {
  const out: { kind: string; taskId: string; text: string }[] = [];
  let kind = '';
  for (const line of md.split('\n')) {
    const h = /^## (Keep|Problem|Try)\s*$/.exec(line);
    if (h) kind = h[1];
    const m = /^- \[([^\]]+)\] (.+)$/.exec(line);
    if (m && kind) out.push({ kind, taskId: m[1], text: m[2] });
  }
  return out;
}

describe('kpt status: marker, ids, listing', () => {
  it('ids are stable: independent of status, position and other items; duplicates are numbered', () => {
    const a: KptItem = { kind: 'try', taskId: 't1', text: 'pair on the tokens' };
    const b: KptItem = { kind: 'problem', taskId: 't1', text: 'DoR not met' };
    const [ia, ib] = kptItemIds([a, b]);
    assert.match(ia, /^t[0-9a-f]{8}$/);
    assert.match(ib, /^p[0-9a-f]{8}$/);
    assert.deepStrictEqual(kptItemIds([b, { ...a, status: 'adopted', statusBy: 't9' }]), [ib, ia]);
    assert.notStrictEqual(kptItemIds([{ ...a, taskId: 't2' }])[0], ia);
    assert.deepStrictEqual(kptItemIds([a, a, a]), [ia, `${ia}-2`, `${ia}-3`]);
  });

  it('the marker is read as the status, stripped from the text, and the line still reads as `- [task-id] text`', () => {
    const md = '# KPT\n\n## Try\n\n- [t1] pair on the tokens <!-- cape-kpt: adopted by t2 -->\n- [t1] write notes <!-- cape-kpt: dropped -->\n- [t1] keep it <!-- note -->\n';
    assert.deepStrictEqual(parseKpt(md), [
      { kind: 'try', taskId: 't1', text: 'pair on the tokens', status: 'adopted', statusBy: 't2' },
      { kind: 'try', taskId: 't1', text: 'write notes', status: 'dropped' },
      { kind: 'try', taskId: 't1', text: 'keep it <!-- note -->' },
    ]);
    assert.deepStrictEqual(
      originalCliItems(md).map((i) => [i.kind, i.taskId]),
      [['Try', 't1'], ['Try', 't1'], ['Try', 't1']],
    );
  });

  it('lists every item of the real 8-session file with id, kind, status, text, taskId and recurrence', () => {
    const items = parseKpt(realKpt());
    const listed = listKptItems(items);
    assert.strictEqual(listed.length, items.length);
    assert.strictEqual(new Set(listed.map((l) => l.id)).size, listed.length, 'ids are unique');
    for (const l of listed) {
      assert.deepStrictEqual(Object.keys(l).sort(), ['id', 'kind', 'recurrence', 'status', 'taskId', 'text']);
      assert.strictEqual(l.status, 'open');
      assert.ok(l.recurrence >= 1);
    }
    assert.ok(listed.some((l) => l.kind === 'problem' && l.recurrence >= 2), 'recurring problems are counted');
  });
});

describe('kpt status: marking', () => {
  it('changes only the marked line; reopening removes the marker and restores the original bytes', () => {
    const original = realKpt();
    const listed = listKptItems(parseKpt(original));
    const aTry = listed.find((l) => l.kind === 'try')!;
    const plan = planKptMark(original, { ids: [aTry.id], status: 'adopted', by: 'task-9' });
    assert.deepStrictEqual(plan.changed.map((c) => [c.id, c.status, c.statusBy]), [[aTry.id, 'adopted', 'task-9']]);
    const before = original.split('\n');
    const after = plan.text.split('\n');
    assert.strictEqual(after.length, before.length);
    const diff = before.map((l, i) => (l === after[i] ? -1 : i)).filter((i) => i >= 0);
    assert.strictEqual(diff.length, 1);
    assert.strictEqual(after[diff[0]], `${before[diff[0]]} <!-- cape-kpt: adopted by task-9 -->`);
    // the original CLI still reads every item, with its task id
    assert.deepStrictEqual(originalCliItems(plan.text).map((i) => i.taskId), originalCliItems(original).map((i) => i.taskId));
    // status changes keep the id
    const again = listKptItems(parseKpt(plan.text));
    assert.strictEqual(again.find((l) => l.id === aTry.id)!.status, 'adopted');
    assert.strictEqual(planKptMark(plan.text, { ids: [aTry.id], status: 'open' }).text, original);
  });

  it('a marker on a continuation line is replaced where it is; CRLF and a BOM stay', () => {
    const md = '\uFEFF## Problem\r\n\r\n- [t1] slow build\r\n  still slow <!-- cape-kpt: resolved -->\r\n- [t2] other\r\n';
    const [id] = listKptItems(parseKpt(md)).map((l) => l.id);
    const text = planKptMark(md, { ids: [id], status: 'open' }).text;
    assert.strictEqual(text, '\uFEFF## Problem\r\n\r\n- [t1] slow build\r\n  still slow\r\n- [t2] other\r\n');
  });

  it('an item with a long run of spaces in its line is marked at its end, the run read once (audit: 40 KB took 2 s)', () => {
    for (const run of [' '.repeat(1_000_000), ' \t'.repeat(500_000)]) {
      const md = `## Problem\n\n- [t1] slow build${run}x \t\n- [t2] other\n`;
      const [id] = listKptItems(parseKpt(md)).map((l) => l.id);
      const text = planKptMark(md, { ids: [id], status: 'resolved', by: 't3' }).text;
      assert.strictEqual(text, `## Problem\n\n- [t1] slow build${run}x <!-- cape-kpt: resolved by t3 -->\n- [t2] other\n`);
    }
  });

  it('a marker on a line of its own right below its item (a wrapped line) is the item\'s status, changed where it is', () => {
    const md = '## Problem\n\n- [t1] slow build on every push\n  <!-- cape-kpt: resolved -->\n- [t2] other\n';
    const [p1, p2] = listKptItems(parseKpt(md));
    assert.deepStrictEqual([p1.status, p1.text, p2.status], ['resolved', 'slow build on every push', 'open']);
    const dropped = planKptMark(md, { ids: [p1.id], status: 'open' });
    assert.strictEqual(dropped.text, '## Problem\n\n- [t1] slow build on every push\n- [t2] other\n');
    assert.strictEqual(listKptItems(parseKpt(dropped.text))[0].status, 'open');
    // not glued to an item across a blank line: a comment there stays a comment
    assert.strictEqual(listKptItems(parseKpt('## Problem\n\n- [t1] x\n\n<!-- cape-kpt: resolved -->\n'))[0].status, 'open');
  });

  it('a marker wrapped across two lines is replaced as a whole: reopening or re-marking the item takes effect', () => {
    const md = '## Problem\n\n- [t1] slow build on every push <!-- cape-kpt:\n  resolved by task-9 -->\n- [t2] other\n';
    const [p1] = listKptItems(parseKpt(md));
    assert.deepStrictEqual([p1.status, p1.statusBy], ['resolved', 'task-9']);
    const reopened = planKptMark(md, { ids: [p1.id], status: 'open' });
    assert.strictEqual(reopened.text, '## Problem\n\n- [t1] slow build on every push\n- [t2] other\n');
    const tries = '## Try\n\n- [t1] pair on the tokens <!-- cape-kpt: adopted\n  by task-9 -->\n  with DA\n';
    const [t1] = listKptItems(parseKpt(tries));
    const dropped = planKptMark(tries, { ids: [t1.id], status: 'dropped', by: 'task-10' }).text;
    assert.strictEqual(dropped, '## Try\n\n- [t1] pair on the tokens <!-- cape-kpt: dropped by task-10 -->\n  with DA\n');
  });

  it('refuses statuses a kind does not take and unknown ids, naming them, and writes nothing', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'kpt_merged.md');
    fs.writeFileSync(file, '## Keep\n\n- [t1] k\n\n## Problem\n\n- [t1] p\n\n## Try\n\n- [t1] t\n');
    const [k, p, t] = listKptItems(parseKpt(fs.readFileSync(file, 'utf8'))).map((l) => l.id);
    const before = fs.readFileSync(file, 'utf8');
    await assert.rejects(markKptFile(file, { ids: [k], status: 'resolved' }), (e: Error) => e instanceof KptStatusError && /Keeps stay/.test(e.message));
    await assert.rejects(markKptFile(file, { ids: [p], status: 'adopted' }), /open \| resolved/);
    await assert.rejects(markKptFile(file, { ids: [t], status: 'resolved' }), /open \| adopted \| dropped/);
    await assert.rejects(markKptFile(file, { ids: ['tdeadbeef'], status: 'dropped' }), /no item has the id "tdeadbeef"/);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), before);
    const res = await markKptFile(file, { ids: [p], status: 'resolved' }, { workspaceRoot: dir });
    assert.strictEqual(res.changed.length, 1);
    assert.match(fs.readFileSync(file, 'utf8'), /- \[t1\] p <!-- cape-kpt: resolved -->/);
    assert.ok(!fs.existsSync(`${file}.lock`), 'the KPT lock is released');
  });

  it('group marking closes the open items of the recurrence group and leaves other decisions alone', () => {
    const md = '## Try\n\n- [t1] review the colour tokens together\n- [t2] review the colour tokens together again <!-- cape-kpt: dropped -->\n- [t3] review colour tokens together\n- [t3] unrelated: ship the changelog\n';
    const ids = listKptItems(parseKpt(md)).map((l) => l.id);
    const plan = planKptMark(md, { ids: [ids[2]], status: 'adopted', by: 't4', group: true });
    assert.deepStrictEqual(plan.changed.map((c) => c.id).sort(), [ids[0], ids[2]].sort());
    const after = parseKpt(plan.text);
    assert.deepStrictEqual(after.map((i) => i.status ?? 'open'), ['adopted', 'dropped', 'adopted', 'open']);
  });

  it('re-merging a task keeps the statuses of its unchanged items', () => {
    let md = mergeKptText('', 't1', { keep: [], problem: ['slow build'], try: ['pair more'] }, { updatedAt: NOW });
    const [p] = listKptItems(parseKpt(md)).map((l) => l.id);
    md = planKptMark(md, { ids: [p], status: 'resolved' }).text;
    md = mergeKptText(md, 't1', { keep: [], problem: ['slow build'], try: ['pair more', 'new try'] }, { updatedAt: NOW });
    assert.deepStrictEqual(parseKpt(md).map((i) => [i.text, i.status ?? 'open']), [['slow build', 'resolved'], ['pair more', 'open'], ['new try', 'open']]);
  });

  it("a retrospective's item text cannot set a status: a marker written in it is not kept", () => {
    // only `cape kpt mark`, the tree and the opening's adopted_tries set statuses; a Problem the model (or text it
    // quoted) wrote as resolved would silently leave the digest
    const lists = { keep: ['tests first <!-- cape-kpt: adopted by t0 -->'], problem: ['flaky CI <!-- cape-kpt: resolved -->'], try: ['<!-- cape-kpt: dropped -->'] };
    const md = mergeKptText('', 't1', lists, { updatedAt: NOW });
    assert.deepStrictEqual(parseKpt(md), [
      { kind: 'keep', taskId: 't1', text: 'tests first' },
      { kind: 'problem', taskId: 't1', text: 'flaky CI' },
    ]);
    assert.ok(!md.includes('cape-kpt'), md);
    assert.match(kptDigest(parseKpt(md)), /flaky CI/);
  });
});

describe('kpt status: the digest', () => {
  it('lists open Problems and open Tries (with ids), recently adopted Tries, and leaves resolved and dropped out', () => {
    const items: KptItem[] = [
      { kind: 'problem', taskId: 't1', text: 'the build is slow on CI', status: 'resolved' },
      { kind: 'problem', taskId: 't1', text: 'DoR not met before DevA starts' },
      { kind: 'problem', taskId: 't2', text: 'DoR not met before DevA starts again' },
      { kind: 'try', taskId: 't1', text: 'write the release notes earlier', status: 'dropped' },
      { kind: 'try', taskId: 't2', text: 'pair review the colour tokens', status: 'adopted', statusBy: 't3' },
      { kind: 'try', taskId: 't3', text: 'declare the scope at the start of the session' },
    ];
    const ids = kptItemIds(items);
    const d = kptDigest(items);
    assert.match(d, /Open Problems \(recurring first\):\n- \(2 sessions, last t2\) DoR not met/);
    assert.ok(!d.includes('build is slow'), 'resolved problems are left out');
    assert.ok(!d.includes('release notes'), 'dropped tries are left out');
    assert.ok(d.includes(`- [id ${ids[5]}] (1 session, t3) declare the scope`), 'open tries carry their id');
    assert.match(d, /Recently adopted Tries:\n- \(1 session, t2 adopted in t3\) pair review the colour tokens/);
  });
});

describe('kpt housekeeping', () => {
  /** A history of `n` sessions, each adding a Keep, a Problem and a Try (some closed, some with continuations). */
  function history(n: number): string {
    let md = '';
    for (let s = 1; s <= n; s++) {
      md = mergeKptText(md, `task-${s}`, { keep: [`keep ${s}`], problem: [`problem ${s} about area ${s}`], try: [`try ${s} in area ${s}`] }, { updatedAt: NOW });
    }
    const listed = listKptItems(parseKpt(md));
    for (const l of listed) {
      const s = Number(l.taskId!.slice(5));
      if (l.kind === 'problem' && s % 2 === 0) md = planKptMark(md, { ids: [l.id], status: 'resolved' }).text;
      if (l.kind === 'try' && s % 3 === 0) md = planKptMark(md, { ids: [l.id], status: 'adopted', by: `task-${s + 1}` }).text;
      if (l.kind === 'try' && s % 3 === 1) md = planKptMark(md, { ids: [l.id], status: 'dropped' }).text;
    }
    return md.replace('- [task-2] problem 2 about area 2 <!--', '- [task-2] problem 2 about area 2\n  with a continuation line <!--');
  }

  it('session ages follow first appearance; untagged items take the session above them', () => {
    const items = parseKpt('## Keep\n\n- [a] x\n- untagged\n- [b] y\n\n## Try\n\n- free\n- [c] z\n');
    assert.deepStrictEqual(kptSessionAges(items), [2, 2, 1, 2, 0]);
  });

  it('session ages follow the session order of every section: a session without Keeps is not the newest', () => {
    // t2 added only a Problem: its first line comes after t5's Keep, yet t5 is the latest session
    const md =
      '## Keep\n\n- [t1] keep one\n- [t3] keep three\n- [t4] keep four\n- [t5] keep five\n\n' +
      '## Problem\n\n- [t1] problem one\n- [t2] problem two <!-- cape-kpt: resolved -->\n- [t5] problem five <!-- cape-kpt: resolved -->\n';
    // t2 is somewhere between t1 and t5: where the files cannot tell, a session counts as the more recent (stays longer)
    assert.deepStrictEqual(kptSessionAges(parseKpt(md)), [4, 3, 2, 0, 4, 1, 0]);
    assert.deepStrictEqual(planHousekeeping(md, '', 1).moved.map((m) => m.taskId), ['t2']);
    // the archive's sections are ordered too: what it holds of a recent session does not make that session the oldest
    const archive = '# Archived KPT\n\n## Problem\n\n- [t1] old <!-- cape-kpt: resolved -->\n- [t5] recent <!-- cape-kpt: resolved -->\n';
    const items = [...parseKpt(archive), ...parseKpt(md)];
    assert.deepStrictEqual(kptSessionAges(items).slice(0, 2), [4, 0]);
  });

  it('moves closed items older than N sessions to the archive, line for line; merged + archive = before', () => {
    const md = history(30);
    const before = parseKpt(md);
    const plan = planHousekeeping(md, '', 20);
    const merged = parseKpt(plan.merged);
    const archive = parseKpt(plan.archive);
    assert.deepStrictEqual(sortedKeys([...merged, ...archive]), sortedKeys(before), 'nothing lost, nothing added');
    assert.ok(plan.moved.length > 0);
    for (const a of archive) {
      assert.ok(a.kind !== 'keep' && a.status && a.status !== 'open');
      assert.ok(Number(a.taskId!.slice(5)) <= 10, `task ${a.taskId} is younger than 20 sessions`);
    }
    for (const m of merged) {
      const s = Number(m.taskId!.slice(5));
      if (m.kind !== 'keep' && m.status && s <= 10) assert.fail(`${m.taskId} ${m.text} should have moved`);
    }
    assert.ok(plan.archive.includes('- [task-2] problem 2 about area 2\n  with a continuation line <!-- cape-kpt: resolved -->\n'));
    assert.ok(merged.filter((m) => m.kind === 'keep').length === 30, 'Keeps stay');
    assert.ok(plan.keptClosed > 0, 'younger closed items stay');
    // a second pass moves nothing; a later one appends to the existing archive without losing either file
    assert.strictEqual(planHousekeeping(plan.merged, plan.archive, 20).moved.length, 0);
    const next = planHousekeeping(plan.merged, plan.archive, 5);
    assert.deepStrictEqual(sortedKeys([...parseKpt(next.merged), ...parseKpt(next.archive)]), sortedKeys(before));
    assert.ok(next.archive.startsWith(plan.archive.split('\n## ')[0]), 'the archive keeps its header');
  });

  it('keeps every line it does not understand in kpt_merged.md (intro, comments, unknown sections)', () => {
    const md = '# KPT\n\nIntro text.\n\n<!-- hand note -->\n\n## Problem\n\n- [t1] old <!-- cape-kpt: resolved -->\n| table | row |\n\n## Notes\n\nfree text\n\n## Try\n\n- [t2] x\n';
    const plan = planHousekeeping(md, '', 1);
    assert.strictEqual(plan.merged, md.replace('- [t1] old <!-- cape-kpt: resolved -->\n', ''));
  });

  it('housekeepKptFile writes the archive under the lock, adds the union line, and moves nothing twice', async () => {
    const ws = tmpDir();
    const file = path.join(ws, 'cape', '5_sessions', 'retrospective', 'kpt_merged.md');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, history(25));
    const before = parseKpt(fs.readFileSync(file, 'utf8'));
    const res = await housekeepKptFile(file, { workspaceRoot: ws });
    assert.ok(res.moved.length > 0);
    const archive = fs.readFileSync(res.archivePath, 'utf8');
    assert.deepStrictEqual(sortedKeys([...parseKpt(fs.readFileSync(file, 'utf8')), ...parseKpt(archive)]), sortedKeys(before));
    assert.match(fs.readFileSync(path.join(ws, '.gitattributes'), 'utf8'), /^cape\/5_sessions\/retrospective\/kpt_archive\.md merge=union$/m);
    assert.strictEqual((await housekeepKptFile(file, { workspaceRoot: ws })).moved.length, 0);
    assert.strictEqual(fs.readFileSync(res.archivePath, 'utf8'), archive);
    assert.ok(!fs.existsSync(`${file}.lock`));
  });
});

describe('kpt: .gitattributes and a real git merge', () => {
  it('the first merge adds the union line once; an existing line for the file is respected', async () => {
    const ws = tmpDir();
    const file = path.join(ws, 'team', '5_sessions', 'retrospective', 'kpt_merged.md');
    fs.writeFileSync(path.join(ws, '.gitattributes'), '*.png binary');
    await mergeKptFile(file, 't1', { keep: ['a'], problem: [], try: [] }, NOW, { workspaceRoot: ws });
    await mergeKptFile(file, 't2', { keep: ['b'], problem: [], try: [] }, NOW, { workspaceRoot: ws });
    assert.strictEqual(fs.readFileSync(path.join(ws, '.gitattributes'), 'utf8'), '*.png binary\nteam/5_sessions/retrospective/kpt_merged.md merge=union\n');
    const ws2 = tmpDir();
    fs.writeFileSync(path.join(ws2, '.gitattributes'), '/cape/5_sessions/retrospective/kpt_merged.md -merge\n');
    assert.strictEqual(await ensureUnionMerge(ws2, path.join(ws2, 'cape', '5_sessions', 'retrospective', 'kpt_merged.md')), false);
    assert.strictEqual(fs.readFileSync(path.join(ws2, '.gitattributes'), 'utf8'), '/cape/5_sessions/retrospective/kpt_merged.md -merge\n');
  });

  it('two branches that both add KPT items through the engine merge without conflict and keep every item', async function () {
    this.timeout(60000);
    const ws = tmpDir();
    const git = (...args: string[]): string =>
      execFileSync('git', ['-c', 'user.name=CAPE Test', '-c', 'user.email=cape@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: ws, encoding: 'utf8' });
    git('init', '-q', '-b', 'main');
    const file = path.join(ws, 'cape', '5_sessions', 'retrospective', 'kpt_merged.md');
    await mergeKptFile(file, 'task-1', { keep: ['base keep'], problem: ['base problem'], try: ['base try'] }, NOW, { workspaceRoot: ws });
    git('add', '-A');
    git('commit', '-q', '-m', 'base');
    git('checkout', '-q', '-b', 'alice');
    await mergeKptFile(file, 'task-alice', { keep: ['alice keep'], problem: ['alice problem'], try: ['alice try'] }, new Date(NOW.getTime() + 60_000), { workspaceRoot: ws });
    const [baseTry] = listKptItems(parseKpt(fs.readFileSync(file, 'utf8'))).filter((l) => l.text === 'base try').map((l) => l.id);
    await markKptFile(file, { ids: [baseTry], status: 'adopted', by: 'task-alice' }, { workspaceRoot: ws });
    git('commit', '-q', '-am', 'alice');
    git('checkout', '-q', 'main');
    git('checkout', '-q', '-b', 'bob');
    await mergeKptFile(file, 'task-bob', { keep: ['bob keep'], problem: ['bob problem'], try: ['bob try'] }, new Date(NOW.getTime() + 120_000), { workspaceRoot: ws });
    git('commit', '-q', '-am', 'bob');
    git('checkout', '-q', 'alice');
    git('merge', '-q', '--no-edit', 'bob'); // throws on a conflict
    const merged = fs.readFileSync(file, 'utf8');
    assert.ok(!/^(<{7}|={7}|>{7})/m.test(merged), 'no conflict markers');
    // every item of both branches; a line one side marked and the other moved past may be kept twice by the union
    // driver: it is still one item, with the decided status
    const listed = listKptItems(parseKpt(merged));
    assert.deepStrictEqual(listed.map((i) => i.text).sort(), ['alice keep', 'alice problem', 'alice try', 'base keep', 'base problem', 'base try', 'bob keep', 'bob problem', 'bob try']);
    assert.strictEqual(listed.find((i) => i.text === 'base try')!.status, 'adopted');
    assert.strictEqual(listed.find((i) => i.text === 'base try')!.id, baseTry);
    assert.strictEqual(git('status', '--porcelain'), '');
    // the merged file still takes the next session's merge and a mark, which sets every line of the item
    await mergeKptFile(file, 'task-3', { keep: ['after merge'], problem: [], try: [] }, NOW, { workspaceRoot: ws });
    await markKptFile(file, { ids: [baseTry], status: 'dropped' }, { workspaceRoot: ws });
    const after = parseKptDocument(fs.readFileSync(file, 'utf8')).items;
    assert.deepStrictEqual(after.filter((i) => i.text === 'base try').map((i) => i.status).filter((st) => st !== 'dropped'), []);
    assert.strictEqual(listKptItems(after).length, 10);
  });
});

describe('kpt status: the tree model and its menus', () => {
  const md =
    '## Keep\n\n- [t1] pair early\n\n## Problem\n\n- [t1] slow CI <!-- cape-kpt: resolved -->\n- [t2] flaky e2e\n\n' +
    '## Try\n\n- [t1] review tokens together <!-- cape-kpt: adopted by t2 -->\n- [t2] review the tokens together\n- [t2] ship notes <!-- cape-kpt: dropped -->\n';

  it('groups carry their status (open while any item is) and occurrences their item id; the open filter hides closed groups', () => {
    const items = parseKpt(md);
    const ids = new Map(listKptItems(items).map((l) => [l.text, l.id] as const));
    const all = buildKptModel(items);
    const tryGroups = all.sections[2].groups;
    assert.deepStrictEqual(tryGroups.map((g) => [g.status, g.occurrences.map((o) => [o.itemId, o.status])]).sort(), [
      ['dropped', [[ids.get('ship notes'), 'dropped']]],
      ['open', [[ids.get('review tokens together'), 'adopted'], [ids.get('review the tokens together'), 'open']]],
    ].sort());
    assert.deepStrictEqual(all.sections[1].groups.map((g) => g.status).sort(), ['open', 'resolved']);
    const open = buildKptModel(items, { filter: 'open' });
    assert.deepStrictEqual(open.sections.map((s) => s.groups.length), [1, 1, 1]);
    assert.ok(open.sections[2].groups.every((g) => g.status === 'open'));
    // the same node ids whatever the filter (expansion state survives a toggle)
    assert.ok(open.sections[2].groups.every((g) => tryGroups.some((t) => t.id === g.id)));
  });

  it("package.json's context menu offers each status change exactly where it applies", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
    const menus: { command: string; when: string }[] = manifest.contributes.menus['view/item/context'];
    /** Evaluates the viewItem part of a `when` clause (== or =~ /regex/) for a contextValue. */
    const offers = (command: string, value: string): boolean => {
      const m = menus.find((x) => x.command === command);
      assert.ok(m, `${command} has a context menu entry`);
      assert.match(m.when, /view == cape\.kpt/);
      assert.match(m.when, /isWorkspaceTrusted/);
      const eq = /viewItem == (\S+)/.exec(m.when);
      if (eq) return eq[1] === value;
      const re = /viewItem =~ \/(.+?)\/(?= |$)/.exec(m.when);
      assert.ok(re, m.when);
      return new RegExp(re[1]).test(value);
    };
    const table: [string, string, string[]][] = [
      ['try', 'open', ['cape.kptMarkAdopted', 'cape.kptMarkDropped']],
      ['try', 'adopted', ['cape.kptMarkDropped', 'cape.kptReopen']],
      ['try', 'dropped', ['cape.kptMarkAdopted', 'cape.kptReopen']],
      ['problem', 'open', ['cape.kptMarkResolved']],
      ['problem', 'resolved', ['cape.kptReopen']],
      ['keep', 'open', []],
    ];
    const commands = ['cape.kptMarkAdopted', 'cape.kptMarkDropped', 'cape.kptMarkResolved', 'cape.kptReopen'];
    for (const [kind, status, expected] of table) {
      const value = kptContextValue(kind as KptItem['kind'], status as KptStatus);
      assert.deepStrictEqual(commands.filter((c) => offers(c, value)), expected, value);
    }
    const title: { command: string; when: string }[] = manifest.contributes.menus['view/title'];
    assert.match(title.find((x) => x.command === 'cape.kptShowOpen')!.when, /cape\.kptFilter != open/);
    assert.match(title.find((x) => x.command === 'cape.kptShowAll')!.when, /cape\.kptFilter == open/);
    assert.ok(manifest.contributes.commands.some((c: { command: string; title: string; category: string }) => c.command === 'cape.kptHousekeeping' && `${c.category}: ${c.title}` === 'CAPE: KPT Housekeeping'));
  });
});
