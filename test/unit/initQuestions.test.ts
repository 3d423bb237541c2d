// The init questionnaire's wording for the workspace it runs in (src/core/cape/initAnswers.ts initQuestions,
// initFacts.ts workspaceHasCode): where the workspace holds code, the `features` question asks what the next release
// adds — in VS Code's quick inputs (initProjectFlow) as on the terminal (cliArgs.test.ts) — every request labels
// the answer with the question as it was asked, and an answers file without it is told that question.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { INIT_QUESTIONS, initQuestions, normaliseAnswers, parseAnswersFile, type InitAnswers } from '../../src/core/cape/initAnswers';
import { readWorkspaceFacts, workspaceHasCode, type WorkspaceFacts } from '../../src/core/cape/initFacts';
import { setKey } from '../../src/core/cape/initFactsText';
import { buildDecisionsRequest, buildInitRequest } from '../../src/core/cape/initRequests';
import { initCape } from '../../src/core/cape/init';
import { defaultPromptsDir, loadPromptAssets, type PromptAssets } from '../../src/core/cape/prompts';
import { contentText, type LlmRequest } from '../../src/core/model/types';
import { tempDir } from '../helpers/cli';
import { TreeWalk } from '../../src/core/workspace/treeWalk';
import { WorkspacePolicy } from '../../src/core/workspace/policy';
import { writeCodebase } from '../helpers/codebase';
import { demoInitLlm } from '../helpers/demo';
import { initProjectFlow, type QuestionnaireStep } from '../../src/commands/questionnaire';

const FIRST_VERSION = 'Which features must the first version have?';
const NEXT_RELEASE = 'What should the next release add or change? (what is built is read from the code)';

const put = (ws: string, rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
  fs.writeFileSync(path.join(ws, rel), text);
};

/** The `question` attribute of an answer block in a request's user message. */
const label = (req: LlmRequest, id: string) => new RegExp(`<answer id="${id}" question="([^"]*)">`).exec(contentText(req.messages[0].content))?.[1];

describe('init: the questionnaire worded for a workspace with code', function () {
  this.timeout(20000);
  const prompts = loadPromptAssets(defaultPromptsDir());
  const answers = Object.fromEntries(INIT_QUESTIONS.map((q) => [q.id, `ANSWER-${q.id}`])) as InitAnswers;
  const manifests = '## package.json\n- name: FACT-MARK';
  const sets = prompts.inputs.flatMap((s) => (Array.isArray(s.facts) ? [s.facts] : []));
  const some = Object.fromEntries(sets.map((set) => [setKey(set), set.includes('manifests') ? manifests : '']));
  const facts: WorkspaceFacts = { text: manifests, some, files: ['package.json'], listed: [] };
  const base = { answers, language: 'English', model: 'm', prompts };
  const decisions = Object.fromEntries(prompts.decisions.map((d) => [d.key, 'x']));

  it('initQuestions: the features question asks about the next release where there is code; nothing else changes', () => {
    assert.strictEqual(initQuestions(false), INIT_QUESTIONS);
    const withCode = initQuestions(true);
    assert.deepStrictEqual(withCode.map((q) => q.id), INIT_QUESTIONS.map((q) => q.id));
    const features = withCode.find((q) => q.id === 'features')!;
    assert.strictEqual(features.prompt, NEXT_RELEASE);
    assert.ok(features.required);
    assert.notStrictEqual(features.placeHolder, INIT_QUESTIONS.find((q) => q.id === 'features')!.placeHolder);
    assert.strictEqual(INIT_QUESTIONS.find((q) => q.id === 'features')!.prompt, FIRST_VERSION);
    for (const q of withCode.filter((x) => x.id !== 'features')) assert.strictEqual(q, INIT_QUESTIONS.find((x) => x.id === q.id));
  });

  it('workspaceHasCode: a source file or a root manifest is code; documents, an empty folder and cape/ alone are not — the same test as the facts', async () => {
    const empty = tempDir('cape-q-empty-');
    const docs = tempDir('cape-q-docs-');
    put(docs, 'README.md', '# An idea\n');
    put(docs, 'cape/3_development/notes.ts', 'export {};\n');
    put(docs, 'site/package.json', '{}\n'); // a manifest below the root is no code of the workspace's own
    const source = tempDir('cape-q-source-');
    put(source, 'lib/strike.py', 'def strike(): ...\n');
    const manifest = tempDir('cape-q-manifest-');
    put(manifest, 'go.mod', 'module example.com/anvil\n');
    for (const [ws, expected] of [[empty, false], [docs, false], [source, true], [manifest, true]] as const) {
      assert.strictEqual(workspaceHasCode(ws, 'cape'), expected, ws);
      assert.strictEqual((await readWorkspaceFacts(ws, 'cape')) !== null, expected, `${ws}: the facts agree`);
    }
  });

  it('workspaceHasCode stops walking at the first code file: the folders after it are never listed', () => {
    const ws = tempDir('cape-q-early-');
    put(ws, 'main.go', 'package main\n');
    for (let i = 0; i < 20; i++) put(ws, `docs${i}/page.md`, '# page\n');
    const policy = new WorkspacePolicy(ws, { capeFolder: 'cape' });
    const whole = new TreeWalk(ws, policy);
    whole.walk(false, () => undefined);
    assert.strictEqual(whole.listed, 21, 'a walk without a stop lists every folder');
    let code = false;
    const stopped = new TreeWalk(ws, policy);
    stopped.walk(false, (rel) => void (code ||= rel === 'main.go'), null, undefined, () => code);
    assert.ok(code);
    assert.strictEqual(stopped.listed, 1, 'the stop is asked before each folder: only the root was listed');
    policy.forget();
    assert.strictEqual(workspaceHasCode(ws, 'cape'), true);
  });

  it("VS Code's flow shows the features step worded for the workspace: the next release with code, the first version without", async () => {
    const featuresStep = async (ws: string) => {
      const shown: QuestionnaireStep[] = [];
      const out = await initProjectFlow({
        checkTarget: () => undefined,
        capeExists: async () => false,
        chooseExistingMode: async () => undefined,
        answersNeeded: async () => true,
        hasCode: () => workspaceHasCode(ws, 'cape'),
        ask: async (step) => {
          shown.push(step);
          return { action: 'submit', value: `answer to ${step.question.id}` };
        },
        run: async (answers) => answers,
      });
      assert.strictEqual(out.status === 'done' && out.result?.features, 'answer to features', 'the same answer id either way');
      assert.strictEqual(shown.length, INIT_QUESTIONS.length);
      return shown.find((s) => s.question.id === 'features')!;
    };
    const ws = tempDir('cape-q-flow-');
    const fresh = await featuresStep(ws);
    assert.strictEqual(fresh.prompt, FIRST_VERSION);
    put(ws, 'main.py', 'print("hello")\n');
    const existing = await featuresStep(ws);
    assert.strictEqual(existing.prompt, NEXT_RELEASE);
    assert.match(existing.placeholder, /^e\.g\. /);
    assert.notStrictEqual(existing.placeholder, fresh.placeholder);
  });

  it('the decisions and file requests label the features answer with the question asked: the next release with facts, the first version without', () => {
    const architecture = prompts.inputs.find((s) => s.path === '3_development/1_architecture.md')!;
    assert.strictEqual(label(buildDecisionsRequest({ ...base, facts }), 'features'), NEXT_RELEASE);
    assert.strictEqual(label(buildInitRequest(architecture, { ...base, facts, decisions }), 'features'), NEXT_RELEASE);
    // a file that takes no facts still reads the answer as what was asked: the workspace has code
    const noFacts = { ...architecture, facts: false };
    const req = buildInitRequest(noFacts, { ...base, facts, decisions });
    assert.doesNotMatch(contentText(req.messages[0].content), /workspace_facts/);
    assert.strictEqual(label(req, 'features'), NEXT_RELEASE);
    assert.strictEqual(label(buildDecisionsRequest(base), 'features'), FIRST_VERSION);
    assert.strictEqual(label(buildInitRequest(architecture, { ...base, decisions }), 'features'), FIRST_VERSION);
    assert.strictEqual(label(buildDecisionsRequest({ ...base, facts }), 'product'), INIT_QUESTIONS[0].prompt, 'the other questions keep their wording');
  });

  it('the prompts read the features answer as the next release for a product that exists, the first release otherwise', () => {
    const decisionsPrompt = buildDecisionsRequest({ ...base, facts }).system[0].text;
    assert.match(decisionsPrompt, /- v1_scope: .*the features of the first release — or, for a product that exists, what is built and what the next release adds \(the `features` answer\)/);
    assert.match(decisionsPrompt, /`v1_scope` names what is\s+built now \(as the facts show it\) and what the next release adds \(the `features` answer\)/);
    const filePrompt = buildInitRequest(prompts.inputs.find((s) => s.path === '1_product/4_backlog.md')!, { ...base, facts, decisions }).system[0].text;
    assert.match(filePrompt, /a section on a first release says\s+so, the `features` answer is the\s+next release, and plans and backlog start there/);
    assert.match(filePrompt, /for a new product, its first release; for one that exists, the next release the developer asked for/);
    // the milestone's sections are worded for both: the current release of a product that exists is what is built, each
    // headed by its version, not by a generic "v1"/"v2" a project's own major versions could be mistaken for (an h3
    // trial, on its v2 branch at 2.0.0-beta.0, had to explain that its "v1" section held 2.0.0-beta.0)
    const milestone = buildInitRequest(prompts.inputs.find((s) => s.path === '1_product/3_milestone.md')!, { ...base, facts, decisions }).system[0].text;
    assert.match(milestone, /^2\. The current release — the first usable release; for a product that exists, what is built now — headed by the version it carries when it has releases \(`## 2\.4\.0 — built now`\), not by a generic "v1" a real version could be mistaken for — features, success criteria$/m);
    assert.match(milestone, /^3\. The next release — its planned features and goals, headed by the version number it will carry by the project's versioning when it has releases \(`## 2\.5\.0 — next`\), else "Next release"$/m);
  });

  it("a missing features answer is told with the question as it is asked: the next release where the workspace holds code", async () => {
    const partial = 'product: P\nusers: U\nproblem: Q\n';
    assert.throws(() => parseAnswersFile(partial, true), (e: Error) => e.message.includes(`  features: ${NEXT_RELEASE}`));
    assert.throws(() => parseAnswersFile(partial), (e: Error) => e.message.includes(`  features: ${FIRST_VERSION}`));
    // the workspace is looked at only when an answer is missing
    let looked = 0;
    normaliseAnswers({ product: 'P', users: 'U', problem: 'Q', features: 'F' }, () => ++looked > 0);
    assert.strictEqual(looked, 0);
    // initCape, given answers without it, looks at its workspace
    const withCode = tempDir('cape-q-missing-');
    writeCodebase(withCode);
    const missing = { product: 'P', users: 'U', problem: 'Q' } as unknown as InitAnswers;
    const run = (workspace: string) => initCape({ workspace, answers: missing, model: 'm', language: 'English', mode: 'fail-if-exists', prompts });
    await assert.rejects(run(withCode), (e: Error) => e.message.includes(`  features: ${NEXT_RELEASE}`));
    await assert.rejects(run(tempDir('cape-q-missing-empty-')), (e: Error) => e.message.includes(`  features: ${FIRST_VERSION}`));
  });

  it('initCape: with the decisions stored and only a file that takes no facts missing, its request still says next release and sends no facts', async () => {
    const ws = tempDir('cape-q-init-');
    writeCodebase(ws);
    const requests: LlmRequest[] = [];
    const llm = demoInitLlm(answers, requests);
    // the shipped files, one of them marked as taking no facts
    const unmarked = '2_design/2_brand.md';
    const local: PromptAssets = { ...prompts, inputs: prompts.inputs.map((s) => (s.path === unmarked ? { ...s, facts: false } : s)) };
    const run = (mode: 'fail-if-exists' | 'missing-only') => initCape({ workspace: ws, answers, llm, model: 'm', language: 'English', mode, prompts: local });
    const first = await run('fail-if-exists');
    assert.deepStrictEqual(first.failed, []);
    assert.strictEqual(requests.length, 1 + prompts.inputs.length);
    assert.strictEqual(first.factsRequests, prompts.inputs.length, 'the decisions and every file but the one that takes none');
    assert.deepStrictEqual(new Set(requests.map((r) => label(r, 'features'))), new Set([NEXT_RELEASE]), 'every request reads the answer as the next release');
    fs.rmSync(path.join(ws, 'cape', unmarked));
    requests.length = 0;
    const again = await run('missing-only');
    assert.deepStrictEqual(again.written, [`cape/${unmarked}`]);
    assert.strictEqual(requests.length, 1, 'the stored decisions are reused');
    assert.strictEqual(label(requests[0], 'features'), NEXT_RELEASE);
    assert.doesNotMatch(contentText(requests[0].messages[0].content), /workspace_facts/);
    assert.strictEqual(again.facts, null, 'no request carried the facts: none are reported');
    assert.strictEqual(again.factsRequests, 0);
  });
});
