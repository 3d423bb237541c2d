// src/core/checks/run.ts: one check command's run ends when the command ends, and leaves nothing of it running; a
// process that ends while checks run leaves neither them nor their scratch copies (processEnd.ts); its test cases are
// read from all of its output, as it arrives (output.ts lineFeed).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawn, spawnSync } from 'child_process';
import { KeptOutput, lineFeed, readTestCases, runCheck } from '../../src/core';
import { sliceWhole } from '../../src/core/text/cut';
import { processRunning as alive, runningAfter } from '../helpers/checksSession';

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'cape-unit-run-'));
}

describe('checks: a run ends with its command', function () {
  before(function () {
    if (process.platform === 'win32') this.skip();
  });

  it('a check still running when the process exits is killed with its group (it is detached: nothing else would)', async () => {
    const dir = tmp();
    const run = require.resolve('../../src/core/checks/run');
    const script = `require(${JSON.stringify(run)}).runCheck({ command: 'sleep 30 & echo $! > pid; wait', cwd: ${JSON.stringify(dir)}, round: 0 }); setTimeout(() => process.exit(0), 1000);`;
    const ended = spawnSync(process.execPath, ['-e', script], { timeout: 20_000 });
    assert.strictEqual(ended.status, 0, String(ended.stderr));
    const pid = Number(fs.readFileSync(path.join(dir, 'pid'), 'utf8'));
    try {
      assert.ok(!(await runningAfter(pid, 10_000)), "the check's process is killed");
    } finally {
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  /** A Node process running one check (`sleep 30`, its pid written to `pid`) with `setup` run first; resolves once it runs. */
  async function processRunningACheck(dir: string, setup = '') {
    const run = require.resolve('../../src/core/checks/run');
    const script = `${setup}; require(${JSON.stringify(run)}).runCheck({ command: 'sleep 30 & echo $! > pid; wait', cwd: ${JSON.stringify(dir)}, round: 0 });`;
    const proc = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    proc.stdout.on('data', (d) => (out += d));
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => proc.on('exit', (code, signal) => r({ code, signal })));
    for (let i = 0; i < 200 && !fs.existsSync(path.join(dir, 'pid')); i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 100)); // the pid written whole
    return { proc, ended, pid: Number(fs.readFileSync(path.join(dir, 'pid'), 'utf8')), out: () => out };
  }

  for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) {
    it(`a process ended by ${signal} while a check runs (nothing of its own handling it) still ends by it, and the check is killed`, async () => {
      const dir = tmp();
      const p = await processRunningACheck(dir);
      p.proc.kill(signal);
      const ended = await p.ended;
      try {
        assert.strictEqual(ended.signal, signal, 'the process ends by the signal, as it would have');
        assert.ok(!(await runningAfter(p.pid, 10_000)), "the check's process is killed");
      } finally {
        if (alive(p.pid)) process.kill(p.pid, 'SIGKILL');
      }
    });
  }

  it("a process that handles SIGTERM itself (the CLI's Stop) decides: the checks do not end it first", async () => {
    const dir = tmp();
    const p = await processRunningACheck(dir, `process.on('SIGTERM', () => { console.log('handled'); process.exit(0); })`);
    p.proc.kill('SIGTERM');
    const ended = await p.ended;
    try {
      assert.deepStrictEqual([ended.code, p.out().trim()], [0, 'handled']);
      assert.ok(!(await runningAfter(p.pid, 10_000)), "its exit kills the check's process");
    } finally {
      if (alive(p.pid)) process.kill(p.pid, 'SIGKILL');
    }
  });

  /**
   * A Node process, with a temp folder of its own, that copies a workspace holding a `.env` for the checks
   * (createScratch) and runs a long check in the copy (its pid written to `pid` outside it), then runs `then`.
   */
  async function processCheckingACopy(then = '') {
    const ws = tmp();
    fs.writeFileSync(path.join(ws, '.env'), 'API_KEY=secret\n');
    fs.writeFileSync(path.join(ws, 'a.js'), '1;\n');
    const temp = tmp();
    const out = tmp();
    const core = (m: string) => JSON.stringify(require.resolve(`../../src/core/checks/${m}`));
    const script =
      `const fs = require('fs'); require(${core('scratch')}).createScratch(${JSON.stringify(ws)}, { capeFolder: 'cape' }).then((s) => {` +
      ` require(${core('run')}).runCheck({ command: 'sleep 30 & echo $! > ${out}/pid; wait', cwd: s.dir, round: 0 }); fs.writeFileSync(${JSON.stringify(path.join(out, 'copy'))}, s.dir); ${then} });`;
    const proc = spawn(process.execPath, ['-e', script], { stdio: 'ignore', env: { ...process.env, TMPDIR: temp, TMP: temp, TEMP: temp } });
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => proc.on('exit', (code, signal) => r({ code, signal })));
    for (let i = 0; i < 200 && !(fs.existsSync(path.join(out, 'pid')) && fs.existsSync(path.join(out, 'copy'))); i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 100)); // the pid written whole
    const copy = fs.readFileSync(path.join(out, 'copy'), 'utf8');
    assert.ok(fs.existsSync(path.join(copy, '.env')), "the copy holds the workspace's .env");
    return { proc, ended, temp, pid: Number(fs.readFileSync(path.join(out, 'pid'), 'utf8')) };
  }

  it("a process ended by SIGTERM while a check runs in a scratch copy leaves no copy behind (it holds the workspace's secrets)", async () => {
    const p = await processCheckingACopy();
    p.proc.kill('SIGTERM');
    const ended = await p.ended;
    try {
      assert.strictEqual(ended.signal, 'SIGTERM', 'the process still ends by the signal');
      assert.deepStrictEqual(fs.readdirSync(p.temp), [], 'no scratch copy is left in the temp folder');
      assert.ok(!(await runningAfter(p.pid, 10_000)), "the check's process is killed");
    } finally {
      if (alive(p.pid)) process.kill(p.pid, 'SIGKILL');
    }
  });

  it('a process that exits while a check runs in a scratch copy leaves no copy behind', async () => {
    const p = await processCheckingACopy('setTimeout(() => process.exit(3), 300);');
    const ended = await p.ended;
    try {
      assert.strictEqual(ended.code, 3);
      assert.deepStrictEqual(fs.readdirSync(p.temp), [], 'no scratch copy is left in the temp folder');
    } finally {
      if (alive(p.pid)) process.kill(p.pid, 'SIGKILL');
    }
  });

  it('a command that exits while a process it started still holds the output ends then, passed, and that process is killed', async () => {
    const dir = tmp();
    // a test script that starts a server and forgets it: the server keeps the output pipe open. Held to the time
    // limit, the run would end 'timeout', its output saying it was killed (or the suite's timeout would end it first).
    const run = await runCheck({ command: `node -e "setInterval(() => {}, 1000)" & echo $! > pid; echo done`, cwd: dir, round: 0, timeoutMs: 20_000 });
    assert.strictEqual(run.status, 'passed', run.output);
    assert.strictEqual(run.exitCode, 0);
    assert.strictEqual(run.output, 'done');
    const pid = Number(fs.readFileSync(path.join(dir, 'pid'), 'utf8'));
    assert.ok(!(await runningAfter(pid, 10_000)), 'the forgotten server is killed');
  });

  it('a daemon the command started with its output elsewhere (Gradle\'s, a compiler server) is left to serve the next run', async () => {
    const dir = tmp();
    const run = await runCheck({ command: `node -e "setInterval(() => {}, 1000)" >/dev/null 2>&1 & echo $! > pid; echo done`, cwd: dir, round: 0, timeoutMs: 20_000 });
    assert.strictEqual(run.status, 'passed', run.output);
    const pid = Number(fs.readFileSync(path.join(dir, 'pid'), 'utf8'));
    await new Promise((r) => setTimeout(r, 200));
    const left = alive(pid);
    if (left) process.kill(pid, 'SIGKILL');
    assert.ok(left, 'the daemon still runs');
  });
});

describe('checks: the environment of a run', () => {
  it("runs without the extension host's ELECTRON_RUN_AS_NODE, which would start the Electron apps a check runs (VS Code's extension tests) as plain Node", async () => {
    const saved = process.env.ELECTRON_RUN_AS_NODE;
    process.env.ELECTRON_RUN_AS_NODE = '1'; // as VS Code starts its extension host
    try {
      const command = `node -e "console.log(process.env.ELECTRON_RUN_AS_NODE ?? 'unset')"`;
      assert.strictEqual((await runCheck({ command, cwd: tmp(), round: 0 })).output, 'unset');
      assert.strictEqual((await runCheck({ command, cwd: tmp(), round: 0, env: { ...process.env, CARGO_TARGET_DIR: '/x' } })).output, 'unset');
    } finally {
      if (saved === undefined) delete process.env.ELECTRON_RUN_AS_NODE;
      else process.env.ELECTRON_RUN_AS_NODE = saved;
    }
  });
});

describe('checks: the output kept of a run (output.ts KeptOutput)', () => {
  /** How run.ts kept the output before KeptOutput: the end cut again at every chunk (the reference). */
  function keptBefore(chunks: string[], cap: number): string {
    let head = '';
    let tail = '';
    let total = 0;
    for (let chunk of chunks) {
      total += chunk.length;
      if (!tail && head.length < cap / 2) {
        const part = sliceWhole(chunk, 0, cap / 2 - head.length);
        head += part;
        chunk = chunk.slice(part.length);
      }
      if (chunk) {
        tail += chunk;
        if (tail.length > cap / 2) tail = sliceWhole(tail, tail.length - cap / 2);
      }
    }
    return head + (total > head.length + tail.length ? `\n[… ${total - head.length - tail.length} characters of output left out …]\n` : '') + tail;
  }

  it('keeps the same head and tail as cutting at every chunk did, surrogate pairs at the chunk borders and the cuts', () => {
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const pieces = ['a', 'bc', '😀', '𝒳y', '\n', 'src/a.ts:1 ', '漢'];
    for (let trial = 0; trial < 400; trial++) {
      let text = '';
      while (text.length < 40 + rnd(400)) text += pieces[rnd(pieces.length)];
      // chunk borders anywhere: beside a pair, and (as a decoder never does, to be sure) inside one
      const chunks: string[] = [];
      for (let i = 0; i < text.length; ) {
        const n = 1 + rnd(trial % 2 ? 5 : 60);
        chunks.push(text.slice(i, i + n));
        i += n;
      }
      for (const cap of [0, 1, 7, 10, 33, 64, 1000]) {
        const kept = new KeptOutput(cap);
        for (const c of chunks) kept.add(c);
        assert.strictEqual(kept.text(), keptBefore(chunks, cap), `trial ${trial}, cap ${cap}`);
        assert.strictEqual(kept.total, text.length);
      }
    }
  });
});

describe('checks: the test cases of a run, from all of its output', () => {
  it('a failing case in the middle the kept output leaves out is read, with every case around it', async () => {
    // a TAP suite of 3,000 cases whose output (~100 KB) is kept to 10,000 characters; case 1500 fails
    const script = `for (let i = 0; i < 3000; i++) console.log((i === 1500 ? 'not ok ' : 'ok ') + (i + 1) + ' - case ' + i + ' ' + 'x'.repeat(20)); process.exitCode = 1;`;
    const run = await runCheck({ command: `node -e ${JSON.stringify(script)}`, cwd: tmp(), round: 0, outputCap: 10_000 });
    assert.ok(run.outputChars > 50_000 && !run.output.includes('case 1500 '), 'the kept output left the failure out');
    assert.strictEqual(run.tests?.length, 3000);
    assert.deepStrictEqual(run.tests.filter((t) => !t.passed), [{ name: 'case 1500 xxxxxxxxxxxxxxxxxxxx', passed: false }]);
    assert.strictEqual(run.testsIncomplete, undefined);
  });

  it('lines cut across chunks, CRLF split between two, and a last line with no newline read as whole lines', () => {
    const lines: string[] = [];
    const feed = lineFeed((l) => lines.push(l), '/tmp/s');
    for (const chunk of ['  ✓ ad', 'ds\r', '\n  ✖ /tmp/s/a.js mul', 'tiplies\r\n\x1b[32mok 3 - x\x1b[0m']) feed.write(chunk);
    feed.end();
    assert.deepStrictEqual(lines, ['  ✓ adds', '  ✖ a.js multiplies', 'ok 3 - x']);
  });

  it('an output naming more cases than a run keeps says so (testsIncomplete): its cases are not all there', () => {
    const many = Array.from({ length: 200_001 }, (_, i) => `ok ${i + 1} - c${i}`).join('\n');
    const read = readTestCases(many)!;
    assert.strictEqual(read.incomplete, true);
    assert.strictEqual(read.cases.length, 200_000);
  });
});
