// A reader that closes the CLI's output early (`cape context --json | head -c 10`): the CLI stops at once and quietly,
// with exit code 141 as git does, not with an unhandled EPIPE 'error' event's stack trace (src/cli/main.ts).
import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { repoRoot } from '../helpers/fixtures';
import { tempDir } from '../helpers/cli';

/**
 * Runs the CLI with its stdout in a pipe the test closes after the first chunk. The output is far larger than a
 * pipe holds (64 KiB), so the CLI is still writing when its reader goes: its next write fails with EPIPE.
 */
function runClosingEarly(args: string[], env: Record<string, string>): Promise<{ code: number | null; signal: string | null; head: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repoRoot(), 'dist', 'cli.js'), ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let head = '';
    let stderr = '';
    child.stdout.once('data', (d: Buffer) => {
      head = d.subarray(0, 10).toString();
      child.stdout.destroy();
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, head, stderr }));
  });
}

describe('CLI: output closed by its reader', function () {
  this.timeout(60000);

  it('`cape context --json | head -c 10` ends quietly with exit code 141: no EPIPE, no stack trace', async () => {
    const ws = tempDir('cape-epipe-');
    // ~1.2 MB of --json: 1,200 files whose paths are about 990 characters long (at most 1,024 are indexed)
    const deep = path.join(ws, 'src', ...Array.from({ length: 4 }, (_, i) => `${i}${'d'.repeat(240)}`));
    fs.mkdirSync(deep, { recursive: true });
    for (let i = 0; i < 1200; i++) fs.writeFileSync(path.join(deep, `todo${i}.ts`), `export const todo${i} = ${i};\n`);
    const run = await runClosingEarly(['context', '--workspace', ws, '--objective', 'todo', '--budget', '100000000', '--json'], {
      CAPE_CACHE_DIR: tempDir('cape-epipe-cache-'),
    });
    assert.strictEqual(run.head, '{"files":[');
    assert.doesNotMatch(run.stderr, /EPIPE|Unhandled|\n\s+at /, run.stderr);
    assert.match(run.stderr, /^cape: 1200 files indexed/);
    assert.deepStrictEqual([run.code, run.signal], [141, null], run.stderr);
  });
});
