// `cape init --answers FILE` through the fake Messages API (the bundled CLI as a child process, the real SDK over
// HTTP): the shared decisions first, then one request per input file; a fenced reply is stripped without a repair, a
// bad reply is repaired by exactly one more request, a still-bad reply is reported and nothing is written for it; on
// a workspace with code, what the code shows goes with the decisions and every project file.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { startFakeAnthropic, type FakeAnthropic, type RecordedRequest } from '../fake-anthropic/server';
import { listFiles, runCli, tempDir } from '../helpers/cli';
import { demoAnswers, demoDecisions, demoInputFile, isDecisionsRequest, requestText } from '../helpers/demo';
import { HIDDEN, writeCodebase } from '../helpers/codebase';
import { defaultPromptsDir, loadPromptAssets } from '../../src/core/cape/prompts';

/** The file a request asks for ("Write cape/<path> now."), or 'decisions'. */
function asked(req: RecordedRequest): string {
  if (isDecisionsRequest(req.body)) return 'decisions';
  return /Write cape\/(\S+) now/.exec(JSON.stringify(req.body.messages))?.[1] ?? 'unknown';
}
const isRepair = (req: RecordedRequest) => (req.body?.messages ?? []).length > 1;

describe('CLI: cape init --answers (reply checks and repair)', function () {
  this.timeout(60000);
  let fake: FakeAnthropic;
  before(async () => {
    fake = await startFakeAnthropic({ chunkSize: 64 });
  });
  after(async () => fake?.close());

  it('strips a fenced reply, repairs a bad reply once, reports a still-bad one and writes nothing for it', async () => {
    const ws = tempDir('cape-cli-init-');
    // an answers file from before the new questions: it must still work
    const answersFile = path.join(ws, 'answers.yaml');
    fs.writeFileSync(answersFile, 'product: Pocket Notes\nusers: Students\nproblem: Notes get lost\nfeatures:\n  - write notes\n  - search\n');
    const answers = demoAnswers();
    fake.reset();
    fake.setResponder((req) => {
      const p = asked(req);
      if (p === 'decisions') return { text: demoDecisions() };
      const good = demoInputFile(p, answers);
      if (p === '1_product/1_mvv.md') return { text: '```markdown\n' + good + '\n```' };
      if (p === '2_design/2_brand.md') return { text: isRepair(req) ? good : 'Sure! Here is the brand guide.\n\n' + good.replace(/^---[\s\S]*?---\n/, '') };
      if (p === '3_development/3_standards.md') return { text: '# Standards\n\nTo be decided.\n' };
      return { text: good };
    });
    const run = await runCli(['init', '--workspace', ws, '--answers', answersFile, '--json'], { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'local' });
    assert.strictEqual(run.code, 1, 'a file that could not be written fails the run');

    const count = (p: string) => fake.requests.filter((r) => asked(r) === p).length;
    assert.strictEqual(count('decisions'), 1);
    assert.strictEqual(count('1_product/1_mvv.md'), 1, 'a fence alone is stripped, no repair');
    assert.strictEqual(count('2_design/2_brand.md'), 2, 'one repair');
    assert.strictEqual(count('3_development/3_standards.md'), 2, 'one repair, never a second');
    assert.strictEqual(fake.requests.length, 1 + 9 + 2);
    const repair = fake.requests.find((r) => asked(r) === '2_design/2_brand.md' && isRepair(r))!;
    assert.match(repair.body.messages[2].content, /cannot be saved as cape\/2_design\/2_brand\.md:\n\n> it does not start with the frontmatter \(it starts with "Sure! Here is the brand guide\."\)/);

    const cape = path.join(ws, 'cape');
    const mvv = fs.readFileSync(path.join(cape, '1_product/1_mvv.md'), 'utf8');
    assert.ok(mvv.startsWith('---\ntype: input\n---\n') && !mvv.includes('```markdown'), mvv.slice(0, 80));
    assert.match(fs.readFileSync(path.join(cape, '2_design/2_brand.md'), 'utf8'), /^---\ntype: input\n---\n\n# Brand/);
    assert.ok(!listFiles(cape).includes('3_development/3_standards.md'), 'the still-bad file is not written');
    assert.ok(!listFiles(cape).some((f) => f.endsWith('.tmp')), 'nothing half-written');

    assert.match(run.stderr, /↻ cape\/2_design\/2_brand\.md: the first reply failed its check; repaired by one more request/);
    assert.match(run.stderr, /✗ cape\/3_development\/3_standards\.md: the reply could not be used even after one repair request: .*too short.*heading.*; nothing was written/);
    assert.deepStrictEqual(run.json.repaired, ['cape/2_design/2_brand.md']);
    assert.deepStrictEqual(run.json.failed.map((f: { path: string }) => f.path), ['cape/3_development/3_standards.md']);

    // the missing file comes with --missing-only, with the stored decisions (no new decisions request)
    fake.reset();
    fake.setResponder((req) => ({ text: asked(req) === 'decisions' ? demoDecisions() : demoInputFile(asked(req), answers) }));
    const again = await runCli(['init', '--workspace', ws, '--answers', answersFile, '--missing-only'], { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'local' });
    assert.strictEqual(again.code, 0, again.stderr);
    assert.deepStrictEqual(fake.requests.map(asked), ['3_development/3_standards.md']);
    assert.match(fs.readFileSync(path.join(cape, '3_development/3_standards.md'), 'utf8'), /^---\ntype: input/);
  });

  it('an answers file without the features answer is told the question asked on a workspace with code: what the next release adds', async () => {
    const ws = tempDir('cape-cli-init-nofeatures-');
    writeCodebase(ws);
    const answersFile = path.join(tempDir('cape-cli-init-answers-'), 'answers.yaml');
    fs.writeFileSync(answersFile, 'product: Acme shop\nusers: Anvil buyers\nproblem: Orders by phone get lost\n');
    fake.reset();
    const run = await runCli(['init', '--workspace', ws, '--answers', answersFile], { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'local' });
    assert.strictEqual(run.code, 2, run.stderr);
    assert.match(run.stderr, /missing required answer\(s\):\n {2}features: What should the next release add or change\? \(what is built is read from the code\)/);
    assert.strictEqual(fake.requests.length, 0);
  });

  it('on a workspace with code, sends what the code shows with the decisions and every project file (answers without stack or tests), and writes every file; a later --missing-only sends them with the missing file', async () => {
    const ws = tempDir('cape-cli-init-code-');
    writeCodebase(ws);
    const answersFile = path.join(tempDir('cape-cli-init-answers-'), 'answers.yaml');
    fs.writeFileSync(answersFile, 'product: Acme shop\nusers: Anvil buyers\nproblem: Orders by phone get lost\nfeatures: order online\nstack: ""\ntestTooling: ""\n');
    const answers = demoAnswers();
    fake.reset();
    fake.setResponder((req) => ({ text: asked(req) === 'decisions' ? demoDecisions() : demoInputFile(asked(req), answers) }));
    const run = await runCli(['init', '--workspace', ws, '--answers', answersFile, '--json'], { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'local' });
    assert.strictEqual(run.code, 0, run.stderr);
    assert.deepStrictEqual(run.json.failed, []);
    assert.strictEqual(fake.requests.length, 1 + 9);
    const sent = (r: RecordedRequest) => requestText(r.body);
    // the tag opening the block (the prompts name it too, in backticks)
    const withFacts = fake.requests.filter((r) => sent(r).includes('<workspace_facts>\n')).map(asked);
    // the files prompts/inputs.json marks (initFacts.test.ts pins which: every one, some with a few parts), and the decisions
    const inputs = loadPromptAssets(defaultPromptsDir()).inputs;
    const marked = inputs.filter((s) => s.facts).map((s) => s.path);
    assert.strictEqual(marked.length, 9);
    assert.deepStrictEqual(withFacts.sort(), [...marked, 'decisions'].sort());
    // the manifests go to the files written from them: not the personas (the README only)
    const withManifests = fake.requests.filter((r) => sent(r).includes('<workspace_facts>\n## package.json')).map(asked);
    assert.deepStrictEqual(withManifests.sort(), [...inputs.filter((s) => s.facts === true || (Array.isArray(s.facts) && s.facts.includes('manifests'))).map((s) => s.path), 'decisions'].sort());
    assert.ok(!withManifests.includes('1_product/2_persona.md'));
    const decisions = sent(fake.requests.find((r) => asked(r) === 'decisions')!);
    for (const fact of ['- packageManager: pnpm@9.1.0', '(package.json script "test")', 'packages (source files): packages/api/ 3, packages/web/ 1', 'sells anvils online', 'Use pnpm, never npm.']) {
      assert.ok(decisions.includes(fact), fact);
    }
    for (const r of fake.requests) for (const hidden of Object.values(HIDDEN)) assert.ok(!sent(r).includes(hidden), `${asked(r)} shows nothing of ${hidden}`);
    for (const p of ['1_product/1_mvv.md', '3_development/1_architecture.md', '3_development/3_standards.md']) assert.ok(fs.existsSync(path.join(ws, 'cape', p)), p);
    assert.match(run.stderr, /read from the workspace \(nothing run; up to [\d,]+ characters a request, sent with 10 requests, each file's with the parts it is written from\): package\.json, packages\/api\/package\.json, packages\/web\/package\.json, README\.md, CLAUDE\.md, the detected check commands, the folder layout, the code map \(file names and their top-level symbols\)\n/);
    assert.strictEqual(run.json.factsRequests, 10, 'the decisions and the nine files');
    assert.deepStrictEqual(run.json.facts.files, ['package.json', 'packages/api/package.json', 'packages/web/package.json', 'README.md', 'CLAUDE.md']);
    // and the facts of each set of parts by the parts' names (setKey): the personas' the README's only
    assert.match(run.json.facts.some.readme, /^## README\.md \(its opening\)\n[^]*sells anvils online/);
    assert.ok(!('manifests,checks,tasks,ci,layout,code,style,readme,guidance' in run.json.facts.some), 'all the parts are `text`');

    // --missing-only with the stored decisions: the missing file (a design file) still gets the facts, and they are
    // said to be sent (a file that takes none: initQuestions.test.ts)
    const file = '2_design/1_principle.md';
    fs.rmSync(path.join(ws, 'cape', file));
    fake.reset();
    fake.setResponder((req) => ({ text: demoInputFile(asked(req), answers) }));
    const again = await runCli(['init', '--workspace', ws, '--answers', answersFile, '--missing-only', '--json'], { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'local' });
    assert.strictEqual(again.code, 0, again.stderr);
    assert.deepStrictEqual(fake.requests.map(asked), [file]);
    assert.ok(sent(fake.requests[0]).includes('<workspace_facts>\n## Layout'), file);
    assert.match(again.stderr, /characters, sent with 1 request\)/);
    assert.notStrictEqual(again.json.facts, null);
    assert.strictEqual(again.json.factsRequests, 1);
  });

  it('--missing-only without answers restores the generic templates when every input file exists (no question, no key, no request); a missing input file still needs the answers', async () => {
    const ws = tempDir('cape-cli-init-generic-');
    fake.reset();
    const answersFile = path.join(ws, 'answers.json');
    fs.writeFileSync(answersFile, JSON.stringify(demoAnswers()));
    const answers = demoAnswers();
    fake.setResponder((req) => ({ text: asked(req) === 'decisions' ? demoDecisions() : demoInputFile(asked(req), answers) }));
    const first = await runCli(['init', '--workspace', ws, '--answers', answersFile], { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'local' });
    assert.strictEqual(first.code, 0, first.stderr);
    const cape = path.join(ws, 'cape');
    const generic = listFiles(cape).filter((f) => /^type: generic$/m.test(fs.readFileSync(path.join(cape, f), 'utf8')));
    assert.ok(generic.length >= 3, 'generic templates were written');
    const gone = generic[1];
    const before = fs.readFileSync(path.join(cape, gone), 'utf8');
    fs.rmSync(path.join(cape, gone));
    fake.reset();
    // no key and a non-loopback API: a model call would be refused before it was made
    const noKey = { ANTHROPIC_BASE_URL: 'https://api.anthropic.com', ANTHROPIC_API_KEY: '' };
    const restore = await runCli(['init', '--workspace', ws, '--missing-only'], noKey);
    assert.strictEqual(restore.code, 0, restore.stderr);
    assert.strictEqual(fs.readFileSync(path.join(cape, gone), 'utf8'), before);
    assert.match(restore.stdout, /1 written/);
    assert.strictEqual(fake.requests.length, 0);

    fs.rmSync(path.join(cape, '1_product', '2_persona.md'));
    const missing = await runCli(['init', '--workspace', ws, '--missing-only'], noKey);
    assert.strictEqual(missing.code, 2, missing.stderr);
    assert.match(missing.stderr, /--answers FILE.*needed to write cape\/1_product\/2_persona\.md/);
    assert.ok(!fs.existsSync(path.join(cape, '1_product', '2_persona.md')));
  });

  it('a later --missing-only writes in the language the first run used, unless --lang says otherwise', async () => {
    const ws = tempDir('cape-cli-init-lang-');
    const answersFile = path.join(ws, 'answers.json');
    fs.writeFileSync(answersFile, JSON.stringify(demoAnswers()));
    const answers = demoAnswers();
    const reset = () => {
      fake.reset();
      fake.setResponder((req) => ({ text: asked(req) === 'decisions' ? demoDecisions() : demoInputFile(asked(req), answers) }));
    };
    reset();
    const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'local' };
    const first = await runCli(['init', '--workspace', ws, '--answers', answersFile, '--lang', 'Japanese'], env);
    assert.strictEqual(first.code, 0, first.stderr);
    const system = (r: RecordedRequest) => JSON.stringify(r.body.system);
    assert.ok(fake.requests.every((r) => /Japanese/.test(system(r))));
    const persona = path.join(ws, 'cape', '1_product', '2_persona.md');
    fs.rmSync(persona);
    reset();
    const later = await runCli(['init', '--workspace', ws, '--answers', answersFile, '--missing-only'], env);
    assert.strictEqual(later.code, 0, later.stderr);
    assert.deepStrictEqual(fake.requests.map(asked), ['1_product/2_persona.md'], 'the stored decisions are reused');
    assert.match(system(fake.requests[0]), /Japanese/);
    assert.doesNotMatch(system(fake.requests[0]), /English/);
    fs.rmSync(persona);
    reset();
    const told = await runCli(['init', '--workspace', ws, '--answers', answersFile, '--missing-only', '--lang', 'German'], env);
    assert.strictEqual(told.code, 0, told.stderr);
    assert.match(system(fake.requests[0]), /German/);
  });

  it('without --force or --missing-only, an existing cape/ is refused before any question, key or answers file is needed', async () => {
    const ws = tempDir('cape-cli-init-exists-');
    const mine = path.join(ws, 'cape', '1_product', '1_mvv.md');
    fs.mkdirSync(path.dirname(mine), { recursive: true });
    fs.writeFileSync(mine, '---\ntype: input\n---\n\n# My own vision\n');
    fake.reset();
    const noKey = { ANTHROPIC_BASE_URL: 'https://api.anthropic.com', ANTHROPIC_API_KEY: '' };
    const run = await runCli(['init', '--workspace', ws], noKey);
    assert.notStrictEqual(run.code, 0);
    assert.match(run.stderr, /cape\/ already exists.*--missing-only/);
    assert.doesNotMatch(run.stderr, /--answers FILE|API key/, 'neither the answers nor a key are asked for a run that cannot write');
    const answersFile = path.join(ws, 'answers.json');
    fs.writeFileSync(answersFile, JSON.stringify(demoAnswers()));
    const withAnswers = await runCli(['init', '--workspace', ws, '--answers', answersFile], noKey);
    assert.match(withAnswers.stderr, /cape\/ already exists/);
    assert.strictEqual(fake.requests.length, 0);
    assert.strictEqual(fs.readFileSync(mine, 'utf8'), '---\ntype: input\n---\n\n# My own vision\n');
  });

  it('a cape/ that links out of the workspace is refused before any question, key or answers file is needed', async function () {
    const ws = tempDir('cape-cli-init-link-');
    const outside = tempDir('cape-cli-init-outside-');
    try {
      fs.symlinkSync(outside, path.join(ws, 'cape'));
    } catch {
      return this.skip(); // no symlink permission
    }
    fake.reset();
    for (const mode of [[], ['--missing-only'], ['--force']]) {
      const run = await runCli(['init', '--workspace', ws, ...mode], { ANTHROPIC_BASE_URL: 'https://api.anthropic.com', ANTHROPIC_API_KEY: '' });
      assert.notStrictEqual(run.code, 0);
      assert.match(run.stderr, /cape resolves to .*, outside the workspace; refusing to write there/, mode.join(' '));
      assert.doesNotMatch(run.stderr, /--answers FILE|API key/, 'neither the answers nor a key are asked for a run that cannot write');
    }
    assert.deepStrictEqual(fs.readdirSync(outside), []);
    assert.strictEqual(fake.requests.length, 0);
  });
});
