// src/core/checks/scratch.ts: what the scratch copy keeps of the workspace so the checks run there as they would on
// the user's tree once the proposal is applied.
import * as assert from 'assert';
import * as fs from 'fs';
import nodeFs from 'fs'; // the module itself, whose functions a test may wrap (`fs` is its read-only namespace)
import * as os from 'os';
import * as path from 'path';
import { spawnSync } from 'child_process';
import { createScratch, detectedChecks, finderRoots, runCheck, runCheckLoop, type ProposedFile } from '../../src/core';

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'cape-unit-scratch-'));
}

function write(root: string, rel: string, text: string, mode?: number): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
  if (mode !== undefined) fs.chmodSync(path.join(root, rel), mode);
}

const proposed = (relPath: string, content: string, action: ProposedFile['action'] = 'modify'): ProposedFile => ({ path: relPath, relPath, action, status: 'proposed', content });

/**
 * A virtual environment at `root/.venv`: a real one when Python is here, else its folders and a stand-in program;
 * `real` says which, `site` is its site-packages folder.
 */
function virtualEnv(root: string): { real: boolean; site: string } {
  const real = spawnSync('python3', ['-m', 'venv', '--without-pip', path.join(root, '.venv')]).status === 0;
  const lib = path.join(root, '.venv', 'lib');
  if (!real) write(root, '.venv/bin/python', '#!/bin/sh\n', 0o755);
  return { real, site: path.join(lib, real ? fs.readdirSync(lib).find((d) => d.startsWith('python'))! : 'python3.12', 'site-packages') };
}

const simulated = (code: string) => Object.assign(new Error(`${code}: simulated`), { code });

/**
 * Makes the folder whose path ends with `suffix` unreadable to fs.promises.readdir (EACCES), as a folder of another
 * user is (a container's data volume); returns what puts readdir back.
 */
function unreadable(suffix: string): () => void {
  const { readdir } = fs.promises;
  fs.promises.readdir = (async (p: fs.PathLike, o?: unknown) => {
    if (String(p).endsWith(suffix)) throw simulated('EACCES');
    return (readdir as (p: fs.PathLike, o?: unknown) => Promise<unknown>)(p, o);
  }) as typeof fs.promises.readdir;
  return () => {
    fs.promises.readdir = readdir;
  };
}

/** A Python package `calc` in a src layout (`src/calc/__init__.py`, VALUE 'old') with its own virtual environment. */
function calcPackage(): { ws: string; real: boolean; site: string } {
  const ws = tmp();
  write(ws, 'pyproject.toml', '[project]\nname = "calc"\n');
  write(ws, 'src/calc/__init__.py', "VALUE = 'old'\n");
  return { ws, ...virtualEnv(ws) };
}

/**
 * The scratch copy of a package whose `src/calc` an environment installed editable: its copy of `src/` first on
 * PYTHONPATH, and `python` (the environment's, when real) importing the proposed version from it.
 */
async function assertImportsCopy(ws: string, python: string, real: boolean): Promise<void> {
  const s = await createScratch(ws, { capeFolder: 'cape' });
  try {
    const own = (process.env.PYTHONPATH ?? '').split(path.delimiter).filter(Boolean);
    assert.deepStrictEqual(s.env.PYTHONPATH?.split(path.delimiter), [path.join(s.dir, 'src'), ...own], "the copy's source folder comes first");
    assert.deepStrictEqual(await s.overlay([proposed('src/calc/__init__.py', "VALUE = 'new'\n")]), []);
    if (!real) return;
    const run = await runCheck({ command: `${python} -c "import calc; print(calc.VALUE)"`, cwd: s.dir, round: 0, env: { ...process.env, ...s.env } });
    assert.strictEqual(run.output, 'new');
  } finally {
    await s.dispose();
  }
}

describe('checks: scratch copy keeps what the checks need', () => {
  it('a proposed change to an executable script keeps it executable (applying it keeps the mode too)', async function () {
    if (process.platform === 'win32') this.skip();
    const ws = tmp();
    write(ws, 'scripts/test.sh', '#!/bin/sh\necho old\n', 0o755);
    const s = await createScratch(ws, { capeFolder: 'cape' });
    try {
      assert.strictEqual(fs.statSync(path.join(s.dir, 'scripts', 'test.sh')).mode & 0o777, 0o755, 'the copy keeps the mode');
      assert.deepStrictEqual(await s.overlay([proposed('scripts/test.sh', '#!/bin/sh\necho new\n')]), []);
      assert.strictEqual(fs.readFileSync(path.join(s.dir, 'scripts', 'test.sh'), 'utf8'), '#!/bin/sh\necho new\n');
      assert.strictEqual(fs.statSync(path.join(s.dir, 'scripts', 'test.sh')).mode & 0o777, 0o755, 'the proposed version keeps it too');
    } finally {
      await s.dispose();
    }
  });

  it('a workspace package linked into node_modules (npm, yarn and pnpm workspaces) resolves to its copy, where the proposal is', async function () {
    if (process.platform === 'win32') this.skip();
    const ws = tmp();
    write(ws, 'package.json', '{"workspaces": ["packages/*"]}');
    write(ws, 'packages/bar/package.json', '{"name": "@acme/bar", "main": "index.js", "bin": {"bar": "cli.js"}}');
    write(ws, 'packages/bar/index.js', "module.exports = 'old';\n");
    write(ws, 'packages/bar/cli.js', "#!/usr/bin/env node\nconsole.log('cli ' + require('./index.js'));\n", 0o755);
    write(ws, 'packages/app/test.js', "console.log(require('@acme/bar'), require('dep'), require('baz'));\n");
    write(ws, 'node_modules/dep/index.js', "module.exports = 'dep';\n");
    fs.mkdirSync(path.join(ws, 'node_modules', '@acme'));
    fs.symlinkSync('../../packages/bar', path.join(ws, 'node_modules', '@acme', 'bar')); // npm and yarn workspaces
    fs.mkdirSync(path.join(ws, 'node_modules', '.bin'));
    fs.symlinkSync('../@acme/bar/cli.js', path.join(ws, 'node_modules', '.bin', 'bar'));
    write(ws, 'packages/baz/index.js', "module.exports = 'baz';\n");
    fs.mkdirSync(path.join(ws, 'packages', 'app', 'node_modules'));
    fs.symlinkSync('../../baz', path.join(ws, 'packages', 'app', 'node_modules', 'baz')); // pnpm links them per package
    const s = await createScratch(ws, { capeFolder: 'cape' });
    try {
      assert.deepStrictEqual(await s.overlay([proposed('packages/bar/index.js', "module.exports = 'new';\n"), proposed('packages/baz/index.js', "module.exports = 'BAZ';\n")]), []);
      const run = await runCheck({ command: 'node packages/app/test.js && node_modules/.bin/bar', cwd: s.dir, round: 0 });
      assert.strictEqual(run.output, 'new dep BAZ\ncli new');
      // a package patched: the linked package copied (its siblings stay linked), the user's untouched
      assert.deepStrictEqual(await s.overlay([proposed('node_modules/dep/index.js', "module.exports = 'PATCHED';\n")]), []);
      assert.strictEqual((await runCheck({ command: 'node packages/app/test.js', cwd: s.dir, round: 0 })).output, 'new PATCHED BAZ');
      assert.ok(fs.lstatSync(path.join(s.dir, 'node_modules', '@acme', 'bar')).isSymbolicLink());
    } finally {
      await s.dispose();
    }
    assert.strictEqual(fs.readFileSync(path.join(ws, 'node_modules', 'dep', 'index.js'), 'utf8'), "module.exports = 'dep';\n", 'the user\'s dependencies are untouched');
    assert.strictEqual(fs.readFileSync(path.join(ws, 'packages', 'bar', 'index.js'), 'utf8'), "module.exports = 'old';\n");
  });

  it('a package of a monorepo opened on its own finds the hoisted node_modules, its tools and the shared config; the rest stays the user\'s', async function () {
    if (process.platform === 'win32') this.skip();
    const repo = tmp();
    fs.mkdirSync(path.join(repo, '.git'));
    write(repo, 'package.json', '{"private": true, "workspaces": ["packages/*"]}');
    write(repo, 'tsconfig.base.json', '{"compilerOptions": {"strict": true}}\n');
    write(repo, '.env', 'TOKEN=secret\n');
    write(repo, 'packages/web/package.json', '{"name": "@acme/web", "main": "index.js"}');
    write(repo, 'packages/web/index.js', "module.exports = 'web ' + require('@acme/util');\n");
    write(repo, 'packages/web/test.js', "console.log(require('@acme/web'), require('dep'), require('../../tsconfig.base.json').compilerOptions.strict);\n");
    write(repo, 'packages/util/package.json', '{"name": "@acme/util", "main": "index.js"}');
    write(repo, 'packages/util/index.js', "module.exports = 'util';\n");
    write(repo, 'node_modules/dep/index.js', "module.exports = 'dep';\n");
    write(repo, 'node_modules/dep/cli.js', "#!/usr/bin/env node\nconsole.log('tool ran');\n", 0o755);
    fs.mkdirSync(path.join(repo, 'node_modules', '@acme'));
    fs.symlinkSync('../../packages/web', path.join(repo, 'node_modules', '@acme', 'web'));
    fs.symlinkSync('../../packages/util', path.join(repo, 'node_modules', '@acme', 'util'));
    fs.mkdirSync(path.join(repo, 'node_modules', '.bin'));
    fs.symlinkSync('../dep/cli.js', path.join(repo, 'node_modules', '.bin', 'deptool'));
    write(repo, 'node_modules/typescript/bin/tsc', '#!/usr/bin/env node\n');
    write(repo, 'packages/web/tsconfig.json', '{"extends": "../../tsconfig.base.json"}\n');
    const ws = path.join(repo, 'packages', 'web');
    const s = await createScratch(ws, { capeFolder: 'cape' });
    try {
      assert.deepStrictEqual(await s.overlay([proposed('index.js', "module.exports = 'WEB ' + require('@acme/util');\n")]), []);
      // the package's own name and its sibling resolve to their copies (the proposal is in one), a dependency to the user's
      const run = await runCheck({ command: 'node test.js && ../../node_modules/.bin/deptool', cwd: s.dir, round: 0 });
      assert.strictEqual(run.output, 'WEB util dep true\ntool ran');
      const where = await runCheck({ command: `node -p "require.resolve('@acme/util')"`, cwd: s.dir, round: 0 });
      assert.strictEqual(where.output, path.join(path.dirname(s.dir), 'util', 'index.js'));
      // a check that writes beside the package (`tsc -b` building a referenced project) writes the copy, not the user's
      const build = await runCheck({ command: `node -e "require('fs').writeFileSync('../util/index.js', 'built')" && mkdir ../util/dist`, cwd: s.dir, round: 0 });
      assert.ok(build.passed, build.output);
      assert.strictEqual(path.basename(s.dir), 'web');
      assert.ok(fs.lstatSync(path.join(s.dir, '..', '..', '.env')).isSymbolicLink(), 'a secret is linked, not copied');
      assert.ok(!fs.lstatSync(path.join(s.dir, '..', '..', 'tsconfig.base.json')).isSymbolicLink(), 'a config file is copied');
      assert.ok(!fs.lstatSync(path.join(s.dir, '..', 'util')).isSymbolicLink(), 'a sibling package is copied');
      assert.ok(!fs.existsSync(path.join(s.dir, '..', '..', '.git')), 'version control is left out');
      // and the checks' detection finds the hoisted TypeScript, by a path that works in the copy
      const checks = (await detectedChecks(ws)).commands;
      assert.ok(checks.some((c) => c.command === 'node ../../node_modules/typescript/bin/tsc --noEmit'), JSON.stringify(checks));
    } finally {
      await s.dispose();
    }
    assert.strictEqual(fs.readFileSync(path.join(ws, 'index.js'), 'utf8'), "module.exports = 'web ' + require('@acme/util');\n");
    assert.ok(fs.existsSync(path.join(repo, 'node_modules', 'dep', 'index.js')));
    assert.strictEqual(fs.readFileSync(path.join(repo, 'packages', 'util', 'index.js'), 'utf8'), "module.exports = 'util';\n", 'the user\'s sibling is untouched');
    assert.ok(!fs.existsSync(path.join(repo, 'packages', 'util', 'dist')));
  });

  it('the folders beside a monorepo package are copied within a bound, in all; past it they are linked', async function () {
    if (process.platform === 'win32') this.skip();
    const repo = tmp();
    fs.mkdirSync(path.join(repo, '.git'));
    write(repo, 'node_modules/dep/index.js', '');
    write(repo, 'packages/web/index.js', 'x');
    write(repo, 'packages/a/index.js', 'a'.repeat(400));
    write(repo, 'packages/a/node_modules/big/index.js', 'z'.repeat(5000)); // a dependency is linked, so not counted
    write(repo, 'packages/b/index.js', 'b'.repeat(400));
    write(repo, 'packages/c/one.js', 'c');
    write(repo, 'packages/c/two.js', 'c');
    const s = await createScratch(path.join(repo, 'packages', 'web'), { capeFolder: 'cape', besideLimit: { files: 3, bytes: 1000 } });
    try {
      const kinds = ['a', 'b', 'c'].map((p) => fs.lstatSync(path.join(s.dir, '..', p)).isSymbolicLink());
      // a and b fit (2 files, 800 bytes), c's two files would pass 3 files: linked, its content the user's
      assert.deepStrictEqual(kinds, [false, false, true]);
      assert.ok(fs.lstatSync(path.join(s.dir, '..', 'a', 'node_modules')).isSymbolicLink());
      assert.strictEqual(fs.realpathSync(path.join(s.dir, '..', 'c')), fs.realpathSync(path.join(repo, 'packages', 'c')));
    } finally {
      await s.dispose();
    }
    assert.ok(fs.existsSync(path.join(repo, 'packages', 'c', 'one.js')), 'disposing removes the link, not what it leads to');
    // a folder beside it the user may not read (a container's data volume) is left out, not fatal
    write(repo, 'packages/locked/PG_VERSION', '16');
    const restore = unreadable(path.join('packages', 'locked'));
    try {
      const again = await createScratch(path.join(repo, 'packages', 'web'), { capeFolder: 'cape' });
      assert.ok(!fs.existsSync(path.join(again.dir, '..', 'locked')));
      await again.dispose();
    } finally {
      restore();
    }
  });

  it('already right: a workspace at its repository root, or under no node_modules, is copied alone', async () => {
    const repo = tmp();
    fs.mkdirSync(path.join(repo, '.git'));
    write(repo, 'node_modules/dep/index.js', '');
    write(repo, 'app/index.js', 'x');
    // a submodule (or a worktree) of a repository whose root has a node_modules: its `.git` is a file
    const sub = path.join(repo, 'vendor-lib');
    write(sub, '.git', 'gitdir: ../.git/modules/vendor-lib\n');
    for (const ws of [repo, path.join(tmp(), 'solo'), sub]) {
      write(ws, 'index.js', 'x');
      const s = await createScratch(ws, { capeFolder: 'cape' });
      try {
        assert.strictEqual(path.dirname(s.dir), fs.realpathSync(os.tmpdir()), s.dir);
      } finally {
        await s.dispose();
      }
    }
  });

  it('a Python package installed editable from the workspace (src layout) is imported from the copy, where the proposal is', async function () {
    if (process.platform === 'win32') this.skip();
    this.timeout(60_000);
    const { ws, real, site } = calcPackage();
    // what `pip install -e .` leaves (setuptools, hatch, pdm, poetry, flit): a .pth naming the source folder
    write(site, '__editable__.calc-0.1.pth', `${path.join(ws, 'src')}\n`);
    write(site, 'distutils-precedence.pth', "import os; var = 'SETUPTOOLS_USE_DISTUTILS'\n");
    write(site, 'other.pth', '/usr/share/elsewhere\n');
    write(site, 'git-dep.pth', `${path.join(ws, '.venv', 'src', 'dep')}\n`); // pip's editable from git, in the environment
    write(ws, '.venv/src/dep/dep/__init__.py', '');
    await assertImportsCopy(ws, '.venv/bin/python', real);
  });

  it("a package setuptools installed editable by a finder module (its MAPPING, read, never run) is imported from the copy", async function () {
    if (process.platform === 'win32') this.skip();
    this.timeout(60_000);
    const { ws, real, site } = calcPackage();
    // the shape setuptools' editable_wheel leaves: a finder module appended to sys.meta_path by a .pth's import
    const finder = '__editable___calc_0_1_finder';
    write(site, `${finder}.py`, [
      'import sys',
      'from importlib.util import spec_from_file_location',
      'from pathlib import Path',
      `MAPPING = {'calc': ${JSON.stringify(path.join(ws, 'src', 'calc'))}}`,
      'class _Finder:',
      '    @classmethod',
      '    def find_spec(cls, fullname, path=None, target=None):',
      '        if fullname in MAPPING:',
      "            return spec_from_file_location(fullname, Path(MAPPING[fullname], '__init__.py'))",
      'def install():',
      '    sys.meta_path.append(_Finder)',
      '',
    ].join('\n'));
    write(site, '__editable__.calc-0.1.pth', `import ${finder}; ${finder}.install()\n`);
    await assertImportsCopy(ws, '.venv/bin/python', real);
  });

  it('finderRoots: each package of MAPPING to the folder it is imported from', () => {
    assert.deepStrictEqual(finderRoots("MAPPING = {'calc': '/ws/src/calc', 'calc.ext': '/ws/ext/calc/ext', 'mod': '/ws/mod'}\n"), ['/ws/src', '/ws/ext', '/ws']);
    assert.deepStrictEqual(finderRoots('MAPPING: dict[str, str] = {"calc": "/ws/src/calc"}\n'), ['/ws/src']);
    assert.deepStrictEqual(finderRoots('MAPPING = {}\n'), []);
    assert.deepStrictEqual(finderRoots("x = {'calc': '/ws/src/calc'}\nMAPPING = {'rel': 'relative/rel'}\n"), [], 'only MAPPING, only absolute folders');
  });

  it('a package of a monorepo opened alone runs its checks by the virtual environment at the repository root, importing its copy', async function () {
    if (process.platform === 'win32') this.skip();
    this.timeout(60_000);
    const repo = fs.realpathSync(tmp());
    fs.mkdirSync(path.join(repo, '.git'));
    const ws = path.join(repo, 'packages', 'calc');
    write(ws, 'pyproject.toml', '[project]\nname = "calc"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n');
    write(ws, 'src/calc/__init__.py', "VALUE = 'old'\n");
    const { real, site } = virtualEnv(repo);
    // `pip install -e packages/calc` run at the root: a .pth naming the package's source folder
    write(site, '__editable__.calc-0.1.pth', `${path.join(ws, 'src')}\n`);
    const python = path.join(repo, '.venv', 'bin', 'python');
    assert.deepStrictEqual((await detectedChecks(ws)).commands.map((c) => c.command), [`${python} -m pytest`], "the root's environment, by its path");
    // a folder that is no repository's does not lend its environment to the folders below it
    fs.rmSync(path.join(repo, '.git'), { recursive: true });
    assert.deepStrictEqual((await detectedChecks(ws)).commands.map((c) => c.command).filter((c) => c.includes('.venv')), []);
    fs.mkdirSync(path.join(repo, '.git'));
    await assertImportsCopy(ws, python, real);
  });

  it("a folder it may not read (a container's data volume) or a file removed while copying (a dev server's build) is left out, not fatal", async () => {
    const ws = tmp();
    write(ws, 'src/a.js', 'a');
    write(ws, 'data/postgres/PG_VERSION', '16');
    write(ws, '.next/static/chunk-1.js', 'chunk');
    const fsp = fs.promises;
    const { copyFile } = fsp;
    // as the user running the editor sees them: postgres's folder is mode 700 of uid 999; the dev server deletes a chunk
    const restore = unreadable(path.join('data', 'postgres'));
    fsp.copyFile = (async (src: fs.PathLike, dest: fs.PathLike, mode?: number) => {
      if (String(src).endsWith('chunk-1.js')) throw simulated('ENOENT');
      return copyFile(src, dest, mode);
    }) as typeof fsp.copyFile;
    let s;
    try {
      s = await createScratch(ws, { capeFolder: 'cape' });
    } finally {
      restore();
      fsp.copyFile = copyFile;
    }
    try {
      assert.strictEqual(fs.readFileSync(path.join(s.dir, 'src', 'a.js'), 'utf8'), 'a');
      assert.ok(!fs.existsSync(path.join(s.dir, 'data', 'postgres', 'PG_VERSION')));
      assert.ok(!fs.existsSync(path.join(s.dir, '.next', 'static', 'chunk-1.js')));
    } finally {
      await s.dispose();
    }
  });
});

describe('checks: links of the workspace in the scratch copy', () => {
  it('a relative link out of the workspace leads where it does in the user\'s tree, never beside the copy; one inside stays relative', async function () {
    if (process.platform === 'win32') this.skip(); // links need a privilege there
    const root = tmp();
    const ws = path.join(root, 'ws');
    write(root, 'shared/data.txt', 'the user\'s shared data\n');
    write(ws, 'package.json', '{}\n');
    write(ws, 'src/a.js', 'a\n');
    fs.symlinkSync('../shared', path.join(ws, 'shared'));
    fs.symlinkSync('../ws/src', path.join(ws, 'again')); // inside, but through the workspace's own name
    fs.symlinkSync('src/a.js', path.join(ws, 'alias.js'));
    fs.symlinkSync('../../shared/data.txt', path.join(ws, 'src', 'data.txt'));
    const s = await createScratch(ws, { capeFolder: 'cape' });
    try {
      const realShared = fs.realpathSync(path.join(root, 'shared'));
      assert.strictEqual(fs.readlinkSync(path.join(s.dir, 'shared')), realShared);
      assert.strictEqual(fs.readlinkSync(path.join(s.dir, 'src', 'data.txt')), path.join(realShared, 'data.txt'));
      assert.strictEqual(fs.readlinkSync(path.join(s.dir, 'again')), path.join(fs.realpathSync(ws), 'src'));
      assert.strictEqual(fs.readlinkSync(path.join(s.dir, 'alias.js')), 'src/a.js', 'inside: resolves to the copy');
      const r = await runCheck({ command: 'cat shared/data.txt src/data.txt', cwd: s.dir, round: 0 });
      assert.strictEqual(r.output, "the user's shared data\nthe user's shared data");
    } finally {
      await s.dispose();
    }
  });
});

describe('checks: a temp folder inside the workspace', () => {
  it('the scratch copy, made in the OS temp folder inside the workspace (TMPDIR), does not copy itself (nor another copy)', async function () {
    if (process.platform === 'win32') this.skip(); // os.tmpdir() reads TEMP there
    const ws = tmp();
    write(ws, 'src/a.js', 'a\n');
    write(ws, 'tmp/other-program.txt', 'not ours\n');
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = path.join(ws, 'tmp');
    let first, second;
    try {
      first = await createScratch(ws, { capeFolder: 'cape' });
      second = await createScratch(ws, { capeFolder: 'cape' }); // the baseline's, made while the first is there
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    try {
      assert.ok(second.dir.startsWith(fs.realpathSync(path.join(ws, 'tmp'))), second.dir);
      assert.deepStrictEqual(fs.readdirSync(path.join(second.dir, 'tmp')), ['other-program.txt'], 'the copies are left out, the rest of the folder copied');
      assert.strictEqual(fs.readFileSync(path.join(second.dir, 'src', 'a.js'), 'utf8'), 'a\n');
    } finally {
      await first.dispose();
      await second.dispose();
    }
  });
});

describe('checks: the scratch copy removed', () => {
  /** Makes fs.promises.rm of a scratch copy fail with `code` (`times` times; every time when omitted); returns what puts it back. */
  function denyRemoval(code: string, times = Infinity): () => void {
    const { rm } = fs.promises;
    let left = times;
    fs.promises.rm = (async (p: fs.PathLike, o?: fs.RmOptions) => {
      if (String(p).includes('cape-checks-') && left-- > 0) throw simulated(code);
      return rm(p, o);
    }) as typeof fs.promises.rm;
    return () => {
      fs.promises.rm = rm;
    };
  }

  it('a folder a check made read-only is made the owner\'s again and removed; nothing through a link is touched', async function () {
    if (process.platform === 'win32') this.skip();
    const ws = tmp();
    write(ws, 'src/a.js', 'a\n');
    write(ws, 'node_modules/dep/index.js', 'dep\n');
    const s = await createScratch(ws, { capeFolder: 'cape' });
    fs.mkdirSync(path.join(s.dir, 'out', 'locked'), { recursive: true });
    fs.chmodSync(path.join(s.dir, 'out', 'locked'), 0o555);
    // synchronous, as the same removal runs when the process ends (scratchRemove.ts)
    const { chmodSync } = nodeFs;
    const changed: string[] = [];
    nodeFs.chmodSync = (p: fs.PathLike, mode: fs.Mode) => (changed.push(String(p)), chmodSync(p, mode));
    const restore = denyRemoval('EACCES', 1);
    try {
      await s.dispose();
    } finally {
      restore();
      nodeFs.chmodSync = chmodSync;
    }
    assert.ok(!fs.existsSync(s.dir), 'removed on the second try');
    assert.ok(changed.some((p) => p.endsWith(path.join('out', 'locked'))), changed.join('\n'));
    assert.ok(!changed.some((p) => p.includes('node_modules')), 'the linked node_modules is not followed');
    assert.strictEqual(fs.statSync(path.join(ws, 'node_modules', 'dep')).mode & 0o777, fs.statSync(path.join(ws, 'src')).mode & 0o777);
  });

  it('a copy that cannot be removed is said (where it is, to remove by hand), not thrown: the checks\' result stands', async () => {
    const ws = tmp();
    write(ws, 'src/a.js', 'a\n');
    const warnings: string[] = [];
    const restore = denyRemoval('EPERM');
    let passed;
    try {
      ({ outcome: { passed } } = await runCheckLoop({ commands: ['node -e "process.exit(0)"'], format: false, workspace: ws, capeFolder: 'cape', files: [], askFix: async () => '', onWarning: (m) => warnings.push(m) }));
    } finally {
      restore();
    }
    assert.strictEqual(passed, true);
    assert.strictEqual(warnings.length, 1, warnings.join('\n'));
    const m = /^the checks' scratch copy (\S+) could not be removed \(EPERM\); remove it by hand: it holds a copy of the workspace's files\.$/.exec(warnings[0]);
    assert.ok(m, warnings[0]);
    assert.ok(fs.existsSync(m[1]));
    fs.rmSync(m[1], { recursive: true, force: true });
  });
});
