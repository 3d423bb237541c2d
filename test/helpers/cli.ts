// Runs the bundled CLI (dist/cli.js) the way a user would: a child process with no stdin.
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { originalProjectDir, repoRoot } from './fixtures';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** The parsed last stdout line when --json was given. */
  json?: any;
}

export function runCli(args: string[], env: Record<string, string | undefined> = {}, timeoutMs = 60000, input?: string | Uint8Array, interrupt?: Interrupt): Promise<CliRun> {
  const cli = path.join(repoRoot(), 'dist', 'cli.js');
  if (!fs.existsSync(cli)) throw new Error('dist/cli.js is missing: run `npm run build` first');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('error', reject);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cape ${args.join(' ')} timed out after ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    let poll: NodeJS.Timeout | undefined;
    if (interrupt) {
      const until = Date.now() + (interrupt.waitMs ?? 30_000);
      poll = setInterval(() => {
        if (interrupt.when()) {
          clearInterval(poll);
          child.kill(interrupt.signal);
        } else if (Date.now() > until) {
          clearInterval(poll);
          child.kill('SIGKILL');
          reject(new Error(`cape ${args.join(' ')}: ${interrupt.what} never happened\n${stdout}\n${stderr}`));
        }
      }, 50);
    }
    child.on('close', (code) => {
      clearTimeout(timer);
      clearInterval(poll);
      const run: CliRun = { code: code ?? -1, stdout, stderr };
      if (args.includes('--json')) {
        const last = stdout.trim().split('\n').pop() ?? '';
        try {
          run.json = JSON.parse(last);
        } catch {
          /* the test asserts on it */
        }
      }
      resolve(run);
    });
    if (input !== undefined) child.stdin!.end(input);
  });
}

/** A signal sent to the CLI once `when()` holds (polled); the run fails when it never does within `waitMs`. */
export interface Interrupt {
  when: () => boolean;
  /** What `when` waits for, for the failure message. */
  what: string;
  signal: NodeJS.Signals;
  waitMs?: number;
}

/** Runs the CLI and sends it `interrupt.signal` once `interrupt.when()` holds (Ctrl-C, a kill, a closed terminal). */
export function interruptCli(args: string[], env: Record<string, string | undefined>, interrupt: Interrupt): Promise<CliRun> {
  return runCli(args, env, 90_000, undefined, interrupt);
}

/** The CLI with `input` on stdin (runCli alone gives none). */
export function runCliWithInput(args: string[], env: Record<string, string>, input: string | Uint8Array): Promise<CliRun> {
  return runCli(args, env, 60000, input);
}

/** A fresh temp folder, removed by the returned cleanup. */
export function tempDir(prefix = 'cape-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function copyDir(src: string, dest: string): void {
  fs.cpSync(src, dest, { recursive: true });
  // Fixtures in ../shared are read-only; the copies must be writable.
  const chmod = (p: string) => {
    const st = fs.statSync(p);
    fs.chmodSync(p, st.isDirectory() ? 0o755 : 0o644);
    if (st.isDirectory()) for (const e of fs.readdirSync(p)) chmod(path.join(p, e));
  };
  chmod(dest);
}

/** All files under dir, relative, sorted. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(d, e.name), r);
      else out.push(r);
    }
  };
  if (fs.existsSync(dir)) walk(dir, '');
  return out.sort();
}

/**
 * A temp workspace holding the original CLI's cape/ (from ../shared), on top of a copy of `template` when given
 * (e.g. the demo notes app).
 */
export function workspaceWithOriginalCape(prefix: string, template?: string): string {
  const ws = tempDir(prefix);
  if (template) copyDir(template, ws);
  copyDir(path.join(originalProjectDir(), 'cape'), path.join(ws, 'cape'));
  return ws;
}

/** Writes files into a workspace (workspace-relative path → text), making their folders. */
export function writeFiles(ws: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), text);
  }
}
