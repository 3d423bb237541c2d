// Issue 11 §4 end to end through the bundled CLI and the fake Anthropic server: `cape kpt list`, a session whose CM
// opening adopts an earlier Try (the engine records it), `cape kpt mark`, `cape housekeeping` (merged + archive =
// before), and the .gitattributes union line — on the original CLI's real 8-session kpt_merged.md.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { runCli, tempDir, workspaceWithOriginalCape, writeFiles } from '../helpers/cli';
import { demoDir, demoReplies } from '../helpers/demo';
import { parseKpt } from '../../src/core/kpt';
import type { KptItem } from '../../src/core/model/types';

const TASK = 'task-kpt-e2e';
const kptPath = (ws: string): string => path.join(ws, 'cape', '5_sessions', 'retrospective', 'kpt_merged.md');
const archivePath = (ws: string): string => path.join(ws, 'cape', '5_sessions', 'retrospective', 'kpt_archive.md');
const keys = (items: KptItem[]): string[] => items.map((i) => JSON.stringify([i.kind, i.taskId, i.text, i.status ?? 'open'])).sort();

describe('CLI: cape kpt list / mark, CM adoption, cape housekeeping', function () {
  this.timeout(180000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 256 }, (f) => (fake = f));
  const env = () => ({ ANTHROPIC_BASE_URL: fake.url });
  const list = async (ws: string) => {
    const run = await runCli(['kpt', 'list', '--workspace', ws, '--json']);
    assert.strictEqual(run.code, 0, run.stderr);
    return run.json.items as { id: string; kind: string; status: string; text: string; taskId: string | null; recurrence: number; statusBy?: string }[];
  };

  it('lists, adopts through the CM opening, marks and archives without losing an item', async () => {
    const ws = workspaceWithOriginalCape('cape-kpt-e2e-', path.join(demoDir(), 'workspace'));
    const original = fs.readFileSync(kptPath(ws), 'utf8');

    // list: every item of the real file, with the documented fields, all open
    const items = await list(ws);
    assert.strictEqual(items.length, parseKpt(original).length);
    for (const i of items) assert.deepStrictEqual(Object.keys(i), ['id', 'kind', 'status', 'text', 'taskId', 'recurrence']);
    assert.ok(items.every((i) => i.status === 'open'));
    assert.ok(items.some((i) => i.recurrence >= 2));
    const human = await runCli(['kpt', 'list', '--workspace', ws]);
    assert.strictEqual(human.code, 0);
    assert.ok(human.stdout.includes(items[0].id));
    assert.strictEqual(fs.readFileSync(kptPath(ws), 'utf8'), original, 'listing writes nothing');

    // a session whose opening adopts the most recent open Try: the digest it received carried the id
    const tryItem = [...items].reverse().find((i) => i.kind === 'try')!;
    const replies = demoReplies(TASK);
    replies[0] = replies[0].replace('"session_brief":', `"adopted_tries": ["${tryItem.id}", "t00000000"],\n    "session_brief":`);
    for (const r of replies) fake.enqueue({ text: r });
    const run = await runCli(['start', '--workspace', ws, '--objective', 'Add a dark mode', '--task', TASK, '--json'], env());
    assert.strictEqual(run.code, 0, run.stderr);
    assert.ok(JSON.stringify(fake.requests[0].body).includes(`[id ${tryItem.id}]`), 'the CM digest names the open Try with its id');
    assert.match(run.stderr, /t00000000, which is not a Try of kpt_merged\.md; ignored/);
    const after = await list(ws);
    const adopted = after.find((i) => i.id === tryItem.id)!;
    assert.strictEqual(adopted.status, 'adopted');
    assert.strictEqual(adopted.statusBy, TASK);
    assert.ok(after.some((i) => i.taskId === TASK), 'the session added its own items');
    assert.match(fs.readFileSync(path.join(ws, '.gitattributes'), 'utf8'), /^cape\/5_sessions\/retrospective\/kpt_merged\.md merge=union$/m);

    // mark: a Problem resolved, a Try dropped; wrong statuses and unknown ids change nothing
    const problem = after.find((i) => i.kind === 'problem' && i.taskId !== TASK)!;
    const otherTry = after.find((i) => i.kind === 'try' && i.status === 'open' && i.taskId !== TASK)!;
    const keep = after.find((i) => i.kind === 'keep')!;
    assert.strictEqual((await runCli(['kpt', 'mark', '--workspace', ws, problem.id, 'resolved'])).code, 0);
    const dropped = await runCli(['kpt', 'mark', '--workspace', ws, otherTry.id, 'dropped']);
    assert.strictEqual(dropped.code, 0, dropped.stderr);
    assert.match(dropped.stdout, new RegExp(`${otherTry.id} is now dropped`));
    const before = fs.readFileSync(kptPath(ws), 'utf8');
    const wrong = await runCli(['kpt', 'mark', '--workspace', ws, problem.id, 'adopted']);
    assert.strictEqual(wrong.code, 1);
    assert.match(wrong.stderr, /open \| resolved/);
    const onKeep = await runCli(['kpt', 'mark', '--workspace', ws, keep.id, 'dropped']);
    assert.strictEqual(onKeep.code, 1);
    assert.match(onKeep.stderr, /Keeps stay/);
    const unknown = await runCli(['kpt', 'mark', '--workspace', ws, 'tffffffff', 'dropped']);
    assert.strictEqual(unknown.code, 1);
    assert.match(unknown.stderr, /no item has the id "tffffffff"/);
    const usage = await runCli(['kpt', 'mark', '--workspace', ws, problem.id, 'done']);
    assert.strictEqual(usage.code, 2);
    assert.match(usage.stderr, /Unknown status "done"/);
    assert.strictEqual((await runCli(['kpt', 'mark', '--workspace', ws, problem.id])).code, 2);
    assert.strictEqual(fs.readFileSync(kptPath(ws), 'utf8'), before, 'refused marks write nothing');
    const marked = await list(ws);
    assert.strictEqual(marked.find((i) => i.id === problem.id)!.status, 'resolved');
    assert.strictEqual(marked.find((i) => i.id === otherTry.id)!.status, 'dropped');

    // housekeeping: the default (20 sessions) keeps these recent items; --older-than 0 moves every closed one
    const beforeItems = parseKpt(fs.readFileSync(kptPath(ws), 'utf8'));
    const none = await runCli(['housekeeping', '--workspace', ws, '--json']);
    assert.strictEqual(none.code, 0, none.stderr);
    assert.deepStrictEqual([none.json.moved.length, none.json.olderThan], [0, 20]);
    assert.ok(!fs.existsSync(archivePath(ws)));
    const hk = await runCli(['housekeeping', '--workspace', ws, '--older-than', '0', '--json']);
    assert.strictEqual(hk.code, 0, hk.stderr);
    const movedIds = hk.json.moved.map((m: { id: string }) => m.id).sort();
    const closed = marked.filter((i) => i.kind !== 'keep' && i.status !== 'open').map((i) => i.id).sort();
    assert.deepStrictEqual(movedIds, closed);
    assert.ok(closed.includes(tryItem.id) && closed.includes(problem.id) && closed.includes(otherTry.id));
    const merged = parseKpt(fs.readFileSync(kptPath(ws), 'utf8'));
    const archive = parseKpt(fs.readFileSync(archivePath(ws), 'utf8'));
    assert.deepStrictEqual(keys([...merged, ...archive]), keys(beforeItems), 'merged + archive = before');
    assert.ok(merged.every((i) => !i.status || i.status === 'open'));
    assert.match(fs.readFileSync(path.join(ws, '.gitattributes'), 'utf8'), /kpt_archive\.md merge=union/);
    const again = await runCli(['housekeeping', '--workspace', ws, '--older-than', '0']);
    assert.strictEqual(again.code, 0);
    assert.match(again.stdout, /Nothing to move/);
    assert.ok(!fs.existsSync(`${kptPath(ws)}.lock`));
  });

  it('items under a sub-heading of a section (### From the review) are listed, marked and archived; the heading stays', async () => {
    const ws = tempDir('cape-kpt-sub-');
    const md = '## Problem\n\n- [t1] reviews wait a day\n\n### From the review\n\n- [t2] the login test is flaky\n\n## Try\n\n- [t1] pair on reviews\n';
    writeFiles(ws, { 'cape/5_sessions/retrospective/kpt_merged.md': md });
    const items = await list(ws);
    assert.deepStrictEqual(items.map((i) => `${i.kind} ${i.taskId} ${i.text}`), ['problem t1 reviews wait a day', 'problem t2 the login test is flaky', 'try t1 pair on reviews']);
    const mark = await runCli(['kpt', 'mark', '--workspace', ws, items[1].id, 'resolved']);
    assert.strictEqual(mark.code, 0, mark.stderr);
    const marked = md.replace('the login test is flaky\n', 'the login test is flaky <!-- cape-kpt: resolved -->\n');
    assert.strictEqual(fs.readFileSync(kptPath(ws), 'utf8'), marked);
    const hk = await runCli(['housekeeping', '--workspace', ws, '--older-than', '0', '--json']);
    assert.strictEqual(hk.code, 0, hk.stderr);
    assert.deepStrictEqual(hk.json.moved.map((m: { id: string }) => m.id), [items[1].id]);
    assert.strictEqual(fs.readFileSync(kptPath(ws), 'utf8'), marked.replace('- [t2] the login test is flaky <!-- cape-kpt: resolved -->\n', ''));
    assert.match(fs.readFileSync(archivePath(ws), 'utf8'), /^- \[t2\] the login test is flaky <!-- cape-kpt: resolved -->$/m);
  });

  it('usage errors are clear: no workspace, bad --older-than, unknown subcommand', async () => {
    const ws = workspaceWithOriginalCape('cape-kpt-usage-');
    const noWs = await runCli(['kpt', 'list']);
    assert.strictEqual(noWs.code, 2);
    assert.match(noWs.stderr, /--workspace DIR is required/);
    const bad = await runCli(['housekeeping', '--workspace', ws, '--older-than', 'ten']);
    assert.strictEqual(bad.code, 2);
    assert.match(bad.stderr, /--older-than takes a whole number/);
    const sub = await runCli(['kpt', 'purge', '--workspace', ws]);
    assert.strictEqual(sub.code, 2);
    assert.match(sub.stderr, /Unknown kpt command "purge"/);
    const help = await runCli(['help']);
    assert.match(help.stdout, /cape kpt mark --workspace DIR <id> <status>/);
    assert.match(help.stdout, /cape housekeeping --workspace DIR \[--older-than N\]/);
  });
});
