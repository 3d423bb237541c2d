// `--max-cost` through the CLI and the fake server (issue 11 §5): the session stops, resumable, before the request
// that could take it over the cap, names the cap and the figures, reports `costUsd`; resume with a higher cap completes.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { runCli, workspaceWithOriginalCape } from '../helpers/cli';
import { demoDir, demoReplies } from '../helpers/demo';

describe('CLI: --max-cost', function () {
  this.timeout(90000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 256 }, (f) => (fake = f));

  const env = () => ({ ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'k' });

  it('stops before DevA, whose 36,000-token output limit alone could cost $0.54, and resumes under a higher cap', async () => {
    const ws = workspaceWithOriginalCape('cape-maxcost-', path.join(demoDir(), 'workspace'));
    for (const t of demoReplies('task-cap')) fake.enqueue({ text: t });
    const run = await runCli(['start', '--workspace', ws, '--objective', 'Add a dark mode', '--task', 'task-cap', '--model', 'claude-sonnet-4-6', '--max-cost', '0.50', '--json'], env());
    assert.strictEqual(run.code, 1, run.stderr);
    assert.strictEqual(fake.requests.length, 3, 'CM opening, POA and DA ran; DevA was never sent');
    assert.strictEqual(run.json.error.kind, 'cost_cap');
    assert.strictEqual(run.json.error.step, 'deva');
    assert.strictEqual(run.json.resumable, true);
    assert.match(run.json.error.message, /cost cap of \$0\.50: \$0\.\d{4} spent so far, and this request could cost up to \$0\.\d{4} \(about [\d,]+ input tokens \+ 36,000 output tokens at claude-sonnet-4-6's price\), \$0\.\d{4} in all/);
    assert.ok(run.json.costUsd > 0 && run.json.costUsd < 0.5, `costUsd ${run.json.costUsd}`);
    assert.match(run.stderr, /Completed steps are saved\. Resume with: cape resume --workspace .* --task task-cap/);
    const state = JSON.parse(fs.readFileSync(path.join(ws, 'cape/5_sessions/state/task-cap.json'), 'utf8'));
    assert.deepStrictEqual(state.completedSteps, ['cm_open', 'poa', 'da']);

    const resumed = await runCli(['resume', '--workspace', ws, '--task', 'task-cap', '--model', 'claude-sonnet-4-6', '--max-cost', '5', '--json'], env());
    assert.strictEqual(resumed.code, 0, resumed.stderr);
    assert.strictEqual(fake.requests.length, 5, 'DevA and the retrospective');
    assert.ok(resumed.json.costUsd > run.json.costUsd, 'costUsd counts both runs');
    assert.ok(Math.abs(resumed.json.costUsd - resumed.json.metrics.totalCostUsd) < 1e-9, 'every request was used: the session cost is the metrics total');
  });

  it('refuses a cap that is not an amount, before anything is sent', async () => {
    const ws = workspaceWithOriginalCape('cape-maxcost-', path.join(demoDir(), 'workspace'));
    for (const bad of ['0', '-1', 'lots', '']) {
      const run = await runCli(['start', '--workspace', ws, '--objective', 'x', '--max-cost', bad, '--json'], env());
      assert.strictEqual(run.code, 2, bad);
      assert.match(run.stderr, /--max-cost takes an amount in USD greater than 0/);
    }
    assert.strictEqual(fake.requests.length, 0);
  });
});
