// The webview's view model (media/app/model.ts's reducer over viewState.ts's state) is pure: tested in Node, no browser needed.
import * as assert from 'assert';
import type { SessionEvent } from '../../src/core/model/types';
import type { HostMessage } from '../../src/panel/protocol';
import { toPanelEvent } from '../../src/panel/viewData';
import { decideQuestions, isRunning, reduce } from '../../media/app/model';
import { emptyState, MAX_HISTORY, restoreState, type PanelViewState } from '../../media/app/viewState';
import { envelopeView, plain } from '../../media/app/hostValues';
import { beforeFailureSaying } from '../../src/core/checks/verdict';

/** The host sends runner events view-shaped (src/panel/viewData.ts), as here. */
const ev = (event: SessionEvent): HostMessage => ({ type: 'event', event: toPanelEvent(event, undefined) });
const started = (taskId = 'task-1', steps = ['cm_open', 'poa', 'da', 'deva', 'cm_retro'], resumed = false): HostMessage =>
  ev({ type: 'session-started', taskId, objective: 'obj', language: 'en', steps: steps as never, resumed });

function run(msgs: HostMessage[], from: PanelViewState = emptyState()): PanelViewState {
  return msgs.reduce((s, m) => reduce(s, m).state, from);
}

describe('webview model: reduce', () => {
  it('accumulates voice deltas and reports them as appends once the step is running', () => {
    let s = run([started(), ev({ type: 'step-started', step: 'poa', agent: 'POA', attempt: 1 })]);
    const r1 = reduce(s, ev({ type: 'voice-delta', step: 'poa', text: 'Hel' }));
    assert.deepStrictEqual(r1.change, { kind: 'voice-append', step: 'poa', text: 'Hel' });
    s = reduce(r1.state, ev({ type: 'voice-delta', step: 'poa', text: 'lo' })).state;
    assert.strictEqual(s.session!.steps.poa.voice, 'Hello');
    assert.strictEqual(s.session!.steps.poa.status, 'running');
    assert.strictEqual(isRunning(s), true);
  });

  it('does not mutate the previous state', () => {
    const s0 = run([started()]);
    const frozen = JSON.stringify(s0);
    run([ev({ type: 'voice-delta', step: 'cm_open', text: 'x' }), ev({ type: 'error', step: 'cm_open', kind: 'network', message: 'm' })], s0);
    assert.strictEqual(JSON.stringify(s0), frozen);
  });

  it('keeps DevA\'s check runs and fix rounds in order, each run updated when it ends; a malformed field degrades', () => {
    const chk = (event: Extract<SessionEvent, { type: 'check' }>['event']) => ev({ type: 'check', step: 'deva', event });
    const runOf = (round: number, passed: boolean) => ({ command: 'npm test', round, status: passed ? ('passed' as const) : ('failed' as const), passed, exitCode: passed ? 0 : 1, durationMs: 1500, output: passed ? '' : 'src/a.ts:1 boom', outputChars: 15 });
    const s = run([
      started(),
      ev({ type: 'step-started', step: 'deva', agent: 'DevA', attempt: 1 }),
      chk({ type: 'formatted', round: 0, by: 'Prettier', files: ['src/a.ts'] }),
      chk({ type: 'check-started', round: 0, command: 'npm test', index: 0, total: 1 }),
      chk({ type: 'check-finished', run: runOf(0, false) }),
      chk({ type: 'fix-round', round: 1, max: 2, failing: ['npm test'] }),
      chk({ type: 'fix-applied', round: 1, files: ['src/a.ts'], problems: [] }),
      chk({ type: 'check-started', round: 1, command: 'npm test', index: 0, total: 1 }),
    ]);
    const deva = s.session!.steps.deva;
    assert.deepStrictEqual(deva.checks, [
      { kind: 'formatted', round: 0, by: 'Prettier', files: ['src/a.ts'] },
      { kind: 'run', round: 0, command: 'npm test', status: 'failed', exitCode: 1, durationMs: 1500, output: 'src/a.ts:1 boom' },
      { kind: 'fix', round: 1, max: 2, failing: ['npm test'], files: ['src/a.ts'], problems: [] },
      { kind: 'run', round: 1, command: 'npm test', status: 'running', exitCode: null, durationMs: null, output: '' },
    ]);
    // a check that fixed DevA's files as it ran (`eslint --fix .`) is told as such; a malformed flag is none
    const fixed = run([chk({ type: 'formatted', round: 0, by: 'npm run lint', files: ['src/a.vue'], check: true }), { type: 'event', event: { type: 'check', step: 'deva', event: { type: 'formatted', round: 0, by: 'x', files: [], check: 'yes' } } } as never], s);
    assert.deepStrictEqual(fixed.session!.steps.deva.checks!.slice(4), [
      { kind: 'formatted', round: 0, by: 'npm run lint', files: ['src/a.vue'], check: true },
      { kind: 'formatted', round: 0, by: 'x', files: [] },
    ]);
    const done = run([chk({ type: 'check-finished', run: runOf(1, true) }), chk({ type: 'checks-finished', passed: true, summary: [], fixRounds: 1 })], s);
    assert.strictEqual(done.session!.steps.deva.checks![3].kind === 'run' && done.session!.steps.deva.checks![3].status, 'passed');
    assert.deepStrictEqual(done.session!.steps.deva.checksOutcome, { passed: true, fixRounds: 1 });
    // a fail-first run (DevA's tests alone on the unchanged code) is its own row, marked before, even in round 0
    const ff = run([chk({ type: 'check-started', round: 0, command: 'npm test', index: 0, total: 1, before: true }), chk({ type: 'check-finished', run: runOf(0, false), before: true })], done);
    assert.deepStrictEqual(ff.session!.steps.deva.checks!.slice(4), [{ kind: 'run', round: 0, command: 'npm test', status: 'failed', exitCode: 1, durationMs: 1500, output: 'src/a.ts:1 boom', before: true }]);
    assert.strictEqual(ff.session!.steps.deva.checks![1].kind === 'run' && ff.session!.steps.deva.checks![1].before, undefined, 'the first run stays as it was');
    // a cargo test run once per target keeps what each target showed (its headline counts them); a malformed one is none
    const perTarget = (byTarget: unknown) =>
      run([chk({ type: 'check-finished', run: { ...runOf(0, false), unbuilt: true, byTarget } as never, before: true })], done).session!.steps.deva.checks!.at(-1);
    const byTarget = { crate: 'core', targets: ['bump', 'guard'], unbuilt: ['bump'], passed: 2, failed: 0 };
    assert.deepStrictEqual(perTarget(byTarget), { kind: 'run', round: 0, command: 'npm test', status: 'failed', exitCode: 1, durationMs: 1500, output: 'src/a.ts:1 boom', before: true, unbuilt: true, byTarget });
    assert.deepStrictEqual(perTarget({ targets: 'bump', unbuilt: [null, {}], passed: '2' }), { ...perTarget(byTarget), byTarget: { crate: '', targets: [], unbuilt: [], passed: 0, failed: 0 } });
    // a JavaScript test file that did not load: the panel reads it as the CLI and the retrospective do
    const unloaded = run([chk({ type: 'check-finished', run: { ...runOf(0, false), unbuilt: true, unbuiltTestFiles: ['test/mul.test.js', null], tests: [{ name: 'adds', passed: false }, { name: 'subs', passed: true }] } as never, before: true })], done).session!.steps.deva.checks!.at(-1)!;
    assert.deepStrictEqual((unloaded as { unbuiltTestFiles?: string[] }).unbuiltTestFiles, ['test/mul.test.js']);
    assert.strictEqual(beforeFailureSaying(unloaded as never), 'failed: test/mul.test.js did not load without the change (no test of theirs ran), and 1 test case failed');
    assert.strictEqual(perTarget('bump')?.kind === 'run' && 'byTarget' in perTarget('bump')!, false);
    // a CTest run that kept going past a program that did not build: told per program, as the CLI does
    const programs = (ctestPrograms: unknown) => run([chk({ type: 'check-finished', run: { ...runOf(0, false), unbuilt: true, ctestPrograms } as never, before: true })], done).session!.steps.deva.checks!.at(-1)!;
    assert.strictEqual(beforeFailureSaying(programs({ passed: 19, failed: 0, notRun: ['limit_tests'] }) as never), 'failed: 1 of 20 test programs did not build without the change (limit_tests); the others ran: 19 passed, 0 failed');
    // its tests are cases (gtest_discover_tests): told by its tests, as the CLI does
    const cases = programs({ passed: 12, failed: 0, notRun: ['test_join'], cases: true, sources: { test_join: ['tests/join_tests.cpp'] } });
    assert.strictEqual(beforeFailureSaying(cases as never), 'failed: 1 of 13 CTest tests did not build without the change (test_join); the others ran: 12 passed, 0 failed');
    assert.deepStrictEqual((programs({ passed: '3', notRun: 'x', cases: 'yes' }) as { ctestPrograms?: unknown }).ctestPrograms, { passed: 0, failed: 0, notRun: [] });
    assert.strictEqual('ctestPrograms' in programs(null), false);
    // a run on the unchanged code after a failure (baseline) is its own row too; the outcome says the failure was there
    const bl = run(
      [
        chk({ type: 'check-started', round: 1, command: 'npm test', index: 0, total: 1, baseline: true }),
        chk({ type: 'check-finished', run: runOf(1, false), baseline: true }),
        chk({ type: 'checks-finished', passed: false, summary: [], fixRounds: 1, failsAsBefore: true }),
      ],
      ff,
    );
    assert.deepStrictEqual(bl.session!.steps.deva.checks!.at(-1), { kind: 'run', round: 1, command: 'npm test', status: 'failed', exitCode: 1, durationMs: 1500, output: 'src/a.ts:1 boom', baseline: true });
    assert.strictEqual(bl.session!.steps.deva.checks!.length, 6, 'the finished round-1 run is not taken for the baseline run');
    assert.deepStrictEqual(bl.session!.steps.deva.checksOutcome, { passed: false, fixRounds: 1, failsAsBefore: true });
    // no check could start: the outcome keeps why (a value that is no text is dropped)
    const notRun = (v: unknown) => run([chk({ type: 'checks-finished', passed: false, summary: [], fixRounds: 0, notRun: v as string })], done).session!.steps.deva.checksOutcome;
    assert.deepStrictEqual(notRun('spawn /bin/sh ENOENT'), { passed: false, fixRounds: 0, notRun: 'spawn /bin/sh ENOENT' });
    assert.deepStrictEqual(notRun({ x: 1 }), { passed: false, fixRounds: 0 });
    // proposed files the copy could not take: a row of their own, and the outcome names them
    const nw = run(
      [
        chk({ type: 'not-written', round: 0, files: [{ path: 'linked/x.js', reason: 'linked is a linked folder' }, 7 as never] }),
        chk({ type: 'checks-finished', passed: true, summary: [], fixRounds: 0, notChecked: ['linked/x.js'] }),
      ],
      done,
    ).session!.steps.deva;
    assert.deepStrictEqual(nw.checks!.at(-1), { kind: 'not-written', round: 0, files: ['linked/x.js: linked is a linked folder'] });
    assert.deepStrictEqual(nw.checksOutcome, { passed: true, fixRounds: 0, notChecked: ['linked/x.js'] });
    const odd = reduce(done, { type: 'event', event: { type: 'check', step: 'deva', event: { type: 'check-finished', run: { command: 7, status: '<b>x</b>' } } } as never }).state;
    const last = odd.session!.steps.deva.checks!.at(-1)!;
    assert.deepStrictEqual(last, { kind: 'run', round: 0, command: '7', status: 'error', exitCode: null, durationMs: null, output: '' });
  });

  it('counts output deltas without keeping the raw JSON', () => {
    const s = run([started(), ev({ type: 'output-delta', step: 'da', text: '{"a":' }), ev({ type: 'output-delta', step: 'da', text: '1}' })]);
    assert.strictEqual(s.session!.steps.da.outputChars, 7);
    assert.ok(!JSON.stringify(s).includes('{\\"a\\":'));
  });

  it('a retry clears the streamed text and error and leaves a note', () => {
    const s = run([
      started(),
      ev({ type: 'voice-delta', step: 'poa', text: 'half' }),
      ev({ type: 'error', step: 'poa', kind: 'overloaded', message: 'busy' }),
      ev({ type: 'retry', step: 'poa', attempt: 2, reason: 'overloaded', delayMs: 1500 }),
    ]);
    const st = s.session!.steps.poa;
    assert.strictEqual(st.voice, '');
    assert.strictEqual(st.error, null);
    assert.strictEqual(st.status, 'running');
    assert.deepStrictEqual(st.notes, ['Retrying after overloaded (attempt 2, in 1.5 s).']);
  });

  it('a warning about a step\'s reply is kept with the step, in order, and survives a later note', () => {
    const msg = 'The reply contains 2 JSON envelopes; the last complete one (line 9) was used and the earlier one (line 2) ignored.';
    const s = run([started(), ev({ type: 'warning', step: 'poa', message: msg }), ev({ type: 'continued', step: 'poa', continuation: 1, max: 2 })]);
    assert.deepStrictEqual(s.session!.steps.poa.warnings, [msg]);
    assert.strictEqual(s.session!.steps.da.warnings, undefined);
  });

  it('an error marks the step failed; an error without a step goes to the session', () => {
    const s = run([started(), ev({ type: 'error', step: 'deva', kind: 'invalid_reply', message: 'bad' }), ev({ type: 'error', step: null, kind: 'auth', message: 'key' })]);
    assert.strictEqual(s.session!.steps.deva.status, 'failed');
    assert.deepStrictEqual(s.session!.steps.deva.error, { kind: 'invalid_reply', message: 'bad' });
    assert.deepStrictEqual(s.session!.error, { kind: 'auth', message: 'key' });
  });

  it('the envelope voice replaces the streamed one and fields are coerced', () => {
    const s = run([
      started(),
      ev({ type: 'voice-delta', step: 'poa', text: 'partial' }),
      ev({ type: 'envelope', step: 'poa', summary: null, envelope: { agent: 'POA', role: 'PO', task_id: 't', voice: 'full voice', output: { a: [1, 'b'] }, references: ['CM', 7 as never, '' as never], confidence: 4, ass: { score: 4, positive: 'p', improvement: 'i', context_adequate: true } } }),
    ]);
    const st = s.session!.steps.poa;
    assert.strictEqual(st.voice, 'full voice');
    assert.deepStrictEqual(st.envelope!.references, ['CM', '7']);
    assert.deepStrictEqual(st.envelope!.ass, { score: 4, positive: 'p', improvement: 'i', contextAdequate: true });
  });

  it('envelopeView survives hostile shapes', () => {
    const v = envelopeView({ voice: { toString: 'x' }, references: 'CM', conversation: [null, { speaker: 1, text: ['a'] }], kpt: { keep: 'x', problem: [1], try: null }, ass: 5, output: { f: () => 1, n: NaN, deep: { a: { b: {} } } } });
    assert.strictEqual(v.voice, '');
    assert.deepStrictEqual(v.references, []);
    assert.deepStrictEqual(v.conversation, [{ speaker: '1', text: '' }]);
    assert.deepStrictEqual(v.kpt, { keep: [], problem: ['1'], try: [] });
    assert.strictEqual(v.ass, null);
    assert.deepStrictEqual(v.output, { n: null, deep: { a: { b: {} } } });
  });

  it('builds the file list from file-proposed events, keeps user decisions, and lets files replace it', () => {
    let s = run([
      started(),
      ev({ type: 'file-proposed', step: 'deva', file: { path: './a.ts', relPath: 'a.ts', action: 'create', status: 'proposed', content: 'c' } }),
      ev({ type: 'file-proposed', step: 'deva', file: { path: '/etc/x', action: 'modify', status: 'refused', reason: 'absolute', content: 'c' } }),
    ]);
    assert.deepStrictEqual(s.session!.files, [
      { path: 'a.ts', action: 'create', status: 'proposed' },
      { path: '/etc/x', action: 'modify', status: 'refused', reason: 'absolute' },
    ]);
    assert.ok(!JSON.stringify(s).includes('"content"'), 'file contents are not kept in the view-state');
    s = run([{ type: 'files', files: [{ path: 'a.ts', action: 'create', status: 'accepted' }] }], s);
    assert.deepStrictEqual(s.session!.files, [{ path: 'a.ts', action: 'create', status: 'accepted' }]);
  });

  it('session-finished keeps the metrics and falls back to its files when none were listed', () => {
    const s = run([
      started(),
      ev({
        type: 'session-finished',
        taskId: 'task-1',
        retrospectivePath: 'cape/r.md',
        kpt: { keep: ['k'], problem: [], try: ['t'] },
        metrics: { ass: { POA: 4 }, assAverage: 4, satisfactionVariance: 0, satisfactionTrend: null, crossReferenceFrequency: 2, conversationIndex: 5, elapsedMs: 10, compressionRatio: {}, perStep: {}, totalUsage: { inputTokens: 1, outputTokens: 2, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 }, totalCostUsd: 0.1, tsr: null, tsrJudged: null, criteria: [] },
        files: [{ path: 'b.ts', action: 'modify', status: 'applied', content: 'x' }],
        openQuestions: [
          { id: 'POA-Q1', from: 'POA', text: 'Is the list paged?', answer: { by: 'DA', text: 'Yes.', evidence: 'src/list.ts:4' } },
          // answered in part: where its open part went is kept, ids only (not a list: answered)
          { id: 'POA-Q2', from: 'POA', text: 'Search the body?', answer: { by: 'DA', text: 'Not today.', openPartIn: ['DA-Q1', null, ' '] as never } },
          { id: 'POA-Q3', from: 'POA', text: 'Sort?', answer: { by: 'DA', text: 'Newest.', openPartIn: 'DA-Q1' as never } },
          { id: 'DA-Q1', from: 'DA', text: 'Keep the old label?' },
          // not well-formed: dropped, not shown as an empty item
          { id: 'X', from: 'Nobody', text: '' } as never,
          'stray' as never,
        ],
      }),
    ]);
    assert.deepStrictEqual(s.session!.finished!.openQuestions, [
      { id: 'POA-Q1', from: 'POA', text: 'Is the list paged?', answer: { by: 'DA', text: 'Yes.', evidence: 'src/list.ts:4' } },
      { id: 'POA-Q2', from: 'POA', text: 'Search the body?', answer: { by: 'DA', text: 'Not today.', openPartIn: ['DA-Q1'] } },
      { id: 'POA-Q3', from: 'POA', text: 'Sort?', answer: { by: 'DA', text: 'Newest.' } },
      { id: 'DA-Q1', from: 'DA', text: 'Keep the old label?' },
    ]);
    assert.strictEqual(s.session!.finished!.retrospectivePath, 'cape/r.md');
    assert.deepStrictEqual(s.session!.finished!.kpt, { keep: ['k'], problem: [], try: ['t'] });
    assert.strictEqual(s.session!.finished!.metrics!.conversationIndex, 5);
    assert.deepStrictEqual(s.session!.files, [{ path: 'b.ts', action: 'modify', status: 'applied' }]);
  });

  it('a new session archives the previous one (bounded); a resume of the same task continues it', () => {
    let s = emptyState();
    for (let i = 0; i < MAX_HISTORY + 3; i++) s = run([started(`task-${i}`), ev({ type: 'voice-delta', step: 'cm_open', text: `v${i}` })], s);
    assert.strictEqual(s.history.length, MAX_HISTORY);
    assert.strictEqual(s.history[s.history.length - 1].taskId, `task-${MAX_HISTORY + 1}`);
    s = run([ev({ type: 'step-finished', step: 'cm_open', artifactPath: 'a', durationMs: 1 }), ev({ type: 'error', step: 'poa', kind: 'network', message: 'x' })], s);
    const current = s.session!.taskId;
    const resumed = run([started(current, ['poa', 'da', 'deva', 'cm_retro'], true)], s);
    assert.strictEqual(resumed.history.length, s.history.length, 'not archived');
    assert.strictEqual(resumed.session!.steps.cm_open.status, 'done');
    assert.strictEqual(resumed.session!.steps.cm_open.voice, `v${MAX_HISTORY + 2}`);
    assert.strictEqual(resumed.session!.steps.poa.status, 'pending');
    // A resume of another task without history marks earlier steps done; a non-resumed subset marks them skipped.
    assert.strictEqual(run([started('other', ['da'], true)]).session!.steps.poa.status, 'done');
    assert.strictEqual(run([started('other', ['da'], false)]).session!.steps.poa.status, 'skipped');
  });

  it("the Cape Master's questions open, are decided once, and survive the resume of the same session", () => {
    const s = run([
      ev({ type: 'session-started', taskId: 't', objective: 'o', language: 'en', steps: ['cm_open', 'poa', 'da', 'deva', 'cm_retro'], resumed: false }),
      ev({ type: 'needs-answers', step: 'cm_open', taskId: 't', questions: ['Which one?', '  '] }),
    ]);
    assert.deepStrictEqual(s.session!.questions, { questions: ['Which one?'], status: 'open', answers: [] });
    const answered = decideQuestions(s, ['That one.']);
    assert.deepStrictEqual(answered.session!.questions, { questions: ['Which one?'], status: 'answered', answers: ['That one.'] });
    assert.strictEqual(decideQuestions(answered, null), answered, 'decided once');
    assert.strictEqual(decideQuestions(s, null).session!.questions!.status, 'skipped');
    const resumed = run([ev({ type: 'session-started', taskId: 't', objective: 'o', language: 'en', steps: ['cm_open', 'poa', 'da', 'deva', 'cm_retro'], resumed: true })], answered);
    assert.deepStrictEqual(resumed.session!.questions, answered.session!.questions);
    assert.strictEqual(resumed.history.length, 0);
    assert.deepStrictEqual(restoreState(JSON.parse(JSON.stringify(answered))).session!.questions, answered.session!.questions);
  });

  it('busy, capabilities and askObjective update the chrome', () => {
    const s = run([{ type: 'busy', running: true }, { type: 'capabilities', trusted: false, provider: 'p', model: 'm' }, { type: 'askObjective', prompt: 'next?' }]);
    assert.strictEqual(s.busy, true);
    assert.deepStrictEqual(s.capabilities, { trusted: false, provider: 'p', model: 'm' });
    assert.deepStrictEqual(s.ask, { prompt: 'next?' });
    assert.deepStrictEqual(run([started()], s).ask, null, 'a new session closes the objective box');
  });
});

describe('webview model: restoreState', () => {
  it('round-trips through JSON', () => {
    const s = run([started(), ev({ type: 'voice-delta', step: 'cm_open', text: 'hi' }), { type: 'busy', running: true }]);
    assert.deepStrictEqual(restoreState(JSON.parse(JSON.stringify(s))), s);
  });

  it('gives a finished session saved by an earlier version (no open questions) an empty list, and checks a stored one', () => {
    const done = run([started(), ev({ type: 'session-finished', taskId: 'task-1', retrospectivePath: 'r.md', kpt: { keep: [], problem: [], try: [] }, metrics: {} as never, files: [], openQuestions: [{ id: 'POA-Q1', from: 'POA', text: 'Paged?' }] })]);
    const old = JSON.parse(JSON.stringify(done));
    delete old.session.finished.openQuestions;
    old.history = [JSON.parse(JSON.stringify(old.session))];
    const restored = restoreState(old);
    assert.deepStrictEqual(restored.session!.finished!.openQuestions, []);
    assert.deepStrictEqual(restored.history[0].finished!.openQuestions, []);
    const hostile = JSON.parse(JSON.stringify(done));
    hostile.session.finished.openQuestions = [{ id: 'POA-Q1', from: 'POA', text: 'Paged?' }, 'x', { text: 7 }];
    assert.deepStrictEqual(restoreState(hostile).session!.finished!.openQuestions, [{ id: 'POA-Q1', from: 'POA', text: 'Paged?' }, { id: null, from: null, text: '7' }]);
    assert.deepStrictEqual(restoreState(JSON.parse(JSON.stringify(done))), done, 'a current state round-trips');
  });

  it('starts empty on foreign or damaged state', () => {
    for (const bad of [undefined, null, 'x', { version: 2, history: [] }, { version: 1 }, { version: 1, history: 'x' }]) assert.deepStrictEqual(restoreState(bad), emptyState());
    const damaged = restoreState({ version: 1, history: [{ taskId: 'x' }], session: { taskId: 'y', steps: {} , files: []}, busy: 'yes' });
    assert.deepStrictEqual(damaged, emptyState());
  });

  it('reset with a state replaces everything; reset without clears', () => {
    const s = run([started(), { type: 'busy', running: true }]);
    assert.deepStrictEqual(run([{ type: 'reset' }], s), emptyState());
    assert.deepStrictEqual(run([{ type: 'reset', state: JSON.parse(JSON.stringify(s)) }]), s);
  });
});

describe('webview model: DevA asks DA', () => {
  it('keeps the exchange in DevA\'s turn across the rerun', () => {
    let s = run([
      started(),
      ev({ type: 'step-started', step: 'deva', agent: 'DevA', attempt: 1 }),
      ev({ type: 'voice-delta', step: 'deva', text: 'I need an answer.' }),
      ev({ type: 'blocker', step: 'deva', from: 'DevA', to: 'DA', round: 1, questions: ['Where on mobile?'], voice: 'I need an answer.' }),
    ]);
    assert.deepStrictEqual(s.session!.steps.deva.exchanges, [{ from: 'DevA', to: 'DA', questions: ['Where on mobile?'], answer: null }]);
    s = run(
      [
        ev({ type: 'blocker-answer', step: 'deva', from: 'DA', round: 1, voice: 'In the menu.', answer: 'In the menu.\n\n{"answers":[]}' }),
        ev({ type: 'step-started', step: 'deva', agent: 'DevA', attempt: 1 }),
        ev({ type: 'voice-delta', step: 'deva', text: 'Built it.' }),
      ],
      s,
    );
    const deva = s.session!.steps.deva;
    assert.deepStrictEqual(deva.exchanges, [{ from: 'DevA', to: 'DA', questions: ['Where on mobile?'], answer: 'In the menu.' }]);
    assert.strictEqual(deva.voice, 'Built it.', 'the rerun streams a fresh voice');
  });
});

describe('host values taken into the view (hostValues.ts plain)', () => {
  it('a "__proto__" key of the model\'s JSON stays a key of its own: shown and saved, never the object\'s prototype', () => {
    const v = plain(JSON.parse('{"__proto__":{"session_brief":"INJECTED"},"visible":1}')) as Record<string, unknown>;
    assert.deepStrictEqual(Object.keys(v), ['__proto__', 'visible']);
    assert.strictEqual(v.session_brief, undefined);
    assert.strictEqual(JSON.stringify(v), '{"__proto__":{"session_brief":"INJECTED"},"visible":1}');
    assert.strictEqual(Object.getPrototypeOf(v), Object.prototype);
  });
});
