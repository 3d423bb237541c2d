// The CLI with hostile inputs (issue 7 items 3, 4, 8, 9, 11, 15): kpt_merged.md shapes the parser does not know,
// an unreadable kpt_merged.md, Japanese KPT keys, a stale lock, binaries and too-deep folders in cape/, CAPE files
// symlinked outside the workspace. Everything goes through the real SDK and the fake server.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawn } from 'child_process';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { runCli, tempDir, workspaceWithOriginalCape } from '../helpers/cli';
import { demoDir, demoReplies } from '../helpers/demo';

const TASK = 'task-77';
const KPT = 'cape/5_sessions/retrospective/kpt_merged.md';

const demoWorkspace = () => workspaceWithOriginalCape('cape-inputs-', path.join(demoDir(), 'workspace'));

describe('CLI inputs under control', function () {
  this.timeout(90000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 256 }, (f) => (fake = f));

  const start = (ws: string) =>
    runCli(['start', '--workspace', ws, '--objective', 'Add a dark mode', '--task', TASK, '--json'], { ANTHROPIC_BASE_URL: fake.url });
  const enqueueDemo = (replace?: (retro: string) => string) => {
    const r = demoReplies(TASK);
    if (replace) r[4] = replace(r[4]);
    for (const t of r) fake.enqueue({ text: t });
  };
  const requestText = () => JSON.stringify(fake.requests.map((r) => r.body));

  it('merging keeps intro, comments, tables, unknown and Japanese sections of kpt_merged.md, and adds the new items', async () => {
    const ws = demoWorkspace();
    const original = [
      '# Our team KPT',
      '',
      'Hand-written intro: we review this on Fridays.',
      '<!-- do not reorder -->',
      '',
      '## Keep',
      '- [task-1] Short standups',
      '',
      '| sprint | mood |',
      '|--------|------|',
      '| 1      | good |',
      '',
      '## 問題',
      '- [task-1] テストが遅い',
      '',
      '## Notes',
      '- a note, not an item',
      '',
      '# Try',
      '- [task-1] Pair on reviews',
      '```',
      '## Problem',
      '- [task-0] inside code',
      '```',
      '',
    ].join('\n');
    fs.writeFileSync(path.join(ws, KPT), original);
    enqueueDemo();
    const run = await start(ws);
    assert.strictEqual(run.code, 0, run.stderr);
    const merged = fs.readFileSync(path.join(ws, KPT), 'utf8');
    let j = 0;
    const mergedLines = merged.split('\n');
    for (const line of original.split('\n').filter(Boolean)) {
      const at = mergedLines.indexOf(line, j);
      assert.ok(at >= 0, `line kept in order: ${line}\n${merged}`);
      j = at + 1;
    }
    const problems = merged.slice(merged.indexOf('## 問題'), merged.indexOf('## Notes'));
    assert.match(problems, /- \[task-77\] Reduced-motion behaviour was left implicit/, 'new problems go under ## 問題');
    const keeps = merged.slice(merged.indexOf('## Keep'), merged.indexOf('| sprint'));
    assert.match(keeps, /- \[task-77\] POA lists explicit exclusions/);
    assert.doesNotMatch(merged, /^## (Keep|Problem|Try)\n[\s\S]*^## \1$/m, 'no duplicate KPT sections added');
  });

  it('an unreadable (binary) kpt_merged.md is kept aside with a warning, and a new one is started', async () => {
    const ws = demoWorkspace();
    const bytes = Buffer.concat([Buffer.from('## Keep\n- [task-1] x\n'), Buffer.from([0, 0xff, 0xfe, 0])]);
    fs.writeFileSync(path.join(ws, KPT), bytes);
    enqueueDemo();
    const run = await start(ws);
    assert.strictEqual(run.code, 0, run.stderr);
    const dir = path.dirname(path.join(ws, KPT));
    const aside = fs.readdirSync(dir).filter((f) => f.startsWith('kpt_merged.md.unreadable-'));
    assert.strictEqual(aside.length, 1);
    assert.deepStrictEqual(fs.readFileSync(path.join(dir, aside[0])), bytes, 'kept byte for byte');
    assert.ok(run.stderr.includes(aside[0]), `the warning names the file kept aside:\n${run.stderr}`);
    assert.match(run.stderr, /kpt_merged\.md was not read: it is a binary file/, 'the CM digest says it skipped it');
    assert.match(fs.readFileSync(path.join(ws, KPT), 'utf8'), /- \[task-77\] POA lists explicit exclusions/);
    assert.ok(!requestText().includes('\\u0000'), 'no NUL byte reaches the model');
  });

  it('a retrospective with Japanese KPT keys keeps its items; one with no KPT items says so', async () => {
    const ws = demoWorkspace();
    enqueueDemo((retro) => retro.replace('"keep":', '"キープ":').replace('"problem":', '"問題":').replace('"try":', '"ＴＲＹ":'));
    const run = await start(ws);
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(run.json.kpt.keep.length, 2);
    assert.strictEqual(run.json.kpt.problem.length, 2);
    assert.ok(run.json.kpt.try.length >= 1);
    const merged = fs.readFileSync(path.join(ws, KPT), 'utf8');
    assert.match(merged, /\[task-77\] Reduced-motion behaviour/);

    const ws2 = demoWorkspace();
    fake.reset();
    enqueueDemo((retro) => retro.replace(/"kpt":\s*\{[\s\S]*?\}\s*,\s*"metrics"/, '"kpt": {"keep": [], "problem": [], "try": []}, "metrics"'));
    const run2 = await start(ws2);
    assert.strictEqual(run2.code, 0, run2.stderr);
    assert.match(run2.stderr, /retrospective has no KPT items/);
  });

  it('a lock left by a killed process is broken at once, with a warning naming it', async () => {
    const ws = demoWorkspace();
    const pid = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ['-e', '']);
      child.on('exit', () => resolve(child.pid!));
    });
    const lock = path.join(ws, `${KPT}.lock`);
    fs.writeFileSync(lock, `${pid} ${os.hostname().replace(/\s+/g, '_')} ${Date.now()} deadbeef`);
    enqueueDemo();
    const run = await start(ws);
    assert.strictEqual(run.code, 0, run.stderr);
    assert.ok(run.stderr.includes(`Removed the stale lock ${lock}`), run.stderr);
    // broken because its holder is dead, not after 30 s for its age (the waiting said after 3 s)
    assert.match(run.stderr, new RegExp(`process ${pid} .*no longer runs`));
    assert.doesNotMatch(run.stderr, /Waiting for the lock/);
    assert.ok(!fs.existsSync(lock));
  });

  it('binary and non-UTF-8 .md files and too-deep folders in cape/ are skipped with a warning naming them', async () => {
    const ws = demoWorkspace();
    const elf = Buffer.alloc(200 * 1024, 0x41);
    Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]).copy(elf);
    elf[300] = 0;
    fs.writeFileSync(path.join(ws, 'cape/3_development/tool.md'), elf);
    fs.writeFileSync(path.join(ws, 'cape/1_product/5_latin1.md'), Buffer.from('# Caf\xe9 ELFMARK\n', 'latin1'));
    const deep = path.join(ws, 'cape/1_product', ...Array.from({ length: 9 }, (_, i) => `d${i}`));
    fs.mkdirSync(deep, { recursive: true });
    fs.writeFileSync(path.join(deep, 'buried.md'), '# Buried\n');
    enqueueDemo();
    const run = await start(ws);
    assert.strictEqual(run.code, 0, run.stderr);
    assert.match(run.stderr, /cape\/3_development\/tool\.md was skipped: it is a binary file/);
    assert.match(run.stderr, /cape\/1_product\/5_latin1\.md was skipped: it is not valid UTF-8/);
    assert.match(run.stderr, /cape\/1_product\/d0\/d1\/d2\/d3\/d4\/d5\/d6\/d7\/ is nested more than 8 folder levels deep, so its files were not loaded: .*d8\/buried\.md/);
    const sent = requestText();
    assert.ok(!sent.includes('\\u0000') && !sent.includes('\uFFFD') && !sent.includes('\\ufffd'), 'no NUL or U+FFFD reaches the model');
    assert.ok(!sent.includes('ELFMARK'));
  });

  it('cape/5_sessions symlinked outside the workspace: refused before any request, nothing written there', async function () {
    const ws = demoWorkspace();
    const outside = tempDir('cape-outside-');
    fs.rmSync(path.join(ws, 'cape/5_sessions'), { recursive: true, force: true });
    try {
      fs.symlinkSync(outside, path.join(ws, 'cape/5_sessions'), 'dir');
    } catch {
      this.skip();
    }
    enqueueDemo();
    const run = await start(ws);
    assert.strictEqual(run.code, 1);
    assert.match(run.stderr, /cape\/5_sessions resolves through a symbolic link .*outside the workspace/);
    assert.strictEqual(fake.requests.length, 0);
    assert.deepStrictEqual(fs.readdirSync(outside), [], 'nothing written outside');
  });

  it('kpt_merged.md symlinked outside the workspace is neither read nor written, with a warning', async function () {
    const ws = demoWorkspace();
    const outside = tempDir('cape-outside-');
    const victim = path.join(outside, 'notes.md');
    fs.writeFileSync(victim, '## Problem\n- [task-secret] OUTSIDE-SECRET\n');
    fs.rmSync(path.join(ws, KPT), { force: true });
    try {
      fs.symlinkSync(victim, path.join(ws, KPT));
    } catch {
      this.skip();
    }
    enqueueDemo();
    const run = await start(ws);
    assert.strictEqual(run.code, 0, run.stderr);
    assert.match(run.stderr, /kpt_merged\.md was not read: .*outside the workspace/);
    assert.match(run.stderr, /kpt_merged\.md was not updated: .*outside the workspace/);
    assert.ok(!requestText().includes('OUTSIDE-SECRET'), 'the outside file is not sent to the model');
    assert.strictEqual(fs.readFileSync(victim, 'utf8'), '## Problem\n- [task-secret] OUTSIDE-SECRET\n');
  });
});
