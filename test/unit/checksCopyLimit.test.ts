// src/core/checks/copyLimit.ts: a workspace too large to copy is measured, not copied; its checks say why and what to
// do, and the session goes on. The limit in MB (the setting, the flag) scales files and bytes alike.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { checksForRetro, copyLimitOfMb, copyTooLarge, MIN_COPY_LIMIT_MB, notRunSaying, runCheckLoop, WORKSPACE_COPY_LIMIT, type CheckEvent, type ProposedFile } from '../../src/core';

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'cape-unit-copylimit-'));
}

function write(root: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

/** The scratch copies in the OS temp folder now (the test run's own: test/helpers/tmpRoot.ts). */
const copies = () => fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('cape-checks-'));

/** A workspace with a check that leaves a mark outside it when it runs; `files` more files of `bytes` each. */
function workspace(files: number, bytes: number): { ws: string; mark: string } {
  const ws = tmp();
  const mark = path.join(tmp(), 'ran');
  write(ws, 'check.js', `require('fs').writeFileSync(process.argv[2], 'ran');\n`);
  for (let i = 0; i < files; i++) write(ws, `data/${i}.txt`, 'x'.repeat(bytes));
  // what the copy links or leaves out is not counted: installed dependencies, version control, the cape folder
  for (const skipped of ['node_modules/dep', '.git/objects', 'cape/5_sessions']) for (let i = 0; i < 20; i++) write(ws, `${skipped}/${i}`, 'y'.repeat(500));
  return { ws, mark };
}

const proposal: ProposedFile[] = [{ path: 'src/a.test.js', relPath: 'src/a.test.js', action: 'create', status: 'proposed', content: 'x' }];

describe('checks: the bound of the workspace copy', () => {
  it('a workspace over the limit is not copied: every check says why and what to do, none runs, no fix round, no fail-first', async () => {
    const { ws, mark } = workspace(6, 10);
    const before = copies();
    const events: CheckEvent[] = [];
    let asked = 0;
    const commands = [`node check.js ${mark}`, 'npm test'];
    const { files, outcome } = await runCheckLoop({
      commands,
      failFirst: true,
      copyLimit: { files: 5, bytes: 10_000 },
      workspace: ws,
      capeFolder: 'cape',
      files: proposal,
      askFix: async () => (asked++, ''),
      onEvent: (e) => events.push(e),
    });
    assert.ok(!fs.existsSync(mark), 'no check ran');
    assert.deepStrictEqual(copies(), before, 'no scratch copy was made');
    assert.strictEqual(files, proposal, 'the proposal is kept as it is');
    assert.strictEqual(asked, 0);
    assert.strictEqual(outcome.passed, false);
    assert.strictEqual(outcome.before, undefined);
    assert.deepStrictEqual(outcome.runs.map((r) => [r.command, r.status, r.exitCode]), commands.map((c) => [c, 'error', null]));
    const why = outcome.runs[0].output;
    assert.match(why, /not run: the workspace holds more than 5 files to copy/);
    assert.match(why, /cape\.checkCopyLimit/);
    assert.match(why, /--check-copy-limit/);
    // the user hears it as any run's result: its events, then the end of the checks
    assert.deepStrictEqual(
      events.map((e) => e.type),
      ['check-started', 'check-finished', 'check-started', 'check-finished', 'checks-finished'],
    );
    const end = events.at(-1);
    assert.ok(end?.type === 'checks-finished' && !end.passed && end.summary.every((s) => s.status === 'error'));
    // the end says why nothing ran, short (the first sentence of the run's output), for the panel and the CLI
    assert.strictEqual(end.notRun, 'the workspace holds more than 5 files to copy (installed dependencies, caches and build output aside), past the checks\' limit (9.8 KB, 5 files)');
    // the retrospective hears that nothing tested the proposal, and why, not that it failed
    const retro = checksForRetro(outcome);
    assert.match(retro, /`npm test`: could not start/);
    assert.ok(retro.endsWith(`Fix rounds used: 0 of 2. ${notRunSaying(end.notRun)} It is kept for the human to review.`), retro);
    assert.doesNotMatch(retro, /still fails/);
  });

  it('bytes bound it as files do; a workspace within the limit is copied and its checks run', async () => {
    const { ws, mark } = workspace(2, 3000);
    const over = await copyTooLarge(ws, 'cape', { files: 100, bytes: 5000 });
    assert.match(over ?? '', /more than 4\.9 KB to copy/);
    // the 60 files of node_modules, .git and cape/ are not counted: 3 files (check.js and the data) are within 5
    assert.strictEqual(await copyTooLarge(ws, 'cape', { files: 5, bytes: 10_000 }), null);
    const { outcome } = await runCheckLoop({ commands: [`node check.js ${mark}`], copyLimit: { files: 5, bytes: 10_000 }, workspace: ws, capeFolder: 'cape', files: proposal, askFix: async () => '' });
    assert.strictEqual(outcome.passed, true, outcome.runs[0]?.output);
    assert.ok(fs.existsSync(mark), 'the check ran');
  });

  it('a limit in MB scales files and bytes alike; one under the minimum is raised to it', () => {
    const mb = WORKSPACE_COPY_LIMIT.bytes / (1024 * 1024);
    assert.deepStrictEqual(copyLimitOfMb(mb), WORKSPACE_COPY_LIMIT);
    assert.deepStrictEqual(copyLimitOfMb(mb * 2), { files: WORKSPACE_COPY_LIMIT.files * 2, bytes: WORKSPACE_COPY_LIMIT.bytes * 2 });
    assert.deepStrictEqual(copyLimitOfMb(0.001), copyLimitOfMb(MIN_COPY_LIMIT_MB));
  });
});
