// Init's workspace facts (initFacts.ts), the task runners' part: the root's Makefile, justfile or Taskfile.yml
// (TASK_FILES: the one list of their names, which the layout's root line names too) with each target and the commands
// it runs — the tool lines, not a recipe's `@echo` or make's `$(if …)` plumbing; a target that runs no command of its
// own names the targets it runs — the targets that check a change first (initFactsCiRank.ts's order, by the target's
// name and commands), then in the file's order. An init trial on gorilla/mux got "to run and ship it: Makefile" and
// no target: `make verify`'s linters and `make test`'s flags were never shown. Read through the read policy and parsed
// once per walk (ParsedInputs), line by line (a Taskfile as YAML with the safe schema), named and quoted, never run.
import { parseYaml } from './frontmatter';
import { MAKEFILE_NAME } from '../workspace/fileKinds';
import { joinContinued } from '../text/lines';
import { oneLine, shorten } from '../text/cut';
import { isPlainObject } from '../model/types';
import { chained, ciRank, isPlumbing, splitCommands } from './initFactsCiRank';
import { COMMAND_CHARS, commandLines } from './initFactsCi';
import { itemsWithin } from './initManifests';
import { linesWithin, listWithin, scaled, type FactBounds, type FactSources, type WalkFiles } from './initFactsText';

/** The task runners by their files' names at the root (the first file of a runner is read): the program that runs a target, how a file is parsed. */
const TASK_FILES: readonly (readonly [runner: 'make' | 'just' | 'task', name: RegExp])[] = [
  ['make', MAKEFILE_NAME],
  ['just', /^\.?[Jj]ustfile$/],
  ['task', /^[Tt]askfile(?:\.dist)?\.ya?ml$/],
];

/** Whether a root file's name is a task runner's file (the layout names it among the files that run the project). */
export const isTaskFile = (name: string): boolean => TASK_FILES.some(([, p]) => p.test(name));

/** One target's commands at most (at the facts' scale), and the targets read from a file at most. */
const TARGET_COMMANDS_CHARS = 240;
const MAX_TARGETS = 200;

/** A target: its name, the commands its recipe runs (tool lines), the targets it depends on. */
interface Target {
  name: string;
  commands: string[];
  deps: string[];
}

/** A target's name as people run it: a word, no pattern (`%.o`), variable, path or special target (`.PHONY`). */
const TARGET_NAME = /^[A-Za-z0-9_][\w.-]*$/;
/** A make function heading a recipe line (`$(if $(X), ,go install …)`, `$(info …)`): make's plumbing, not a tool. */
const MAKE_FUNCTION = /^\$[({][a-z-]+\s/;

/**
 * A recipe line as the part shows it, or null when it runs no tool: its echo and prefix characters (`@`, `-`, `+`)
 * off; null for a make function or a line whose every `&&`/`;`-chained command is shell plumbing (isPlumbing).
 */
function toolLine(raw: string): string | null {
  const line = oneLine(raw.replace(/^[\s@+-]+/, ''));
  if (!line || line.startsWith('#') || MAKE_FUNCTION.test(line)) return null;
  return chained(line).some((c) => !isPlumbing(c)) ? shorten(line, COMMAND_CHARS) : null;
}

/** A rule's or recipe header's dependencies: the target names among its words (an order-only `|`, a `(dep "arg")` call aside). */
const depsOf = (text: string): string[] => text.split(/\s+/).filter((w) => TARGET_NAME.test(w));

/**
 * A Makefile's targets: a rule line `name other: deps` (not an assignment, `name: VAR = x` or `:=`), then its recipe's
 * tab-indented lines; `define … endef` blocks, directives (`ifeq`, `include`…) and continued lines (`\`) read as make does.
 */
function makeTargets(text: string): Target[] {
  const targets: Target[] = [];
  let current: Target[] = [];
  let inDefine = false;
  for (const line of joinContinued(text).split(/\r?\n/)) {
    if (inDefine) {
      inDefine = !/^\s*endef\b/.test(line);
      continue;
    }
    if (line.startsWith('\t')) {
      const tool = toolLine(line);
      if (tool) for (const t of current) t.commands.push(tool);
      continue;
    }
    if (/^\s*(?:define|ifn?eq|ifn?def|else|endif|-?include|sinclude|export|unexport|override|vpath)\b/.test(line)) {
      inDefine = /^\s*define\b/.test(line);
      current = [];
      continue;
    }
    const colon = line.indexOf(':');
    const eq = line.indexOf('=');
    if (colon <= 0 || line.startsWith('#') || (eq >= 0 && eq <= colon + 1)) {
      if (line.trim() && !line.startsWith('#')) current = [];
      continue;
    }
    const [prereqs, inline = ''] = line.slice(colon + 1).replace(/^:/, '').split(';');
    if (prereqs.includes('=')) continue; // a target-specific variable
    current = line.slice(0, colon).trim().split(/\s+/).filter((n) => TARGET_NAME.test(n)).map((name) => ({ name, commands: [], deps: depsOf(prereqs) }));
    const tool = toolLine(inline);
    for (const t of current) {
      if (tool) t.commands.push(tool);
      if (!targets.some((o) => o.name === t.name)) targets.push(t);
    }
  }
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

/** A root task file read and parsed: its runner and targets, the checking ones first (initFactsCiRank.ts's ciRank), then in file order. */
interface TaskFile {
  file: string;
  runner: string;
  targets: Target[];
}

/** The task files among the walk's root files, read with its reader and parsed. */
function taskFiles({ read, layout: { rootFiles } }: WalkFiles): TaskFile[] {
  const parse = { make: makeTargets, just: justTargets, task: taskfileTargets };
  return TASK_FILES.flatMap(([runner, name]) => {
    const file = rootFiles.filter((n) => name.test(n)).sort()[0];
    const text = file ? read(file) : null;
    if (!file || text === null) return [];
    const targets = parse[runner](text).slice(0, MAX_TARGETS).filter((t) => t.commands.length || t.deps.length);
    const ranks = new Map(targets.map((t) => [t, ciRank([t.name], splitCommands(t.commands.length ? t.commands : t.deps).tools, new Map())]));
    const order = (t: Target) => ranks.get(t)!;
    targets.sort((a, b) => order(a).tier - order(b).tier || order(b).score - order(a).score);
    return targets.length ? [{ file, runner, targets }] : [];
  });
}

/**
 * The task runners' part within `max` characters: each root task file (among the walk's root files) with its targets,
 * `- \`make test\`: go test ./...`; null when there is none with a target. The files shown are added to `sources`.
 */
export function tasksPart(walk: WalkFiles, sources: FactSources, max: number, bounds: FactBounds): string | null {
  const files = walk.parsed.of(taskFiles);
  const blocks: string[] = [];
  let room = max;
  for (const { file, runner, targets } of files) {
    const head = `## ${file} (its targets and the commands they run; named here, not run)\n`;
    if (room - head.length - (blocks.length ? 2 : 0) < 60) break;
    const within = scaled(TARGET_COMMANDS_CHARS, bounds);
    const lines = targets.map((t) => `- \`${runner} ${t.name}\`: ${t.commands.length ? listWithin(t.commands, within) : `runs ${itemsWithin(t.deps, within)}`}`);
    const block = head + linesWithin(lines, room - head.length - (blocks.length ? 2 : 0), ' targets');
    blocks.push(block);
    room -= block.length + 2;
    sources.files.push(file);
  }
  return blocks.length ? blocks.join('\n\n') : null;
}
