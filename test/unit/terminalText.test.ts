// Model text never reaches a terminal as commands (text/controls.ts withoutControls): the CLI transcript (voices,
// conversation turns, KPT items, questions), the Cape Master's questions on the terminal, `cape kpt list`, `cape
// repeat`'s runs list, the items kpt_merged.md stores and the dated retrospective file. A reply could write the
// clipboard (OSC 52), clear the screen, erase the "✗ refused" lines above it (CSI) or plant a link (OSC 8).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { PassThrough, Writable } from 'stream';
import { inertLinks, withoutControls } from '../../src/core/text/controls';
import { mergeKptText } from '../../src/core/kpt';
import { printer } from '../../src/cli/printer';
import { askDorQuestions } from '../../src/cli/session';
import { cmdKpt } from '../../src/cli/kpt';
import type { Envelope, SessionEvent, SessionMetrics } from '../../src/core/model/types';
import { cmdRepeat } from '../../src/cli/repeat';
import { AnthropicClient } from '../../src/core/llm/anthropic/client';
import { defaultPromptsDir, loadPromptAssets } from '../../src/core/cape/prompts';
import { runSession } from '../../src/core/session/runner';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useFakeAnthropic } from '../helpers/fakeSuite';
import { workspaceWithOriginalCape } from '../helpers/cli';
import { demoDir, demoReplies } from '../helpers/demo';

const CLIPBOARD = '\u001b]52;c;ZWNobyBwd25lZA==\u0007';
const CLEAR = '\u001b[2J\u001b[H';
const ERASE_ABOVE = '\u001b[1A\u001b[2K';
const LINK = (text: string) => `\u001b]8;;https://evil.example/\u0007${text}\u001b]8;;\u0007`;
/** Any character a terminal could act on: ESC, the other C0 controls but \n and \t, DEL, C1, bidi controls. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

function sink(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  return { stream, text: () => text };
}

describe('model text as text only (text/controls.ts)', () => {
  it('removes escape sequences whole, control and bidi characters; keeps line breaks, tabs, joiners and the words', () => {
    assert.strictEqual(withoutControls(`了解。${CLIPBOARD}${CLEAR}(画面消去)`), '了解。(画面消去)');
    assert.strictEqual(withoutControls(`${ERASE_ABOVE}${ERASE_ABOVE}お疲れさま`), 'お疲れさま');
    assert.strictEqual(withoutControls(LINK('クリック')), 'クリック');
    assert.strictEqual(withoutControls('\u001b]8;;https://x/\u001b\\ST-terminated\u001b]8;;\u001b\\'), 'ST-terminated');
    assert.strictEqual(withoutControls('a\u009b2Jb\u0007c\u0000d\u007fe'), 'a2Jbcde', 'C1 CSI, BEL, NUL, DEL');
    assert.strictEqual(withoutControls('abc\u202Edef\u2066g\u2069\u200Fh'), 'abcdefgh', 'bidi overrides, isolates and marks');
    assert.strictEqual(withoutControls('one\r\ntwo\rthree\n\tfour'), 'one\ntwo\nthree\n\tfour');
    assert.strictEqual(withoutControls('👨‍👩‍👧 and ✔️ stay'), '👨‍👩‍👧 and ✔️ stay');
    // the one list of invisible characters (INVISIBLE_CHARS), which a path name refuses too: word joiner, invisible
    // operators, BOM / zero-width no-break space, zero-width space
    assert.strictEqual(withoutControls('\uFEFFa\u2060b\u2062c\u200Bd'), 'abcd', 'word joiner, invisible times, BOM, zero-width space');
    // an OSC left open ends at the line's end: the lines after it are kept
    assert.strictEqual(withoutControls('before \u001b]0;title\nafter'), 'before \nafter');
    // a sequence cut between two streamed chunks leaves no ESC in either
    const [a, b] = [`ok ${CLIPBOARD}`.slice(0, 8), `ok ${CLIPBOARD}`.slice(8)];
    assert.ok(!UNSAFE.test(withoutControls(a) + withoutControls(b)));
  });

  it('the CLI transcript prints voices, turns, questions and KPT items without them', () => {
    const out = sink();
    const print = printer(out.stream);
    const retro = { agent: 'CM', conversation: [{ speaker: 'CM', text: `${ERASE_ABOVE}お疲れさま` }] } as unknown as Envelope;
    const opening = { agent: 'CM', output: { dor_check: { passed: false, concerns: [`concern${CLEAR}`] }, watch_out: [`watch${CLIPBOARD}`] } } as unknown as Envelope;
    const metrics = { assAverage: null, satisfactionVariance: null, satisfactionTrend: null, crossReferenceFrequency: 0, conversationIndex: 1, totalUsage: { inputTokens: 0, outputTokens: 0 }, totalCostUsd: null, criteria: [] } as unknown as SessionMetrics;
    const events: SessionEvent[] = [
      { type: 'voice-delta', step: 'poa', text: `了解。${CLIPBOARD.slice(0, 6)}` },
      { type: 'voice-delta', step: 'poa', text: `${CLIPBOARD.slice(6)}${CLEAR}(画面消去)\n` },
      { type: 'envelope', step: 'cm_open', envelope: opening, summary: null },
      { type: 'envelope', step: 'cm_retro', envelope: retro, summary: null },
      { type: 'blocker', step: 'deva', from: 'DevA', to: 'DA', round: 1, questions: [`q${ERASE_ABOVE}`], voice: '' },
      { type: 'blocker-answer', step: 'deva', from: 'DA', round: 1, voice: `answer${CLEAR}`, answer: '' },
      { type: 'warning', step: 'deva', message: `warned${CLEAR}` },
      { type: 'error', step: 'deva', kind: 'unknown', message: `failed${ERASE_ABOVE}` },
      {
        type: 'session-finished',
        taskId: 't',
        retrospectivePath: 'r.md',
        kpt: { keep: [LINK('クリック')], problem: [`p${CLEAR}`], try: [] },
        metrics,
        files: [],
        openQuestions: [{ id: 'POA-Q1', from: 'POA', text: `oq${CLIPBOARD}` }],
      },
    ];
    for (const e of events) print(e);
    const text = out.text();
    assert.ok(!UNSAFE.test(text), JSON.stringify(text));
    // a sequence cut between two deltas leaves its payload as inert text
    for (const words of ['了解。', '(画面消去)', 'CM: お疲れさま', '- クリック', 'POA-Q1: oq', 'concern', 'answer', 'failed']) assert.ok(text.includes(words), words);
  });

  it("the Cape Master's questions asked on the terminal are shown without them", async () => {
    const input = new PassThrough();
    const out = sink();
    const asked = askDorQuestions([`Which page?${CLEAR}`], input, out.stream);
    input.end('the list\n');
    assert.deepStrictEqual(await asked, ['the list']);
    assert.ok(!UNSAFE.test(out.text()), JSON.stringify(out.text()));
    assert.ok(out.text().includes('1. Which page?'));
  });

  it('kpt_merged.md stores KPT items without them', () => {
    const merged = mergeKptText('', 'task-esc', { keep: [LINK('クリック')], problem: [`p${ERASE_ABOVE}roblem`], try: [`t\u202Ery`] }, { updatedAt: new Date(2026, 0, 1) });
    assert.ok(!UNSAFE.test(merged), JSON.stringify(merged));
    assert.match(merged, /^- \[task-esc\] クリック$/m);
    assert.match(merged, /^- \[task-esc\] problem$/m);
  });

  it('`cape kpt list` prints an item written before without them', async () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-esc-'));
    const dir = path.join(ws, 'cape', '5_sessions', 'retrospective');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'kpt_merged.md'), `# Accumulated KPT\n\n## Keep\n\n- [task-old] ${LINK('old')}${CLEAR}\n`);
    const out = sink();
    const err = sink();
    assert.strictEqual(await cmdKpt('kpt', ['list', '--workspace', ws], out.stream, err.stream), 0, err.text());
    assert.ok(out.text().includes('[task-old] old'), out.text());
    assert.ok(!UNSAFE.test(out.text()), JSON.stringify(out.text()));
  });
});

describe('model text in a VS Code notification plants no link (text/controls.ts inertLinks)', () => {
  // VS Code's own link rule for notification messages (vs/base/common/linkedText.ts parseLinkedText)
  const VSCODE_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
  it('keeps the words and breaks `[label](command:…)`, `(https://…)` and `(file:…)` links', () => {
    const quoted = 'DevA wrote src/[Apply fix](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D).ts and [docs](https://evil.example) and [x](file:///etc/passwd)';
    assert.strictEqual([...quoted.matchAll(VSCODE_LINK)].length, 3, 'the rule finds the links in the raw text');
    const safe = inertLinks(`CAPE: ${quoted}\u001b[2J`);
    assert.deepStrictEqual([...safe.matchAll(VSCODE_LINK)], []);
    assert.ok(safe.includes('[Apply fix] (command:workbench.action.terminal.sendSequence'), safe);
    assert.ok(!safe.includes('\u001b'));
    assert.strictEqual(inertLinks('arrays like a[0](x) and plain (parentheses)'), 'arrays like a[0] (x) and plain (parentheses)');
  });
});

describe('`cape repeat` prints its runs list and warnings as text only (cli/repeat.ts)', function () {
  this.timeout(60000);
  let fake!: FakeAnthropic;
  useFakeAnthropic({ chunkSize: 512 }, (f) => (fake = f));

  it('the dated retrospective file stores the replies without them (store/retrospectiveMarkdown.ts)', async () => {
    const ws = workspaceWithOriginalCape('cape-retro-esc-', path.join(demoDir(), 'workspace'));
    // the sequences as a model writes them inside its JSON reply: escaped, so JSON.parse makes them real bytes
    const json = (s: string) => JSON.stringify(s).slice(1, -1);
    const replies = demoReplies('task-retro-esc');
    replies[0] = replies[0].replace('"watch_out": [', `"watch_out": ["watch${json(CLIPBOARD)} out",`);
    replies[4] = replies[4]
      .replace('"text": "I flagged', `"text": "Copied${json('\u001b]52;c;aGk=\u0007')}.${json('\u001b[2K')} I flagged`)
      .replace('"keep": [', `"keep": ["kept ${json(LINK('link'))} item${json(ERASE_ABOVE)}",`);
    assert.ok(replies[0].includes('watch\\u001b') && replies[4].includes('Copied\\u001b') && replies[4].includes('kept \\u001b'), 'the demo replies changed');
    for (const r of replies) fake.enqueue({ text: r });
    const llm = new AnthropicClient({ apiKey: 'k', baseURL: fake.url, idleTimeoutMs: 5000 });
    const saved = await runSession({ workspace: ws, objective: `Add a dark mode${CLEAR}`, taskId: 'task-retro-esc', model: 'claude-sonnet-4-6', llm, prompts: loadPromptAssets(defaultPromptsDir()) });
    assert.ok(saved.ok && saved.retrospectivePath, saved.error?.message);
    const md = fs.readFileSync(saved.retrospectivePath, 'utf8');
    assert.ok(!UNSAFE.test(md), JSON.stringify(md));
    assert.match(md, /^\*\*CM:\*\* Copied\. I flagged/m);
    assert.match(md, /^- kept link item$/m);
    assert.match(md, /^- watch out$/m);
    assert.match(md, /^\*\*Objective:\*\* Add a dark mode$/m);
    assert.match(md, /^objective: Add a dark mode$/m, 'the frontmatter keeps no ESC written `\\e` either');
  });

  it('a server error quoted in the runs list loses its escape sequences, not its words', async () => {
    const ws = workspaceWithOriginalCape('cape-repeat-esc-', path.join(demoDir(), 'workspace'));
    for (const r of demoReplies('task-esc')) fake.enqueue({ text: r });
    const llm = new AnthropicClient({ apiKey: 'k', baseURL: fake.url, idleTimeoutMs: 5000 });
    const saved = await runSession({ workspace: ws, objective: 'Add a dark mode', taskId: 'task-esc', model: 'claude-sonnet-4-6', llm, prompts: loadPromptAssets(defaultPromptsDir()) });
    assert.ok(saved.ok, saved.error?.message);
    fake.reset();
    fake.enqueue({ fault: 'http', status: 400, message: `bad request${CLEAR}${LINK('here')}` });
    const out = sink();
    const err = sink();
    const code = await cmdRepeat({ workspace: ws, task: 'task-esc', times: '1' }, { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'k' }, out.stream, err.stream);
    assert.strictEqual(code, 1, err.text());
    assert.match(out.text(), /✗ task-esc-repeat-1: .*bad request/);
    assert.ok(!UNSAFE.test(out.text()), JSON.stringify(out.text()));
    assert.ok(!UNSAFE.test(err.text()), JSON.stringify(err.text()));
  });
});
