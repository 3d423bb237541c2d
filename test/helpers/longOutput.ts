// A check run whose output is longer than the kept one (run.ts DEFAULT_OUTPUT_CAP, ~1 MB): what it says of itself
// stands only in the middle, which the kept output leaves out, so only a reader fed the whole stream sees it.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCheck, type CheckRun } from '../../src/core';

/** A run printing 1.5 MB of log lines (naming no file), `marker` (one line or several), 1.5 MB more, then exiting 1. */
export function runAround(marker: string): Promise<CheckRun> {
  const script = `const pad = 'log: worker heartbeat ' + '.'.repeat(40) + '\\n'; const half = pad.repeat(Math.ceil(1.5e6 / pad.length)); process.stdout.write(half + process.env.MARKER + '\\n' + half, () => process.exit(1));`;
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-unit-long-'));
  return runCheck({ command: `node -e ${JSON.stringify(script)}`, cwd, round: 0, env: { ...process.env, MARKER: marker } });
}
