// The project's formatter on DevA's proposal, end to end through the CLI and the fake Messages API: a workspace that
// configures and installs Prettier (ours, linked in as the project's), a lint that runs it, and DevA's files laid out
// any other way. The formatter lays them out before the checks: no fix round, the transcript and --json say so, and
// --apply writes the formatted files. With --no-format the same lint costs a fix round.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { runCli, tempDir, workspaceWithOriginalCape, writeFiles } from '../helpers/cli';
import { demoReplies } from '../helpers/demo';
import { mulProposal } from '../helpers/checksSession';

const TASK = 'task-format';
const PRETTIER = path.dirname(require.resolve('prettier/package.json'));
const LINT = 'node node_modules/prettier/bin/prettier.cjs --check src';

/** DevA's reply: an <edit> of the formatted src/calc.js and a new src/mul.js, both laid out its own way. */
const UNTIDY = mulProposal(TASK, 'exports.mul = (a,b)=>require("./mul").mul(a,b)', 'exports.mul = (a,b) => a*b');

describe("CLI: the project's formatter lays out DevA's files before the checks", function () {
  this.timeout(120000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 256 }, (f) => (fake = f));
  const env = () => ({ ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'k', TMPDIR: tempDir('cape-format-tmp-') });

  function workspace(): string {
    const ws = workspaceWithOriginalCape('cape-format-ws-');
    writeFiles(ws, {
      'package.json': '{ "name": "calc", "private": true }\n',
      '.prettierrc': '{ "singleQuote": true }\n',
      'src/calc.js': 'exports.add = (a, b) => a + b;\nexports.sub = (a, b) => a - b;\n',
    });
    fs.mkdirSync(path.join(ws, 'node_modules'));
    fs.symlinkSync(PRETTIER, path.join(ws, 'node_modules', 'prettier'), 'dir');
    return ws;
  }

  it('no fix round: the transcript and --json name the files it laid out, and --apply writes them formatted', async () => {
    const ws = workspace();
    const r = demoReplies(TASK);
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: UNTIDY }, { text: r[4] });
    const run = await runCli(['start', '--workspace', ws, '--objective', 'Add multiplication', '--task', TASK, '--check', LINT, '--apply', '--json'], env());
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 5, 'CM, POA, DA, DevA, retrospective: no fix request');
    const out = JSON.parse(run.stdout);
    assert.deepStrictEqual(out.formatted, [{ round: 0, by: 'Prettier', files: ['src/mul.js', 'src/calc.js'] }]);
    assert.deepStrictEqual(out.checks.map((c: { command: string; passed: boolean; rounds: number }) => [c.command, c.passed, c.rounds]), [[LINT, true, 1]]);
    assert.strictEqual(fs.readFileSync(path.join(ws, 'src/mul.js'), 'utf8'), 'exports.mul = (a, b) => a * b;\n');
    assert.strictEqual(
      fs.readFileSync(path.join(ws, 'src/calc.js'), 'utf8'),
      "exports.add = (a, b) => a + b;\nexports.sub = (a, b) => a - b;\nexports.mul = (a, b) => require('./mul').mul(a, b);\n",
    );
    // the transcript (without --json) says it too
    const ws2 = workspace();
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: UNTIDY }, { text: r[4] });
    const plain = await runCli(['start', '--workspace', ws2, '--objective', 'Add multiplication', '--task', TASK, '--check', LINT], env());
    assert.strictEqual(plain.code, 0, plain.stderr);
    assert.match(plain.stdout, /≡ Prettier laid out src\/mul\.js, src\/calc\.js \(the project's formatter, as on save\)/);
    assert.match(plain.stdout, /Before they run, the project's formatter \(Prettier\) lays out DevA's files, as on save \(--no-format to leave them as DevA wrote them\)/);
  });

  it('--no-format: the lint fails on DevA\'s layout and costs a fix round', async () => {
    const ws = workspace();
    const r = demoReplies(TASK);
    const fixed = '<file path="src/mul.js">\nexports.mul = (a, b) => a * b;\n</file>\n<file path="src/calc.js">\nexports.add = (a, b) => a + b;\nexports.sub = (a, b) => a - b;\nexports.mul = (a, b) => require(\'./mul\').mul(a, b);\n</file>\n';
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: UNTIDY }, { text: fixed }, { text: r[4] });
    const run = await runCli(['start', '--workspace', ws, '--objective', 'Add multiplication', '--task', TASK, '--check', LINT, '--no-format', '--json'], env());
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 6, 'a fix request');
    const out = JSON.parse(run.stdout);
    assert.strictEqual(out.formatted, undefined);
    assert.ok(!run.stderr.includes('Before they run') && !run.stdout.includes('Before they run'), 'not said when turned off');
    assert.deepStrictEqual(out.checks.map((c: { passed: boolean; rounds: number }) => [c.passed, c.rounds]), [[true, 2]]);
  });

  it('--no-format goes with --check', async () => {
    const run = await runCli(['start', '--workspace', workspace(), '--objective', 'x', '--no-format'], env());
    assert.strictEqual(run.code, 2);
    assert.match(run.stderr, /--no-format go with --check CMD/);
    assert.strictEqual(fake.requests.length, 0);
  });
});
