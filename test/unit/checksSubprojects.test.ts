// src/core/checks/detectSubprojects.ts: the checks of a workspace whose projects live in sub-folders (`backend/`,
// `frontend/`, the members its root declares), for each language its root has no check of, run in their folder.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { PassThrough } from 'stream';
import { createScratch, detectedChecks, inFolder, isStaticCheck, leftOutSubprojectsSaying, MAX_SUBPROJECTS, pickSubprojects, resolveChecks, runCheckLoop, subprojectChecks, type DetectFamily } from '../../src/core';
import { checksFrom } from '../../src/cli/settings';

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'cape-unit-subprojects-'));
}

function write(root: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

/** A program that does nothing (detection only asks whether it is there). */
function program(root: string, rel: string): void {
  write(root, rel, '#!/bin/sh\nexit 0\n');
  fs.chmodSync(path.join(root, rel), 0o755);
}

const found = async (ws: string, capeFolder?: string) => (await detectedChecks(ws, capeFolder)).commands.map((c) => [c.command, c.reason]);

/** fastapi/full-stack-fastapi-template's shape: a uv workspace whose member `backend/` is the Python project, the environment at the root. */
function fullStack(): string {
  const ws = tmp();
  write(ws, 'pyproject.toml', '[dependency-groups]\ndev = ["prek"]\n\n[tool.uv.workspace]\nmembers = ["backend"]\n');
  write(ws, 'backend/pyproject.toml', '[project]\nname = "app"\n\n[dependency-groups]\ndev = [\n    "pytest<10.0.0,>=7.4.3",\n    "mypy",\n]\n\n[tool.mypy]\nstrict = true\n\n[tool.ruff]\ntarget-version = "py314"\n');
  write(ws, 'backend/tests/conftest.py', 'import pytest\n');
  for (const p of ['python', 'ruff', 'mypy']) program(ws, `.venv/bin/${p}`);
  write(ws, 'frontend/package.json', JSON.stringify({ scripts: { lint: 'biome check ./', test: 'vitest run' } }));
  return ws;
}

describe('checks: the checks of sub-projects (detectSubprojects.ts)', function () {
  let savedPath: string | undefined;
  before(function () {
    if (process.platform === 'win32') this.skip(); // the fake programs are shell scripts, the paths `/`-separated
  });
  beforeEach(() => {
    savedPath = process.env.PATH;
    process.env.PATH = tmp(); // nothing on PATH: what is found is the projects' own
  });
  afterEach(() => {
    process.env.PATH = savedPath;
  });

  it('backend/ and frontend/: each one\'s checks run in its folder, the uv workspace\'s environment at the root by a path from there', async () => {
    const ws = fullStack();
    assert.deepStrictEqual(await found(ws), [
      ['cd backend && ../.venv/bin/ruff check .', 'backend/pyproject.toml [tool.ruff]'],
      ['cd backend && ../.venv/bin/mypy .', 'backend/pyproject.toml [tool.mypy]'],
      ['cd frontend && npm run lint', 'frontend/package.json script "lint"'],
      ['cd backend && ../.venv/bin/python -m pytest', 'backend/tests/conftest.py'],
      ['cd frontend && npm test', 'frontend/package.json script "test"'],
    ]);
    // the sub-project's own environment first
    program(ws, 'backend/.venv/bin/python');
    assert.ok((await found(ws)).some(([c]) => c === 'cd backend && .venv/bin/python -m pytest'));
  });

  it("a language the root has a check of is not looked for below it: the root's scripts run its JavaScript workspace's members", async () => {
    const ws = fullStack();
    write(ws, 'package.json', JSON.stringify({ workspaces: ['frontend', 'packages/*'], scripts: { lint: 'bun run --filter frontend lint', test: 'bun run --filter frontend test' } }));
    write(ws, 'packages/emails/package.json', JSON.stringify({ scripts: { test: 'jest' } }));
    assert.deepStrictEqual(
      (await found(ws)).map(([c]) => c),
      ['npm run lint', 'cd backend && ../.venv/bin/ruff check .', 'cd backend && ../.venv/bin/mypy .', 'npm test', 'cd backend && ../.venv/bin/python -m pytest'],
    );
    // a root that checks Python too: no sub-folder is looked in at all
    write(ws, 'pytest.ini', '[pytest]\n');
    assert.deepStrictEqual((await found(ws)).map(([c]) => c), ['npm run lint', 'npm test', '.venv/bin/python -m pytest']);
  });

  it('ignored, dependency, hidden and cape folders are no sub-projects; the members a root declares two levels down are', async () => {
    const ws = tmp();
    const pkg = JSON.stringify({ scripts: { test: 'node --test' } });
    write(ws, '.gitignore', 'generated/\n');
    for (const folder of ['generated', 'node_modules', 'vendor', 'venv', '.hidden', 'cape', 'team']) write(ws, `${folder}/package.json`, pkg);
    assert.deepStrictEqual(await found(ws, 'team'), [['cd cape && npm test', 'cape/package.json script "test"']], 'the cape folder is the one given');
    fs.rmSync(path.join(ws, 'cape'), { recursive: true });
    assert.deepStrictEqual(await found(ws, 'team'), []);
    // members: uv's, as a folder's folders, and go.work's, each two levels down
    write(ws, 'pyproject.toml', '[tool.uv.workspace]\nmembers = [\n  "services/*",\n]\n');
    write(ws, 'services/api/pytest.ini', '[pytest]\n');
    write(ws, 'services/deep/inner/pytest.ini', '[pytest]\n');
    program(ws, '.venv/bin/python');
    write(ws, 'go.work', 'go 1.22\n\nuse (\n\t./cmd/tool // the CLI\n)\n');
    write(ws, 'cmd/tool/go.mod', 'module example.com/tool\n');
    program(process.env.PATH!, 'go');
    assert.deepStrictEqual(await found(ws, 'team'), [
      ['cd cmd/tool && go vet ./...', 'cmd/tool/go.mod'],
      ['cd cmd/tool && go test ./...', 'cmd/tool/go.mod'],
      ['cd services/api && ../../.venv/bin/python -m pytest', 'services/api/pytest.ini'],
    ]);
  });

  it("the members of pnpm-workspace.yaml and of a TOML list written over lines with comments; a folder `!` or `exclude` leaves out is none", async () => {
    const ws = tmp();
    program(ws, '.venv/bin/python');
    write(ws, 'pnpm-workspace.yaml', "packages:\n  - 'apps/*'  # every app\n  - '!apps/legacy'\n");
    write(ws, 'pyproject.toml', '[tool.uv.workspace]\nmembers = [\n  "libs/core",  # the core [shared]\n  "services/*",\n]\nexclude = ["services/old"]\n');
    for (const dir of ['apps/web', 'apps/legacy', 'libs/core', 'services/api', 'services/old']) write(ws, `${dir}/pytest.ini`, '[pytest]\n');
    assert.deepStrictEqual(
      (await found(ws)).map(([c]) => c),
      ['apps/web', 'libs/core', 'services/api'].map((f) => `cd ${f} && ../../.venv/bin/python -m pytest`),
    );
  });

  it(`at most ${MAX_SUBPROJECTS} sub-projects, the folders one level down in name order; those left out are said, with how to run theirs`, async () => {
    const ws = tmp();
    program(ws, '.venv/bin/python');
    for (const name of ['f', 'e', 'd', 'c', 'b', 'a']) write(ws, `${name}/pytest.ini`, '[pytest]\n');
    assert.deepStrictEqual(
      (await found(ws)).map(([c]) => c),
      ['a', 'b', 'c', 'd'].map((f) => `cd ${f} && ../.venv/bin/python -m pytest`),
    );
    assert.deepStrictEqual((await detectedChecks(ws, 'cape')).leftOut, ['e', 'f']);
    const said = async (flags: Record<string, string[] | boolean>) => {
      const out = new PassThrough();
      let text = '';
      out.on('data', (d) => (text += String(d)));
      await checksFrom(flags, ws, out);
      return text;
    };
    const left = '2 more sub-projects with checks are left out (at most 4 are detected): e/, f/; name theirs with --check "cd e && …"\n';
    assert.ok((await said({})).endsWith(left), 'named, not run');
    assert.ok((await said({ check: ['auto'], 'no-format': true })).endsWith(left), '--check auto');
    assert.deepStrictEqual((await resolveChecks(ws, ['auto'], 'flag')).leftOut, ['e', 'f']);
    // up to three by name; a folder a shell reads is quoted as the command would be
    const many = leftOutSubprojectsSaying(['my app', 'b', 'c', 'd', 'e'], (ex) => `add theirs to cape.checks ("${ex}")`);
    assert.strictEqual(many, "5 more sub-projects with checks are left out (at most 4 are detected): my app/, b/, c/ and 2 more; add theirs to cape.checks (\"cd 'my app' && …\")");
    assert.strictEqual(leftOutSubprojectsSaying(['x'], (ex) => ex), '1 more sub-project with checks is left out (at most 4 are detected): x/; cd x && …');
    assert.strictEqual(leftOutSubprojectsSaying([], (ex) => ex), '');
  });

  it("the checks' sub-projects left out are always looked for; pickSubprojects not asked to count them runs no detector on a folder past the limit", async () => {
    const ws = tmp();
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f']) fs.mkdirSync(path.join(ws, name));
    const read: string[] = [];
    const family: DetectFamily = async (dir) => {
      read.push(path.basename(dir));
      return [[], [{ command: 'make test', source: 'detected', reason: 'Makefile' }]];
    };
    const counted = await subprojectChecks(ws, [family], 'cape');
    assert.deepStrictEqual([read.splice(0), counted.left], [['a', 'b', 'c', 'd', 'e', 'f'], ['e', 'f']]);
    const notCounted = await pickSubprojects(ws, 'cape', [family], ([s, t]) => s.length > 0 || t.length > 0);
    assert.deepStrictEqual([read.splice(0), notCounted.left], [['a', 'b', 'c', 'd'], []]);
  });

  it("a member declared inside a top folder that holds a project is taken once: the top folder's suite runs it already", async () => {
    const ws = tmp();
    program(ws, '.venv/bin/python');
    write(ws, 'pyproject.toml', '[tool.uv.workspace]\nmembers = ["services/api"]\n');
    for (const dir of ['services', 'services/api']) write(ws, `${dir}/pytest.ini`, '[pytest]\n');
    assert.deepStrictEqual((await found(ws)).map(([c]) => c), ['cd services && ../.venv/bin/python -m pytest']);
  });

  it('pickSubprojects: the one rule of the checks and the formatters — in order, none inside or around one taken, one where nothing is found skipped, at most MAX_SUBPROJECTS', async () => {
    const ws = tmp();
    for (const dir of ['a', 'b', 'b/x', 'c', 'd', 'e', 'f', 'g']) fs.mkdirSync(path.join(ws, dir), { recursive: true });
    write(ws, 'package.json', JSON.stringify({ workspaces: ['b/*'] }));
    // a detector that finds the folder's name, except in `c`
    const named = async (dir: string) => (path.basename(dir) === 'c' ? null : path.basename(dir));
    const picked = await pickSubprojects(ws, 'cape', [named], (n) => n !== null, true);
    assert.deepStrictEqual((await pickSubprojects(ws, 'cape', [named], (n) => n !== null)).left, [], 'not asked for: none read past the limit');
    assert.deepStrictEqual(picked.taken, ['a', 'b', 'd', 'e'].map((folder) => ({ folder, found: [folder] })));
    assert.deepStrictEqual(picked.left, ['f', 'g'], 'b/x is inside b: neither taken nor left out');
  });

  it('a command run in its folder is a static check or a test run as it is at the root, whatever the folder is called', () => {
    for (const c of ['cd backend && ../.venv/bin/ruff check .', 'cd tests && .venv/bin/mypy .', 'cd frontend && npm run lint']) assert.ok(isStaticCheck(c), c);
    for (const c of ['cd backend && ../.venv/bin/python -m pytest', 'cd lint && npm test', "cd 'my app' && go test ./..."]) assert.ok(!isStaticCheck(c), c);
  });

  it("the copy the checks run in imports the editable install of a folder a check runs in from the copy, and builds its crate in cargo's folder of ours", async () => {
    const ws = fs.realpathSync(tmp());
    write(ws, 'backend/pyproject.toml', '[project]\nname = "app"\n');
    write(ws, 'backend/src/app/__init__.py', "VALUE = 'old'\n");
    // `pip install -e .` in backend/'s own environment: a .pth naming its source folder, in the user's tree
    write(ws, 'backend/.venv/lib/python3.12/site-packages/__editable__.app-0.1.pth', `${path.join(ws, 'backend', 'src')}\n`);
    write(ws, 'engine/Cargo.toml', '[package]\nname = "engine"\n');
    const savedTarget = process.env.CARGO_TARGET_DIR;
    delete process.env.CARGO_TARGET_DIR;
    const s = await createScratch(ws, { capeFolder: 'cape', folders: ['backend', 'engine'] });
    // no check runs in them: the copy meets the workspace's own needs only (its sub-projects are not scanned per copy)
    const bare = await createScratch(ws, { capeFolder: 'cape' });
    try {
      assert.strictEqual(s.env.PYTHONPATH?.split(path.delimiter)[0], path.join(s.dir, 'backend', 'src'), "the copy's source folder comes first");
      assert.ok(s.env.CARGO_TARGET_DIR, 'the sub-project\'s crate builds outside the copy, its dependencies kept between runs');
      assert.deepStrictEqual(bare.env, {});
    } finally {
      await s.dispose();
      await bare.dispose();
      if (savedTarget !== undefined) process.env.CARGO_TARGET_DIR = savedTarget;
    }
  });

  it('the check loop gives the copy the folders its commands run in, one no sub-project scan takes too (apps/web, not declared)', async () => {
    process.env.PATH = savedPath; // the check runs node
    const ws = fs.realpathSync(tmp());
    write(ws, 'apps/web/src/app/__init__.py', "VALUE = 'old'\n");
    write(ws, 'apps/web/.venv/lib/python3.12/site-packages/app.pth', `${path.join(ws, 'apps', 'web', 'src')}\n`);
    const first = "const p = (process.env.PYTHONPATH || '').split(require('path').delimiter)[0]";
    const check = inFolder('apps/web', `node -e "${first}; process.exit(p && require('path').relative(process.cwd(), p) === 'src' ? 0 : 1)"`);
    const { outcome } = await runCheckLoop({ commands: [check], workspace: ws, capeFolder: 'cape', files: [], askFix: async () => '' });
    assert.deepStrictEqual(outcome.runs.map((r) => [r.command, r.passed]), [[check, true]], outcome.runs[0]?.output);
  });

  it("a folder's name that a shell reads is quoted", async () => {
    const ws = tmp();
    write(ws, 'my app/package.json', JSON.stringify({ scripts: { test: 'node --test' } }));
    assert.deepStrictEqual(await found(ws), [["cd 'my app' && npm test", 'my app/package.json script "test"']]);
  });
});
