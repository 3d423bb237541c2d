// Node model of the CAPE tree views (src/tree/model.ts): KPT groups on the real kpt_merged.md of the original CLI,
// sort order, labels, tooltips with hostile text, and the Retrospectives rows from store listings.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { DEFAULT_GROUP_THRESHOLD, parseKpt } from '../../src/core/kpt';
import { SessionStore } from '../../src/core/store';
import type { RetrospectiveInfo, SessionSummary } from '../../src/core/store';
import type { KptItem } from '../../src/core/model/types';
import {
  buildKptModel,
  buildRetrospectiveNodes,
  compareGroups,
  escapeMarkdown,
  findKptNode,
  kptChildren,
  MAX_LABEL_CHARS,
  MAX_TOOLTIP_OCCURRENCES,
  occurrenceTooltip,
  RESUMABLE_CONTEXT,
  resolveKptNode,
} from '../../src/tree/model';
import type { KptGroupNode, KptTreeModel } from '../../src/tree/model';
import { originalProjectDir } from '../helpers/fixtures';
import { benchKptTree } from '../../bench/kptTree';
import { DirWatch } from '../../src/tree/dirWatch';

function realKptItems(): KptItem[] {
  const file = path.join(originalProjectDir(), 'cape', '5_sessions', 'retrospective', 'kpt_merged.md');
  return parseKpt(fs.readFileSync(file, 'utf8'));
}

function allGroups(m: KptTreeModel): KptGroupNode[] {
  return m.sections.flatMap((s) => s.groups);
}

function assertSorted(groups: KptGroupNode[]): void {
  for (let i = 1; i < groups.length; i++) {
    const a = groups[i - 1];
    const b = groups[i];
    assert.ok(a.count > b.count || (a.count === b.count && a.lastIndex > b.lastIndex), `groups ${i - 1} and ${i} are out of order`);
  }
}

describe('tree model: KPT', () => {
  describe('on the real kpt_merged.md of the original CLI', () => {
    const items = realKptItems();
    const model = buildKptModel(items);

    it('has Keep, Problem, Try sections whose description is their group count', () => {
      assert.ok(items.length > 20, 'fixture should parse into many items');
      assert.deepEqual(model.sections.map((s) => s.label), ['Keep', 'Problem', 'Try']);
      assert.deepEqual(model.sections.map((s) => s.icon), ['pass', 'warning', 'lightbulb']);
      for (const s of model.sections) {
        assert.equal(s.description, String(s.groups.length));
        for (const g of s.groups) assert.equal(g.kind, s.kind, 'a group never leaves its section');
      }
      assert.equal(model.groupCount, allGroups(model).length);
      assert.equal(model.itemCount, items.length);
      assert.equal(model.threshold, DEFAULT_GROUP_THRESHOLD);
    });

    it('finds recurring Keeps and Problems (count ≥ 2, "×N", expandable occurrences)', () => {
      for (const kind of ['keep', 'problem'] as const) {
        const recurring = model.sections.find((s) => s.kind === kind)!.groups.filter((g) => g.count >= 2);
        assert.ok(recurring.length >= 1, `expected a recurring ${kind} group`);
        for (const g of recurring) {
          assert.equal(g.description, `×${g.count}`);
          assert.ok(g.occurrences.length >= 2);
          assert.deepEqual(kptChildren(model, g), g.occurrences);
        }
      }
      // most groups are one-offs: grouping must not lump the history together
      const singles = allGroups(model).filter((g) => g.count === 1);
      assert.ok(singles.length > allGroups(model).length / 2, 'most items of 11 sessions are distinct');
      for (const g of singles) assert.equal(g.description, '');
    });

    it('counts equal the distinct task ids of each group', () => {
      let sawRepeatWithinSession = false;
      for (const g of allGroups(model)) {
        const ids = new Set(g.occurrences.map((o) => o.taskId));
        assert.ok(!ids.has(null), 'every fixture item is tagged');
        assert.equal(g.count, ids.size, `count of "${g.label.slice(0, 20)}"`);
        assert.deepEqual([...g.taskIds].sort(), [...ids].sort());
        if (g.occurrences.length > ids.size) sawRepeatWithinSession = true;
      }
      // not required of every history, but this one has a session repeating itself inside one group
      assert.ok(sawRepeatWithinSession, 'a group with two items from one session still counts that session once');
    });

    it('sorts groups by recurrence count, then recency', () => {
      for (const s of model.sections) assertSorted(s.groups);
      const top = model.sections.find((s) => s.kind === 'keep')!.groups[0];
      assert.ok(top.count >= 2, 'the first Keep recurs');
    });

    it('lists every item exactly once, with single-line labels of at most 100 characters and unique ids', () => {
      const occ = allGroups(model).flatMap((g) => g.occurrences);
      assert.equal(occ.length, items.length);
      assert.deepEqual(occ.map((o) => o.text).sort(), items.map((i) => i.text).sort());
      const ids = [...model.sections.map((s) => s.id), ...allGroups(model).map((g) => g.id), ...occ.map((o) => o.id)];
      assert.equal(new Set(ids).size, ids.length, 'tree ids must be unique');
      for (const n of [...allGroups(model), ...occ]) {
        assert.ok(!/[\r\n]/.test(n.label));
        assert.ok(Array.from(n.label).length <= MAX_LABEL_CHARS, `label too long: ${n.label.length}`);
      }
      for (const o of occ) assert.ok(o.label.startsWith(`[${o.taskId}] `));
    });

    it('tooltips carry the full texts and task ids as escaped markdown', () => {
      const g = allGroups(model).find((x) => x.count >= 2)!;
      for (const o of g.occurrences) {
        assert.ok(g.tooltip.includes(escapeMarkdown(o.text)), 'full text of each occurrence');
        assert.ok(g.tooltip.includes(escapeMarkdown(o.taskId!)), 'task id of each occurrence');
        const tip = occurrenceTooltip(o);
        assert.ok(tip.includes(escapeMarkdown(o.taskId!)) && tip.includes(escapeMarkdown(o.text).slice(0, 50)));
      }
      assert.match(g.tooltip, new RegExp(`recurs in ${g.count} sessions`));
    });

    it('is deterministic: rebuilding gives the same ids (expansion state survives a refresh)', () => {
      const again = buildKptModel(realKptItems());
      assert.deepEqual(allGroups(again).map((g) => g.id), allGroups(model).map((g) => g.id));
    });
  });

  it('a status command acts on the current model\'s row: a stale element, the selection, or nothing', () => {
    const before = buildKptModel(parseKpt('## Try\n- [task-a] Pair on the tests\n'));
    const after = buildKptModel(parseKpt('## Try\n- [task-a] Pair on the tests\n- [task-b] Pair on the tests\n'));
    const stale = allGroups(before)[0];
    const fresh = allGroups(after)[0];
    assert.equal(stale.id, fresh.id, 'a group keeps its id across loads');
    assert.equal(stale.occurrences.length, 1);
    // the right-clicked row's element from the earlier load → the current group, with both occurrences
    assert.equal(resolveKptNode(stale, [], after), fresh);
    assert.equal((resolveKptNode(stale, [], after) as KptGroupNode).occurrences.length, 2);
    // no element (stale handle, Command Palette) → the selection; sections and junk are skipped
    assert.equal(resolveKptNode(undefined, [after.sections[0], fresh], after), fresh);
    assert.equal(resolveKptNode({ type: 'group' }, [], after), undefined, 'an object without an id is not a row');
    assert.equal(resolveKptNode(undefined, [after.sections[0]], after), undefined);
    // a row the current model no longer has (filtered out, file changed) is used as handed
    assert.equal(resolveKptNode(stale, [], null), stale);
    assert.equal(findKptNode(after, fresh.occurrences[1].id), fresh.occurrences[1]);
  });

  it('breaks count ties by recency (the most recently seen group first)', () => {
    const items: KptItem[] = [
      { kind: 'problem', taskId: 't1', text: 'Acceptance criteria arrived after the design was finished' },
      { kind: 'problem', taskId: 't1', text: 'Unit tests were skipped for the storage adapter module' },
      { kind: 'problem', taskId: 't2', text: 'Acceptance criteria arrived after the design was finished again' },
      { kind: 'problem', taskId: 't3', text: 'Colour tokens were renamed without telling the developer' },
      { kind: 'problem', taskId: 't4', text: 'Unit tests were skipped for the storage adapter module' },
      { kind: 'problem', taskId: 't5', text: 'Nobody measured the bundle size before shipping the build' },
    ];
    const groups = buildKptModel(items).sections[1].groups;
    assert.deepEqual(
      groups.map((g) => [g.count, g.label.slice(0, 14)]),
      [
        [2, 'Unit tests wer'], // ×2, last seen at index 4
        [2, 'Acceptance cri'], // ×2, last seen at index 2
        [1, 'Nobody measure'], // index 5
        [1, 'Colour tokens '], // index 3
      ],
    );
    assert.equal(compareGroups({ count: 3, lastIndex: 0 }, { count: 2, lastIndex: 9 }) < 0, true);
  });

  it('counts each untagged item as its own session and labels it without a tag', () => {
    const items: KptItem[] = [
      { kind: 'try', taskId: null, text: 'Write the acceptance criteria before the design starts' },
      { kind: 'try', taskId: null, text: 'Write the acceptance criteria before the design starts' },
      { kind: 'try', taskId: 'a', text: 'Write the acceptance criteria before the design starts' },
    ];
    const g = buildKptModel(items).sections[2].groups[0];
    assert.equal(g.count, 3);
    assert.equal(g.description, '×3');
    assert.deepEqual(g.taskIds, ['a']);
    assert.equal(g.occurrences[0].label, 'Write the acceptance criteria before the design starts');
    assert.equal(g.occurrences[2].label, '[a] Write the acceptance criteria before the design starts');
  });

  it('no items → no sections (the view shows its welcome text); junk items are ignored', () => {
    assert.deepEqual(buildKptModel([]).sections, []);
    const junk = [{ kind: 'keep', taskId: 'x', text: '   ' }, { kind: 'other', taskId: 'x', text: 'hi' }] as unknown as KptItem[];
    assert.equal(buildKptModel(junk).itemCount, 0);
    const one = buildKptModel([{ kind: 'keep', taskId: 'x', text: 'Pairing worked' }]);
    assert.deepEqual(one.sections.map((s) => s.groups.length), [1, 0, 0]);
    assert.deepEqual(kptChildren(one, one.sections[0].groups[0]), [], 'a single item has no children');
  });

  it('hostile text: labels stay one line and cut, tooltips cannot link, run commands or embed HTML', () => {
    const evil =
      'Click [here](command:cape.clearApiKey) <img src=x onerror=alert(1)> **bold** `code`\n# Heading\r\n' +
      'https://evil.example/x ![img](http://x/y.png) ' + 'x'.repeat(300);
    const m = buildKptModel([
      { kind: 'problem', taskId: 'task-[1]', text: evil },
      { kind: 'problem', taskId: 'task-2', text: evil },
    ]);
    const g = m.sections[1].groups[0];
    assert.ok(!/[\r\n]/.test(g.label));
    const chars = Array.from(g.label).length;
    assert.ok(chars <= MAX_LABEL_CHARS && chars >= MAX_LABEL_CHARS * 0.75, `${chars} characters`);
    assert.ok(g.label.endsWith('…'));
    for (const tip of [g.tooltip, ...g.occurrences.map(occurrenceTooltip)]) {
      assert.ok(!/(^|[^\\])\[here\]\(/.test(tip), 'no live markdown link');
      assert.ok(!/(^|[^\\])</.test(tip), 'no raw HTML');
      assert.ok(!/(^|[^\\])!\[/.test(tip), 'no image');
      assert.ok(!/https:\/\//.test(tip), 'no autolink (the colon is escaped)');
      assert.ok(!/\n# /.test(tip), 'no heading injected');
    }
  });

  it('caps a huge group tooltip and still counts every session', () => {
    const items: KptItem[] = [];
    for (let i = 0; i < 200; i++) items.push({ kind: 'keep', taskId: `t${i}`, text: 'Daily pairing between designer and developer' });
    const g = buildKptModel(items).sections[0].groups[0];
    assert.equal(g.count, 200);
    assert.equal(g.occurrences.length, 200);
    assert.equal(g.tooltip.split('\n').filter((l) => l.startsWith('- ')).length, MAX_TOOLTIP_OCCURRENCES);
    assert.match(g.tooltip, /… and 180 more/);
    assert.match(g.tooltip, /\(200 in all\)/);
  });

  it('a label counts code points (no split surrogate pairs) and is one line (text/cut.ts lineWithin)', () => {
    const items: KptItem[] = [{ kind: 'keep', taskId: 't1', text: '😀'.repeat(150) }, { kind: 'try', taskId: 't1', text: 'a\n b\t c' }];
    const labels = new Map(buildKptModel(items).sections.flatMap((s) => s.groups.map((g) => [s.kind, g.label] as const)));
    const emoji = labels.get('keep') ?? '';
    assert.equal(Array.from(emoji).length, MAX_LABEL_CHARS);
    assert.equal(emoji, '😀'.repeat(MAX_LABEL_CHARS - 1) + '…');
    assert.equal(labels.get('try'), 'a b c');
  });

  it('benchKptTree builds 10,000 items into groups (its time is printed by npm run bench)', () => {
    const r = benchKptTree();
    assert.equal(r.items, 10_000);
    assert.ok(r.groups > 10 && r.groups < 10_000);
    assert.ok(Number.isFinite(r.ms) && r.ms >= 0);
  });
});

describe('tree model: Retrospectives', () => {
  const d = (s: string): Date => new Date(s);
  const retro = (taskId: string, date: string, extra: Partial<RetrospectiveInfo> = {}): RetrospectiveInfo => ({
    path: `/w/cape/5_sessions/retrospective/${taskId}.md`,
    taskId,
    date: d(date),
    objective: `Objective of ${taskId}`,
    assAverage: 4.125,
    ...extra,
  });
  const session = (taskId: string, status: SessionSummary['status'], at: string, extra: Partial<SessionSummary> = {}): SessionSummary => ({
    taskId,
    objective: `Objective of ${taskId}`,
    status,
    createdAt: d(at).getTime() - 60_000,
    updatedAt: d(at).getTime(),
    completedSteps: ['cm_open', 'poa'],
    statePath: `/w/cape/5_sessions/state/${taskId}.json`,
    ...extra,
  });

  it('one row per session, newest first; failed sessions are resumable with an error icon', () => {
    const nodes = buildRetrospectiveNodes(
      [retro('t-old', '2026-01-01T10:00:00'), retro('t-new', '2026-03-01T09:05:00')],
      [
        session('t-new', 'complete', '2026-03-01T09:05:00'),
        session('t-fail', 'failed', '2026-02-01T12:30:00', { error: { step: 'da', kind: 'network', message: 'socket hang up' } }),
        session('t-done-no-file', 'complete', '2026-04-01T00:00:00'),
      ],
    );
    assert.deepEqual(nodes.map((n) => [n.taskId, n.kind]), [
      ['t-new', 'retrospective'],
      ['t-fail', 'failed'],
      ['t-old', 'retrospective'],
    ]);
    assert.equal(nodes[0].label, '2026-03-01 09:05');
    assert.equal(nodes[0].icon, 'book');
    assert.equal(nodes[0].path, '/w/cape/5_sessions/retrospective/t-new.md');
    assert.equal(nodes[0].description, 'Objective of t-new');
    assert.match(nodes[0].tooltip, /4\.13 \/ 5/);
    assert.match(nodes[0].tooltip, /t\\-new/);
    const failed = nodes[1];
    assert.equal(failed.icon, 'error');
    assert.equal(failed.contextValue, RESUMABLE_CONTEXT);
    assert.equal(failed.label, '2026-02-01 12:30');
    assert.equal(failed.path, undefined);
    assert.match(failed.tooltip, /socket hang up/);
    assert.match(failed.tooltip, /Error at da/);
    assert.match(failed.tooltip, /Resume/);
  });

  it('a retrospective names the open questions its session left to decide, before the objective', () => {
    const [two, none, old] = buildRetrospectiveNodes(
      [{ ...retro('t-2', '2026-03-01T09:05:00'), openQuestions: 2 }, { ...retro('t-0', '2026-02-01T09:05:00'), openQuestions: 0 }, retro('t-old', '2026-01-01T09:05:00')],
      [],
    );
    assert.equal(two.description, '2 open questions · Objective of t-2');
    assert.match(two.tooltip, /\*\*Open questions for you:\*\* 2/);
    assert.equal(none.description, 'Objective of t-0');
    assert.match(none.tooltip, /\*\*Open questions for you:\*\* none/);
    assert.equal(old.description, 'Objective of t-old', 'a file that records none (the original CLI\'s, an older one) says nothing');
    assert.doesNotMatch(old.tooltip, /Open questions/);
  });

  it('a state left "running" is interrupted (resumable) unless a session runs now', () => {
    const s = [session('t-run', 'running', '2026-02-01T12:30:00')];
    const idle = buildRetrospectiveNodes([], s, { sessionRunning: false })[0];
    assert.equal(idle.kind, 'interrupted');
    assert.equal(idle.contextValue, RESUMABLE_CONTEXT);
    const live = buildRetrospectiveNodes([], s, { sessionRunning: true })[0];
    assert.equal(live.kind, 'running');
    assert.notEqual(live.contextValue, RESUMABLE_CONTEXT);
  });

  it('original-CLI retrospectives (no objective, no ASS) fall back to the task id; duplicates keep the newest', () => {
    const nodes = buildRetrospectiveNodes(
      [
        retro('t1', '2026-01-01T10:00:00', { objective: null, assAverage: null, path: '/a.md' }),
        retro('t1', '2026-01-02T10:00:00', { objective: null, assAverage: null, path: '/b.md' }),
      ],
      [],
    );
    assert.equal(nodes.length, 1);
    assert.equal(nodes[0].path, '/b.md');
    assert.equal(nodes[0].description, 't1');
    assert.match(nodes[0].tooltip, /not recorded/);
  });

  it('long or multi-line objectives are cut to one line; markdown in them is escaped', () => {
    const obj = 'Build [x](command:cape.clearApiKey)\n' + 'very long objective '.repeat(20);
    const n = buildRetrospectiveNodes([retro('t', '2026-01-01T10:00:00', { objective: obj })], [])[0];
    assert.ok(!/\n/.test(n.description));
    assert.ok(Array.from(n.description).length <= 60);
    assert.ok(n.tooltip.includes('\\[x\\]\\(command\\:cape\\.clearApiKey\\)'));
  });

  it('works on what SessionStore lists from disk (original-CLI file names and our state files)', async () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-tree-'));
    try {
      const store = new SessionStore(ws, 'cape');
      fs.mkdirSync(store.retrospectiveDir, { recursive: true });
      fs.mkdirSync(store.stateDir, { recursive: true });
      fs.writeFileSync(path.join(store.retrospectiveDir, '2026-05-19_17-55_task-100.md'), '# Retrospective\n');
      fs.writeFileSync(path.join(store.retrospectiveDir, 'kpt_merged.md'), '## Keep\n\n- [task-100] ok\n');
      const state = {
        taskId: 'task-200', objective: 'Add dark mode', language: 'English', model: 'm', createdAt: Date.UTC(2026, 5, 1),
        updatedAt: Date.UTC(2026, 5, 1, 0, 5), status: 'failed', completedSteps: ['cm_open'], stepFiles: {},
        error: { step: 'poa', kind: 'overloaded', message: 'Overloaded' },
      };
      fs.writeFileSync(path.join(store.stateDir, 'task-200.json'), JSON.stringify(state));
      const nodes = buildRetrospectiveNodes(await store.listRetrospectives(), await store.listSessions());
      assert.deepEqual(nodes.map((n) => [n.taskId, n.kind]), [['task-200', 'failed'], ['task-100', 'retrospective']]);
      assert.equal(nodes[1].label, '2026-05-19 17:55');
      assert.equal(nodes[0].description, 'Add dark mode');
      // A session waiting for answers to the Cape Master's questions says so, and is resumable.
      fs.writeFileSync(path.join(store.stateDir, 'task-300.json'), JSON.stringify({ ...state, taskId: 'task-300', updatedAt: Date.UTC(2026, 5, 2), status: 'needs_answers', error: undefined, dor: { questions: ['Which one?'] } }));
      const waiting = buildRetrospectiveNodes(await store.listRetrospectives(), await store.listSessions()).find((n) => n.taskId === 'task-300')!;
      assert.equal(waiting.icon, 'question');
      assert.match(waiting.tooltip, /Waiting for your answers to the Cape Master's questions/);
      assert.notEqual(waiting.contextValue, 'cape.runningSession');
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });
});

describe('tree refresh backstop: DirWatch', () => {
  const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
  async function until(what: string, ok: () => boolean, ms = 3000): Promise<void> {
    const end = Date.now() + ms;
    while (!ok()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await sleep(20);
    }
  }

  it('watches folders once they exist, reports entry names, and re-arms a folder deleted and re-created', async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-dirwatch-'));
    const dir = path.join(base, 'retrospective');
    const events: string[] = [];
    const w = new DirWatch((d, name) => events.push(`${path.basename(d)}/${name}`));
    try {
      w.setDirs([dir, base]);
      assert.deepEqual(w.watching, [base], 'a missing folder is skipped, not an error');
      fs.mkdirSync(dir);
      await until('the base event', () => events.includes('cape-dirwatch-' + base.split('cape-dirwatch-')[1] + '/retrospective'));
      w.arm();
      assert.deepEqual(w.watching.sort(), [base, dir].sort());
      fs.writeFileSync(path.join(dir, 'kpt_merged.md'), 'x');
      await until('the file event', () => events.includes('retrospective/kpt_merged.md'));

      fs.rmSync(dir, { recursive: true });
      await until('the dead watcher to be dropped', () => !w.watching.includes(dir));
      fs.mkdirSync(dir);
      w.arm(); // the re-created folder gets a new watcher
      events.length = 0;
      fs.writeFileSync(path.join(dir, 'again.md'), 'x');
      await until('an event in the re-created folder', () => events.includes('retrospective/again.md'));

      w.setDirs([base]);
      assert.deepEqual(w.watching, [base], 'folders no longer wanted are closed');
    } finally {
      w.dispose();
      assert.deepEqual(w.watching, []);
      fs.rmSync(base, { recursive: true, force: true });
    }
  });
});
