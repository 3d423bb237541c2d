// The trial relay: requests become readable files, reply files are streamed back, pings keep a waiting client alive.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic';
import { relayResponder, renderRequest } from '../fake-anthropic/relay';
import { AnthropicClient } from '../../src/core/llm/anthropic/client';

async function waitFor(file: string, ms = 5000): Promise<string> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8');
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${file} did not appear`);
}

describe('trial relay (fake server in relay mode)', function () {
  this.timeout(15000);
  let fake: FakeAnthropic;
  let dir: string;
  const problems: string[] = [];

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-relay-'));
    problems.length = 0;
    fake = await startFakeAnthropic({ waitPingMs: 50, chunkSize: 8 });
    fake.setResponder(relayResponder({ dir, pollMs: 20, onProblem: (m) => problems.push(m) }));
  });
  afterEach(async () => fake.close());

  const client = () => new AnthropicClient({ apiKey: 'k', baseURL: fake.url, idleTimeoutMs: 300, maxRetries: 0 });
  const request = {
    model: 'claude-sonnet-4-6',
    maxTokens: 1234,
    // Above Sonnet's minimum cacheable prefix (1,024 tokens), so the client keeps the mark.
    system: [{ text: 'SHARED PREAMBLE\n' + 'Protocol and culture. '.repeat(200), cache: '1h' as const }, { text: '# Role: tester\nAnswer ```json``` fences verbatim.' }],
    messages: [{ role: 'user' as const, content: 'the objective' }],
  };

  it('writes the request readably and streams the reply file back, pinging while it waits longer than the idle timeout', async () => {
    const deltas: string[] = [];
    const pending = client().stream(request, (d) => deltas.push(d));
    const req = await waitFor(path.join(dir, '01.request.md'));
    assert.match(req, /max_tokens: 1234/);
    assert.match(req, /## system 1 of 2 \(cached, 1 h\)\n\n`{3,}\nSHARED PREAMBLE/);
    assert.match(req, /Answer ```json``` fences verbatim/);
    assert.match(req, /## message 1 of 1: user\n\n`{3}\nthe objective\n`{3}/);
    // Longer than the client's 300 ms idle timeout: only the pings keep the stream alive.
    await new Promise((r) => setTimeout(r, 700));
    fs.writeFileSync(path.join(dir, '01.reply.md'), 'Hello from the answerer — 日本語も。');
    const res = await pending;
    assert.strictEqual(res.text, 'Hello from the answerer — 日本語も。');
    assert.strictEqual(deltas.join(''), res.text);
    assert.strictEqual(res.stopReason, 'end_turn');
  });

  it('serves a JSON reply file as a reply object and asks again for one that is not', async () => {
    const pending = client().stream(request, () => {});
    await waitFor(path.join(dir, '01.request.md'));
    fs.writeFileSync(path.join(dir, '01.reply.json'), '{"txt": "typo"}');
    const deadline = Date.now() + 3000;
    while (!problems.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.match(problems[0] ?? '', /01\.reply\.json must hold one reply object.*01\.reply\.rejected/);
    assert.ok(fs.existsSync(path.join(dir, '01.reply.rejected')));
    fs.writeFileSync(path.join(dir, '01.reply.json'), JSON.stringify({ text: 'fixed', stopReason: 'max_tokens' }));
    const res = await pending;
    assert.strictEqual(res.text, 'fixed');
    assert.strictEqual(res.stopReason, 'max_tokens');
    // The next request is numbered on.
    const second = client().stream(request, () => {});
    await waitFor(path.join(dir, '02.request.md'));
    fs.writeFileSync(path.join(dir, '02.reply.md'), 'two');
    assert.strictEqual((await second).text, 'two');
  });

  it('renders tool calls and their results as plain text', () => {
    const req = {
      body: {
        model: 'm',
        max_tokens: 10,
        tools: [{ name: 'read_file', description: 'Read a file', input_schema: { type: 'object' } }],
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'src/a.ts' } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'const a = "x";\nexport {};' }] },
        ],
      },
    } as any;
    const text = renderRequest(req, 3);
    assert.match(text, /## tools \(1\)\n\n### read_file\n\nRead a file/);
    assert.match(text, /\[tool_use toolu_1\] read_file \{"path":"src\/a\.ts"\}/);
    assert.match(text, /\[tool_result toolu_1\]\nconst a = "x";\nexport \{\};/);
  });

  it('renders a repair request with every message and role in order', async () => {
    const pending = client().stream(
      {
        ...request,
        messages: [
          { role: 'user', content: 'first' },
          { role: 'assistant', content: 'bad reply' },
          { role: 'user', content: 'please repair' },
        ],
      },
      () => {},
    );
    const req = await waitFor(path.join(dir, '01.request.md'));
    const order = ['message 1 of 3: user', 'first', 'message 2 of 3: assistant', 'bad reply', 'message 3 of 3: user', 'please repair'].map((s) =>
      req.indexOf(s),
    );
    assert.ok(order.every((v, i) => v > 0 && (i === 0 || v > order[i - 1])), order.join(','));
    fs.writeFileSync(path.join(dir, '01.reply.md'), 'ok');
    assert.strictEqual((await pending).text, 'ok');
  });
});
