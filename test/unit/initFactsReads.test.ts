// Init's workspace facts (src/core/cape/initFacts.ts) read each workspace file once per init: the facts are rendered
// for all the parts and for each set of parts prompts/inputs.json names, each up to three times (the roomier scales),
// from what one walk found and read — the manifests and settings files, the README, the guidance, the CI, task and
// style files alike.
import * as assert from 'assert';
import { readWorkspaceFacts } from '../../src/core/cape/initFacts';
import { defaultPromptsDir, loadPromptAssets } from '../../src/core/cape/prompts';
import { tempDir } from '../helpers/cli';
import { putFile, recordingAllReads, writeCodebase } from '../helpers/codebase';

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
    const sets = loadPromptAssets(defaultPromptsDir()).inputs.flatMap((s) => (Array.isArray(s.facts) ? [s.facts] : []));
    const { result: facts, read } = await recordingAllReads(() => readWorkspaceFacts(ws, undefined, undefined, sets));
    assert.ok(facts && Object.keys(facts.some).length >= 5, 'the facts are rendered for several sets of parts');
    for (const file of ['package.json', 'pnpm-workspace.yaml', 'tsconfig.json', 'packages/api/package.json', 'README.md', 'CLAUDE.md', 'AGENTS.md', '.github/workflows/ci.yml', 'Makefile', 'index.html', 'components.json', 'tailwind.config.js', 'src/index.css']) {
      assert.ok(read.includes(file), `${file} is read: ${read.join(', ')}`);
    }
    assert.deepStrictEqual(read.filter((f, i) => read.indexOf(f) !== i), [], `each file read once: ${read.join(', ')}`);
  });
});
