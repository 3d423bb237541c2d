// E2E (issue 9): DevA works on a small real TypeScript workspace through tools and an <edit> proposal. While DevA
// works, its tool calls show as chips in the chat panel; the <edit> proposal opens in VS Code's diff view with the
// edited content; "Review Hunks" opens VS Code's refactor preview with one unticked checkbox per hunk; ticking all
// hunks but one and applying writes only the ticked hunks (the unticked hunk's original text stays on disk).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as ui from '../vscode/browser';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic/server';
import { copyDir } from '../helpers/cli';
import { demoReplies } from '../helpers/demo';
import { envelopeReply } from '../helpers/envelopes';
import { originalProjectDir, repoRoot } from '../helpers/fixtures';
import { makeWorkspace, openCape, panel, PANEL_TITLE, shot, startSession, stepStatus, waitFor, waitForSessionDone, type E2eEnv, closeAfterSuite } from './helpers';

const TASK = 'task-tools';

function devaEnvelope(voice: string): string {
  const output = { architecture_decisions: ['Due dates live on Todo.'], file_list: ['src/todo.ts'], test_strategy: 'unit', open_questions: [] };
  const ass = { score: 4, positive: 'I read the code first.', improvement: 'none', context_adequate: true };
  return envelopeReply('DevA', { taskId: TASK, voice, output, references: ['POA', 'DA'], ass });
}

// Three hunks in src/todo.ts, far enough apart to stay three separate hunks (one per function/interface).
const EDIT_REPLY =
  devaEnvelope('I read todo.ts and store.ts, then gave todos a due date in three small edits.') +
  [
    '<edit path="src/todo.ts">',
    '<<<<<<< SEARCH',
    '  done: boolean;',
    '}',
    '=======',
    '  done: boolean;',
    '  due?: string;',
    '}',
    '>>>>>>> REPLACE',
    '',
    '<<<<<<< SEARCH',
    '  return { id, title: title.trim(), done: false };',
    '=======',
    '  return { id, title: title.trim(), done: false, due: undefined };',
    '>>>>>>> REPLACE',
    '',
    '<<<<<<< SEARCH',
    '  return { ...todo, done: !todo.done };',
    '=======',
    '  return { ...todo, done: !todo.done, toggledAt: Date.now() };',
    '>>>>>>> REPLACE',
    '</edit>',
    '<summary>Todo gains an optional due date.</summary>',
  ].join('\n');

describe('e2e: DevA tools and <edit> — chips, diff view, Review Hunks in the refactor preview', function () {
  this.timeout(300_000);
  let fake: FakeAnthropic;
  let env: E2eEnv;
  let original: string;

  before(async () => {
    fake = await startFakeAnthropic({ chunkSize: 64, chunkDelayMs: 2 });
    const ws = makeWorkspace(path.join(repoRoot(), 'test', 'tools', 'workspace'));
    copyDir(path.join(originalProjectDir(), 'cape'), path.join(ws, 'cape'));
    original = fs.readFileSync(path.join(ws, 'src', 'todo.ts'), 'utf8');
    const r = demoReplies(TASK);
    fake.enqueue(
      { text: r[0] },
      { text: r[1] },
      { text: r[2] },
      {
        text: 'Let me read the code first.',
        toolCalls: [
          { id: 'toolu_read1', name: 'read_file', input: { path: 'src/todo.ts' } },
          { id: 'toolu_read2', name: 'read_file', input: { path: 'src/store.ts' } },
          { id: 'toolu_search', name: 'search_files', input: { query: 'createTodo' } },
        ],
      },
      // DevA keeps working after its reads: the chips must be visible while the step is still running.
      { text: EDIT_REPLY, delayMs: 8000 },
      { text: r[4] },
    );
    env = await openCape(ws, fake.url);
  });

  closeAfterSuite(() => env, () => fake);

  it('shows the tool chips while DevA works, opens the <edit> in the diff view, and applies only the ticked hunks', async () => {
    const { page, workspace } = env;
    const todo = path.join(workspace, 'src', 'todo.ts');

    await startSession(page, 'Todos get a due date');
    let wv = await panel(page);

    // (1) the chips, while DevA is still running
    const chips = wv.locator('.turn[data-step="deva"] .tool-calls .tool-call');
    await waitFor('three tool chips while DevA works', async () => (await chips.count()) === 3, 120_000, 200);
    assert.strictEqual(await stepStatus(wv, 'deva'), 'running', 'the chips show while DevA is still working');
    const texts = (await chips.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    assert.match(texts[0], /^DevA read src\/todo\.ts · \d+ B$/);
    assert.match(texts[1], /^DevA read src\/store\.ts · \d+ B$/);
    assert.match(texts[2], /^DevA searched createTodo · 3 hits$/);
    await shot(page, 'tools-1-chips');

    await waitForSessionDone(wv, 180_000);
    const row = wv.locator('.files li.file[data-path="src/todo.ts"]');
    await row.waitFor({ timeout: 30_000 });
    assert.strictEqual(await row.getAttribute('data-status'), 'proposed');
    assert.strictEqual(fs.readFileSync(todo, 'utf8'), original, 'nothing is written before Apply');

    // (2) the <edit> proposal in the diff view: current ↔ edited content
    await row.locator('button[data-action="diff"]').click();
    await waitFor('the diff editor tab', async () => (await ui.editorTabs(page)).some((t) => /todo\.ts: Current ↔ Proposed/.test(t)), 60_000);
    const oneSpace = (t: string) => t.replace(/[ \t\u00a0]+/g, ' ');
    let sides = { modified: '', original: '' };
    await waitFor(
      'both sides of the diff',
      async () => {
        sides = { modified: oneSpace(await ui.diffEditorText(page, 'modified')), original: oneSpace(await ui.diffEditorText(page, 'original')) };
        return sides.modified.includes('due?: string;') && sides.modified.includes('toggledAt: Date.now()') && sides.original.includes('done: boolean;');
      },
      60_000,
      250,
    ).catch((err) => {
      throw new Error(`${err.message}; diff sides: ${JSON.stringify(sides).slice(0, 1500)}`);
    });
    assert.ok(sides.modified.includes('done: false, due: undefined };'), 'the proposed side has the second hunk');
    assert.ok(!sides.original.includes('due?: string;'), 'the current side is the file on disk');
    await shot(page, 'tools-2-diff');

    // Back to the panel.
    if (!(await page.locator('.tab.active .label-name', { hasText: PANEL_TITLE }).count())) {
      await page.locator('.tabs-container .tab', { has: page.locator('.label-name', { hasText: PANEL_TITLE }) }).first().click();
    }
    wv = await panel(page);
    await row.locator('button[data-action="accept"]').click();
    await waitFor('the file accepted', async () => (await row.getAttribute('data-status')) === 'accepted');

    // (3) Review Hunks → VS Code's refactor preview, one unticked checkbox per hunk
    await wv.locator('.files button[data-action="reviewHunks"]').click();
    const preview = page.locator('.bulk-edit-panel');
    const boxes = preview.locator('.textedit input.edit-checkbox');
    await waitFor('three hunk checkboxes in the refactor preview', async () => (await boxes.count()) === 3, 60_000, 250);
    for (let i = 0; i < 3; i++) assert.strictEqual(await boxes.nth(i).isChecked(), false, `hunk ${i + 1} opens unticked`);
    await shot(page, 'tools-3-preview');

    // Tick the first and the last hunk; leave the middle one (createTodo's return) unticked.
    const hunkText = async (i: number) => ((await preview.locator('.textedit').nth(i).textContent()) ?? '').replace(/\s+/g, ' ');
    let untickedIndex = -1;
    for (let i = 0; i < 3; i++) if ((await hunkText(i)).includes('due: undefined')) untickedIndex = i;
    assert.notStrictEqual(untickedIndex, -1, `a preview row shows the createTodo hunk: ${JSON.stringify([await hunkText(0), await hunkText(1), await hunkText(2)])}`);
    for (let i = 0; i < 3; i++) {
      if (i === untickedIndex) continue;
      await boxes.nth(i).check();
      await waitFor(`hunk ${i + 1} ticked`, () => boxes.nth(i).isChecked(), 10_000);
    }
    assert.strictEqual(await boxes.nth(untickedIndex).isChecked(), false);
    await shot(page, 'tools-4-ticked');

    await preview.locator('.monaco-button', { hasText: /^\s*Apply\s*$/ }).first().click();

    const expected = original
      .replace('  done: boolean;\n}', '  done: boolean;\n  due?: string;\n}')
      .replace('  return { ...todo, done: !todo.done };', '  return { ...todo, done: !todo.done, toggledAt: Date.now() };');
    assert.notStrictEqual(expected, original);
    await waitFor('only the ticked hunks on disk', () => fs.readFileSync(todo, 'utf8') === expected, 60_000, 250).catch((err) => {
      throw new Error(`${err.message}; on disk: ${JSON.stringify(fs.readFileSync(todo, 'utf8'))}`);
    });
    const onDisk = fs.readFileSync(todo, 'utf8');
    assert.ok(onDisk.includes('  return { id, title: title.trim(), done: false };'), "the unticked hunk's original text remains");
    assert.ok(!onDisk.includes('due: undefined'));
    await shot(page, 'tools-5-applied');
  });
});
