// The Initialize Project questionnaire logic (src/commands/questionnaire.ts, no vscode import): steps, validation,
// Back keeping answers, Esc cancelling without writing anything, the existing-cape/ choice and the messages.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { INIT_QUESTIONS, MAX_ANSWER_CHARS, checkInitTarget, initCape, inputsToGenerate, workspaceHasCode, type InitAnswers, type InitMode } from '../../src/core/cape';
import { defaultPromptsDir, loadPromptAssets } from '../../src/core/cape/prompts';
import { contentText, type LlmClient, type LlmRequest } from '../../src/core/model/types';
import { demoDecisions, demoInputFile } from '../helpers/demo';
import {
  Questionnaire,
  existingCapeChoices,
  initProjectFlow,
  progressMessage,
  runQuestionnaire,
  summariseInit,
  typingMessage,
  validateAnswer,
  type QuestionnaireStep,
  type StepReply,
} from '../../src/commands/questionnaire';

const FULL: Record<string, string> = {
  product: 'A seed-swap board for a community garden',
  users: 'Gardeners of all ages',
  problem: 'Seeds go to waste at the end of each season',
  features: 'List seeds, reserve a packet, pickup reminders',
  uiLanguage: 'English and Spanish',
  stack: '',
  hosting: 'A shared tablet in the garden shed, data in the browser',
  testTooling: '',
  teamSize: 'Just me (solo developer)',
  designFeel: 'Earthy and calm',
};

/** A scripted UI: each reply in turn; records every step it was shown. */
function script(replies: StepReply[]) {
  const shown: QuestionnaireStep[] = [];
  let i = 0;
  const ask = async (step: QuestionnaireStep): Promise<StepReply> => {
    shown.push(step);
    if (i >= replies.length) throw new Error(`the script ran out of replies at step ${step.step} (${step.question.id})`);
    return replies[i++];
  };
  return { ask, shown };
}

const submit = (value: string): StepReply => ({ action: 'submit', value });
const answerAll = (): StepReply[] => INIT_QUESTIONS.map((q) => submit(FULL[q.id]));

describe('questionnaire', () => {
  it('asks every INIT_QUESTION in order with step x/y and returns trimmed answers', async () => {
    const { ask, shown } = script(INIT_QUESTIONS.map((q) => submit(`  ${FULL[q.id]}  `)));
    const answers = await runQuestionnaire(ask);
    assert.ok(answers);
    assert.deepStrictEqual(shown.map((s) => s.question.id), INIT_QUESTIONS.map((q) => q.id));
    assert.deepStrictEqual(shown.map((s) => `${s.step}/${s.totalSteps}`), INIT_QUESTIONS.map((_, i) => `${i + 1}/${INIT_QUESTIONS.length}`));
    for (const q of INIT_QUESTIONS) assert.strictEqual(answers![q.id], FULL[q.id]);
  });

  it('offers Back on every step after the first, and only there', async () => {
    const { ask, shown } = script(answerAll());
    await runQuestionnaire(ask);
    assert.deepStrictEqual(shown.map((s) => s.canGoBack), INIT_QUESTIONS.map((_, i) => i > 0));
  });

  it('marks optional questions and uses the question placeholder', () => {
    const q = new Questionnaire();
    for (const question of INIT_QUESTIONS) {
      const s = q.current();
      assert.strictEqual(s.placeholder, question.placeHolder);
      assert.strictEqual(s.prompt.endsWith('(optional)'), !question.required, s.prompt);
      assert.ok(q.submit(FULL[question.id]));
    }
  });

  it('Back returns to the previous step with its answer pre-filled and keeps later answers', async () => {
    const ids = INIT_QUESTIONS.map((q) => q.id);
    const replies: StepReply[] = [
      submit('first product'),
      submit('first users'),
      { action: 'back' }, // at step 3 → back to 2
      { action: 'back' }, // at step 2 → back to 1
      submit('second product'),
      submit('first users'), // step 2 again
      ...INIT_QUESTIONS.slice(2).map((q) => submit(FULL[q.id])),
    ];
    const { ask, shown } = script(replies);
    const answers = await runQuestionnaire(ask);
    assert.deepStrictEqual(
      shown.slice(0, 6).map((s) => s.question.id),
      [ids[0], ids[1], ids[2], ids[1], ids[0], ids[1]],
    );
    assert.strictEqual(shown[3].value, 'first users', 'step 2 is pre-filled when coming back');
    assert.strictEqual(shown[4].value, 'first product', 'step 1 is pre-filled when coming back');
    assert.strictEqual(answers!.product, 'second product');
    assert.strictEqual(answers!.users, 'first users');
  });

  it('Back on the first step stays on the first step', async () => {
    const { ask, shown } = script([{ action: 'back' }, ...answerAll()]);
    const answers = await runQuestionnaire(ask);
    assert.strictEqual(shown[0].question.id, shown[1].question.id);
    assert.strictEqual(shown[1].step, 1);
    assert.ok(answers);
  });

  it('refuses an empty required answer and asks the same step again with the reason', async () => {
    const first = INIT_QUESTIONS[0];
    assert.ok(first.required);
    const { ask, shown } = script([submit('   '), ...answerAll()]);
    const answers = await runQuestionnaire(ask);
    assert.strictEqual(shown[1].question.id, first.id);
    assert.match(shown[1].error ?? '', /required/);
    assert.strictEqual(shown[2].error, undefined, 'the error clears once the step is answered');
    assert.strictEqual(answers!.product, FULL.product);
  });

  it('accepts an empty optional answer', async () => {
    const replies = INIT_QUESTIONS.map((q) => submit(q.required ? FULL[q.id] : ''));
    const answers = await runQuestionnaire(script(replies).ask);
    for (const q of INIT_QUESTIONS.filter((x) => !x.required)) assert.strictEqual(answers![q.id], '');
  });

  it('refuses an over-long answer', () => {
    const q = INIT_QUESTIONS[0];
    assert.match(validateAnswer(q, 'x'.repeat(MAX_ANSWER_CHARS + 1)) ?? '', /under/);
    assert.strictEqual(validateAnswer(q, 'x'.repeat(MAX_ANSWER_CHARS)), undefined);
  });

  it('the input box says validateAnswer\'s words while typing, except "required" on an empty box', () => {
    const required = INIT_QUESTIONS.find((q) => q.required)!;
    assert.strictEqual(validateAnswer(required, ''), 'This answer is required (press Esc to cancel).');
    assert.strictEqual(typingMessage(required, ''), undefined);
    assert.strictEqual(typingMessage(required, '   '), undefined);
    assert.strictEqual(typingMessage(required, 'ok'), undefined);
    const long = 'x'.repeat(MAX_ANSWER_CHARS + 1);
    assert.strictEqual(typingMessage(required, long), `Keep the answer under ${MAX_ANSWER_CHARS} characters (it has ${MAX_ANSWER_CHARS + 1}).`);
    assert.strictEqual(typingMessage(required, long), validateAnswer(required, long));
  });

  it('Esc (cancel) at any step returns undefined', async () => {
    for (let at = 0; at < INIT_QUESTIONS.length; at++) {
      const replies = [...answerAll().slice(0, at), { action: 'cancel' } as StepReply];
      const { ask, shown } = script(replies);
      assert.strictEqual(await runQuestionnaire(ask), undefined);
      assert.strictEqual(shown.length, at + 1);
    }
  });

  it('questions with suggestions (team size, design feel) are picks; the others are input boxes', () => {
    const q = new Questionnaire();
    const kinds: Record<string, string> = {};
    for (const question of INIT_QUESTIONS) {
      const s = q.current();
      kinds[question.id] = s.kind;
      if (s.kind === 'pick') assert.deepStrictEqual([...s.suggestions], [...(question.suggestions ?? [])]);
      else assert.strictEqual(s.suggestions.length, 0);
      q.submit(FULL[question.id]);
    }
    assert.deepStrictEqual(Object.keys(kinds).filter((k) => kinds[k] === 'pick').sort(), ['designFeel', 'teamSize']);
  });

  it('asks what the files would otherwise invent: UI language, hosting, test tooling, team size (all optional)', () => {
    for (const id of ['uiLanguage', 'hosting', 'testTooling', 'teamSize']) {
      const q = INIT_QUESTIONS.find((x) => x.id === id);
      assert.ok(q && !q.required, id);
    }
    // the required questions come first, so Enter can skip the optional rest
    const firstOptional = INIT_QUESTIONS.findIndex((q) => !q.required);
    assert.ok(INIT_QUESTIONS.slice(firstOptional).every((q) => !q.required));
  });

  it('answers() before the end throws; submit after the end throws', () => {
    const q = new Questionnaire();
    assert.throws(() => q.answers(), /not complete/);
    for (const question of INIT_QUESTIONS) q.submit(FULL[question.id]);
    assert.ok(q.done);
    assert.throws(() => q.submit('more'), /already complete/);
  });
});

/** An LlmClient that answers every init request with a small valid input file, counting calls. */
function countingClient(): LlmClient & { calls: number } {
  const c = {
    calls: 0,
    async stream(req: LlmRequest, onText: (d: string) => void) {
      c.calls++;
      const file = /Write cape\/(\S+) now/.exec(contentText(req.messages[0].content))?.[1];
      const text = file ? demoInputFile(file, FULL) : demoDecisions();
      onText(text);
      return { text, usage: { inputTokens: 1, outputTokens: 1, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 }, stopReason: 'end_turn', model: req.model };
    },
  };
  return c;
}

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...listFiles(p).map((f) => `${e.name}/${f}`));
    else out.push(e.name);
  }
  return out.sort();
}

describe('initProjectFlow', () => {
  const prompts = loadPromptAssets(defaultPromptsDir());
  let ws: string;
  beforeEach(() => {
    ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-q-'));
  });
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

  const deps = (replies: StepReply[], opts: { exists?: boolean; choose?: InitMode | undefined } = {}) => {
    const llm = countingClient();
    const log: string[] = [];
    const ui = script(replies);
    return {
      llm,
      log,
      ui,
      flow: {
        checkTarget: () => {
          log.push('check');
          checkInitTarget(ws, 'cape');
        },
        capeExists: async () => {
          log.push('exists?');
          return opts.exists ?? fs.existsSync(path.join(ws, 'cape'));
        },
        chooseExistingMode: async () => {
          log.push('choose');
          return opts.choose;
        },
        answersNeeded: async (mode: InitMode) => inputsToGenerate(ws, 'cape', prompts, mode).length > 0,
        hasCode: () => workspaceHasCode(ws, 'cape'),
        ask: ui.ask,
        run: (answers: InitAnswers | null, mode: InitMode) => {
          log.push(`run ${mode}`);
          return initCape({ workspace: ws, answers, llm, model: 'm', language: 'English', mode, prompts });
        },
      },
    };
  };

  /** A cape/ written by a completed questionnaire (every file there). */
  const initialised = () => initProjectFlow(deps(answerAll()).flow);

  it('cancel in the middle of the questionnaire writes nothing and calls no model', async () => {
    const d = deps([...answerAll().slice(0, 3), { action: 'cancel' }]);
    const out = await initProjectFlow(d.flow);
    assert.deepStrictEqual(out, { status: 'cancelled' });
    assert.deepStrictEqual(d.log, ['check', 'exists?'], 'no existing-folder prompt and no run');
    assert.strictEqual(d.llm.calls, 0);
    assert.deepStrictEqual(fs.readdirSync(ws), [], 'the workspace is untouched');
  });

  it('a cape folder no run can write (a file, a link out of the workspace) is refused before any question', async function () {
    fs.writeFileSync(path.join(ws, 'cape'), 'my notes');
    const d = deps(answerAll());
    const out = await initProjectFlow(d.flow);
    assert.deepStrictEqual(out, { status: 'refused', error: `${path.join(ws, 'cape')} exists but is not a folder; move it away and run init again` });
    assert.deepStrictEqual(d.log, ['check']);
    assert.deepStrictEqual(d.ui.shown, [], 'no question asked');
    assert.strictEqual(fs.readFileSync(path.join(ws, 'cape'), 'utf8'), 'my notes');

    fs.rmSync(path.join(ws, 'cape'));
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-q-outside-'));
    try {
      try {
        fs.symlinkSync(outside, path.join(ws, 'cape'));
      } catch {
        return this.skip(); // no symlink permission
      }
      const linked = deps(answerAll());
      const refused = await initProjectFlow(linked.flow);
      assert.strictEqual(refused.status, 'refused');
      assert.match((refused as { error: string }).error, /resolves to .*, outside the workspace; refusing to write there$/);
      assert.deepStrictEqual(linked.ui.shown, [], 'no question asked');
      assert.strictEqual(linked.llm.calls, 0);
      assert.deepStrictEqual(fs.readdirSync(outside), []);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('a completed questionnaire runs init in fail-if-exists mode and writes cape/', async () => {
    const d = deps(answerAll());
    const out = await initProjectFlow(d.flow);
    assert.strictEqual(out.status, 'done');
    if (out.status !== 'done') return;
    assert.strictEqual(out.mode, 'fail-if-exists');
    assert.deepStrictEqual(d.log, ['check', 'exists?', 'run fail-if-exists']);
    assert.strictEqual(out.result.failed.length, 0);
    assert.strictEqual(d.llm.calls, 1 + prompts.inputs.length, 'the decisions, then one call per input file');
    const files = listFiles(path.join(ws, 'cape'));
    for (const s of prompts.inputs) assert.ok(files.includes(s.path), `${s.path} written`);
  });

  it('an existing cape/: "Keep existing" stops before any question; nothing changes', async () => {
    fs.mkdirSync(path.join(ws, 'cape', '1_product'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'cape', '1_product', 'keep.md'), 'mine');
    const d = deps([], { choose: undefined });
    const out = await initProjectFlow(d.flow);
    assert.deepStrictEqual(out, { status: 'kept' });
    assert.deepStrictEqual(d.ui.shown, []);
    assert.deepStrictEqual(listFiles(path.join(ws, 'cape')), ['1_product/keep.md']);
  });

  it('an existing cape/: the chosen mode reaches initCape ("Fill only missing files" keeps existing files)', async () => {
    await initialised();
    const victim = path.join(ws, 'cape', prompts.inputs[0].path);
    const kept = path.join(ws, 'cape', prompts.inputs[1].path);
    fs.rmSync(victim);
    fs.writeFileSync(kept, 'edited by the user');
    const d = deps(answerAll(), { choose: 'missing-only' });
    const out = await initProjectFlow(d.flow);
    assert.ok(out.status === 'done' && out.mode === 'missing-only');
    assert.deepStrictEqual(d.log, ['check', 'exists?', 'choose', 'run missing-only']);
    assert.strictEqual(d.llm.calls, 1, 'only the missing input file is generated');
    assert.ok(fs.existsSync(victim));
    assert.strictEqual(fs.readFileSync(kept, 'utf8'), 'edited by the user');
  });

  it('"Fill only missing files" with every input file there asks nothing and calls no model: the generic templates come back', async () => {
    await initialised();
    const generic = path.join(ws, 'cape', prompts.templates[0].relPath);
    const mine = path.join(ws, 'cape', prompts.inputs[0].path);
    fs.rmSync(generic);
    fs.writeFileSync(mine, 'brought from the original CLI');
    const d = deps([], { choose: 'missing-only' });
    const out = await initProjectFlow(d.flow);
    assert.ok(out.status === 'done' && out.answers === null);
    assert.deepStrictEqual(d.log, ['check', 'exists?', 'choose', 'run missing-only']);
    assert.deepStrictEqual(d.ui.shown, [], 'no question');
    assert.strictEqual(d.llm.calls, 0);
    assert.strictEqual(fs.readFileSync(generic, 'utf8'), prompts.templates[0].content);
    assert.strictEqual(fs.readFileSync(mine, 'utf8'), 'brought from the original CLI');
  });

  it('"Fill only missing files" still asks the questionnaire when an input file is missing', async () => {
    await initialised();
    fs.rmSync(path.join(ws, 'cape', prompts.inputs[2].path));
    const d = deps([{ action: 'cancel' }], { choose: 'missing-only' });
    const out = await initProjectFlow(d.flow);
    assert.deepStrictEqual(out, { status: 'cancelled' });
    assert.strictEqual(d.ui.shown.length, 1, 'the first question was shown');
  });

  it('cancel after choosing Overwrite still writes nothing', async () => {
    fs.mkdirSync(path.join(ws, 'cape'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'cape', 'x.md'), 'x');
    const d = deps([submit('p'), { action: 'cancel' }], { choose: 'overwrite' });
    const out = await initProjectFlow(d.flow);
    assert.deepStrictEqual(out, { status: 'cancelled' });
    assert.strictEqual(d.llm.calls, 0);
    assert.deepStrictEqual(listFiles(path.join(ws, 'cape')), ['x.md']);
  });
});

describe('questionnaire messages', () => {
  it('the existing-folder choices map to keep / overwrite / missing-only, in that order', () => {
    const c = existingCapeChoices('cape');
    assert.deepStrictEqual(c.map((x) => x.label), ['Keep existing (cancel)', 'Overwrite', 'Fill only missing files']);
    assert.deepStrictEqual(c.map((x) => x.mode), [undefined, 'overwrite', 'missing-only']);
  });

  it('progress shows "done/total · path inside the cape folder"', () => {
    assert.strictEqual(progressMessage({ done: 3, total: 9, file: 'cape/1_product/2_persona.md' }, 'cape'), '3/9 · 1_product/2_persona.md');
    assert.strictEqual(progressMessage({ done: 1, total: 2, file: 'docs/team/0_team/a.md' }, 'docs/team/'), '1/2 · 0_team/a.md');
  });

  it('summaries: success, failures (with retry), cancelled (with retry)', () => {
    const ok = summariseInit({ written: ['cape/a.md', 'cape/b.md'], skipped: [], failed: [], cancelled: false, repaired: [], decisions: null, facts: null, factsRequests: 0 }, 'cape');
    assert.strictEqual(ok.level, 'info');
    assert.strictEqual(ok.retry, false);
    assert.match(ok.message, /2 file\(s\) written in cape\//);
    assert.doesNotMatch(ok.message, /repair/);
    const fixed = summariseInit({ written: ['cape/a.md'], skipped: [], failed: [], cancelled: false, repaired: ['cape/a.md'], decisions: null, facts: null, factsRequests: 0 }, 'cape');
    assert.match(fixed.message, /1 file\(s\) written in cape\/ \(1 after one repair request\)\./);
    const failed = summariseInit(
      { written: ['cape/a.md'], skipped: ['cape/k.md'], failed: [1, 2, 3, 4].map((i) => ({ path: `cape/f${i}.md`, error: `boom ${i}` })), cancelled: false, repaired: [], decisions: null, facts: null, factsRequests: 0 },
      'cape',
    );
    assert.strictEqual(failed.level, 'warning');
    assert.ok(failed.retry);
    assert.match(failed.message, /^4 file\(s\) could not be written: cape\/f1\.md \(boom 1\)/);
    assert.match(failed.message, /and 1 more/);
    assert.match(failed.message, /1 existing kept/);
    const cancelled = summariseInit({ written: [], skipped: [], failed: [{ path: 'cape/x.md', error: 'cancelled' }], cancelled: true, repaired: [], decisions: null, facts: null, factsRequests: 0 }, 'cape');
    assert.ok(cancelled.retry);
    assert.match(cancelled.message, /cancelled/);
  });
});
