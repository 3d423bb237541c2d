// Locates the read-only shared fixtures (../shared/fixtures beside the repository; CI has them there too).
// The recorded sessions are test data only: they are never copied into the project.
import * as fs from 'fs';
import * as path from 'path';

/** Repository root, found from the compiled (out/test/...) or source (test/...) location. */
export function repoRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('cannot find the repository root from ' + __dirname);
    dir = up;
  }
  return dir;
}

export function sharedDir(): string {
  const fromEnv = process.env.CAPE_SHARED_DIR;
  const dir = fromEnv ? path.resolve(fromEnv) : path.resolve(repoRoot(), '..', 'shared');
  if (!fs.existsSync(path.join(dir, 'fixtures'))) {
    throw new Error(`shared fixtures not found at ${dir}/fixtures (set CAPE_SHARED_DIR)`);
  }
  return dir;
}

export type RecordedStepId = 'cm_open' | 'poa' | 'da' | 'deva' | 'cm_retro';

export interface RecordedSession {
  taskId: string;
  objective: string | null;
  language: string;
  model: string;
  complete: boolean;
  steps: { step: RecordedStepId; raw: string }[];
  file: string;
}

export function recordedSessionsDir(): string {
  return path.join(sharedDir(), 'fixtures', 'recorded-sessions');
}

/** Every recorded session (sorted by file name), whatever is in the folder. */
export function loadRecordedSessions(): RecordedSession[] {
  const dir = recordedSessionsDir();
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ ...(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Omit<RecordedSession, 'file'>), file: path.join(dir, f) }));
}

export function originalProjectDir(): string {
  return path.join(sharedDir(), 'fixtures', 'original-project');
}
