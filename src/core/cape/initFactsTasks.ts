// Init's workspace facts (initFacts.ts), the task runners' part: the root's Makefile, justfile, Taskfile.yml or
// tox.ini (TASK_FILES: the one list of their names, which the layout's root line names too) with each target and the
// commands it runs — the tool lines, not a recipe's `@echo` or make's `$(if …)` plumbing; a target that runs no command
// of its own names the targets it runs — the targets that check a change first (initFactsCiRank.ts's order, by the
// target's name and commands), then in the file's order. tox.ini's are its test environments (checks/toxIni.ts: its
// envlist on a line first, then `[testenv]`'s commands, the default of every environment, and each `tox -e name`'s,
// `{toxinidir}/` dropped). An init trial on gorilla/mux got "to run and ship it: Makefile" and no target: `make
// verify`'s linters and `make test`'s flags were never shown; one on a Python library saw its Makefile and not its
// tox.ini, and could not tell which Python versions and linters its CI runs. The files share the part's room fairly
// (fairShares). Read through the read policy and parsed once per walk (ParsedInputs), line by line (a Taskfile as YAML
// with the safe schema, tox.ini as INI), named and quoted, never run.
import { parseYaml } from './frontmatter';
import { MAKEFILE_NAME } from '../workspace/fileKinds';
import { joinContinued } from '../text/lines';
import { commandParts } from '../text/shell';
import { oneLine, shorten } from '../text/cut';
import { isPlainObject } from '../model/types';
import { ciRank, isPlumbing, splitCommands } from './initFactsCiRank';
import { COMMAND_CHARS, commandLines } from './initFactsCi';
import { itemsWithin } from './initManifests';
import { linesWithin, listWithin, scaled, type FactBounds, type FactSources, type WalkFiles } from './initFactsText';
import { toxConfig } from '../checks/toxIni';
import { expandVariables, makeRule, recordVariable, TARGET_NAME } from '../text/makefile';

/** The task runners by their files' names at the root (the first file of a runner is read): the program that runs a target, how a file is parsed. */
const TASK_FILES: readonly (readonly [runner: 'make' | 'just' | 'task' | 'tox', name: RegExp])[] = [
  ['make', MAKEFILE_NAME],
  ['just', /^\.?[Jj]ustfile$/],
  ['task', /^[Tt]askfile(?:\.dist)?\.ya?ml$/],
  ['tox', /^tox\.ini$/],
];

/** Whether a root file's name is a task runner's file (the layout names it among the files that run the project). */
export const isTaskFile = (name: string): boolean => TASK_FILES.some(([, p]) => p.test(name));

/** One target's commands at most (at the facts' scale), and the targets read from a file at most. */
const TARGET_COMMANDS_CHARS = 240;
const MAX_TARGETS = 200;

/** A target: its name, the commands its recipe runs (tool lines), the targets it depends on, how its line names it when not `` `runner name` ``. */
interface Target {
  name: string;
  commands: string[];
  deps: string[];
  call?: string;
}

/** A task file's targets, and the lines said before them (tox.ini's envlist). */
interface Tasks {
  targets: Target[];
  notes?: string[];
}

/** A make function heading a recipe line (`$(if $(X), ,go install …)`, `$(info …)`): make's plumbing, not a tool. */
const MAKE_FUNCTION = /^\$[({][a-z-]+\s/;

/**
 * A recipe line as the part shows it, or null when it runs no tool: its echo and prefix characters (`@`, `-`, `+`)
 * off; null for a make function or a line whose every `&&`/`;`-chained command is shell plumbing (isPlumbing).
 */
function toolCommand(raw: string): string | null {
  const line = oneLine(raw.replace(/^[\s@+-]+/, ''));
  if (!line || line.startsWith('#') || MAKE_FUNCTION.test(line)) return null;
  return commandParts(line, { pipes: false }).some((c) => !isPlumbing(c)) ? line : null;
}

/** toolCommand's line as the part shows it: at most COMMAND_CHARS. */
function toolLine(raw: string): string | null {
  const line = toolCommand(raw);
  return line === null ? null : shorten(line, COMMAND_CHARS);
}

/** A rule's or recipe header's dependencies: the target names among its words (an order-only `|`, a `(dep "arg")` call aside). */
const depsOf = (text: string): string[] => text.split(/\s+/).filter((w) => TARGET_NAME.test(w));

/**
 * A Makefile's targets: a rule line `name other: deps` (not an assignment, `name: VAR = x` or `:=`), then its recipe's
 * tab-indented lines; `define … endef` blocks, directives (`ifeq`, `include`…) and continued lines (`\`) read as make does.
 */
function makeTargets(text: string): Target[] {
  const targets: Target[] = [];
  const vars = new Map<string, string>();
  let current: Target[] = [];
  let inDefine = false;
  for (const line of joinContinued(text).split(/\r?\n/)) {
    if (inDefine) {
      inDefine = !/^\s*endef\b/.test(line);
      continue;
    }
    if (line.startsWith('\t')) {
      const tool = toolCommand(line);
      if (tool) for (const t of current) t.commands.push(tool);
      continue;
    }
    if (/^\s*(?:define|ifn?eq|ifn?def|else|endif|-?include|sinclude|export|unexport|override|vpath)\b/.test(line)) {
      inDefine = /^\s*define\b/.test(line);
      current = [];
      continue;
    }
    if (recordVariable(vars, line)) {
      current = [];
      continue;
    }
    const rule = makeRule(line);
    if (!rule) {
      if (line.trim() && !line.startsWith('#') && !line.includes(':')) current = [];
      continue;
    }
    const { targets: names, prereqs, inline } = rule;
    current = names.map((name) => ({ name, commands: [], deps: depsOf(prereqs) }));
    const tool = toolCommand(inline);
    for (const t of current) {
      if (tool) t.commands.push(tool);
      if (!targets.some((o) => o.name === t.name)) targets.push(t);
    }
  }
  // the file's variables in place (a trial on kgabis/parson read `$(CC) $(CFLAGS)` and could not tell its warnings)
  for (const t of targets) t.commands = t.commands.map((c) => shorten(expandVariables(c, t.name, vars), COMMAND_CHARS));
  return targets;
}

/**
 * A justfile's recipes: a header `name params: deps` at the line's start (not a setting, alias, variable `:=` or
 * attribute line `[private]`), then its indented lines; a recipe whose name starts with `_` or marked `[private]` is none.
 */
function justTargets(text: string): Target[] {
  const targets: Target[] = [];
  let current: Target | null = null;
  let hidden = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^\s/.test(line)) {
      const tool = current && line.trim() ? toolLine(line) : null;
      if (current && tool) current.commands.push(tool);
      continue;
    }
    current = null;
    if (line.startsWith('[')) {
      hidden ||= /\bprivate\b/.test(line);
      continue;
    }
    const header = /^@?([A-Za-z0-9_][\w-]*)(?:\s[^:=]*)?:(?!=)(.*)$/.exec(line);
    if (header && !/^(?:set|alias|export|import|mod)\s/.test(line) && !header[1].startsWith('_') && !hidden) {
      current = { name: header[1], commands: [], deps: depsOf(header[2]).filter((d) => !d.startsWith('_')) };
      targets.push(current);
    }
    if (line.trim() && !line.startsWith('#')) hidden = false;
  }
  return targets;
}

/**
 * A Taskfile's tasks (`tasks:`): each one's `cmds` (a text or `cmd:`, a multi-line block one command a line as a CI
 * step's script: commandLines; or `task:` as `task name`) and `deps`; `internal` ones are none.
 */
function taskfileTargets(text: string): Target[] {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch {
    return [];
  }
  const tasks = isPlainObject(doc) && isPlainObject(doc.tasks) ? doc.tasks : {};
  const named = (v: unknown): string | null => (typeof v === 'string' ? v : isPlainObject(v) && typeof v.task === 'string' ? v.task : null);
  return Object.entries(tasks).flatMap(([name, task]): Target[] => {
    const spec = typeof task === 'string' || Array.isArray(task) ? { cmds: task } : isPlainObject(task) ? task : {};
    if (spec.internal === true) return [];
    const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
    const commands = list(spec.cmds).flatMap((c) => {
      const script = typeof c === 'string' ? c : isPlainObject(c) && typeof c.cmd === 'string' ? c.cmd : isPlainObject(c) && typeof c.task === 'string' ? `task ${c.task}` : '';
      return commandLines(script).flatMap((line) => toolLine(line) ?? []);
    });
    return [{ name, commands, deps: list(spec.deps).flatMap((d) => named(d) ?? []) }];
  });
}

/** tox.ini's test environments as targets (checks/toxIni.ts), each run by `tox -e name`, `[testenv]`'s the default; its envlist as a note. */
function toxTasks(text: string): Tasks {
  const { envlist, envs } = toxConfig(text);
  const targets = envs.map((e): Target => ({
    name: e.name ?? 'testenv',
    call: e.name === null ? '`[testenv]` (any environment without its own)' : `\`tox -e ${e.name}\``,
    commands: e.commands.flatMap((c) => toolLine(c) ?? []),
    deps: [],
  }));
  return { targets, notes: envlist ? [`- envlist: ${shorten(oneLine(envlist), TARGET_COMMANDS_CHARS)}`] : [] };
}

/** What a file's targets are called in its heading: tox's are environments. */
const targetsWord = (runner: string): string => (runner === 'tox' ? 'environments' : 'targets');

/**
 * A root task file read and parsed: its runner, its notes (Tasks) and its targets, the checking ones first
 * (initFactsCiRank.ts's ciRank), then in file order.
 */
interface TaskFile {
  file: string;
  runner: string;
  notes: string[];
  targets: Target[];
}

/** The task files among the walk's root files, read with its reader and parsed. */
function taskFiles({ read, layout: { rootFiles } }: WalkFiles): TaskFile[] {
  const parse: Record<(typeof TASK_FILES)[number][0], (text: string) => Tasks> = {
    make: (text) => ({ targets: makeTargets(text) }),
    just: (text) => ({ targets: justTargets(text) }),
    task: (text) => ({ targets: taskfileTargets(text) }),
    tox: toxTasks,
  };
  return TASK_FILES.flatMap(([runner, name]) => {
    const file = rootFiles.filter((n) => name.test(n)).sort()[0];
    const text = file ? read(file) : null;
    if (!file || text === null) return [];
    const { targets: all, notes = [] } = parse[runner](text);
    const targets = all.slice(0, MAX_TARGETS).filter((t) => t.commands.length || t.deps.length);
    const ranks = new Map(targets.map((t) => [t, ciRank([t.name], splitCommands(t.commands.length ? t.commands : t.deps).tools, new Map())]));
    const order = (t: Target) => ranks.get(t)!;
    targets.sort((a, b) => order(a).tier - order(b).tier || order(b).score - order(a).score);
    return targets.length ? [{ file, runner, notes, targets }] : [];
  });
}

/**
 * Each of `needs` (in characters) within `total`, shared fairly: the smaller needs whole, those past an equal share of
 * what the others left cut to it — a Makefile's long `clean` recipe does not push tox.ini's environments out.
 */
function fairShares(needs: readonly number[], total: number): number[] {
  const shares = needs.map(() => 0);
  let left = total;
  const order = needs.map((_, i) => i).sort((a, b) => needs[a] - needs[b]);
  order.forEach((i, k) => {
    shares[i] = Math.min(needs[i], Math.floor(left / (order.length - k)));
    left -= shares[i];
  });
  return shares;
}

/**
 * The task runners' part within `max` characters: each root task file (among the walk's root files) with its notes
 * and targets, `- \`make test\`: go test ./...`, the files sharing the room (fairShares); null when there is none with
 * a target. The files shown are added to `sources`.
 */
export function tasksPart(walk: WalkFiles, sources: FactSources, max: number, bounds: FactBounds): string | null {
  const files = walk.parsed.of(taskFiles);
  const within = scaled(TARGET_COMMANDS_CHARS, bounds);
  const whole = files.map(({ file, runner, notes, targets }) => ({
    file,
    head: `## ${file} (its ${targetsWord(runner)} and the commands they run; named here, not run)\n`,
    what: ` ${targetsWord(runner)}`,
    lines: [
      ...notes,
      ...targets.map((t) => `- ${t.call ?? `\`${runner} ${t.name}\``}: ${t.commands.length ? listWithin(t.commands, within) : `runs ${itemsWithin(t.deps, within)}`}`),
    ],
  }));
  const needs = whole.map((w) => w.head.length + w.lines.join('\n').length);
  const shares = fairShares(needs, max - 2 * Math.max(0, files.length - 1));
  const blocks: string[] = [];
  whole.forEach(({ file, head, what, lines }, i) => {
    // a file cut to its share needs room for a line or two under its heading; one shown whole has what it needs
    if (shares[i] < needs[i] && shares[i] - head.length < 60) return;
    blocks.push(head + linesWithin(lines, shares[i] - head.length, what));
    sources.files.push(file);
  });
  return blocks.length ? blocks.join('\n\n') : null;
}
