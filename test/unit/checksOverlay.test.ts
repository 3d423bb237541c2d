// src/core/checks/scratchOverlay.ts and the loop's telling of it: a proposed file under a folder the copy linked is
// checked (the folder copied, within a bound); one the copy cannot take is said — as an event, in the outcome and in
// the verdict, which then does not say every check passes.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { checksForRetro, createScratch, runCheck, runCheckLoop, type CheckEvent, type ProposedFile } from '../../src/core';

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'cape-unit-overlay-'));
}

function write(root: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

const proposed = (relPath: string, content: string): ProposedFile => ({ path: relPath, relPath, action: 'modify', status: 'proposed', content });

describe('checks: proposed files under a linked folder', function () {
  before(function () {
    if (process.platform === 'win32') this.skip();
  });

  it('a vendored source folder (src/vendor/) is copied when a proposed file lands in it: the file and its siblings are checked', async () => {
    const ws = tmp();
    write(ws, 'src/vendor/lib.js', 'exports.twice = (x) => x * 2;\n');
    write(ws, 'src/vendor/use.js', "exports.four = () => require('./lib').twice(2);\n");
    write(ws, 'src/vendor/node_modules/dep/index.js', 'module.exports = 1;\n');
    const s = await createScratch(ws, { capeFolder: 'cape' });
    try {
      assert.ok(fs.lstatSync(path.join(s.dir, 'src', 'vendor')).isSymbolicLink(), 'linked until a proposed file lands in it');
      assert.deepStrictEqual(await s.overlay([proposed('src/vendor/lib.js', 'exports.twice = (x) => x * 3;\n')]), []);
      const run = await runCheck({ command: "node -e \"console.log(require('./src/vendor/use').four())\"", cwd: s.dir, round: 0 });
      assert.strictEqual(run.output, '6', 'the sibling requires the proposed file, in the copy');
      assert.ok(fs.lstatSync(path.join(s.dir, 'src', 'vendor', 'node_modules')).isSymbolicLink(), 'its own dependencies stay linked');
    } finally {
      await s.dispose();
    }
    assert.strictEqual(fs.readFileSync(path.join(ws, 'src', 'vendor', 'lib.js'), 'utf8'), 'exports.twice = (x) => x * 2;\n', "the user's file is untouched");
  });

  it('a linked folder past the bound stays linked: the file is not written, and why is said', async () => {
    const ws = tmp();
    write(ws, 'vendor/a.js', 'a');
    write(ws, 'vendor/b.js', 'b');
    const s = await createScratch(ws, { capeFolder: 'cape', besideLimit: { files: 1, bytes: 1024 } });
    try {
      const notWritten = await s.overlay([proposed('vendor/a.js', 'A')]);
      assert.strictEqual(notWritten.length, 1);
      assert.strictEqual(notWritten[0].path, 'vendor/a.js');
      assert.match(notWritten[0].reason, /^vendor is an installed-dependency folder, linked rather than copied, and past the 1 KB or 1 files it would be copied within, so the file was not written/);
      assert.ok(fs.lstatSync(path.join(s.dir, 'vendor')).isSymbolicLink());
    } finally {
      await s.dispose();
    }
    assert.strictEqual(fs.readFileSync(path.join(ws, 'vendor', 'a.js'), 'utf8'), 'a');
  });

  it('checks passing without a proposed file: a not-written event, the outcome and the verdict say so, never "every check passes"', async () => {
    const ws = tmp();
    write(ws, 'real/r.js', 'r');
    write(ws, 'package.json', '{}');
    fs.symlinkSync(path.join(ws, 'real'), path.join(ws, 'linked')); // the user's own link: the copy keeps it
    const events: CheckEvent[] = [];
    const { outcome } = await runCheckLoop({
      workspace: ws,
      capeFolder: 'cape',
      commands: ['true'],
      format: false,
      files: [proposed('linked/r.js', 'broken(')],
      askFix: async () => assert.fail('no fix round: the check passes'),
      onEvent: (e) => events.push(e),
    });
    assert.strictEqual(outcome.passed, true);
    const reason = 'linked is a linked folder, so the file was not written to the scratch copy the checks ran on';
    assert.deepStrictEqual(outcome.notWritten, [{ path: 'linked/r.js', reason }]);
    assert.deepStrictEqual(events.find((e) => e.type === 'not-written'), { type: 'not-written', round: 0, files: [{ path: 'linked/r.js', reason }] });
    const end = events.find((e) => e.type === 'checks-finished');
    assert.deepStrictEqual(end && end.type === 'checks-finished' && end.notChecked, ['linked/r.js']);
    const retro = checksForRetro(outcome);
    assert.match(retro, /The checks passed, but one of DevA's proposed files was not in the scratch copy they ran on \(linked\/r\.js\): no check tested it\./);
    assert.ok(!retro.includes('Every check passes'));
    assert.strictEqual(fs.readFileSync(path.join(ws, 'real', 'r.js'), 'utf8'), 'r', 'nothing written through the link');
  });
});
