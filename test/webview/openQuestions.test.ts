// The chat panel's list of the roles' open questions at the session's end (media/app/output.ts renderOpenQuestions), in
// headless Chromium after a real recorded session (./panelSuite.ts): those to decide first, then those a later role
// answered from the workspace, one answered only in part marked as such.
import * as assert from 'assert';
import type { SessionEvent } from '../../src/core/model/types';
import { screenshotPath } from './harness';
import { ev, panelSuite } from './panelSuite';

describe('chat panel webview (Chromium): open questions', function () {
  this.timeout(60_000);
  const suite = panelSuite();
  const { open, fullSession } = suite;
  const finishedEvent = () => suite.script.finished as Extract<SessionEvent, { type: 'session-finished' }>;

  it("lists the roles' open questions after the KPT: those to decide first, then those answered from the workspace (model text inert)", async () => {
    const p = await open();
    await fullSession(p);
    const finished = finishedEvent();
    assert.deepStrictEqual(finished.openQuestions, [], 'this recorded session left no open question');
    const evil = '<img src=x onerror="window.__pwned=1">';
    await p.send(
      ev({
        ...finished,
        openQuestions: [
          { id: 'POA-Q1', from: 'POA', text: 'Is the list **paged**?', answer: { by: 'DA', text: `Yes, 10 a page ${evil}`, evidence: 'src/list.tsx:42, 50-52 (the pager); e.g. ../x.ts:1' } },
          { id: 'POA-Q2', from: 'POA', text: `Search the body too? ${evil}` },
          { id: 'DA-Q1', from: 'DA', text: 'Keep the empty-state text?' },
        ],
      }),
    );
    const turn = p.page.locator('.turn[data-step="cm_retro"]');
    const titles = await turn.locator('.retro-results > .section-title').allTextContents();
    assert.deepStrictEqual(titles, ['Keep / Problem / Try', 'Open questions', 'Metrics']);
    assert.strictEqual(await turn.locator('.open-questions-block > p').textContent(), '2 for you to decide · 1 answered by the team from the workspace: check them');
    const items = turn.locator('.open-question');
    assert.deepStrictEqual(await items.locator('.question-id').allTextContents(), ['POA-Q2', 'DA-Q1', 'POA-Q1']);
    assert.strictEqual(await turn.locator('.open-question.answered').count(), 1);
    const answered = turn.locator('.open-question.answered');
    assert.strictEqual(await answered.locator('strong').textContent(), 'paged', 'inline markdown of the question');
    assert.match((await answered.locator('.question-answer').textContent()) ?? '', /^Answered by DA: Yes, 10 a page <img src=x onerror="window.__pwned=1">src\/list\.tsx:42, 50-52 \(the pager\); e\.g\. \.\.\/x\.ts:1$/);
    assert.strictEqual(await answered.locator('.answer-evidence').textContent(), 'src/list.tsx:42, 50-52 (the pager); e.g. ../x.ts:1');
    // each place the evidence names opens its file at its lines; a path out of the workspace stays text
    const places = answered.locator('.answer-evidence button.evidence-link');
    assert.deepStrictEqual(await places.allTextContents(), ['src/list.tsx:42', '50-52']);
    assert.deepStrictEqual(await places.evaluateAll((bs) => bs.map((b) => b.getAttribute('title'))), ['Open src/list.tsx at line 42', 'Open src/list.tsx at lines 50–52']);
    await p.clearPosted();
    await places.nth(0).click();
    await places.nth(1).click();
    assert.deepStrictEqual(await p.posted(), [
      { type: 'openFile', path: 'src/list.tsx', line: 42 },
      { type: 'openFile', path: 'src/list.tsx', line: 50, endLine: 52 },
    ]);
    assert.strictEqual(await turn.locator('.open-questions img').count(), 0, 'model text stays text');
    await turn.locator('.open-questions-block').screenshot({ path: screenshotPath('dark-open-questions') });
    // none asked: no section
    const q = await open();
    await fullSession(q);
    assert.deepStrictEqual(await q.page.locator('.retro-results > .section-title').allTextContents(), ['Keep / Problem / Try', 'Metrics']);
  });

  it('marks a question answered only in part, and says where its open part went', async () => {
    const p = await open();
    await fullSession(p);
    await p.send(
      ev({
        ...finishedEvent(),
        openQuestions: [
          { id: 'POA-Q1', from: 'POA', text: 'Does the Admin see every item, and should search cover them?', answer: { by: 'DA', text: 'The Admin sees every item today.', evidence: 'items.py:21', openPartIn: ['DA-Q1'] } },
          { id: 'POA-Q2', from: 'POA', text: 'Which sort order?', answer: { by: 'DA', text: 'Newest first.' } },
          { id: 'DA-Q1', from: 'DA', text: "POA-Q1, the open part: should the Admin's search cover every item?" },
        ],
      }),
    );
    const turn = p.page.locator('.turn[data-step="cm_retro"]');
    assert.strictEqual(await turn.locator('.open-questions-block > p').textContent(), '1 for you to decide · 2 answered by the team from the workspace (1 in part): check them');
    assert.deepStrictEqual(await turn.locator('.open-question .question-id').allTextContents(), ['DA-Q1', 'POA-Q1', 'POA-Q2']);
    const inPart = turn.locator('.open-question.in-part');
    assert.strictEqual(await inPart.count(), 1);
    assert.strictEqual(await inPart.locator('.question-id').textContent(), 'POA-Q1');
    assert.strictEqual(await inPart.getAttribute('title'), 'Answered in part by DA (open part carried to DA-Q1)');
    assert.strictEqual(await inPart.locator('.answer-by').textContent(), 'Answered in part by DA (open part carried to DA-Q1): ');
    // its own mark, not the answered one's
    assert.strictEqual(await inPart.locator('.codicon-arrow-circle-right').count(), 1);
    assert.strictEqual(await inPart.locator('.codicon-pass').count(), 0);
    const whole = turn.locator('.open-question.answered:not(.in-part)');
    assert.strictEqual(await whole.locator('.answer-by').textContent(), 'Answered by DA: ');
    assert.strictEqual(await whole.locator('.codicon-pass').count(), 1);
    assert.strictEqual(await whole.getAttribute('title'), null);
  });
});
