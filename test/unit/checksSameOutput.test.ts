// A check command that fails before it runs any test — a tool missing, a package manager refusing to start — the
// same way on DevA's proposal and on the unchanged workspace: its runs name no test case and no problem, so they are
// compared by their output, the parts that differ between any two runs set aside (checks/sameOutput.ts). The same
// failure gets no fix round; a new error line with the proposal still does.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { checksForRetro, failsAsBefore, fixRequest, runCheckLoop, withoutRunNoise, type CheckRun, type ProposedFile } from '../../src/core';
import { failedRun } from '../helpers/failedRun';

const run = (output: string, extra: Partial<CheckRun> = {}): CheckRun => failedRun(output, { command: 'pnpm run test', ...extra });

/** What `pnpm run test` printed in a trial, on the proposal and on the unchanged workspace alike. */
const REFUSED = [
  '',
  '> @tinyhttp/monorepo@0.0.1 test .',
  '> pnpm test:coverage',
  '',
  '\u2009ERROR\u2009 Refusing to run pnpm@11.14.0: its npm registry signature could not be verified (pnpm@11.14.0: pnpm@11.14.0 has no registry signature on https://registry.npmjs.org/).',
  '\u2009ELIFECYCLE\u2009 Test failed. See above for more details.',
].join('\n');

describe('checks: a failure that names no test case and no problem, compared by its output', () => {
  it('the same output and exit code: fails as before; another error line, exit code or a cut output: not', () => {
    assert.strictEqual(failsAsBefore(run(REFUSED), run(REFUSED)), true);
    assert.strictEqual(failsAsBefore(run(`${REFUSED}\nERROR  src/theme.js could not be loaded`), run(REFUSED)), false, 'a new error line with the proposal');
    assert.strictEqual(failsAsBefore(run(REFUSED, { exitCode: 2 }), run(REFUSED)), false, 'another exit code');
    assert.strictEqual(failsAsBefore(run('ERROR  cannot start: tool missing'), run('ERROR  cannot start: the other tool missing')), false);
    const cut = `[end of the output; 40 line(s) left out]\n${REFUSED}`;
    assert.strictEqual(failsAsBefore(run(cut), run(cut)), false, 'lines of it are missing: nothing to compare them by');
    assert.strictEqual(failsAsBefore(run(REFUSED, { status: 'timeout', exitCode: null }), run(REFUSED)), false, 'killed only with the proposal: not a failure of its own');
    assert.strictEqual(failsAsBefore(run(''), run('\n')), false, 'two silent runs: nothing says why either failed');
  });

  it('sets aside what differs between two runs: durations, timestamps, clock times, process ids, ports, temporary paths', () => {
    const tmp = os.tmpdir();
    const at = (ms: string, when: string, pid: number, port: number, dir: string) =>
      [
        `[${when}] starting the test tool (pid ${pid})`,
        `(node:${pid}) Warning: the server on localhost:${port} and 127.0.0.1:${port} did not answer in ${ms}`,
        `ERROR  could not read ${path.join(dir, 'cfg', 'a.json')}: no such file`,
        `Done in ${ms}.`,
      ].join('\n');
    const a = at('1.52s', '2026-12-05T23:43:03.453Z', 4121, 53011, path.join(tmp, 'cape-check-AbC123'));
    const b = at('840ms', '2026-12-06T07:01:59.001Z', 977, 40999, path.join(tmp, 'cape-check-xYz789'));
    assert.strictEqual(withoutRunNoise(a), withoutRunNoise(b));
    assert.strictEqual(failsAsBefore(run(a), run(b)), true);
    assert.strictEqual(failsAsBefore(run(a), run(b.replace('no such file', 'permission denied'))), false, 'the message is no noise');
    // a version, a count or a line number is the same on both runs of an unchanged tool: it is kept
    assert.match(withoutRunNoise('pnpm@11.14.0 refused; 3 files; a.js:12'), /pnpm@11\.14\.0 refused; 3 files; a\.js:12/);
  });

  it('in the loop: no fix round for it, and the retrospective is told the failure was already there', async () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-unit-same-output-'));
    fs.writeFileSync(path.join(ws, 'package.json'), '{"name":"w","private":true}\n');
    const files = [{ path: 'src/theme.js', relPath: 'src/theme.js', content: 'exports.theme = 1;\n', status: 'proposed', action: 'create' }] as ProposedFile[];
    const cannotStart = `node -e "console.error('ERROR  cannot start: tool missing (pid ' + process.pid + ', ' + new Date().toISOString() + ')'); process.exit(1)"`;
    let asked = 0;
    const same = await runCheckLoop({ commands: [cannotStart], workspace: ws, capeFolder: 'cape', files, askFix: async () => (asked++, '') });
    assert.strictEqual(asked, 0, 'DevA is not asked to fix what fails the same way without its files');
    assert.strictEqual(same.outcome.failsAsBefore, true);
    assert.match(checksForRetro(same.outcome), /The final proposal fails only as the unchanged workspace does \(the same failing test cases or problems, the same output where it names neither, or killed at the time limit there too\): the failure was already there/);
    // the control: a new error line only with DevA's file gets its fix round, which says the unchanged workspace fails too
    const requests: string[] = [];
    const worse = `node -e "console.error('ERROR  cannot start: tool missing'); if (require('fs').existsSync('src/theme.js')) console.error('ERROR  the theme could not be loaded'); process.exit(1)"`;
    const other = await runCheckLoop({ commands: [worse], fixRounds: 1, workspace: ws, capeFolder: 'cape', files, askFix: async (r) => (requests.push(r), '') });
    assert.strictEqual(requests.length, 1);
    assert.ok(!other.outcome.failsAsBefore);
    assert.match(requests[0], /On the unchanged workspace \(nothing of yours applied\) this command fails too \(exit code 1\): see whether the failure is yours/);
  });

  it("a fix request for another command says this one's output is the same on the unchanged workspace", () => {
    const text = fixRequest([run(REFUSED)], 1, 2, [], [], () => run(REFUSED));
    assert.match(text, /this command fails too \(exit code 1\)\.\nIts output there is the same \(timings, process ids, ports and temporary paths aside\): not caused by your files; leave it alone\./);
  });
});
