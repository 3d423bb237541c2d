// Replays the trial sessions kept under test/fixtures/trials (our own replies to the engine's real requests, recorded
// with `npm run trial`) through the bundled CLI, the real SDK and the fake server; checks what each trial relied on.
import * as assert from 'assert';
import { WHOLE_DOMAIN_LIMIT } from '../../src/core/session/context';
import * as fs from 'fs';
import * as path from 'path';
import { type FakeAnthropic, type FakeReply } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { repoRoot } from '../helpers/fixtures';
import { listFiles, runCli, tempDir, workspaceWithOriginalCape } from '../helpers/cli';

interface Trial {
  taskId: string;
  objective: string;
  language: string;
  complete: boolean;
  steps: { step: string; raw: string }[];
  /** Every reply served in order, tool-use turns included (trials recorded after tools existed). */
  replies?: FakeReply[];
  workspace: { originalProject?: boolean; files?: Record<string, string> };
  file: string;
}

function loadTrials(): Trial[] {
  const dir = path.join(repoRoot(), 'test', 'fixtures', 'trials');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ ...JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')), file: f }));
}

function workspaceFor(t: Trial): string {
  if (t.workspace.originalProject) return workspaceWithOriginalCape('cape-trial-');
  const ws = tempDir('cape-trial-');
  for (const [rel, content] of Object.entries(t.workspace.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), content);
  }
  return ws;
}

function envelope(raw: string): any {
  return JSON.parse(/```json\s*([\s\S]*?)```/.exec(raw)![1]);
}

/** What a step's request carries beyond the preamble and role prompt: the stable project part (system) and the messages. */
function userText(req: any): string {
  const stable = (req.body.system as any[]).slice(2).map((b) => b.text);
  return [...stable, ...req.body.messages.map((m: any) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))].join('\n');
}

describe('CLI replay of the trial sessions (npm run trial transcripts)', function () {
  this.timeout(120000);
  let fake!: FakeAnthropic;
  const trials = loadTrials();

  useFakeAnthropic({ chunkSize: 40 }, (f) => (fake = f));

  it('keeps a Japanese trial and an English trial on an existing codebase', () => {
    assert.ok(trials.some((t) => t.language === 'Japanese'));
    assert.ok(trials.some((t) => t.language === 'English' && Object.keys(t.workspace.files ?? {}).some((f) => f.startsWith('src/'))));
    for (const t of trials) assert.ok(t.complete && t.steps.length === 5, t.file);
  });

  for (const t of trials) {
    const replies: FakeReply[] = t.replies ?? t.steps.map((s) => ({ text: s.raw }));
    it(`${t.file}: replays in exactly its ${replies.length} requests, and the requests carry what the trial relied on`, async () => {
      const ws = workspaceFor(t);
      const before = listFiles(ws).filter((f) => !f.startsWith('cape/'));
      fake.enqueue(...replies);
      const run = await runCli(['start', '--workspace', ws, '--objective', t.objective, '--task', t.taskId, '--lang', t.language, '--json'], {
        ANTHROPIC_BASE_URL: fake.url,
        ANTHROPIC_API_KEY: 'test-key',
      });
      assert.strictEqual(run.code, 0, run.stderr);
      assert.strictEqual(fake.requests.length, replies.length);
      assert.deepStrictEqual(
        run.json.steps.map((s: any) => s.ok),
        [true, true, true, true, true],
      );
      const blocks = [...t.steps[3].raw.matchAll(/<(?:file|edit) path="([^"]+)">/g)].map((m) => m[1]);
      assert.deepStrictEqual([...run.json.files.map((f: any) => f.path)].sort(), [...blocks].sort());
      assert.ok(run.json.files.every((f: any) => f.status === 'proposed'));
      // outside cape/ only the team line for kpt_merged.md (issue 11 §4): .gitattributes gets `… merge=union`
      assert.deepStrictEqual(listFiles(ws).filter((f) => !f.startsWith('cape/') && f !== '.gitattributes'), before.filter((f) => f !== '.gitattributes'), 'nothing written without --apply');
      assert.match(fs.readFileSync(path.join(ws, '.gitattributes'), 'utf8'), /^cape\/5_sessions\/retrospective\/kpt_merged\.md merge=union$/m);
      assert.strictEqual(listFiles(path.join(ws, 'cape/5_sessions/pair')).length, 5);
      if (t.replies?.some((r) => 'toolCalls' in r)) {
        // The edits DevA wrote after reading the files apply to the workspace as it is.
        assert.ok(run.json.files.some((f: any) => f.action === 'modify'));
        assert.ok(fake.requests.some((r) => JSON.stringify(r.body.messages).includes('"tool_result"')));
      }

      // The first request of each step (tool turns and repairs follow it within the step).
      const firsts = fake.requests.filter((r) => r.body.messages.length === 1).map(userText);
      assert.strictEqual(firsts.length, 5);
      const [cmReq, poaReq, daReq, devaReq, retroReq] = firsts;
      // CM could check the DoR's "files exist" item.
      assert.match(cmReq, /## Project files in cape\/\nPresent: cape\/1_product\/1_mvv\.md/);
      // CM's go-ahead reaches DevA.
      const opening = envelope(t.steps[0].raw).output;
      assert.ok(devaReq.includes("## Cape Master's go-ahead"));
      for (const item of opening.go_ahead.needs_approval) assert.ok(devaReq.includes(item), item);
      // No framework role file repeating the role prompt in the packed project files.
      for (const req of [poaReq, daReq, devaReq]) assert.ok(!/### cape\/\d_\w+\/0_role\.md/.test(req));
      // The retrospective sees each agent's open questions and departures whole.
      for (const i of [1, 2, 3]) {
        const out = envelope(t.steps[i].raw).output;
        for (const q of [...(out.open_questions ?? []), ...(out.departures ?? [])]) {
          assert.ok(retroReq.includes(JSON.stringify(q).slice(1, -1)), `retro misses: ${q.slice(0, 60)}`);
        }
      }
      assert.ok(!/characters omitted/.test(retroReq));
      // Every part within budget: the project files of a step never exceed the role's domain limit.
      const projectPart = (req: string) => /\n## (?:Product|Design|Development) context \(cape\/[^)]+\)\n([\s\S]*?)\n## Definition of Ready/.exec(req)?.[1] ?? '';
      for (const req of [poaReq, daReq, devaReq]) assert.ok(projectPart(req).length > 0 && projectPart(req).length <= WHOLE_DOMAIN_LIMIT);
    });
  }
});
