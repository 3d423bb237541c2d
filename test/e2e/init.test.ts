// E2E 1: CAPE: Initialize Project through the real questionnaire (input boxes + the team-size and design-feel quick
// picks, with one Back), the progress notification, and the cape/ folder on disk: the generic templates plus the input files the
// (fake) init model generated. The fake server also proves the typed answers reached the model prompts.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Page } from 'playwright-core';
import * as ui from '../vscode/browser';
import { startDemoServer } from '../helpers/demoServer';
import { demoAnswers, demoInputFile } from '../helpers/demo';
import type { FakeAnthropic } from '../fake-anthropic/server';
import { INIT_QUESTIONS } from '../../src/core/cape';
import { listFiles, frontmatterType, makeWorkspace, openCape, shot, waitFor, REPO, type E2eEnv, runPaletteCommand, closeAfterSuite } from './helpers';

const QI = '.quick-input-widget';

/** The message line of the visible quick input (the input box's prompt). */
async function quickMessage(page: Page): Promise<string> {
  return (await page.locator(`${QI} .quick-input-message`).innerText().catch(() => '')).replace(/\s+/g, ' ').trim();
}

async function quickPlaceholder(page: Page): Promise<string> {
  return (await page.locator(`${QI} .quick-input-box input`).getAttribute('placeholder').catch(() => '')) ?? '';
}

/** Waits until the questionnaire shows the question `prompt` (an input box's prompt or the quick pick's placeholder). */
async function waitForQuestion(page: Page, prompt: string): Promise<void> {
  await waitFor(`the question "${prompt}"`, async () => (await quickMessage(page)).includes(prompt) || (await quickPlaceholder(page)).includes(prompt), 30_000);
}

describe('e2e: Initialize Project questionnaire', function () {
  this.timeout(300_000);
  let fake: FakeAnthropic;
  let env: E2eEnv;

  before(async () => {
    // Slow streaming so the progress notification is on screen long enough to be seen.
    fake = await startDemoServer({ chunkSize: 8, chunkDelayMs: 25 });
    env = await openCape(makeWorkspace(), fake.url);
  });

  closeAfterSuite(() => env, () => fake);

  it('asks every question, goes Back once, shows progress and writes cape/ (templates + generated inputs)', async () => {
    const { page, workspace } = env;
    const typed: Record<string, string> = {
      product: 'Lantern, a reading-light scheduler for night owls',
      users: 'Students who read late',
      problem: 'They forget to dim the screen and sleep badly',
      features: 'Schedules, presets, a bedtime reminder',
      uiLanguage: 'English and German',
      stack: 'TypeScript and Preact',
      hosting: 'Static site on GitHub Pages, data in localStorage',
      testTooling: 'Vitest and Playwright',
      teamSize: 'Two students in the evenings',
      designFeel: 'Soft amber tones, very quiet',
    };
    assert.deepStrictEqual(Object.keys(typed).sort(), INIT_QUESTIONS.map((q) => q.id).sort(), 'the test answers every question');
    const [first, second, ...rest] = INIT_QUESTIONS;

    await runPaletteCommand(page, 'CAPE: Initialize Project');
    await waitForQuestion(page, first.prompt);
    const title = await page.locator(`${QI} .quick-input-title`).innerText();
    assert.match(title, /CAPE: Initialize Project/, 'the questionnaire is titled');
    assert.match(title, new RegExp(`1\\s*/\\s*${INIT_QUESTIONS.length}`), `step 1/${INIT_QUESTIONS.length} is shown`);
    await shot(page, 'init-1-question');
    await ui.typeInQuickInput(page, typed[first.id]);

    // Step 2: type an answer, then go Back: step 1 comes back with the first answer pre-filled.
    await waitForQuestion(page, second.prompt);
    await ui.typeInQuickInput(page, 'typed before going back', { submit: false });
    const back = page.locator(`${QI} .quick-input-left-action-bar .action-label, ${QI} .action-label[aria-label="Back"]`).first();
    await back.click();
    await waitForQuestion(page, first.prompt);
    assert.strictEqual(await page.locator(`${QI} .quick-input-box input`).inputValue(), typed[first.id], 'Back keeps the first answer');
    await shot(page, 'init-2-back');
    await page.locator(`${QI} .quick-input-box input`).press('Enter');

    await waitForQuestion(page, second.prompt);
    await ui.typeInQuickInput(page, typed[second.id]);
    for (const q of rest) {
      await waitForQuestion(page, q.prompt);
      if (q.suggestions) {
        // A pick step (team size, design feel): suggestions are offered; typing offers "Use “…”".
        const suggestions = await ui.quickPickItems(page);
        assert.ok(suggestions.length >= 3, `${q.id} suggestions are offered: ${JSON.stringify(suggestions)}`);
        await ui.typeInQuickInput(page, typed[q.id], { submit: false });
        await ui.pickQuickItem(page, `Use “${typed[q.id]}”`);
      } else {
        await ui.typeInQuickInput(page, typed[q.id]);
      }
    }

    // The progress notification while the fake init model streams the input files.
    const progress = await ui.waitForNotification(page, /Initializing cape\//, 30_000);
    assert.match(progress, /CAPE: Initializing cape\//);
    await page.waitForTimeout(300); // let the toast finish sliding in for the screenshot
    await shot(page, 'init-3-progress');
    const done = await ui.waitForNotification(page, /CAPE project initialized/, 120_000);
    await shot(page, 'init-4-done');

    // On disk: the generic templates (type: generic) and every input file the fake model wrote (type: input).
    const cape = path.join(workspace, 'cape');
    const files = listFiles(cape);
    const templates = listFiles(path.join(REPO, 'prompts', 'templates'));
    const inputs: string[] = JSON.parse(fs.readFileSync(path.join(REPO, 'prompts', 'inputs.json'), 'utf8')).files.map((f: { path: string }) => f.path);
    for (const t of templates) {
      assert.ok(files.includes(t), `template ${t} was copied to cape/ (have ${files.join(', ')})`);
      assert.strictEqual(frontmatterType(path.join(cape, t)), 'generic', `${t} is marked generic`);
    }
    const answers = demoAnswers();
    for (const rel of inputs) {
      assert.ok(files.includes(rel), `input file ${rel} was generated`);
      // The fake init model's answer for this file, written as the file (normalised by initCape: compare the body).
      const body = fs.readFileSync(path.join(cape, rel), 'utf8');
      const expected = demoInputFile(rel, answers).replace(/^---[\s\S]*?---\n/, '').trim();
      assert.ok(body.includes(expected.split('\n')[0]), `${rel} holds the generated heading`);
      assert.ok(body.includes(`Product: ${answers.product}`), `${rel} holds the generated text`);
      assert.strictEqual(frontmatterType(path.join(cape, rel)), 'input', `${rel} is marked input`);
    }
    assert.match(done, new RegExp(`${templates.length + inputs.length} file\\(s\\) written`), 'the summary counts every file');

    // The answers typed in the questionnaire reached the init prompts; the one typed before Back was dropped.
    const modelCalls = fake.requests.filter((r) => (r.maxTokens ?? 0) > 16);
    const sent = modelCalls.map((r) => JSON.stringify([r.body?.system, r.body?.messages])).join('\n');
    for (const [id, text] of Object.entries(typed)) assert.ok(sent.includes(JSON.stringify(text).slice(1, -1)), `answer ${id} reached the model prompt`);
    assert.ok(!sent.includes('typed before going back'), 'an answer abandoned with Back is not sent');
    assert.strictEqual(modelCalls.length, 1 + inputs.length, 'the shared decisions, then one model call per input file');
  });
});
