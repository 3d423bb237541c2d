// Init's workspace facts (initFacts.ts), the CI part: the continuous-integration configuration files at the root (GitHub
// Actions workflows, GitLab CI, CircleCI, Azure Pipelines, Jenkins…), each with its service, the commands its steps
// run and the actions they use that check something (`uses securego/gosec (args: ./...)`, not actions/checkout or
// setup-go), not those that only set up the job (installs, writes to $GITHUB_ENV) — how the project checks a change.
// Read through the read policy (MAX_CI_READS files at most) and parsed once per walk (ParsedInputs), as YAML with the
// safe schema (a Jenkinsfile's `sh` steps by their lines), named and quoted, never run; shown in the order of how much
// they say about how a change is checked, each with its tool lines before its shell plumbing (initFactsCiRank.ts).
import * as path from 'path';
import { parseYaml } from './frontmatter';
import { oneLine, shorten } from '../text/cut';
import { isPlainObject } from '../model/types';
import { itemsWithin } from './initManifests';
import { linesWithin, listWithin, scaled, type FactBounds, type FactSources, type WalkFiles } from './initFactsText';
import { byRank, checksSomething, ciRank, scriptsOf, splitCommands, type CiRank } from './initFactsCiRank';

/** The CI services by their configuration files' paths (workspace-relative); the first that matches names a file's service. */
const CI_SERVICES: readonly (readonly [service: string, path: RegExp])[] = [
  ['GitHub Actions', /^\.github\/workflows\/[^/]+\.ya?ml$/],
  ['GitLab CI', /^\.gitlab-ci\.ya?ml$/],
  ['CircleCI', /^\.circleci\/config\.ya?ml$/],
  ['Azure Pipelines', /^azure-pipelines\.ya?ml$/],
  ['Jenkins', /^Jenkinsfile$/],
  ['Travis CI', /^\.travis\.ya?ml$/],
  ['Bitbucket Pipelines', /^bitbucket-pipelines\.ya?ml$/],
  ['Buildkite', /^\.buildkite\/pipeline\.ya?ml$/],
  ['Drone', /^\.drone\.ya?ml$/],
  ['Woodpecker', /^\.woodpecker(?:\.ya?ml|\/[^/]+\.ya?ml)$/],
  ['AppVeyor', /^\.?appveyor\.ya?ml$/],
];

/** The keys whose values are the commands a step runs, across the services' YAML (`run`, `script`, `command`…). */
const COMMAND_KEYS = new Set(['run', 'script', 'before_script', 'after_script', 'install', 'before_install', 'command', 'commands', 'bash', 'pwsh', 'powershell', 'sh']);
/** A GitHub Actions step's inputs to its action: no command of the step's (actions/github-script's `script` is JavaScript). */
const ACTION_INPUTS = 'with';
/** A Jenkinsfile's shell step on one line: `sh 'npm test'`, `sh("npm test")`, `bat "…"`. */
const JENKINS_STEP = /^\s*(?:sh|bat|powershell)\s*(?:\(\s*)?(["'])([^"'\n]+)\1/;

/** A command at most (the task runners' part's too), and one file's commands at the facts' scale, "… N more" included. */
export const COMMAND_CHARS = 120;
const FILE_COMMANDS_CHARS = 400;
/** Commands read from one file at most (a generated workflow can hold thousands). */
const MAX_COMMANDS = 60;
/** CI files read at most (in name order): the others are named, ranked as running nothing, and not read. */
const MAX_CI_READS = 40;

/** The CI service a workspace-relative path configures, or null. */
export function ciServiceOf(rel: string): string | null {
  return CI_SERVICES.find(([, p]) => p.test(rel))?.[0] ?? null;
}

/**
 * Each line of a script (a CI step's, a Taskfile's `cmd` block) that is not empty or a comment, as one command; a line
 * ending in `\` continues on the next.
 */
export function commandLines(script: string): string[] {
  const out: string[] = [];
  let pending = '';
  for (const raw of script.split('\n')) {
    const line = raw.trim();
    if (!pending && (!line || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) pending += `${line.slice(0, -1).trimEnd()} `;
    else {
      out.push(pending + line);
      pending = '';
    }
  }
  if (pending.trim()) out.push(pending);
  return out.map((l) => shorten(oneLine(l.trim()), COMMAND_CHARS));
}

/**
 * A step's action as the part names it — `uses owner/name (args: …)`, its ref left out, with the `args` input the
 * action passes to its tool — when it checks something (checksSomething); null for a step without one or another action.
 */
function actionStep(step: Record<string, unknown>): string | null {
  if (typeof step.uses !== 'string') return null;
  const action = step.uses.trim().replace(/@[^@/]*$/, '');
  if (!action || !checksSomething(action)) return null;
  const inputs = step[ACTION_INPUTS];
  const args = isPlainObject(inputs) && typeof inputs.args === 'string' && inputs.args.trim() ? ` (args: ${inputs.args})` : '';
  return shorten(oneLine(`uses ${action}${args}`), COMMAND_CHARS);
}

/**
 * The commands of a parsed CI configuration, in document order: the text (or list of texts) under a COMMAND_KEYS key
 * at any depth (CircleCI's `run: { command }` too), not in an action's inputs (ACTION_INPUTS), and the actions that
 * check something (actionStep). Each node is visited once, so an alias repeated many times costs nothing more.
 */
function yamlCommands(doc: unknown): string[] {
  const out: string[] = [];
  const seen = new Set<object>();
  const visit = (v: unknown, isCommand: boolean): void => {
    if (out.length >= MAX_COMMANDS) return;
    if (typeof v === 'string') {
      if (isCommand) out.push(...commandLines(v));
      return;
    }
    if (!v || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) for (const item of v) visit(item, isCommand);
    else {
      const action = actionStep(v as Record<string, unknown>);
      if (action) out.push(action);
      for (const [k, val] of Object.entries(v)) if (k !== ACTION_INPUTS) visit(val, COMMAND_KEYS.has(k));
    }
  };
  visit(doc, false);
  return out.slice(0, MAX_COMMANDS);
}

/** A GitHub workflow's name and the events that start it (`on:`), e.g. `"CI", on push, pull_request`. */
function workflowLabel(doc: unknown): string {
  if (!isPlainObject(doc)) return '';
  const name = typeof doc.name === 'string' && doc.name.trim() ? `"${shorten(oneLine(doc.name), 60)}"` : '';
  const on = doc.on;
  const events = typeof on === 'string' ? [on] : Array.isArray(on) ? on.filter((e): e is string => typeof e === 'string') : isPlainObject(on) ? Object.keys(on) : [];
  return [name, events.length ? `on ${itemsWithin(events.map((e) => shorten(oneLine(e), 40)), 160)}` : ''].filter(Boolean).join(', ');
}

/** What a CI file says, once read: a workflow's name and events, the commands its steps run; null when not valid YAML. */
interface CiRead {
  label: string;
  /** The workflow's `name:` (a GitHub workflow's), for its rank. */
  name: string;
  commands: string[];
}

/** A CI file's label and commands (each once, in the order first seen: several jobs run the same install or lint). */
function readCi(service: string, text: string): CiRead | null {
  if (service === 'Jenkins') {
    const commands = text.split('\n').flatMap((l) => JENKINS_STEP.exec(l)?.[2] ?? []).slice(0, MAX_COMMANDS).map((c) => shorten(oneLine(c), COMMAND_CHARS));
    return { label: '', name: '', commands: [...new Set(commands)] };
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch {
    return null;
  }
  const github = service === 'GitHub Actions';
  const name = github && isPlainObject(doc) && typeof doc.name === 'string' ? doc.name : '';
  return { label: github ? workflowLabel(doc) : '', name, commands: [...new Set(yamlCommands(doc))] };
}

/** One CI file as the part shows it: `got` is what it says, null when not valid YAML, false when the policy refused it, undefined when past MAX_CI_READS. */
interface CiFile {
  rel: string;
  service: string;
  got: CiRead | null | false | undefined;
  /** The commands its line shows (splitCommands' `shown`): none when not read, or when they only set up the job. */
  shown: string[];
  rank: CiRank;
}

/**
 * One CI file's line: its path, service (and a workflow's name and events), and the commands its steps run, those that
 * run tools before the shell's plumbing (a long inline script's echo and if lines come last, cut first), without those
 * that only set up the job (isSetup: installs, writes to $GITHUB_ENV…): the file's `shown`, split once per walk.
 */
function ciLine({ rel, service, got, shown }: CiFile, bounds: FactBounds): string {
  if (got === undefined || got === false) return `- ${rel} (${service}${got === false ? '; not read' : ''})`;
  if (got === null) return `- ${rel} (${service}; not valid YAML)`;
  const runs = shown.length ? `: ${listWithin(shown, scaled(FILE_COMMANDS_CHARS, bounds))}` : got.commands.length ? ': setup commands only' : ': no commands found';
  return `- ${rel} (${[service, got.label].filter(Boolean).join('; ')})${runs}`;
}

/**
 * The CI configuration files among the walk's kept paths, read (MAX_CI_READS at most), parsed, their commands split
 * (splitCommands) and in rank order.
 */
function ciFiles({ read, layout }: WalkFiles): CiFile[] {
  const configs = layout.kept.flatMap((rel) => {
    const service = ciServiceOf(rel);
    return service ? [{ rel, service }] : [];
  });
  configs.sort((a, b) => (a.rel < b.rel ? -1 : 1));
  const scripts = scriptsOf(configs.length ? read('package.json') : null);
  const files: CiFile[] = configs.map(({ rel, service }, i) => {
    const text = i < MAX_CI_READS ? read(rel) : undefined;
    const got = text === undefined ? undefined : text !== null ? readCi(service, text) : false;
    const { tools, shown } = splitCommands(got ? got.commands : []);
    return { rel, service, got, shown, rank: ciRank([path.posix.parse(rel).name, got ? got.name : ''], tools, scripts) };
  });
  return files.sort(byRank);
}

/**
 * The CI part within `max` characters, from the configuration files among the walk's kept paths (read with its reader,
 * as the root's package.json for its scripts), or null when there are none: the files that check a change first
 * (initFactsCiRank.ts). The files read whose lines are shown are added to `sources`.
 */
export function ciPart(walk: WalkFiles, sources: FactSources, max: number, bounds: FactBounds): string | null {
  // read, parsed and ranked once per walk, whatever the facts' scale and set of parts
  const files = walk.parsed.of(ciFiles);
  if (!files.length) return null;
  const head = '## CI configuration (the commands and checking actions its steps run, setup left out; named here, not run)\n';
  const text = linesWithin(files.map((f) => ciLine(f, bounds)), max - head.length, ' CI files');
  // the files whose lines are shown (a cut line among them) and were read
  const shown = files.slice(0, text.split('\n').filter((l) => !l.startsWith('- … ')).length);
  sources.files.push(...shown.filter((f) => f.got !== undefined && f.got !== false).map((f) => f.rel));
  return head + text;
}
