// The CLI against hostile inputs and a faulty server that the other CLI suites do not cover: an objective that is
// not text, flags that conflict or overflow, a cape/ that is not a folder, a server that is not the Messages API.
// Each gets a clear error (a usage error exits 2 before anything is sent or written) and loses nothing.
import * as assert from 'assert';
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { listFiles, runCli, runCliWithInput, tempDir, workspaceWithOriginalCape } from '../helpers/cli';
import { demoDir, demoReplies } from '../helpers/demo';

const TASK = 'task-hostile';

const demoWorkspace = () => workspaceWithOriginalCape('cape-hostile-', path.join(demoDir(), 'workspace'));
const stateDir = (ws: string) => path.join(ws, 'cape/5_sessions/state');

describe('CLI: hostile inputs and faults', function () {
  this.timeout(90000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 256 }, (f) => (fake = f));
  const env = () => ({ ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'k' });

  it('an objective file or stdin that is not text (binary, not UTF-8) is refused before anything is sent', async () => {
    const ws = demoWorkspace();
    const dir = tempDir('cape-hostile-objective-');
    const binary = path.join(dir, 'objective.png');
    fs.writeFileSync(binary, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
    const latin1 = path.join(dir, 'objective.txt');
    fs.writeFileSync(latin1, Buffer.from('Un mode sombre pour le caf\xe9', 'latin1'));

    const bin = await runCli(['start', '--workspace', ws, '--objective-file', binary, '--task', TASK], env());
    assert.strictEqual(bin.code, 2, bin.stdout + bin.stderr);
    assert.ok(bin.stderr.includes(`--objective-file: Cannot read ${binary}: it is a binary file (NUL byte at offset 8)`), bin.stderr);

    const lat = await runCli(['start', '--workspace', ws, '--objective-file', latin1, '--task', TASK], env());
    assert.strictEqual(lat.code, 2, lat.stdout + lat.stderr);
    assert.match(lat.stderr, /objective\.txt: it is not valid UTF-8 text \(invalid bytes at offset 26\); save it as UTF-8/);

    const piped = await runCliWithInput(['start', '--workspace', ws, '--objective-file', '-', '--task', TASK], env(), Buffer.from('Dark mode\xff', 'latin1'));
    assert.strictEqual(piped.code, 2, piped.stdout + piped.stderr);
    assert.match(piped.stderr, /stdin cannot be used: it is not valid UTF-8 text/);

    assert.strictEqual(fake.requests.length, 0, 'nothing reached the model');
    assert.ok(!fs.existsSync(stateDir(ws)), 'no session was created');
    assert.ok(!/\n\s+at /.test(bin.stderr + lat.stderr + piped.stderr), 'no stack trace');
  });

  it('a time limit beyond what a timer holds (--idle-timeout, --check-timeout of 35 days) waits, instead of firing at once', async () => {
    const ws = demoWorkspace();
    for (const t of demoReplies(TASK)) fake.enqueue({ text: t });
    const check = `node -e "setTimeout(() => {}, 300)"`;
    const run = await runCli(
      ['start', '--workspace', ws, '--objective', 'Add a dark mode', '--task', TASK, '--idle-timeout', '3000000', '--check', check, '--check-timeout', '3000000', '--json'],
      env(),
    );
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 5, 'no step was retried');
    assert.deepStrictEqual(run.json.checks.map((c: { passed: boolean }) => c.passed), [true], 'the check was not killed');
    assert.ok(!/TimeoutOverflowWarning|sent no data/.test(run.stderr), run.stderr);

    // and one shorter than a millisecond (which a timer rounds to nothing) is a usage error, before anything is sent
    fake.reset();
    const tiny = await runCli(['start', '--workspace', demoWorkspace(), '--objective', 'Add a dark mode', '--idle-timeout', '0.0001'], env());
    assert.strictEqual(tiny.code, 2, tiny.stdout + tiny.stderr);
    assert.match(tiny.stderr, /--idle-timeout 0\.0001 is shorter than a millisecond: give at least 0\.001 seconds/);
    assert.strictEqual(fake.requests.length, 0);
  });

  it('conflicting or empty flags are usage errors before anything is sent or written (init --force --missing-only, --check "")', async () => {
    // a cape/ whose project file the user edited: --force would regenerate it, --missing-only would keep it
    const ws = demoWorkspace();
    const edited = path.join(ws, 'cape/1_product/1_mvv.md');
    fs.writeFileSync(edited, '---\ntype: input\n---\n\n# Mission\n\nEdited by hand.\n');
    const answers = path.join(tempDir('cape-hostile-answers-'), 'answers.json');
    fs.writeFileSync(answers, JSON.stringify({ product: 'Pocket Notes', users: 'Students', problem: 'Notes get lost', features: ['write notes'] }));
    const before = listFiles(path.join(ws, 'cape'));
    fake.setResponder(() => ({ text: 'unused' }));

    const both = await runCli(['init', '--workspace', ws, '--answers', answers, '--force', '--missing-only'], env());
    assert.strictEqual(both.code, 2, both.stdout + both.stderr);
    assert.match(both.stderr, /Give --force \(regenerate every file of cape\/\) or --missing-only \(add only the missing ones\), not both/);
    assert.strictEqual(fs.readFileSync(edited, 'utf8'), '---\ntype: input\n---\n\n# Mission\n\nEdited by hand.\n', 'the edited file is kept');

    const missing = await runCli(['init', '--workspace', ws, '--answers', path.join(ws, 'nope.yaml'), '--missing-only'], env());
    assert.strictEqual(missing.code, 2, missing.stdout + missing.stderr);
    assert.ok(missing.stderr.includes(`--answers: Cannot read ${path.join(ws, 'nope.yaml')}: no such file.`), missing.stderr);

    for (const [flag, value] of [['--check', ''], ['--model', ' '], ['--lang', ''], ['--task', '']]) {
      const run = await runCli(['start', '--workspace', ws, '--objective', 'Add a dark mode', flag, value], env());
      assert.strictEqual(run.code, 2, `${flag} "${value}": ${run.stdout}${run.stderr}`);
      assert.ok(run.stderr.includes(`cape: ${flag} needs a value, not an empty one.`), run.stderr);
    }
    assert.strictEqual(fake.requests.length, 0, 'nothing reached the model');
    assert.deepStrictEqual(listFiles(path.join(ws, 'cape')), before, 'nothing written in cape/');
  });

  it('a file where cape/5_sessions (or one of its folders) should be: a clear error before any request, the file untouched', async () => {
    const ws = demoWorkspace();
    const sessions = path.join(ws, 'cape/5_sessions');
    fs.rmSync(sessions, { recursive: true, force: true });
    fs.writeFileSync(sessions, 'my notes\n');
    fake.setResponder(() => ({ text: 'unused' }));
    const run = await runCli(['start', '--workspace', ws, '--objective', 'Add a dark mode', '--task', TASK, '--json'], env());
    assert.strictEqual(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stderr, /cape\/5_sessions is a file where CAPE needs a folder: move the file aside \(CAPE does not read it\), then run again\./);
    assert.ok(!/ENOTDIR/.test(run.stdout + run.stderr), run.stderr);
    assert.strictEqual(run.json.resumable, false);
    assert.strictEqual(fs.readFileSync(sessions, 'utf8'), 'my notes\n');

    fs.rmSync(sessions);
    fs.mkdirSync(sessions);
    fs.writeFileSync(path.join(sessions, 'state'), '');
    const state = await runCli(['start', '--workspace', ws, '--objective', 'Add a dark mode', '--task', TASK], env());
    assert.strictEqual(state.code, 1);
    assert.match(state.stdout + state.stderr, /cape\/5_sessions\/state is a file where CAPE needs a folder/);
    assert.strictEqual(fake.requests.length, 0);
  });

  it('a base URL that answers 200 with a web page instead of the event stream: one request, a message naming the base URL', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<html><body>Sign in to the proxy</body></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    let requests = 0;
    server.on('request', () => requests++);
    try {
      const ws = demoWorkspace();
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const run = await runCli(['start', '--workspace', ws, '--objective', 'Add a dark mode', '--task', TASK, '--json'], { ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'k' });
      assert.strictEqual(run.code, 1, run.stderr);
      assert.ok(run.json.error.message.includes(`The server at ${url} answered with text/html; charset=utf-8, not the Messages API's event stream. Check the base URL`), run.json.error.message);
      assert.ok(!/connection .* was lost/.test(run.stderr), run.stderr);
      assert.strictEqual(requests, 1, 'not retried: the same page would come back');
    } finally {
      server.close();
    }
  });
});
