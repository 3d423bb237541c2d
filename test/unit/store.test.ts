import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ensureDir, writeFileAtomic } from '../../src/core/files/fsAtomic';
import { SessionStore, StoreError, parseRetrospectiveName, type SessionState, type StepRecord } from '../../src/core/store';
import { computeMetrics } from '../../src/core/metrics/metrics';
import { readKptFile } from '../../src/core/kpt';
import type { Envelope, ProposedFile, StepId } from '../../src/core/model/types';
import { readFrontmatter } from '../../src/core/cape/frontmatter';
import { recordedRun } from '../helpers/failedRun';

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'cape-store-'));
}

function record(step: StepId, finishedAt: number, extra: Partial<StepRecord> = {}): StepRecord {
  return {
    step,
    agent: 'CM',
    raw: `raw ${step}`,
    envelope: { agent: 'CM', role: 'r', task_id: 't', voice: 'v', output: {}, references: [], confidence: null, ass: null },
    files: [],
    summary: null,
    usage: { inputTokens: 1, outputTokens: 2, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
    model: 'claude-sonnet-4-6',
    startedAt: finishedAt - 10,
    finishedAt,
    ...extra,
  };
}

describe('fsAtomic', () => {
  it('writes atomically and leaves no temporary file', async () => {
    const dir = tmp();
    const file = path.join(dir, 'a.json');
    await writeFileAtomic(file, 'one');
    await writeFileAtomic(file, 'two');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'two');
    assert.deepStrictEqual(fs.readdirSync(dir), ['a.json']);
  });

  it('a write that fails midway leaves the old file intact and no temporary file', async () => {
    const dir = tmp();
    const file = path.join(dir, 'state.json');
    await writeFileAtomic(file, 'old content');
    async function* failing(): AsyncGenerator<string> {
      yield 'half of the new ';
      throw new Error('disk on fire');
    }
    await assert.rejects(writeFileAtomic(file, failing()), /disk on fire/);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'old content');
    assert.deepStrictEqual(fs.readdirSync(dir), ['state.json']);
  });

  it('keeps the permission bits of an existing file and fails clearly without a parent directory', async () => {
    const dir = tmp();
    const file = path.join(dir, 'run.sh');
    fs.writeFileSync(file, '#!/bin/sh\n', { mode: 0o755 });
    await writeFileAtomic(file, '#!/bin/sh\necho hi\n');
    if (process.platform !== 'win32') assert.strictEqual(fs.statSync(file).mode & 0o777, 0o755);
    await assert.rejects(writeFileAtomic(path.join(dir, 'no', 'such', 'x'), 'x'), /ENOENT/);
    await ensureDir(path.join(dir, 'no', 'such'));
    await writeFileAtomic(path.join(dir, 'no', 'such', 'x'), 'x');
  });

  it('keeps permission bits the process umask would clear (a group-writable file stays group-writable)', async function () {
    if (process.platform === 'win32') this.skip();
    const dir = tmp();
    const file = path.join(dir, 'shared.txt');
    fs.writeFileSync(file, 'old\n');
    fs.chmodSync(file, 0o664);
    const was = process.umask(0o022);
    try {
      await writeFileAtomic(file, 'new\n');
      await writeFileAtomic(path.join(dir, 'fresh.txt'), 'x');
    } finally {
      process.umask(was);
    }
    assert.strictEqual(fs.statSync(file).mode & 0o777, 0o664);
    assert.strictEqual(fs.statSync(path.join(dir, 'fresh.txt')).mode & 0o777, 0o644, 'a new file still gets the umask');
  });
});

describe('SessionStore', () => {
  it('uses the original layout for pair files', () => {
    const ws = tmp();
    const store = new SessionStore(ws);
    assert.strictEqual(
      store.pairPath('task-1', 3, 'DA', 1779077393991),
      path.join(ws, 'cape', '5_sessions', 'pair', 'task-1_3_DA_1779077393991.json'),
    );
    assert.strictEqual(
      store.retrospectivePath('task-1', new Date(2026, 4, 19, 7, 5)),
      path.join(ws, 'cape', '5_sessions', 'retrospective', '2026-05-19_07-05_task-1.md'),
    );
    assert.throws(() => store.pairPath('../evil', 1, 'CM', 1), StoreError);
    assert.throws(() => store.pairPath('task 1', 1, 'CM', 1), /Invalid task id/);
    assert.throws(() => store.pairPath('task-1', 6, 'CM', 1), /out of range/);
    assert.throws(() => new SessionStore(ws, '../x'), /CAPE folder/);
  });

  it('saves steps (with DevA file bodies) and resumes from the state', async () => {
    const ws = tmp();
    const store = new SessionStore(ws);
    const state: SessionState = {
      taskId: 'task-9',
      objective: 'Add a button',
      language: 'en',
      model: 'claude-sonnet-4-6',
      createdAt: 1000,
      status: 'running',
      completedSteps: [],
      stepFiles: {},
    };
    await store.saveSessionState(state);
    const files: ProposedFile[] = [{ path: 'src/b.ts', relPath: 'src/b.ts', action: 'create', status: 'proposed', content: 'export const b = 1;\n' }];
    const s1 = await store.completeStep('task-9', 'cm_open', record('cm_open', 2000));
    const s2 = await store.completeStep('task-9', 'deva', record('deva', 4000, { files, summary: 'did it', context: { input: 900, passed: 300 } }));
    assert.deepStrictEqual(s2.completedSteps, ['cm_open', 'deva']);
    assert.strictEqual(s1.stepFiles.cm_open, 'cape/5_sessions/pair/task-9_1_CM_2000.json');
    assert.ok(fs.existsSync(path.join(ws, 'cape', '5_sessions', 'pair', 'task-9_4_DevA_4000.json')));

    const loaded = await store.loadSessionState('task-9');
    assert.strictEqual(loaded!.status, 'running');
    assert.deepStrictEqual(loaded!.completedSteps, ['cm_open', 'deva']);
    const deva = await store.loadStep('task-9', 'deva');
    assert.strictEqual(deva!.agent, 'DevA', 'agent follows the step, whatever the caller passed');
    assert.deepStrictEqual(deva!.files, files);
    assert.strictEqual(deva!.summary, 'did it');
    assert.deepStrictEqual(deva!.context, { input: 900, passed: 300 });
    assert.strictEqual(deva!.n, 4);
    // a damaged record is reported with its path
    fs.writeFileSync(path.join(ws, 'cape', '5_sessions', 'pair', 'task-9_1_CM_2000.json'), JSON.stringify({ step: 'cm_open', raw: 'x' }));
    await assert.rejects(store.loadStep('task-9', 'cm_open'), /task-9_1_CM_2000\.json is not a complete cm_open record/);
    const failed = await store.saveFailedRaw('task-9', 'da', 'garbage reply', 5000);
    assert.strictEqual(failed, path.join(ws, 'cape', '5_sessions', 'failed', 'task-9_3_DA_5000.txt'));
    assert.strictEqual(fs.readFileSync(failed, 'utf8'), 'garbage reply');
    assert.strictEqual(await store.loadStep('task-9', 'poa'), null);

    // without a state entry, the newest pair file of that step is found
    await store.saveStep('task-9', 'poa', record('poa', 3000, { raw: 'older' }));
    await store.saveStep('task-9', 'poa', record('poa', 3500, { raw: 'newer' }));
    assert.strictEqual((await store.loadStep('task-9', 'poa'))!.raw, 'newer');
    assert.strictEqual(await store.loadSessionState('task-unknown'), null);
    const pairNames = fs.readdirSync(path.join(ws, 'cape', '5_sessions', 'pair'));
    assert.ok(pairNames.every((n) => /^task-9_[1-5]_(CM|POA|DA|DevA)_\d+\.json$/.test(n)), pairNames.join());
  });

  it('loads back every part of a step record it saved (a Required<StepRecord>: a new field must be added here)', async () => {
    const store = new SessionStore(tmp());
    const usage = { inputTokens: 5, outputTokens: 6, cacheCreationInputTokens: 1, cacheReadInputTokens: 2 };
    const full: Required<StepRecord> = {
      ...record('deva', 4000),
      agent: 'DevA',
      n: 4,
      files: [{ path: 'src/b.ts', relPath: 'src/b.ts', action: 'create', status: 'proposed', content: 'export const b = 1;\n' }],
      summary: 'did it',
      usage,
      context: { input: 900, passed: 300 },
      toolCalls: [
        { id: 'toolu_1', tool: 'read_file', target: 'src/a.ts', path: 'src/a.ts', lines: [1, 20], chars: 412 },
        { id: 'toolu_2', tool: 'read_file', target: '.env', path: '.env', chars: 0, refused: '.env: a secret file' },
      ],
      editRepair: '<edit path="src/a.ts">…</edit>',
      dorAnswers: [{ question: 'Which browsers?', answer: 'Evergreen only' }],
      feedback: [{ round: 1, from: 'DevA', to: 'DA', questions: ['Which colour?'], blockedRaw: '{}', answerRaw: '{}', answerText: 'Blue', usage, model: 'm' }],
      continuations: 1,
      checks: { commands: ['npm test'], runs: [{ command: 'npm test', round: 0, status: 'passed', passed: true, exitCode: 0, durationMs: 5, output: '1 passing', outputChars: 9, testSummary: true }], fixRounds: [], maxFixRounds: 2, passed: true },
      warnings: ['two envelopes: the first was used'],
    };
    await store.saveStep('task-7', 'deva', full);
    assert.deepStrictEqual(await store.loadStep('task-7', 'deva'), full);
  });

  it('a step record with a field of the wrong type is a StoreError naming the file and the field, not a later TypeError', async () => {
    const store = new SessionStore(tmp());
    const usage = { inputTokens: 5, outputTokens: 6, cacheCreationInputTokens: 1, cacheReadInputTokens: 2 };
    const good = record('deva', 4000, {
      files: [{ path: 'src/b.ts', content: 'b', action: 'create' }],
      toolCalls: [{ id: 't1', tool: 'read_file', target: 'src/a.ts', path: 'src/a.ts', chars: 4 }],
      feedback: [{ round: 1, from: 'DevA', to: 'DA', questions: ['Which colour?'], blockedRaw: '{}', answerRaw: '{}', answerText: 'Blue', usage, model: 'm' }],
    });
    // a check loop's outcome with the optional parts a run may carry (test cases, a cargo run per target, CTest's programs)
    const run = recordedRun;
    const ctest = run('cmake --build build && ctest --test-dir build', false, { ctestPrograms: { passed: 19, failed: 0, notRun: ['size_tests'] } });
    const cargo = run('cargo test', false, { byTarget: { crate: '', targets: ['api'], unbuilt: ['api'], passed: 0, failed: 0 }, tests: [{ name: 'adds', passed: false, already: true }] });
    good.checks = {
      commands: [ctest.command],
      runs: [ctest, run(ctest.command, true, { round: 1 })],
      fixRounds: [{ round: 1, request: 'fix', reply: '{}', files: [{ path: 'src/a.c', content: 'a' }], problems: [] }],
      maxFixRounds: 2,
      passed: true,
      before: { testFiles: ['tests/size_tests.c'], runs: [ctest, cargo], notWritten: [] },
      baseline: [ctest],
    };
    const file = await store.saveStep('task-8', 'deva', good);
    assert.deepStrictEqual((await store.loadStep('task-8', 'deva'))!.checks, good.checks, 'a whole outcome is read back as written');
    const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
    const cases: [string[], unknown, RegExp][] = [
      [['envelope', 'voice'], 5, /envelope\.voice: Invalid input: expected string, received number/],
      [['envelope', 'references'], {}, /envelope\.references: Invalid input: expected array, received object/],
      [['envelope', 'ass'], 'good', /envelope\.ass: Invalid input: expected object, received string/],
      [['envelope', 'kpt'], { keep: 'x', problem: [], try: [] }, /envelope\.kpt\.keep: Invalid input: expected array/],
      [['envelope', 'agent'], undefined, /envelope\.agent: Invalid input: expected string \(the field is missing\)/],
      [['usage'], 'lots', /usage: Invalid input: expected object, received string/],
      [['usage', 'inputTokens'], '12', /usage\.inputTokens: Invalid input: expected number, received string/],
      [['files'], { 'src/b.ts': 'b' }, /files: Invalid input: expected array, received object/],
      [['files', '0', 'content'], 7, /files\[0\]\.content: Invalid input: expected string, received number/],
      [['summary'], ['did it'], /summary: Invalid input: expected string, received array/],
      [['toolCalls', '0', 'chars'], 'four', /toolCalls\[0\]\.chars: Invalid input: expected number/],
      [['feedback', '0', 'questions'], 'Which colour?', /feedback\[0\]\.questions: Invalid input: expected array/],
      [['checks'], 'passed', /checks: Invalid input: expected object, received string/],
      [['checks', 'passed'], 'yes', /checks\.passed: Invalid input: expected boolean/],
      [['checks', 'fixRounds', '0', 'files'], undefined, /checks\.fixRounds\[0\]\.files: Invalid input: expected array \(the field is missing\)/],
      [['checks', 'runs', '0', 'ctestPrograms', 'notRun'], 'size_tests', /checks\.runs\[0\]\.ctestPrograms\.notRun: Invalid input: expected array/],
      [['checks', 'before', 'runs', '1', 'byTarget', 'unbuilt'], 3, /checks\.before\.runs\[1\]\.byTarget\.unbuilt: Invalid input: expected array/],
      [['checks', 'before', 'runs', '1', 'tests', '0', 'passed'], 'no', /checks\.before\.runs\[1\]\.tests\[0\]\.passed: Invalid input: expected boolean/],
      [['checks', 'baseline', '0', 'status'], 'broken', /checks\.baseline\[0\]\.status: Invalid option/],
      [['context'], { input: '900', passed: 300 }, /context\.input: Invalid input: expected number/],
    ];
    for (const [at, value, expected] of cases) {
      const bad = JSON.parse(JSON.stringify(saved));
      let o = bad;
      for (const k of at.slice(0, -1)) o = o[k];
      if (value === undefined) delete o[at[at.length - 1]];
      else o[at[at.length - 1]] = value;
      fs.writeFileSync(file, JSON.stringify(bad));
      await assert.rejects(store.loadStep('task-8', 'deva'), (e: Error) => {
        assert.ok(e instanceof StoreError, `${at.join('.')}: ${e.stack}`);
        assert.strictEqual(e.file, file);
        assert.ok(e.message.includes(file), e.message);
        assert.match(e.message, expected);
        assert.match(e.message, /Fix that field in the file, or run step deva again\./);
        return true;
      });
    }
    // null in an optional field is "not recorded", as a missing one: the defaults
    fs.writeFileSync(file, JSON.stringify({ ...saved, summary: null, toolCalls: null, context: null }));
    const back = (await store.loadStep('task-8', 'deva'))!;
    assert.strictEqual(back.summary, null);
    assert.strictEqual(back.toolCalls, undefined);
  });

  it('reports damaged files clearly and lists sessions newest first', async () => {
    const ws = tmp();
    const store = new SessionStore(ws);
    const base = { objective: 'o', language: 'ja', model: 'm', completedSteps: [] as StepId[], stepFiles: {} };
    await store.saveSessionState({ ...base, taskId: 'task-1', createdAt: 100, status: 'complete' });
    await store.saveSessionState({ ...base, taskId: 'task-2', createdAt: 300, status: 'failed', error: { step: 'da', kind: 'network', message: 'reset' } });
    await store.saveSessionState({ ...base, taskId: 'task-3', createdAt: 200, status: 'running' });
    fs.writeFileSync(path.join(ws, 'cape', '5_sessions', 'state', 'task-4.json'), '{ not json');
    const list = await store.listSessions();
    assert.deepStrictEqual(list.map((s) => [s.taskId, s.status]), [['task-2', 'failed'], ['task-3', 'running'], ['task-1', 'complete']]);
    assert.strictEqual(list[0].error!.kind, 'network');
    await assert.rejects(store.loadSessionState('task-4'), (e: Error) => e instanceof StoreError && /task-4\.json is not valid JSON/.test(e.message));
    assert.deepStrictEqual(await new SessionStore(tmp()).listSessions(), []);
  });

  it('writes a readable retrospective with frontmatter and lists retrospectives newest first', async () => {
    const ws = tmp();
    const store = new SessionStore(ws);
    const retro: Envelope = {
      agent: 'CM',
      role: 'Cape Master',
      task_id: 'task-7',
      phase: 'retrospective',
      voice: '',
      output: null,
      references: [],
      confidence: null,
      ass: null,
      conversation: [
        { speaker: 'CM', text: 'How did it go?' },
        { speaker: 'DevA', text: 'Fine\nmostly' },
      ],
      kpt: { keep: ['clear specs'], problem: ['late brief'], try: ['ask earlier'] },
    };
    const opening: Envelope = {
      ...retro,
      phase: 'opening',
      conversation: undefined,
      output: { session_brief: 'Build it', dor_check: { passed: false, concerns: ['no persona'] }, watch_out: ['scope creep'], coaching_notes: { POA: '', DA: '', DevA: '' } },
    };
    const metrics = computeMetrics({
      envelopes: { poa: { ...retro, agent: 'POA', ass: { score: 4, positive: '', improvement: '', context_adequate: true } } },
      usage: {},
      startedAt: 0,
      retroSavedAt: 1000,
      contextChars: {},
    });
    const files: ProposedFile[] = [
      { path: 'src/a.ts', relPath: 'src/a.ts', action: 'create', status: 'applied', content: 'SECRET BODY' },
      { path: '../x', action: 'create', status: 'refused', reason: '".." segments are not allowed', content: 'x' },
    ];
    const file = await store.saveRetrospective('task-7', 'Make "it" work', retro, metrics, files, new Date(2026, 4, 20, 9, 30), { opening });
    assert.strictEqual(path.basename(file), '2026-05-20_09-30_task-7.md');
    const md = fs.readFileSync(file, 'utf8');
    assert.match(md, /^---\n/);
    assert.deepStrictEqual(readFrontmatter(md), {
      task_id: 'task-7',
      objective: 'Make "it" work',
      date: new Date(2026, 4, 20, 9, 30).toISOString(),
      ass_average: 4,
      format: 'cape-retrospective/1',
    });
    for (const s of ['Build it', 'not met', 'no persona', 'scope creep', '**DevA:** Fine', 'clear specs', 'late brief', 'ask earlier', '| ASS average | 4.00 |', '`src/a.ts` — create, applied', 'refused']) {
      assert.ok(md.includes(s), `missing ${s}`);
    }
    assert.ok(!md.includes('SECRET BODY'), 'never file bodies');

    // an original-CLI file without frontmatter and an older one of ours
    const dir = path.join(ws, 'cape', '5_sessions', 'retrospective');
    fs.writeFileSync(path.join(dir, '2026-05-18_17-55_task-1779180490513.md'), '# 振り返り\n');
    // the map form: cm_retro and cm_open are taken from the envelopes of the session
    const older = await store.saveRetrospective('task-6', 'older', { cm_open: opening, cm_retro: retro }, { ...metrics, assAverage: null }, [], new Date(2026, 4, 19, 8, 0), {
      questions: [
        { id: 'POA-Q1', from: 'POA', text: 'Paged?', answer: { by: 'DA', text: 'Yes.' } },
        { id: 'POA-Q2', from: 'POA', text: 'Sync across devices?' },
      ],
    });
    assert.ok(fs.readFileSync(older, 'utf8').includes('scope creep'));
    await assert.rejects(store.saveRetrospective('task-5', 'x', { cm_open: opening }, metrics, [], new Date()), /cm_retro envelope is missing/);
    fs.writeFileSync(path.join(dir, 'kpt_merged.md'), '# KPT\n');
    fs.writeFileSync(path.join(dir, 'notes.md'), 'random');
    const list = await store.listRetrospectives();
    assert.deepStrictEqual(
      list.map((r) => [r.taskId, r.objective, r.assAverage, r.openQuestions]),
      // the count of questions still to decide, when the file records it (the answered one does not count)
      [['task-7', 'Make "it" work', 4, undefined], ['task-6', 'older', null, 1], ['task-1779180490513', null, null, undefined]],
    );
    assert.strictEqual(list[2].date.getTime(), new Date(2026, 4, 18, 17, 55).getTime());
  });

  it('refuses to create the state of a task id that exists, and lists what a task id left on disk', async () => {
    const ws = tmp();
    const store = new SessionStore(ws);
    const state: SessionState = { taskId: 'task-3', objective: 'o', language: 'en', model: 'm', createdAt: 1, status: 'running', completedSteps: [], stepFiles: {} };
    assert.deepStrictEqual(await store.traces('task-3'), []);
    assert.strictEqual(await store.createSessionState(state), store.statePath('task-3'));
    await assert.rejects(store.createSessionState({ ...state, objective: 'second' }), (e: Error) => e instanceof StoreError && /task id task-3 already exists \(cape\/5_sessions\/state\/task-3\.json\)/.test(e.message));
    assert.strictEqual((await store.loadSessionState('task-3'))!.objective, 'o', 'the first state is kept');
    await store.completeStep('task-3', 'poa', record('poa', 2000));
    await store.saveStep('task-30', 'poa', record('poa', 2000));
    await store.saveRetrospective('task-3', 'o', { ...record('cm_retro', 1).envelope, phase: 'retrospective' }, computeMetrics({ envelopes: {}, usage: {}, startedAt: 0, retroSavedAt: 1, contextChars: {} }), [], new Date(2026, 0, 2, 3, 4));
    fs.writeFileSync(path.join(store.pairDir, '.task-3_2_POA_1.json.0123456789ab.tmp'), '');
    assert.deepStrictEqual(await store.traces('task-3'), [
      'cape/5_sessions/state/task-3.json',
      'cape/5_sessions/pair/task-3_2_POA_2000.json',
      'cape/5_sessions/retrospective/2026-01-02_03-04_task-3.md',
    ]);
    await assert.rejects(store.traces('../x'), /Invalid task id/);
  });

  it('reads a step from the newest pair file when the state names none inside 5_sessions/', async () => {
    const ws = tmp();
    const store = new SessionStore(ws);
    await store.saveStep('task-4', 'da', record('da', 1000, { raw: 'old' }));
    await store.saveStep('task-4', 'da', record('da', 3000, { raw: 'new' }));
    const outside = path.join(ws, 'elsewhere.json');
    fs.writeFileSync(outside, JSON.stringify({ ...record('da', 5000), raw: 'outside', taskId: 'task-4' }));
    const base: SessionState = { taskId: 'task-4', objective: 'o', language: 'en', model: 'm', createdAt: 1, status: 'running', completedSteps: ['da'], stepFiles: {} };
    for (const named of ['elsewhere.json', '../elsewhere.json', 'cape/5_sessions/pair/missing.json']) {
      await store.saveSessionState({ ...base, stepFiles: { da: named } });
      assert.strictEqual((await store.loadStep('task-4', 'da'))!.raw, 'new', named);
    }
    await store.saveSessionState({ ...base, stepFiles: { da: 'cape/5_sessions/pair/task-4_3_DA_1000.json' } });
    assert.strictEqual((await store.loadStep('task-4', 'da'))!.raw, 'old', 'the file the state names wins');
    fs.writeFileSync(store.statePath('task-4'), '{ damaged');
    assert.strictEqual((await store.loadStep('task-4', 'da'))!.raw, 'new', 'a damaged state does not hide the records');
    await assert.rejects(store.loadStep('task-4', 'nope' as StepId), /Unknown step "nope"/);
  });

  it('removes stale temporary files from every folder of 5_sessions/, failed/ included', async () => {
    const store = new SessionStore(tmp());
    await store.saveFailedRaw('task-1', 'poa', 'x', 1);
    const stale = path.join(store.failedDir, '.task-1_2_POA_1.txt.0123456789ab.tmp');
    fs.writeFileSync(stale, '');
    assert.deepStrictEqual(await store.removeLeftovers(0), ['cape/5_sessions/failed/.task-1_2_POA_1.txt.0123456789ab.tmp']);
    assert.ok(!fs.existsSync(stale) && fs.existsSync(path.join(store.failedDir, 'task-1_2_POA_1.txt')));
  });

  it('reads the local time and task id of a retrospective file name', () => {
    assert.deepStrictEqual(parseRetrospectiveName('2026-05-18_17-55_task-1.md'), { date: new Date(2026, 4, 18, 17, 55), taskId: 'task-1' });
    assert.strictEqual(parseRetrospectiveName(path.basename(new SessionStore(tmp()).retrospectivePath('t_2', new Date(2027, 11, 31, 23, 59))))!.taskId, 't_2');
    for (const name of ['kpt_merged.md', '2026-05-18_17-55_task-1.txt', '2026-05-18-17-55_task-1.md']) assert.strictEqual(parseRetrospectiveName(name), null);
  });

  it('merges KPT into kpt_merged.md next to the retrospectives', async () => {
    const store = new SessionStore(tmp(), 'team');
    const { path: file, status, warnings } = await store.mergeKpt('task-1', { keep: ['k'], problem: [], try: ['t'] });
    assert.strictEqual(status, 'merged');
    assert.deepStrictEqual(warnings, []);
    assert.strictEqual(file, path.join(store.workspace, 'team', '5_sessions', 'retrospective', 'kpt_merged.md'));
    assert.deepStrictEqual((await readKptFile(file)).map((i) => i.text), ['k', 't']);
  });
});
