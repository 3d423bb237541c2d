/**
 * extensionTestsPath entry: runs inside the real extension host (code-server via test/vscode/runIntegration.ts, or
 * desktop VS Code via test/vscode/runElectron.ts). Same contract as @vscode/test-electron: export run(), resolve when
 * every test passed, reject otherwise (the workbench then reports exit code 1).
 *
 * It runs mocha (from the extension's node_modules) over every *.test.js under out/test/integration/ (this file's
 * folder), and writes a result JSON so callers can assert on more than the exit code.
 *
 * Environment (set on code-server with `--env`/CodeServerOptions.env; the extension host inherits it):
 *   CAPE_INTEGRATION_TESTS_DIR  folder to collect *.test.js from (default: this file's folder)
 *   CAPE_TEST_GREP              only run tests whose full title matches this regular expression
 *   CAPE_TEST_RESULT_FILE       where to write the result JSON (default: test-output/integration-result.json)
 */
import * as fs from 'fs';
import * as path from 'path';
import type MochaType from 'mocha';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

export interface IntegrationTestResult {
  passes: number;
  failures: number;
  pending: number;
  total: number;
  durationMs: number;
  files: string[];
  tests: { fullTitle: string; state: 'passed' | 'failed' | 'pending'; durationMs?: number; error?: string }[];
  vscodeVersion?: string;
  pid: number;
}

/** All files under `dir` (recursively) whose name ends with `.test.js`, sorted; symlinked dirs are not followed. */
export function findTestFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory() && e.name !== 'node_modules') walk(p);
      else if (e.isFile() && e.name.endsWith('.test.js')) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

/** mocha 12 is an ES module; require() of it (Node ≥ 20.19) yields the namespace, older builds the class itself. */
function loadMocha(): typeof MochaType {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require('mocha');
  const ctor = mod.Mocha ?? mod.default ?? mod;
  if (typeof ctor !== 'function') throw new Error('could not load mocha from the extension\'s node_modules');
  return ctor as typeof MochaType;
}

function vscodeVersion(): string | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('vscode') as { version: string }).version;
  } catch {
    return undefined;
  }
}

export function run(): Promise<void> {
  const Mocha = loadMocha();
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, reporter: 'spec', color: false });
  if (process.env.CAPE_TEST_GREP) mocha.grep(new RegExp(process.env.CAPE_TEST_GREP));
  const dir = process.env.CAPE_INTEGRATION_TESTS_DIR || __dirname;
  const files = findTestFiles(dir);
  const resultFile = process.env.CAPE_TEST_RESULT_FILE || path.join(REPO_ROOT, 'test-output', 'integration-result.json');
  const started = Date.now();
  const result: IntegrationTestResult = {
    passes: 0, failures: 0, pending: 0, total: 0, durationMs: 0, files, tests: [], vscodeVersion: vscodeVersion(), pid: process.pid,
  };
  const write = (): void => {
    try {
      fs.mkdirSync(path.dirname(resultFile), { recursive: true });
      fs.writeFileSync(resultFile, JSON.stringify(result, null, 2));
    } catch (e) {
      console.error(`could not write ${resultFile}: ${(e as Error).message}`);
    }
  };
  if (files.length === 0) {
    result.failures = 1;
    write();
    return Promise.reject(new Error(`no *.test.js files under ${dir}: did tsc run (npx tsc -p .)?`));
  }
  for (const f of files) mocha.addFile(f);

  return new Promise<void>((resolve, reject) => {
    let runner: MochaType.Runner;
    try {
      runner = mocha.run((failures) => {
        result.failures = failures;
        result.durationMs = Date.now() - started;
        write();
        if (failures > 0) reject(new Error(`${failures} integration test(s) failed (details: ${resultFile})`));
        else resolve();
      });
    } catch (e) {
      // A test file that throws while loading (syntax error, bad import) ends up here.
      result.failures = 1;
      result.tests.push({ fullTitle: '(loading test files)', state: 'failed', error: String((e as Error).stack ?? e) });
      write();
      reject(e);
      return;
    }
    runner.on('pass', (t) => {
      result.passes++;
      result.total++;
      result.tests.push({ fullTitle: t.fullTitle(), state: 'passed', durationMs: t.duration });
    });
    runner.on('fail', (t, err: Error) => {
      result.total++;
      result.tests.push({ fullTitle: t.fullTitle(), state: 'failed', durationMs: t.duration, error: String(err?.stack ?? err) });
    });
    runner.on('pending', (t) => {
      result.pending++;
      result.total++;
      result.tests.push({ fullTitle: t.fullTitle(), state: 'pending' });
    });
  });
}
