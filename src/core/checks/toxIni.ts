// A Python project's tox.ini (text/ini.ts reads it), as tox runs it: the environments its envlist names (tox 4's
// `env_list`, or the older `envlist` it still reads), and each test
// environment's commands — `[testenv]`'s first (every environment without commands of its own runs them), then each
// `[testenv:name]`'s in the file's order — one command a line, a line a `\` continues joined, the project's folder
// (`{toxinidir}`) dropped, for the commands run from it. The one reading of tox.ini: detectPython.ts takes the project's
// own unittest and flake8 commands from it, init's facts show its environments (cape/initFactsTasks.ts).
import { parseIni, valueLines } from '../text/ini';
import { joinContinued } from '../text/lines';

/** A test environment: its name (null for `[testenv]`, the default of every one) and its commands. */
export interface ToxEnv {
  name: string | null;
  commands: string[];
}

/** What tox.ini says it runs: its envlist (as written, its lines joined by ', '; null without one) and its test environments. */
export interface ToxConfig {
  envlist: string | null;
  envs: ToxEnv[];
}

/** A section of test environments: `[testenv]`, or `[testenv:name]` (a name of several, `py{310,311}`, as written). */
const TESTENV = /^testenv(?::(.+))?$/;

/** A command as run from the project's folder: `{toxinidir}/tests` is `tests`, `{toxinidir}` alone `.`. */
export const fromToxinidir = (command: string): string => command.replace(/\{toxinidir\}[\\/]/g, '').replace(/\{toxinidir\}/g, '.');

/**
 * A command as a check would run it: a leading `-` (tox ignores its exit code) dropped; null for one led by `!` (tox 4
 * inverts its exit code: the project expects it to fail), which is no check.
 */
export function asCheck(command: string): string | null {
  if (command.startsWith('!')) return null;
  return command.replace(/^-\s*/, '');
}

/** tox.ini's envlist and test environments (see the header); none in a text that has neither. */
export function toxConfig(text: string): ToxConfig {
  const sections = parseIni(text);
  const tox = sections.find((s) => s.name === 'tox')?.values;
  const list = valueLines(tox?.get('env_list') ?? tox?.get('envlist'));
  const envs = sections.flatMap((s): ToxEnv[] => {
    const m = TESTENV.exec(s.name);
    if (!m) return [];
    const commands = valueLines(joinContinued(s.values.get('commands') ?? '')).map((c) => fromToxinidir(c.replace(/\s+/g, ' ').trim()));
    return [{ name: m[1]?.trim() ?? null, commands }];
  });
  envs.sort((a, b) => Number(a.name !== null) - Number(b.name !== null));
  return { envlist: list.length ? list.map((l) => l.replace(/,\s*$/, '')).join(', ') : null, envs };
}
