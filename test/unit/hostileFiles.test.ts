// Files on disk that were edited by hand, copied, or shaped to harm: a session's state that names another session,
// KPT text that carries a status marker of its own or a long run of blanks, opposite items that share their words, a
// kpt_merged.md with one CRLF line, a folder where kpt_merged.md or its archive should be, retrospective files that
// are FIFOs or links out of the workspace. Each is refused, read as it is meant, or skipped with a reason — never
// written over another session, never hung on.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { groupKpt, mergeKptFile, mergeKptText, parseKpt, readKptText } from '../../src/core/kpt';
import { KPT_ARCHIVE_FILE } from '../../src/core/kpt/housekeeping';
import { historyFromRetrospectives } from '../../src/core/metrics/history';
import { SessionStore, StoreError, type SessionState } from '../../src/core/store';
import type { KptItem } from '../../src/core/model/types';
import { tempDir } from '../helpers/cli';

function workspace(): { ws: string; store: SessionStore } {
  const ws = tempDir('cape-hostile-');
  fs.mkdirSync(path.join(ws, 'cape'));
  return { ws, store: new SessionStore(ws) };
}

const state = (taskId: string, objective: string, status: SessionState['status']): SessionState => ({
  taskId,
  objective,
  language: 'English',
  model: 'm',
  createdAt: 1,
  status,
  completedSteps: [],
  stepFiles: {},
});

describe('hostile files: session state', () => {
  it("a state file that names another session is refused with what to fix, and that session's state is left alone", async () => {
    const { store } = workspace();
    await store.saveSessionState({ ...state('B', 'B finished', 'complete'), completedSteps: ['cm_open', 'poa', 'da', 'deva', 'cm_retro'] });
    await store.saveSessionState(state('A', 'A failed', 'failed'));
    const aFile = store.statePath('A');
    fs.writeFileSync(aFile, fs.readFileSync(aFile, 'utf8').replace('"taskId": "A"', '"taskId": "B"').replace('"taskId":"A"', '"taskId":"B"'));
    const bBefore = fs.readFileSync(store.statePath('B'), 'utf8');
    await assert.rejects(store.loadSessionState('A'), (e: unknown) => e instanceof StoreError && /names session "B", not "A".*set its "taskId" back to "A"/.test(e.message));
    assert.strictEqual(fs.readFileSync(store.statePath('B'), 'utf8'), bBefore);
    assert.strictEqual((await store.loadSessionState('B'))?.objective, 'B finished');
  });
});

describe('hostile files: KPT text', () => {
  const item = (kind: KptItem['kind'], text: string, taskId: string): KptItem => ({ kind, text, taskId });

  it('a status marker the model writes into an item (even nested to survive one removal) sets no status', () => {
    const merged = mergeKptText('', 't1', { keep: [], problem: ['Tests were flaky <!-- cape-kpt: <!-- cape-kpt: resolved --> resolved -->'], try: [] }, { updatedAt: new Date(0) });
    const [p] = parseKpt(merged);
    assert.strictEqual(p.kind, 'problem');
    assert.strictEqual(p.status, undefined, merged);
    assert.ok(!merged.includes('<!--'), merged);
  });

  it('a line with a long run of blanks after "<!--" is read as text (the marker pattern does not backtrack over the run)', () => {
    const line = `- [t1] note <!--${' '.repeat(200_000)}x`;
    const items = parseKpt(`# KPT\n\n## Problem\n\n${line}\n`);
    assert.strictEqual(items.length, 1);
    assert.ok(items[0].text.startsWith('note <!--'));
  });

  it('a statement and its negation never group, whatever words they share; rewordings still do, in first-seen order', () => {
    const items = [
      item('try', 'Mock the database in integration tests', 't1'),
      item('try', 'Do not mock the database in integration tests', 't2'),
      item('problem', 'The build is not reproducible', 't1'),
      item('problem', 'The build is reproducible', 't2'),
      item('problem', "CI isn't green", 't3'),
      item('problem', 'CI is not green', 't4'),
    ];
    const groups = groupKpt(items).map((g) => g.items.map((it) => it.taskId));
    assert.deepStrictEqual(groups, [['t1'], ['t2'], ['t3', 't4'], ['t1'], ['t2']]);
  });

  it("a kpt_merged.md with one CRLF line keeps its usual LF line breaks when merged", async () => {
    const { store } = workspace();
    const file = store.kptPath;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '# KPT\r\n\n## Keep\n\n- [t1] a\n- [t2] b\n');
    await mergeKptFile(file, 't3', { keep: ['c'], problem: [], try: [] });
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(!text.slice(text.indexOf('\n') + 1).includes('\r\n'), JSON.stringify(text));
    assert.deepStrictEqual(parseKpt(text).map((i) => i.text), ['a', 'b', 'c']);
  });

  it('a kpt_merged.md that is a link inside the workspace stays a link: merges and marks write the file it leads to', async () => {
    const { ws, store } = workspace();
    fs.mkdirSync(path.join(ws, 'docs'));
    fs.writeFileSync(path.join(ws, 'docs', 'kpt.md'), '');
    fs.mkdirSync(path.dirname(store.kptPath), { recursive: true });
    fs.symlinkSync(path.relative(path.dirname(store.kptPath), path.join(ws, 'docs', 'kpt.md')), store.kptPath);
    await store.mergeKpt('t1', { keep: ['Small steps'], problem: ['Flaky tests'], try: [] });
    assert.ok(fs.lstatSync(store.kptPath).isSymbolicLink(), 'still a link');
    assert.deepStrictEqual(parseKpt(fs.readFileSync(path.join(ws, 'docs', 'kpt.md'), 'utf8')).map((i) => i.text), ['Small steps', 'Flaky tests']);
    const problem = (await store.listKpt()).find((i) => i.kind === 'problem')!;
    await store.markKpt({ ids: [problem.id], status: 'resolved' });
    assert.ok(fs.lstatSync(store.kptPath).isSymbolicLink(), 'still a link after a mark');
    assert.strictEqual(parseKpt(fs.readFileSync(path.join(ws, 'docs', 'kpt.md'), 'utf8')).find((i) => i.kind === 'problem')?.status, 'resolved');
  });

  it('a folder where kpt_merged.md should be: the opening reads no history and says why; a merge names the file', async () => {
    const { store } = workspace();
    fs.mkdirSync(store.kptPath, { recursive: true });
    const read = await readKptText(store.kptPath);
    assert.strictEqual(read.text, '');
    assert.match(read.warning ?? '', /it is a folder, not a file/);
    await assert.rejects(mergeKptFile(store.kptPath, 't1', { keep: ['a'], problem: [], try: [] }), (e: Error) => e.message.includes(store.kptPath) && /folder/.test(e.message));
  });

  it('a folder where kpt_merged.md or kpt_archive.md should be: a mark and housekeeping name the file and say why', async () => {
    const { store } = workspace();
    const folder = (file: string) => (e: Error) => e.message === `Cannot read ${file}: it is a folder, not a file.`;
    fs.mkdirSync(store.kptPath, { recursive: true });
    await assert.rejects(store.markKpt({ ids: ['t0123abcd'], status: 'adopted' }), folder(store.kptPath));
    await assert.rejects(store.housekeepKpt(0), folder(store.kptPath));
    fs.rmdirSync(store.kptPath);
    await store.mergeKpt('t1', { keep: ['a'], problem: [], try: [] });
    const archive = path.join(path.dirname(store.kptPath), KPT_ARCHIVE_FILE);
    fs.mkdirSync(archive);
    await assert.rejects(store.housekeepKpt(0), folder(archive));
  });
});

describe('hostile files: retrospectives', () => {
  it('a FIFO or a link among the retrospective files is skipped, never waited on or read', async function () {
    if (process.platform === 'win32') this.skip();
    const { ws, store } = workspace();
    const dir = store.retrospectiveDir;
    fs.mkdirSync(dir, { recursive: true });
    const frontmatter = (avg: number) => `---\ntask_id: t\ndate: 2026-01-0${avg}T00:00:00Z\nass_average: ${avg}\n---\n# Retro\n`;
    fs.writeFileSync(path.join(dir, '2026-01-01_00-00_t1.md'), frontmatter(1));
    execFileSync('mkfifo', [path.join(dir, '2026-01-02_00-00_fifo.md')]);
    const outside = path.join(path.dirname(ws), `${path.basename(ws)}-outside.md`);
    fs.writeFileSync(outside, frontmatter(5));
    fs.symlinkSync(outside, path.join(dir, '2026-01-03_00-00_out.md'));
    assert.deepStrictEqual(await historyFromRetrospectives(dir), [1]);
    assert.deepStrictEqual((await store.listRetrospectives()).map((r) => r.taskId), ['t']);
  });
});
