// kpt_merged.md merges that lose nothing (issue 7 item 3), KPT keys in any spelling (item 4), stale locks
// (item 8) and kpt_merged.md outside the workspace (item 11).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawn } from 'child_process';
import {
  kptDigest,
  kptKindOf,
  mergeKptFile,
  mergeKptText,
  parseKpt,
  parseKptDocument,
  readKptText,
} from '../../src/core/kpt';
import { withFileLock } from '../../src/core/files/lock';
import { validateEnvelope } from '../../src/core/reply/envelope';
import { buildKptModel } from '../../src/tree/model';
import type { KptLists } from '../../src/core/model/types';

const NOW = new Date(2026, 10, 30, 12, 0);
const NEW: KptLists = { keep: ['new keep'], problem: ['new problem'], try: ['new try'] };

function tmpDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'cape-kptmerge-'));
}

/** True when `sub` appears in `all` in order (not necessarily contiguous). */
function isSubsequence(sub: string[], all: string[]): boolean {
  let j = 0;
  for (const line of all) if (j < sub.length && line === sub[j]) j++;
  return j === sub.length;
}

function lines(text: string): string[] {
  return text.replace(/^\uFEFF/, '').split(/\r\n|\n/);
}

const SHAPES: Record<string, string> = {
  'intro paragraphs and a title': '# Our KPT\n\nWe keep this file by hand.\nIt has two intro lines.\n\n## Keep\n- [t1] k1\n\n## Problem\n- [t1] p1\n\n## Try\n- [t1] y1\n',
  'HTML comments (one line and several, with a bullet inside)':
    '## Keep\n<!-- keep these short -->\n- [t1] k1\n<!--\n- [t0] not an item\n## Problem\n-->\n\n## Problem\n- [t1] p1\n',
  'a table': '## Keep\n- [t1] k1\n\n| who | what |\n|-----|------|\n| t1 | k1 |\n\n## Try\n- [t1] y1\n',
  'an unknown section with bullets': '## Keep\n- [t1] k1\n\n## Notes\n- a note that is not a KPT item\n- another\n\n## Try\n- [t1] y1\n',
  'a level-1 # Problem': '# Keep\n- [t1] k1\n\n# Problem\n- [t1] p1\n',
  'Japanese headings': '## キープ\n- [t1] 良かった\n\n## 問題\n- [t1] 遅い\n\n## トライ\n- [t1] 早く始める\n',
  'conflict markers': '## Keep\n<<<<<<< HEAD\n- [t1] ours\n=======\n- [t2] theirs\n>>>>>>> branch\n- [t3] after\n',
  'code fences (with a heading and bullets inside)': '## Keep\n- [t1] k1\n```\n## Problem\n- [t0] code, not an item\n```\n- [t2] k2\n',
  'only prose, no KPT structure': 'Some notes someone wrote here.\n\nMore notes.\n',
  'an unclosed code fence': '## Keep\n- [t1] k1\n\n```sh\necho never closed\n',
  'nested bullets and continuation lines': '## Keep\n- [t1] first line\n  continued here\n  - nested detail\n- [t2] second\n',
};

describe('kpt merge: every line it does not understand stays where it was', () => {
  for (const [name, text] of Object.entries(SHAPES)) {
    it(`keeps ${name}, adds the new items, and is idempotent`, () => {
      const before = parseKpt(text);
      const merged = mergeKptText(text, 'task-new', NEW, { updatedAt: NOW });
      assert.ok(isSubsequence(lines(text).filter((l) => l !== ''), lines(merged)), `every original line kept, in order:\n${merged}`);
      const after = parseKpt(merged);
      assert.deepStrictEqual(
        after.filter((i) => i.taskId !== 'task-new'),
        before,
        'the earlier items are unchanged',
      );
      const mine = after.filter((i) => i.taskId === 'task-new');
      assert.deepStrictEqual(
        mine.map((i) => `${i.kind}:${i.text}`).sort(),
        ['keep:new keep', 'problem:new problem', 'try:new try'],
      );
      assert.strictEqual(mergeKptText(merged, 'task-new', NEW, { updatedAt: NOW }), merged, 'merging the same task again changes nothing');
    });
  }

  it('items never swallow conflict markers, fences, comments or table rows', () => {
    const all = Object.values(SHAPES).flatMap((t) => parseKpt(t));
    for (const it of all) assert.doesNotMatch(it.text, /<<<<<<<|=======|>>>>>>>|```|<!--|-->|\|/, it.text);
    assert.ok(!all.some((i) => i.taskId === 't0'), 'bullets in comments and code are not items');
  });

  it('parses level-1 and Japanese KPT headings as KPT (also for the KPT view and the digest)', () => {
    const items = parseKpt(SHAPES['Japanese headings'] + '\n' + SHAPES['a level-1 # Problem']);
    assert.deepStrictEqual(
      items.map((i) => i.kind),
      ['keep', 'problem', 'try', 'keep', 'problem'],
    );
    const model = buildKptModel(items);
    assert.ok(JSON.stringify(model).includes('遅い'), 'the KPT view shows the Japanese items');
    assert.match(kptDigest(items), /遅い/);
  });

  it('a [task-id] tag typed with full-width brackets (Japanese input) is the item\'s tag; a re-merge replaces the item', () => {
    const md = '## Problem\n\n- ［task-1］ テストが遅い\n- [task-2] other\n';
    assert.deepStrictEqual(parseKpt(md).map((i) => [i.taskId, i.text]), [['task-1', 'テストが遅い'], ['task-2', 'other']]);
    const again = mergeKptText(md, 'task-1', { keep: [], problem: ['テストがまだ遅い'], try: [] }, { updatedAt: new Date(2026, 0, 1) });
    assert.strictEqual(again, '## Problem\n\n- [task-1] テストがまだ遅い\n- [task-2] other\n');
  });

  it('a new item goes after the last item of its section, before the notes that follow it', () => {
    const text = '## Keep\n- [t1] k1\n\nA closing remark about keeps.\n\n## Problem\n\nNothing yet.\n';
    const merged = mergeKptText(text, 'task-new', { keep: ['k2'], problem: ['p2'], try: [] }, { updatedAt: NOW });
    assert.strictEqual(
      merged,
      '## Keep\n- [t1] k1\n- [task-new] k2\n\nA closing remark about keeps.\n\n## Problem\n\nNothing yet.\n\n- [task-new] p2\n',
    );
  });

  it('a re-merge replaces the task\'s items in place (continuation lines included) and leaves the rest alone', () => {
    const text = '## Keep\n- [a] one\n- [b] old\n  old continuation\n- [c] three\n';
    const merged = mergeKptText(text, 'b', { keep: ['fresh'], problem: [], try: [] }, { updatedAt: NOW });
    assert.strictEqual(merged, '## Keep\n- [a] one\n- [b] fresh\n- [c] three\n');
  });

  it('keeps CRLF line endings and a BOM, and refreshes the _Last updated_ line', () => {
    const text = '\uFEFF# Accumulated KPT — CAPE Sessions\r\n\r\n_Last updated: 2020-01-01 00:00 (t1, 1 sessions)_\r\n\r\n## Keep\r\n- [t1] k1\r\n';
    const merged = mergeKptText(text, 'task-new', NEW, { updatedAt: NOW });
    assert.ok(merged.startsWith('\uFEFF# Accumulated KPT'));
    assert.ok(!/[^\r]\n/.test(merged), 'only CRLF line endings');
    assert.match(merged, /_Last updated: 2026-11-30 12:00 \(task-new, 2 sessions\)_\r\n/);
  });

  it('an empty file gets the original layout', () => {
    const merged = mergeKptText('', 'task-1', NEW, { updatedAt: NOW });
    assert.match(merged, /^# Accumulated KPT — CAPE Sessions\n\n_Last updated: .* \(task-1, 1 sessions\)_\n\n## Keep\n\n- \[task-1\] new keep\n/);
  });

  it('random documents: every line is kept in order, the new items parse back, a second merge changes nothing', () => {
    let seed = 12345;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const pool = [
      '## Keep', '## Problem', '## Try', '# Problem', '## 問題', '## キープ', '## トライ', '### Try (次回)', '## Notes', '# Title',
      '- [t1] an item', '* [t2] another item', '1. [t3] numbered', '- untagged item', '  indented continuation', 'lazy continuation',
      '  - nested bullet', '', '', 'A paragraph of prose.', '<!-- a comment -->', '<!--', '-->', '```', '~~~', '| a | b |',
      '<<<<<<< HEAD', '=======', '>>>>>>> other', '_Last updated: 2020-01-01 00:00 (t1, 1 sessions)_', '日本語の段落です。',
      '- [t4] ｆｕｌｌ－ｗｉｄｔｈ', '> a quote', '---', '\t- tab bullet',
    ];
    for (let n = 0; n < 300; n++) {
      const count = 1 + rnd(30);
      const doc = Array.from({ length: count }, () => pool[rnd(pool.length)]).join('\n') + (rnd(2) ? '\n' : '');
      const lists: KptLists = { keep: rnd(2) ? ['rk'] : [], problem: rnd(2) ? ['rp'] : [], try: ['rt'] };
      const merged = mergeKptText(doc, 'task-r', lists, { updatedAt: NOW });
      const kept = lines(doc).filter((l) => l !== '' && !l.startsWith('_Last updated'));
      assert.ok(isSubsequence(kept, lines(merged)), `lines lost in:\n${doc}\n---\n${merged}`);
      const mine = parseKpt(merged).filter((i) => i.taskId === 'task-r').map((i) => `${i.kind}:${i.text}`);
      const want = [...lists.keep.map((t) => `keep:${t}`), ...lists.problem.map((t) => `problem:${t}`), 'try:rt'];
      assert.deepStrictEqual(mine.sort(), want.sort(), `new items not found in:\n${merged}`);
      assert.deepStrictEqual(
        parseKpt(merged).filter((i) => i.taskId !== 'task-r'),
        parseKpt(doc),
        `earlier items changed:\n${doc}\n---\n${merged}`,
      );
      assert.strictEqual(mergeKptText(merged, 'task-r', lists, { updatedAt: NOW }), merged, `not idempotent:\n${merged}`);
    }
  });

  it('parseKptDocument reports what is left open at the end', () => {
    assert.strictEqual(parseKptDocument('```js\nx\n').unclosed, '```');
    assert.strictEqual(parseKptDocument('<!--\nx\n').unclosed, '-->');
    assert.strictEqual(parseKptDocument('## Keep\n- x\n').unclosed, null);
  });
});

describe('kpt merge: files that cannot be merged are kept aside, never replaced', () => {
  const cases: [string, Buffer][] = [
    ['a binary file (NUL bytes)', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x00, 0x23, 0x20, 0x4b])],
    ['invalid UTF-8', Buffer.concat([Buffer.from('## Keep\n- [t1] caf'), Buffer.from([0xe9]), Buffer.from('\n')])],
  ];
  for (const [name, bytes] of cases) {
    it(`${name}: renamed to kpt_merged.md.unreadable-<time> unchanged, a new file started, with a warning`, async () => {
      const dir = tmpDir();
      const file = path.join(dir, 'kpt_merged.md');
      fs.writeFileSync(file, bytes);
      const warnings: string[] = [];
      const res = await mergeKptFile(file, 'task-1', NEW, new Date(Date.UTC(2026, 10, 30, 17, 5, 9)), { onWarning: (w) => warnings.push(w) });
      assert.strictEqual(res.status, 'merged');
      assert.strictEqual(path.basename(res.keptAside!), 'kpt_merged.md.unreadable-20261130-170509');
      assert.deepStrictEqual(fs.readFileSync(res.keptAside!), bytes, 'the unreadable file is kept byte for byte');
      assert.strictEqual(warnings.length, 1);
      assert.match(warnings[0], /kpt_merged\.md\.unreadable-20261130-170509/);
      assert.deepStrictEqual(res.warnings, warnings);
      assert.strictEqual(parseKpt(fs.readFileSync(file, 'utf8')).length, 3);
      // a second unreadable file in the same second gets its own name
      fs.writeFileSync(file, bytes);
      const again = await mergeKptFile(file, 'task-2', NEW, new Date(Date.UTC(2026, 10, 30, 17, 5, 9)));
      assert.strictEqual(path.basename(again.keptAside!), 'kpt_merged.md.unreadable-20261130-170509-1');
      const read = await readKptText(res.keptAside!);
      assert.strictEqual(read.text, '');
      assert.match(read.warning!, /not read/);
    });
  }
});

describe('kpt merge: kpt_merged.md outside the workspace', () => {
  it('a symlinked kpt_merged.md (or folder) leading outside is neither read nor written, with a warning', async function () {
    const ws = tmpDir();
    const outside = tmpDir();
    const target = path.join(outside, 'victim.md');
    fs.writeFileSync(target, '## Keep\n- [x] secret\n');
    const retro = path.join(ws, 'cape', '5_sessions', 'retrospective');
    fs.mkdirSync(retro, { recursive: true });
    const file = path.join(retro, 'kpt_merged.md');
    try {
      fs.symlinkSync(target, file);
    } catch {
      this.skip(); // no symlinks on this filesystem
    }
    const warnings: string[] = [];
    const res = await mergeKptFile(file, 'task-1', NEW, NOW, { workspaceRoot: ws, onWarning: (w) => warnings.push(w) });
    assert.strictEqual(res.status, 'refused');
    assert.match(warnings[0], /outside the workspace/);
    assert.strictEqual(fs.readFileSync(target, 'utf8'), '## Keep\n- [x] secret\n', 'the outside file is untouched');
    assert.ok(fs.lstatSync(file).isSymbolicLink(), 'the link is left as it was');
    const read = await readKptText(file, ws);
    assert.strictEqual(read.text, '');
    assert.match(read.warning!, /outside the workspace/);

    // a link inside the workspace is fine
    const inside = path.join(ws, 'kpt-real.md');
    fs.writeFileSync(inside, '## Keep\n- [a] k\n');
    fs.rmSync(file);
    fs.symlinkSync(inside, file);
    assert.strictEqual((await mergeKptFile(file, 'task-1', NEW, NOW, { workspaceRoot: ws })).status, 'merged');
  });
});

describe('kpt lock: stale locks are detected and said', () => {
  const deadPid = (): Promise<number> =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, ['-e', '']);
      child.on('exit', () => resolve(child.pid!));
    });

  it('a lock of a process of this host that no longer runs is broken at once, with a warning naming it', async () => {
    const file = path.join(tmpDir(), 'kpt_merged.md');
    const pid = await deadPid();
    fs.writeFileSync(`${file}.lock`, `${pid} ${os.hostname().replace(/\s+/g, '_')} ${Date.now()} abcdef`);
    const warnings: string[] = [];
    // timeoutMs 0: no wait at all; a lock not seen as stale at once (judged by its age, 30 s) is a timeout error
    await mergeKptFile(file, 'task-x', NEW, NOW, { onWarning: (w) => warnings.push(w), timeoutMs: 0 });
    assert.strictEqual(warnings.length, 1);
    assert.ok(warnings[0].includes(`${file}.lock`), warnings[0]);
    assert.match(warnings[0], new RegExp(`process ${pid}.*no longer runs`));
    assert.ok(!fs.existsSync(`${file}.lock`));
  });

  it('an empty lock (holder killed while taking it) is broken after 2 s, an old one after staleMs', async () => {
    const file = path.join(tmpDir(), 'kpt_merged.md');
    fs.writeFileSync(`${file}.lock`, '');
    const old = new Date(Date.now() - 5000);
    fs.utimesSync(`${file}.lock`, old, old);
    const warnings: string[] = [];
    await withFileLock(file, async () => undefined, { onWarning: (w) => warnings.push(w) });
    assert.match(warnings[0], /stale lock .*empty/);

    fs.writeFileSync(`${file}.lock`, '12345 other-host 1 abc');
    const older = new Date(Date.now() - 120_000);
    fs.utimesSync(`${file}.lock`, older, older);
    await withFileLock(file, async () => undefined, { staleMs: 30_000, onWarning: (w) => warnings.push(w) });
    assert.match(warnings[1], /process 12345 on other-host.*held it for 2 min( \d+ s)? \(limit 30 s\)/);
  });

  it('a live holder is waited for, then a clear error names the lock file and its holder', async () => {
    const file = path.join(tmpDir(), 'kpt_merged.md');
    fs.writeFileSync(`${file}.lock`, `${process.pid} ${os.hostname().replace(/\s+/g, '_')} ${Date.now()} abc`);
    await assert.rejects(
      withFileLock(file, async () => undefined, { timeoutMs: 200 }),
      (e: Error) => e.message.includes(`${file}.lock`) && e.message.includes(`process ${process.pid}`) && /delete that file/.test(e.message),
    );
    assert.ok(fs.existsSync(`${file}.lock`), 'a live lock is not removed');
  });

  it('a lock it cannot read (a folder, a dangling link) is waited for like a live one, then named, never spun on', async function () {
    this.timeout(20000); // before the fix: an endless loop of tries, timeoutMs never checked
    for (const make of [(lock: string) => fs.mkdirSync(lock), (lock: string) => fs.symlinkSync(path.join(path.dirname(lock), 'gone'), lock)]) {
      const file = path.join(tmpDir(), 'kpt_merged.md');
      make(`${file}.lock`);
      let ran = false;
      await assert.rejects(
        withFileLock(file, async () => (ran = true), { timeoutMs: 200 }),
        (e: Error) => e.message.includes(`Timed out after`) && e.message.includes(`${file}.lock`) && /delete that file/.test(e.message),
      );
      assert.strictEqual(ran, false);
      assert.deepStrictEqual(fs.readdirSync(path.dirname(file)), ['kpt_merged.md.lock'], 'nothing left behind');
    }
  });
});

describe('kpt keys in any spelling', () => {
  it('kptKindOf: English, plural, case, full-width, colon, numbering, Japanese', () => {
    const cases: [string, string | null][] = [
      ['keep', 'keep'], ['Keeps', 'keep'], ['KEEP', 'keep'], ['Keep:', 'keep'], ['ｋｅｅｐ', 'keep'], ['キープ', 'keep'], ['1. Keep', 'keep'],
      ['problem', 'problem'], ['Problems', 'problem'], ['問題', 'problem'], ['課題', 'problem'], ['ＰＲＯＢＬＥＭ', 'problem'],
      ['try', 'try'], ['Tries', 'try'], ['トライ', 'try'], ['Try (次回)', 'try'],
      ['Notes', null], ['Accumulated KPT', null], ['keeper', null], ['trying', null],
    ];
    for (const [label, kind] of cases) assert.strictEqual(kptKindOf(label), kind, label);
  });

  const retro = (kpt: unknown) =>
    JSON.stringify({
      agent: 'CM',
      role: 'Cape Master',
      task_id: 't',
      phase: 'retrospective',
      conversation: [{ speaker: 'CM', text: 'hi' }],
      kpt,
      metrics: {},
    });

  it('a retrospective with Japanese, full-width or upper-case keys keeps its items', () => {
    for (const kpt of [
      { キープ: ['k'], 問題: ['p'], トライ: ['t'] },
      { ｋｅｅｐ: ['k'], ｐｒｏｂｌｅｍ: ['p'], ｔｒｙ: ['t'] },
      { KEEP: ['k'], 'Problem:': ['p'], Tries: ['t'] },
    ]) {
      const r = validateEnvelope('cm_retro', JSON.parse(retro(kpt)));
      assert.ok(r.ok, JSON.stringify(r));
      assert.deepStrictEqual(r.ok && r.envelope.kpt, { keep: ['k'], problem: ['p'], try: ['t'] }, JSON.stringify(kpt));
    }
  });

  it('two keys of one kind are both kept; a key that names no kind is an error (repair), not a silent drop', () => {
    const both = validateEnvelope('cm_retro', JSON.parse(retro({ keep: ['a'], キープ: ['b'], problem: [], try: [] })));
    assert.deepStrictEqual(both.ok && both.envelope.kpt?.keep, ['a', 'b']);
    const unknown = validateEnvelope('cm_retro', JSON.parse(retro({ keep: ['a'], 改善: ['lost?'], problem: [], try: [] })));
    assert.ok(!unknown.ok);
    assert.match(!unknown.ok ? unknown.error : '', /改善.*not a KPT list/);
    const emptyUnknown = validateEnvelope('cm_retro', JSON.parse(retro({ keep: ['a'], notes: [], problem: [], try: [] })));
    assert.ok(emptyUnknown.ok, 'an empty extra list loses nothing');
  });
});
