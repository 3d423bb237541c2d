// E2E 5: hostile model output in a real VS Code. The demo session's replies (served through startDemoServer's
// `replies` option) carry script tags, an <img onerror>, and a javascript: link in voice and output fields, and DevA
// proposes files at hostile paths. In the chat panel webview the markup must be inert text (no script ran — checked
// with frame.evaluate inside the webview — no <img>, the javascript: link is not a link), and the hostile paths are
// shown as refused with a reason and never written by Apply.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Frame } from 'playwright-core';
import * as ui from '../vscode/browser';
import { startDemoServer } from '../helpers/demoServer';
import { demoDir, demoReplies } from '../helpers/demo';
import type { FakeAnthropic } from '../fake-anthropic/server';
import { initCapeWithCli, makeWorkspace, openCape, panel, panelContentFrame, shot, startSession, waitFor, waitForSessionDone, type E2eEnv, closeAfterSuite } from './helpers';

const SCRIPT = '<script>window.__pwned=1</script>';
const IMG = '<img src=x onerror="window.__pwned=1">';
const LINK = '[click](javascript:window.__pwned=1)';
const HOSTILE = `${SCRIPT} ${IMG} ${LINK}`;
const MARKER = 'HOSTILE-FILE-MARKER-7f3a';
/** Paths DevA must never get written: outside the workspace, absolute, VCS internals, CAPE's own records. */
const HOSTILE_PATHS = ['../escape.txt', '/etc/x', '.git/config', 'cape/5_sessions/x.md'];

/** Rewrites the fenced JSON envelope of a demo reply, keeping everything after it (file blocks, summary). */
function rewriteEnvelope(raw: string, edit: (env: any) => void): string {
  const m = /```json\s*([\s\S]*?)```/.exec(raw);
  if (!m) throw new Error('demo reply without a ```json block');
  const env = JSON.parse(m[1]);
  edit(env);
  return raw.slice(0, m.index) + '```json\n' + JSON.stringify(env, null, 2) + '\n```' + raw.slice(m.index + m[0].length);
}

function hostileReplies(taskId: string): string[] {
  return demoReplies(taskId).map((raw, i) =>
    rewriteEnvelope(raw, (env) => {
      env.voice = `${HOSTILE} ${env.voice ?? ''}`;
      if (i === 0) env.output.session_brief = `${HOSTILE}\n\n${env.output.session_brief}`;
      if (i === 4) {
        env.kpt.keep.unshift(`Kept ${IMG} and ${LINK}`);
        if (Array.isArray(env.conversation) && env.conversation[0]) env.conversation[0].text = `${SCRIPT} ${env.conversation[0].text}`;
      } else if (env.output && typeof env.output === 'object') {
        env.output.hostile_note = HOSTILE;
        env.output.hostile_list = [SCRIPT, IMG, LINK];
      }
    }),
  ).map((raw, i) => {
    if (i !== 3) return raw;
    // DevA: add file blocks at hostile paths before the summary.
    const blocks = HOSTILE_PATHS.map((p) => `<file path="${p}">\n${MARKER} ${p}\n</file>\n\n`).join('');
    const at = raw.indexOf('<summary>');
    return at >= 0 ? raw.slice(0, at) + blocks + raw.slice(at) : raw + '\n' + blocks;
  });
}

/** Evaluates inside the chat panel webview: globals and the DOM facts that prove nothing ran. */
async function inertness(frame: Frame) {
  return frame.evaluate(() => ({
    pwned: (window as unknown as { __pwned?: unknown }).__pwned,
    imgs: document.querySelectorAll('img').length,
    onerror: document.querySelectorAll('[onerror]').length,
    scripts: Array.from(document.querySelectorAll('script')).map((s) => s.getAttribute('src') ?? `inline:${s.textContent ?? ''}`),
    jsLinks: Array.from(document.querySelectorAll('a')).filter((a) => /^\s*javascript:/i.test(a.getAttribute('href') ?? '')).length,
    url: location.href,
  }));
}

describe('e2e: hostile model output is inert and hostile paths are refused', function () {
  this.timeout(300_000);
  let fake: FakeAnthropic;
  let env: E2eEnv;
  const gitConfig = '[core]\n\trepositoryformatversion = 0\n';

  before(async () => {
    for (const p of ['/etc/x']) assert.ok(!fs.existsSync(p), `${p} must not exist before the test`);
    fake = await startDemoServer({ chunkSize: 48, chunkDelayMs: 2, replies: hostileReplies });
    const ws = makeWorkspace(path.join(demoDir(), 'workspace'));
    await initCapeWithCli(ws);
    fs.mkdirSync(path.join(ws, '.git'));
    fs.writeFileSync(path.join(ws, '.git/config'), gitConfig);
    env = await openCape(ws, fake.url);
  });

  closeAfterSuite(() => env, () => fake);

  it('renders script, img onerror and javascript: links as inert text; no script runs in the webview', async () => {
    const { page } = env;
    await startSession(page, 'Add a dark mode toggle');
    const wv = await panel(page);
    await waitForSessionDone(wv, 120_000);
    const frame = await panelContentFrame(page);

    // The voices show the markup literally, as text.
    const voice = (await wv.locator('.turn[data-step="cm_open"] .voice').textContent()) ?? '';
    assert.ok(voice.startsWith(HOSTILE), `the voice shows the markup as text: ${voice.slice(0, 200)}`);
    for (const step of ['poa', 'da', 'deva', 'cm_retro']) {
      assert.ok(((await wv.locator(`.turn[data-step="${step}"] .voice`).textContent()) ?? '').includes(SCRIPT), `${step} voice as text`);
    }
    // Output fields: the <img …> and <script> survive only as visible text.
    const outputText = (await wv.locator('.turn[data-step="poa"] .output').innerText()).replace(/\s+/g, ' ');
    assert.ok(outputText.includes('<img src=x onerror="window.__pwned=1">'), `the img markup is shown as text: ${outputText.slice(0, 400)}`);
    assert.ok(outputText.includes('<script>window.__pwned=1</script>'), 'the script markup is shown as text');
    const brief = (await wv.locator('.turn[data-step="cm_open"] .opening-card').innerText()).replace(/\s+/g, ' ');
    assert.ok(brief.includes('<img src=x onerror='), 'the opening card shows the img markup as text');

    const facts = await inertness(frame);
    assert.strictEqual(facts.pwned, undefined, 'window.__pwned is undefined: no script ran');
    assert.strictEqual(facts.imgs, 0, 'no <img> element in the DOM');
    assert.strictEqual(facts.onerror, 0, 'no element with an onerror attribute');
    assert.strictEqual(facts.jsLinks, 0, 'no javascript: link');
    // Scripts: the panel's bundle plus the one VS Code injects into every webview (acquireVsCodeApi); none of ours.
    assert.strictEqual(facts.scripts.filter((s) => /\/dist\/webview\.js$/.test(s)).length, 1, `the panel's own script: ${JSON.stringify(facts.scripts.map((s) => s.slice(0, 80)))}`);
    for (const s of facts.scripts.filter((x) => x.startsWith('inline:'))) {
      assert.ok(/acquireVsCodeApi/.test(s) && !s.includes('__pwned'), `only VS Code's own inline script: ${s.slice(0, 200)}`);
    }
    assert.ok(facts.scripts.every((s) => !s.includes('__pwned')), 'no script element carries the model text');
    await wv.locator('.turn[data-step="poa"] .output').scrollIntoViewIfNeeded();
    await shot(page, 'security-1-inert');

    // "click" is plain text where the javascript: link was: clicking it navigates nowhere and runs nothing.
    const click = wv.locator('.turn[data-step="poa"] .output').getByText('click', { exact: false }).first();
    await click.click();
    await page.waitForTimeout(300); // give a (broken) handler the chance to run before checking
    const after = await inertness(frame);
    assert.strictEqual(after.pwned, undefined, 'clicking the link text ran nothing');
    assert.strictEqual(after.url, facts.url, 'the webview did not navigate');
    assert.ok(!(await ui.editorTabs(page)).some((t) => /javascript/i.test(t)), 'no editor was opened for the link');
  });

  it('shows hostile DevA paths as refused with a reason and never writes them on Apply', async () => {
    const { page, workspace } = env;
    const wv = await panel(page);
    const rows = wv.locator('.files li.file');
    await rows.first().waitFor();
    const views = await rows.evaluateAll((els) =>
      els.map((e) => ({
        path: e.querySelector('.file-path')?.textContent ?? '',
        status: (e as HTMLElement).dataset.status ?? '',
        reason: e.querySelector('.file-reason')?.textContent ?? '',
        buttons: Array.from(e.querySelectorAll('button')).map((b) => (b as HTMLElement).dataset.action),
      })),
    );
    for (const p of HOSTILE_PATHS) {
      const v = views.find((x) => x.path === p);
      assert.ok(v, `${p} is listed (rows: ${JSON.stringify(views.map((x) => x.path))})`);
      assert.strictEqual(v!.status, 'refused', `${p} is refused`);
      assert.ok(v!.reason.trim().length > 5, `${p} shows a reason: ${JSON.stringify(v!.reason)}`);
      assert.deepStrictEqual(v!.buttons, [], `${p} cannot be accepted or diffed`);
    }
    const safe = views.filter((x) => x.status === 'proposed').map((x) => x.path).sort();
    assert.deepStrictEqual(safe, ['index.html', 'src/styles.css', 'src/theme.js'], 'the safe files are proposed');
    await wv.locator('.files').scrollIntoViewIfNeeded();
    await shot(page, 'security-2-refused');

    await wv.locator('.files button[data-action="acceptAll"]').click();
    const apply = wv.locator('.files button[data-action="apply"]');
    await waitFor('Apply enabled for the three safe files', async () => /Apply 3 files/.test((await apply.textContent()) ?? '') && (await apply.isEnabled()));
    await apply.click();
    await waitFor('the safe files applied', async () => (await wv.locator('.files li.file[data-status="applied"]').count()) === 3);
    assert.strictEqual(await wv.locator('.files li.file[data-status="refused"]').count(), HOSTILE_PATHS.length, 'the hostile files stay refused');
    await shot(page, 'security-3-applied');

    // Nothing at the hostile locations.
    assert.ok(!fs.existsSync(path.resolve(workspace, '..', 'escape.txt')) || !fs.readFileSync(path.resolve(workspace, '..', 'escape.txt'), 'utf8').includes(MARKER), '../escape.txt not written');
    assert.ok(!fs.existsSync('/etc/x'), '/etc/x not written');
    assert.strictEqual(fs.readFileSync(path.join(workspace, '.git/config'), 'utf8'), gitConfig, '.git/config untouched');
    assert.ok(!fs.existsSync(path.join(workspace, 'cape/5_sessions/x.md')), 'cape/5_sessions/x.md not written');
    assert.ok(fs.readFileSync(path.join(workspace, 'src/theme.js'), 'utf8').includes('pocket-notes-theme'), 'the safe files were written');
    const webview = await panelContentFrame(page);
    assert.strictEqual((await inertness(webview)).pwned, undefined);
  });
});
