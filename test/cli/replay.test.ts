// End to end: every recorded session in ../shared/fixtures/recorded-sessions is replayed through the bundled CLI,
// the real @anthropic-ai/sdk and the local fake Messages API server over HTTP; then the artifacts on disk, the
// proposed files and the computed metrics are checked against what the replies contain.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { loadRecordedSessions, type RecordedSession } from '../helpers/fixtures';
import { listFiles, runCli, workspaceWithOriginalCape } from '../helpers/cli';
import { demoReplies } from '../helpers/demo';

const AGENT_OF: Record<string, string> = { cm_open: 'CM', poa: 'POA', da: 'DA', deva: 'DevA', cm_retro: 'CM' };

function jsonOf(raw: string): any {
  // Independent of the product's parser: the recorded replies are a fenced json block.
  const m = /```json\s*([\s\S]*?)```/.exec(raw);
  return JSON.parse(m ? m[1] : raw.slice(raw.indexOf('{'), raw.lastIndexOf('}') + 1));
}

function fileBlockPaths(raw: string): string[] {
  return [...raw.matchAll(/<file path=["']([^"']+)["']>/g)].map((m) => m[1]);
}

function kptItemsFor(kptFile: string, taskId: string): string[] {
  return fs
    .readFileSync(kptFile, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith(`- [${taskId}] `))
    .map((l) => l.slice(`- [${taskId}] `.length));
}

describe('CLI replay of the recorded sessions (real SDK over HTTP)', function () {
  this.timeout(120000);
  let fake!: FakeAnthropic;
  const sessions = loadRecordedSessions();

  useFakeAnthropic({ chunkSize: 40 }, (f) => (fake = f));

  it('finds recorded sessions to replay', () => {
    assert.ok(sessions.length > 0, 'no recorded sessions in ../shared/fixtures/recorded-sessions');
  });

  for (const s of sessions.filter((x) => x.complete && x.steps.length === 5)) {
    it(`replays ${path.basename(s.file)} with exactly five requests and correct artifacts`, async () => {
      const ws = workspaceWithOriginalCape('cape-replay-');
      const kptFile = path.join(ws, 'cape/5_sessions/retrospective/kpt_merged.md');
      const kptBefore = fs.readFileSync(kptFile, 'utf8').split('\n').filter((l) => l.startsWith('- ['));
      const before = listFiles(ws).filter((f) => !f.startsWith('cape/'));
      for (const step of s.steps) fake.enqueue({ text: step.raw });

      const run = await runCli(
        ['start', '--workspace', ws, '--objective', s.objective ?? 'replay', '--task', s.taskId, '--lang', s.language, '--json'],
        { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'test-key' },
      );
      assert.strictEqual(run.code, 0, `cape start failed:\n${run.stderr}`);
      assert.strictEqual(fake.requests.length, 5, 'a recorded session must complete with exactly its five requests');
      const out = run.json;
      assert.ok(out, 'the last stdout line must be JSON');
      assert.strictEqual(out.taskId, s.taskId);
      assert.deepStrictEqual(
        out.steps.map((x: any) => [x.agent, x.ok]),
        s.steps.map((x) => [AGENT_OF[x.step], true]),
      );
      for (const st of out.steps) assert.ok(st.usage.inputTokens > 0 && st.usage.outputTokens > 0, 'usage captured per step');

      // Pair files: one per step, named <task>_<n>_<agent>_<timestamp>.json, each holding the raw reply.
      const pair = listFiles(path.join(ws, 'cape/5_sessions/pair'));
      assert.strictEqual(pair.length, 5, `pair files: ${pair.join(', ')}`);
      s.steps.forEach((step, i) => {
        const name = pair.find((p) => p.startsWith(`${s.taskId}_${i + 1}_${AGENT_OF[step.step]}_`));
        assert.ok(name, `missing pair file for step ${i + 1} (${step.step})`);
        const rec = JSON.parse(fs.readFileSync(path.join(ws, 'cape/5_sessions/pair', name!), 'utf8'));
        assert.strictEqual(rec.raw, step.raw);
      });

      // Retrospective markdown + KPT merged with [task-id] tags, history kept.
      const retroDir = path.join(ws, 'cape/5_sessions/retrospective');
      const retro = listFiles(retroDir).filter((f) => new RegExp(`^\\d{4}-\\d{2}-\\d{2}_\\d{2}-\\d{2}_${s.taskId}\\.md$`).test(f));
      assert.strictEqual(retro.length, 1, `retrospective file: ${listFiles(retroDir).join(', ')}`);
      const retroJson = jsonOf(s.steps[4].raw);
      const retroText = fs.readFileSync(path.join(retroDir, retro[0]), 'utf8');
      assert.ok(retroText.includes(retroJson.kpt.keep[0]), 'the retrospective lists the Keep items');
      const kptAfter = fs.readFileSync(kptFile, 'utf8').split('\n').filter((l) => l.startsWith('- ['));
      for (const line of kptBefore) if (!line.startsWith(`- [${s.taskId}]`)) assert.ok(kptAfter.includes(line), `lost KPT item: ${line}`);
      const merged = kptItemsFor(kptFile, s.taskId);
      for (const kind of ['keep', 'problem', 'try'] as const) {
        for (const item of retroJson.kpt[kind]) assert.ok(merged.includes(item.replace(/\s*\n\s*/g, ' ').trim()), `KPT ${kind} not merged: ${item}`);
      }
      assert.deepStrictEqual(out.kpt, retroJson.kpt);

      // Files: one entry per <file> block, proposed (or refused with a reason) and NOT written without --apply.
      const blocks = fileBlockPaths(s.steps[3].raw);
      assert.strictEqual(out.files.length, blocks.length);
      assert.deepStrictEqual(out.files.map((f: any) => f.path), blocks);
      for (const f of out.files) {
        assert.ok(['create', 'modify'].includes(f.action));
        assert.ok(f.status === 'proposed' || (f.status === 'refused' && f.reason), JSON.stringify(f));
      }
      // outside cape/ only the team line for kpt_merged.md (issue 11 §4): .gitattributes gets `… merge=union`
      assert.deepStrictEqual(listFiles(ws).filter((f) => !f.startsWith('cape/') && f !== '.gitattributes'), before.filter((f) => f !== '.gitattributes'), 'nothing written outside cape/');
      assert.match(fs.readFileSync(path.join(ws, '.gitattributes'), 'utf8'), /^cape\/5_sessions\/retrospective\/kpt_merged\.md merge=union$/m);

      // Metrics computed from the envelopes, not copied from the model.
      const envs = [1, 2, 3].map((i) => jsonOf(s.steps[i].raw));
      const ass = envs.map((e) => e.ass?.score ?? e.output?.ass?.score);
      assert.deepStrictEqual([out.metrics.ass.POA, out.metrics.ass.DA, out.metrics.ass.DevA], ass);
      const avg = ass.reduce((a: number, b: number) => a + b, 0) / ass.length;
      assert.ok(Math.abs(out.metrics.assAverage - avg) < 1e-9);
      const variance = ass.reduce((a: number, b: number) => a + (b - avg) ** 2, 0) / ass.length;
      assert.ok(Math.abs(out.metrics.satisfactionVariance - variance) < 1e-9);
      const refs = envs.reduce((n, e) => n + (e.references ?? e.output?.references ?? []).length, 0);
      assert.strictEqual(out.metrics.crossReferenceFrequency, refs);
      assert.strictEqual(out.metrics.conversationIndex, retroJson.conversation.length);
      assert.ok(out.metrics.totalUsage.inputTokens > 0 && out.metrics.totalCostUsd > 0);
      assert.ok(out.metrics.elapsedMs >= 0);

      // Need-to-know: the retro request never contains DevA's file bodies.
      const retroReq = JSON.stringify(fake.requests[4].body);
      const firstBody = /<file path=["'][^"']+["']>\n?([\s\S]*?)<\/file>/.exec(s.steps[3].raw)![1].trim();
      const probe = firstBody.split('\n').find((l) => l.trim().length > 30) ?? firstBody.slice(0, 60);
      assert.ok(!retroReq.includes(JSON.stringify(probe).slice(1, -1)), 'retro request must not contain file bodies');
      assert.ok(retroReq.includes(blocks[0]), 'retro request lists DevA files');
      // Cache layout: the shared preamble first, the role prompt and the step's project files under 1-hour marks (the
      // same in every session: no task id, no objective), the per-session parts after them in the user message.
      for (const [i, r] of fake.requests.entries()) {
        assert.ok(Array.isArray(r.body.system));
        assert.strictEqual(r.body.system[0].text, fake.requests[0].body.system[0].text);
        assert.deepStrictEqual(r.body.system[1].cache_control, { type: 'ephemeral', ttl: '1h' }, `role prompt of request ${i + 1}`);
        const stable = r.body.system.slice(0, 3).map((b: any) => b.text).join('\n');
        assert.ok(!stable.includes(s.taskId) && !stable.includes(s.objective ?? 'replay'), `request ${i + 1}: nothing per session before the marks`);
        if (i < 4) {
          assert.match(r.body.system[2].text, /^# Team and project context/);
          assert.deepStrictEqual(r.body.system[2].cache_control, { type: 'ephemeral', ttl: '1h' });
        }
        assert.ok(r.body.messages[0].content.startsWith(`Task: ${s.taskId}\n`));
      }
      // DA and DevA send the same tools and preamble: DevA reads that prefix from the cache DA wrote.
      assert.ok(fake.requests[3].usage!.cache_read_input_tokens > 1024, 'DevA reads the tools + preamble prefix');
    });
  }

  for (const s of sessions.filter((x) => !x.complete || x.steps.length < 5)) {
    it(`${path.basename(s.file)} (stopped after ${s.steps.map((x) => x.step).join(', ')}) fails clearly, keeps its steps and resumes`, async () => {
      const ws = workspaceWithOriginalCape('cape-replay-');
      for (const step of s.steps) fake.enqueue({ text: step.raw });
      fake.enqueue({ fault: 'http', status: 400, errorType: 'invalid_request_error', message: 'prompt is too long' });
      const objective = s.objective ?? 'Continue the previous work';
      const run = await runCli(['start', '--workspace', ws, '--objective', objective, '--task', s.taskId, '--json'], {
        ANTHROPIC_BASE_URL: fake.url,
        ANTHROPIC_API_KEY: 'test-key' });
      assert.notStrictEqual(run.code, 0);
      assert.match(run.stderr, /prompt is too long/);
      assert.match(run.stderr, new RegExp(`cape resume --workspace .* --task ${s.taskId}`));
      const pair = listFiles(path.join(ws, 'cape/5_sessions/pair'));
      assert.strictEqual(pair.length, s.steps.length, 'completed steps are on disk');

      // Resume runs only the missing steps (replies from our own English demo session).
      fake.reset();
      const rest = demoReplies(s.taskId).slice(s.steps.length);
      for (const r of rest) fake.enqueue({ text: r });
      const resumed = await runCli(['resume', '--workspace', ws, '--task', s.taskId, '--json'], {
        ANTHROPIC_BASE_URL: fake.url,
        ANTHROPIC_API_KEY: 'test-key' });
      assert.strictEqual(resumed.code, 0, resumed.stderr);
      assert.strictEqual(fake.requests.length, rest.length, 'only the missing steps are requested');
      assert.strictEqual(listFiles(path.join(ws, 'cape/5_sessions/pair')).length, 5);
      assert.strictEqual(resumed.json.steps.length, 5);
      // The resumed POA still receives the CM opening's coaching note from the saved step.
      const cm = jsonOf(s.steps[0].raw);
      if (s.steps.length === 1) assert.ok(JSON.stringify(fake.requests[0].body).includes(JSON.stringify(cm.output.coaching_notes.POA).slice(1, 40)));
    });
  }
});

export type { RecordedSession };
