// Drives the bundled chat panel in headless Chromium with event streams synthesised from a real recorded
// session (read from ../shared at run time; the frame: ./panelSuite.ts). The open questions' list: ./openQuestions.test.ts.
// Run: npx mocha --no-config --timeout 60000 out/test/webview/*.test.js
import * as assert from 'assert';
import { STEP_IDS, type SessionEvent } from '../../src/core/model/types';
import type { CheckEvent } from '../../src/core/checks/types';
import { notCheckedSaying, notRunSaying } from '../../src/core/checks/verdict';
import type { FileView, HostMessage } from '../../src/panel/protocol';
import { screenshotPath, type PanelPage } from './harness';
import { allEvents, type SessionScript } from './sessionEvents';
import { ev, evs, panelSuite } from './panelSuite';

/**
 * A step's voice once it holds `text` (streamed deltas go into the page once a frame: media/app/view.ts queueVoice),
 * or as it is after 5 s — the assertion then says what it was.
 */
async function voiceWhen(p: PanelPage, step: string, text: string, how: 'is' | 'has' = 'is'): Promise<string> {
  await p.page
    .waitForFunction(([s, t, h]) => {
      const v = document.querySelector(`.turn[data-step="${s}"] .voice`)?.textContent ?? '';
      return h === 'is' ? v === t : v.includes(t);
    }, [step, text, how] as const, { timeout: 5000 })
    .catch(() => undefined);
  return (await p.page.locator(`.turn[data-step="${step}"] .voice`).textContent()) ?? '';
}

/** Compare rendered text loosely: markdown may change whitespace and list markers. */
const squash = (s: string) => s.replace(/\s+/g, '');

describe('chat panel webview (Chromium)', function () {
  this.timeout(60_000);
  const suite = panelSuite();
  const { open, fullSession } = suite;
  let script: SessionScript;
  before(() => {
    script = suite.script;
  });

  it('sends ready on load and renders an empty state', async () => {
    const p = await open();
    assert.deepStrictEqual(await p.posted(), [{ type: 'ready' }]);
    assert.match(await p.page.textContent('.empty') ?? '', /No session yet/);
  });

  it('streams the voice as text while the step runs, and shows progress in the stepper', async () => {
    const p = await open();
    const first = script.steps[0];
    await p.send({ type: 'busy', running: true }, ev(script.started), ...evs(first.firstHalf));
    const partial = first.firstHalf.filter((e) => e.type === 'voice-delta').map((e) => (e as { text: string }).text).join('');
    assert.ok(partial.length > 0);
    const voice = p.page.locator('.turn[data-step="cm_open"] .voice');
    // the deltas go into the page together, once a frame (view.ts queueVoice)
    await p.page.waitForFunction((text) => document.querySelector('.turn[data-step="cm_open"] .voice')?.textContent === text, partial, { timeout: 5000 });
    assert.strictEqual(await voice.textContent(), partial);
    assert.ok(await voice.isVisible());
    assert.strictEqual(await voice.getAttribute('aria-live'), 'polite');
    assert.strictEqual(await p.page.getAttribute('.step[data-step="cm_open"]', 'data-status'), 'running');
    assert.strictEqual(await p.page.getAttribute('.step[data-step="poa"]', 'data-status'), 'pending');
    assert.ok(await p.page.isEnabled('button[data-action="stop"]'));

    await p.send(...evs(first.secondHalf));
    assert.strictEqual(await voice.textContent(), first.envelope.voice);
    assert.strictEqual(await p.page.getAttribute('.step[data-step="cm_open"]', 'data-status'), 'done');
    // The opening card replaced any raw JSON: no '{"session_brief"' text anywhere.
    assert.doesNotMatch((await p.page.textContent('main')) ?? '', /"session_brief"/);
  });

  it('a voice streamed in thousands of small deltas goes into the page a frame at a time, whole and in order', async () => {
    const p = await open();
    await p.send({ type: 'busy', running: true }, ev(script.started), ev({ type: 'step-started', step: 'cm_open', agent: 'CM', attempt: 1 }));
    const deltas = Array.from({ length: 3000 }, (_, i) => `w${i} `);
    await p.send(...deltas.map((text) => ev({ type: 'voice-delta', step: 'cm_open', text })));
    const whole = deltas.join('');
    await p.page.waitForFunction((text) => document.querySelector('.turn[data-step="cm_open"] .voice')?.textContent === text, whole, { timeout: 10000 });
    const nodes = await p.page.evaluate(() => document.querySelector('.turn[data-step="cm_open"] .voice')!.childNodes.length);
    assert.ok(nodes < deltas.length / 10, `${nodes} text nodes for ${deltas.length} deltas`);
  });

  it('shows each tool call as a chip while DevA works (refused or bounded ones in the warning colour) and flags unread rewrites', async () => {
    const p = await open();
    await p.send(
      ev(script.started),
      ev({ type: 'step-started', step: 'deva', agent: 'DevA', attempt: 1 }),
      ev({ type: 'tool-call', step: 'deva', agent: 'DevA', call: { id: 'a', tool: 'read_file', target: 'src/app.ts', path: 'src/app.ts', chars: 2150 } }),
      ev({ type: 'tool-call', step: 'deva', agent: 'DevA', call: { id: 'b', tool: 'search_files', target: 'getTheme', query: 'getTheme', chars: 90, hits: 3 } }),
      ev({ type: 'tool-call', step: 'deva', agent: 'DevA', call: { id: 'c', tool: 'read_file', target: '.env', chars: 0, refused: '.env: secret file (name matches ".env"); never read' } }),
    );
    const chips = p.page.locator('.turn[data-step="deva"] .tool-call');
    assert.deepStrictEqual(await chips.allTextContents(), [
      ' DevA read src/app.ts · 2.1 KB',
      ' DevA searched getTheme · 3 hits',
      ' DevA read .env — refused: .env: secret file (name matches ".env"); never read',
    ].map((t) => t.trimStart()).map((t) => ` ${t}`));
    assert.deepStrictEqual(await chips.evaluateAll((els) => els.map((e) => e.classList.contains('tool-call-warning'))), [false, false, true]);
    const warnColor = await chips.nth(2).evaluate((e) => getComputedStyle(e).color);
    const okColor = await chips.nth(0).evaluate((e) => getComputedStyle(e).color);
    assert.notStrictEqual(warnColor, okColor);
    await p.send({ type: 'files', files: [{ path: 'src/app.ts', action: 'modify', status: 'proposed', warning: 'rewrites a file that was not read' }] });
    assert.match((await p.page.textContent('.file[data-path="src/app.ts"] .file-warning')) ?? '', /rewrites a file that was not read/);
    // Review Hunks: enabled once a file is accepted; the hint says the preview opens with the changes unticked
    const review = p.page.locator('button[data-action="reviewHunks"]');
    assert.ok(await review.isDisabled());
    await p.send({ type: 'capabilities', trusted: true, provider: 'Anthropic API', model: 'm' }, { type: 'files', files: [{ path: 'src/app.ts', action: 'modify', status: 'accepted' }] });
    assert.ok(await review.isEnabled());
    assert.match((await p.page.textContent('.hint-hunks')) ?? '', /refactor preview with every change of the accepted files unticked/);
    await p.clearPosted();
    await review.click();
    assert.deepStrictEqual(await p.posted(), [{ type: 'reviewHunks' }]);
  });

  it("shows DevA's blocker and DA's answer as a conversation in DevA's turn, model text inert", async () => {
    const p = await open();
    await p.send(
      ev(script.started),
      ev({ type: 'step-started', step: 'deva', agent: 'DevA', attempt: 1 }),
      ev({ type: 'blocker', step: 'deva', from: 'DevA', to: 'DA', round: 1, questions: ['Where does the toggle go <img src=x onerror=alert(1)>?'], voice: 'v' }),
    );
    const exchange = p.page.locator('.turn[data-step="deva"] .exchange');
    assert.match((await exchange.textContent()) ?? '', /DevA asked DA about the specs.*Where does the toggle go.*DA is answering/s);
    assert.strictEqual(await p.page.locator('.turn[data-step="deva"] .exchange img').count(), 0);
    await p.send(
      ev({ type: 'blocker-answer', step: 'deva', from: 'DA', round: 1, voice: 'Into the overflow menu.', answer: 'x' }),
      ev({ type: 'step-started', step: 'deva', agent: 'DevA', attempt: 1 }),
      ev({ type: 'voice-delta', step: 'deva', text: 'Building it now.' }),
    );
    const bubbles = exchange.locator('.bubble');
    assert.strictEqual(await bubbles.count(), 2);
    assert.match((await bubbles.nth(1).textContent()) ?? '', /DA.*Into the overflow menu\./s);
    assert.doesNotMatch((await exchange.textContent()) ?? '', /is answering/);
    assert.strictEqual(await voiceWhen(p, 'deva', 'Building it now.'), 'Building it now.');
  });

  describe("the Cape Master's blocking questions", () => {
    const QUESTIONS = ['Toggle or only the OS setting? <img src=x onerror=alert(1)>', 'Which screens: the list only, or the editor too?'];
    async function paused(p: PanelPage): Promise<string> {
      const started = script.started as Extract<SessionEvent, { type: 'session-started' }>;
      await p.send({ type: 'busy', running: true }, ev(started), ...evs(script.steps[0].firstHalf), ...evs(script.steps[0].secondHalf));
      await p.send(ev({ type: 'needs-answers', step: 'cm_open', taskId: started.taskId, questions: QUESTIONS }), { type: 'busy', running: false });
      return started.taskId;
    }

    it('shows one labelled answer box per question; Submit answers posts them in order once one is typed', async () => {
      const p = await open();
      const taskId = await paused(p);
      const block = p.page.locator('.turn[data-step="cm_open"] .dor-questions-open');
      assert.ok(await block.isVisible());
      assert.match((await block.locator('.dor-questions-title').textContent()) ?? '', /The Cape Master needs 2 answers before the team starts/);
      assert.strictEqual(await block.locator('img').count(), 0, 'model text is inert');
      assert.strictEqual(await block.locator('textarea.answer-input').count(), 2);
      assert.strictEqual(await p.page.getAttribute('label[for="cape-answer-1"]', 'class'), 'question-text');
      const submit = block.locator('button[data-action="answerQuestions"]');
      assert.ok(await submit.isDisabled(), 'nothing typed yet');
      assert.ok(await block.locator('button[data-action="skipQuestions"]').isEnabled());
      await p.clearPosted();
      await p.page.fill('#cape-answer-0', '  A toggle, defaulting to the OS.  ');
      assert.ok(await submit.isEnabled());
      await submit.click();
      assert.deepStrictEqual(await p.posted(), [{ type: 'answerQuestions', taskId, answers: ['  A toggle, defaulting to the OS.  ', ''] }]);
      const done = p.page.locator('.turn[data-step="cm_open"] .dor-questions-answered');
      assert.match((await done.textContent()) ?? '', /You answered the Cape Master's questions.*A toggle, defaulting to the OS\..*No answer: the team assumes\./s);
      assert.strictEqual(await p.page.locator('textarea.answer-input').count(), 0);
      // The resumed session (the opening runs again) keeps the answers on screen.
      await p.send({ type: 'busy', running: true }, ev({ type: 'session-started', taskId, objective: 'x', language: 'English', steps: [...STEP_IDS], resumed: true }), ev({ type: 'step-started', step: 'cm_open', agent: 'CM', attempt: 1 }));
      assert.strictEqual(await p.page.locator('.history-item').count(), 0, 'the same session continues');
      assert.ok(await p.page.locator('.turn[data-step="cm_open"] .dor-questions-answered').isVisible());
    });

    it('Continue anyway posts skipQuestions; both buttons wait while a run is in progress', async () => {
      const p = await open();
      const taskId = await paused(p);
      await p.send({ type: 'busy', running: true });
      assert.ok(await p.page.isDisabled('button[data-action="skipQuestions"]'));
      await p.page.fill('#cape-answer-1', 'Every screen.');
      assert.ok(await p.page.isDisabled('button[data-action="answerQuestions"]'));
      await p.send({ type: 'busy', running: false });
      assert.ok(await p.page.isEnabled('button[data-action="answerQuestions"]'));
      await p.clearPosted();
      await p.page.click('button[data-action="skipQuestions"]');
      assert.deepStrictEqual(await p.posted(), [{ type: 'skipQuestions', taskId }]);
      assert.match((await p.page.locator('.dor-questions-skipped').textContent()) ?? '', /You continued without answering/);
    });

    for (const theme of ['dark', 'light'] as const) {
      it(`screenshots the questions in the ${theme} theme`, async () => {
        const p = await open(theme, { width: 860, height: 900 });
        await paused(p);
        await p.page.fill('#cape-answer-0', 'A toggle in the header, defaulting to the OS setting.');
        await p.page.locator('.dor-questions').scrollIntoViewIfNeeded();
        await p.page.locator('.dor-questions').screenshot({ path: screenshotPath(`${theme}-questions`) });
      });
    }
  });

  it('shows a collapsed "working" indicator instead of raw JSON while the output streams', async () => {
    const p = await open();
    const poa = script.steps[1];
    const outputDeltas = poa.secondHalf.filter((e) => e.type === 'output-delta');
    await p.send(ev(script.started), ...evs(poa.firstHalf), ...evs(outputDeltas.slice(0, 2)));
    const working = p.page.locator('.turn[data-step="poa"] .working');
    assert.ok(await working.isVisible());
    const streamed = outputDeltas.slice(0, 2).map((e) => (e as { text: string }).text).join('');
    assert.ok(!((await p.page.textContent('main')) ?? '').includes(streamed.slice(0, 40)), 'raw JSON must not be shown');
  });

  it("shows DevA's checks (each run, the fix round, the outcome) and keeps an opened output open when the turn re-renders", async () => {
    const p = await open();
    const deva = script.steps[3];
    const check = (event: CheckEvent): HostMessage => ev({ type: 'check', step: 'deva', event });
    const run = (round: number, passed: boolean, output: string) => ({
      command: 'npm test',
      round,
      status: passed ? ('passed' as const) : ('failed' as const),
      passed,
      exitCode: passed ? 0 : 1,
      durationMs: 1500,
      output,
      outputChars: output.length,
    });
    await p.send(ev(script.started), ...evs(deva.firstHalf), check({ type: 'formatted', round: 0, by: 'Prettier', files: ['src/a.ts', '<b>x</b>.ts'] }));
    await p.send(check({ type: 'check-started', round: 0, command: 'npm test', index: 0, total: 1 }));
    // the project's formatter laid out DevA's files first: said before the runs, file names as text
    const formatted = p.page.locator('.turn[data-step="deva"] .check-formatted');
    assert.match(await formatted.innerText(), /^\s*Prettier laid out src\/a\.ts, <b>x<\/b>\.ts\nThe project's formatter, as on save: the diff shows its layout\.$/);
    assert.strictEqual(await formatted.locator('b').count(), 0);
    const runs = p.page.locator('.turn[data-step="deva"] .check-run');
    assert.strictEqual(await runs.getAttribute('data-status'), 'running');
    await p.send(check({ type: 'check-finished', run: run(0, false, 'src/a.ts:3: <b>expected</b> 2') }));
    // a check that fixes as it runs (`eslint --fix .`) changed one of DevA's files: named by its command
    await p.send(check({ type: 'formatted', round: 0, by: 'npm test', files: ['src/a.ts'], check: true }));
    assert.match(await formatted.nth(1).innerText(), /^\s*`npm test` fixed src\/a\.ts as it ran\nA check that fixes as it runs: the diff shows its fixes, the text the checks ran on\.$/);
    // after its first failure the check runs on the unchanged code: it passes there, so the failure is the proposal's
    await p.send(check({ type: 'check-started', round: 0, command: 'npm test', index: 0, total: 1, baseline: true }), check({ type: 'check-finished', run: run(0, true, 'ok'), baseline: true }));
    await p.send(check({ type: 'fix-round', round: 1, max: 2, failing: ['npm test'] }));
    await p.send(check({ type: 'fix-applied', round: 1, files: ['src/a.ts'], problems: ['one block did not match'] }));
    const first = runs.nth(0);
    assert.strictEqual(await first.getAttribute('data-status'), 'failed');
    assert.match(await first.locator('.check-status').innerText(), /failed · exit 1/);
    assert.ok(!(await first.locator('.check-output').evaluate((d) => (d as HTMLDetailsElement).open)), 'the output starts collapsed');
    await first.locator('.check-output summary').click();
    assert.strictEqual(await first.locator('.check-output-text').innerText(), 'src/a.ts:3: <b>expected</b> 2', 'output is plain text');
    assert.match(await p.page.locator('.turn[data-step="deva"] .check-fix').innerText(), /Fix round 1 of 2: DevA fixes npm test[\s\S]*Changed src\/a\.ts[\s\S]*one block did not match/);
    // the next events re-render DevA's turn: the output the user opened stays open
    await p.send(check({ type: 'check-started', round: 1, command: 'npm test', index: 0, total: 1 }), check({ type: 'check-finished', run: run(1, true, 'ok') }));
    // fail-first (cape.failFirst): DevA's tests alone on the unchanged code, where failing is what they should do
    await p.send(check({ type: 'check-started', round: 0, command: 'npm test', index: 0, total: 1, before: true }), check({ type: 'check-finished', run: run(0, false, 'not ok 1 - adds'), before: true }));
    // one whose output shows DevA's tests did not build there (a Go package that lacks what they call)
    await p.send(
      check({ type: 'check-started', round: 0, command: 'go test ./...', index: 0, total: 1, before: true }),
      check({ type: 'check-finished', run: { ...run(0, false, 'FAIL\texample.com/calc [build failed]'), command: 'go test ./...', unbuilt: true }, before: true }),
    );
    await p.send(check({ type: 'checks-finished', passed: true, summary: [], fixRounds: 1 }));
    assert.strictEqual(await runs.count(), 5);
    assert.match(await runs.nth(4).locator('.check-status').innerText(), /^failed: DevA's tests did not build or load without the change · exit 1$/);
    assert.match(await runs.nth(1).locator('.check-round').innerText(), /your unchanged code/);
    assert.strictEqual(await runs.nth(1).getAttribute('data-on'), 'baseline');
    assert.match(await runs.nth(1).locator('.check-status').innerText(), /^passed$/);
    const before = runs.nth(3);
    assert.strictEqual(await before.getAttribute('data-on'), 'before');
    assert.match(await before.locator('.check-round').innerText(), /before the change: DevA's tests only/);
    assert.match(await before.locator('.check-status').innerText(), /failed · exit 1, as a test of the change should/);
    assert.ok(!(await runs.nth(0).getAttribute('data-on')), 'the first run is on the proposal');
    assert.ok(await runs.nth(0).locator('.check-output').evaluate((d) => (d as HTMLDetailsElement).open), 'the opened output is still open');
    assert.ok(!(await runs.nth(2).locator('.check-output').evaluate((d) => (d as HTMLDetailsElement).open)));
    assert.match(await runs.nth(2).locator('.check-round').innerText(), /after fix 1/);
    assert.match(await p.page.locator('.turn[data-step="deva"] .check-outcome').innerText(), /Every check passes after 1 fix round\./);
  });

  it('says when the checks fail only as the unchanged code does: no fix round was asked', async () => {
    const p = await open();
    const deva = script.steps[3];
    const check = (event: CheckEvent): HostMessage => ev({ type: 'check', step: 'deva', event });
    const run = (passed: boolean) => ({ command: 'npm test', round: 0, status: passed ? ('passed' as const) : ('failed' as const), passed, exitCode: passed ? 0 : 1, durationMs: 900, output: '✖ legacy', outputChars: 8 });
    await p.send(ev(script.started), ...evs(deva.firstHalf), check({ type: 'check-started', round: 0, command: 'npm test', index: 0, total: 1 }), check({ type: 'check-finished', run: run(false) }));
    await p.send(check({ type: 'check-started', round: 0, command: 'npm test', index: 0, total: 1, baseline: true }), check({ type: 'check-finished', run: run(false), baseline: true }));
    await p.send(check({ type: 'checks-finished', passed: false, summary: [], fixRounds: 0, failsAsBefore: true }));
    const runs = p.page.locator('.turn[data-step="deva"] .check-run');
    assert.match(await runs.nth(1).locator('.check-status').innerText(), /failed too · exit 1/);
    assert.strictEqual(await p.page.locator('.turn[data-step="deva"] .check-fix').count(), 0);
    assert.match(await p.page.locator('.turn[data-step="deva"] .check-outcome').innerText(), /Fails only as your unchanged code does \(the same failing test cases or problems, the same output where it names neither, or killed at the time limit there too\): not the proposal's doing, so DevA was not asked to fix it\./);
  });

  it('says when no check could start, and why: not that the proposal still fails', async () => {
    const p = await open();
    const deva = script.steps[3];
    const check = (event: CheckEvent): HostMessage => ev({ type: 'check', step: 'deva', event });
    const reason = "the workspace holds more than 100 files to copy (installed dependencies, caches and build output aside), past the checks' limit (1 MB, 100 files)";
    const run = { command: 'npm test', round: 0, status: 'error' as const, passed: false, exitCode: null, durationMs: 0, output: `[not run: ${reason}. No scratch copy was made.]`, outputChars: 0 };
    await p.send(ev(script.started), ...evs(deva.firstHalf), check({ type: 'check-started', round: 0, command: 'npm test', index: 0, total: 1 }), check({ type: 'check-finished', run }));
    await p.send(check({ type: 'checks-finished', passed: false, summary: [], fixRounds: 0, notRun: reason }));
    const outcome = await p.page.locator('.turn[data-step="deva"] .check-outcome').innerText();
    assert.strictEqual(outcome.trim(), `${notRunSaying(reason)} It is kept for your review.`);
    assert.doesNotMatch(outcome, /Still failing/);
  });

  it('says when a proposed file was not in the copy the checks ran on: its row, and an outcome that is not "every check passes"', async () => {
    const p = await open();
    const deva = script.steps[3];
    const check = (event: CheckEvent): HostMessage => ev({ type: 'check', step: 'deva', event });
    const run = { command: 'npm test', round: 0, status: 'passed' as const, passed: true, exitCode: 0, durationMs: 900, output: '', outputChars: 0 };
    const reason = 'linked is a linked folder, so the file was not written to the scratch copy the checks ran on';
    await p.send(ev(script.started), ...evs(deva.firstHalf), check({ type: 'not-written', round: 0, files: [{ path: 'linked/x.js', reason }] }));
    await p.send(check({ type: 'check-started', round: 0, command: 'npm test', index: 0, total: 1 }), check({ type: 'check-finished', run }));
    await p.send(check({ type: 'checks-finished', passed: true, summary: [], fixRounds: 0, notChecked: ['linked/x.js'] }));
    assert.match(await p.page.locator('.turn[data-step="deva"] .check-not-written').innerText(), new RegExp(`not checked:\\s+linked/x\\.js: ${reason}`));
    const outcome = await p.page.locator('.turn[data-step="deva"] .check-outcome').innerText();
    assert.strictEqual(outcome.trim(), notCheckedSaying(['linked/x.js']));
    assert.doesNotMatch(outcome, /Every check passes/);
  });

  it('renders the CM opening card with the DoR result, concerns, watch-outs and coaching notes', async () => {
    const p = await open();
    await fullSession(p);
    const out = script.steps[0].envelope.output as { dor_check: { passed: boolean; concerns: string[] }; watch_out: string[]; coaching_notes: Record<string, string> };
    const card = p.page.locator('.turn[data-step="cm_open"] .opening-card');
    assert.ok(await card.isVisible());
    assert.strictEqual(await card.locator('.dor').getAttribute('class'), `dor ${out.dor_check.passed ? 'dor-passed' : 'dor-failed'}`);
    const concerns = await card.locator('.concerns li').allTextContents();
    assert.strictEqual(concerns.length, out.dor_check.concerns.length);
    out.dor_check.concerns.forEach((c, i) => assert.strictEqual(squash(concerns[i]), squash(c)));
    assert.strictEqual(await card.locator('.watch-out li').count(), out.watch_out.length);
    const notes = Object.values(out.coaching_notes).filter((n) => n.trim() !== '');
    assert.strictEqual(await card.locator('.coach-note').count(), notes.length);
  });

  it('renders the retrospective conversation, KPT lists and the metrics table', async () => {
    const p = await open();
    await fullSession(p);
    const retro = script.steps[4].envelope;
    const turn = p.page.locator('.turn[data-step="cm_retro"]');
    assert.strictEqual(await turn.locator('.conversation > li').count(), retro.conversation!.length);
    const speakers = await turn.locator('.bubble-speaker').allTextContents();
    assert.deepStrictEqual(speakers, retro.conversation!.map((t) => t.speaker));
    for (const kind of ['keep', 'problem', 'try'] as const) {
      const items = await turn.locator(`.kpt-${kind} li`).allTextContents();
      assert.deepStrictEqual(items.map(squash), retro.kpt![kind].map(squash), `KPT ${kind}`);
    }
    const finished = script.finished as Extract<SessionEvent, { type: 'session-finished' }>;
    const summary = await turn.locator('.metrics-summary').textContent();
    for (const [agent, score] of Object.entries(finished.metrics.ass)) if (score != null) assert.match(summary ?? '', new RegExp(`${score} / 5`), agent);
    assert.match(summary ?? '', new RegExp(finished.metrics.assAverage!.toFixed(2).replace('.', '\\.')));
    assert.match(summary ?? '', new RegExp(`Cross-references XRF${finished.metrics.crossReferenceFrequency}`));
    assert.match(summary ?? '', new RegExp(`Conversation turns CI${finished.metrics.conversationIndex}`));
    const costRows = await turn.locator('.metrics-cost tbody tr').count();
    assert.strictEqual(costRows, 5);
    const total = await turn.locator('.metrics-cost tfoot').textContent();
    assert.match(total ?? '', new RegExp(finished.metrics.totalUsage.inputTokens.toLocaleString('en-US')));
    assert.match(total ?? '', new RegExp('\\$' + finished.metrics.totalCostUsd!.toFixed(3).replace('.', '\\.')));
    assert.strictEqual(await p.page.getAttribute('.step[data-step="cm_retro"]', 'data-status'), 'done');
    // TSR: computed and judged, and one row per acceptance criterion (model text inert).
    // (AC-3 is left to review: out of the computed one's count, and said so)
    assert.match(summary ?? '', /Task success — checks TSR50% \(1 of 2 counted, 1 with no test, 1 to review\)/);
    assert.match(summary ?? '', /Task success — judged TSR100% \(3 of 3\)/);
    const rows = turn.locator('.metrics-criteria tbody tr');
    assert.strictEqual(await rows.count(), 3);
    assert.deepStrictEqual((await rows.nth(0).locator('td').allTextContents()).map((t) => t.trim()), [
      'test/notes.test.ts › keeps a saved note (regression guard); test/notes.test.ts › keeps it after a reload (regression guard); npm test (the whole check)',
      'passed',
      'failed (fail-first observed) — DevA meant it as a regression guard: it fails without the change',
      'met',
      'the test covers it',
    ]);
    assert.deepStrictEqual((await rows.nth(1).locator('td').allTextContents()).map((t) => t.trim()), ['CHANGES.md (for review)', 'no test', '—', 'met', 'the <script>alert(1)</script> is escaped']);
    assert.deepStrictEqual((await rows.nth(2).locator('td').allTextContents()).map((t) => t.trim()), ['CHANGES.md (for review)', 'to review', '—', 'met', 'the entry is there']);
    // the fail-first column is there because a criterion has that verdict (the session ran with cape.failFirst)
    assert.deepStrictEqual(await turn.locator('.metrics-criteria thead th').allTextContents(), ['Criterion', 'Test', 'Checks', 'Before the change', 'Judged', 'Reason']);
    assert.strictEqual(await turn.locator('.metrics-criteria script, .metrics-criteria b').count(), 0);
    // a criterion whose test file did not build without the change says so, not that its tests failed (a Rust trial)
    const unbuilt = { id: 'AC-1', text: 'bump patch', tests: [{ file: 'tests/test_bump.rs', name: 'test_ac1', expect: 'fail' as const }], computed: 'pass' as const, before: 'unbuilt' as const };
    // and one whose tests are all regression guards passing there, as DevA meant (the retrospective file's words)
    const guarded = { ...unbuilt, id: 'AC-2', tests: [{ file: 'tests/test_parse.rs', name: 'test_parse', expect: 'pass' as const }], before: 'pass' as const, guard: true as const };
    await p.send(ev({ ...finished, metrics: { ...finished.metrics, criteria: [unbuilt, guarded] } }));
    assert.deepStrictEqual(await turn.locator('.metrics-criteria .criterion-before').allTextContents(), [
      'did not build or load without the change (the test file needs it; no test ran)',
      'passed (a regression guard, as DevA meant)',
    ]);
  });

  it('lists the proposed files with badges and posts Diff / Accept / Reject / Apply / Discard', async () => {
    const p = await open();
    await fullSession(p);
    const rows = p.page.locator('.files .file');
    assert.strictEqual(await rows.count(), script.files.length);
    assert.strictEqual(await p.page.locator('.files .badge-new').count(), script.files.filter((f) => f.action === 'create' && f.status !== 'refused').length);
    assert.strictEqual(await p.page.locator('.files .badge-modified').count(), 1);
    const refused = p.page.locator('.files .file-refused');
    assert.strictEqual(await refused.locator('.badge-refused').count(), 1);
    assert.match((await refused.locator('.file-reason').textContent()) ?? '', /leaves the workspace/);
    assert.strictEqual(await refused.locator('button[data-action="accept"]').count(), 0, 'a refused file cannot be accepted');

    const apply = p.page.locator('button[data-action="apply"]');
    assert.ok(await apply.isDisabled(), 'Apply is disabled while nothing is accepted');

    const first = script.files[0].path;
    const row = p.page.locator(`.files .file[data-path="${first}"]`);
    await p.clearPosted();
    await row.locator('button[data-action="diff"]').click();
    await row.locator('button[data-action="accept"]').click();
    assert.strictEqual(await row.locator('button[data-action="accept"]').getAttribute('aria-pressed'), 'true');
    assert.ok(await apply.isEnabled());
    await apply.click();
    await row.locator('button[data-action="reject"]').click();
    assert.ok(await apply.isDisabled(), 'rejecting the only accepted file disables Apply again');
    await p.page.click('button[data-action="discard"]');
    assert.deepStrictEqual(await p.posted(), [
      { type: 'openDiff', path: first },
      { type: 'setFileDecision', path: first, decision: 'accept' },
      { type: 'applyFiles' },
      { type: 'setFileDecision', path: first, decision: 'reject' },
      { type: 'discardFiles' },
    ]);

    // The host's files message is authoritative.
    const applied: FileView[] = [{ path: first, action: 'create', status: 'applied' }];
    await p.send({ type: 'files', files: applied });
    assert.strictEqual(await rows.count(), 1);
    assert.strictEqual(await p.page.locator('.files .badge-applied').count(), 1);
    assert.strictEqual(await p.page.locator('button[data-action="apply"]').count(), 0);
  });

  it('keeps Apply disabled with an explanation in an untrusted workspace', async () => {
    const p = await open();
    await fullSession(p, false);
    await p.page.click('button[data-action="acceptAll"]');
    const apply = p.page.locator('button[data-action="apply"]');
    assert.ok(await apply.isDisabled());
    assert.match((await p.page.textContent('.files .hint-warn')) ?? '', /not trusted/);
    assert.match((await apply.getAttribute('title')) ?? '', /untrusted/);
    await p.page.screenshot({ path: screenshotPath('untrusted-files'), fullPage: false, clip: (await p.page.locator('.files').boundingBox()) ?? undefined });
  });

  it('Stop posts stop while running and is disabled when idle', async () => {
    const p = await open();
    await p.send({ type: 'busy', running: true }, ev(script.started), ...evs(script.steps[0].firstHalf));
    await p.clearPosted();
    await p.page.click('button[data-action="stop"]');
    assert.deepStrictEqual(await p.posted(), [{ type: 'stop' }]);
    await p.send(ev({ type: 'error', step: 'cm_open', kind: 'cancelled', message: 'Stopped by the user.' }), { type: 'busy', running: false });
    assert.ok(await p.page.isDisabled('button[data-action="stop"]'));
    // The error arrived while busy; once idle, Retry becomes usable.
    assert.ok(await p.page.isEnabled('.turn[data-step="cm_open"] button[data-action="retry"]'));
    await p.send({ type: 'busy', running: true });
    assert.ok(await p.page.isDisabled('.turn[data-step="cm_open"] button[data-action="retry"]'));
  });

  it('shows the session\'s running cost in the header, updated with every response, with its cap', async () => {
    const p = await open();
    const chip = p.page.locator('.panel-header [data-testid="session-cost"]');
    await p.send({ type: 'busy', running: true }, ev(script.started));
    assert.strictEqual(await chip.count(), 0, 'no figure before the runner reports one');
    await p.send(ev({ type: 'cost', spentUsd: 0, capUsd: null }), ...evs(script.steps[0].firstHalf));
    assert.strictEqual((await chip.innerText()).trim(), '$0.000');
    await p.send(ev({ type: 'cost', spentUsd: 0.0042, capUsd: null }));
    assert.strictEqual((await chip.innerText()).trim(), '$0.0042', 'updated mid-step (a tool turn, a repair)');
    assert.strictEqual(await p.page.locator('.turn[data-step="cm_open"]').count(), 1, 'the streamed step is still shown');
    await p.send(ev({ type: 'cost', spentUsd: 0.1234, capUsd: 0.5 }));
    assert.strictEqual((await chip.innerText()).trim(), '$0.123 of $0.500');
    assert.match((await chip.getAttribute('title')) ?? '', /cost cap \$0\.500/);
    await p.send(ev({ type: 'cost', spentUsd: null, capUsd: 0.5 }));
    assert.strictEqual((await chip.innerText()).trim(), 'cost unknown of $0.500');
    assert.match((await chip.getAttribute('title')) ?? '', /cannot be enforced/);
    await p.send(ev({ type: 'error', step: 'deva', kind: 'cost_cap', message: 'Stopped before the next request (Developer) to stay within the session\'s cost cap of $0.50' }));
    assert.match(await p.page.locator('.turn[data-step="deva"] .error-title').innerText(), /Cost cap reached/);
  });

  it('shows errors in the failing step with Retry and Resume, and resets the stream on retry', async () => {
    const p = await open();
    await p.send(ev(script.started), ...evs([...script.steps[0].firstHalf, ...script.steps[0].secondHalf]), ...evs(script.steps[1].firstHalf));
    await p.send(ev({ type: 'error', step: 'poa', kind: 'overloaded', message: 'The API is overloaded (529). Try again in a minute.' }));
    assert.strictEqual(await p.page.getAttribute('.step[data-step="poa"]', 'data-status'), 'failed');
    const box = p.page.locator('.turn[data-step="poa"] .error-box');
    assert.match((await box.textContent()) ?? '', /overloaded \(529\)/);
    await p.clearPosted();
    await box.locator('button[data-action="retry"]').click();
    await box.locator('button[data-action="resume"]').click();
    assert.deepStrictEqual(await p.posted(), [
      { type: 'retry', step: 'poa' },
      { type: 'resume', taskId: script.session.taskId },
    ]);
    await p.send(ev({ type: 'retry', step: 'poa', attempt: 2, reason: 'overloaded', delayMs: 2000 }));
    const turn = p.page.locator('.turn[data-step="poa"]');
    assert.match((await turn.locator('.note').textContent()) ?? '', /Retrying after overloaded \(attempt 2, in 2 s\)/);
    assert.strictEqual(await turn.locator('.voice').textContent(), '');
    assert.strictEqual(await turn.locator('.error-box').count(), 0);
    await p.send(ev({ type: 'voice-delta', step: 'poa', text: 'second try' }));
    assert.strictEqual(await voiceWhen(p, 'poa', 'second try'), 'second try');
    // A session-level error (no step) shows a banner with Resume.
    await p.send(ev({ type: 'error', step: null, kind: 'auth', message: 'The API key was rejected.' }));
    assert.match((await p.page.textContent('.session > .error-box')) ?? '', /Authentication failed[\s\S]*API key was rejected/);
  });

  it('shows a warning about a step\'s reply in that step, in the warning colour', async () => {
    const p = await open();
    await p.send(ev(script.started), ...evs(script.steps[0].firstHalf));
    const msg = 'The reply contains 2 JSON envelopes; the last complete one (line 12) was used and the earlier one (line 2) ignored.';
    await p.send(ev({ type: 'warning', step: 'cm_open', message: msg }));
    const note = p.page.locator('.turn[data-step="cm_open"] .note-warning');
    assert.strictEqual(await note.count(), 1);
    assert.strictEqual(((await note.textContent()) ?? '').trim(), msg);
    assert.strictEqual(await note.locator('.codicon-warning').count(), 1);
  });

  it('restores the whole view after a reload and says ready again', async () => {
    const p = await open();
    await fullSession(p);
    await p.page.click(`.files .file[data-path="${script.files[0].path}"] button[data-action="accept"]`);
    const before = (await p.page.textContent('body')) ?? '';
    await p.page.reload();
    await p.page.waitForSelector('.panel-header');
    assert.deepStrictEqual(await p.posted(), [{ type: 'ready' }]);
    assert.strictEqual((await p.page.textContent('body')) ?? '', before);
    assert.strictEqual(await p.page.locator('.turn').count(), 5);
    assert.strictEqual(await p.page.textContent('.turn[data-step="poa"] .voice'), script.steps[1].envelope.voice);
    assert.strictEqual(await p.page.getAttribute(`.files .file[data-path="${script.files[0].path}"]`, 'data-status'), 'accepted');
    assert.strictEqual(await p.page.locator('.conversation > li').count(), script.steps[4].envelope.conversation!.length);
  });

  it('restores a finished session saved by an earlier version (no open questions in it) without breaking', async () => {
    const p = await open();
    await fullSession(p);
    // the state an earlier version stored: its finished session has no openQuestions (changed as the page loads,
    // after this page last saved its state)
    await p.page.addInitScript(() => {
      const state = JSON.parse(sessionStorage.getItem('__vscodeState') ?? 'null');
      if (state?.session?.finished) delete state.session.finished.openQuestions;
      sessionStorage.setItem('__vscodeState', JSON.stringify(state));
    });
    await p.page.reload();
    await p.page.waitForSelector('.retro-results');
    assert.deepStrictEqual(await p.page.locator('.retro-results > .section-title').allTextContents(), ['Keep / Problem / Try', 'Metrics']);
  });

  it('asks for the next objective and submits it with Ctrl+Enter; Finish submits empty', async () => {
    const p = await open();
    await fullSession(p);
    await p.send({ type: 'askObjective', prompt: 'What next?' });
    const ta = p.page.locator('textarea.objective-input');
    assert.ok(await ta.isVisible());
    assert.strictEqual(await p.page.textContent('.objective-prompt'), 'What next?');
    await p.clearPosted();
    await ta.fill('  Add a settings page  ');
    await ta.press('Control+Enter');
    assert.deepStrictEqual(await p.posted(), [{ type: 'submitObjective', text: 'Add a settings page' }]);
    assert.strictEqual(await p.page.locator('textarea.objective-input').count(), 0);
    await p.send({ type: 'askObjective', prompt: 'Anything else?' });
    await p.page.click('button[data-action="endLoop"]');
    assert.deepStrictEqual((await p.posted()).slice(1), [{ type: 'submitObjective', text: '' }]);
    // A new session archives the previous one as collapsed history.
    await p.send(ev({ ...(script.started as Extract<SessionEvent, { type: 'session-started' }>), taskId: 'task-next', objective: 'Add a settings page' }));
    assert.strictEqual(await p.page.locator('.history-item').count(), 1);
    assert.strictEqual(await p.page.locator('.session[data-current="true"] .turn').count(), 0);
  });

  it('intercepts links: http(s) → openLink, relative paths → openFile, never navigates', async () => {
    const p = await open();
    await p.send(ev(script.started), ev({ type: 'step-started', step: 'poa', agent: 'POA', attempt: 1 }));
    await p.send(
      ev({
        type: 'envelope',
        step: 'poa',
        summary: null,
        envelope: { agent: 'POA', role: 'Product Owner', task_id: 't', voice: 'v', output: { spec: 'See https://example.com/spec and [guide](docs/guide.md) or [mail](mailto:a@b.c).' }, references: [], confidence: 3, ass: null },
      }),
    );
    const url = p.page.url();
    await p.clearPosted();
    const links = p.page.locator('.turn[data-step="poa"] a');
    assert.strictEqual(await links.count(), 2, 'mailto: is dropped');
    await links.nth(0).click();
    await links.nth(1).click();
    assert.deepStrictEqual(await p.posted(), [
      { type: 'openLink', href: 'https://example.com/spec' },
      { type: 'openFile', path: 'docs/guide.md' },
    ]);
    assert.strictEqual(p.page.url(), url);
  });

  it('SECURITY: hostile voice, output, files and retro render as inert text', async () => {
    const p = await open();
    const evil = '<script>window.__pwned=1</script> <img src=x onerror="window.__pwned=1"> [x](javascript:window.__pwned=1) <a href="javascript:window.__pwned=1">y</a> [z](JAVASCRIPT:window.__pwned=1) [d](data:text/html,<script>1</script>) <svg onload="window.__pwned=1"></svg>';
    await p.send(ev(script.started), ev({ type: 'step-started', step: 'cm_open', agent: 'CM', attempt: 1 }), ev({ type: 'voice-delta', step: 'cm_open', text: evil }));
    assert.strictEqual(await voiceWhen(p, 'cm_open', evil), evil, 'the streamed voice is shown literally');
    await p.send(
      ev({
        type: 'envelope',
        step: 'cm_open',
        summary: null,
        envelope: {
          agent: 'CM',
          role: evil,
          task_id: 't',
          voice: evil,
          output: { session_brief: evil, dor_check: { passed: false, concerns: [evil] }, watch_out: [evil], coaching_notes: { POA: evil, DA: evil, DevA: evil }, kpt_followups: [evil] },
          references: [evil],
          confidence: null,
          ass: null,
        },
      }),
      ev({ type: 'step-started', step: 'poa', agent: 'POA', attempt: 1 }),
      ev({ type: 'envelope', step: 'poa', summary: evil, envelope: { agent: 'POA', role: 'x', task_id: 't', voice: evil, output: { [evil]: evil, list: [evil, { [evil]: [evil] }] }, references: [evil], confidence: 4, ass: { score: 4, positive: evil, improvement: evil, context_adequate: true } } }),
      ev({ type: 'file-proposed', step: 'deva', file: { path: evil, action: 'create', status: 'refused', reason: evil, content: evil } }),
      { type: 'files', files: [{ path: evil, action: 'create', status: 'proposed', reason: evil }] },
      ev({ type: 'step-started', step: 'cm_retro', agent: 'CM', attempt: 1 }),
      ev({ type: 'envelope', step: 'cm_retro', summary: null, envelope: { agent: 'CM', role: 'x', task_id: 't', voice: '', output: null, references: [], confidence: null, ass: null, conversation: [{ speaker: evil, text: evil }], kpt: { keep: [evil], problem: [evil], try: [evil] } } }),
      ev({ type: 'error', step: 'da', kind: 'invalid_reply', message: evil, raw: evil }),
      { type: 'askObjective', prompt: evil },
    );
    await p.page.waitForTimeout(300); // give any injected handler a chance to run
    assert.strictEqual(await p.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    assert.strictEqual(await p.page.locator('script').count(), 1, 'only the app script');
    assert.strictEqual(await p.page.locator('img, svg, iframe, object, embed').count(), 0);
    assert.strictEqual(await p.page.locator('[onerror], [onload], [onclick], [style]').count(), 0);
    assert.strictEqual(await p.page.locator('a[href^="javascript" i], a[href^="data" i]').count(), 0);
    // The hostile text is visible as text.
    assert.ok((await voiceWhen(p, 'cm_open', '<script>window.__pwned=1</script>', 'has')).includes('<script>window.__pwned=1</script>'));
    // Clicking every link and the javascript: link text posts nothing unsafe.
    await p.clearPosted();
    for (const a of await p.page.locator('main a').all()) await a.click();
    await p.page.getByText('[x](javascript:window.__pwned=1)').first().click();
    const posted = await p.posted();
    assert.ok(!JSON.stringify(posted).toLowerCase().includes('javascript:'), JSON.stringify(posted));
    assert.ok(!JSON.stringify(posted).toLowerCase().includes('data:text'), JSON.stringify(posted));
    assert.strictEqual(await p.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  });

  it('renders an output written as text (the CAPE paper\'s envelope) as markdown, hostile markup in it inert', async () => {
    const p = await open();
    const evil = '<script>window.__pwned=1</script> <img src=x onerror="window.__pwned=1"> [x](javascript:window.__pwned=1) <svg onload="window.__pwned=1"></svg>';
    const md = `## Acceptance criteria\n\n- Given an **overdue** task, then its badge says \`Overdue\`\n- ${evil}\n\n[guide](https://example.com/guide)\n`;
    await p.send({ type: 'capabilities', trusted: true, provider: 'Anthropic API', model: script.session.model }, ev(script.started));
    for (const [step, agent] of [['poa', 'POA'], ['da', 'DA']] as const) {
      await p.send(
        ev({ type: 'step-started', step, agent, attempt: 1 }),
        ev({ type: 'envelope', step, summary: null, envelope: { agent, role: 'x', task_id: 't', voice: `${agent} voice`, output: md, references: [], confidence: 4, ass: { score: 4, positive: '', improvement: '', context_adequate: true } } }),
      );
    }
    // One line, as in the paper's example: still markdown (a heading), not an inline string.
    await p.send(
      ev({ type: 'step-started', step: 'deva', agent: 'DevA', attempt: 1 }),
      ev({ type: 'envelope', step: 'deva', summary: null, envelope: { agent: 'DevA', role: 'x', task_id: 't', voice: 'v', output: '# Domain-specific content', references: [], confidence: 4, ass: { score: 4, positive: '', improvement: '', context_adequate: true } } }),
    );
    await p.page.waitForTimeout(300);
    assert.strictEqual(await p.page.locator('.turn[data-step="deva"] .output-body h1').textContent(), 'Domain-specific content');
    for (const step of ['poa', 'da']) {
      const body = p.page.locator(`.turn[data-step="${step}"] .output-body`);
      assert.strictEqual(await body.locator('h2').first().textContent(), 'Acceptance criteria', `${step}: the heading is a heading`);
      assert.strictEqual(await body.locator('li').count(), 2, `${step}: the list is a list`);
      assert.strictEqual(await body.locator('strong').first().textContent(), 'overdue');
      assert.strictEqual(await body.locator('code').first().textContent(), 'Overdue');
      assert.strictEqual(await body.locator('a[href="https://example.com/guide"]').count(), 1);
      assert.ok(((await body.textContent()) ?? '').includes('<script>window.__pwned=1</script>'), `${step}: hostile markup is shown as text`);
      assert.ok(!((await body.textContent()) ?? '').includes('## '), `${step}: no raw markdown`);
    }
    assert.strictEqual(await p.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    assert.strictEqual(await p.page.locator('script').count(), 1, 'only the app script');
    assert.strictEqual(await p.page.locator('img, svg, iframe, object, embed').count(), 0);
    assert.strictEqual(await p.page.locator('[onerror], [onload], [onclick], [style]').count(), 0);
    assert.strictEqual(await p.page.locator('a[href^="javascript" i]').count(), 0);
  });

  it('ignores malformed host messages without breaking', async () => {
    const p = await open();
    await p.send(null, 'event', { type: 'event', event: { type: 'voice-delta', step: 'nope', text: 'x' } }, { type: 'files', files: 'x' }, { type: 'reset', state: { version: 999 } });
    assert.match((await p.page.textContent('.empty')) ?? '', /No session yet/);
    await p.send(ev(script.started));
    assert.strictEqual(await p.page.locator('.step[data-status="pending"]').count(), 5);
  });

  for (const theme of ['dark', 'light'] as const) {
    it(`screenshots a finished session in the ${theme} theme`, async () => {
      const p = await open(theme, { width: 860, height: 1000 });
      await fullSession(p);
      await p.page.click(`.files .file[data-path="${script.files[0].path}"] button[data-action="accept"]`);
      await p.page.locator('.retro-results').screenshot({ path: screenshotPath(`${theme}-metrics`) });
      await p.send({ type: 'askObjective', prompt: 'What should the team do next?' });
      await p.page.evaluate(() => window.scrollTo(0, 0));
      await p.page.screenshot({ path: screenshotPath(`${theme}-top`) });
      await p.page.locator('.turn[data-step="cm_retro"]').scrollIntoViewIfNeeded();
      await p.page.screenshot({ path: screenshotPath(`${theme}-retro`) });
      await p.page.locator('.files').scrollIntoViewIfNeeded();
      await p.page.screenshot({ path: screenshotPath(`${theme}-files`) });
      await p.page.screenshot({ path: screenshotPath(`${theme}-full`), fullPage: true });
    });

    it(`screenshots a streaming step and a failure in the ${theme} theme`, async () => {
      const p = await open(theme, { width: 700, height: 800 });
      await p.send({ type: 'capabilities', trusted: true, provider: 'Anthropic API', model: script.session.model }, { type: 'busy', running: true }, ev(script.started));
      await p.send(...evs([...script.steps[0].firstHalf, ...script.steps[0].secondHalf, ...script.steps[1].firstHalf, ...script.steps[1].secondHalf]));
      await p.send(...evs(script.steps[2].firstHalf), ev({ type: 'output-delta', step: 'da', text: '{"design": "x' }), ev({ type: 'output-delta', step: 'da', text: '…' }));
      await p.page.screenshot({ path: screenshotPath(`${theme}-streaming`) });
      await p.send(ev({ type: 'error', step: 'da', kind: 'network', message: 'The connection was reset while streaming (ECONNRESET).' }), { type: 'busy', running: false });
      await p.page.screenshot({ path: screenshotPath(`${theme}-error`) });
    });
  }
});
