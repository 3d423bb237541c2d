// The CAPE paper's envelope as written: POA, DA and DevA answer with `"output": "<markdown>"`. The session completes
// in exactly five requests with no repair, each next agent receives the text, and the records keep it as is.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic/server';
import { listFiles, runCli, workspaceWithOriginalCape } from '../helpers/cli';
import { demoDir, demoReplies, requestText, withDemoOutput } from '../helpers/demo';

const TASK = 'task-7';

const OUTPUTS: Record<number, string> = {
  1: '## Acceptance criteria\n\n1. Given the OS prefers dark and no choice is saved, when I open Pocket Notes, then the page is dark.\n2. Given either theme, when I use the toggle, then the other theme applies at once.\n\n## Out of scope\n\n- Custom colour themes\n',
  2: '## Tokens\n\n| token | light | dark |\n|---|---|---|\n| `--bg` | #ffffff | #1e1e1e |\n\nThe toggle keeps a visible focus ring (3:1 against both backgrounds).\n',
  3: '## Plan\n\nA `data-theme` attribute on `<html>`, set before the first paint by `src/theme.js`.\n\n## Open questions\n\n- Should the choice sync across devices?\n',
};

describe('CLI: string outputs, as the CAPE paper writes the envelope', function () {
  this.timeout(90000);
  let fake: FakeAnthropic;
  before(async () => {
    fake = await startFakeAnthropic({ chunkSize: 64, apiKey: 'test-key' });
  });
  after(async () => fake?.close());

  it('POA, DA and DevA answer with markdown outputs: five requests, no repair, text passed on and stored as is', async () => {
    const ws = workspaceWithOriginalCape('cape-string-output-', path.join(demoDir(), 'workspace'));
    const replies = demoReplies(TASK).map((r, i) => (OUTPUTS[i] ? withDemoOutput(r, OUTPUTS[i]) : r));
    for (const text of replies) fake.enqueue({ text });
    const run = await runCli(['start', '--workspace', ws, '--objective', 'Add a dark mode', '--task', TASK, '--json'], {
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: 'test-key',
    });
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 5, 'exactly five requests');
    assert.doesNotMatch(run.stderr, /did not validate|corrected reply/);
    assert.deepStrictEqual(run.json.steps.map((s: any) => s.ok), [true, true, true, true, true]);

    // DA gets POA's text, DevA gets POA's and DA's, verbatim (not JSON-escaped).
    const da = requestText(fake.requests[2].body);
    assert.ok(da.includes(OUTPUTS[1].trim()), "DA receives POA's markdown");
    const deva = requestText(fake.requests[3].body);
    assert.ok(deva.includes(OUTPUTS[1].trim()) && deva.includes(OUTPUTS[2].trim()), "DevA receives POA's and DA's markdown");
    // The retrospective reads DevA's open question out of its markdown.
    assert.ok(requestText(fake.requests[4].body).includes('DevA-Q1: Should the choice sync across devices?'));
    assert.deepStrictEqual(run.json.openQuestions, [{ id: 'DevA-Q1', from: 'DevA', text: 'Should the choice sync across devices?' }]);

    // Stored as is; DevA's file blocks after the JSON are still proposed.
    const pairDir = path.join(ws, 'cape/5_sessions/pair');
    const pair = listFiles(pairDir);
    for (const [i, agent] of [[1, 'POA'], [2, 'DA'], [3, 'DevA']] as const) {
      const name = pair.find((p) => p.startsWith(`${TASK}_${i + 1}_${agent}_`));
      assert.ok(name, `pair file of ${agent}`);
      const rec = JSON.parse(fs.readFileSync(path.join(pairDir, name!), 'utf8'));
      assert.strictEqual(rec.envelope.output, OUTPUTS[i], `${agent}'s output is stored as is`);
      assert.strictEqual(rec.raw, replies[i]);
    }
    assert.deepStrictEqual(
      run.json.files.map((f: any) => f.path),
      ['src/theme.js', 'src/styles.css', 'index.html'],
    );
  });
});
