// E2E 3: DevA's proposed files with the English demo session (src/theme.js created, src/styles.css and index.html
// modified): the panel's Diff button opens the diff editor (current ↔ proposed), one file is accepted, one rejected,
// the third accepted, Apply writes exactly the accepted ones and leaves the rejected one untouched on disk. Before
// that, the panel shows every voice and the retrospective (the README's panel and diff screenshots, see readmeShot).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as ui from '../vscode/browser';
import { startDemoServer } from '../helpers/demoServer';
import { demoDir, demoEnvelopes, demoReplies } from '../helpers/demo';
import type { FakeAnthropic } from '../fake-anthropic/server';
import { assertIncludes, treeRows, makeWorkspace, openCape, panel, PANEL_TITLE, shot, startSession, waitFor, waitForSessionDone, type E2eEnv, closeAfterSuite, initCapeWithCli, readmeShot, readmeShotsDir, scrollPanelTo, voiceText } from './helpers';

/** The <file path="…">…</file> blocks of a reply, parsed independently of the product. */
function fileBlocks(raw: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of raw.matchAll(/<file path="([^"]+)">\n?([\s\S]*?)<\/file>/g)) out.set(m[1], m[2]);
  return out;
}

const norm = (s: string) => s.replace(/\r\n/g, '\n').replace(/\s+$/, '');
/**
 * The diff's text with its lines joined: beside the panel a narrow window wraps long lines ("[data-theme='dar" / "k']"),
 * so a check for text within one line looks at the lines run together (a line's last space stays).
 */
const unwrap = (s: string) => s.replace(/\n[ \t]*/g, '');

describe('e2e: DevA files — diff preview, accept/reject, Apply', function () {
  this.timeout(300_000);
  let fake: FakeAnthropic;
  let env: E2eEnv;
  let proposed: Map<string, string>;

  before(async () => {
    fake = await startDemoServer({ chunkSize: 64, chunkDelayMs: 2 });
    const ws = makeWorkspace(path.join(demoDir(), 'workspace'));
    // cape/ is made by the real init (bundled CLI) against a demo server: this scenario is about the files.
    await initCapeWithCli(ws);
    proposed = fileBlocks(demoReplies('task-x')[3]);
    assert.deepStrictEqual([...proposed.keys()].sort(), ['index.html', 'src/styles.css', 'src/theme.js'], 'the demo DevA reply proposes the three files');
    env = await openCape(ws, fake.url);
  });

  closeAfterSuite(() => env, () => fake);

  it('opens a diff from the panel, applies the accepted files and leaves the rejected one untouched', async () => {
    const { page, workspace } = env;
    const before = {
      styles: fs.readFileSync(path.join(workspace, 'src/styles.css'), 'utf8'),
      index: fs.readFileSync(path.join(workspace, 'index.html'), 'utf8'),
    };
    assert.ok(!fs.existsSync(path.join(workspace, 'src/theme.js')));

    await startSession(page, 'Add a dark mode toggle that remembers the choice');
    let wv = await panel(page);
    await waitForSessionDone(wv, 120_000);

    // The team's voices and the retrospective, as the README's screenshots show them.
    const envelopes = demoEnvelopes();
    for (const [i, step] of ['cm_open', 'poa', 'da', 'deva', 'cm_retro'].entries()) {
      assert.ok(envelopes[i].voice, `demo reply ${i + 1} has a voice`);
      assert.strictEqual((await voiceText(wv, step)).replace(/\s+/g, ' ').trim(), envelopes[i].voice, `the ${step} voice in the panel`);
    }
    const retro = envelopes[4];
    for (const kind of ['keep', 'problem', 'try'] as const) {
      const items = (await wv.locator(`.retro-results .kpt-${kind} li`).allTextContents()).map((t) => t.trim());
      assert.deepStrictEqual(items, retro.kpt[kind], `the retrospective's ${kind} items`);
    }
    const bubbles = (await wv.locator('.turn[data-step="cm_retro"] .conversation .bubble-row').allInnerTexts()).join('\n');
    for (const turn of retro.conversation) assertIncludes(bubbles, turn.text, 'the retrospective conversation');
    assertIncludes(await wv.locator('.retro-results .metrics').innerText(), 'Average satisfaction', 'the metrics');
    // POA's open questions for the user, the one DA answered from the stylesheet marked, here and in the file
    assert.deepStrictEqual(await wv.locator('.retro-results .open-question .question-id').allTextContents(), ['POA-Q1', 'POA-Q2']);
    const answered = await wv.locator('.retro-results .open-question.answered').innerText();
    assertIncludes(answered, 'Answered by DA: Each colour is set where it is used', "DA's answer to POA-Q2");
    assertIncludes(answered, 'src/styles.css:1-7', 'where DA saw it');
    const retroDir = path.join(workspace, 'cape/5_sessions/retrospective');
    const retroFile = fs.readdirSync(retroDir).find((f) => f !== 'kpt_merged.md' && f.endsWith('.md'))!;
    assertIncludes(fs.readFileSync(path.join(retroDir, retroFile), 'utf8'), '_1 for you to decide; 1 answered by the team from the workspace._', 'the retrospective file');
    // the Retrospectives view names the question left to decide before the objective
    await ui.openViewContainer(page, 'CAPE');
    await waitFor('the session with its open question in the Retrospectives view', async () =>
      (await treeRows(page, 'Retrospectives')).some((r) => r.description.startsWith('1 open question · Add a dark mode')),
    );
    if (readmeShotsDir()) {
      await ui.openViewContainer(page, 'CAPE'); // the Retrospectives and KPT views beside the panel
      await scrollPanelTo(page, '.session[data-current="true"]');
      await readmeShot(page, 'panel-session');
      // the conversation's last turns, Keep / Problem / Try and the open questions
      await scrollPanelTo(page, '.turn[data-step="cm_retro"] .conversation .bubble-row:nth-last-child(3)');
      await readmeShot(page, 'panel-retrospective');
    }
    // the place DA cited opens the stylesheet in an editor with those lines selected
    const evidence = wv.locator('.retro-results .open-question.answered .evidence-link', { hasText: 'src/styles.css:1-7' });
    assert.strictEqual(await evidence.getAttribute('title'), 'Open src/styles.css at lines 1–7');
    await evidence.click();
    let status = '';
    let tabSeen = 0;
    await waitFor('src/styles.css open with lines 1–7 selected', async () => {
      status = await ui.editorSelectionStatus(page);
      const open = (await ui.editorTabs(page)).includes('styles.css');
      if (open && /^Ln 7, Col \d+ \(\d+ selected\)/.test(status)) return true;
      // the status bar shows the selection of the active editor only: when the panel took the focus back after the
      // click (a busy machine's late mouse-up), make the opened editor active again — its selection stays as opened
      if (open && !status && ++tabSeen % 10 === 0) await page.locator('.tabs-container .tab', { hasText: 'styles.css' }).first().click();
      return false;
    }).catch(async (err) => {
      throw new Error(`${err.message}; tabs: ${JSON.stringify(await ui.editorTabs(page))}; status: ${status}`);
    });

    const row = (p: string) => wv.locator(`.files li.file[data-path="${p}"]`);
    await row('src/theme.js').waitFor();
    assert.strictEqual(await wv.locator('.files li.file').count(), 3, 'three proposed files');
    for (const p of proposed.keys()) assert.strictEqual(await row(p).getAttribute('data-status'), 'proposed', `${p} waits for a decision`);
    assert.strictEqual((await row('src/theme.js').locator('.badge').first().textContent())?.trim(), 'new');
    assert.strictEqual((await row('src/styles.css').locator('.badge').first().textContent())?.trim(), 'modified');
    assert.ok(await wv.locator('.files button[data-action="apply"]').isDisabled(), 'Apply is disabled before any file is accepted');
    // Nothing is written before Apply.
    assert.strictEqual(fs.readFileSync(path.join(workspace, 'src/styles.css'), 'utf8'), before.styles);
    await row('src/styles.css').scrollIntoViewIfNeeded();
    await shot(page, 'files-1-proposed');

    // Diff: current ↔ proposed for a modified file.
    await row('src/styles.css').locator('button[data-action="diff"]').click();
    await waitFor('the diff editor tab', async () => (await ui.editorTabs(page)).some((t) => /styles\.css: Current ↔ Proposed/.test(t)));
    // Monaco renders lazily: wait until both sides show their text.
    let sides = { modified: '', original: '' };
    await waitFor('both sides of the diff', async () => {
      sides = { modified: await ui.diffEditorText(page, 'modified'), original: await ui.diffEditorText(page, 'original') };
      return unwrap(sides.modified).includes("[data-theme='dark']") && unwrap(sides.original).includes('background:');
    }).catch((err) => {
      throw new Error(`${err.message}; diff sides: ${JSON.stringify(sides).slice(0, 1500)}`);
    });
    // Monaco's token spans can double a space in innerText: compare with whitespace runs collapsed.
    const oneSpace = (t: string) => t.replace(/[ \t]+/g, ' ');
    const modified = oneSpace(unwrap(sides.modified));
    const original = oneSpace(unwrap(sides.original));
    assertIncludes(modified, '--accent: #4493f8;', 'the proposed side');
    assertIncludes(original, 'background: #ffffff;', 'the current side');
    assert.ok(!original.includes("[data-theme='dark']"), 'the current side is the file on disk');
    await shot(page, 'files-2-diff');
    await readmeShot(page, 'diff');

    // The diff opened in a group beside the panel: the panel's tab is still the active one of its group, in view
    const activeTabs = (await page.locator('.tabs-container .tab.active .label-name').allInnerTexts()).map((t) => t.trim());
    assert.ok(activeTabs.includes(PANEL_TITLE) && activeTabs.some((t) => /styles\.css: Current ↔ Proposed/.test(t)), `the panel and the diff side by side: ${JSON.stringify(activeTabs)}`);
    wv = await panel(page);
    assert.ok(await row('src/styles.css').isVisible(), 'the files list stays in view');
    // the stylesheet the evidence opened and the diff share one group beside the panel: two groups in all
    assert.strictEqual(await page.locator('.part.editor .editor-group-container').count(), 2, 'the panel and one group beside it');

    await row('src/theme.js').locator('button[data-action="accept"]').click();
    await row('src/styles.css').locator('button[data-action="reject"]').click();
    await row('index.html').locator('button[data-action="accept"]').click();
    await waitFor('the decisions confirmed by the host', async () =>
      (await row('src/theme.js').getAttribute('data-status')) === 'accepted' &&
      (await row('src/styles.css').getAttribute('data-status')) === 'rejected' &&
      (await row('index.html').getAttribute('data-status')) === 'accepted',
    );
    const apply = wv.locator('.files button[data-action="apply"]');
    assert.match((await apply.textContent()) ?? '', /Apply 2 files/);
    await shot(page, 'files-3-decided');
    // Watched from the click on: the toast hides itself after 15 s.
    const appliedToast = ui.waitForNotification(page, /CAPE applied 2 file\(s\)/, 120_000);
    void appliedToast.catch(() => undefined); // awaited below
    await apply.click();

    await waitFor('the accepted files to be applied', async () =>
      (await row('src/theme.js').getAttribute('data-status')) === 'applied' && (await row('index.html').getAttribute('data-status')) === 'applied',
    );
    assert.strictEqual(await row('src/styles.css').getAttribute('data-status'), 'rejected', 'the rejected file stays rejected');
    await appliedToast;
    await shot(page, 'files-4-applied');

    // On disk: accepted → the proposed content; rejected → byte-for-byte unchanged.
    assert.strictEqual(norm(fs.readFileSync(path.join(workspace, 'src/theme.js'), 'utf8')), norm(proposed.get('src/theme.js')!));
    assert.strictEqual(norm(fs.readFileSync(path.join(workspace, 'index.html'), 'utf8')), norm(proposed.get('index.html')!));
    assert.strictEqual(fs.readFileSync(path.join(workspace, 'src/styles.css'), 'utf8'), before.styles, 'the rejected file is untouched');
  });
});
