// E2E 2 + 4: a RECORDED session (Japanese, from ../shared) replayed by the fake server with visible streaming:
// Start Session from the Command Palette, the voices stream into the chat panel step by step, the retrospective with
// KPT and metrics appears, the artifacts land in cape/5_sessions; then the CAPE activity-bar container: the
// Retrospectives view lists the session and the KPT view shows Keep/Problem/Try with recurrence counts (×N) over the
// original project's history (which has repeats).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as ui from '../vscode/browser';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic/server';
import { loadRecordedSessions, originalProjectDir, type RecordedSession } from '../helpers/fixtures';
import { assertIncludes, setTreeRowExpanded, listFiles, makeWorkspace, openCape, panel, shot, stepStatus, treeRows, voiceText, waitFor, waitForSessionDone, type E2eEnv, type TreeRow, runPaletteCommand, closeAfterSuite } from './helpers';

const STEPS = ['cm_open', 'poa', 'da', 'deva', 'cm_retro'] as const;
const AGENT_OF: Record<string, string> = { cm_open: 'CM', poa: 'POA', da: 'DA', deva: 'DevA', cm_retro: 'CM' };

/** The JSON of a recorded reply, parsed independently of the product (a fenced json block, or the outer braces). */
function jsonOf(raw: string): any {
  const m = /```json\s*([\s\S]*?)```/.exec(raw);
  return JSON.parse(m ? m[1] : raw.slice(raw.indexOf('{'), raw.lastIndexOf('}') + 1));
}

const squash = (s: string) => s.replace(/\s+/g, '');

describe('e2e: a recorded session in the chat panel, then the CAPE tree views', function () {
  this.timeout(300_000);
  let fake: FakeAnthropic;
  let env: E2eEnv;
  let session: RecordedSession;
  let taskId = '';

  before(async () => {
    // The complete recorded session with the least text (the run stays short); any complete one would do.
    const complete = loadRecordedSessions().filter((s) => s.complete && s.steps.length === 5 && STEPS.every((id, i) => s.steps[i].step === id));
    if (!complete.length) throw new Error('no complete recorded session in ../shared/fixtures/recorded-sessions');
    session = complete.sort((a, b) => a.steps.reduce((n, s) => n + s.raw.length, 0) - b.steps.reduce((n, s) => n + s.raw.length, 0))[0];

    fake = await startFakeAnthropic({ chunkSize: 64, chunkDelayMs: 5 });
    // The opening streams in small chunks and holds halfway (until the test releases it), so the partly streamed
    // voice is observed deterministically however loaded the machine is; the rest faster (still streamed in chunks).
    const openingRaw = session.steps[0].raw;
    const voiceAt = openingRaw.indexOf('"voice"');
    if (voiceAt < 0) throw new Error('the recorded opening has no "voice" key');
    const openingVoice = String(jsonOf(openingRaw).voice ?? '');
    if (openingVoice.length < 20) throw new Error('the recorded opening voice is too short to watch it stream');
    const pace: Record<string, { chunkSize: number; chunkDelayMs: number; holdAfterChars?: number }> = {
      cm_open: { chunkSize: 6, chunkDelayMs: 10, holdAfterChars: Array.from(openingRaw.slice(0, voiceAt)).length + 10 + Math.floor(openingVoice.length / 2) },
      poa: { chunkSize: 32, chunkDelayMs: 8 },
      da: { chunkSize: 96, chunkDelayMs: 8 },
      deva: { chunkSize: 512, chunkDelayMs: 5 },
      cm_retro: { chunkSize: 48, chunkDelayMs: 8 },
    };
    for (const s of session.steps) fake.enqueue({ text: s.raw, ...pace[s.step] });

    const ws = makeWorkspace();
    fs.cpSync(path.join(originalProjectDir(), 'cape'), path.join(ws, 'cape'), { recursive: true });
    env = await openCape(ws, fake.url);
  });

  closeAfterSuite(() => env, () => fake);

  it('streams every voice into the panel and shows the retrospective with KPT and metrics', async () => {
    const { page } = env;
    const objective = session.objective ?? 'Replay of a recorded session';
    await runPaletteCommand(page, 'CAPE: Start Session');
    await waitFor('the objective input box', async () => (await page.locator('.quick-input-widget .quick-input-title').innerText().catch(() => '')).includes('CAPE: Start Session'));
    await ui.typeInQuickInput(page, objective);

    const wv = await panel(page);
    const expectedVoice = Object.fromEntries(session.steps.map((s) => [s.step, String(jsonOf(s.raw).voice ?? '')]));

    // The CM opening voice appears while the step is running: the fake holds the stream halfway through the voice, so
    // what the panel shows then is a strict prefix of the recorded voice; released, the voice grows to the whole.
    const partial = await waitFor('the opening voice to start streaming', async () => {
      const t = await voiceText(wv, 'cm_open');
      return t.length > 0 && (await stepStatus(wv, 'cm_open')) === 'running' ? t : '';
    });
    assert.ok(squash(expectedVoice.cm_open).startsWith(squash(partial)), `the streamed prefix is the recorded voice: ${JSON.stringify(partial)}`);
    assert.ok(squash(partial).length < squash(expectedVoice.cm_open).length, 'observed while still streaming (not all at once)');
    assert.strictEqual(await stepStatus(wv, 'cm_open'), 'running', 'the opening is still running with a partial voice');
    // The header shows what the session has spent, live: nothing yet while the first reply streams.
    const cost = wv.locator('.panel-header [data-testid="session-cost"]');
    assert.strictEqual((await cost.innerText()).trim(), '$0.000', 'the running cost before the first response');
    await shot(page, 'recorded-1-streaming');
    fake.release();
    await waitFor('the opening voice to grow to the whole recorded voice', async () => squash(await voiceText(wv, 'cm_open')) === squash(expectedVoice.cm_open), 60_000, 200);

    // Later steps: each worker's voice ends up complete in its own turn, in order.
    for (const step of ['poa', 'da', 'deva'] as const) {
      await waitFor(`the ${step} voice to be complete`, async () => squash(await voiceText(wv, step)) === squash(expectedVoice[step]), 90_000, 200);
    }
    await shot(page, 'recorded-2-later-steps');

    await waitForSessionDone(wv, 120_000);
    for (const step of STEPS) assert.strictEqual(await stepStatus(wv, step), 'done', `${step} is done in the stepper`);
    taskId = ((await wv.locator('.panel-header .task-id').textContent()) ?? '').trim();
    assert.match(taskId, /^task-[\w-]+$/, 'the header shows the task id');

    // Retrospective: conversation, KPT columns with the recorded items, and the metrics tables.
    const retro = jsonOf(session.steps[4].raw);
    const results = wv.locator('.retro-results');
    for (const kind of ['keep', 'problem', 'try'] as const) {
      const col = results.locator(`.kpt-${kind}`);
      assert.strictEqual(Number(await col.locator('.kpt-title .count').textContent()), retro.kpt[kind].length, `${kind} count`);
      const items = (await col.locator('li').allTextContents()).map(squash);
      for (const it of retro.kpt[kind] as string[]) assert.ok(items.some((x) => x.includes(squash(it).slice(0, 20))), `${kind} item shown: ${it.slice(0, 60)}`);
    }
    assert.ok((await wv.locator('.turn[data-step="cm_retro"] .conversation .bubble-row').count()) >= Math.min(2, retro.conversation.length), 'the retro conversation is shown');
    const metrics = await results.locator('.metrics').innerText();
    assertIncludes(metrics, 'Session metrics', 'metrics table');
    assertIncludes(metrics, 'Tokens and cost', 'cost table');
    const total = await results.locator('.metrics-cost tfoot td').first().innerText();
    assert.ok(Number(total.replace(/,/g, '')) > 0, `total input tokens are counted: ${total}`);
    // Every request was used, so the header's running cost ends at the metrics' total cost.
    const totalCost = (await results.locator('.metrics-cost tfoot td').last().innerText()).trim();
    assert.match(totalCost, /^\$0\.\d+$/);
    assert.strictEqual((await cost.innerText()).trim(), totalCost, 'the header cost is the session total');
    await wv.locator('.retro-results').scrollIntoViewIfNeeded();
    await shot(page, 'recorded-3-retrospective');

    // Exactly the five recorded replies were used, one request per step.
    assert.strictEqual(fake.requests.filter((r) => r.stream).length, 5, 'one streamed request per step');
  });

  it('writes the artifacts to cape/5_sessions: pair files, the retrospective and KPT items tagged with the task id', () => {
    assert.ok(taskId, 'the session test ran first');
    const ws = env.workspace;
    const pair = listFiles(path.join(ws, 'cape/5_sessions/pair')).filter((f) => f.startsWith(`${taskId}_`));
    assert.strictEqual(pair.length, 5, `five pair files: ${pair.join(', ')}`);
    STEPS.forEach((step, i) => {
      const name = pair.find((p) => p.startsWith(`${taskId}_${i + 1}_${AGENT_OF[step]}_`));
      assert.ok(name, `pair file of step ${i + 1} (${step})`);
      const rec = JSON.parse(fs.readFileSync(path.join(ws, 'cape/5_sessions/pair', name!), 'utf8'));
      assert.ok(JSON.stringify(rec).includes(JSON.stringify(session.steps[i].raw).slice(1, 200)), `${name} holds the raw reply`);
    });

    const retroDir = path.join(ws, 'cape/5_sessions/retrospective');
    const retroFile = listFiles(retroDir).find((f) => f.endsWith(`_${taskId}.md`));
    assert.ok(retroFile, `a retrospective md for ${taskId} in ${listFiles(retroDir).join(', ')}`);
    assert.match(retroFile!, /^\d{4}-\d{2}-\d{2}_\d{2}-\d{2}_task-/, 'named YYYY-MM-DD_HH-MM_<task>.md');
    const retroMd = fs.readFileSync(path.join(retroDir, retroFile!), 'utf8');
    const retro = jsonOf(session.steps[4].raw);
    assertIncludes(squash(retroMd), squash(retro.kpt.keep[0]).slice(0, 30), 'the retrospective md holds the KPT');

    const merged = fs.readFileSync(path.join(retroDir, 'kpt_merged.md'), 'utf8').split('\n');
    const tagged = merged.filter((l) => l.startsWith(`- [${taskId}] `)).map((l) => l.slice(`- [${taskId}] `.length));
    for (const kind of ['keep', 'problem', 'try'] as const) {
      for (const item of retro.kpt[kind] as string[]) assert.ok(tagged.includes(item.replace(/\s*\n\s*/g, ' ').trim()), `kpt_merged.md has [${taskId}] ${kind}: ${item.slice(0, 60)}`);
    }
    // The original history is kept: every item line of the copied kpt_merged.md is still there.
    const original = fs.readFileSync(path.join(originalProjectDir(), 'cape/5_sessions/retrospective/kpt_merged.md'), 'utf8').split('\n').filter((l) => l.startsWith('- '));
    assert.ok(original.length > 0, 'the original project has a KPT history');
    for (const line of original) assert.ok(merged.includes(line), `earlier KPT item kept: ${line.slice(0, 80)}`);

    const state = JSON.parse(fs.readFileSync(path.join(ws, `cape/5_sessions/state/${taskId}.json`), 'utf8'));
    assert.strictEqual(state.status, 'complete');
    assert.deepStrictEqual(state.completedSteps, [...STEPS]);
  });

  it('lists the session in the Retrospectives view and shows KPT with recurrence counts (×N)', async () => {
    assert.ok(taskId, 'the session test ran first');
    const { page } = env;
    await ui.openViewContainer(page, 'CAPE');
    const objective = session.objective ?? '';
    const retroRows = await waitFor('the session in the Retrospectives view', async () => {
      const rows = await treeRows(page, 'Retrospectives');
      // the description: the questions the session left to decide, if any, then the objective
      const objectiveOf = (d: string) => squash(d.replace(/^\d+ open questions? · /, '')).replace(/…$/, '');
      return rows.some((r) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(r.label) && r.description.length > 0 && squash(objective).startsWith(objectiveOf(r.description))) ? rows : undefined;
    });
    assert.ok(retroRows.length >= 1);

    // Sections Keep / Problem / Try, expanded, each with its group count. Groups are sorted by recurrence, so the
    // first group of a section tells whether that section has a recurring item. The original history has repeats:
    // at least one section must show a group with ×N (N ≥ 2). Each section is collapsed after its check so the next
    // one comes on screen (trees render only the visible rows).
    let seen: TreeRow[] = [];
    const section = async (label: string): Promise<TreeRow[]> =>
      waitFor(`the ${label} section`, async () => {
        const r = (seen = await treeRows(page, 'KPT'));
        return r.some((x) => x.label === label && x.level === 1) ? r : undefined;
      }).catch((err) => {
        throw new Error(`${err.message}; rows: ${JSON.stringify(seen.map((x) => [x.level, x.label.slice(0, 20), x.description, x.expanded]))}`);
      });
    let checkedRecurrence = false;
    for (const label of ['Keep', 'Problem', 'Try']) {
      const rows = await section(label);
      const head = rows.find((x) => x.label === label && x.level === 1)!;
      assert.match(head.description, /^\d+$/, `the ${label} section shows its group count`);
      assert.strictEqual(head.expanded, true, `${label} opens expanded`);
      const top = rows[rows.indexOf(head) + 1];
      const m = top && top.level === 2 ? /^×(\d+)$/.exec(top.description) : null;
      if (m && !checkedRecurrence) {
        assert.ok(Number(m[1]) >= 2, `×N counts at least two sessions: ${JSON.stringify(top)}`);
        await shot(page, `recorded-4-kpt-${label.toLowerCase()}`);
        // ×N is the number of distinct sessions: expand the group and count the task ids of its occurrences.
        await setTreeRowExpanded(page, 'KPT', top.label, true);
        const occurrences = await waitFor('the occurrences of the recurring group', async () => {
          const r = await treeRows(page, 'KPT');
          const i = r.findIndex((x) => x.label === top.label && x.level === 2);
          const kids: string[] = [];
          for (let j = i + 1; j < r.length && r[j].level > 2; j++) kids.push(r[j].label);
          return kids.length ? kids : undefined;
        });
        const tasks = new Set(occurrences.map((o) => /^\[(task-[\w-]+)\]/.exec(o)?.[1] ?? o));
        assert.strictEqual(tasks.size, Number(m[1]), `×${m[1]} matches the distinct sessions of the occurrences: ${occurrences.join(' | ')}`);
        assert.ok(occurrences.every((o) => /^\[task-[\w-]+\] /.test(o)), 'occurrences carry their [task-id]');
        checkedRecurrence = true;
      }
      if (label !== 'Try') await setTreeRowExpanded(page, 'KPT', label, false);
    }
    assert.ok(checkedRecurrence, 'some KPT group recurs (×N) in the original history');
    await shot(page, 'recorded-6-kpt-try');
  });
});
