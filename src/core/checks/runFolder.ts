// A check command that runs in a sub-folder of the workspace — a sub-project's detected check (detectSubprojects.ts),
// `cd backend && .venv/bin/python -m pytest` — written (inFolder) and read back (runFolder) by one rule.
import { shellWord } from '../text/shell';

/** `command` run in the workspace's folder `folder` (workspace-relative, `/`-separated): `cd backend && command`. */
export function inFolder(folder: string, command: string): string {
  return `cd ${shellWord(process.platform === 'win32' ? folder.replace(/\//g, '\\') : folder)} && ${command}`;
}
