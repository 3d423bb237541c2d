import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { GENERIC_CAPE_FILES, INPUT_CAPE_FILES } from '../../src/core/cape/capeLayout';
import { parseFrontmatter } from '../../src/core/cape/frontmatter';
import {
  INIT_ANSWER_IDS,
  PromptAssets,
  PromptAssetsError,
  ROLE_PROMPT_IDS,
  SESSION_PROMPT_VARS,
  defaultPromptsDir,
  loadPromptAssets,
  promptVariables,
  renderPrompt,
  templateBodies,
} from '../../src/core/cape/prompts';
import { INIT_DECISIONS_PROMPT_VARS, INIT_PROMPT_VARS } from '../../src/core/cape';
import { validateEnvelope } from '../../src/core/reply/envelope';
import { aliasBomb } from '../helpers/hostileInput';
import { namedTests } from '../../src/core/metrics/tsr';
import { loadRecordedSessions, originalProjectDir } from '../helpers/fixtures';

const SESSION_ROLES = ['cm_open', 'poa', 'da', 'deva', 'cm_retro'] as const;
const ENVELOPE_KEYS = ['agent', 'role', 'task_id', 'voice', 'output', 'references', 'confidence', 'ass'];

/** The first fenced ```json block of a rendered prompt, parsed. */
function exampleEnvelope(rendered: string): Record<string, any> {
  const m = /```json\s*\n([\s\S]*?)\n```/.exec(rendered);
  assert.ok(m, 'the prompt shows a fenced json envelope');
  return JSON.parse(m![1]);
}

function render(assets: PromptAssets, id: (typeof SESSION_ROLES)[number]) {
  return renderPrompt(assets.roles[id], { language: 'Klingon', task_id: 'task-42' });
}

describe('prompts: loadPromptAssets', () => {
  let assets: PromptAssets;
  before(() => {
    assets = loadPromptAssets(defaultPromptsDir());
  });

  it('finds the prompts folder and loads every role, the preamble, templates and inputs', () => {
    assert.ok(fs.existsSync(path.join(assets.dir, 'shared', 'preamble.md')));
    assert.deepStrictEqual(Object.keys(assets.roles).sort(), [...ROLE_PROMPT_IDS].sort());
    for (const id of ROLE_PROMPT_IDS) assert.ok(assets.roles[id].length > 500, `${id} is substantive`);
    assert.ok(!assets.roles.poa.startsWith('---'), 'role frontmatter is stripped');
    assert.strictEqual(assets.roleMeta.deva.agent, 'DevA');
  });

  it('the preamble has no per-call variables and states the envelope rules', () => {
    assert.deepStrictEqual(promptVariables(assets.preamble), []);
    for (const key of ENVELOPE_KEYS) assert.ok(assets.preamble.includes(`\`${key}\``), key);
    assert.match(assets.preamble, /Given-When-Then/);
  });

  for (const id of SESSION_ROLES) {
    it(`${id}: renders with language, stays the same from task to task, and shows a valid envelope with voice right after task_id`, () => {
      assert.deepStrictEqual(promptVariables(assets.roles[id]).sort(), [...SESSION_PROMPT_VARS].sort());
      const text = render(assets, id);
      assert.deepStrictEqual(promptVariables(text), [], 'no placeholder left');
      assert.match(text, /Klingon/);
      const env = exampleEnvelope(text);
      // No task id in the role prompt (it is cached across sessions): the example points at the message's Task line.
      assert.ok(!text.includes('task-42'));
      assert.match(env.task_id, /Task id/);
      const keys = Object.keys(env);
      assert.deepStrictEqual(keys.slice(0, 2), ['agent', 'role']);
      assert.strictEqual(keys[keys.indexOf('task_id') + 1], 'voice', 'voice is streamed live: it must follow task_id');
      if (id !== 'cm_retro') {
        assert.deepStrictEqual(keys, ENVELOPE_KEYS);
        assert.deepStrictEqual(Object.keys(env.ass), ['score', 'positive', 'improvement', 'context_adequate']);
        assert.ok(env.ass.score >= 1 && env.ass.score <= 5);
        assert.strictEqual(typeof env.ass.context_adequate, 'boolean');
        assert.ok(Number.isInteger(env.confidence) && env.confidence >= 1 && env.confidence <= 5, 'confidence 1-5');
      }
      // the example a model imitates must pass the envelope validation the runner applies
      const v = validateEnvelope(id, env);
      assert.ok(v.ok, v.ok ? '' : v.error);
      assert.match(text, /Do NOT/);
    });
  }

  it('cm_open: output keys, KPT follow-up duties and no domain output', () => {
    const text = render(assets, 'cm_open');
    const env = exampleEnvelope(text);
    assert.strictEqual(env.agent, 'CM');
    assert.deepStrictEqual(Object.keys(env.output), ['session_brief', 'dor_check', 'watch_out', 'coaching_notes', 'go_ahead', 'kpt_followups', 'adopted_tries']);
    assert.match(text, /adopted_tries/);
    assert.match(text, /\[id …\]/, 'the prompt says where the ids are in the digest');
    assert.deepStrictEqual(Object.keys(env.output.dor_check), ['passed', 'concerns', 'questions']);
    assert.deepStrictEqual(env.output.dor_check.questions, [], 'the example asks nothing: questions are the exception');
    assert.match(text, /only when the team cannot reasonably assume the\s+answer/, 'questions only for what the team cannot assume');
    assert.deepStrictEqual(Object.keys(env.output.coaching_notes), ['POA', 'DA', 'DevA']);
    assert.match(text, /recurring Problem/i);
    assert.match(text, /adopted Try/i);
    assert.match(text, /Do NOT write user stories, acceptance criteria, priorities, designs, architecture or code/);
  });

  it('poa: scope, Given-When-Then criteria, MoSCoW priority, no technical solutions', () => {
    const text = render(assets, 'poa');
    const env = exampleEnvelope(text);
    assert.strictEqual(env.agent, 'POA');
    assert.deepStrictEqual(Object.keys(env.output.scope), ['in', 'out', 'explicitly_excluded']);
    const ac = env.output.user_stories[0].acceptance_criteria[0];
    assert.deepStrictEqual(Object.keys(ac), ['id', 'given', 'when', 'then']);
    assert.strictEqual(env.output.priority.method, 'MoSCoW');
    assert.ok(Array.isArray(env.output.open_questions));
    assert.match(text, /Do NOT propose technical solutions/);
  });

  it('da: rationale, component specs, accessibility, handoff; does not override business requirements', () => {
    const text = render(assets, 'da');
    const env = exampleEnvelope(text);
    for (const k of ['design_rationale', 'component_specs', 'interaction_notes', 'accessibility_notes', 'handoff_notes_for_deva']) {
      assert.ok(k in env.output, k);
    }
    assert.match(text, /Do NOT change, drop or reprioritise business requirements/);
    assert.match(text, /brand/i);
  });

  it('deva: output keys, <file> blocks and <summary>, path rules, no reprioritising', () => {
    const text = render(assets, 'deva');
    const env = exampleEnvelope(text);
    assert.deepStrictEqual(Object.keys(env.output), ['architecture_decisions', 'file_list', 'test_strategy', 'criteria_tests', 'departures', 'open_questions', 'answered_questions']);
    // TSR: one named test per acceptance criterion, by id, with what DevA expects of it on the unchanged code (read by
    // core/metrics/tsr.ts: fail-first compares it with what happened there)
    assert.deepStrictEqual(Object.keys(env.output.criteria_tests[0]), ['criterion', 'file', 'test', 'expect']);
    assert.deepStrictEqual(namedTests(env.output).get('AC-1'), [{ file: 'test/example.test.ts', name: "the test's name", expect: 'fail' }]);
    assert.match(text, /by id/);
    assert.match(text, /<file path="[^"]+">/);
    assert.match(text, /<summary>[\s\S]*<\/summary>/);
    assert.match(text, /COMPLETE file content/);
    // existing files change through <edit> hunks; reading comes first
    assert.match(text, /<edit path="[^"]+">\n<<<<<<< SEARCH\n[\s\S]+?\n=======\n[\s\S]+?\n>>>>>>> REPLACE\n<\/edit>/);
    assert.match(text, /read_file/);
    assert.match(text, /limit reached/);
    assert.match(text, /\.git\//);
    assert.match(text, /cape\/5_sessions\//);
    assert.match(text, /Do NOT reprioritise the backlog/);
    assert.match(text, /Do NOT override DA's design rationale/);
  });

  it('cm_retro: conversation, KPT limit, empty metrics and no arithmetic', () => {
    const text = render(assets, 'cm_retro');
    const env = exampleEnvelope(text);
    assert.strictEqual(env.phase, 'retrospective');
    // voice right after task_id, as the shared reply format asks; phase after it
    assert.deepStrictEqual(Object.keys(env).slice(0, 5), ['agent', 'role', 'task_id', 'voice', 'phase']);
    assert.ok(env.conversation.every((t: any) => typeof t.speaker === 'string' && typeof t.text === 'string'));
    assert.deepStrictEqual(
      [...new Set(env.conversation.map((t: any) => t.speaker))].sort(),
      ['CM', 'DA', 'DevA', 'POA'],
    );
    assert.deepStrictEqual(Object.keys(env.kpt), ['keep', 'problem', 'try']);
    assert.deepStrictEqual(env.metrics, {});
    // TSR judged: each criterion met / not_met / unknown with a reason (read by core/metrics/tsr.ts).
    assert.deepStrictEqual(Object.keys(env.criteria[0]), ['id', 'status', 'reason']);
    assert.match(text, /`met`[\s\S]*`not_met`[\s\S]*`unknown`/);
    assert.match(text, /At most 10 items/);
    assert.match(text, /Do NOT compute metrics/);
    assert.match(text, /opening/);
  });

  it('init: uses exactly its documented variables and asks for type: input frontmatter', () => {
    assert.deepStrictEqual(promptVariables(assets.roles.init).sort(), [...INIT_PROMPT_VARS].sort());
    const text = renderPrompt(assets.roles.init, {
      language: 'English',
      path: '1_product/1_mvv.md',
      title: 'MVV',
      purpose: 'p',
      sections: '1. a',
      other_files: '- x',
      max_chars: '8,000',
    });
    assert.match(text, /type: input/);
    assert.match(text, /cape\/1_product\/1_mvv\.md/);
    assert.match(text, /shared decisions exactly as given/);
  });

  it('init_decisions: uses exactly its documented variables; inputs.json names the decisions', () => {
    assert.deepStrictEqual(promptVariables(assets.roles.init_decisions).sort(), [...INIT_DECISIONS_PROMPT_VARS].sort());
    const keys = assets.decisions.map((d) => d.key);
    for (const k of ['product_name', 'ui_languages', 'hosting', 'test_tooling', 'team', 'performance_budget']) assert.ok(keys.includes(k), k);
    assert.strictEqual(new Set(keys).size, keys.length);
  });

  it('templates: exactly the generic files, each type: generic and substantive', () => {
    assert.deepStrictEqual(assets.templates.map((t) => t.relPath), [...GENERIC_CAPE_FILES].sort());
    for (const t of assets.templates) {
      const fm = parseFrontmatter(t.content);
      assert.ok(fm.ok && fm.data.type === 'generic', t.relPath);
      assert.ok(fm.ok && fm.body.length > 800, `${t.relPath} is substantive`);
    }
    const bodies = templateBodies(assets);
    assert.deepStrictEqual([...bodies.keys()], assets.templates.map((t) => t.relPath));
    for (const b of bodies.values()) assert.ok(!b.startsWith('---') && /^#/m.test(b), 'bodies have no frontmatter');
    const dor = assets.templates.find((t) => t.relPath === '0_team/3_dor.md')!.content;
    const dod = assets.templates.find((t) => t.relPath === '0_team/4_dod.md')!.content;
    for (const doc of [dor, dod]) {
      for (const role of ['POA', 'DA', 'DevA', 'CM']) assert.match(doc, new RegExp(`## .*${role}`));
      assert.ok((doc.match(/- \[ \]/g) ?? []).length >= 15, 'checklists');
    }
    const metrics = assets.templates.find((t) => t.relPath === '4_orchestration/2_metrics.md')!.content;
    for (const code of ['ASS', 'SV', 'ST', 'XRF', 'CI', 'TSR', 'RR', 'ETT', 'CR']) {
      assert.match(metrics, new RegExp(`\\| ${code} \\|`), code);
    }
  });

  it('inputs: the documented input files, in the original CLI\'s paths, fed by known answers', () => {
    assert.deepStrictEqual(assets.inputs.map((i) => i.path), [...INPUT_CAPE_FILES]);
    for (const i of assets.inputs) {
      assert.ok(i.answers.length > 0 && i.answers.every((a) => (INIT_ANSWER_IDS as readonly string[]).includes(a)));
      assert.ok(i.sections.length >= 3, `${i.path} lists its sections`);
    }
    // every input file of the original CLI's cape/ is one we generate
    const capeDir = path.join(originalProjectDir(), 'cape');
    const original = fs
      .readdirSync(capeDir, { recursive: true, encoding: 'utf8' })
      .map((p) => p.split(path.sep).join('/'))
      .filter((p) => p.endsWith('.md') && !p.startsWith('5_sessions/'));
    assert.ok(original.length > 0);
    for (const p of original) assert.ok((INPUT_CAPE_FILES as readonly string[]).includes(p), p);
  });

  it('contains no sentence copied from the fixtures', () => {
    const ours: string[] = [];
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else ours.push(fs.readFileSync(p, 'utf8'));
      }
    };
    walk(assets.dir);
    const corpus = ours.join('\n');
    const fixtureTexts: string[] = loadRecordedSessions().flatMap((s) => s.steps.map((x) => x.raw));
    const capeDir = path.join(originalProjectDir(), 'cape');
    for (const p of fs.readdirSync(capeDir, { recursive: true, encoding: 'utf8' })) {
      const abs = path.join(capeDir, p);
      if (fs.statSync(abs).isFile()) fixtureTexts.push(fs.readFileSync(abs, 'utf8'));
    }
    assert.ok(fixtureTexts.length > 0);
    for (const text of fixtureTexts) {
      for (const line of text.split('\n')) {
        const l = line.trim();
        if (l.length >= 50) assert.ok(!corpus.includes(l), `copied fixture line: ${l.slice(0, 80)}`);
      }
    }
  });
});

describe('prompts: renderPrompt', () => {
  it('substitutes every occurrence, with or without spaces in the braces', () => {
    assert.strictEqual(renderPrompt('{{a}}-{{ a }}-{{b}}', { a: 'x', b: 'y' }), 'x-x-y');
  });

  it('throws when a variable is not provided, naming it', () => {
    assert.throws(() => renderPrompt('Hello {{name}} in {{language}}', { language: 'en' }), /\{\{name\}\}/);
  });

  it('does not re-substitute inside values', () => {
    assert.strictEqual(renderPrompt('{{a}}', { a: '{{b}}' }), '{{b}}');
  });

  it('ignores unused variables and leaves non-variable braces alone', () => {
    assert.strictEqual(renderPrompt('{ "k": 1 } {{ not a var', { unused: 'x' }), '{ "k": 1 } {{ not a var');
  });
});

describe('prompts: validation of a broken prompts folder', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-prompts-'));
    fs.cpSync(defaultPromptsDir(), dir, { recursive: true });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('loads an intact copy', () => {
    assert.strictEqual(loadPromptAssets(dir).templates.length, GENERIC_CAPE_FILES.length);
  });

  it('rejects a missing role prompt', () => {
    fs.rmSync(path.join(dir, 'roles', 'da.md'));
    assert.throws(() => loadPromptAssets(dir), (e: Error) => e instanceof PromptAssetsError && /da role prompt/.test(e.message));
  });

  it('rejects a template that is not type: generic, and a js frontmatter', () => {
    const f = path.join(dir, 'templates', '0_team', '3_dor.md');
    fs.writeFileSync(f, '---\ntype: input\n---\n# x\n');
    assert.throws(() => loadPromptAssets(dir), /3_dor\.md must have frontmatter "type: generic" \(found "input"\)/);
    // a type that is a YAML alias bomb (10^9 strings) is named, never expanded into the message
    fs.writeFileSync(f, aliasBomb(9) + '# x\n');
    assert.throws(() => loadPromptAssets(dir), /3_dor\.md must have frontmatter "type: generic" \(found a list\)/);
    fs.writeFileSync(f, '---js\n{ type: "generic" }\n---\n# x\n');
    assert.throws(() => loadPromptAssets(dir), /refused/);
  });

  it('rejects a preamble with variables and an inputs list with unsafe paths', () => {
    fs.appendFileSync(path.join(dir, 'shared', 'preamble.md'), '\n{{task_id}}\n');
    assert.throws(() => loadPromptAssets(dir), /preamble\.md must be identical/);
    fs.cpSync(path.join(defaultPromptsDir(), 'shared'), path.join(dir, 'shared'), { recursive: true });
    const inputs = JSON.parse(fs.readFileSync(path.join(dir, 'inputs.json'), 'utf8'));
    inputs.files[0].path = '../../etc/passwd.md';
    fs.writeFileSync(path.join(dir, 'inputs.json'), JSON.stringify(inputs));
    assert.throws(() => loadPromptAssets(dir), /files\.0\.path/);
  });
});
