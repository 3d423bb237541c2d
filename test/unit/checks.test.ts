// src/core/checks/: detection, the scratch copy (links, not copies; nothing written through a link; removed), one
// command's run (exit code, cap, Stop kills it), the output trimmed with file:line lines first, test cases
// recognised, and a fix reply applied to the proposal.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  applyFixReply,
  CheckCancelled,
  checksForRetro,
  isChecksOutcome,
  isStaticCheck,
  proposedTestFiles,
  runCheckLoop,
  type CheckEvent,
  cleanOutput,
  createScratch,
  isBuildFolder,
  detectedChecks,
  fixRequest,
  readTestCases,
  testCaseReader,
  testsRan,
  buildFailed,
  unbuiltGoFolders,
  problemKeys,
  failsAsBefore,
  resolveChecks,
  runCheck,
  summarizeChecks,
  trimForModel,
  wasTrimmed,
  type CheckRun,
  type ProposedFile,
} from '../../src/core';
import { recordedRun } from '../helpers/failedRun';
import { readAllLines } from '../../src/core/text/lines';

/** The test cases a run's output names (readTestCases without its listsPassed). */
const parseTestCases = (text: string) => readTestCases(text)?.cases;

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'cape-unit-checks-'));
}

function write(root: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

describe('checks: detection', () => {
  it('finds tsc with a tsconfig and a local TypeScript, then typecheck / lint / test scripts; npm\'s placeholder test is not a test', async () => {
    const ws = tmp();
    write(ws, 'package.json', JSON.stringify({ scripts: { lint: 'eslint .', test: 'echo "Error: no test specified" && exit 1' } }));
    write(ws, 'tsconfig.json', '{}');
    write(ws, 'node_modules/typescript/bin/tsc', '');
    assert.deepStrictEqual(
      (await detectedChecks(ws)).commands.map((c) => c.command),
      ['node node_modules/typescript/bin/tsc --noEmit', 'npm run lint'],
    );
    write(ws, 'package.json', JSON.stringify({ scripts: { typecheck: 'tsc -p .', test: 'mocha' } }));
    write(ws, 'pnpm-lock.yaml', '');
    // the lockfile's manager runs the scripts when it is on PATH (a pnpm of our own, so the machine's does not matter)
    const bin = tmp();
    fs.writeFileSync(path.join(bin, process.platform === 'win32' ? 'pnpm.cmd' : 'pnpm'), '#!/bin/sh\n', { mode: 0o755 });
    const oldPath = process.env.PATH;
    process.env.PATH = `${bin}${path.delimiter}${oldPath}`;
    try {
      assert.deepStrictEqual((await detectedChecks(ws)).commands.map((c) => c.command), ['pnpm run typecheck', 'pnpm run test']);
    } finally {
      process.env.PATH = oldPath;
    }
    // and npm, which comes with Node, when it is not
    process.env.PATH = (oldPath ?? '').split(path.delimiter).filter((d) => !fs.existsSync(path.join(d, 'pnpm'))).join(path.delimiter);
    try {
      assert.deepStrictEqual((await detectedChecks(ws)).commands.map((c) => c.command), ['npm run typecheck', 'npm test']);
    } finally {
      process.env.PATH = oldPath;
    }
  });

  it('a type check script by another name replaces tsc (vue-tsc); a test script that runs the e2e suite too gives way to test:unit', async () => {
    const ws = tmp();
    write(ws, 'tsconfig.json', '{}');
    write(ws, 'node_modules/typescript/bin/tsc', '');
    const scripts = { 'type-check': 'vue-tsc --noEmit', lint: 'eslint .', test: 'npm run test:unit && npm run test:e2e:ci', 'test:unit': 'vitest run' };
    write(ws, 'package.json', JSON.stringify({ scripts }));
    const found = (await detectedChecks(ws)).commands;
    assert.deepStrictEqual(found.map((c) => c.command), ['npm run type-check', 'npm run lint', 'npm run test:unit']);
    assert.strictEqual(found[2].reason, 'package.json script "test:unit"');
    // controls: a test script of unit tests alone stays; with no test:unit the e2e-running test stays; test:unit alone is the test
    write(ws, 'package.json', JSON.stringify({ scripts: { ...scripts, test: 'vitest run --coverage' } }));
    assert.deepStrictEqual((await detectedChecks(ws)).commands.map((c) => c.command), ['npm run type-check', 'npm run lint', 'npm test']);
    write(ws, 'package.json', JSON.stringify({ scripts: { test: 'vitest run && playwright test' } }));
    assert.deepStrictEqual((await detectedChecks(ws)).commands.map((c) => c.command), ['node node_modules/typescript/bin/tsc --noEmit', 'npm test']);
    write(ws, 'package.json', JSON.stringify({ scripts: { 'check-types': 'tsc -b', 'test:unit': 'jest' } }));
    assert.deepStrictEqual((await detectedChecks(ws)).commands.map((c) => c.command), ['npm run check-types', 'npm run test:unit']);
    // each of those names is a static check (its passing run proves no test), test:unit a test
    for (const c of ['npm run type-check', 'npm run check-types', 'pnpm run types:check', 'yarn check:types', 'npm run typecheck:all']) assert.ok(isStaticCheck(c), c);
    assert.ok(!isStaticCheck('npm run test:unit'));
  });

  it('a configured list runs as given; `auto` adds the detected ones; none configured runs nothing and names them', async () => {
    const ws = tmp();
    write(ws, 'package.json', JSON.stringify({ scripts: { test: 'node t.js' } }));
    assert.deepStrictEqual(await resolveChecks(ws, [' make check ', '', 'make check'], 'setting'), { commands: [{ command: 'make check', source: 'setting' }], detectedNotRun: [], leftOut: [] });
    assert.deepStrictEqual((await resolveChecks(ws, ['make check', 'auto'], 'flag')).commands.map((c) => c.command), ['make check', 'npm test']);
    const none = await resolveChecks(ws, [], 'setting');
    assert.deepStrictEqual(none.commands, []);
    assert.deepStrictEqual(none.detectedNotRun.map((c) => c.command), ['npm test']);
    assert.deepStrictEqual(none.leftOut, [], 'no sub-project left out: an empty list, never a missing one');
    write(ws, 'package.json', 'not json');
    assert.deepStrictEqual((await detectedChecks(ws)).commands, []);
  });

  it('finds pytest, ruff and mypy where a Python project configures them, by its virtual environment; go, cargo, Ruby, Maven, Gradle and .NET', async function () {
    if (process.platform === 'win32') this.skip(); // the fake programs below are shell scripts
    const bin = tmp();
    const fakeProgram = (dir: string, name: string) => {
      write(dir, name, '#!/bin/sh\nexit 0\n');
      fs.chmodSync(path.join(dir, name), 0o755);
    };
    const savedPath = process.env.PATH;
    process.env.PATH = bin; // nothing but the fake programs
    try {
      const py = tmp();
      write(py, 'pyproject.toml', '[project]\nname = "calc"\n\n[tool.pytest.ini_options]\npythonpath = ["."]\n\n[tool.ruff]\nline-length = 100\n');
      assert.deepStrictEqual((await detectedChecks(py)).commands, [], 'no python on PATH and no virtual environment: nothing to run them with');
      fakeProgram(bin, 'python3');
      assert.deepStrictEqual((await detectedChecks(py)).commands.map((c) => [c.command, c.reason]), [['python3 -m pytest', 'pyproject.toml [tool.pytest]']], 'ruff is not installed');
      fakeProgram(py, '.venv/bin/python');
      fakeProgram(py, '.venv/bin/ruff');
      write(py, 'mypy.ini', '[mypy]\n');
      fakeProgram(bin, 'mypy');
      assert.deepStrictEqual(
        (await detectedChecks(py)).commands.map((c) => c.command),
        ['.venv/bin/ruff check .', 'mypy .', '.venv/bin/python -m pytest'],
        'static checks first; the environment\'s programs before PATH\'s',
      );
      const cfg = tmp();
      write(cfg, 'setup.cfg', '[metadata]\nname = x\n[tool:pytest]\ntestpaths = tests\n');
      assert.deepStrictEqual((await detectedChecks(cfg)).commands.map((c) => c.reason), ['setup.cfg [tool:pytest]']);
      write(cfg, 'setup.cfg', '[metadata]\nname = x\n');
      assert.deepStrictEqual((await detectedChecks(cfg)).commands, [], 'a Python project that does not configure pytest');
      // configured nowhere, but its fixtures sit beside its tests, or it requires pytest for development (sqlparse)
      write(cfg, 'pyproject.toml', '[project]\nname = "x"\ndescription = "A pytest plugin"\n[project.optional-dependencies]\ncov = [\n    "pytest-cov",\n]\n');
      assert.deepStrictEqual((await detectedChecks(cfg)).commands, [], 'pytest named in a description or a pytest-* plugin is no requirement of pytest');
      for (const [file, content, why] of [
        ['pyproject.toml', '[project]\nname = "x"\n\n[dependency-groups]\ndev = [\n    "pytest",\n    "coverage",\n]\n', 'pyproject.toml lists pytest among its requirements'],
        ['pyproject.toml', '[tool.poetry.group.dev.dependencies]\npytest = "^8.0"\n', 'pyproject.toml lists pytest among its requirements'],
        ['requirements-dev.txt', '-r requirements.txt\npytest>=7\n', 'requirements-dev.txt lists pytest'],
        ['tests/conftest.py', 'import pytest\n', 'tests/conftest.py'],
      ]) {
        const p = tmp();
        write(p, file, content);
        assert.deepStrictEqual((await detectedChecks(p)).commands.map((c) => [c.command, c.reason]), [['python3 -m pytest', why]], file);
      }

      const mixed = tmp();
      write(mixed, 'go.mod', 'module example.com/calc\n');
      write(mixed, 'Cargo.toml', '[package]\nname = "calc"\n');
      write(mixed, 'package.json', JSON.stringify({ scripts: { lint: 'eslint .', test: 'node --test' } }));
      assert.deepStrictEqual((await detectedChecks(mixed)).commands.map((c) => c.command), ['npm run lint', 'npm test'], 'no go or cargo on PATH');
      fakeProgram(bin, 'go');
      fakeProgram(bin, 'cargo');
      assert.deepStrictEqual((await detectedChecks(mixed)).commands.map((c) => c.command), ['npm run lint', 'go vet ./...', 'npm test', 'go test ./...', 'cargo test']);
      fakeProgram(bin, 'cargo-clippy');
      assert.deepStrictEqual(
        (await detectedChecks(mixed)).commands.map((c) => c.command),
        ['npm run lint', 'go vet ./...', 'cargo clippy --tests', 'npm test', 'go test ./...', 'cargo test'],
        'clippy where it is installed, with the static checks',
      );

      // Ruby: RSpec (or minitest through rake) and RuboCop, by Bundler when there is a Gemfile
      const rb = tmp();
      write(rb, 'Gemfile', "source 'https://rubygems.org'\ngem 'rspec'\n");
      write(rb, '.rspec', '--require spec_helper\n');
      write(rb, '.rubocop.yml', 'AllCops:\n  NewCops: enable\n');
      assert.deepStrictEqual((await detectedChecks(rb)).commands, [], 'a Gemfile and no bundle on PATH: nothing to run them with');
      fakeProgram(bin, 'bundle');
      assert.deepStrictEqual((await detectedChecks(rb)).commands.map((c) => [c.command, c.reason]), [
        ['bundle exec rubocop', '.rubocop.yml'],
        ['bundle exec rspec', '.rspec'],
      ]);
      const mini = tmp();
      write(mini, 'Rakefile', 'task default: :test\n');
      write(mini, 'test/test_helper.rb', "require 'minitest/autorun'\n");
      assert.deepStrictEqual((await detectedChecks(mini)).commands, [], 'no Gemfile and no rake on PATH');
      fakeProgram(bin, 'rake');
      assert.deepStrictEqual((await detectedChecks(mini)).commands.map((c) => [c.command, c.reason]), [['rake test', 'Rakefile and test/test_helper.rb']]);

      // Maven, Gradle, .NET: the project's wrapper first, else the program on PATH
      const jvm = tmp();
      write(jvm, 'pom.xml', '<project/>\n');
      write(jvm, 'build.gradle.kts', 'plugins { java }\n');
      write(jvm, 'Calc.sln', '\n');
      assert.deepStrictEqual((await detectedChecks(jvm)).commands, [], 'no wrapper, no mvn, gradle or dotnet');
      fakeProgram(bin, 'mvn');
      fakeProgram(jvm, 'gradlew');
      fakeProgram(bin, 'dotnet');
      assert.deepStrictEqual((await detectedChecks(jvm)).commands.map((c) => [c.command, c.reason]), [
        ['mvn test', 'pom.xml'],
        ['./gradlew test', 'build.gradle.kts'],
        ['dotnet test', 'Calc.sln'],
      ]);
      for (const c of ['bundle exec rubocop']) assert.ok(isStaticCheck(c), c);
      for (const c of ['bundle exec rspec', 'rake test', 'mvn test', './gradlew test', 'dotnet test']) assert.ok(!isStaticCheck(c), c);
    } finally {
      process.env.PATH = savedPath;
    }
  });
});

describe('checks: scratch copy', () => {
  it('copies the tree without .git and cape/, links node_modules (copied when a proposed file lands in it), never writes through a link, and is removed', async () => {
    const ws = tmp();
    write(ws, 'src/a.js', 'a');
    write(ws, 'real/r.js', 'r');
    fs.symlinkSync(path.join(ws, 'real'), path.join(ws, 'linked')); // the user's own link, kept as it is in the copy
    write(ws, '.git/HEAD', 'ref');
    write(ws, 'cape/0_team/x.md', 'x');
    write(ws, 'node_modules/dep/index.js', 'dep');
    write(ws, 'packages/p/node_modules/q/index.js', 'q');
    const s = await createScratch(ws, { capeFolder: 'cape' });
    assert.ok(!fs.existsSync(path.join(s.dir, '.git')));
    assert.ok(!fs.existsSync(path.join(s.dir, 'cape')));
    assert.strictEqual(fs.readFileSync(path.join(s.dir, 'src', 'a.js'), 'utf8'), 'a');
    assert.ok(fs.lstatSync(path.join(s.dir, 'node_modules')).isSymbolicLink());
    assert.ok(fs.lstatSync(path.join(s.dir, 'packages', 'p', 'node_modules')).isSymbolicLink());
    const files: ProposedFile[] = [
      { path: 'src/a.js', relPath: 'src/a.js', action: 'modify', status: 'proposed', content: 'A' },
      { path: 'src/new/b.js', relPath: 'src/new/b.js', action: 'create', status: 'proposed', content: 'B' },
      { path: 'node_modules/dep/index.js', relPath: 'node_modules/dep/index.js', action: 'modify', status: 'proposed', content: 'PATCHED' },
      { path: 'linked/r.js', relPath: 'linked/r.js', action: 'modify', status: 'proposed', content: 'HACKED' },
      { path: 'r.js', relPath: 'r.js', action: 'create', status: 'refused', content: 'no' },
    ];
    const notWritten = await s.overlay(files);
    assert.deepStrictEqual(notWritten, [{ path: 'linked/r.js', reason: 'linked is a linked folder, so the file was not written to the scratch copy the checks ran on' }]);
    assert.ok(!fs.lstatSync(path.join(s.dir, 'node_modules')).isSymbolicLink(), 'the linked folder a proposed file lands in is copied');
    assert.strictEqual(fs.readFileSync(path.join(s.dir, 'node_modules', 'dep', 'index.js'), 'utf8'), 'PATCHED');
    assert.strictEqual(fs.readFileSync(path.join(s.dir, 'src', 'a.js'), 'utf8'), 'A');
    assert.strictEqual(fs.readFileSync(path.join(s.dir, 'src', 'new', 'b.js'), 'utf8'), 'B');
    assert.ok(!fs.existsSync(path.join(s.dir, 'r.js')));
    await s.dispose();
    assert.ok(!fs.existsSync(s.dir));
    assert.strictEqual(fs.readFileSync(path.join(ws, 'node_modules', 'dep', 'index.js'), 'utf8'), 'dep', 'the linked folder survives the removal');
    assert.strictEqual(fs.readFileSync(path.join(ws, 'real', 'r.js'), 'utf8'), 'r', 'nothing written through the link');
    assert.strictEqual(fs.readFileSync(path.join(ws, 'src', 'a.js'), 'utf8'), 'a', 'the user\'s tree is untouched');
  });

  it('leaves out the caches tools rebuild: __pycache__, pytest\'s, mypy\'s, ruff\'s, and build folders only beside their build file', async () => {
    const ws = tmp();
    write(ws, 'calc/__pycache__/calc.cpython-311.pyc', 'x');
    write(ws, '.pytest_cache/v/cache/lastfailed', '{}');
    write(ws, '.mypy_cache/3.11/calc.meta.json', '{}');
    write(ws, 'crate/Cargo.toml', '[package]\n');
    write(ws, 'crate/target/debug/crate', 'binary');
    write(ws, 'crate/src/lib.rs', 'pub fn f() {}');
    write(ws, 'java/pom.xml', '<project/>');
    write(ws, 'java/target/classes/calc/Calc.class', 'classes');
    write(ws, 'java/src/main/java/calc/Calc.java', 'class Calc {}');
    write(ws, 'android/build.gradle.kts', 'plugins {}');
    write(ws, 'android/build/libs/app.jar', 'jar');
    write(ws, 'groovy/build.gradle', 'apply plugin: "java"');
    write(ws, 'groovy/build/tmp/x', 'x');
    write(ws, 'net/Calc/Calc.csproj', '<Project/>');
    write(ws, 'net/Calc/bin/Debug/net8.0/Calc.dll', 'dll');
    write(ws, 'net/Calc/obj/project.assets.json', '{}');
    write(ws, 'web/target/index.js', 'a folder named target that is source');
    write(ws, 'web/build/index.js', 'a build folder without a build file beside it');
    write(ws, 'scripts/bin/cli.js', 'a bin folder of a package');
    write(ws, 'java/src/main/java/calc/build/Steps.java', 'a package named build, below the pom');
    const s = await createScratch(ws, { capeFolder: 'cape' });
    const gone = ['calc/__pycache__', '.pytest_cache', '.mypy_cache', 'crate/target', 'java/target', 'android/build', 'groovy/build', 'net/Calc/bin'];
    for (const g of gone) assert.ok(!fs.existsSync(path.join(s.dir, g)), g);
    const kept = ['crate/src/lib.rs', 'crate/Cargo.toml', 'java/pom.xml', 'java/src/main/java/calc/Calc.java', 'android/build.gradle.kts', 'net/Calc/Calc.csproj', 'net/Calc/obj/project.assets.json', 'web/target/index.js', 'web/build/index.js', 'scripts/bin/cli.js', 'java/src/main/java/calc/build/Steps.java'];
    for (const k of kept) assert.ok(fs.existsSync(path.join(s.dir, k)), k);
    await s.dispose();
  });

  it('isBuildFolder: a build folder only beside the build file that writes it', () => {
    assert.ok(isBuildFolder('target', ['pom.xml', 'src', 'target']));
    assert.ok(isBuildFolder('target', ['Cargo.toml']));
    assert.ok(isBuildFolder('build', ['build.gradle.kts']));
    assert.ok(isBuildFolder('build', ['CMakeLists.txt', 'src']), "a CMake build folder (it names the source folder it was configured for)");
    assert.ok(isBuildFolder('bin', ['App.fsproj']));
    assert.ok(!isBuildFolder('build', ['pom.xml']), 'Maven builds into target/');
    assert.ok(!isBuildFolder('obj', ['App.csproj']), 'the restore record stays');
    assert.ok(!isBuildFolder('target', ['package.json']));
    assert.ok(!isBuildFolder('src', ['pom.xml']));
  });

  it('a Rust workspace\'s checks build into one folder of ours per workspace, kept between copies; the user\'s choice wins', async () => {
    const ws = tmp();
    write(ws, 'Cargo.toml', '[package]\nname = "calc"\n');
    const saved = process.env.CARGO_TARGET_DIR;
    delete process.env.CARGO_TARGET_DIR;
    try {
      const [a, b] = [await createScratch(ws, { capeFolder: 'cape' }), await createScratch(ws, { capeFolder: 'cape' })];
      const target = a.env.CARGO_TARGET_DIR;
      assert.ok(target && target.startsWith(path.join(os.tmpdir(), 'cape-cargo-target') + path.sep), target);
      assert.strictEqual(b.env.CARGO_TARGET_DIR, target, 'every copy of the workspace shares it');
      assert.ok(!target.startsWith(ws), 'never in the user\'s tree');
      // the check's process sees it
      const run = await runCheck({ command: 'node -e "console.log(process.env.CARGO_TARGET_DIR)"', cwd: a.dir, round: 0, env: { ...process.env, ...a.env } });
      assert.strictEqual(run.output.trim(), target);
      await Promise.all([a.dispose(), b.dispose()]);
      const other = await createScratch(tmp(), { capeFolder: 'cape' });
      assert.deepStrictEqual(other.env, {}, 'no Cargo.toml: nothing added');
      process.env.CARGO_TARGET_DIR = '/opt/my-target';
      const chosen = await createScratch(ws, { capeFolder: 'cape' });
      assert.deepStrictEqual(chosen.env, {}, 'the user set one');
      await Promise.all([other.dispose(), chosen.dispose()]);
    } finally {
      if (saved === undefined) delete process.env.CARGO_TARGET_DIR;
      else process.env.CARGO_TARGET_DIR = saved;
    }
  });
});

describe('checks: one run', () => {
  it('passes on exit 0, fails with the exit code and the output (colours and the scratch path removed)', async () => {
    const dir = tmp();
    const ok = await runCheck({ command: 'node -e "console.log(1)"', cwd: dir, round: 0 });
    assert.strictEqual(ok.status, 'passed');
    assert.strictEqual(ok.exitCode, 0);
    const bad = await runCheck({ command: `node -e "console.error('\\x1b[31m' + process.cwd() + '/src/x.ts:3:1 boom\\x1b[0m'); process.exit(3)"`, cwd: fs.realpathSync(dir), round: 1 });
    assert.strictEqual(bad.status, 'failed');
    assert.strictEqual(bad.exitCode, 3);
    assert.strictEqual(bad.round, 1);
    assert.strictEqual(bad.output, 'src/x.ts:3:1 boom');
    // a failure is not a build failure unless the output says one
    assert.strictEqual(bad.unbuilt, undefined);
    assert.strictEqual(ok.unbuilt, undefined);
    const unbuilt = await runCheck({ command: `node -e "console.log('calc/sq_test.go:6:5: undefined: Sq'); console.log('FAIL\\texample.com/calc [build failed]'); process.exit(2)"`, cwd: dir, round: 0 });
    assert.strictEqual(unbuilt.unbuilt, true, unbuilt.output);
  });

  it('tells a build or load failure from a failing test, by each toolchain\'s words', () => {
    for (const out of [
      'FAIL\texample.com/calc [build failed]',
      'error[E0425]: cannot find function `sq`\nerror: could not compile `calc` (lib test) due to 1 previous error',
      '______ ERROR collecting tests/test_calc.py ______\nImportError: cannot import name',
      '!!!!!!! Interrupted: 1 error during collection !!!!!!!',
      '[ERROR] COMPILATION ERROR :',
      '> Task :compileTestJava FAILED',
      'CalcTests.cs(5,9): error CS0103: The name \'Sq\' does not exist\nBuild FAILED.',
      ' FAIL  test/calc.test.js\n  ● Test suite failed to run',
      'Error: Failed to resolve import "./sq" from "test/sq.test.ts"',
      "Error: Cannot find module '../src/sq'",
      // a C program a Makefile's test target builds: the compiler's error, or the linker's
      "gcc -O0 -o test tests.c parson.c\ntests.c:880:5: error: unknown type name 'JSON_Parse_Error'\nmake: *** [Makefile:11: test] Error 1",
      'src/lib.cpp:3:10: fatal error: lib.h: No such file or directory',
      "/usr/bin/ld: /tmp/cc1.o: in function `main':\ntests.c:(.text+0x1a): undefined reference to `json_parse_string_with_error'\ncollect2: error: ld returned 1 exit status",
      'parson.c(12): error C2065: undeclared identifier',
      // a CMake build that did not configure
      'CMake Error at tests/CMakeLists.txt:80 (add_executable):\n  Cannot find source file:\n\n    parse_depth.c',
    ]) assert.strictEqual(buildFailed(out), true, out);
    for (const out of [
      '--- FAIL: TestSq (0.00s)\nFAIL\texample.com/calc\t0.01s',
      '1 failed, 2 passed in 0.1s',
      'AssertionError: expected 4 to equal 5',
      'Tests run: 3, Failures: 1',
      '0 errors during collection',
      'CMake Warning (dev) at CMakeLists.txt:3 (project):\n  Policy CMP0048 is not set\n50% tests passed, 1 tests failed out of 2',
      "tests.c:12:3: warning: unused variable 'x'\n75 json_parse_string(\"[1]\") != NULL - FAILED\nmake: *** [Makefile:11: test] Error 1",
    ]) {
      assert.strictEqual(buildFailed(out), false, out);
    }
  });

  it('runs in the developer\'s environment with CI=1 and no colour variables of ours (a project\'s tests of FORCE_COLOR / NO_COLOR must pass)', async () => {
    const env = { ...process.env };
    delete env.NO_COLOR;
    delete env.FORCE_COLOR;
    const run = await runCheck({ command: `node -e "console.log([process.env.CI, process.env.NO_COLOR, process.env.FORCE_COLOR].join('|'))"`, cwd: tmp(), round: 0, env });
    assert.strictEqual(run.output, '1||');
    // the user's own setting reaches the project as it is
    const mine = await runCheck({ command: `node -e "console.log(process.env.FORCE_COLOR)"`, cwd: tmp(), round: 0, env: { ...env, FORCE_COLOR: '3' } });
    assert.strictEqual(mine.output, '3');
  });

  it('keeps the beginning and end of a huge output within the cap', async () => {
    const run = await runCheck({ command: `node -e "for (let i = 0; i < 20000; i++) console.log('line ' + i)"`, cwd: tmp(), round: 0, outputCap: 2000, outputForModel: 100000 });
    assert.strictEqual(run.passed, true);
    assert.ok(run.outputChars > 200000);
    assert.match(run.output, /^line 0\n/);
    assert.match(run.output, /characters of output left out/);
    assert.match(run.output, /line 19999$/);
    assert.ok(run.output.length < 2200);
  });

  it('Stop (AbortSignal) kills a running check at once', async () => {
    const dir = tmp();
    const started = path.join(dir, 'started');
    const ac = new AbortController();
    const p = runCheck({ command: `node -e "require('fs').writeFileSync('started', ''); setInterval(() => {}, 1000)"`, cwd: dir, round: 0, signal: ac.signal, timeoutMs: 600000 });
    while (!fs.existsSync(started)) await new Promise((r) => setTimeout(r, 20));
    ac.abort();
    const run = await p;
    assert.strictEqual(run.status, 'cancelled');
    assert.strictEqual(run.passed, false);
    assert.match(run.output, /stopped by the user/);
  });
});

describe('checks: output for the model and test cases', () => {
  it('puts the lines naming files and lines first, then the end of the output', () => {
    const noise = Array.from({ length: 400 }, (_, i) => `progress ${i} ${'.'.repeat(40)}`);
    const text = [...noise.slice(0, 200), 'src/app.ts(12,5): error TS2322: Type string is not assignable', '  details of the error', ...noise.slice(200), 'Found 1 error.'].join('\n');
    const out = trimForModel(text, 1500);
    assert.ok(out.length <= 1500, String(out.length));
    assert.match(out, /^\[lines naming files\]\nsrc\/app\.ts\(12,5\): error TS2322[^\n]*\n {2}details of the error\n/);
    assert.match(out, /Found 1 error\.$/);
    assert.match(out, /line\(s\) left out/);
    assert.strictEqual(trimForModel('short\n\n'), 'short');
    // javac's location through Maven
    const javac = [...noise, '[ERROR] src/test/java/calc/SqTest.java:[5,52] cannot find symbol', ...noise].join('\n');
    assert.match(trimForModel(javac, 1500), /^\[lines naming files\]\n\[ERROR\] src\/test\/java\/calc\/SqTest\.java:\[5,52\] cannot find symbol/);
  });

  it("keeps first the lines naming DevA's files, where the old failures' lines would fill the room; shown in the output's order", () => {
    // a suite that already fails: DevA's new failure among 60 old tracebacks
    const old = Array.from({ length: 60 }, (_, i) => [`ERROR: test_old${i} (tests.test_apis.T.test_old${i})`, `  File "tests/test_apis.py", line ${i + 10}, in test_old${i}`, "    markdown.Markdown(extensions=['footnotes'])", "ModuleNotFoundError: No module named 'footnotes'"]).flat();
    const mine = ['FAIL: test_table (tests.test_syntax.extensions.test_spoiler.T.test_table)', '  File "tests/test_syntax/extensions/test_spoiler.py", line 42, in test_table', '    self.assertMarkdownRenders(src, html, extensions=["tables", "spoiler"])'];
    const text = [...old.slice(0, 120), ...mine, ...old.slice(120), 'Ran 377 tests in 0.5s', 'FAILED (errors=366, failures=1)'].join('\n');
    const plain = trimForModel(text, 1500);
    assert.doesNotMatch(plain, /test_spoiler\.py", line 42/, 'without focus: the old frames fill the room');
    const focused = trimForModel(text, 1500, ['markdown/extensions/spoiler.py', 'tests/test_syntax/extensions/test_spoiler.py']);
    assert.ok(focused.length <= 1500, String(focused.length));
    assert.match(focused, /^\[lines naming files\]\n {2}File "tests\/test_apis\.py", line 10, in test_old0\n[\s\S]* {2}File "tests\/test_syntax\/extensions\/test_spoiler\.py", line 42, in test_table\n {4}self\.assertMarkdownRenders/);
    assert.match(focused, /FAILED \(errors=366, failures=1\)$/);
  });

  it('shows a location line repeated under every failure once, so the other lines naming files still fit', () => {
    const frame = '      at Object.<anonymous> (tests/colour.test.js:360:30)';
    const noise = Array.from({ length: 300 }, (_, i) => `PASS tests/t${i}.test.js ${'.'.repeat(30)}`);
    const text = [...Array.from({ length: 60 }, () => [frame, '']).flat(), 'src/help.js:12:3 TypeError: x is not a function', '  next line', ...noise].join('\n');
    const out = trimForModel(text, 2000);
    assert.strictEqual(out.split(frame).length - 1, 1, out.slice(0, 400));
    assert.match(out, /src\/help\.js:12:3 TypeError/);
  });

  it('cuts a long line of output without splitting an emoji (a lone surrogate is invalid in the next request)', () => {
    // the 400-character cut of a long line falls between the two halves of 😀
    const long = (prefix: string) => prefix + 'x'.repeat(399 - prefix.length) + '😀'.repeat(20);
    const text = [long('src/app.ts:3: '), ...Array.from({ length: 50 }, (_, i) => `noise ${i} ${'.'.repeat(60)}`), long('tail ')].join('\n');
    const out = trimForModel(text, 2000);
    assert.ok(out.includes('src/app.ts:3: ') && out.includes('tail '), out.slice(0, 200));
    assert.ok(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(out), 'no lone surrogate');
  });

  it('reads a long line (a hex dump, minified code) and many blank lines in linear time', () => {
    // A megabyte of each: a pattern retried from every character of a line, or from every blank line, takes minutes
    // there (80 KB of the hex dump took 17 s; the suite's timeout fails it), a linear one milliseconds. No time is
    // asserted here: the figures are the benchmark's business.
    const MB = 1_000_000;
    const hex = 'AssertionError: expected 0x' + 'ab12'.repeat(MB / 4) + ' to equal 0x00';
    const dotted = 'a.b/'.repeat(MB / 4);
    const out = trimForModel([hex, dotted, 'src/a.js:3:1 boom', 'x'.repeat(7000)].join('\n'));
    assert.match(out, /^\[lines naming files\]\nsrc\/a\.js:3:1 boom/);
    assert.strictEqual(testsRan({ output: '\n'.repeat(MB / 2) + ' \n'.repeat(MB / 4) + 'done\n' }), false);
    assert.strictEqual(testsRan({ output: '\n\n  Ran 3 tests in 0.01s\n' }), true);
    assert.strictEqual(testsRan({ output: '# tests 3\n' }), true);
  });

  it('cleanOutput removes colours, CRs and the scratch folder', () => {
    assert.strictEqual(cleanOutput('\x1b[1m/tmp/s/src/a.js:1\x1b[0m\r\nok', '/tmp/s'), 'src/a.js:1\nok');
  });

  it('recognises mocha, jest/vitest, node:test and TAP test cases', () => {
    const mocha = ['  calc', '    ✔ adds (3ms)', '    1) multiplies', '', '  1 passing (5ms)', '  1 failing', '', '  1) calc', '       multiplies:', '     AssertionError'].join('\n');
    assert.deepStrictEqual(parseTestCases(mocha), [
      { name: 'adds', passed: true },
      { name: 'calc multiplies', passed: false }, // its full title, from the failure list
    ]);
    const jest = [' PASS  src/a.test.js', '  ✓ adds (2 ms)', '  ✕ subtracts (1 ms)', '  × divides'].join('\n');
    assert.deepStrictEqual(parseTestCases(jest), [
      { name: 'adds', passed: true },
      { name: 'subtracts', passed: false },
      { name: 'divides', passed: false },
    ]);
    // jest's default reporter over several files names only failures, by their headers (repeated in its summary);
    // `● Console` is logged output, a file that did not load is named with its file, as no test case
    const jestDefault = [
      'PASS tests/help.test.js',
      'FAIL tests/colour.test.js (5.2 s)',
      '  ● getOutHasColors › when FORCE_COLOR then returns true',
      '',
      '    expect(received).toBe(expected)',
      '  ● Console',
      '',
      '    console.log',
      'FAIL tests/broken.test.js',
      '  ● Test suite failed to run',
      '',
      "    Cannot find module './x'",
      'Summary of all failing tests',
      'FAIL tests/colour.test.js',
      '  ● getOutHasColors › when FORCE_COLOR then returns true',
      'Tests:       1 failed, 25 passed, 26 total',
    ].join('\n');
    const jestRead = readAllLines(testCaseReader(), jestDefault);
    // each failed case with its own message line (failureMessages.ts): the fix request names it so
    assert.deepStrictEqual(jestRead.result(), { cases: [{ name: 'getOutHasColors › when FORCE_COLOR then returns true', passed: false, message: 'expect(received).toBe(expected)' }], listsPassed: false });
    assert.deepStrictEqual(jestRead.unloadedFiles(), ['tests/broken.test.js']);
    // vitest's failed tests, and go's package line is no jest file
    assert.deepStrictEqual(parseTestCases(' FAIL  test/calc.test.ts > calc > multiplies\nAssertionError: expected 2 to be 3\nFAIL\texample.com/calc\t0.01s'), [{ name: 'test/calc.test.ts > calc > multiplies', passed: false, message: 'AssertionError: expected 2 to be 3' }]);
    const tap = ['TAP version 13', 'ok 1 - adds', 'not ok 2 - subtracts', 'ok 3 - skipped one # SKIP', '1..3'].join('\n');
    assert.deepStrictEqual(parseTestCases(tap), [
      { name: 'adds', passed: true },
      { name: 'subtracts', passed: false },
    ]);
    assert.deepStrictEqual(parseTestCases('✔ adds (0.5ms)\n✖ adds (1.1ms)'), [{ name: 'adds', passed: false }]);
    // node:test's TAP: describe() blocks are points too, marked type: 'suite' in their YAML block
    const nodeTap = [
      '# Subtest: res.writable',
      '    # Subtest: when socket closed',
      '        # Subtest: should not be writable',
      '        not ok 1 - should not be writable',
      '          ---',
      '          duration_ms: 8.85',
      "          error: 'ctx.writable should not be true'",
      '          ...',
      '        1..1',
      '    not ok 1 - when socket closed',
      '      ---',
      "      type: 'suite'",
      '      ...',
      '    # Subtest: should stay writable',
      '    ok 2 - should stay writable',
      '      ---',
      '      duration_ms: 1.2',
      '      ...',
      'not ok 1 - res.writable',
      '  ---',
      '  duration_ms: 12.1',
      "  type: 'suite'",
      '  ...',
    ].join('\n');
    assert.deepStrictEqual(parseTestCases(nodeTap), [
      { name: 'should not be writable', passed: false, message: 'ctx.writable should not be true' },
      { name: 'should stay writable', passed: true },
    ]);
    assert.strictEqual(parseTestCases('compiled fine'), undefined);
  });

  // Outputs as the runners print them (pytest 9, Python 3.11's unittest, cargo 1.9x, go 1.22, RSpec 3, Gradle 8,
  // dotnet 8), shortened.
  it('recognises pytest (verbose and its summary), unittest, go test, cargo test, RSpec, Gradle and dotnet test cases', () => {
    const pytestV = [
      'tests/test_calc.py::test_add PASSED                                      [ 14%]',
      'tests/test_calc.py::test_mul FAILED                                      [ 28%]',
      'tests/test_calc.py::test_mul_param[1-1-1] FAILED                         [ 42%]',
      'tests/test_calc.py::TestCalc::test_skipped SKIPPED (later)               [ 85%]',
      'tests/test_calc.py::test_error ERROR                                     [100%]',
      '=========================== short test summary info ============================',
      'FAILED tests/test_calc.py::test_mul - assert 5 == 6',
      'FAILED tests/test_calc.py::test_mul_param[1-1-1] - assert 2 == 1',
      'ERROR tests/test_calc.py::test_error',
    ].join('\n');
    assert.deepStrictEqual(readTestCases(pytestV), {
      cases: [
        { name: 'tests/test_calc.py::test_add', passed: true },
        { name: 'tests/test_calc.py::test_mul', passed: false, message: 'assert 5 == 6' },
        { name: 'tests/test_calc.py::test_mul_param[1-1-1]', passed: false, message: 'assert 2 == 1' },
        { name: 'tests/test_calc.py::test_error', passed: false },
      ],
      listsPassed: true,
    });
    // plain `pytest`: progress dots, then only the failures by name
    const pytest = [
      'tests/test_calc.py .FF.sE                                                 [100%]',
      '___________________________________ test_mul ___________________________________',
      'tests/test_calc.py:6: AssertionError',
      '=========================== short test summary info ============================',
      'FAILED tests/test_calc.py::test_mul - assert 5 == 6',
      'ERROR tests/test_other.py - ModuleNotFoundError: No module named \'calc2\'',
      '=============== 1 failed, 3 passed, 1 skipped, 1 error in 1.38s ================',
    ].join('\n');
    assert.deepStrictEqual(readTestCases(pytest), {
      cases: [
        { name: 'tests/test_calc.py::test_mul', passed: false, message: 'assert 5 == 6' },
      ],
      listsPassed: false,
    });
    // a file pytest could not collect did not load: no case
    assert.deepStrictEqual(readAllLines(testCaseReader(), pytest).unloadedFiles(), ['tests/test_other.py']);
    const unittestV = ['test_bad (tests.test_u.TestU.test_bad) ... FAIL', 'test_ok (tests.test_u.TestU.test_ok) ... ok', "test_later (tests.test_u.TestU.test_later) ... skipped 'later'", '', '======', 'FAIL: test_bad (tests.test_u.TestU.test_bad)'].join('\n');
    assert.deepStrictEqual(parseTestCases(unittestV), [
      { name: 'test_bad (tests.test_u.TestU.test_bad)', passed: false },
      { name: 'test_ok (tests.test_u.TestU.test_ok)', passed: true },
    ]);
    const unittest = ['FE.', '======================================================================', 'ERROR: test_err (tests.test_u.TestU.test_err)', '---', 'ValueError: x', 'FAIL: test_bad (tests.test_u.TestU.test_bad)', 'Ran 3 tests in 0.001s', 'FAILED (failures=1, errors=1)'].join('\n');
    assert.deepStrictEqual(readTestCases(unittest)?.cases.map((t) => [t.name, t.passed]), [
      ['test_err (tests.test_u.TestU.test_err)', false],
      ['test_bad (tests.test_u.TestU.test_bad)', false],
    ]);
    assert.strictEqual(readTestCases(unittest)?.listsPassed, false);
    // a test looping over subTests (Python 3.11): the parent's line has no verdict, each failing subTest its own
    const subTests = [
      'test_fine (tests.test_sub.TestS.test_fine) ... ok',
      'test_loop (tests.test_sub.TestS.test_loop) ... ',
      '  test_loop (tests.test_sub.TestS.test_loop) (obj=1) ... FAIL',
      '  test_loop (tests.test_sub.TestS.test_loop) (obj=2.0) ... FAIL',
      '',
      '======================================================================',
      'FAIL: test_loop (tests.test_sub.TestS.test_loop) (obj=1)',
      'AssertionError: 1 is not an instance of <class \'str\'>',
    ].join('\n');
    assert.deepStrictEqual(parseTestCases(subTests), [
      { name: 'test_fine (tests.test_sub.TestS.test_fine)', passed: true },
      { name: 'test_loop (tests.test_sub.TestS.test_loop)', passed: false },
    ]);
    assert.deepStrictEqual(parseTestCases('FAIL: test_loop (tests.test_sub.TestS.test_loop) (obj=1)'), [{ name: 'test_loop (tests.test_sub.TestS.test_loop)', passed: false }], 'without -v');
    const goV = ['=== RUN   TestAdd', '--- PASS: TestAdd (0.00s)', '=== RUN   TestTable', '=== RUN   TestTable/two', '    calc_test.go:21: got 5, want 4', '    --- FAIL: TestTable/two (0.00s)', '--- FAIL: TestTable (0.00s)', '--- SKIP: TestLater (0.00s)', 'FAIL', 'FAIL\texample.com/calc\t0.002s'].join('\n');
    assert.deepStrictEqual(readTestCases(goV), {
      cases: [
        { name: 'example.com/calc.TestAdd', passed: true },
        // under -v the log line before the verdict is the failed test's message (goVerboseLogs.ts)
        { name: 'example.com/calc.TestTable/two', passed: false, message: 'calc_test.go:21: got 5, want 4' },
        { name: 'example.com/calc.TestTable', passed: false },
      ],
      listsPassed: true,
    });
    // without -v, go test names only the failures
    assert.strictEqual(readTestCases(['--- FAIL: TestMul (0.00s)', '    calc_test.go:12: got 5, want 6', 'FAIL'].join('\n'))?.listsPassed, false);
    const cargo = ['running 3 tests', 'test tests::it_adds ... ok', 'test tests::later ... ignored', 'test tests::it_muls ... FAILED', '', 'failures:', '    tests::it_muls', '', 'test result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.16s'].join('\n');
    assert.deepStrictEqual(parseTestCases(cargo), [
      { name: 'tests::it_adds', passed: true },
      { name: 'tests::it_muls', passed: false },
    ]);
    // cargo test -q (cargo 1.9x): a dot per passing test, a failing one on its own line; a doc test named by its file
    // each failure's captured output: the panic's message (Rust 1.73 on: on the line after `panicked at`), its values
    const quiet = [
      'running 3 tests',
      '. 1/3',
      'tests::it_muls --- FAILED',
      'tests::it_boom --- FAILED',
      'src/lib.rs - Version::parse (line 40) --- FAILED',
      '',
      'failures:',
      '',
      '---- tests::it_muls stdout ----',
      '',
      "thread 'tests::it_muls' (493) panicked at src/lib.rs:8:20:",
      'assertion `left == right` failed: sum was wrong',
      '  left: 5',
      ' right: 6',
      'note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace',
      '',
      '---- tests::it_boom stdout ----',
      "thread 'tests::it_boom' panicked at 'no price for SKU-1', src/lib.rs:12:9",
      '',
      'failures:',
      '    tests::it_muls',
      '    tests::it_boom',
      '',
      'test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.22s',
    ].join('\n');
    assert.deepStrictEqual(readTestCases(quiet), {
      cases: [
        { name: 'tests::it_muls', passed: false, message: 'assertion `left == right` failed: sum was wrong — left: 5, right: 6' },
        { name: 'tests::it_boom', passed: false, message: 'no price for SKU-1' },
        { name: 'src/lib.rs - Version::parse (line 40)', passed: false },
      ],
      listsPassed: false,
    });
    const rspec = ['..F', '', 'Failures:', '', '  1) Calc multiplies', '     Failure/Error: expect(mul(2, 3)).to eq(6)', '', '3 examples, 1 failure', '', 'Failed examples:', '', 'rspec ./spec/calc_spec.rb:8 # Calc multiplies'].join('\n');
    assert.deepStrictEqual(readTestCases(rspec), { cases: [{ name: 'Calc multiplies', passed: false }], listsPassed: false });
    const gradle = ['> Task :test', '', 'CalcTest > testAdd() PASSED', '', 'CalcTest > testMul() FAILED', '    org.opentest4j.AssertionFailedError at CalcTest.java:14', '', 'CalcTest > testLater() SKIPPED'].join('\n');
    assert.deepStrictEqual(parseTestCases(gradle), [
      { name: 'CalcTest > testAdd()', passed: true },
      { name: 'CalcTest > testMul()', passed: false },
    ]);
    // Maven Surefire 2.22 (run here with Debian's Maven, colours stripped) and Surefire 3: the failing cases, named
    // the same way
    const surefire2 = [
      '[INFO] Running calc.CalcTest',
      '[ERROR] Tests run: 2, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.074 s <<< FAILURE! - in calc.CalcTest',
      '[ERROR] testMul(calc.CalcTest)  Time elapsed: 0.008 s  <<< FAILURE!',
      'java.lang.AssertionError: expected:<6> but was:<5>',
      '\tat calc.CalcTest.testMul(CalcTest.java:6)',
      '[ERROR] Tests run: 2, Failures: 0, Errors: 1, Skipped: 0, Time elapsed: 0 s <<< FAILURE! - in calc.ErrTest',
      '[ERROR] testBoom(calc.ErrTest)  Time elapsed: 0 s  <<< ERROR!',
      '[ERROR] Failures: ',
      '[ERROR]   CalcTest.testMul:6 expected:<6> but was:<5>',
      '[ERROR] Tests run: 4, Failures: 1, Errors: 1, Skipped: 0',
    ].join('\n');
    assert.deepStrictEqual(readTestCases(surefire2), {
      cases: [
        { name: 'calc.CalcTest.testMul', passed: false, message: 'java.lang.AssertionError: expected:<6> but was:<5>' },
        { name: 'calc.ErrTest.testBoom', passed: false },
      ],
      listsPassed: false,
    });
    const surefire3 = [
      '[ERROR] Tests run: 2, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.034 s <<< FAILURE! -- in calc.CalcTest',
      '[ERROR] calc.CalcTest.testMul -- Time elapsed: 0.005 s <<< FAILURE!',
      'org.opentest4j.AssertionFailedError: expected: <6> but was: <5>',
    ].join('\n');
    assert.deepStrictEqual(parseTestCases(surefire3), [{ name: 'calc.CalcTest.testMul', passed: false, message: 'org.opentest4j.AssertionFailedError: expected: <6> but was: <5>' }]);
    assert.deepStrictEqual(parseTestCases('testMul(calc.CalcTest)  Time elapsed: 0.415 sec  <<< FAILURE!'), [{ name: 'calc.CalcTest.testMul', passed: false }], 'older Surefire');
    const dotnet = ['  Failed CalcTests.Mul [12 ms]', '  Error Message:', '   Assert.Equal() Failure', '  Passed CalcTests.Add [< 1 ms]', 'Failed!  - Failed:     1, Passed:     1, Skipped:     0, Total:     2'].join('\n');
    assert.deepStrictEqual(parseTestCases(dotnet), [
      { name: 'CalcTests.Mul', passed: false },
      { name: 'CalcTests.Add', passed: true },
    ]);
    // lines that only look alike are no test cases
    assert.strictEqual(parseTestCases(['ERROR: could not compile `rs1` (lib)', 'FAILED (failures=1)', 'test result: ok. 3 passed', '--- FAIL: see log'].join('\n')), undefined);
  });

  // CTest 3.25 with --output-on-failure over Unity suites (cJSON's, one assertion broken), shortened
  it('recognises CTest and Unity (C) test cases: the suites CTest ran, the Unity tests inside a failing one', () => {
    const ctest = [
      'Test project /tmp/copy/.cape-cmake-build',
      '      Start  1: cJSON_test',
      ' 1/4 Test  #1: cJSON_test .......................   Passed    0.01 sec',
      '      Start  3: parse_number',
      ' 3/4 Test  #3: parse_number .....................***Failed    0.01 sec',
      '/tmp/copy/tests/parse_number.c:56:parse_number_should_parse_zero:FAIL: Expected 1 Was 0',
      '/tmp/copy/tests/parse_number.c:128:parse_number_should_parse_big_numbers:PASS',
      'tests/parse_number.c:140:parse_number_later:IGNORE',
      '-----------------------',
      '3 Tests 1 Failures 1 Ignored ',
      'FAIL',
      ' 2/4 Test  #2: crashes ..........................***Exception: SegFault  0.01 sec',
      ' 4/4 Test  #4: later ............................***Skipped   0.00 sec',
      '',
      '50% tests passed, 2 tests failed out of 4',
      '',
      'The following tests FAILED:',
      '\t  3 - parse_number (Failed)',
      'Errors while running CTest',
    ].join('\n');
    assert.deepStrictEqual(readTestCases(ctest), {
      cases: [
        { name: 'cJSON_test', passed: true },
        { name: 'parse_number', passed: false },
        { name: 'parse_number_should_parse_zero', passed: false, message: 'Expected 1 Was 0' },
        { name: 'parse_number_should_parse_big_numbers', passed: true },
        { name: 'crashes', passed: false },
      ],
      listsPassed: true,
    });
  });

  // GoogleTest 1.12 (a C++ project's CTest program, run with --output-on-failure), shortened
  it('recognises GoogleTest (C++) test cases: passed, failed, skipped, a parameterised one; not the summary that lists them again', () => {
    const gtest = [
      ' 1/1 Test  #1: calc_test ........................***Failed    0.02 sec',
      '[==========] Running 4 tests from 2 test suites.',
      '[ RUN      ] CalcTest.Adds',
      '[       OK ] CalcTest.Adds (0 ms)',
      '[ RUN      ] CalcTest.Muls',
      '/tmp/copy/test/calc_test.cc:12: Failure',
      'Expected equality of these values:',
      '  mul(2, 3)',
      '    Which is: 5',
      '  6',
      '[  FAILED  ] CalcTest.Muls (1 ms)',
      '[ RUN      ] CalcTest.Later',
      '[  SKIPPED ] CalcTest.Later (0 ms)',
      '[ RUN      ] Sizes/ParamTest.Works/0',
      '[  FAILED  ] Sizes/ParamTest.Works/0, where GetParam() = 3 (0 ms)',
      '[==========] 4 tests from 2 test suites ran. (1 ms total)',
      '[  PASSED  ] 1 test.',
      '[  FAILED  ] 2 tests, listed below:',
      '[  FAILED  ] CalcTest.Muls',
      '[  FAILED  ] Sizes/ParamTest.Works/0, where GetParam() = 3',
      '',
      ' 2 FAILED TESTS',
    ].join('\n');
    assert.deepStrictEqual(readTestCases(gtest), {
      cases: [
        { name: 'calc_test', passed: false },
        { name: 'CalcTest.Adds', passed: true },
        { name: 'CalcTest.Muls', passed: false },
        { name: 'Sizes/ParamTest.Works/0', passed: false },
      ],
      listsPassed: true,
    });
  });

  it('tells a run whose tests ran from one that stopped before them, by each runner\'s summary', () => {
    const ran = [
      '  3 passing (12ms)\n  1 failing', // mocha
      'Tests:       1 failed, 2 passed, 3 total', // jest
      ' Tests  1 failed | 2 passed (3)', // vitest
      '=========== 1 failed, 2 passed in 0.05s ===========', // pytest
      'Ran 3 tests in 0.001s\n\nFAILED (failures=1)', // unittest
      '# tests 3\n# pass 2\n# fail 1', // node:test, TAP
      'ℹ tests 3\nℹ pass 2', // node:test, spec
      '3 examples, 1 failure', // RSpec
      'test result: FAILED. 1 passed; 1 failed; 0 ignored', // cargo
      'FAIL\nFAIL\texample.com/calc\t0.011s', // go test: the binary's verdict, then the package's line
      'ok  \texample.com/calc\t(cached)',
      'ok  \texample.com/calc\t0.011s\tcoverage: 81.2% of statements', // go test -cover
      '3 tests completed, 1 failed', // Gradle
      '[ERROR] Tests run: 2, Failures: 1, Errors: 0, Skipped: 0', // Maven Surefire
      'Failed!  - Failed:     1, Passed:     1, Skipped:     0, Total:     2', // dotnet
    ];
    for (const out of ran) assert.ok(testsRan({ output: out }), out);
    const stopped = [
      "Exception during run: Error: Cannot find module '../nothere'", // mocha, a test file that does not load
      '!!!!!!!! Interrupted: 1 error during collection !!!!!!!!\n1 error in 0.31s', // pytest
      '0 examples, 0 failures, 1 error occurred outside of examples', // RSpec
      'FAIL\texample.com/calc [build failed]\nFAIL', // go test
      'exit status 1\nFAIL\texample.com/calc\t0.011s', // go test: the binary ended before its verdict (os.Exit, a panic)
      '✖ 1 problem (1 error, 0 warnings)', // a linter before the tests
      'error TS2322: Type string is not assignable. Found 1 error.',
    ];
    for (const out of stopped) assert.ok(!testsRan({ output: out }), out);
    assert.ok(testsRan({ output: '', tests: [{ name: 'adds', passed: false }] }), 'cases it named ran');
    assert.ok(testsRan({ output: '', testSummary: true }), 'a summary in the part of the output not kept');
    assert.ok(!testsRan({ output: '  3 passing', testSummary: false }), 'the whole output, read as it came, decides');
    assert.deepStrictEqual([...unbuiltGoFolders('# example.com/m/calc\ncalc/sq_test.go:6:5: undefined: Sq\n./x.go:1:2: bad\nFAIL\texample.com/m/calc [build failed]')], ['calc', '']);
    assert.strictEqual(unbuiltGoFolders('calc/sq_test.go:6: got 5\nFAIL\texample.com/m/calc\t0.01s').size, 0, 'a failing test is no build failure');
  });
});

describe('checks: a fix reply applied to the proposal', () => {
  it('edits the proposed version, replaces with a whole <file>, edits an untouched file on disk, and names what it could not use', async () => {
    const ws = tmp();
    write(ws, 'src/a.js', 'one\ntwo\n');
    write(ws, 'src/b.js', 'bee\n');
    const current: ProposedFile[] = [
      { path: 'src/a.js', relPath: 'src/a.js', absPath: path.join(ws, 'src/a.js'), action: 'modify', status: 'proposed', content: 'one\nTWO\n', currentContent: 'one\ntwo\n', edit: true },
      { path: 'src/c.js', relPath: 'src/c.js', absPath: path.join(ws, 'src/c.js'), action: 'create', status: 'proposed', content: 'c1\n' },
    ];
    const reply = [
      'Fixed.',
      '<edit path="src/a.js">\n<<<<<<< SEARCH\nTWO\n=======\nTwo\n>>>>>>> REPLACE\n</edit>',
      '<file path="src/c.js">\nc2\n</file>',
      '<edit path="src/b.js">\n<<<<<<< SEARCH\nbee\n=======\nBee\n>>>>>>> REPLACE\n</edit>',
      '<edit path="src/missing.js">\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n</edit>',
      '<file path="../outside.js">\nno\n</file>',
    ].join('\n');
    const res = await applyFixReply(ws, 'cape', current, reply);
    const byPath = Object.fromEntries(res.files.map((f) => [f.relPath ?? f.path, f]));
    assert.strictEqual(byPath['src/a.js'].content, 'one\nTwo\n');
    assert.strictEqual(byPath['src/a.js'].currentContent, 'one\ntwo\n', 'the diff stays against the disk');
    assert.strictEqual(byPath['src/c.js'].content, 'c2\n');
    assert.strictEqual(byPath['src/c.js'].action, 'create');
    assert.strictEqual(byPath['src/b.js'].content, 'Bee\n');
    assert.deepStrictEqual(res.changed.map((f) => f.relPath).sort(), ['src/a.js', 'src/b.js', 'src/c.js']);
    assert.strictEqual(res.problems.length, 2, res.problems.join('\n'));
    assert.match(res.problems.join('\n'), /outside\.js/);
    assert.match(res.problems.join('\n'), /src\/missing\.js does not exist/);
    assert.strictEqual(fs.readFileSync(path.join(ws, 'src', 'a.js'), 'utf8'), 'one\ntwo\n');
  });

  it('summarizes per command: last run, runs', () => {
    const run = (command: string, round: number, passed: boolean, exitCode: number | null) => ({ command, round, passed, exitCode, status: passed ? ('passed' as const) : ('failed' as const), durationMs: 1, output: '', outputChars: 0 });
    assert.deepStrictEqual(
      summarizeChecks({ commands: ['a', 'b'], runs: [run('a', 0, true, 0), run('b', 0, false, 2), run('a', 1, true, 0), run('b', 1, false, 1)], fixRounds: [], maxFixRounds: 1, passed: false }),
      [
        { command: 'a', passed: true, exitCode: 0, rounds: 2, status: 'passed' },
        { command: 'b', passed: false, exitCode: 1, rounds: 2, status: 'failed' },
      ],
    );
  });
});

describe('checks: what the retrospective hears', () => {
  const run = (round: number, passed: boolean, status: CheckRun['status'], tests?: CheckRun['tests']): CheckRun => ({
    command: 'node --test',
    round,
    status,
    passed,
    exitCode: passed ? 0 : null,
    durationMs: 1,
    output: 'SECRET OUTPUT',
    outputChars: 13,
    ...(tests ? { tests } : {}),
  });
  const failing = [{ name: 'res.writable › should not be writable', passed: false }, { name: 'ok one', passed: true }];

  it('says per fix round what failed and what DevA did, and names a pass on an unchanged rerun, never the output', () => {
    const text = checksForRetro({
      commands: ['node --test'],
      runs: [run(0, false, 'timeout', failing), run(1, false, 'failed', failing), run(2, true, 'passed')],
      fixRounds: [
        { round: 1, request: 'r', reply: '<edit path="lib/a.js">…</edit>', files: [{ path: 'lib/a.js', content: 'x' }], problems: ['a hunk matched nowhere'] },
        { round: 2, request: 'r', reply: 'No fix blocks: the failing test is about sockets,\nnot my files.', files: [], problems: [] },
      ],
      maxFixRounds: 2,
      passed: true,
    });
    assert.match(text, /- Fix round 1, after `node --test` killed at the time limit \(failing: "res\.writable › should not be writable"\): DevA changed lib\/a\.js \(1 block\(s\) could not be used\)\.\n/);
    assert.match(text, /- Fix round 2, after `node --test` failed \(failing: "res\.writable › should not be writable"\): DevA changed no file: "No fix blocks: the failing test is about sockets, not my files\."\. The check run after it passed with nothing changed: the failure did not come from the proposal/);
    assert.match(text, /Fix rounds used: 2 of 2\. Every check passes on the final proposal\./);
    assert.ok(!text.includes('SECRET OUTPUT') && !text.includes('ok one'));
  });

  it("names a linter's first problems by file and message, never the rest of its output (a Vue trial's retrospective could not say why lint failed)", () => {
    const eslint = [
      '> eslint --fix .',
      '',
      '/w/src/utils/reading-time.ts',
      '  14:9   error  Unsafe assignment of an error typed value  ts/no-unsafe-assignment',
      '  14:16  error  Unsafe call of an `error` type typed value  ts/no-unsafe-call',
      '  16:25  error  Unsafe call of an `error` type typed value  ts/no-unsafe-call',
      '  16:30  error  Unsafe member access .matchAll on an `error` typed value  ts/no-unsafe-member-access',
      '',
      '✖ 4 problems (4 errors, 0 warnings)',
    ].join('\n');
    const lint: CheckRun = { ...run(0, false, 'failed'), command: 'pnpm run lint', exitCode: 1, output: eslint, outputChars: eslint.length };
    const text = checksForRetro({
      commands: ['pnpm run lint'],
      runs: [lint, { ...run(1, true, 'passed'), command: 'pnpm run lint' }],
      fixRounds: [{ round: 1, request: 'r', reply: '', files: [{ path: 'src/utils/reading-time.ts', content: 'x' }], problems: [] }],
      maxFixRounds: 2,
      passed: true,
    });
    assert.match(
      text,
      /- Fix round 1, after `pnpm run lint` failed \(problems: "\/w\/src\/utils\/reading-time\.ts: error Unsafe assignment of an error typed value ts\/no-unsafe-assignment", "\/w\/src\/utils\/reading-time\.ts: error Unsafe call of an `error` type typed value ts\/no-unsafe-call" and 1 more\): DevA changed src\/utils\/reading-time\.ts\./,
    );
    assert.ok(!text.includes('✖ 4 problems') && !text.includes('14:9'), text);
  });

  it('does not call a failure flaky when the rerun fails again or DevA changed a file', () => {
    const text = checksForRetro({
      commands: ['node --test'],
      runs: [run(0, false, 'failed'), run(1, false, 'failed')],
      fixRounds: [{ round: 1, request: 'r', reply: 'Not my files.', files: [], problems: [] }],
      maxFixRounds: 1,
      passed: false,
    });
    assert.match(text, /- Fix round 1, after `node --test` failed: DevA changed no file: "Not my files\."\.\n/);
    assert.doesNotMatch(text, /flaky/);
  });
});

describe('checks: fail-first', () => {
  const run = (passed: boolean, tests?: CheckRun['tests']): CheckRun =>
    recordedRun('node --test', passed, { durationMs: 1, output: 'SECRET OUTPUT', outputChars: 13, ...(tests ? { tests } : {}) });
  const outcome = { commands: ['node --test'], runs: [run(true)], fixRounds: [], maxFixRounds: 2, passed: true };

  it('the retrospective hears which test files ran alone on the unchanged code and how each command fared there', () => {
    const text = checksForRetro({
      ...outcome,
      before: { testFiles: ['test/a.test.js', 'test/b.test.js'], runs: [run(false, [{ name: 'adds', passed: false }, { name: 'old', passed: true }])], notWritten: [] },
    });
    assert.match(text, /- Fail-first, DevA's test files alone \(test\/a\.test\.js, test\/b\.test\.js\) on the unchanged code: `node --test` failed \(failing: "adds"\)\. A test of the change should fail here and pass on the proposal; a regression guard passes in both\.\n/);
    assert.ok(!text.includes('SECRET OUTPUT'));
    // the failures are the point here: up to 8 are named (a fix round's line names 3)
    const ten = Array.from({ length: 10 }, (_, i) => ({ name: `case ${i + 1}`, passed: false }));
    const many = checksForRetro({ ...outcome, before: { testFiles: ['test/a.test.js'], runs: [run(false, ten)], notWritten: [] } });
    assert.match(many, /failed \(failing: "case 1", "case 2", "case 3", "case 4", "case 5", "case 6", "case 7", "case 8" and 2 more\)/);
    assert.match(checksForRetro({ ...outcome, before: { testFiles: [], runs: [], notWritten: [] } }), /- Fail-first: DevA's final proposal has no test file, so nothing ran on the unchanged code\./);
    // a run that stopped before any test (a Go package that did not build without the change) says so
    const unbuilt = checksForRetro({ ...outcome, before: { testFiles: ['calc/sq_test.go'], runs: [{ ...run(false), command: 'go test ./...', unbuilt: true }], notWritten: [] } });
    assert.match(unbuilt, /on the unchanged code: `go test \.\/\.\.\.` failed: DevA's tests did not build or load without the change\. A test of the change/);
    assert.doesNotMatch(checksForRetro(outcome), /Fail-first/, 'not asked for: not mentioned');
  });

  it('only the proposal\'s test files are applied; a stored outcome with a malformed fail-first record is not trusted', () => {
    const f = (relPath: string, status: ProposedFile['status'] = 'proposed') => ({ path: relPath, relPath, content: 'x', status, action: 'create' }) as ProposedFile;
    const picked = proposedTestFiles([f('src/a.js'), f('test/a.test.js'), f('src/b.spec.ts'), f('test/evil.test.js', 'refused'), f('tests/test_calc.py'), f('calc_test.go')]);
    assert.deepStrictEqual(picked.map((x) => x.relPath), ['test/a.test.js', 'src/b.spec.ts', 'tests/test_calc.py', 'calc_test.go']);
    assert.ok(isChecksOutcome({ ...outcome, before: { testFiles: ['test/a.test.js'], runs: [run(false)], notWritten: [] } }));
    assert.ok(!isChecksOutcome({ ...outcome, before: { testFiles: 'test/a.test.js', runs: [] } }));
  });

  it('runs the final proposal\'s tests alone in a fresh copy after the loop (events marked before); Stop cancels it', async () => {
    const ws = tmp();
    write(ws, 'package.json', '{"name":"w","private":true}\n');
    write(ws, 'src/add.js', 'exports.add = (a, b) => a - b;\n');
    // the check prints which of src/add.js's behaviours hold, as node:test-like ✔ / ✖ lines
    const check = `node -e "const {add}=require('./src/add');const t=require('fs').existsSync('test/add.test.js');console.log((add(2,2)===4?'✔':'✖')+' adds');console.log(t?'✔ has a test':'✖ has a test');process.exit(add(2,2)===4&&t?0:1)"`;
    const files = [
      { path: 'src/add.js', relPath: 'src/add.js', content: 'exports.add = (a, b) => a + b;\n', status: 'proposed', action: 'modify' },
      { path: 'test/add.test.js', relPath: 'test/add.test.js', content: '// adds\n', status: 'proposed', action: 'create' },
    ] as ProposedFile[];
    const events: CheckEvent[] = [];
    const { outcome: o } = await runCheckLoop({ commands: [check], failFirst: true, workspace: ws, capeFolder: 'cape', files, askFix: async () => '', onEvent: (e) => events.push(e) });
    assert.strictEqual(o.passed, true);
    assert.deepStrictEqual(o.before!.testFiles, ['test/add.test.js']);
    assert.deepStrictEqual(o.before!.runs.map((r) => [r.passed, r.tests]), [[false, [{ name: 'adds', passed: false }, { name: 'has a test', passed: true }]]], 'the test file is there, the fix is not');
    assert.deepStrictEqual(
      events.map((e) => `${e.type}${'before' in e && e.before ? ' before' : ''}`),
      ['check-started', 'check-finished', 'check-started before', 'check-finished before', 'checks-finished'],
    );
    assert.strictEqual(fs.readFileSync(path.join(ws, 'src/add.js'), 'utf8'), 'exports.add = (a, b) => a - b;\n', 'the user\'s tree untouched');
    // Stop during the fail-first run: the loop is cancelled like any check
    const stop = new AbortController();
    const slow = `node -e "if (require('fs').existsSync('src/add.js') && require('./src/add').add(2,2)===4) process.exit(0); setTimeout(() => {}, 60000)"`;
    await assert.rejects(
      runCheckLoop({ commands: [slow], failFirst: true, workspace: ws, capeFolder: 'cape', files, askFix: async () => '', signal: stop.signal, onEvent: (e) => e.type === 'check-started' && e.before && setTimeout(() => stop.abort(), 200) }),
      CheckCancelled,
    );
    // no test file in the proposal: nothing runs before, and that is recorded
    const none = await runCheckLoop({ commands: [check], failFirst: true, workspace: ws, capeFolder: 'cape', files: files.slice(0, 1), askFix: async () => '' });
    assert.deepStrictEqual(none.outcome.before, { testFiles: [], runs: [], notWritten: [] });
  });

  it('skips static checks: a linter on the unchanged code runs no test, so its verdict proves nothing there', async () => {
    const ws = tmp();
    write(ws, 'package.json', '{"name":"w","private":true}\n');
    write(ws, 'src/add.js', 'exports.add = (a, b) => a - b;\n');
    // the "linter" counts its runs in a file outside the workspace, so a run in any scratch copy is seen
    const counter = path.join(tmp(), 'lint-runs');
    write(ws, 'lint.js', `require('fs').appendFileSync(${JSON.stringify(counter)}, 'x');\n`);
    const test = `node -e "process.exit(require('./src/add').add(2,2)===4?0:1)"`;
    const files = [
      { path: 'src/add.js', relPath: 'src/add.js', content: 'exports.add = (a, b) => a + b;\n', status: 'proposed', action: 'modify' },
      { path: 'test/add.test.js', relPath: 'test/add.test.js', content: '// adds\n', status: 'proposed', action: 'create' },
    ] as ProposedFile[];
    const events: CheckEvent[] = [];
    const { outcome: o } = await runCheckLoop({ commands: ['node lint.js', test], failFirst: true, workspace: ws, capeFolder: 'cape', files, askFix: async () => '', onEvent: (e) => events.push(e) });
    assert.strictEqual(o.passed, true);
    assert.strictEqual(fs.readFileSync(counter, 'utf8'), 'x', 'the linter ran once, on the proposal only');
    assert.deepStrictEqual(o.before!.runs.map((r) => [r.command, r.passed]), [[test, false]]);
    assert.deepStrictEqual(o.before!.skipped, ['node lint.js']);
    assert.deepStrictEqual(events.filter((e) => e.type === 'check-started' && e.before).map((e) => e.type === 'check-started' && e.command), [test]);
    assert.match(checksForRetro(o), /on the unchanged code: `node -e .*` failed \(`node lint\.js` not run: a static check runs no test\)\./);
    assert.ok(isChecksOutcome(o), 'the record with its skipped checks is read back');
    assert.ok(!isChecksOutcome({ ...o, before: { ...o.before!, skipped: [3] } }));
  });
});

describe('checks: a failure compared with the unchanged workspace', () => {
  // src/add.js holds a bug on disk; the check reports a legacy test that always fails, "adds", and a test of a
  // feature flag the proposal may break
  const check = `node -e "const a=require('./src/add');const r=[['legacy',false],['adds',a.add(2,2)===4],['flag',!a.broken]];for(const [n,ok] of r)console.log((ok?'✔ ':'✖ ')+n);process.exit(r.every(x=>x[1])?0:1)"`;
  const ws = () => {
    const dir = tmp();
    write(dir, 'src/add.js', 'exports.add = (a, b) => a - b;\n');
    return dir;
  };
  const proposal = (content: string) => [{ path: 'src/add.js', relPath: 'src/add.js', content, status: 'proposed', action: 'modify' }] as ProposedFile[];

  it('a failure that was already there (the same test cases fail on the unchanged code) gets no fix round', async () => {
    const events: CheckEvent[] = [];
    let asked = 0;
    const { outcome } = await runCheckLoop({ commands: [check], workspace: ws(), capeFolder: 'cape', files: proposal('exports.add = (a, b) => a + b;\n'), askFix: async () => (asked++, ''), onEvent: (e) => events.push(e) });
    assert.strictEqual(asked, 0, 'DevA is not asked to fix a legacy failure');
    assert.strictEqual(outcome.passed, false);
    assert.strictEqual(outcome.failsAsBefore, true);
    assert.deepStrictEqual(outcome.baseline!.map((r) => r.tests), [[{ name: 'legacy', passed: false }, { name: 'adds', passed: false }, { name: 'flag', passed: true }]]);
    assert.deepStrictEqual(outcome.runs.length, 1, 'the baseline run is no round');
    assert.deepStrictEqual(
      events.map((e) => `${e.type}${'baseline' in e && e.baseline ? ' baseline' : ''}${e.type === 'checks-finished' && e.failsAsBefore ? ' failsAsBefore' : ''}`),
      ['check-started', 'check-finished', 'check-started baseline', 'check-finished baseline', 'checks-finished failsAsBefore'],
    );
    const retro = checksForRetro(outcome);
    assert.match(retro, /- On the unchanged workspace \(nothing of DevA's applied\), after its first failure: `node -e [^`]*` failed \(failing: "legacy", "adds"\)\./);
    assert.match(retro, /Fix rounds used: 0 of 2\. The final proposal fails only as the unchanged workspace does \(the same failing test cases or problems, the same output where it names neither, or killed at the time limit there too\): the failure was already there, so no fix round was asked for it\./);
  });

  it('a new failure gets its fix round, the request telling the failures already there from the new ones; the unchanged code runs once', async () => {
    const requests: string[] = [];
    const { outcome } = await runCheckLoop({
      commands: [check],
      fixRounds: 2,
      workspace: ws(),
      capeFolder: 'cape',
      files: proposal('exports.add = (a, b) => a + b;\nexports.broken = true;\n'),
      askFix: async (r) => (requests.push(r), 'Not mine.'),
    });
    assert.strictEqual(requests.length, 1, 'an answer that changed no file ends the rounds: asking again brings the same answer');
    assert.strictEqual(outcome.fixDeclined, true);
    assert.strictEqual(outcome.runs.length, 2, 'the checks ran again after it (a flaky failure would pass there)');
    assert.match(checksForRetro(outcome), /DevA's last fix round changed no file \(it held the failure not its own\), so it was not asked again/);
    // an answer whose blocks could not be used is no answer that the failure is not DevA's: it is asked again
    const asked: string[] = [];
    const bad = '<edit path="src/add.js">\n<<<<<<< SEARCH\nno such line\n=======\nx\n>>>>>>> REPLACE\n</edit>';
    const again = await runCheckLoop({ commands: [check], fixRounds: 2, workspace: ws(), capeFolder: 'cape', files: proposal('exports.add = (a, b) => a + b;\nexports.broken = true;\n'), askFix: async (r) => (asked.push(r), asked.length === 1 ? bad : 'Not mine.') });
    assert.strictEqual(asked.length, 2);
    assert.strictEqual(again.outcome.fixRounds[0].problems.length, 1);
    assert.ok(!again.outcome.fixDeclined, 'the rounds ran out first');
    assert.match(requests[0], /On the unchanged workspace \(nothing of yours applied\) this command fails too \(exit code 1\)\.\nFailing there too \(not caused by your files; leave them alone\):\n- legacy\nNew with your proposal \(fix these\):\n- flag\n/);
    assert.strictEqual(outcome.baseline!.length, 1, 'once per command, not per round');
    assert.ok(!outcome.failsAsBefore);
    // a command passing on the unchanged code: the failure is the proposal's (unless a test is flaky)
    const clean = tmp();
    write(clean, 'src/add.js', 'exports.add = (a, b) => a + b;\n');
    const seen: string[] = [];
    const passing = `node -e "process.exit(require('./src/add').add(2,2)===4?0:1)"`;
    await runCheckLoop({ commands: [passing], fixRounds: 1, workspace: clean, capeFolder: 'cape', files: proposal('exports.add = (a, b) => a * 3;\n'), askFix: async (r) => (seen.push(r), '') });
    assert.match(seen[0], /On the unchanged workspace \(nothing of yours applied\) this command passed\. A test failing only on your proposal usually fails because of it; one far from your change may be flaky \(timing, network\)\./);
  });
});

describe('checks: a run that did not finish or build is no failure as before', () => {
  const run = (status: CheckRun['status'], output: string, extra: Partial<CheckRun> = {}): CheckRun => ({
    command: 'npm test',
    round: 0,
    status,
    passed: false,
    exitCode: status === 'failed' ? 1 : null,
    durationMs: 1,
    output,
    outputChars: output.length,
    tests: [{ name: 'old flaky', passed: false }],
    ...extra,
  });
  const base = run('failed', 'not ok 1 - old flaky\nok 2 - adds\nok 3 - multiplies');

  it('the same failing test case, but the run was killed at the time limit or did not build: not as before', () => {
    assert.strictEqual(failsAsBefore(run('failed', 'not ok 1 - old flaky\nok 2 - adds'), base), true, 'the control: the same failure');
    assert.strictEqual(failsAsBefore(run('timeout', 'not ok 1 - old flaky\n# running: multiplies'), base), false, 'the tests after it never ran');
    assert.strictEqual(failsAsBefore(run('timeout', 'not ok 1 - old flaky'), run('timeout', 'not ok 1 - old flaky')), true, 'killed there too');
    const unbuilt = run('failed', ' FAIL  test/new.test.ts\nError: Failed to resolve import "../src/missing"', { unbuilt: true });
    assert.strictEqual(failsAsBefore(unbuilt, base), false, "DevA's test file did not load");
    assert.strictEqual(failsAsBefore(unbuilt, { ...base, unbuilt: true }), true, 'it did not load there either');
  });

  it("Go: a package that did not build only with the proposal is not as before, though another did not build there either", () => {
    const go = (pkgs: string[]) => run('failed', ['--- FAIL: TestOld (0.00s)', ...pkgs.map((p) => `FAIL\t${p} [build failed]`)].join('\n'), { unbuilt: true, tests: [{ name: 'TestOld', passed: false }] });
    assert.strictEqual(failsAsBefore(go(['example.com/a', 'example.com/b']), go(['example.com/a'])), false);
    assert.strictEqual(failsAsBefore(go(['example.com/a']), go(['example.com/a'])), true);
  });
});

describe('checks: a linter\'s failure compared with the unchanged workspace (problems, lines aside)', () => {
  it('names problems by file and message, without line and column: tsc, file:line:col, ESLint stylish', () => {
    const out = [
      "src/a.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.",
      'lib/b.js:3:1: warning: unused variable x',
      'lib/b.js:9: error: missing semicolon',
      '/repo/src/c.ts',
      "  4:10  error  'y' is assigned a value but never used  no-unused-vars",
      '  7:1   warning  Unexpected console statement  no-console',
      '',
      '✖ 2 problems (1 error, 1 warning)',
      '    at Object.<anonymous> (src/a.js:10:3)',
    ].join('\n');
    assert.deepStrictEqual(problemKeys(out), [
      "src/a.ts: error TS2322: Type 'string' is not assignable to type 'number'.",
      'lib/b.js: warning: unused variable x',
      'lib/b.js: error: missing semicolon',
      "/repo/src/c.ts: error 'y' is assigned a value but never used no-unused-vars",
      '/repo/src/c.ts: warning Unexpected console statement no-console',
    ]);
    // rustc / clippy (cargo 1.9x), ruff and mypy as they print
    const rust = [
      '    Checking rs1 v0.1.0 (/tmp/rs1)',
      'error[E0308]: mismatched types',
      '  --> src/lib.rs:14:36',
      '   |',
      '14 | pub fn bad() -> i32 { let x: i32 = "s"; x }',
      '   |                              ---   ^^^ expected `i32`, found `&str`',
      'warning: unused variable: `y`',
      ' --> src/main.rs:3:9',
      "error: could not compile `rs1` (lib) due to 1 previous error",
      'src/calc.py:1:8: F401 [*] `os` imported but unused',
      'src/calc.py:4: error: Incompatible return value type (got "str", expected "int")  [return-value]',
    ].join('\n');
    assert.deepStrictEqual(problemKeys(rust), [
      'src/lib.rs: error[E0308]: mismatched types',
      'src/main.rs: warning: unused variable: `y`',
      'src/calc.py: F401 [*] `os` imported but unused',
      'src/calc.py: error: Incompatible return value type (got "str", expected "int")  [return-value]',
    ]);
    assert.strictEqual(wasTrimmed(trimForModel('x\n'.repeat(5000), 200)), true);
    assert.strictEqual(wasTrimmed('short'), false);
  });

  // a "linter": every TODO in src/ is an error naming file and line; the unchanged code has one in src/old.js
  const lint = `node -e "const fs=require('fs');let n=0;for(const f of fs.readdirSync('src').sort()){fs.readFileSync('src/'+f,'utf8').split('\\n').forEach((l,i)=>{if(l.includes('TODO')){console.log('src/'+f+':'+(i+1)+':1: error: TODO left');n++}})}process.exit(n?1:0)"`;
  const ws = () => {
    const dir = tmp();
    write(dir, 'src/old.js', '// TODO tidy\nexports.old = 1;\n');
    return dir;
  };
  const file = (relPath: string, content: string) => ({ path: relPath, relPath, content, status: 'proposed', action: 'modify' }) as ProposedFile;

  it('the same problems on other lines: already there, no fix round; a new one: a fix round naming both kinds', async () => {
    let asked = 0;
    const moved = await runCheckLoop({ commands: [lint], workspace: ws(), capeFolder: 'cape', files: [file('src/old.js', '// header\n\n// TODO tidy\nexports.old = 2;\n')], askFix: async () => (asked++, '') });
    assert.strictEqual(asked, 0, 'the TODO moved to line 3 is the same problem');
    assert.strictEqual(moved.outcome.failsAsBefore, true);
    const requests: string[] = [];
    const added = await runCheckLoop({
      commands: [lint],
      fixRounds: 1,
      workspace: ws(),
      capeFolder: 'cape',
      files: [file('src/new.js', '// TODO write\n')],
      askFix: async (r) => (requests.push(r), ''),
    });
    assert.ok(!added.outcome.failsAsBefore);
    assert.match(requests[0], /this command fails too \(exit code 1\)\.\nProblems \(lines aside\) there too \(not caused by your files; leave them alone\):\n- src\/old\.js: error: TODO left\nNew with your proposal \(fix these\):\n- src\/new\.js: error: TODO left\n/);
  });
});

describe('checks: the fix request', () => {
  const base = { command: 'node --test', round: 0, exitCode: null, durationMs: 1, output: 'tail of the output', outputChars: 18 };

  it('names the failing test cases from the whole output before the trimmed output, and says when none failed', () => {
    const tests = [
      { name: 'keeps a vendor json type', passed: true },
      ...Array.from({ length: 12 }, (_, i) => ({ name: `socket case ${i + 1}`, passed: false })),
    ];
    const text = fixRequest([{ ...base, status: 'failed', passed: false, exitCode: 1, tests }], 1, 2);
    assert.match(text, /\$ node --test\n\(exited with code 1\)\nTest cases the runner reported: 1 passed, 12 failed:\n- socket case 1\n/);
    assert.match(text, /- socket case 10\n- and 2 more\n```text\ntail of the output/);
    assert.ok(!text.includes('- keeps a vendor json type'));
    const hung = fixRequest([{ ...base, status: 'timeout', passed: false, tests: [{ name: 'a', passed: true }] }], 1, 2);
    assert.match(hung, /\(killed at the time limit\)\nTest cases the runner reported: 1 passed, 0 failed \(the run did not finish: a test that never ends, or a slow suite\)\./);
    assert.doesNotMatch(fixRequest([{ ...base, status: 'failed', passed: false, exitCode: 2 }], 1, 2), /Test cases the runner reported/, 'none recognised: nothing said');
  });

  it("names first the failing cases the unchanged workspace's run did not fail: DevA's own, on a suite that already fails", () => {
    const old = Array.from({ length: 12 }, (_, i) => ({ name: `old case ${i + 1}`, passed: false }));
    const tests = [...old.slice(0, 6), { name: 'new case', passed: false }, ...old.slice(6)];
    const unchanged = { ...base, status: 'failed' as const, passed: false, exitCode: 1, tests: old };
    const text = fixRequest([{ ...base, status: 'failed', passed: false, exitCode: 1, tests }], 1, 2, [], [], () => unchanged);
    assert.match(text, /Test cases the runner reported: 0 passed, 13 failed:\n- new case\n- old case 1\n/);
    assert.match(text, /New with your proposal \(fix these\):\n- new case\n/);
    // without that run, the runner's order
    assert.match(fixRequest([{ ...base, status: 'failed', passed: false, exitCode: 1, tests }], 1, 2), /13 failed:\n- old case 1\n/);
  });

  it('says how the tests DevA named fared: passed, failed, or not in the output', () => {
    const tests = [
      { name: 'res.body › should keep a vendor json type', passed: true },
      { name: 'res.body › should keep application/ld+json', passed: true },
      { name: 'res.writable › should not be writable', passed: false },
    ];
    const named = ['should keep a vendor json type', 'should keep application/ld+json', 'should not be writable', 'a test that never ran'];
    const text = fixRequest([{ ...base, status: 'failed', passed: false, exitCode: 1, tests }], 1, 2, [], named);
    assert.match(text, /- res\.writable › should not be writable\nOf the 4 test\(s\) you named in criteria_tests: 2 passed, 1 failed, 1 not in the output\.\n```text/);
    assert.doesNotMatch(fixRequest([{ ...base, status: 'failed', passed: false, exitCode: 1, tests }], 1, 2), /you named/, 'none named: nothing said');
  });

  it('a named test in a file vitest or jest reports passed as a whole passed, though the runner lists other files\' cases', () => {
    // vitest 3: a failing file's cases are all listed, a passing file is one line
    const output = [' ✓ test/excess.test.ts (2 tests) 3ms', ' ❯ test/colour.test.ts (2 tests | 1 failed) 10ms', '   ✓ colour > adds 1ms', '   × colour > multiplies 8ms'].join('\n');
    const tests = readTestCases(output)!.cases;
    const named = [{ name: 'lists the extra arguments', file: 'test/excess.test.ts' }, { name: 'multiplies', file: 'test/colour.test.ts' }, 'a test that never ran'];
    const text = fixRequest([{ ...base, command: 'npx vitest run', status: 'failed', passed: false, exitCode: 1, output, tests }], 1, 2, [], named);
    assert.match(text, /Of the 3 test\(s\) you named in criteria_tests: 1 passed, 1 failed, 1 not in the output\./);
  });

  it('with a runner that names only failing cases, says how many failed and that the others named did not fail', () => {
    const tests = [{ name: 'tests/test_calc.py::test_mul', passed: false }];
    const text = fixRequest([{ ...base, command: 'python -m pytest', status: 'failed', passed: false, exitCode: 1, tests, onlyFailuresNamed: true }], 1, 2, [], ['test_mul', 'test_add']);
    assert.match(text, /Test cases the runner reported: 1 failed \(it names only failing ones\):\n- tests\/test_calc\.py::test_mul\nOf the 2 test\(s\) you named in criteria_tests: 1 did not fail, 1 failed\./);
  });

  it('a subtest named in criteria_tests is not counted failed for its parent (go test, a chi trial)', () => {
    const output = ['--- FAIL: TestPatterns (0.00s)', '    --- FAIL: TestPatterns/with_a_tab (0.00s)', '        mux_test.go:40: got 404', 'FAIL'].join('\n');
    const read = readTestCases(output)!;
    const text = fixRequest([{ ...base, command: 'go test ./...', status: 'failed', passed: false, exitCode: 1, output, tests: read.cases, onlyFailuresNamed: !read.listsPassed }], 1, 2, [], ['TestPatterns/with_a_tab', 'TestPatterns/with_one_space']);
    assert.match(text, /Of the 2 test\(s\) you named in criteria_tests: 1 did not fail, 1 failed\./);
  });
});
