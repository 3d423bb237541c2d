// The fake Messages API itself: wire format, errors, cache accounting, replay and the CLI entry.
import * as assert from 'assert';
import { spawn, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { FakeAnthropic, minCacheableTokensFor, replayResponder, startFakeAnthropic, truncated } from '../fake-anthropic';
import { loadRecordedSessions, repoRoot } from '../helpers/fixtures';

const HEADERS = { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'k' };

function body(over: Record<string, unknown> = {}) {
  return {
    model: 'claude-sonnet-4-6',
    max_tokens: 100,
    system: [{ type: 'text', text: 'S'.repeat(400), cache_control: { type: 'ephemeral' } }, { type: 'text', text: 'role' }],
    messages: [{ role: 'user', content: 'question' }],
    ...over,
  };
}

async function post(url: string, b: unknown, headers: Record<string, string> = HEADERS) {
  return fetch(url + '/v1/messages', { method: 'POST', headers, body: JSON.stringify(b) });
}

interface Frame {
  event: string;
  data: any;
}

/** Parses an SSE body strictly: every frame must have exactly one event line and one data line. */
function parseSse(text: string): Frame[] {
  return text
    .split('\n\n')
    .filter((f) => f.trim() !== '')
    .map((f) => {
      const lines = f.split('\n');
      assert.strictEqual(lines.length, 2, `frame should have an event and a data line: ${JSON.stringify(f)}`);
      assert.ok(lines[0].startsWith('event: '), f);
      assert.ok(lines[1].startsWith('data: '), f);
      const data = JSON.parse(lines[1].slice(6));
      const event = lines[0].slice(7);
      assert.strictEqual(data.type, event, 'data.type matches the event name');
      return { event, data };
    });
}

/**
 * Reads a streamed response as it arrives: `got()` is the text so far; `until(test)` resolves true once the text so
 * far passes `test`, false if the stream ends first; `end` says how it ended: by itself, or dropped by the server.
 */
function streamed(res: Response) {
  const reader = res.body!.getReader();
  let got = '';
  const waiting = new Set<() => void>();
  const end = (async (): Promise<'ended' | 'dropped'> => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return 'ended';
        got += Buffer.from(value).toString('utf8');
        for (const w of waiting) w();
      }
    } catch {
      return 'dropped';
    }
  })();
  const until = (test: (text: string) => boolean): Promise<boolean> =>
    test(got)
      ? Promise.resolve(true)
      : Promise.race([
          end.then(() => test(got)),
          new Promise<boolean>((resolve) => {
            const w = () => test(got) && (waiting.delete(w), resolve(true));
            waiting.add(w);
          }),
        ]);
  return { got: () => got, until, end };
}

describe('fake Anthropic Messages API', () => {
  let fake: FakeAnthropic;
  before(async () => {
    fake = await startFakeAnthropic({ chunkSize: 5 });
  });
  afterEach(() => fake.reset());
  after(() => fake.close());

  it('streams the real SSE event sequence with usage and text deltas', async () => {
    const text = 'こんにちは、世界 🌏! Streaming works.';
    fake.enqueue({ text });
    const res = await post(fake.url, body({ stream: true }));
    assert.strictEqual(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.ok(res.headers.get('request-id'));
    const frames = parseSse(await res.text());
    const events = frames.map((f) => f.event);
    assert.deepStrictEqual(events.slice(0, 3), ['message_start', 'content_block_start', 'ping']);
    assert.deepStrictEqual(events.slice(-3), ['content_block_stop', 'message_delta', 'message_stop']);
    const start = frames[0].data.message;
    assert.match(start.id, /^msg_/);
    assert.strictEqual(start.model, 'claude-sonnet-4-6');
    for (const k of ['input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens']) {
      assert.strictEqual(typeof start.usage[k], 'number', k);
    }
    const deltas = frames.filter((f) => f.event === 'content_block_delta').map((f) => f.data.delta);
    assert.ok(deltas.every((d) => d.type === 'text_delta'));
    assert.ok(deltas.every((d) => Array.from(d.text as string).length <= 5), 'chunks respect chunkSize in code points');
    assert.strictEqual(deltas.map((d) => d.text).join(''), text);
    const md = frames.find((f) => f.event === 'message_delta')!.data;
    assert.strictEqual(md.delta.stop_reason, 'end_turn');
    assert.strictEqual(md.usage.output_tokens, Math.ceil(text.length / 4));
  });

  it('answers non-streaming requests with a JSON message', async () => {
    fake.enqueue({ text: 'plain', usage: { output_tokens: 9 } });
    const res = await post(fake.url, body());
    assert.strictEqual(res.status, 200);
    const msg = (await res.json()) as any;
    assert.strictEqual(msg.type, 'message');
    assert.strictEqual(msg.role, 'assistant');
    assert.deepStrictEqual(msg.content, [{ type: 'text', text: 'plain' }]);
    assert.strictEqual(msg.usage.output_tokens, 9);
  });

  it('records requests with parsed body, headers and the key', async () => {
    fake.enqueue({ text: 'x' });
    await post(fake.url, body(), { ...HEADERS, 'x-api-key': '', authorization: 'Bearer sk-bearer' });
    const r = fake.requests[0];
    assert.strictEqual(r.apiKey, 'sk-bearer');
    assert.strictEqual(r.model, 'claude-sonnet-4-6');
    assert.strictEqual(r.maxTokens, 100);
    assert.deepStrictEqual(r.messages, [{ role: 'user', content: 'question' }]);
    assert.strictEqual((r.system as any[])[1].text, 'role');
    assert.strictEqual(r.headers['anthropic-version'], '2023-06-01');
  });

  it('reports cache creation, then cache reads for an identical cached prefix only', async () => {
    fake.setResponder(() => ({ text: 'ok' }));
    const usage = async (b: unknown) => ((await (await post(fake.url, b)).json()) as any).usage;
    // 4,400 characters = 1,100 estimated tokens: above Sonnet 4.x's minimum of 1,024.
    const big = (c: string) => [{ type: 'text', text: c.repeat(4400), cache_control: { type: 'ephemeral' } }, { type: 'text', text: 'role' }];
    const first = await usage(body({ system: big('S') }));
    const second = await usage(body({ system: big('S'), messages: [{ role: 'user', content: 'another' }] }));
    const changed = await usage(body({ system: big('T') }));
    const otherModel = await usage(body({ system: big('S'), model: 'claude-opus-4-1' }));
    assert.strictEqual(first.cache_creation_input_tokens, 1100);
    assert.deepStrictEqual(first.cache_creation, { ephemeral_5m_input_tokens: 1100, ephemeral_1h_input_tokens: 0 });
    assert.strictEqual(first.cache_read_input_tokens, 0);
    assert.strictEqual(second.cache_read_input_tokens, 1100);
    assert.strictEqual(second.cache_creation_input_tokens, 0);
    assert.ok(second.input_tokens > 0 && second.input_tokens < 10);
    assert.strictEqual(changed.cache_read_input_tokens, 0);
    assert.strictEqual(changed.cache_creation_input_tokens, 1100);
    assert.strictEqual(otherModel.cache_read_input_tokens, 0, 'the cache is per model');
  });

  it("a tool loop that marks its last message each turn reads the prefix the turn before cached there (the API's 20-block lookback)", async () => {
    fake.setResponder(() => ({ text: 'ok' }));
    const usage = async (b: unknown) => ((await (await post(fake.url, b)).json()) as any).usage;
    const marked = (text: string) => ({ role: 'user', content: [{ type: 'text', text, cache_control: { type: 'ephemeral' } }] });
    const plain = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] });
    // the first turn: 4,400 characters of workspace (1,100 tokens), marked
    const work = 'W'.repeat(4400);
    const tools = [{ name: 'read_file', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }];
    const first = await usage(body({ system: 'rules', tools, messages: [marked(work)] }));
    assert.ok(first.cache_creation_input_tokens >= 1100, `${first.cache_creation_input_tokens}`);
    // the next turn: the call and its result after it, the mark moved to the result
    const call = { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'a.js' } }] };
    const result = (text: string, mark: boolean) => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: text, ...(mark ? { cache_control: { type: 'ephemeral' } } : {}) }] });
    const second = await usage(body({ system: 'rules', tools, messages: [plain(work), call, result('R'.repeat(800), true)] }));
    assert.strictEqual(second.cache_read_input_tokens, first.cache_creation_input_tokens, 'the prefix the first turn cached, though no longer marked');
    assert.ok(second.cache_creation_input_tokens > 0 && second.cache_creation_input_tokens < 300, `only the new turn is written: ${second.cache_creation_input_tokens}`);
    // a cached prefix more than 20 blocks before the mark is not looked up
    const many = Array.from({ length: 21 }, (_, i) => plain(`block ${i}`));
    const far = await usage(body({ system: 'rules', tools, messages: [plain(work), ...many, marked('end')] }));
    assert.strictEqual(far.cache_read_input_tokens, 0);
  });

  it('caches nothing below the model\'s minimum prefix (1,024 tokens for Sonnet 4.x, 4,096 for Haiku 4.5 and Opus 4.5/4.6)', async () => {
    fake.setResponder(() => ({ text: 'ok' }));
    const usage = async (b: unknown) => ((await (await post(fake.url, b)).json()) as any).usage;
    const marked = (chars: number) => [{ type: 'text', text: 'P'.repeat(chars), cache_control: { type: 'ephemeral' } }];
    const plain = await usage(body({ system: 'no cache marks here' }));
    assert.strictEqual(plain.cache_creation_input_tokens, 0);
    assert.strictEqual(plain.cache_read_input_tokens, 0);
    // ~940 tokens, the size of the old preamble: the API caches nothing and bills it all as input, again and again.
    for (let i = 0; i < 2; i++) {
      const u = await usage(body({ system: marked(3760) }));
      assert.strictEqual(u.cache_creation_input_tokens, 0, 'a 940-token prefix is below Sonnet\'s minimum');
      assert.strictEqual(u.cache_read_input_tokens, 0);
      assert.ok(u.input_tokens >= 940);
    }
    const sonnet = await usage(body({ system: marked(8000) }));
    assert.strictEqual(sonnet.cache_creation_input_tokens, 2000, '2,000 tokens form a cache on Sonnet 4.6');
    for (const model of ['claude-haiku-4-5-20251001', 'claude-opus-4-6', 'claude-opus-4-5']) {
      const u = await usage(body({ model, system: marked(8000) }));
      assert.strictEqual(u.cache_creation_input_tokens, 0, `2,000 tokens are below ${model}'s minimum of 4,096`);
      const v = await usage(body({ model, system: marked(16400) }));
      assert.strictEqual(v.cache_creation_input_tokens, 4100, `4,100 tokens form a cache on ${model}`);
    }
    assert.strictEqual(minCacheableTokensFor('claude-sonnet-4-5-20250929'), 1024);
    assert.strictEqual(minCacheableTokensFor('claude-opus-4-1'), 1024);
    assert.strictEqual(minCacheableTokensFor('claude-3-5-haiku-latest'), 2048);
    const strict = await startFakeAnthropic({ minCacheableTokens: 10_000 });
    try {
      strict.setResponder(() => ({ text: 'ok' }));
      const v = ((await (await post(strict.url, body({ system: marked(8000) }))).json()) as any).usage;
      assert.strictEqual(v.cache_creation_input_tokens, 0, 'an explicit minimum overrides the table');
    } finally {
      await strict.close();
    }
  });

  it('counts tools in the cached prefix, and refuses more than four marks or a 1-hour mark after a 5-minute one', async () => {
    fake.setResponder(() => ({ text: 'ok' }));
    const tools = [{ name: 'read_file', description: 'D'.repeat(6000), input_schema: { type: 'object' } }];
    const sys = [{ type: 'text', text: 'S'.repeat(400), cache_control: { type: 'ephemeral' } }];
    const a = ((await (await post(fake.url, body({ tools, system: sys }))).json()) as any).usage;
    assert.ok(a.cache_creation_input_tokens > 1500, 'tools + system form the prefix');
    const b = ((await (await post(fake.url, body({ tools: [{ ...tools[0], name: 'other' }], system: sys }))).json()) as any).usage;
    assert.strictEqual(b.cache_read_input_tokens, 0, 'other tools, another prefix');
    const five = Array.from({ length: 5 }, (_, i) => ({ type: 'text', text: `b${i}`, cache_control: { type: 'ephemeral' } }));
    const r1 = await post(fake.url, body({ system: five }));
    assert.strictEqual(r1.status, 400);
    assert.match(((await r1.json()) as any).error.message, /maximum of 4 blocks with cache_control/);
    const mixed = [
      { type: 'text', text: 'a', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'b', cache_control: { type: 'ephemeral', ttl: '1h' } },
    ];
    const r2 = await post(fake.url, body({ system: mixed }));
    assert.strictEqual(r2.status, 400);
    assert.match(((await r2.json()) as any).error.message, /ttl='1h'/);
  });

  it('on the simulated clock a 5-minute entry lives while it is hit, a 1-hour entry survives to the next session', async () => {
    const clocked = await startFakeAnthropic({ simulatedClock: { msPerRequest: 90_000 } });
    try {
      clocked.setResponder(() => ({ text: 'ok' }));
      const usage = async (b: unknown) => ((await (await post(clocked.url, b)).json()) as any).usage;
      const stable5m = { type: 'text', text: 'F'.repeat(8000), cache_control: { type: 'ephemeral' } };
      const stable1h = { type: 'text', text: 'H'.repeat(8000), cache_control: { type: 'ephemeral', ttl: '1h' } };
      // t = 0: both written; the 1-hour one is reported apart.
      const w = await usage(body({ system: [stable1h] }));
      assert.deepStrictEqual(w.cache_creation, { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 2000 });
      await usage(body({ system: [stable5m] })); // t = 1.5 min
      // Hit every 4.5 minutes (3 requests of 1.5 min): the 5-minute entry keeps living.
      for (let i = 0; i < 3; i++) {
        await usage(body({ messages: [{ role: 'user', content: 'x' }] }));
        await usage(body({ messages: [{ role: 'user', content: 'y' }] }));
        const hit = await usage(body({ system: [stable5m] }));
        assert.strictEqual(hit.cache_read_input_tokens, 2000, `hit ${i + 1} within 5 minutes of the last one`);
      }
      assert.strictEqual(clocked.now(), 11 * 90_000);
      clocked.advanceClock(5 * 60_000);
      const expired = await usage(body({ system: [stable5m] }));
      assert.strictEqual(expired.cache_read_input_tokens, 0, 'past 5 minutes without a hit the entry is gone');
      assert.strictEqual(expired.cache_creation_input_tokens, 2000, 'and is written again');
      const later = await usage(body({ system: [stable1h] }));
      assert.strictEqual(later.cache_read_input_tokens, 2000, 'the 1-hour entry is still there 23 minutes later');
      clocked.advanceClock(61 * 60_000);
      const gone = await usage(body({ system: [stable1h] }));
      assert.strictEqual(gone.cache_read_input_tokens, 0, 'an hour without a hit and it is gone too');
      assert.ok(clocked.requests.every((r) => r.usage), 'each request records its input usage');
    } finally {
      await clocked.close();
    }
  });

  it('HTTP faults use the real error shape, status and headers', async () => {
    fake.enqueue({ fault: 'http', status: 429, retryAfter: 3 }, { fault: 'http', status: 529 });
    const r1 = await post(fake.url, body({ stream: true }));
    assert.strictEqual(r1.status, 429);
    assert.strictEqual(r1.headers.get('retry-after'), '3');
    assert.ok(r1.headers.get('request-id'));
    const b1 = (await r1.json()) as any;
    assert.strictEqual(b1.type, 'error');
    assert.strictEqual(b1.error.type, 'rate_limit_error');
    assert.strictEqual(typeof b1.error.message, 'string');
    const r2 = await post(fake.url, body());
    assert.strictEqual(r2.status, 529);
    assert.strictEqual(((await r2.json()) as any).error.type, 'overloaded_error');
  });

  it('rejects a wrong key with 401 when configured with one, and validates the request like the API', async () => {
    const locked = await startFakeAnthropic({ apiKey: 'right' });
    try {
      const r = await post(locked.url, body(), { ...HEADERS, 'x-api-key': 'wrong' });
      assert.strictEqual(r.status, 401);
      assert.strictEqual(((await r.json()) as any).error.type, 'authentication_error');
    } finally {
      await locked.close();
    }
    const noVersion = await post(fake.url, body(), { 'content-type': 'application/json', 'x-api-key': 'k' });
    assert.strictEqual(noVersion.status, 400);
    const noMessages = await post(fake.url, body({ messages: [] }));
    assert.strictEqual(noMessages.status, 400);
    const badJson = await fetch(fake.url + '/v1/messages', { method: 'POST', headers: HEADERS, body: '{oops' });
    assert.strictEqual(badJson.status, 400);
    const other = await fetch(fake.url + '/v1/complete', { method: 'POST', headers: HEADERS, body: '{}' });
    assert.strictEqual(other.status, 404);
  });

  it('answers a clear 500 when nothing is queued', async () => {
    const r = await post(fake.url, body());
    assert.strictEqual(r.status, 500);
    assert.match(((await r.json()) as any).error.message, /enqueue\(\) a reply or setResponder\(\)/);
  });

  it('midstream-error sends text and then an error frame', async () => {
    fake.enqueue({ fault: 'midstream-error', afterChars: 12 });
    const frames = parseSse(await (await post(fake.url, body({ stream: true }))).text());
    const text = frames.filter((f) => f.event === 'content_block_delta').map((f) => f.data.delta.text).join('');
    assert.strictEqual(text.length, 12);
    const last = frames[frames.length - 1];
    assert.strictEqual(last.event, 'error');
    assert.deepStrictEqual(last.data.error.type, 'overloaded_error');
    assert.ok(!frames.some((f) => f.event === 'message_stop'));
  });

  it('stall sends some text then hangs until the client goes away; close() does not wait for it', async () => {
    const own = await startFakeAnthropic();
    own.enqueue({ fault: 'stall', afterChars: 6, text: 'abcdefghij' });
    const stream = streamed(await post(own.url, body({ stream: true })));
    assert.ok(await stream.until((got) => got.includes('"text":"abcdef"')), stream.got());
    // a close() that waited for the stalled stream would never end (the suite's timeout fails the test)
    await own.close();
    assert.strictEqual(await stream.end, 'dropped', 'the stream hung until close() dropped it: it never ended by itself');
    assert.ok(!stream.got().includes('ghij'), stream.got());
    assert.ok(!stream.got().includes('message_stop'), stream.got());
  });

  it('holdAfterChars pauses a stream (with pings) until release(), then it finishes normally', async () => {
    fake.enqueue({ text: 'abcdefghijklmnop', holdAfterChars: 7 });
    const stream = streamed(await post(fake.url, body({ stream: true })));
    // two whole pings after the last text: the stream is held (not held, the rest of it would have come instead)
    const pingsAfterText = (got: string) => got.slice(got.lastIndexOf('event: content_block_delta')).split('event: ping\n').length - 1;
    const held = await stream.until((got) => got.includes('event: content_block_delta') && pingsAfterText(got) >= 2 && got.endsWith('\n\n'));
    assert.ok(held, `the stream waits at the hold point, with pings: ${stream.got()}`);
    const frames = parseSse(stream.got());
    const text = frames.filter((f) => f.event === 'content_block_delta').map((f) => f.data.delta.text).join('');
    assert.strictEqual(text, 'abcdefghij', 'the chunks up to the hold point (chunk size 5) are out, no more');
    fake.release();
    assert.strictEqual(await stream.end, 'ended');
    const all = parseSse(stream.got());
    assert.strictEqual(all.filter((f) => f.event === 'content_block_delta').map((f) => f.data.delta.text).join(''), 'abcdefghijklmnop');
    assert.strictEqual(all[all.length - 1].event, 'message_stop');
  });

  it('reset destroys the connection mid-stream', async () => {
    fake.enqueue({ fault: 'reset', afterChars: 4 });
    const res = await post(fake.url, body({ stream: true }));
    await assert.rejects(res.text());
  });

  it('replayResponder serves replies in order, then a clear 500', async () => {
    fake.setResponder(replayResponder(['one', { text: 'two' }]));
    const texts: string[] = [];
    for (let i = 0; i < 2; i++) texts.push((((await (await post(fake.url, body())).json()) as any).content[0].text));
    assert.deepStrictEqual(texts, ['one', 'two']);
    const r = await post(fake.url, body());
    assert.strictEqual(r.status, 500);
    assert.match(((await r.json()) as any).error.message, /all 2 scripted replies have been used/);
  });

  it('enqueue rejects something that is not a reply', () => {
    assert.throws(() => fake.enqueue({ fault: 'explode' } as any), /not a FakeReply/);
  });

  it('truncated() cuts by code points', () => {
    assert.strictEqual(truncated('a🎉b', 2), 'a🎉');
    assert.strictEqual(truncated('abc', 10), 'abc');
  });
});

describe('fake Anthropic CLI', () => {
  const cli = path.join(repoRoot(), 'out', 'test', 'fake-anthropic', 'cli.js');
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const c of children.splice(0)) c.kill('SIGTERM');
  });

  function start(args: string[]): Promise<string> {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    return new Promise((resolve, reject) => {
      let out = '';
      let err = '';
      child.stdout!.on('data', (d) => {
        out += d;
        const m = /FAKE_ANTHROPIC_URL=(\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.stderr!.on('data', (d) => (err += d));
      child.on('exit', (code) => reject(new Error(`fake CLI exited with ${code}: ${err}`)));
    });
  }

  const textOf = async (url: string) => {
    const r = await post(url, body());
    const j = (await r.json()) as any;
    return r.status === 200 ? j.content[0].text : `${r.status}:${j.error.message}`;
  };

  it('serves a script of texts and faults, with --loop', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-cli-'));
    const script = path.join(dir, 'script.json');
    fs.writeFileSync(script, JSON.stringify(['first', { fault: 'http', status: 529 }, { text: 'third' }]));
    const url = await start(['--script', script, '--loop']);
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.strictEqual(await textOf(url), 'first');
    assert.match(await textOf(url), /^529:/);
    assert.strictEqual(await textOf(url), 'third');
    assert.strictEqual(await textOf(url), 'first', '--loop starts again');
  });

  it('replays the raw replies of a recorded session in order, then answers a clear 500', async () => {
    const session = loadRecordedSessions().find((s) => s.steps.length >= 2);
    assert.ok(session, 'a recorded session with steps');
    const url = await start(['--replay', session.file]);
    for (const step of session.steps) assert.strictEqual(await textOf(url), step.raw);
    assert.match(await textOf(url), /^500:.*scripted replies have been used/);
  });

  it('exits with a clear message on a bad script', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-cli-'));
    const script = path.join(dir, 'bad.json');
    fs.writeFileSync(script, JSON.stringify({ not: 'an array' }));
    await assert.rejects(start(['--script', script]), /must be a JSON array/);
  });
});
