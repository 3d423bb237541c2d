// `cape repeat` through the CLI and the fake server (issue 10 §4, RR): a saved session's objective rerun twice on the
// same inputs; the runs compared by their acceptance criteria and proposed files (pairwise Jaccard, mean); reruns are
// saved as sessions of their own but add nothing to kpt_merged.md, and their KPT digest leaves out the saved session's.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { runCli, workspaceWithOriginalCape } from '../helpers/cli';
import { demoDir, demoReplies } from '../helpers/demo';
import { kptDigest, parseKpt } from '../../src/core/kpt';

const PROBLEM = 'Reduced-motion behaviour was left implicit in the design spec';

describe('CLI: cape repeat', function () {
  this.timeout(120000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 512 }, (f) => (fake = f));

  const env = () => ({ ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'k' });

  it('reruns the objective N times and reports how alike the runs are', async () => {
    const ws = workspaceWithOriginalCape('cape-repeat-', path.join(demoDir(), 'workspace'));
    const kptFile = path.join(ws, 'cape/5_sessions/retrospective/kpt_merged.md');
    fs.rmSync(kptFile, { force: true }); // only this session's items, so the digest would carry them
    for (const t of demoReplies('task-rr')) fake.enqueue({ text: t });
    const original = await runCli(['start', '--workspace', ws, '--objective', 'Add a dark mode', '--task', 'task-rr', '--json'], env());
    assert.strictEqual(original.code, 0, original.stderr);
    const kptAfterOriginal = fs.readFileSync(kptFile, 'utf8');
    assert.ok(kptDigest(parseKpt(kptAfterOriginal)).includes(PROBLEM), 'a normal next session would see the saved session\'s KPT');

    // Rerun 1 answers as the saved session did; rerun 2 drops AC-3 and styles.css.
    fake.reset();
    for (const t of demoReplies('task-rr-repeat-1')) fake.enqueue({ text: t });
    const [open, poa, da, deva, retro] = demoReplies('task-rr-repeat-2');
    const poaNoAc3 = poa.replace(/\},\s*\{ "id": "AC-3"[^\n]*\}/, '}');
    const devaNoCss = deva.replace(/<file path="src\/styles\.css">[\s\S]*?<\/file>\s*/, '');
    assert.ok(poaNoAc3 !== poa && devaNoCss !== deva);
    fake.enqueue({ text: open }, { text: poaNoAc3 }, { text: da }, { text: devaNoCss }, { text: retro });

    const run = await runCli(['repeat', '--workspace', ws, '--task', 'task-rr', '--times', '2', '--json'], env());
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 10, 'two whole sessions');
    const r = run.json;
    assert.deepStrictEqual(r.runs.map((x: any) => x.taskId), ['task-rr', 'task-rr-repeat-1', 'task-rr-repeat-2']);
    assert.deepStrictEqual(r.runs.map((x: any) => [...x.files].sort()), [
      ['index.html', 'src/styles.css', 'src/theme.js'],
      ['index.html', 'src/styles.css', 'src/theme.js'],
      ['index.html', 'src/theme.js'],
    ]);
    assert.deepStrictEqual(r.runs.map((x: any) => x.criteria.length), [3, 3, 2]);
    // Pairs: (saved, 1) alike; (saved, 2) and (1, 2) share 2 of 3 files and 2 of 3 criteria.
    assert.deepStrictEqual(
      r.pairs.map((p: any) => [p.a, p.b, +p.files.toFixed(4), +p.criteria.toFixed(4)]),
      [
        ['task-rr', 'task-rr-repeat-1', 1, 1],
        ['task-rr', 'task-rr-repeat-2', 0.6667, 0.6667],
        ['task-rr-repeat-1', 'task-rr-repeat-2', 0.6667, 0.6667],
      ],
    );
    assert.ok(Math.abs(r.files - 7 / 9) < 1e-9 && Math.abs(r.criteria - 7 / 9) < 1e-9 && Math.abs(r.rr - 7 / 9) < 1e-9);
    assert.match(run.stderr, /criteria 0\.78 · files 0\.78 · RR 0\.78/);

    // Same inputs: the reruns' CM opening did not see the saved session's KPT; nothing was merged.
    assert.match(JSON.stringify(fake.requests[5].body.messages), /Task: task-rr-repeat-2/, 'request 6 is rerun 2\'s CM opening');
    for (const q of [fake.requests[0], fake.requests[5]]) assert.ok(!JSON.stringify(q.body).includes(PROBLEM), 'the rerun\'s KPT digest leaves the saved session out');
    assert.strictEqual(fs.readFileSync(kptFile, 'utf8'), kptAfterOriginal, 'kpt_merged.md untouched by the reruns');
    const retros = fs.readdirSync(path.join(ws, 'cape/5_sessions/retrospective')).filter((f) => /task-rr-repeat-\d\.md$/.test(f));
    assert.strictEqual(retros.length, 2, 'each rerun is saved as a session');
    assert.match(fs.readFileSync(path.join(ws, 'cape/5_sessions/retrospective', retros[0]), 'utf8'), /repeat_of: task-rr/);

    // Again: the next reruns take the next free ids.
    fake.reset();
    for (const t of demoReplies('task-rr-repeat-3')) fake.enqueue({ text: t });
    const again = await runCli(['repeat', '--workspace', ws, '--task', 'task-rr', '--times', '1', '--json'], env());
    assert.strictEqual(again.code, 0, again.stderr);
    assert.deepStrictEqual(again.json.runs.map((x: any) => x.taskId), ['task-rr', 'task-rr-repeat-3']);
  });

  it('says what is wrong before anything is sent', async () => {
    const ws = workspaceWithOriginalCape('cape-repeat-', path.join(demoDir(), 'workspace'));
    const none = await runCli(['repeat', '--workspace', ws, '--task', 'task-none', '--times', '2'], env());
    assert.strictEqual(none.code, 1);
    assert.match(none.stderr, /There is no saved session task-none/);
    for (const bad of ['0', '2.5', 'x', '21']) {
      const r = await runCli(['repeat', '--workspace', ws, '--task', 'task-none', '--times', bad], env());
      assert.strictEqual(r.code, 2, bad);
      assert.match(r.stderr, /--times N is required: how many reruns, a whole number from 1 to 20/);
    }
    const noTimes = await runCli(['repeat', '--workspace', ws, '--task', 'task-none'], env());
    assert.strictEqual(noTimes.code, 2);
    assert.strictEqual(fake.requests.length, 0);
  });
});
