// DevA's proposed files the scratch copy had to treat specially, end to end through the CLI and the fake Messages
// API: one under a vendored folder (linked in the copy, as installed dependencies are) is checked — the folder is
// copied — so a breaking change fails its check; one behind a link of the user's is not written, and the transcript,
// --json and the retrospective say the checks passed without it, never "every check passes".
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { runCli, tempDir, workspaceWithOriginalCape, writeFiles } from '../helpers/cli';
import { demoReplies } from '../helpers/demo';
import { repoRoot } from '../helpers/fixtures';
import { devaReply } from '../helpers/checksSession';

function text(content: unknown): string {
  return typeof content === 'string' ? content : (content as { text?: string }[]).map((b) => b.text ?? '').join('');
}

describe('CLI: proposed files under linked folders', function () {
  this.timeout(120000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 256 }, (f) => (fake = f));
  const env = () => ({ ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'k', TMPDIR: tempDir('cape-linked-tmp-') });

  it('a breaking change to src/vendor/lib.js fails the check (the vendored folder is copied, not left linked)', async function () {
    if (process.platform === 'win32') this.skip();
    const TASK = 'task-vendor';
    const ws = workspaceWithOriginalCape('cape-vendor-ws-');
    writeFiles(ws, {
      'package.json': JSON.stringify({ name: 'v', version: '1.0.0', private: true, scripts: { test: 'node test.js' } }),
      'src/vendor/lib.js': 'exports.twice = (x) => x * 2;\n',
      'test.js': 'const { twice } = require("./src/vendor/lib");\nif (twice(2) !== 4) { console.error("twice(2) is " + twice(2)); process.exit(1); }\nconsole.log("ok");\n',
    });
    const r = demoReplies(TASK);
    const first = devaReply(TASK, 'Changed twice.', ['<file path="src/vendor/lib.js">', 'exports.twice = (x) => x * 3;', '</file>'].join('\n'));
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: first }, { text: 'Not my failure.' }, { text: r[4] });
    const run = await runCli(['start', '--workspace', ws, '--objective', 'Change twice', '--task', TASK, '--check', 'npm test', '--json'], env());
    assert.strictEqual(run.code, 0, run.stderr);
    assert.match(text(fake.requests[4].body.messages.at(-1).content), /twice\(2\) is 6/, 'the check ran on the proposed file');
    assert.deepStrictEqual(run.json.checks.map((c: { passed: boolean }) => c.passed), [false]);
    assert.ok(!run.stderr.includes('every check passes'), run.stderr);
    assert.strictEqual(fs.readFileSync(path.join(ws, 'src', 'vendor', 'lib.js'), 'utf8'), 'exports.twice = (x) => x * 2;\n');
  });

  it("a file behind the user's own link is not written to the copy: the checks pass, and every surface says it was not checked", async function () {
    if (process.platform === 'win32') this.skip();
    const TASK = 'task-linked';
    const ws = workspaceWithOriginalCape('cape-linked-ws-', path.join(repoRoot(), 'test', 'checks', 'workspace'));
    writeFiles(ws, { 'real/keep.txt': 'k\n' });
    fs.symlinkSync(path.join(ws, 'real'), path.join(ws, 'linked'));
    const r = demoReplies(TASK);
    const first = devaReply(TASK, 'Added a helper.', ['<file path="linked/extra.js">', 'exports.extra = 1;', '</file>'].join('\n'));
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: first }, { text: r[4] });
    const run = await runCli(['start', '--workspace', ws, '--objective', 'Add a helper', '--task', TASK, '--check', 'npm test', '--json'], env());
    assert.strictEqual(run.code, 0, run.stderr);
    const reason = 'linked is a linked folder, so the file was not written to the scratch copy the checks ran on';
    assert.ok(run.stderr.includes(`⚠ not checked: linked/extra.js: ${reason}`), run.stderr);
    assert.match(run.stderr, /⚠ The checks passed, but one of DevA's proposed files was not in the scratch copy they ran on \(linked\/extra\.js\): no check tested it\./);
    assert.ok(!run.stderr.includes('every check passes'), run.stderr);
    assert.deepStrictEqual(run.json.checks.map((c: { passed: boolean }) => c.passed), [true]);
    assert.deepStrictEqual(run.json.checksNotWritten, [{ path: 'linked/extra.js', reason }]);
    assert.match(JSON.stringify(fake.requests.at(-1)!.body.messages), /The checks passed, but one of DevA's proposed files was not in the scratch copy/, 'the retrospective hears it');
    assert.ok(!fs.existsSync(path.join(ws, 'real', 'extra.js')), 'nothing written through the link');
  });
});
