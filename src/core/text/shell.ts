// A path or value as one word of a shell command line: left bare when it holds only characters no shell reads
// specially, else quoted — single quotes for a POSIX shell, double quotes for Windows' cmd (where a backslash is a
// path separator, not an escape). The CLI's "resume with: …" hints and the detected check commands use it. And the
// commands a command line runs, one by one: what tells a check that runs tests (checks/commands.ts) and the commands
// a project's own files run (checks/pythonUnittest.ts), and init's reading of a CI step or a task's line
// (cape/initFactsCiRank.ts, initFactsTasks.ts).

/** `s` as one word of a command line for `shell` (by default the one this platform runs commands with). */
export function shellWord(s: string, shell: 'posix' | 'cmd' = process.platform === 'win32' ? 'cmd' : 'posix'): string {
  if (shell === 'cmd') return /^[\w@%+=:,./\\-]+$/.test(s) ? s : `"${s}"`;
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The commands a command line runs: its parts chained by `&&`, `||` or `;`, and piped by `|` unless `pipes` is false
 * (a pipeline then one part, as init reads a CI step or a task's line), each trimmed, none empty.
 */
export const commandParts = (line: string, { pipes = true }: { pipes?: boolean } = {}): string[] =>
  line
    .split(pipes ? /&&|\|\||[;|]/ : /&&|\|\||;/)
    .map((c) => c.trim())
    .filter(Boolean);
