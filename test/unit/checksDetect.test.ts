// src/core/checks/detect.ts and formatters.ts: the package manager that runs a JavaScript project's detected scripts;
// configuration files read in linear time.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { detectedChecks, detectFormatter } from '../../src/core';

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'cape-unit-detect-'));
}

function write(root: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

describe('checks: the package manager of detected scripts', function () {
  before(function () {
    if (process.platform === 'win32') this.skip(); // the fake programs below are shell scripts
  });

  it("the lockfile's or packageManager field's manager when it is on PATH, else npm (a missing pnpm fails every run)", async () => {
    const bin = tmp();
    const savedPath = process.env.PATH;
    process.env.PATH = bin; // no pnpm, yarn or bun
    const commands = async (ws: string) => (await detectedChecks(ws)).commands.map((c) => c.command);
    try {
      const pnpm = tmp();
      write(pnpm, 'package.json', JSON.stringify({ scripts: { lint: 'eslint .', test: 'vitest' } }));
      write(pnpm, 'pnpm-lock.yaml', "lockfileVersion: '9.0'\n");
      assert.deepStrictEqual(await commands(pnpm), ['npm run lint', 'npm test'], 'pnpm is not installed');
      const corepack = tmp();
      write(corepack, 'package.json', JSON.stringify({ packageManager: 'yarn@4.1.0', scripts: { test: 'jest' } }));
      assert.deepStrictEqual(await commands(corepack), ['npm test']);
      for (const name of ['pnpm', 'yarn']) {
        write(bin, name, '#!/bin/sh\nexit 0\n');
        fs.chmodSync(path.join(bin, name), 0o755);
      }
      assert.deepStrictEqual(await commands(pnpm), ['pnpm run lint', 'pnpm run test']);
      assert.deepStrictEqual(await commands(corepack), ['yarn run test'], 'no lockfile: the packageManager field names it');
    } finally {
      process.env.PATH = savedPath;
    }
  });
});

describe('checks: configuration files read in linear time', () => {
  it('a pyproject.toml or .pre-commit-config.yaml of a megabyte of blank lines is read, what it says still found', async () => {
    // A line-start pattern that crosses blank lines is retried from each of them: quadratic (pyproject.toml's pytest
    // requirement took 20 s on 120 KB) or cubic (the pre-commit hook, 24 s on 3 KB). On a megabyte those take hours
    // (the suite's timeout fails the test), the linear patterns milliseconds. No time is asserted here.
    const MB = 1_000_000;
    const ws = tmp();
    write(ws, 'pyproject.toml', '[project]\nname = "x"\n' + '  \n'.repeat(MB / 3) + '[dependency-groups]\ndev = [\n  "pytest>=8",\n]\n');
    write(ws, '.pre-commit-config.yaml', 'repos:\n' + '\n \n'.repeat(MB / 3) + '  - repo: local\n    hooks:\n      - id: black\n');
    // the project's own Python and Black (a virtual environment's, on any platform), so what is found does not
    // depend on what this machine has installed
    for (const program of ['.venv/bin/python', '.venv/bin/black', '.venv/Scripts/python.exe', '.venv/Scripts/black.exe']) write(ws, program, '');
    assert.deepStrictEqual(
      (await detectedChecks(ws)).commands.map((c) => c.reason),
      ['pyproject.toml lists pytest among its requirements'],
    );
    assert.strictEqual((await detectFormatter(ws))?.name, 'Black', 'the pre-commit hook names Black');
  });
});

describe("checks: a Makefile's test target where nothing else runs the tests", function () {
  before(function () {
    if (process.platform === 'win32') this.skip(); // the fake make below is a shell script
  });

  it('`make test` (else `make check`) for a C project; never beside a language’s own test command; none without make', async () => {
    const bin = tmp();
    const savedPath = process.env.PATH;
    process.env.PATH = bin;
    const commands = async (ws: string) => (await detectedChecks(ws)).commands.map((c) => c.command);
    try {
      const c = tmp();
      write(c, 'Makefile', 'CFLAGS = -O0\n.PHONY: test\ntest: tests.c lib.c\n\t$(CC) $(CFLAGS) -o $@ tests.c lib.c\n\t./$@\n');
      assert.deepStrictEqual(await commands(c), [], 'make is not on PATH');
      write(bin, 'make', '#!/bin/sh\nexit 0\n');
      fs.chmodSync(path.join(bin, 'make'), 0o755);
      const found = (await detectedChecks(c)).commands;
      assert.deepStrictEqual(found.map((x) => [x.command, x.reason]), [['make test', 'Makefile target "test"']]);

      const gnu = tmp();
      write(gnu, 'GNUmakefile', 'all check: lib.a\n\t./run-tests\n');
      assert.deepStrictEqual(await commands(gnu), ['make check'], "GNU's name, one of a rule's several targets");

      const both = tmp();
      write(both, 'Makefile', 'test:\n\t./run-tests\n');
      write(both, 'makefile', 'check:\n\t./run-checks\n');
      const read = (await detectedChecks(both)).commands;
      assert.deepStrictEqual(read.map((x) => [x.command, x.reason]), [['make check', 'makefile target "check"']], 'the Makefile make reads: `makefile` before `Makefile`');

      const notRules = tmp();
      write(notRules, 'Makefile', '.PHONY: test check\ntest := 1\ncheck ::= 2\ntest: CFLAGS += -g\nall:\n\tcc x.c\n');
      assert.deepStrictEqual(await commands(notRules), [], 'a variable, a target-specific variable and .PHONY define no target');

      const go = tmp();
      write(go, 'go.mod', 'module example.com/x\n\ngo 1.20\n');
      write(go, 'Makefile', 'test:\n\tgo test -race ./...\n');
      write(bin, 'go', '#!/bin/sh\nexit 0\n');
      fs.chmodSync(path.join(bin, 'go'), 0o755);
      assert.deepStrictEqual(await commands(go), ['go vet ./...', 'go test ./...'], "the toolchain's own test command, not the Makefile's as well");

      const sub = tmp();
      write(sub, 'Makefile', 'test:\n\tcd web && npm test\n');
      write(sub, 'web/package.json', JSON.stringify({ scripts: { test: 'vitest' } }));
      assert.deepStrictEqual(await commands(sub), ['cd web && npm test'], "a sub-project's test command found: no Makefile target beside it");
    } finally {
      process.env.PATH = savedPath;
    }
  });

  it("CTest where the CMake build declares tests (cJSON's), before a Makefile's target; none without cmake and ctest", async () => {
    const bin = tmp();
    const savedPath = process.env.PATH;
    process.env.PATH = bin;
    const found = async (ws: string) => (await detectedChecks(ws)).commands.map((c) => [c.command.replace(/--parallel \d+/, '--parallel N'), c.reason]);
    const ctest = 'cmake -S . -B .cape-cmake-build && cmake --build .cape-cmake-build --parallel N && cd .cape-cmake-build && ctest --output-on-failure';
    try {
      const lib = tmp();
      write(lib, 'CMakeLists.txt', 'project(mini C)\nadd_library(mini mini.c)\n# enable_testing() is for later\nadd_subdirectory(tests)\n');
      write(lib, 'tests/CMakeLists.txt', 'add_executable(parse_number parse_number.c)\nADD_TEST(NAME parse_number COMMAND parse_number)\n');
      write(lib, 'Makefile', 'test: tests\n\t./demo\n');
      for (const p of ['make', 'cmake']) {
        write(bin, p, '#!/bin/sh\nexit 0\n');
        fs.chmodSync(path.join(bin, p), 0o755);
      }
      assert.deepStrictEqual(await found(lib), [['make test', 'Makefile target "test"']], 'no ctest on PATH: the Makefile\'s target');
      write(bin, 'ctest', '#!/bin/sh\nexit 0\n');
      fs.chmodSync(path.join(bin, 'ctest'), 0o755);
      assert.deepStrictEqual(await found(lib), [[ctest, 'tests/CMakeLists.txt declares tests (CTest)']]);

      const root = tmp();
      write(root, 'CMakeLists.txt', 'project(x CXX)\nif(BUILD_TESTING)\n  include(CTest)\nendif()\n');
      assert.deepStrictEqual(await found(root), [[ctest, 'CMakeLists.txt declares tests (CTest)']]);

      const noTests = tmp();
      write(noTests, 'CMakeLists.txt', 'project(parson C)\ninclude(GNUInstallDirs)\nadd_library(parson parson.c)\n');
      write(noTests, 'Makefile', 'test:\n\t./test\n');
      assert.deepStrictEqual(await found(noTests), [['make test', 'Makefile target "test"']], "a CMake build that declares no tests (parson's): the Makefile's target");
    } finally {
      process.env.PATH = savedPath;
    }
  });
});
