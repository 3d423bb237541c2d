// Init's workspace facts, the sub-projects' manifests (src/core/cape/initFactsManifests.ts, initSubprojects.ts): after
// the root's, the manifests of the folders one and two levels down (workspace/layout.ts's walk), the workspace members
// the root names first (package.json `workspaces`, uv's members, Cargo's, go.work, pnpm-workspace.yaml; a folder a
// `!` glob leaves out is not one), then the others by their source files; at most MAX_SUBPROJECTS, the rest counted;
// a manifest in an ignored, dependency or secret folder never read nor named.
import * as assert from 'assert';
import { readWorkspaceFacts, WORKSPACE_FACTS_MAX_CHARS } from '../../src/core/cape/initFacts';
import { tempDir, writeFiles } from '../helpers/cli';

const put = (ws: string, rel: string, text: string) => writeFiles(ws, { [rel]: text });

/** `n` source files in a folder. */
const sources = (ws: string, dir: string, n: number) => {
  for (let i = 0; i < n; i++) put(ws, `${dir}/module${i}.py`, 'x = 1\n');
};

/** The headings of the facts' manifest blocks, in their order. */
const manifestHeadings = (text: string) => [...text.matchAll(/^## (\S+\/\S+)$/gm)].map((m) => m[1]);

describe("init's facts: the sub-projects' manifests", function () {
  this.timeout(20000);

  it('a polyglot repository: the members its package.json and pyproject.toml name first, as fact lines, then the other folders by their source files', async () => {
    const ws = tempDir('cape-facts-subprojects-');
    put(ws, 'package.json', JSON.stringify({ name: 'stack', private: true, workspaces: ['frontend', 'packages/*'] }));
    put(ws, 'pyproject.toml', '[tool.uv.workspace]\nmembers = ["backend"]\n\n[tool.typos.files]\nextend-exclude = ["img/"]\n');
    put(ws, 'backend/pyproject.toml', '[project]\nname = "app"\ndependencies = [\n  "fastapi>=0.114",\n  "sqlmodel",\n]\n\n[dependency-groups]\ndev = ["pytest", "mypy"]\n\n[tool.mypy]\nstrict = true\n');
    sources(ws, 'backend/app', 5);
    put(ws, 'frontend/package.json', JSON.stringify({ name: 'frontend', scripts: { test: 'playwright test' }, dependencies: { react: '^19.0.0' }, devDependencies: { vite: '^6.0.0' } }));
    sources(ws, 'frontend/src', 8);
    put(ws, 'packages/emails/package.json', JSON.stringify({ name: 'emails' }));
    sources(ws, 'packages/emails', 1);
    // not a member, with the most source files: after the members
    put(ws, 'tools/gen/go.mod', 'module example.com/gen\n\ngo 1.22\n');
    sources(ws, 'tools/gen', 20);
    const facts = (await readWorkspaceFacts(ws))!;
    const t = facts.text;
    assert.deepStrictEqual(manifestHeadings(t), ['frontend/package.json', 'backend/pyproject.toml', 'packages/emails/package.json', 'tools/gen/go.mod']);
    assert.ok(t.includes('## backend/pyproject.toml\n- name: app\n- dependencies (2): fastapi >=0.114, sqlmodel\n- dependency-groups: dev: pytest mypy\n- tool settings: mypy\n\n'), t);
    assert.ok(t.includes('## frontend/package.json\n- name: frontend\n- scripts: test: playwright test\n- dependencies (1): react ^19.0.0\n- devDependencies (1): vite ^6.0.0\n\n'), t);
    assert.ok(t.includes('## tools/gen/go.mod\n- module: example.com/gen\n- go: 1.22\n- require: none (it imports only the standard library and its own packages)\n\n## Check commands'), t);
    assert.deepStrictEqual(facts.files.slice(0, 6), ['package.json', 'pyproject.toml', 'frontend/package.json', 'backend/pyproject.toml', 'packages/emails/package.json', 'tools/gen/go.mod']);
  });

  it('the members of pnpm-workspace.yaml, go.work and a Cargo workspace come first; a folder a `!` glob leaves out does not', async () => {
    const ws = tempDir('cape-facts-members-');
    put(ws, 'pnpm-workspace.yaml', "# the apps\npackages:\n  - 'apps/*'   # every app\n  - \"!apps/legacy\"\ncatalog:\n  react: ^19\n");
    put(ws, 'go.work', 'go 1.22\n\nuse (\n\t./svc\n)\n');
    put(ws, 'Cargo.toml', '[workspace]\nmembers = ["crates/*"]\n');
    put(ws, 'apps/web/package.json', '{"name":"web"}');
    sources(ws, 'apps/web', 1);
    put(ws, 'apps/legacy/package.json', '{"name":"legacy"}');
    sources(ws, 'apps/legacy', 9);
    put(ws, 'svc/go.mod', 'module example.com/svc\n');
    sources(ws, 'svc', 2);
    put(ws, 'crates/core/Cargo.toml', '[package]\nname = "core"\n');
    sources(ws, 'crates/core', 3);
    const t = (await readWorkspaceFacts(ws))!.text;
    assert.deepStrictEqual(manifestHeadings(t), ['crates/core/Cargo.toml', 'svc/go.mod', 'apps/web/package.json', 'apps/legacy/package.json']);
  });

  it('a monorepo of 40 packages: four of them, the rest counted and named within a bound; the facts stay within the max', async () => {
    const ws = tempDir('cape-facts-many-');
    put(ws, 'package.json', JSON.stringify({ name: 'mono', workspaces: ['packages/*'] }));
    for (let i = 0; i < 40; i++) {
      const deps = Object.fromEntries(Array.from({ length: 50 }, (_, j) => [`dependency-${j}`, `^${j}.0.0`]));
      put(ws, `packages/pkg-${String(i).padStart(2, '0')}/package.json`, JSON.stringify({ name: `pkg-${i}`, dependencies: deps }));
      sources(ws, `packages/pkg-${String(i).padStart(2, '0')}`, i < 2 ? 5 : 1);
    }
    const facts = (await readWorkspaceFacts(ws))!;
    assert.ok(facts.text.length <= WORKSPACE_FACTS_MAX_CHARS, `${facts.text.length}`);
    const shown = manifestHeadings(facts.text);
    assert.deepStrictEqual(shown.slice(0, 2), ['packages/pkg-00/package.json', 'packages/pkg-01/package.json'], 'the biggest first');
    assert.strictEqual(shown.length, 4, shown.join(', '));
    const left = /^\[36 more sub-projects with a manifest, not shown: packages\/pkg-\d\d\/, .*, … (\d+) more\]$/m.exec(facts.text);
    assert.ok(left && left[0].length <= 160, facts.text);
    // each sub-project's dependencies are cut to their own, smaller bound
    assert.match(facts.text, /^- dependencies \(50\): dependency-0 \^0\.0\.0, .*, … \d+ more$/m);
    assert.strictEqual(facts.files.filter((f) => f.startsWith('packages/')).length, 4);
  });

  it("an ignored, a dependency or a secret folder's manifest is never read nor named", async () => {
    const ws = tempDir('cape-facts-hidden-');
    put(ws, 'package.json', JSON.stringify({ name: 'app', workspaces: ['*', '*/*'] }));
    sources(ws, 'src', 1);
    put(ws, '.gitignore', 'generated/\n');
    put(ws, 'generated/package.json', '{"name":"IGNORED-MARK"}');
    put(ws, 'node_modules/left-pad/package.json', '{"name":"DEPENDENCY-MARK"}');
    put(ws, '.docker/package.json', '{"name":"SECRET-FOLDER-MARK"}');
    put(ws, '.aws/cli/pyproject.toml', '[project]\nname = "SECRET-MARK"\n');
    put(ws, 'web/package.json', '{"name":"web"}');
    const facts = (await readWorkspaceFacts(ws))!;
    assert.deepStrictEqual(manifestHeadings(facts.text), ['web/package.json']);
    for (const hidden of ['IGNORED-MARK', 'DEPENDENCY-MARK', 'SECRET-FOLDER-MARK', 'SECRET-MARK', 'generated/', 'node_modules', '.docker', '.aws']) {
      assert.ok(!facts.text.includes(hidden), `the facts do not show ${hidden}:\n${facts.text}`);
    }
    assert.deepStrictEqual(facts.files, ['package.json', 'web/package.json']);
  });

  it('the check commands name the sub-projects with checks past the four detected: the facts do not claim the checks cover them', async () => {
    const ws = tempDir('cape-facts-checks-left-');
    for (const name of ['a', 'b', 'c', 'd', 'e', `f${'x'.repeat(150)}`, 'g']) {
      put(ws, `${name}/package.json`, JSON.stringify({ name, scripts: { test: 'vitest run' } }));
      sources(ws, name, 1);
    }
    const text = (await readWorkspaceFacts(ws))!.text;
    const part = /^## Check commands CAPE detects[^\n]*\n((?:- [^\n]*\n?)*)/m.exec(text)?.[1].trimEnd().split('\n');
    assert.deepStrictEqual(part?.slice(0, 4), ['a', 'b', 'c', 'd'].map((f) => `- \`cd ${f} && npm test\` (${f}/package.json script "test")`), text);
    // the one saying of the checks' announcements, each folder on one line and shortened
    assert.strictEqual(part?.[4], `- 3 more sub-projects with checks are left out (at most 4 are detected): e/, f${'x'.repeat(39)}…/, g/; the commands above do not run theirs`);
    assert.strictEqual(part?.length, 5);
  });
});
