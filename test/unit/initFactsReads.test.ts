// Init's workspace facts (src/core/cape/initFacts.ts) read each workspace file once per init: the facts are rendered
// for all the parts and for each set of parts prompts/inputs.json names, each up to three times (the roomier scales),
// from what one walk found and read — the manifests and settings files, the README, the guidance, the CI, task and
// style files alike; and what the parts parse of them (a workflow, a Taskfile, a style sheet) is parsed once per walk,
// in the walk's own memo (initFactsText.ts's ParsedInputs): another walk parses its own, though its paths are the same.
import * as assert from 'assert';
import { readWorkspaceFacts } from '../../src/core/cape/initFacts';
import * as frontmatter from '../../src/core/cape/frontmatter';
import * as tokens from '../../src/core/cape/initFactsTokens';
import { ciPart } from '../../src/core/cape/initFactsCi';
import { stylePart } from '../../src/core/cape/initFactsStyle';
import { tasksPart } from '../../src/core/cape/initFactsTasks';
import { noSources, walkFiles } from '../../src/core/cape/initFactsText';
import { defaultPromptsDir, loadPromptAssets } from '../../src/core/cape/prompts';
import { tempDir } from '../helpers/cli';
import { putFile, recordingAllReads, recordingPolicy, writeCodebase } from '../helpers/codebase';

/** The sets of parts the project files are written from (prompts/inputs.json). */
const factSets = () => loadPromptAssets(defaultPromptsDir()).inputs.flatMap((s) => (Array.isArray(s.facts) ? [s.facts] : []));

/**
 * Has the module's function `name` record in `texts` the text it is called with (its first argument) while `run`
 * runs: the parts call it through the module's exports.
 */
async function recordingCalls<M extends object, T>(module: M, name: keyof M & string, texts: string[], run: () => Promise<T>): Promise<T> {
  const exports = module as unknown as Record<string, (text: string, ...rest: unknown[]) => unknown>;
  const real = exports[name];
  exports[name] = (text, ...rest) => {
    texts.push(text);
    return real(text, ...rest);
  };
  try {
    return await run();
  } finally {
    exports[name] = real;
  }
}

describe('init: the workspace facts read each file once', () => {
  it('each file once per init, however many sets of parts the project files are written from', async () => {
    const ws = tempDir('cape-facts-reads-');
    writeCodebase(ws);
    putFile(ws, 'pnpm-workspace.yaml', "packages:\n  - 'packages/*'\n");
    putFile(ws, 'tsconfig.json', '{ "compilerOptions": { "strict": true } }\n');
    putFile(ws, 'AGENTS.md', '# Agents\n\nRun the tests before a commit.\n');
    putFile(ws, '.github/workflows/ci.yml', 'name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: pnpm test\n');
    putFile(ws, 'Makefile', 'test:\n\tpnpm test\n');
    putFile(ws, 'index.html', '<!doctype html><html><head><title>Acme shop</title></head><body><div id="app"></div></body></html>\n');
    putFile(ws, 'components.json', '{ "style": "new-york", "tailwind": { "css": "src/index.css", "baseColor": "neutral" } }\n');
    putFile(ws, 'tailwind.config.js', 'export default { theme: { extend: {} } };\n');
    putFile(ws, 'src/index.css', ':root { --brand: #c0ffee; }\nbody { color: var(--brand); }\n');
    const { result: facts, read } = await recordingAllReads(() => readWorkspaceFacts(ws, undefined, undefined, factSets()));
    assert.ok(facts && Object.keys(facts.some).length >= 5, 'the facts are rendered for several sets of parts');
    for (const file of ['package.json', 'pnpm-workspace.yaml', 'tsconfig.json', 'packages/api/package.json', 'README.md', 'CLAUDE.md', 'AGENTS.md', '.github/workflows/ci.yml', 'Makefile', 'index.html', 'components.json', 'tailwind.config.js', 'src/index.css']) {
      assert.ok(read.includes(file), `${file} is read: ${read.join(', ')}`);
    }
    assert.deepStrictEqual(read.filter((f, i) => read.indexOf(f) !== i), [], `each file read once: ${read.join(', ')}`);
  });

  it('parses a workflow, a Taskfile and a style sheet once per init, however many times the facts are rendered', async () => {
    const ws = tempDir('cape-facts-parses-');
    writeCodebase(ws);
    const workflow = 'name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: pnpm lint-the-workflow\n';
    const taskfile = "version: '3'\ntasks:\n  check:\n    cmds:\n      - pnpm check-the-taskfile\n";
    const sheet = ':root { --brand-of-the-sheet: #c0ffee; }\n';
    putFile(ws, '.github/workflows/ci.yml', workflow);
    putFile(ws, 'Taskfile.yml', taskfile);
    putFile(ws, 'index.html', '<!doctype html><html><head><title>Acme shop</title></head><body></body></html>\n');
    putFile(ws, 'src/index.css', sheet);
    const yaml: string[] = [];
    const sheets: string[] = [];
    const facts = await recordingCalls(frontmatter, 'parseYaml', yaml, () => recordingCalls(tokens, 'scanSheet', sheets, () => readWorkspaceFacts(ws, undefined, undefined, factSets())));
    // rendered many times (all the parts, each set of parts, at the roomier scales), each showing what was parsed
    assert.ok(facts && Object.keys(facts.some).length >= 5, 'the facts are rendered for several sets of parts');
    for (const shown of ['pnpm lint-the-workflow', 'pnpm check-the-taskfile', '--brand-of-the-sheet']) assert.ok(facts.text.includes(shown), `${shown} in:\n${facts.text}`);
    assert.strictEqual(yaml.filter((t) => t === workflow).length, 1, 'the workflow is parsed once');
    assert.strictEqual(yaml.filter((t) => t === taskfile).length, 1, 'the Taskfile is parsed once');
    assert.strictEqual(sheets.filter((t) => t === sheet).length, 1, 'the style sheet is scanned once');
  });

  it('two walks do not share what they parsed, though their path lists are one and the same', () => {
    const kept = ['.github/workflows/ci.yml', 'src/index.css'];
    const rootFiles = ['Makefile'];
    for (const tool of ['alpha', 'beta']) {
      const ws = tempDir(`cape-facts-walk-${tool}-`);
      putFile(ws, '.github/workflows/ci.yml', `name: CI\non: push\njobs:\n  a:\n    steps:\n      - run: ${tool} lint\n`);
      putFile(ws, 'Makefile', `test:\n\t${tool} test\n`);
      putFile(ws, 'src/index.css', `:root { --${tool}-brand: red; }\n`);
      const walk = walkFiles(recordingPolicy(ws).policy, { kept, rootFiles });
      assert.match(ciPart(walk, noSources(), 2000, { scale: 1 })!, new RegExp(`^- \\.github/workflows/ci\\.yml \\(GitHub Actions; "CI", on push\\): ${tool} lint$`, 'm'));
      assert.match(tasksPart(walk, noSources(), 2000, { scale: 1 })!, new RegExp(`^- \`make test\`: ${tool} test$`, 'm'));
      assert.match(stylePart(walk, noSources(), 2000, { scale: 1 })!, new RegExp(`^- src/index\\.css: tokens \\(:root 1\\): --${tool}-brand: red$`, 'm'));
    }
  });
});
