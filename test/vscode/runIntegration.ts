/**
 * Run extension integration tests inside a real VS Code (code-server) extension host, like @vscode/test-electron
 * does with a desktop VS Code:
 *
 *   node out/test/vscode/runIntegration.js [--ext /abs/extension] [--tests /abs/out/test/integration/index.js] \
 *     [--workspace /abs/dir | --workspace-template /abs/dir] [--timeout 300] [--env KEY=VALUE]... \
 *     [--settings '{"cape.x":1}' | --settings /abs/settings.json]
 *
 * Starts code-server on a free port, opens the workbench with the payload (extensionDevelopmentPath +
 * extensionTestsPath), prints the extension host's output (mocha's spec report), and exits with the tests' exit
 * code: 0 only if all passed; 1 if a test failed or the run timed out; 2 if the harness itself failed.
 * code-server and Chromium are always stopped. A --workspace-template is copied to a temp dir first, so tests may
 * modify it freely.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { launchBrowser, openWorkbench, pageErrors, screenshot, waitForTestsExit } from './browser';
import { CodeServer, REPO_ROOT, startCodeServer, type ExtensionLink } from './codeServer';

export interface IntegrationRunOptions {
  extensionDevelopmentPath: string;
  extensionTestsPath: string;
  workspace?: string;
  workspaceTemplate?: string;
  timeoutSec?: number;
  env?: Record<string, string>;
  userSettings?: Record<string, unknown>;
  /** Other unpacked extensions, installed beside the one under development (e.g. test/lm-extension's fake model). */
  extensions?: ExtensionLink[];
  /** Where lines go; default console.log. */
  log?: (line: string) => void;
}

export interface IntegrationRunResult {
  exitCode: number;
  timedOut: boolean;
  durationMs: number;
  /** Extension-host console lines (mocha's report among them). */
  output: string[];
}

const USAGE = `usage: node out/test/vscode/runIntegration.js [--ext <extension dir, default: repo root>]
       [--tests <tests index.js, default: out/test/integration/index.js>]
       [--workspace <dir> | --workspace-template <dir>] [--timeout <seconds, default 300>]
       [--env KEY=VALUE]... [--settings <json or path to .json>]`;

/** Run the tests once; never throws for test failures (see exitCode), throws only for harness problems. */
export async function runIntegration(opts: IntegrationRunOptions): Promise<IntegrationRunResult> {
  const log = opts.log ?? ((l: string) => console.log(l));
  const t0 = Date.now();
  for (const [name, p] of [['--ext', opts.extensionDevelopmentPath], ['--tests', opts.extensionTestsPath]] as const) {
    if (!path.isAbsolute(p) || !fs.existsSync(p)) throw new Error(`${name} must be an existing absolute path, got ${JSON.stringify(p)}`);
  }
  let tempWorkspace: string | undefined;
  let workspace = opts.workspace;
  if (opts.workspaceTemplate) {
    if (!fs.existsSync(opts.workspaceTemplate)) throw new Error(`--workspace-template ${opts.workspaceTemplate} does not exist`);
    tempWorkspace = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-ws-'));
    fs.cpSync(opts.workspaceTemplate, tempWorkspace, { recursive: true });
    workspace = tempWorkspace;
  } else if (!workspace) {
    tempWorkspace = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-ws-'));
    workspace = tempWorkspace;
  }
  workspace = path.resolve(workspace);

  let cs: CodeServer | undefined;
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
  const output: string[] = [];
  try {
    cs = await startCodeServer({ workspace, env: opts.env, userSettings: opts.userSettings, extensions: opts.extensions });
    log(`code-server ${cs.url} (pid ${cs.pid}, run dir ${cs.runDir}) ready after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    browser = await launchBrowser({ runDir: cs.runDir });
    const page = await openWorkbench(browser, cs, {
      folder: workspace,
      extensionDevelopmentPath: opts.extensionDevelopmentPath,
      extensionTestsPath: opts.extensionTestsPath,
      onExtensionHostLine: (line) => {
        output.push(line);
        log(`  | ${line}`);
      },
    });
    log(`workbench up after ${((Date.now() - t0) / 1000).toFixed(1)} s; running ${opts.extensionTestsPath}`);
    const code = await waitForTestsExit(page, (opts.timeoutSec ?? 300) * 1000);
    const timedOut = code === 'timeout';
    if (timedOut) {
      log(`extension tests did not finish within ${opts.timeoutSec ?? 300} s`);
      const shot = await screenshot(page, 'integration-timeout').catch(() => undefined);
      if (shot) log(`screenshot: ${shot}`);
      for (const e of pageErrors(page).slice(-10)) log(`  browser: ${e.slice(0, 400)}`);
    }
    const exitCode = code === 0 ? 0 : 1;
    log(`extension tests finished: ${timedOut ? 'timeout' : `exit code ${code}`} after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return { exitCode, timedOut, durationMs: Date.now() - t0, output };
  } finally {
    await browser?.close().catch(() => undefined);
    await cs?.stop();
    if (tempWorkspace) fs.rmSync(tempWorkspace, { recursive: true, force: true });
  }
}

function parseArgs(argv: string[]): IntegrationRunOptions {
  const env: Record<string, string> = {};
  const o: Partial<IntegrationRunOptions> = { env };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value\n${USAGE}`);
      return v;
    };
    switch (a) {
      case '--ext': o.extensionDevelopmentPath = path.resolve(val()); break;
      case '--tests': o.extensionTestsPath = path.resolve(val()); break;
      case '--workspace': o.workspace = path.resolve(val()); break;
      case '--workspace-template': o.workspaceTemplate = path.resolve(val()); break;
      case '--timeout': {
        const n = Number(val());
        if (!(n > 0)) throw new Error(`--timeout must be a positive number of seconds\n${USAGE}`);
        o.timeoutSec = n;
        break;
      }
      case '--env': {
        const kv = val();
        const eq = kv.indexOf('=');
        if (eq <= 0) throw new Error(`--env expects KEY=VALUE, got ${JSON.stringify(kv)}`);
        env[kv.slice(0, eq)] = kv.slice(eq + 1);
        break;
      }
      case '--settings': {
        const v = val();
        const text = v.trim().startsWith('{') ? v : fs.readFileSync(v, 'utf8');
        o.userSettings = JSON.parse(text);
        break;
      }
      case '-h': case '--help': console.log(USAGE); process.exit(0);
      default: throw new Error(`unknown argument ${JSON.stringify(a)}\n${USAGE}`);
    }
  }
  // Defaults: this repository as the extension, its compiled integration index as the tests.
  o.extensionDevelopmentPath ??= REPO_ROOT;
  o.extensionTestsPath ??= path.join(REPO_ROOT, 'out', 'test', 'integration', 'index.js');
  return o as IntegrationRunOptions;
}

if (require.main === module) {
  let opts: IntegrationRunOptions;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error((e as Error).message);
    process.exit(2);
  }
  // Ctrl-C / CI cancellation: exit through process.exit so codeServer's exit hook kills the process group.
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => process.exit(130));
  runIntegration(opts).then(
    (r) => process.exit(r.exitCode),
    (e) => {
      console.error(`integration harness failed: ${(e as Error).stack ?? e}`);
      process.exit(2);
    },
  );
}
