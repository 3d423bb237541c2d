// The checks keep the developer's secrets, end to end through the CLI and the fake Messages API: a check that prints
// its environment when it fails (DevA's proposal makes check.js do so) runs without the API key, and the values of
// secret-looking variables are hidden in its output — neither the fix request sent to the API nor any file under cape/
// holds them (src/core/checks/checkEnv.ts).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { listFiles, runCli, tempDir, workspaceWithOriginalCape } from '../helpers/cli';
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
