// src/core/checks/failFirst.ts: fail-first runs a test command run in a sub-folder (`cd backend && …`) only when one
// of DevA's test files is under that folder — else it would cost a whole suite and say nothing of DevA's tests; a
// command at the root always runs. A command left out is reported as a static check is, with its own reason.
import * as assert from 'assert';
import { PassThrough } from 'stream';
import { checksForRetro, failFirstCommands, failFirstLeftOut, failFirstPlan, inFolder, isChecksOutcome, runCheckLoop, type CheckEvent, type ProposedFile } from '../../src/core';
import { checksFrom } from '../../src/cli/settings';
import { tempDir } from '../helpers/cli';
import { putFile as write } from '../helpers/codebase';

const tmp = () => tempDir('cape-unit-failfirst-folders-');

describe('checks: fail-first runs a sub-folder\'s tests only for DevA\'s test files under it (failFirst.ts)', function () {
  this.timeout(60_000);

  it('a command run in a folder none of DevA\'s test files is under is left out, and says why; one at the root always runs', () => {
    const commands = ['npm run lint', 'npm test', 'cd backend && pytest', 'cd frontend && npm test', "cd 'my app' && npm test", 'cd backend && ruff check .'];
    const testFiles = ['frontend/src/a.test.ts', 'my app/b.test.js'];
    assert.deepStrictEqual(failFirstCommands(commands, testFiles), {
      run: ['npm test', 'cd frontend && npm test', "cd 'my app' && npm test"],
      skipped: ['npm run lint', 'cd backend && pytest', 'cd backend && ruff check .'],
    });
    assert.strictEqual(failFirstLeftOut('cd backend && pytest', testFiles), "no test file of DevA's under backend/");
    assert.strictEqual(failFirstLeftOut('cd backend && ruff check .', testFiles), 'a static check runs no test');
    assert.strictEqual(failFirstLeftOut('cd frontend && npm test', testFiles), null);
    // a folder whose name begins another's is not it
    assert.deepStrictEqual(failFirstCommands(['cd front && npm test'], testFiles).run, []);
    // before DevA's test files are known, the announcements name the test commands, each written by their own quotes
    assert.deepStrictEqual(failFirstPlan(commands, (c) => `<${c}>`), [
      '<npm test>',
      '<cd backend && pytest> (when DevA has a test file under backend/)',
      '<cd frontend && npm test> (when DevA has a test file under frontend/)',
      "<cd 'my app' && npm test> (when DevA has a test file under my app/)",
    ]);
  });

  it('the loop runs only the commands that can reach DevA\'s tests on the unchanged code; the retrospective names the others with their reason', async () => {
    const ws = tmp();
    write(ws, 'package.json', '{"name":"w","private":true}\n');
    for (const dir of ['backend', 'frontend']) write(ws, `${dir}/.keep`, '');
    // each check passes when DevA's test file is there: on the unchanged code with it alone, it runs and passes
    const test = (dir: string) => inFolder(dir, `node -e "process.exit(0)"`);
    const root = `node -e "process.exit(require('fs').existsSync('frontend/add.test.js') ? 0 : 1)"`;
    const files = [{ path: 'frontend/add.test.js', relPath: 'frontend/add.test.js', content: '// adds\n', status: 'proposed', action: 'create' }] as ProposedFile[];
    const events: CheckEvent[] = [];
    const commands = [root, test('backend'), test('frontend')];
    const { outcome: o } = await runCheckLoop({ commands, failFirst: true, workspace: ws, capeFolder: 'cape', files, askFix: async () => '', onEvent: (e) => events.push(e) });
    assert.strictEqual(o.passed, true);
    assert.deepStrictEqual(o.before!.runs.map((r) => r.command), [root, test('frontend')]);
    assert.deepStrictEqual(o.before!.skipped, [test('backend')]);
    assert.deepStrictEqual(events.filter((e) => e.type === 'check-started' && e.before).map((e) => e.type === 'check-started' && e.command), [root, test('frontend')]);
    assert.match(checksForRetro(o), /passed \(`cd backend && node -e "process\.exit\(0\)"` not run: no test file of DevA's under backend\/\)\. A test of the change/);
    assert.ok(isChecksOutcome(o));
  });

  it('the retrospective groups the commands left out by their reason', () => {
    const run = { command: 'npm test', round: 0, status: 'failed' as const, passed: false, exitCode: 1, durationMs: 1, output: '', outputChars: 0 };
    const before = { testFiles: ['web/a.test.js'], runs: [run], notWritten: [], skipped: ['npm run lint', 'cd api && pytest', 'cd jobs && pytest'] };
    const text = checksForRetro({ commands: ['npm test'], runs: [{ ...run, status: 'passed', passed: true, exitCode: 0 }], fixRounds: [], maxFixRounds: 2, passed: true, before });
    assert.match(text, /`npm test` failed \(`npm run lint` not run: a static check runs no test; `cd api && pytest` not run: no test file of DevA's under api\/; `cd jobs && pytest` not run: no test file of DevA's under jobs\/\)\./);
  });

  it('--check with --fail-first says which test commands run again, and the sub-folder ones only with DevA\'s test files there', async () => {
    const out = new PassThrough();
    let said = '';
    out.on('data', (d) => (said += String(d)));
    await checksFrom({ check: ['npm run lint', 'npm test', 'cd backend && pytest'], 'fail-first': true, 'no-format': true }, tmp(), out);
    assert.match(said, /then `npm test`, `cd backend && pytest` \(when DevA has a test file under backend\/\) once more with only DevA's test files, on the unchanged workspace\)/);
  });
});
