/**
 * Start and stop a real VS Code (code-server 4.100.3 = VS Code 1.100.3) for integration and end-to-end tests.
 *
 * code-server is installed by scripts/install-code-server.sh into .vscode-test/code-server/ (gitignored).
 * Every start gets a throwaway run directory .vscode-test/runs/<id>/ holding the user-data dir, the extensions dir,
 * the log and a redirected HOME / XDG_* / TMPDIR, so nothing leaks into the real home directory and runs never see
 * each other's state. The process is started in its own process group and stopped by killing that group by PID
 * (never by process name: other engineers' code-servers may be running on the same machine).
 *
 * Plain Node: no vscode import, no Playwright import (see browser.ts for the UI side).
 */
import { spawn, ChildProcess } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';

/** Repository root (this file compiles to out/test/vscode/codeServer.js). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
export const VSCODE_TEST_DIR = path.join(REPO_ROOT, '.vscode-test');
export const DEFAULT_CODE_SERVER_DIR = path.join(VSCODE_TEST_DIR, 'code-server');
export const RUNS_DIR = path.join(VSCODE_TEST_DIR, 'runs');

export interface ExtensionLink {
  /** Folder name under the extensions dir, `publisher.name-version`; read from <path>/package.json when omitted. */
  id?: string;
  /** Absolute path of an unpacked extension folder (it is symlinked, not copied). */
  path: string;
}

export interface CodeServerOptions {
  /** Folder code-server opens by default (the workbench URL can still pass ?folder=). */
  workspace: string;
  /** 0 or undefined: pick a free port. */
  port?: number;
  /**
   * Extra environment for code-server. The extension host is forked from the server and inherits it, so this is how
   * tests hand e.g. the fake Messages API URL to the extension (`process.env.X` inside the extension).
   */
  env?: Record<string, string>;
  /** Merged over {@link DEFAULT_USER_SETTINGS} and written to <user-data>/User/settings.json before start. */
  userSettings?: Record<string, unknown>;
  /** Default false: workspace trust is disabled (no trust dialog). true: the workbench asks like a real one. */
  workspaceTrust?: boolean;
  /** Unpacked extensions to make "installed" by symlinking them into the throwaway extensions dir. */
  extensions?: ExtensionLink[];
  /** Where code-server is installed; default .vscode-test/code-server (env CODE_SERVER_DIR overrides too). */
  codeServerDir?: string;
  /** How long to wait for /healthz; default 60 s. */
  readyTimeoutMs?: number;
  /** Keep the run dir after stop() (for debugging). Default: env KEEP_VSCODE_RUNS=1, else removed. */
  keepRunDir?: boolean;
}

export interface CodeServer {
  /** http://127.0.0.1:<port> (no trailing slash). */
  url: string;
  port: number;
  /** Remote authority the workbench uses in vscode-remote:// URIs (read from the page's embedded config). */
  authority: string;
  /** Throwaway run directory (.vscode-test/runs/<id>). */
  runDir: string;
  /** code-server's stdout+stderr. */
  logFile: string;
  /** PID (= process group id) of the code-server process. */
  pid: number;
  /** vscode-remote://<authority><absPath>: how the browser refers to a file on the server. */
  remoteUri(absPath: string): string;
  /** Stop the process group and (unless kept) remove the run dir. Safe to call more than once. */
  stop(): Promise<void>;
}

/** Settings every test window starts with; options.userSettings is merged over them. */
export const DEFAULT_USER_SETTINGS: Readonly<Record<string, unknown>> = Object.freeze({
  'telemetry.telemetryLevel': 'off',
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'update.showReleaseNotes': false,
  'chat.commandCenter.enabled': false,
  'window.commandCenter': false,
  'git.enabled': false,
  'files.hotExit': 'off',
  'editor.minimap.enabled': false,
  // Keep diff editors side by side even in a narrow editor group, so both sides can be read (diffEditorText).
  'diffEditor.useInlineViewWhenSpaceIsLimited': false,
});

const OWNER_FILE = 'owner.pid';
const PID_FILE = 'cs.pid';
/** Run-dir file naming the short TMPDIR made for this run (see {@link shortTempDir}). */
const TMPDIR_FILE = 'tmpdir';

/**
 * A short temp dir under os.tmpdir(). TMPDIR must stay short: code-server and Chromium create Unix sockets in it
 * and a socket path longer than 107 bytes is fatal ("Socket path too long"); a run dir inside a deep CI checkout
 * easily exceeds that. Recorded in <runDir>/tmpdir so stop() and the leftover reaper remove it.
 */
export function shortTempDir(runDir: string, prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.appendFileSync(path.join(runDir, TMPDIR_FILE), dir + '\n');
  return dir;
}

/**
 * Remove the short temp dirs recorded in a run dir, then the run dir itself. If a temp dir cannot be removed yet
 * (a process that was just killed may still be writing into it), the run dir is kept so that the record survives and
 * reapLeftoverRuns() finishes the job later. Returns true when everything is gone.
 */
export function removeRunDir(runDir: string): boolean {
  // Retries: Chromium/code-server children and Playwright's own profile cleanup may still be busy (ENOTEMPTY).
  const rm = (p: string): boolean => {
    try {
      fs.rmSync(p, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
      return true;
    } catch {
      return false;
    }
  };
  let recorded: string[] = [];
  try {
    recorded = fs.readFileSync(path.join(runDir, TMPDIR_FILE), 'utf8').split('\n');
  } catch {
    /* no temp dirs recorded */
  }
  let ok = true;
  // Only ever delete what shortTempDir() created: a direct child of the temp root.
  for (const d of recorded) if (d && path.dirname(d) === path.resolve(os.tmpdir())) ok = rm(d) && ok;
  return ok && rm(runDir);
}

/** Ask the OS for a free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => (port ? resolve(port) : reject(new Error('could not get a free port'))));
    });
  });
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 1) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readPid(file: string): number {
  try {
    return parseInt(fs.readFileSync(file, 'utf8').trim(), 10);
  } catch {
    return NaN;
  }
}

/** True if /proc says `pid` is a process started with `runDir` on its command line (so it is ours). */
function commandLineMentions(pid: number, runDir: string): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').some((a) => a.includes(runDir));
  } catch {
    return false;
  }
}

/** Send `signal` to the process group `pgid`; falls back to the single process. Never throws. */
function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    try {
      process.kill(pgid, signal);
    } catch {
      /* already gone */
    }
  }
}

async function waitUntilDead(pid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!isAlive(pid)) return true;
    await sleep(100);
  }
  return !isAlive(pid);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Remove run dirs left behind by harness processes that died (crash, Ctrl-C, CI timeout). A leftover code-server is
 * killed only when (a) the harness process that started it is gone, and (b) /proc shows its command line mentions
 * that run dir, so a recycled PID or another engineer's live run is never touched.
 */
export async function reapLeftoverRuns(runsDir = RUNS_DIR): Promise<string[]> {
  const reaped: string[] = [];
  let entries: string[];
  try {
    entries = fs.readdirSync(runsDir);
  } catch {
    return reaped;
  }
  for (const name of entries) {
    const dir = path.join(runsDir, name);
    const owner = readPid(path.join(dir, OWNER_FILE));
    if (isAlive(owner)) continue; // a live harness (maybe in another terminal) owns it
    // A dir without owner file that is very fresh may be being created right now: leave it a minute.
    if (Number.isNaN(owner)) {
      try {
        if (Date.now() - fs.statSync(dir).mtimeMs < 60_000) continue;
      } catch {
        continue;
      }
    }
    const pid = readPid(path.join(dir, PID_FILE));
    if (isAlive(pid) && commandLineMentions(pid, dir)) {
      killGroup(pid, 'SIGTERM');
      if (!(await waitUntilDead(pid, 3000))) killGroup(pid, 'SIGKILL');
    }
    removeRunDir(dir);
    reaped.push(dir);
  }
  return reaped;
}

/** The remote authority embedded in the workbench page (`127.0.0.1:PORT` on 4.100.3, `remote` on later versions). */
export async function readRemoteAuthority(url: string, fallback: string): Promise<string> {
  try {
    const res = await fetch(`${url}/?folder=/`);
    const html = await res.text();
    const m = html.match(/remoteAuthority&quot;:&quot;([^&]*)&quot;/) ?? html.match(/"remoteAuthority":"([^"]*)"/);
    if (m && m[1]) return m[1];
  } catch {
    /* fall through */
  }
  return fallback;
}

function extensionFolderName(link: ExtensionLink): string {
  if (link.id) return link.id;
  const pkgFile = path.join(link.path, 'package.json');
  let pkg: { publisher?: string; name?: string; version?: string };
  try {
    pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8'));
  } catch (e) {
    throw new Error(`extension link ${link.path}: cannot read ${pkgFile} (${(e as Error).message}); pass an explicit id`);
  }
  if (!pkg.publisher || !pkg.name || !pkg.version) {
    throw new Error(`extension link ${link.path}: package.json needs publisher, name and version (or pass an id)`);
  }
  return `${pkg.publisher}.${pkg.name}-${pkg.version}`;
}

/** Environment for code-server: inherited minus VS Code's own IPC variables, plus redirected dirs, plus opts.env. */
function childEnv(runDir: string, tmpDir: string, extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    // Running the harness from a VS Code terminal or an extension host must not make code-server talk to that
    // VS Code (VSCODE_IPC_HOOK_CLI etc.) or run as plain Node (ELECTRON_RUN_AS_NODE).
    if (/^VSCODE_/.test(k) || k === 'ELECTRON_RUN_AS_NODE' || k === 'CODE_SERVER_PARENT_PID') continue;
    env[k] = v;
  }
  Object.assign(env, {
    HOME: path.join(runDir, 'home'),
    XDG_CONFIG_HOME: path.join(runDir, 'xdg-config'),
    XDG_DATA_HOME: path.join(runDir, 'xdg-data'),
    XDG_CACHE_HOME: path.join(runDir, 'xdg-cache'),
    TMPDIR: tmpDir,
  });
  Object.assign(env, extra ?? {});
  return env;
}

/** Start code-server and wait until /healthz answers. */
export async function startCodeServer(opts: CodeServerOptions): Promise<CodeServer> {
  const csDir = opts.codeServerDir ?? process.env.CODE_SERVER_DIR ?? DEFAULT_CODE_SERVER_DIR;
  const bin = path.join(csDir, 'node_modules', '.bin', 'code-server');
  if (!fs.existsSync(bin)) {
    throw new Error(`code-server is not installed at ${bin}. Run: bash scripts/install-code-server.sh`);
  }
  if (!path.isAbsolute(opts.workspace) || !fs.existsSync(opts.workspace)) {
    throw new Error(`startCodeServer: workspace must be an existing absolute path, got ${JSON.stringify(opts.workspace)}`);
  }
  await reapLeftoverRuns();

  // Retry a couple of times: a port picked by freePort() can be taken by someone else before code-server binds it.
  const attempts = opts.port ? 1 : 3;
  let lastError: Error | undefined;
  for (let i = 0; i < attempts; i++) {
    try {
      return await startOnce(opts, bin, opts.port || (await freePort()));
    } catch (e) {
      lastError = e as Error;
      if (!/EADDRINUSE/.test(lastError.message)) break;
    }
  }
  throw lastError;
}

async function startOnce(opts: CodeServerOptions, bin: string, port: number): Promise<CodeServer> {
  // Short id (time base36 + pid + random): paths under the run dir must stay well below socket path limits.
  const id = `${Date.now().toString(36)}-${process.pid}-${crypto.randomBytes(3).toString('hex')}`;
  const runDir = path.join(RUNS_DIR, id);
  for (const d of ['home', 'xdg-config', 'xdg-data', 'xdg-cache', 'user-data/User', 'extensions']) {
    fs.mkdirSync(path.join(runDir, d), { recursive: true });
  }
  fs.writeFileSync(path.join(runDir, OWNER_FILE), String(process.pid));
  const tmpDir = shortTempDir(runDir, 'cs-');

  const trust = opts.workspaceTrust === true;
  const settings = { ...DEFAULT_USER_SETTINGS, 'security.workspace.trust.enabled': trust, ...(opts.userSettings ?? {}) };
  fs.writeFileSync(path.join(runDir, 'user-data', 'User', 'settings.json'), JSON.stringify(settings, null, 2));

  for (const link of opts.extensions ?? []) {
    fs.symlinkSync(path.resolve(link.path), path.join(runDir, 'extensions', extensionFolderName(link)), 'dir');
  }

  // A config file in the run dir stops code-server from creating ~/.config/code-server/config.yaml.
  const configFile = path.join(runDir, 'config.yaml');
  fs.writeFileSync(configFile, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);

  const args = [
    '--config', configFile,
    '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    '--user-data-dir', path.join(runDir, 'user-data'),
    '--extensions-dir', path.join(runDir, 'extensions'),
    ...(trust ? [] : ['--disable-workspace-trust']),
    opts.workspace,
  ];
  const logFile = path.join(runDir, 'cs.log');
  const logFd = fs.openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    // detached: own process group (like setsid), so stop() can kill code-server and everything it forked
    // (extension host, pty host, file watcher) with one signal to -pid.
    child = spawn(bin, args, { cwd: runDir, env: childEnv(runDir, tmpDir, opts.env), detached: true, stdio: ['ignore', logFd, logFd] });
  } finally {
    fs.closeSync(logFd);
  }
  const pid = child.pid;
  if (!pid) throw new Error(`could not spawn ${bin}; see ${logFile}`);
  fs.writeFileSync(path.join(runDir, PID_FILE), String(pid));
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  child.on('exit', (code, signal) => (exited = { code, signal }));
  child.unref();

  // Last-resort cleanup if the harness process exits without calling stop() (uncaught error, process.exit(),
  // Ctrl-C handled with process.exit). Only synchronous work is possible here. A SIGKILLed harness leaves the run
  // behind: reapLeftoverRuns() cleans it up on the next start.
  const keep = opts.keepRunDir ?? process.env.KEEP_VSCODE_RUNS === '1';
  const onExit = (): void => {
    killGroup(pid, 'SIGKILL');
    if (!keep) removeRunDir(runDir);
  };
  process.on('exit', onExit);

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      process.removeListener('exit', onExit);
      if (isAlive(pid)) {
        killGroup(pid, 'SIGTERM');
        if (!(await waitUntilDead(pid, 5000))) {
          killGroup(pid, 'SIGKILL');
          await waitUntilDead(pid, 2000);
        }
      }
      // Children that ignored SIGTERM (e.g. a busy extension host) still belong to the group.
      killGroup(pid, 'SIGKILL');
      if (!keep) removeRunDir(runDir);
    })();
    return stopping;
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.readyTimeoutMs ?? 60_000);
  try {
    for (;;) {
      if (exited) {
        const log = safeTail(logFile, 3000);
        throw new Error(`code-server exited (code ${exited.code}, signal ${exited.signal}) before it was ready; log ${logFile}:\n${log}`);
      }
      if (Date.now() > deadline) {
        throw new Error(`code-server did not answer ${url}/healthz within ${opts.readyTimeoutMs ?? 60_000} ms; log ${logFile}:\n${safeTail(logFile, 3000)}`);
      }
      try {
        const res = await fetch(`${url}/healthz`);
        if (res.ok) break;
      } catch {
        /* not listening yet */
      }
      await sleep(100);
    }
  } catch (e) {
    await stop();
    throw e;
  }

  const authority = await readRemoteAuthority(url, `127.0.0.1:${port}`);
  return {
    url,
    port,
    authority,
    runDir,
    logFile,
    pid,
    remoteUri: (absPath: string) => `vscode-remote://${authority}${absPath.split(path.sep).map(encodeURIComponent).join('/')}`,
    stop,
  };
}

function safeTail(file: string, chars: number): string {
  try {
    const s = fs.readFileSync(file, 'utf8');
    return s.slice(-chars);
  } catch {
    return '(no log)';
  }
}
