// The checks keep the developer's secrets, end to end through the CLI and the fake Messages API: a check that prints
// its environment when it fails (DevA's proposal makes check.js do so) runs without the API key, and the values of
// secret-looking variables are hidden in its output — neither the fix request sent to the API nor any file under cape/
// holds them (src/core/checks/checkEnv.ts).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { listFiles, runCli, runCliWithInput, tempDir, workspaceWithOriginalCape } from '../helpers/cli';
import { demoReplies } from '../helpers/demo';
import { repoRoot } from '../helpers/fixtures';
import { devaReply } from '../helpers/checksSession';

const TASK = 'task-secrets';
const KEY = 'sk-ant-api03-LEAKED-KEY';
const TOKEN = 'ghp_LEAKEDTOKEN42';

function text(content: unknown): string {
  return typeof content === 'string' ? content : (content as { text?: string }[]).map((b) => b.text ?? '').join('');
}

describe("CLI: the checks keep the developer's secrets", function () {
  this.timeout(120000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 256 }, (f) => (fake = f));

  it('a check printing its environment: no key, no token in the fix request or under cape/; DATABASE_URL reaches it', async () => {
    const ws = workspaceWithOriginalCape('cape-secrets-ws-', path.join(repoRoot(), 'test', 'checks', 'workspace'));
    const r = demoReplies(TASK);
    const first = devaReply(
      TASK,
      'I added a check.',
      ['<file path="src/mul.js">', 'exports.mul = (a, b) => a * b;', '</file>', '<file path="check.js">', "console.log('env on failure:', JSON.stringify(process.env)); process.exit(1);", '</file>'].join('\n'),
    );
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: first }, { text: 'Not my failure.' }, { text: r[4] });
    const run = await runCli(['start', '--workspace', ws, '--objective', 'Add multiplication', '--task', TASK, '--check', 'npm test', '--fix-rounds', '1', '--json'], {
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: KEY,
      GITHUB_TOKEN: TOKEN,
      DATABASE_URL: 'postgres://localhost/checks',
      TMPDIR: tempDir('cape-secrets-tmp-'),
    });
    assert.strictEqual(run.code, 0, run.stderr);
    const fixReq = text(fake.requests[4].body.messages.at(-1).content);
    assert.match(fixReq, /env on failure:/, 'the fix request carries the output');
    assert.match(fixReq, /"DATABASE_URL":"postgres:\/\/localhost\/checks"/, 'the other variables reach the check');
    assert.match(fixReq, /"GITHUB_TOKEN":"\[hidden: the value of GITHUB_TOKEN\]"/);
    for (const secret of [KEY, TOKEN]) {
      assert.ok(!fake.requests.some((q) => JSON.stringify(q.body).includes(secret)), `no request holds ${secret}`);
      const holding = listFiles(ws).filter((f) => f.startsWith('cape/') && fs.readFileSync(path.join(ws, f), 'utf8').includes(secret));
      assert.deepStrictEqual(holding, [], `no file under cape/ holds ${secret}`);
      assert.ok(!run.stderr.includes(secret) && !run.stdout.includes(secret), `the transcript does not show ${secret}`);
    }
  });
});

describe("CLI: the session's API key, whatever gives it, is hidden in the checks' output", function () {
  this.timeout(120000);
  const SESSION_KEY = 'sk-ant-api03-SESSION-KEY-42';
  let fake!: FakeAnthropic;
  // the server takes no other key: a session that runs did send this one
  useFakeAnthropic({ chunkSize: 256, apiKey: SESSION_KEY }, (f) => (fake = f));

  // DevA's check prints the project's .env (which holds the developer's key, as projects' do) and, on Linux, the command
  // lines of the processes above it — the CLI's among them
  const CHECK = [
    "const fs = require('fs');",
    "console.log('project env: ' + fs.readFileSync('.env', 'utf8').trim());",
    "for (let pid = process.ppid, n = 0; process.platform === 'linux' && pid > 1 && n < 12; n++) {",
    "  console.log('ancestor: ' + fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8').split('\\0').join(' '));",
    "  pid = Number(fs.readFileSync('/proc/' + pid + '/stat', 'utf8').split(') ').pop().split(' ')[1]);",
    '}',
    'process.exit(1);',
  ].join('\n');

  async function session(taskId: string, keyArgs: string[], input?: string) {
    const ws = workspaceWithOriginalCape('cape-key-ws-', path.join(repoRoot(), 'test', 'checks', 'workspace'));
    fs.writeFileSync(path.join(ws, '.env'), `ANTHROPIC_API_KEY=${SESSION_KEY}\n`);
    const r = demoReplies(taskId);
    const deva = devaReply(taskId, 'I added a check.', ['<file path="src/mul.js">', 'exports.mul = (a, b) => a * b;', '</file>', '<file path="check.js">', CHECK, '</file>'].join('\n'));
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: deva }, { text: 'Not my failure.' }, { text: r[4] });
    const args = ['start', '--workspace', ws, '--objective', 'Add multiplication', '--task', taskId, '--check', 'npm test', '--fix-rounds', '1', '--json', ...keyArgs];
    const env = { ANTHROPIC_BASE_URL: fake.url, TMPDIR: tempDir('cape-key-tmp-') };
    const run = input === undefined ? await runCli(args, env) : await runCliWithInput(args, env, input);
    assert.strictEqual(run.code, 0, run.stderr);
    assert.ok(fake.requests.length > 0 && fake.requests.every((q) => q.apiKey === SESSION_KEY), 'the session authenticated with the key');
    const fixRequest = text(fake.requests[4].body.messages.at(-1).content);
    assert.match(fixRequest, /project env: ANTHROPIC_API_KEY=\[hidden: the API key\]/);
    assert.ok(!fake.requests.some((q) => JSON.stringify(q.body).includes(SESSION_KEY)), 'no request holds the key');
    const holding = listFiles(ws).filter((f) => f.startsWith('cape/') && fs.readFileSync(path.join(ws, f), 'utf8').includes(SESSION_KEY));
    assert.deepStrictEqual(holding, [], 'no file under cape/ holds the key');
    assert.ok(!run.stdout.includes(SESSION_KEY) && !run.stderr.includes(SESSION_KEY), 'the transcript does not show it');
    return { run, fixRequest };
  }

  it('--api-key KEY: the key is hidden where a check prints it, masked in the command line it can read, and the CLI warns against the flag', async () => {
    const { run, fixRequest } = await session('task-key-flag', ['--api-key', SESSION_KEY]);
    assert.match(run.stderr, /^cape: warning: --api-key puts the key on the command line, where other processes can read it \(ps, \/proc\) until cape writes it over; give it with ANTHROPIC_API_KEY or --api-key-file PATH \(- for stdin\) instead\.$/m);
    // the CLI wrote its command line over before the checks started: they read `***` there, not the key
    if (process.platform === 'linux') assert.match(fixRequest, /ancestor: \S*node \S*cli\.js start .*--api-key \*\*\* /, 'the command line a check can read');
    assert.doesNotMatch(fixRequest, /ancestor: .*\[hidden: the API key\]/, 'no command line a check read held the key');
  });

  it('--api-key-file PATH: the key is read from the file, on no command line, and hidden where a check prints it; no warning', async () => {
    const keyFile = path.join(tempDir('cape-key-file-'), 'anthropic.key');
    fs.writeFileSync(keyFile, `${SESSION_KEY}\n`, { mode: 0o600 });
    const { run, fixRequest } = await session('task-key-file', ['--api-key-file', keyFile]);
    assert.doesNotMatch(run.stderr, /warning: --api-key/);
    if (process.platform === 'linux') assert.match(fixRequest, /ancestor: \S*node \S*cli\.js start .*--api-key-file \S*anthropic\.key/);
  });

  it('--api-key-file -: the key is read from stdin', async () => {
    const { run } = await session('task-key-stdin', ['--api-key-file', '-'], `${SESSION_KEY}\n`);
    assert.doesNotMatch(run.stderr, /warning/);
  });

  it('the key given twice, stdin asked for twice, an empty or many-word key file: usage errors, nothing sent', async () => {
    const ws = workspaceWithOriginalCape('cape-key-bad-', path.join(repoRoot(), 'test', 'checks', 'workspace'));
    const dir = tempDir('cape-key-bad-file-');
    const file = (name: string, content: string) => (fs.writeFileSync(path.join(dir, name), content), path.join(dir, name));
    const start = (extra: string[]) => runCli(['start', '--workspace', ws, '--objective', 'x', ...extra], { ANTHROPIC_BASE_URL: fake.url });
    const cases: [string[], RegExp][] = [
      [['--api-key-file', file('k', SESSION_KEY), '--api-key', SESSION_KEY], /^cape: Give the API key once: --api-key-file PATH or --api-key KEY, not both\.$/m],
      [['--api-key-file', '-', '--objective-file', '-'], /^cape: --objective-file - and --api-key-file - would both read stdin: give one of them a file\.$/m],
      [['--api-key-file', file('empty', '\n')], /^cape: The API key in \S+empty must be the key alone, on one line \(it is empty\)\.$/m],
      [['--api-key-file', file('env', `ANTHROPIC_API_KEY= ${SESSION_KEY}\n`)], /^cape: The API key in \S+env must be the key alone, on one line \(it holds blanks\)\.$/m],
      [['--api-key-file', path.join(dir, 'missing')], /^cape: --api-key-file: /m],
    ];
    for (const [extra, message] of cases) {
      const run = await start(extra);
      assert.strictEqual(run.code, 2, `${extra.join(' ')}\n${run.stderr}`);
      assert.match(run.stderr, message);
      assert.ok(!run.stderr.includes(SESSION_KEY), 'the message does not show the key');
    }
    assert.strictEqual(fake.requests.length, 0);
  });
});
