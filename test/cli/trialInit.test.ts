// `npm run trial -- --init --answers FILE` (test/fake-anthropic/trial.ts): `cape init` through the relay, each real
// init request written as a file and answered by whoever writes the reply next to it — here the test, with the demo's
// decisions and files — ending with transcript.json (the init's result and every reply served).
import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { repoRoot } from '../helpers/fixtures';
import { tempDir } from '../helpers/cli';
import { writeCodebase } from '../helpers/codebase';
import { demoAnswers, demoDecisions, demoInputFile } from '../helpers/demo';

/** Answers every NN.request.md of the trial folder as the model would: the decisions, or the file it asks for. */
function answerRequests(dir: string, asked: string[]): NodeJS.Timeout {
  const answers = demoAnswers();
  return setInterval(() => {
    if (!fs.existsSync(dir)) return;
    for (const f of fs.readdirSync(dir)) {
      const n = /^(\d+)\.request\.md$/.exec(f)?.[1];
      if (!n || fs.existsSync(path.join(dir, `${n}.reply.md`))) continue;
      const request = fs.readFileSync(path.join(dir, f), 'utf8');
      const file = /\*\*`cape\/([^`]+)`/.exec(request)?.[1];
      asked.push(/fix the shared decisions/i.test(request) ? 'decisions' : (file ?? 'unknown'));
      // written whole under another name, then renamed: the relay never reads half a reply
      fs.writeFileSync(path.join(dir, `${n}.tmp`), file ? demoInputFile(file, answers) : demoDecisions());
      fs.renameSync(path.join(dir, `${n}.tmp`), path.join(dir, `${n}.reply.md`));
    }
  }, 100);
}

describe('npm run trial -- --init: cape init through the relay', function () {
  this.timeout(60000);

  it('writes each init request as a file, serves the replies written next to them, and keeps the result', async () => {
    const ws = tempDir('cape-trial-init-');
    writeCodebase(ws);
    const answersFile = path.join(tempDir('cape-trial-answers-'), 'answers.json');
    fs.writeFileSync(answersFile, JSON.stringify({ product: 'Acme shop', users: 'Anvil buyers', problem: 'Lost phone orders', features: 'order online' }));
    const dir = path.join(tempDir('cape-trial-dir-'), 'trial');
    const asked: string[] = [];
    const answering = answerRequests(dir, asked);
    const trial = path.join(repoRoot(), 'out', 'test', 'fake-anthropic', 'trial.js');
    const child = spawn(process.execPath, [trial, '--init', '--workspace', ws, '--answers', answersFile, '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
    clearInterval(answering);
    assert.strictEqual(code, 0, stderr);
    assert.strictEqual(asked[0], 'decisions');
    assert.strictEqual(asked.length, 10, 'the decisions, then one request per project file');
    assert.match(fs.readFileSync(path.join(dir, '01.request.md'), 'utf8'), /<workspace_facts>\n## package\.json\n- name: acme-shop/);
    const transcript = JSON.parse(fs.readFileSync(path.join(dir, 'transcript.json'), 'utf8'));
    assert.strictEqual(transcript.init, true);
    assert.strictEqual(transcript.complete, true);
    assert.strictEqual(transcript.replies.length, 10);
    assert.deepStrictEqual(transcript.result.failed, []);
    assert.deepStrictEqual(transcript.result.facts.files, ['package.json', 'packages/api/package.json', 'packages/web/package.json', 'README.md', 'CLAUDE.md']);
    assert.ok(fs.existsSync(path.join(ws, 'cape', '3_development', '1_architecture.md')));
    assert.match(stderr, /\[trial\] init complete/);
  });

  it('--init needs --answers and takes none of a session\'s flags', async () => {
    const trial = path.join(repoRoot(), 'out', 'test', 'fake-anthropic', 'trial.js');
    const run = (args: string[]) =>
      new Promise<{ code: number; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [trial, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (d) => (stderr += d));
        child.on('close', (c) => resolve({ code: c ?? 1, stderr }));
      });
    const noAnswers = await run(['--init', '--workspace', tempDir('cape-trial-init-')]);
    assert.strictEqual(noAnswers.code, 2);
    assert.match(noAnswers.stderr, /--init needs --answers FILE/);
    const withObjective = await run(['--init', '--workspace', '.', '--answers', 'a.json', '--objective', 'x']);
    assert.match(withObjective.stderr, /--init takes no --objective/);
    const answersAlone = await run(['--workspace', '.', '--objective', 'x', '--answers', 'a.json']);
    assert.match(answersAlone.stderr, /--answers go with --init/);
  });
});
