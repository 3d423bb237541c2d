// A check that rewrites DevA's files as it checks them (`eslint --fix .`, `prettier --write`), in the check loop
// (src/core/checks/checkFixes.ts, loop.ts): what it changed in DevA's proposed files is taken into the proposal, named
// by the command, as the formatter's layout is; files outside the proposal it changed are neither taken nor named; the
// runs on the unchanged workspace (baseline, fail-first) take nothing; a check that fixes and fails sends DevA the
// fixed text, and DevA's fix replaces it. The fixer here is a small node script of the workspace's.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { checksForRetro, runCheckLoop, type CheckEvent, type ProposedFile } from '../../src/core';

/**
 * The fixer: double quotes become single ones in src/ and test/, each test file is stamped with how many files src/
 * holds (so a run on the unchanged workspace stamps it otherwise), and it fails naming each file left with a `var`.
 */
const FIXER = `const fs = require('fs');
const count = fs.readdirSync('src').length;
const bad = [];
for (const dir of ['src', 'test']) {
  if (!fs.existsSync(dir)) continue;
  for (const name of fs.readdirSync(dir)) {
    const p = dir + '/' + name;
    const text = fs.readFileSync(p, 'utf8');
    let fixed = text.split('"').join("'");
    if (dir === 'test') fixed = '// ' + count + ' files in src\\n' + fixed.split('\\n').filter((l) => !l.endsWith(' files in src')).join('\\n');
    if (fixed !== text) fs.writeFileSync(p, fixed);
    if (fixed.includes('var ')) bad.push(p + ':1:1 error Unexpected var');
  }
}
if (bad.length) { console.error(bad.join('\\n')); process.exit(1); }
`;
const FIX = 'node fix.js';
/** Reads src/b.js and writes the same bytes back: a check that touches a file without changing it. */
const TOUCH = `node -e "const fs = require('fs'); fs.writeFileSync('src/b.js', fs.readFileSync('src/b.js'))"`;

function workspace(): string {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-fixer-'));
  fs.mkdirSync(path.join(ws, 'src'));
  fs.writeFileSync(path.join(ws, 'fix.js'), FIXER);
  fs.writeFileSync(path.join(ws, 'src', 'b.js'), "module.exports = 'b';\n");
  fs.writeFileSync(path.join(ws, 'src', 'other.js'), 'module.exports = "o";\n');
  return ws;
}

const file = (relPath: string, content: string, action: 'create' | 'modify' = 'create'): ProposedFile => ({ path: relPath, relPath, content, status: 'proposed', action });

describe('checks: a check that fixes as it runs (checkFixes.ts)', function () {
  this.timeout(60_000);

  it("takes what it changed in DevA's files into the proposal, named by the command; not a file outside the proposal, not a check that changes nothing, not the runs on the unchanged workspace", async () => {
    const ws = workspace();
    const files = [file('src/a.js', 'module.exports = "a";\n'), file('src/b.js', "module.exports = 'b2';\n", 'modify'), file('test/a.test.js', 'require("../src/a");\n')];
    const events: CheckEvent[] = [];
    const { files: out, outcome } = await runCheckLoop({ commands: [TOUCH, FIX], failFirst: true, workspace: ws, capeFolder: 'cape', files, askFix: async () => assert.fail('no fix round'), onEvent: (e) => events.push(e) });
    assert.strictEqual(outcome.passed, true);
    assert.deepStrictEqual(
      out.map((f) => [f.relPath, f.content]),
      [
        ['src/a.js', "module.exports = 'a';\n"],
        ['src/b.js', "module.exports = 'b2';\n"],
        ['test/a.test.js', "// 3 files in src\nrequire('../src/a');\n"],
      ],
      'the fixed text, as the checks passed on it; the fail-first run (two files in src) changed nothing of it',
    );
    const fixed = { round: 0, by: FIX, files: ['src/a.js', 'test/a.test.js'], check: true };
    assert.deepStrictEqual(outcome.formatted, [fixed], 'src/other.js, outside the proposal, is not named; the touch changed nothing');
    assert.deepStrictEqual(events.filter((e) => e.type === 'formatted'), [{ type: 'formatted', ...fixed }]);
    assert.deepStrictEqual(outcome.before?.runs.map((r) => [r.command, r.passed]), [[TOUCH, true], [FIX, true]], 'fail-first ran the fixer on the unchanged workspace');
    assert.strictEqual(fs.readFileSync(path.join(ws, 'src', 'other.js'), 'utf8'), 'module.exports = "o";\n', "the user's tree is never written");
    assert.ok(!fs.existsSync(path.join(ws, 'src', 'a.js')));
  });

  it('a check that fixes and fails: the fix request shows the fixed text, a SEARCH may quote DevA\'s own, and the fix replaces it', async () => {
    const ws = workspace();
    const own = 'var a = "a";\nmodule.exports = a;\n';
    const requests: string[] = [];
    const fix = '<edit path="src/a.js">\n<<<<<<< SEARCH\nvar a = "a";\n=======\nconst a = "a";\n>>>>>>> REPLACE\n</edit>\n';
    const { files: out, outcome } = await runCheckLoop({ commands: [FIX], fixRounds: 1, workspace: ws, capeFolder: 'cape', files: [file('src/a.js', own)], askFix: async (r) => (requests.push(r), fix) });
    assert.strictEqual(outcome.passed, true, JSON.stringify(outcome.fixRounds.map((f) => f.problems)));
    assert.strictEqual(requests.length, 1);
    assert.match(requests[0], /src\/a\.js:1:1 error Unexpected var/);
    assert.match(requests[0], /`node fix\.js` fixed src\/a\.js as it ran/);
    assert.ok(requests[0].includes("### src/a.js\n```js\nvar a = 'a';\nmodule.exports = a;\n```"), requests[0]);
    assert.deepStrictEqual(outcome.fixRounds[0].problems, [], "the SEARCH quoting DevA's own version applied");
    assert.strictEqual(out[0].content, "const a = 'a';\nmodule.exports = a;\n", "DevA's fix, fixed in its turn by the check");
    assert.deepStrictEqual(outcome.formatted?.map((f) => [f.round, f.by, f.files]), [[0, FIX, ['src/a.js']], [1, FIX, ['src/a.js']]]);
    assert.deepStrictEqual(outcome.baseline?.map((r) => r.command), [FIX], 'the fixer ran on the unchanged workspace (src/other.js fixed there), which is not taken');
    const retro = checksForRetro(outcome);
    assert.ok(retro.includes("- `node fix.js` fixed src/a.js as it ran (a check that fixes as it runs, the first proposal): the proposal the human reviews holds its fixes."), retro);
    assert.ok(retro.includes('- `node fix.js` fixed src/a.js as it ran (a check that fixes as it runs, fix round 1)'), retro);
  });

  it("a proposed file a check removes is written back as DevA proposed it: the next check sees it, and the proposal keeps it", async () => {
    const ws = workspace();
    const remove = `node -e "require('fs').rmSync('src/a.js')"`;
    const seen = `node -e "process.exit(require('fs').readFileSync('src/a.js', 'utf8') === 'module.exports = 1;\\n' ? 0 : 1)"`;
    const { files: out, outcome } = await runCheckLoop({ commands: [remove, seen], workspace: ws, capeFolder: 'cape', files: [file('src/a.js', 'module.exports = 1;\n')], askFix: async () => assert.fail('no fix round') });
    assert.strictEqual(outcome.passed, true);
    assert.strictEqual(out[0].content, 'module.exports = 1;\n');
    assert.strictEqual(outcome.formatted, undefined);
  });

  it('a check killed at the time limit takes nothing: a file it was writing is written back as DevA proposed it', async () => {
    const ws = workspace();
    const half = `node -e "require('fs').writeFileSync('src/a.js', 'module.ex'); setTimeout(() => {}, 60000)"`;
    const seen = `node -e "process.exit(require('fs').readFileSync('src/a.js', 'utf8') === 'module.exports = 1;\\n' ? 0 : 1)"`;
    const { files: out, outcome } = await runCheckLoop({ commands: [half, seen], timeoutMs: 1500, fixRounds: 0, workspace: ws, capeFolder: 'cape', files: [file('src/a.js', 'module.exports = 1;\n')], askFix: async () => assert.fail('no fix round') });
    assert.deepStrictEqual(outcome.runs.map((r) => [r.status, r.round]), [['timeout', 0], ['passed', 0]]);
    assert.strictEqual(out[0].content, 'module.exports = 1;\n');
    assert.strictEqual(outcome.formatted, undefined);
  });

  it('a check that leaves a NUL byte in DevA\'s file takes nothing: it is no text, and is written back as DevA proposed it', async () => {
    const ws = workspace();
    const nul = `node -e "require('fs').writeFileSync('src/a.js', 'module.exports = 1;\\0\\n')"`;
    const seen = `node -e "process.exit(require('fs').readFileSync('src/a.js', 'utf8') === 'module.exports = 1;\\n' ? 0 : 1)"`;
    const { files: out, outcome } = await runCheckLoop({ commands: [nul, seen], fixRounds: 0, workspace: ws, capeFolder: 'cape', files: [file('src/a.js', 'module.exports = 1;\n')], askFix: async () => assert.fail('no fix round') });
    assert.deepStrictEqual(outcome.runs.map((r) => r.status), ['passed', 'passed']);
    assert.strictEqual(out[0].content, 'module.exports = 1;\n');
    assert.strictEqual(outcome.formatted, undefined);
  });
});
