// The CLI's messages about odd replies (issue 7 item 15), through the real SDK and the fake server: invalid JSON is
// quoted where it broke (line, column, a marked excerpt), JSON nested too deep where it gets too deep, and a reply with
// two envelopes uses the last complete one and says so (stderr, --json warnings, the pair artifact); a refused reply is
// said to be one.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { listFiles, runCli, workspaceWithOriginalCape } from '../helpers/cli';
import { demoDir, demoReplies } from '../helpers/demo';
import { ERROR_MARK } from '../../src/core/reply/locate';

const TASK = 'task-15';

const demoWorkspace = () => workspaceWithOriginalCape('cape-replies-', path.join(demoDir(), 'workspace'));

describe('CLI messages about odd replies', function () {
  this.timeout(90000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 128 }, (f) => (fake = f));

  const start = (ws: string) =>
    runCli(['start', '--workspace', ws, '--objective', 'Add a dark mode', '--task', TASK, '--json'], { ANTHROPIC_BASE_URL: fake.url });

  /** POA's demo reply with a mistake no repair can fix, far from the start of the object. */
  const brokenPoa = (poa: string) => poa.replace('"business_value":', '"business_value": :');

  it('invalid JSON: the repair request and the failure quote the text around the error, with its line and column', async () => {
    const ws = demoWorkspace();
    const r = demoReplies(TASK);
    fake.enqueue({ text: r[0] }, { text: brokenPoa(r[1]) }, { text: brokenPoa(r[1]) });
    const run = await start(ws);
    assert.strictEqual(run.code, 1, run.stderr);
    assert.strictEqual(fake.requests.length, 3, 'the opening, the reply and one repair request');
    const line = brokenPoa(r[1]).split('\n').findIndex((l) => l.includes('"business_value": :')) + 1;
    const column = brokenPoa(r[1]).split('\n')[line - 1].indexOf(': :') + 3;
    const expected = new RegExp(`not valid JSON \\(value expected\\) at line ${line}, column ${column} of the reply, near: "…[^⟪]*"business_value": ${ERROR_MARK}: "Users who write`);
    // What the model is told in the repair request …
    const repair = fake.requests[2].body.messages;
    assert.match(repair[repair.length - 1].content, expected);
    // … what the user sees while it runs, and the final error.
    assert.match(run.stderr, expected);
    assert.strictEqual(run.json.error.kind, 'invalid_reply');
    assert.match(run.json.error.message, expected);
    assert.ok(!/near: "\{/.test(run.json.error.message), 'the excerpt is not the start of the object');
  });

  it('a reply nested 50,000 deep is an unreadable reply: one repair request saying so, both replies kept, the session resumable', async () => {
    const ws = demoWorkspace();
    const r = demoReplies(TASK);
    // POA's reply as it should be, but for one more part of its output nested 50,000 deep
    const deep = r[1].replace('"output": {', `"output": {"notes": ${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}, `);
    assert.notStrictEqual(deep, r[1]);
    fake.enqueue({ text: r[0] }, { text: deep }, { text: deep });
    const run = await start(ws);
    assert.strictEqual(run.code, 1, run.stderr);
    assert.strictEqual(fake.requests.length, 3, 'the opening, the reply and one repair request');
    const expected = /the JSON envelope nests deeper than 64 levels at line 7, column 333 of the reply, near: "…(\{"a":)+⟪HERE⟫(\{"a":)+…"/;
    const repair = fake.requests[2].body.messages;
    assert.strictEqual(repair[repair.length - 2].content, deep, 'the repair request carries the reply as it came');
    assert.match(repair[repair.length - 1].content, expected);
    assert.match(run.stderr, expected);
    assert.strictEqual(run.json.error.kind, 'invalid_reply');
    assert.match(run.json.error.message, expected);
    assert.strictEqual(run.json.resumable, true);
    // nothing is lost: both replies are kept as they came, and the opening's record stays
    const failed = listFiles(path.join(ws, 'cape/5_sessions/failed'));
    assert.strictEqual(failed.length, 1);
    assert.strictEqual(fs.readFileSync(path.join(ws, 'cape/5_sessions/failed', failed[0]), 'utf8'), `${deep}\n\n----- repair reply -----\n\n${deep}`);
    assert.strictEqual(listFiles(path.join(ws, 'cape/5_sessions/pair')).length, 1);

    fake.enqueue({ text: r[1] }, { text: r[2] }, { text: r[3] }, { text: r[4] });
    const resumed = await runCli(['resume', '--workspace', ws, '--task', TASK, '--json'], { ANTHROPIC_BASE_URL: fake.url });
    assert.strictEqual(resumed.code, 0, resumed.stderr);
    assert.strictEqual(listFiles(path.join(ws, 'cape/5_sessions/pair')).length, 5);
  });

  it('two envelopes in one reply: the last complete one is used and a warning says so (stderr, --json, pair artifact)', async () => {
    const ws = demoWorkspace();
    const r = demoReplies(TASK);
    const corrected = r[1].replace('"in_scope": ["', '"in_scope": ["CORRECTED SCOPE. ').replace(/"voice": "/, '"voice": "CORRECTED VOICE. ');
    assert.strictEqual(corrected.split('CORRECTED').length, 3);
    fake.enqueue({ text: r[0] }, { text: `${r[1]}\n\nSorry, one correction — here is the whole reply again:\n\n${corrected}` }, { text: r[2] }, { text: r[3] }, { text: r[4] });
    const run = await start(ws);
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 5, 'no repair request');
    const warning = /The reply contains 2 JSON envelopes; the last complete one \(line \d+\) was used and the earlier one \(line 2\) ignored\./;
    assert.match(run.stderr, new RegExp(`⚠ ${warning.source}`));
    // the first envelope's voice streamed; the one used is shown after the warning, once
    assert.match(run.stderr, new RegExp(`⚠ ${warning.source}\\n  The voice of the envelope used:\\nCORRECTED VOICE\\. `));
    assert.strictEqual(run.stderr.split('CORRECTED VOICE.').length, 2, run.stderr);
    assert.ok(run.json.warnings.some((w: string) => warning.test(w) && /Product Owner|POA/.test(w)), JSON.stringify(run.json.warnings));
    // DA works from the corrected envelope.
    const da = JSON.stringify(fake.requests[2].body.messages);
    assert.ok(da.includes('CORRECTED SCOPE.'), 'DA receives the last envelope');
    const pair = listFiles(path.join(ws, 'cape/5_sessions/pair')).find((f) => /_2_POA_/.test(f));
    assert.ok(pair, 'POA pair artifact');
    const record = JSON.parse(fs.readFileSync(path.join(ws, 'cape/5_sessions/pair', pair!), 'utf8'));
    assert.match(record.envelope.output.scope.in_scope[0], /^CORRECTED SCOPE\./);
    assert.strictEqual(record.warnings.length, 1);
    assert.match(record.warnings[0], warning);
    // A reply with one envelope has no warning.
    const other = listFiles(path.join(ws, 'cape/5_sessions/pair')).filter((f) => f !== pair);
    for (const f of other) assert.strictEqual(JSON.parse(fs.readFileSync(path.join(ws, 'cape/5_sessions/pair', f), 'utf8')).warnings, undefined, f);
  });

  it('a refusal (stop_reason "refusal") fails the step saying so, without a repair request that repeats the refused turn', async () => {
    const ws = demoWorkspace();
    const r = demoReplies(TASK);
    // the API's safety classifier can stop a reply at any point: here after the start of the envelope
    fake.enqueue({ text: r[0] }, { text: r[1].slice(0, 200), stopReason: 'refusal' }, { text: r[1] });
    const run = await start(ws);
    assert.strictEqual(run.code, 1, run.stderr);
    assert.strictEqual(fake.requests.length, 2, 'the refused conversation is not continued');
    assert.strictEqual(run.json.error.step, 'poa');
    assert.match(run.json.error.message, /POA's reply was refused by the model \(stop_reason "refusal"\)/);
    assert.ok(!/max_tokens|no JSON envelope|cut off/.test(run.json.error.message), run.json.error.message);
    assert.strictEqual(run.json.resumable, true);
    // what it wrote before it stopped is kept, and the completed opening stays
    const failed = listFiles(path.join(ws, 'cape/5_sessions/failed'));
    assert.strictEqual(failed.length, 1);
    assert.strictEqual(fs.readFileSync(path.join(ws, 'cape/5_sessions/failed', failed[0]), 'utf8'), r[1].slice(0, 200));
    assert.match(run.json.error.message, new RegExp(`saved in cape/5_sessions/failed/${failed[0]}`));
    assert.strictEqual(listFiles(path.join(ws, 'cape/5_sessions/pair')).length, 1);

    // a refused repair request: the unusable first reply is kept with it
    fake.reset();
    const ws2 = demoWorkspace();
    fake.enqueue({ text: r[0] }, { text: brokenPoa(r[1]) }, { text: '', stopReason: 'refusal' });
    const again = await start(ws2);
    assert.strictEqual(fake.requests.length, 3, 'the opening, the reply and its repair request');
    assert.match(again.json.error.message, /POA's reply was refused by the model \(stop_reason "refusal"\), so there is no reply to use\. The raw replies are saved in cape\/5_sessions\/failed\//);
    const kept = listFiles(path.join(ws2, 'cape/5_sessions/failed'));
    assert.strictEqual(fs.readFileSync(path.join(ws2, 'cape/5_sessions/failed', kept[0]), 'utf8'), `${brokenPoa(r[1])}\n\n----- repair reply -----\n\n`);
  });
});
