// The CLI under faults and hostile input: bad key, rate limits, mid-stream errors, dropped connections,
// malformed and truncated replies, hostile file paths; --apply versus no --apply.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { truncated, type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { interruptCli, listFiles, runCli, tempDir, workspaceWithOriginalCape } from '../helpers/cli';
import { demoAnswers, demoDecisions, demoDir, demoInputFile, demoReplies, isDecisionsRequest } from '../helpers/demo';

const TASK = 'task-42';

const demoWorkspace = () => workspaceWithOriginalCape('cape-faults-', path.join(demoDir(), 'workspace'));

describe('CLI faults and safety', function () {
  this.timeout(90000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 64, apiKey: 'good-key' }, (f) => (fake = f));

  const env = (key = 'good-key') => ({ ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: key });
  /** A session started through the bundled CLI, sent `signal` while POA's stream is held open (enqueue it so). */
  const stopMidStream = async (ws: string, signal: NodeJS.Signals) => {
    try {
      return await interruptCli(['start', '--workspace', ws, '--objective', 'Add a dark mode', '--task', TASK, '--json'], env(), { when: () => fake.requests.length >= 2, what: 'the request for POA', signal });
    } finally {
      fake.release();
    }
  };
  const start = (ws: string, extra: string[] = [], key?: string) =>
    runCli(['start', '--workspace', ws, '--objective', 'Add a dark mode', '--task', TASK, '--json', ...extra], env(key));

  it('Ctrl-C (SIGINT) mid-stream stops the session with exit code 130, keeps the completed step, and resume completes it', async () => {
    const ws = demoWorkspace();
    const r = demoReplies(TASK);
    fake.enqueue({ text: r[0] }, { text: r[1], holdAfterChars: 100 });
    // POA's stream is held open after its first 100 characters: the session is mid-stream
    const { code, stderr, json } = await stopMidStream(ws, 'SIGINT');
    assert.strictEqual(code, 130, stderr);
    assert.strictEqual(json.ok, false);
    assert.strictEqual(json.error.kind, 'cancelled');
    assert.strictEqual(json.resumable, true);
    assert.match(stderr, /cape resume --workspace .* --task task-42/);
    assert.strictEqual(fake.requests.length, 2, 'no request after Ctrl-C');
    assert.deepStrictEqual(listFiles(path.join(ws, 'cape/5_sessions/pair')).map((f) => f.replace(/_\d+\.json$/, '')), [`${TASK}_1_CM`]);

    fake.enqueue({ text: r[1] }, { text: r[2] }, { text: r[3] }, { text: r[4] });
    const resumed = await runCli(['resume', '--workspace', ws, '--task', TASK, '--json'], env());
    assert.strictEqual(resumed.code, 0, resumed.stderr);
    assert.strictEqual(fake.requests.length, 6, 'resume ran the four remaining steps');
  });

  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    it(`${signal} (${signal === 'SIGTERM' ? 'kill' : 'a closed terminal'}) stops the session as Ctrl-C does: resumable, exit code 130`, async () => {
      const ws = demoWorkspace();
      fake.enqueue({ text: demoReplies(TASK)[0] }, { text: demoReplies(TASK)[1], holdAfterChars: 100 });
      const { code, stderr, json } = await stopMidStream(ws, signal);
      assert.strictEqual(code, 130, stderr);
      assert.strictEqual(json.error.kind, 'cancelled');
      assert.strictEqual(json.resumable, true);
    });
  }

  it('a bad API key fails at once with a message that says so, and is not retried', async () => {
    const ws = demoWorkspace();
    const run = await start(ws, [], 'wrong-key');
    assert.strictEqual(run.code, 1);
    assert.match(run.stderr, /API key/i);
    assert.match(run.stderr, /401/);
    assert.strictEqual(fake.requests.length, 1);
    assert.strictEqual(run.json.ok, false);
    assert.strictEqual(run.json.error.kind, 'auth');
  });

  it('no key and a non-loopback base URL is a usage error, before any request', async () => {
    const ws = demoWorkspace();
    const run = await runCli(['start', '--workspace', ws, '--objective', 'x', '--base-url', 'https://api.example.invalid'], {});
    assert.strictEqual(run.code, 2);
    assert.match(run.stderr, /--api-key|ANTHROPIC_API_KEY/);
  });

  it('a missing cape/ folder says how to create it', async () => {
    const ws = tempDir('cape-empty-');
    const run = await start(ws);
    assert.strictEqual(run.code, 1);
    assert.match(run.stderr, /cape init/);
    assert.strictEqual(fake.requests.length, 0);
  });

  it('recovers from 429 (retry-after), a mid-stream overloaded error and a connection reset', async () => {
    const ws = demoWorkspace();
    const r = demoReplies(TASK);
    fake.enqueue(
      { fault: 'http', status: 429, retryAfter: 0.05 },
      { text: r[0] },
      { fault: 'midstream-error', afterChars: 120, errorType: 'overloaded_error', text: r[1] },
      { text: r[1] },
      { fault: 'reset', afterChars: 200, text: r[2] },
      { text: r[2] },
      { text: r[3] },
      { text: r[4] },
    );
    const run = await start(ws);
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 8);
    assert.match(run.stderr, /retrying/);
    // The retried step streamed its voice again from the start, and only the final text was saved.
    const pair = listFiles(path.join(ws, 'cape/5_sessions/pair'));
    const poa = JSON.parse(fs.readFileSync(path.join(ws, 'cape/5_sessions/pair', pair.find((p) => p.includes('_2_POA_'))!), 'utf8'));
    assert.strictEqual(poa.raw, r[1]);
  });

  it('a stream that stalls after the first bytes is abandoned after --idle-timeout and retried', async () => {
    const ws = demoWorkspace();
    const r = demoReplies(TASK);
    fake.enqueue({ text: r[0] }, { fault: 'stall', afterChars: 80, text: r[1] }, { text: r[1] }, { text: r[2] }, { text: r[3] }, { text: r[4] });
    // 2 s: long enough that a loaded machine's scheduling gaps never look like a stall in the healthy steps.
    const run = await start(ws, ['--idle-timeout', '2']);
    assert.strictEqual(run.code, 0, run.stderr);
    assert.match(run.stderr, /no data|stall/i);
    assert.strictEqual(fake.requests.length, 6);
  });

  it('a malformed or executable cape/ file is skipped with a warning naming it; the session still runs', async () => {
    const ws = demoWorkspace();
    fs.writeFileSync(path.join(ws, 'cape/2_design/2_brand.md'), '---\ntype: input\ncolors: [unclosed\n---\n# Brand\n');
    const marker = path.join(ws, 'pwned.txt');
    fs.writeFileSync(path.join(ws, 'cape/1_product/1_mvv.md'), `---js\nrequire('fs').writeFileSync(${JSON.stringify(marker)}, 'x'); ({type: 'input'})\n---\n# MVV\n`);
    fs.rmSync(path.join(ws, 'cape/1_product/2_persona.md'));
    for (const t of demoReplies(TASK)) fake.enqueue({ text: t });
    const run = await start(ws);
    assert.strictEqual(run.code, 0, run.stderr);
    assert.match(run.stderr, /cape\/2_design\/2_brand\.md:\d+ was skipped/);
    assert.match(run.stderr, /cape\/1_product\/1_mvv\.md.* was skipped/);
    assert.match(run.stderr, /cape\/1_product\/2_persona\.md is missing/);
    assert.ok(!fs.existsSync(marker), 'js frontmatter is never evaluated');
    assert.ok(!JSON.stringify(fake.requests[1].body).includes('writeFileSync'), 'the refused file is not sent to the model');
  });

  it('a malformed reply gets exactly one repair request quoting the error, then succeeds', async () => {
    const ws = demoWorkspace();
    const r = demoReplies(TASK);
    const broken = r[1].replace('"voice":', '"voyce":');
    fake.enqueue({ text: r[0] }, { text: broken }, { text: r[1] }, { text: r[2] }, { text: r[3] }, { text: r[4] });
    const run = await start(ws);
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 6);
    const repair = fake.requests[2].body.messages;
    assert.strictEqual(repair.length, 3, 'the repair request carries the bad reply and the correction request');
    assert.strictEqual(repair[1].role, 'assistant');
    assert.match(repair[2].content, /voice/);
  });

  it('a reply still cut at max_tokens after two continuations fails clearly and keeps the raw text on disk', async () => {
    const ws = demoWorkspace();
    const r = demoReplies(TASK);
    const part = (i: number) => ({ text: Array.from(r[1]).slice(i * 300, (i + 1) * 300).join(''), stopReason: 'max_tokens' });
    fake.enqueue({ text: r[0] }, part(0), part(1), part(2));
    const run = await start(ws);
    assert.strictEqual(run.code, 1);
    assert.strictEqual(fake.requests.length, 4, 'the reply and two continuations, no more');
    assert.strictEqual(run.json.error.kind, 'invalid_reply');
    assert.match(run.json.error.message, /still cut off at the output limit .* after 2 continuations/);
    assert.match(run.stderr, /saved in/);
    const saved = listFiles(path.join(ws, 'cape/5_sessions')).filter((f) => /POA/.test(f) && !f.endsWith('.json'));
    assert.ok(saved.length >= 1, `raw reply kept: ${listFiles(path.join(ws, 'cape/5_sessions')).join(', ')}`);
    assert.strictEqual(fs.readFileSync(path.join(ws, 'cape/5_sessions', saved[0]), 'utf8'), truncated(r[1], 900));
    // The CM opening is on disk, so the session can be resumed.
    assert.strictEqual(listFiles(path.join(ws, 'cape/5_sessions/pair')).length, 1);
    assert.match(run.stderr, /cape resume --workspace/);
  });

  it('hostile <file> paths are refused with reasons; --apply writes only the safe files inside the workspace', async () => {
    const ws = demoWorkspace();
    const outside = tempDir('cape-outside-');
    fs.symlinkSync(outside, path.join(ws, 'linked'));
    const r = demoReplies(TASK);
    const hostile = [
      '../escape.txt',
      '/etc/cape-pwned',
      'C:\\Windows\\cape.txt',
      '\\\\server\\share\\x.txt',
      '.git/config',
      'cape/5_sessions/retrospective/kpt_merged.md',
      'linked/escape.txt',
      'src/../../escape2.txt',
    ];
    const deva = r[3].replace('<summary>', hostile.map((p) => `<file path="${p}">pwned</file>\n`).join('') + '<summary>');
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: deva }, { text: r[4] });
    const run = await start(ws, ['--apply']);
    assert.strictEqual(run.code, 0, run.stderr);
    const files: any[] = run.json.files;
    for (const p of hostile) {
      const f = files.find((x) => x.path === p);
      assert.ok(f, `missing entry for ${p}`);
      assert.strictEqual(f.status, 'refused', `${p} must be refused`);
      assert.ok(f.reason && f.reason.length > 5, `${p} has a reason`);
    }
    assert.deepStrictEqual(
      files.filter((f) => f.status === 'applied').map((f) => f.path).sort(),
      ['index.html', 'src/styles.css', 'src/theme.js'],
    );
    assert.match(fs.readFileSync(path.join(ws, 'src/theme.js'), 'utf8'), /pocket-notes-theme/);
    assert.deepStrictEqual(fs.readdirSync(outside), [], 'nothing written through the symlink');
    assert.ok(!fs.existsSync(path.join(path.dirname(ws), 'escape.txt')));
    assert.ok(!fs.readFileSync(path.join(ws, 'cape/5_sessions/retrospective/kpt_merged.md'), 'utf8').includes('pwned'));
  });

  it('without --apply nothing is written outside cape/, and modify entries carry the current content', async () => {
    const ws = demoWorkspace();
    const before = fs.readFileSync(path.join(ws, 'index.html'), 'utf8');
    for (const t of demoReplies(TASK)) fake.enqueue({ text: t });
    const run = await start(ws);
    assert.strictEqual(run.code, 0, run.stderr);
    assert.deepStrictEqual(
      run.json.files.map((f: any) => [f.path, f.action, f.status]),
      [
        ['src/theme.js', 'create', 'proposed'],
        ['src/styles.css', 'modify', 'proposed'],
        ['index.html', 'modify', 'proposed'],
      ],
    );
    assert.strictEqual(fs.readFileSync(path.join(ws, 'index.html'), 'utf8'), before);
    assert.ok(!fs.existsSync(path.join(ws, 'src/theme.js')));
    assert.match(run.stderr, /--apply/);
  });

  it('resume --apply writes no proposal over a file changed or created since DevA proposed it; the others are written', async () => {
    const ws = demoWorkspace();
    const r = demoReplies(TASK);
    for (const t of r) fake.enqueue({ text: t });
    const first = await start(ws);
    assert.strictEqual(first.code, 0, first.stderr);
    // after the session, before its --apply: the user edits index.html and creates src/theme.js
    const edited = fs.readFileSync(path.join(ws, 'index.html'), 'utf8') + '<!-- my own change -->\n';
    fs.writeFileSync(path.join(ws, 'index.html'), edited);
    fs.writeFileSync(path.join(ws, 'src/theme.js'), '// mine\n');
    fake.enqueue({ text: r[4] });
    const run = await runCli(['resume', '--workspace', ws, '--task', TASK, '--from-step', 'cm_retro', '--apply', '--json'], env());
    assert.strictEqual(run.code, 0, run.stderr);
    assert.deepStrictEqual(
      run.json.files.map((f: any) => [f.path, f.status]),
      [
        ['src/theme.js', 'refused'],
        ['src/styles.css', 'applied'],
        ['index.html', 'refused'],
      ],
    );
    const reasons = run.json.files.map((f: any) => f.reason ?? '').join('\n');
    assert.match(reasons, /src\/theme\.js was created on disk after DevA proposed it/);
    assert.match(reasons, /index\.html changed on disk since DevA read it/);
    assert.match(run.stderr, /✗ not written index\.html — index\.html changed on disk since DevA read it/, 'the terminal says so too');
    assert.match(run.stderr, /✓ wrote src\/styles\.css/);
    assert.strictEqual(fs.readFileSync(path.join(ws, 'index.html'), 'utf8'), edited, "the user's change is kept");
    assert.strictEqual(fs.readFileSync(path.join(ws, 'src/theme.js'), 'utf8'), '// mine\n');
  });

  it("--apply of a whole <file> over an existing file keeps the file's CRLF line breaks and byte-order mark", async () => {
    const ws = demoWorkspace();
    const html = path.join(ws, 'index.html');
    const css = path.join(ws, 'src/styles.css');
    fs.writeFileSync(html, fs.readFileSync(html, 'utf8').replace(/\r?\n/g, '\r\n'));
    fs.writeFileSync(css, '\uFEFF' + fs.readFileSync(css, 'utf8'));
    for (const t of demoReplies(TASK)) fake.enqueue({ text: t });
    const run = await start(ws, ['--apply']);
    assert.strictEqual(run.code, 0, run.stderr);
    assert.deepStrictEqual(run.json.files.map((f: any) => f.status), ['applied', 'applied', 'applied']);
    const written = fs.readFileSync(html, 'utf8');
    assert.match(written, /data-theme|theme/, 'the proposal was written');
    assert.ok(!/(^|[^\r])\n/.test(written), 'every line of index.html still ends with CRLF');
    assert.ok(fs.readFileSync(css, 'utf8').startsWith('\uFEFF'), 'styles.css keeps its byte-order mark');
    assert.ok(!fs.readFileSync(path.join(ws, 'src/theme.js'), 'utf8').includes('\r'), 'a new file is written as proposed');
  });

  it('init from an answers file generates the input files in parallel and copies the generic templates', async () => {
    const ws = tempDir('cape-init-');
    fake.setResponder((req) => {
      if (isDecisionsRequest(req.body)) return { text: demoDecisions() };
      const text = JSON.stringify(req.body.messages);
      const m = /(\d_[a-z]+\/\d_[a-z_]+\.md)/.exec(text);
      return { text: demoInputFile(m ? m[1] : '1_product/1_mvv.md', demoAnswers()) };
    });
    const run = await runCli(['init', '--workspace', ws, '--answers', path.join(demoDir(), 'answers.json'), '--json'], env());
    assert.strictEqual(run.code, 0, run.stderr);
    const files = listFiles(path.join(ws, 'cape'));
    assert.ok(files.includes('0_team/3_dor.md') && files.includes('1_product/1_mvv.md') && files.includes('3_development/1_architecture.md'), files.join(', '));
    assert.match(fs.readFileSync(path.join(ws, 'cape/1_product/1_mvv.md'), 'utf8'), /type: input/);
    assert.strictEqual(fake.requests.length, 10, 'the shared decisions, then one request per input file');
    // A second init refuses to overwrite silently.
    const again = await runCli(['init', '--workspace', ws, '--answers', path.join(demoDir(), 'answers.json')], env());
    assert.notStrictEqual(again.code, 0);
    assert.match(again.stderr, /exist/i);
  });

  it('init without --answers and without a terminal fails instead of waiting for input', async () => {
    const ws = tempDir('cape-init-');
    const run = await runCli(['init', '--workspace', ws], env());
    assert.strictEqual(run.code, 2);
    assert.match(run.stderr, /--answers/);
  });
});
