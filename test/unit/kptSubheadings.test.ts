// Items under a sub-heading of a Keep/Problem/Try section (`## Problem` then `### From the review`) are that
// section's items: listed, marked and archived like the others, and a merge or a write-back keeps the sub-headings
// and their items where they are (src/core/kpt/document.ts, parseKptDocument).
import * as assert from 'assert';
import { buildKptModel } from '../../src/tree/model';
import { kptDigest, listKptItems, mergeKptText, parseKpt, planHousekeeping, planKptMark } from '../../src/core/kpt';
import type { KptItem } from '../../src/core/model/types';

const NOW = new Date(2026, 10, 30, 12, 0);

/** A hand-written kpt_merged.md: sub-headings (### and ####) inside Problem and Try, an unknown section after. */
const MD = `# Accumulated KPT — CAPE Sessions

_Last updated: 2026-01-01 10:00 (task-2, 2 sessions)_

## Keep

- [task-1] small commits

## Problem

- [task-1] reviews wait a day

### From the review

- [task-2] the login test is flaky
- [task-2] reviews wait a day
- [task-2] the release notes are written by hand
  at the very end <!-- cape-kpt: resolved by task-2 -->

#### Security

- [task-2] a token was printed in the logs

## Try

- [task-1] pair on reviews

### Later

- [task-2] automate the release notes

## Notes

- [task-2] not a KPT item
`;

const brief = (items: KptItem[]): string[] => items.map((i) => `${i.kind} ${i.taskId} ${i.text}${i.status ? ` (${i.status})` : ''}`);

describe('kpt: items under a sub-heading of a KPT section', () => {
  it('count as the section\'s items (### and deeper); the next ## heading ends the section', () => {
    assert.deepStrictEqual(brief(parseKpt(MD)), [
      'keep task-1 small commits',
      'problem task-1 reviews wait a day',
      'problem task-2 the login test is flaky',
      'problem task-2 reviews wait a day',
      'problem task-2 the release notes are written by hand at the very end (resolved)',
      'problem task-2 a token was printed in the logs',
      'try task-1 pair on reviews',
      'try task-2 automate the release notes',
    ]);
  });

  it('a KPT heading inside a section holds its own kind; the enclosing section goes on after it', () => {
    const md = '## Problem\n\n- [t1] p1\n\n### Try (次回)\n\n- [t1] y1\n\n### Details\n\n- [t1] p2\n\n# Title\n\n- [t1] no section\n';
    assert.deepStrictEqual(brief(parseKpt(md)), ['problem t1 p1', 'try t1 y1', 'problem t1 p2']);
  });

  it('are listed with their recurrence, in the KPT view and in the Cape Master\'s digest', () => {
    const listed = listKptItems(parseKpt(MD));
    const again = listed.filter((l) => l.text === 'reviews wait a day');
    assert.deepStrictEqual(again.map((l) => [l.taskId, l.recurrence]), [['task-1', 2], ['task-2', 2]]);
    assert.match(JSON.stringify(buildKptModel(parseKpt(MD))), /a token was printed in the logs/);
    assert.match(kptDigest(parseKpt(MD)), /the login test is flaky/);
  });

  it('a merge keeps the sub-headings and their items; new items go above the first sub-heading; idempotent', () => {
    const merged = mergeKptText(MD, 'task-3', { keep: ['k3'], problem: ['p3'], try: ['y3'] }, { updatedAt: NOW });
    const expected = MD.replace(/_Last updated: .*_/, '_Last updated: 2026-11-30 12:00 (task-3, 3 sessions)_')
      .replace('- [task-1] small commits\n', '- [task-1] small commits\n- [task-3] k3\n')
      .replace('- [task-1] reviews wait a day\n', '- [task-1] reviews wait a day\n- [task-3] p3\n')
      .replace('- [task-1] pair on reviews\n', '- [task-1] pair on reviews\n- [task-3] y3\n');
    assert.strictEqual(merged, expected);
    assert.deepStrictEqual(brief(parseKpt(merged).filter((i) => i.taskId !== 'task-3')), brief(parseKpt(MD)), 'earlier items unchanged');
    assert.strictEqual(mergeKptText(merged, 'task-3', { keep: ['k3'], problem: ['p3'], try: ['y3'] }, { updatedAt: NOW }), merged);
    // a section whose items are all under sub-headings: the new item goes right under its heading
    const onlySub = '## Problem\n\n### From the review\n\n- [t1] p1\n';
    assert.strictEqual(
      mergeKptText(onlySub, 't2', { keep: [], problem: ['p2'], try: [] }, { updatedAt: NOW }),
      '## Problem\n\n- [t2] p2\n\n### From the review\n\n- [t1] p1\n',
    );
  });

  it('a status change edits only the item\'s line; housekeeping moves it and leaves the sub-heading and the rest', () => {
    const flaky = listKptItems(parseKpt(MD)).find((l) => l.text === 'the login test is flaky')!;
    const plan = planKptMark(MD, { ids: [flaky.id], status: 'resolved', by: 'task-3' });
    assert.deepStrictEqual([plan.unknown, plan.changed.map((c) => c.id)], [[], [flaky.id]]);
    assert.strictEqual(plan.text, MD.replace('- [task-2] the login test is flaky\n', '- [task-2] the login test is flaky <!-- cape-kpt: resolved by task-3 -->\n'));

    const hk = planHousekeeping(plan.text, '', 0);
    assert.deepStrictEqual(hk.moved.map((m) => m.text).sort(), ['the login test is flaky', 'the release notes are written by hand at the very end']);
    assert.strictEqual(
      hk.merged,
      plan.text
        .replace('- [task-2] the login test is flaky <!-- cape-kpt: resolved by task-3 -->\n', '')
        .replace('- [task-2] the release notes are written by hand\n  at the very end <!-- cape-kpt: resolved by task-2 -->\n', ''),
    );
    const key = (i: KptItem): string => JSON.stringify([i.kind, i.taskId, i.text, i.status ?? 'open']);
    assert.deepStrictEqual([...parseKpt(hk.merged), ...parseKpt(hk.archive)].map(key).sort(), parseKpt(plan.text).map(key).sort(), 'merged + archive = before');
  });
});
