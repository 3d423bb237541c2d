// A check that fixes DevA's files as it runs (`eslint --fix .`), end to end through the CLI and the fake Messages API:
// the check rewrites DevA's file in the scratch copy and passes on the fixed text, so that text is the proposal — the
// transcript, --json and the retrospective name the command that fixed it, and --apply writes the fixed bytes. A
// workspace file outside the proposal it fixed too is neither named nor written.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { runCli, tempDir, workspaceWithOriginalCape, writeFiles } from '../helpers/cli';
import { demoReplies } from '../helpers/demo';
import { mulProposal } from '../helpers/checksSession';

const TASK = 'task-check-fix';
const CHECK = 'node fix.js';
/** The fixer: double quotes become single ones in every file of src/, as a lint with --fix would. */
const FIXER = `const fs = require('fs');
for (const name of fs.readdirSync('src')) {
  const p = 'src/' + name;
  const text = fs.readFileSync(p, 'utf8');
  if (text.includes('"')) fs.writeFileSync(p, text.split('"').join("'"));
}
`;

/** DevA's reply: an <edit> of src/calc.js with double quotes, and a new src/mul.js the fixer leaves as it is. */
const REPLY = mulProposal(TASK, 'exports.mul = require("./mul").mul;', 'exports.mul = (a, b) => a * b;');

describe('CLI: a check that fixes DevA\'s files as it runs', function () {
  this.timeout(120000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 256 }, (f) => (fake = f));
  const env = () => ({ ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'k', TMPDIR: tempDir('cape-check-fix-tmp-') });

  it('the fixed text is the proposal: named in the transcript, --json and the retrospective, and --apply writes it', async () => {
    const ws = workspaceWithOriginalCape('cape-check-fix-ws-');
    const other = 'exports.other = "o";\n';
    writeFiles(ws, {
      'package.json': '{ "name": "calc", "private": true }\n',
      'fix.js': FIXER,
      'src/calc.js': 'exports.add = (a, b) => a + b;\nexports.sub = (a, b) => a - b;\n',
      'src/other.js': other,
    });
    const r = demoReplies(TASK);
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: REPLY }, { text: r[4] });
    const run = await runCli(['start', '--workspace', ws, '--objective', 'Add multiplication', '--task', TASK, '--check', CHECK, '--apply', '--json'], env());
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 5, 'CM, POA, DA, DevA, retrospective: no fix request');
    assert.deepStrictEqual(run.json.formatted, [{ round: 0, by: CHECK, files: ['src/calc.js'], check: true }]);
    assert.deepStrictEqual(run.json.checks.map((c: { command: string; passed: boolean; rounds: number }) => [c.command, c.passed, c.rounds]), [[CHECK, true, 1]]);
    assert.ok(run.stderr.includes('≡ `node fix.js` fixed src/calc.js as it ran (a check that fixes as it runs)'), run.stderr);
    assert.match(JSON.stringify(fake.requests.at(-1)!.body.messages), /`node fix\.js` fixed src\/calc\.js as it ran \(a check that fixes as it runs, the first proposal\)/, 'the retrospective hears it');
    assert.strictEqual(fs.readFileSync(path.join(ws, 'src/calc.js'), 'utf8'), "exports.add = (a, b) => a + b;\nexports.sub = (a, b) => a - b;\nexports.mul = require('./mul').mul;\n");
    assert.strictEqual(fs.readFileSync(path.join(ws, 'src/mul.js'), 'utf8'), 'exports.mul = (a, b) => a * b;\n');
    assert.strictEqual(fs.readFileSync(path.join(ws, 'src/other.js'), 'utf8'), other, 'a file outside the proposal is never taken');
    assert.ok(!run.stdout.includes('src/other.js') && !run.stderr.includes('src/other.js'), 'nor named');
  });
});
