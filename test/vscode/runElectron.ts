/**
 * Run the integration tests in a DESKTOP VS Code through @vscode/test-electron 2.5 (the Node 20 line), for machines
 * that have VS Code or can download it. NOT part of the default test run on the offline CI machines (they use
 * runIntegration.ts with code-server); it only has to compile there.
 *
 *   node out/test/vscode/runElectron.js [--ext <abs ext dir>] [--tests <abs index.js>] [--workspace <dir>]
 *                                       [--version 1.90.0|stable|insiders] [--vscode <path to a VS Code executable>]
 *
 * Defaults: the repo root as extension, out/test/integration/index.js as tests, a temp workspace, VS Code 1.90.0
 * (= engines.vscode minimum; override with VSCODE_VERSION). With a display-less Linux, run it under xvfb-run.
 * Environment for the extension host: the process env is inherited (@vscode/test-electron passes extraEnv too).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runTests } from '@vscode/test-electron';
import { REPO_ROOT } from './codeServer';

export interface ElectronRunOptions {
  extensionDevelopmentPath: string;
  extensionTestsPath: string;
  workspace: string;
  version?: string;
  vscodeExecutablePath?: string;
  extraEnv?: Record<string, string>;
}

/** Resolves with VS Code's exit code (0 = all tests passed); rejects if VS Code could not be downloaded or started. */
export function runElectron(opts: ElectronRunOptions): Promise<number> {
  return runTests({
    extensionDevelopmentPath: opts.extensionDevelopmentPath,
    extensionTestsPath: opts.extensionTestsPath,
    launchArgs: [opts.workspace, '--disable-extensions'],
    version: opts.vscodeExecutablePath ? undefined : opts.version,
    vscodeExecutablePath: opts.vscodeExecutablePath,
    extensionTestsEnv: opts.extraEnv,
  });
}

function argValue(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const workspace = argValue(argv, '--workspace') ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cape-electron-ws-'));
  const opts: ElectronRunOptions = {
    extensionDevelopmentPath: path.resolve(argValue(argv, '--ext') ?? REPO_ROOT),
    extensionTestsPath: path.resolve(argValue(argv, '--tests') ?? path.join(REPO_ROOT, 'out', 'test', 'integration', 'index.js')),
    workspace: path.resolve(workspace),
    version: argValue(argv, '--version') ?? process.env.VSCODE_VERSION ?? '1.90.0',
    vscodeExecutablePath: argValue(argv, '--vscode') ?? process.env.VSCODE_EXECUTABLE_PATH,
  };
  runElectron(opts).then(
    (code) => process.exit(code),
    (e) => {
      console.error(`could not run the tests in desktop VS Code (no network? use runIntegration.js with code-server): ${(e as Error).message ?? e}`);
      process.exit(2);
    },
  );
}
