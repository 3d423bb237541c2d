// The tools domain (src/core/tools/) owns what a role may call during its step to look at the workspace —
// read_file, search_files, list_files: their definitions for the model (this file), the checks of their arguments
// (args.ts), and their execution under the read policy and the per-step bounds (executor.ts). What may be read is
// decided by src/core/workspace/policy.ts alone. Plain Node: nothing in src/core may import 'vscode'.
import type { StepId, ToolSpec } from '../model/types';
import { shorten } from '../text/cut';

/** The tools as the model is offered them: the one list of the tools (their names below come from here). */
export const TOOL_SPECS = [
  {
    name: 'read_file',
    description:
      'Read a text file of the workspace (workspace-relative path; installed dependencies under node_modules/ too). Optionally only lines start_line..end_line ' +
      '(1-based, inclusive). Each line comes after its number ("12: text"): cite a line by that number; a SEARCH copies ' +
      'the text after "N: " exactly, never the number. Read a file before changing it.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'workspace-relative path, e.g. src/app.ts' },
        start_line: { type: 'integer', minimum: 1 },
        end_line: { type: 'integer', minimum: 1 },
      },
      required: ['path'],
    },
  },
  {
    name: 'search_files',
    description:
      'Search the text of the workspace files for a plain string (case-insensitive, not a regex; .gitignore respected). ' +
      'Returns matching lines as "path:line: text", each with its indentation. Optionally only under the folder, or in the file, `path`.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'the plain text to look for, within one line' },
        path: { type: 'string', description: 'a workspace-relative folder or file to search in (default: the whole workspace)' },
      },
      required: ['query'],
    },
  },
  {
    name: 'list_files',
    description:
      'List the files under a workspace folder (default: the workspace root), recursively, one path per line; a long listing counts the files of its deepest folders instead (list one of them to see its files).',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'a workspace-relative folder (default: the workspace root)' },
      },
    },
  },
] as const satisfies readonly ToolSpec[];

export type ToolName = (typeof TOOL_SPECS)[number]['name'];
export const TOOL_NAMES: readonly ToolName[] = TOOL_SPECS.map((t) => t.name);

/** True for the name of one of the tools (never for an Object.prototype key such as "constructor"). */
export function isToolName(name: string): name is ToolName {
  return (TOOL_NAMES as readonly string[]).includes(name);
}

/** The tools' names for a message: "read_file, search_files and list_files". */
export function toolNamesText(): string {
  return TOOL_NAMES.length > 1 ? `${TOOL_NAMES.slice(0, -1).join(', ')} and ${TOOL_NAMES[TOOL_NAMES.length - 1]}` : TOOL_NAMES.join('');
}

/** The steps that may call tools: DevA and DA look at the code; CM and POA work from the team's context only. */
export const TOOL_STEPS: readonly StepId[] = ['da', 'deva'];

/** Default bounds of one step (settings cape.tools.maxCalls / cape.tools.maxChars, CLI --max-tool-calls / --max-tool-chars). */
export const DEFAULT_MAX_TOOL_CALLS = 12;
export const DEFAULT_MAX_TOOL_CHARS = 80_000;

export interface ToolBounds {
  maxCalls: number;
  maxChars: number;
}

/**
 * Whether bounds leave the tools on: 0 calls, or 0 characters of results (every call would answer "limit reached"),
 * turn them off, so the step gets no tool definitions — a provider that cannot forbid calls (VS Code's language
 * models) would otherwise keep calling into a spent budget until the step fails.
 */
export function toolsOn(bounds: Partial<ToolBounds>): boolean {
  return bounds.maxCalls !== 0 && bounds.maxChars !== 0;
}

/**
 * What the step has used of its bounds, sent after each turn's tool results: a trial's DevA, told the bounds once at
 * the top of a long request, could count its calls but not the characters its reads returned, and so could not tell
 * whether one more whole file would fit.
 */
export function toolUseText(used: { calls: number; chars: number; spent: boolean }, b: ToolBounds): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return (
    `[Tools used in this step: ${n(used.calls)} of ${n(b.maxCalls)} calls, ${n(used.chars)} of ${n(b.maxChars)} characters of results` +
    `${used.spent ? ` — the budget is spent: write your answer now` : ''}.]`
  );
}

/** The text every call past a bound receives. */
export const LIMIT_REACHED = 'limit reached — write your answer now';

/**
 * The step's bounds as its request states them (the workspace section of DA and DevA): a trial's DA, told only that
 * calls were "bounded", could not plan its reads and did not know it could make several calls in one turn.
 */
export function toolBoundsText(b: ToolBounds): string {
  const calls = `${b.maxCalls.toLocaleString('en-US')} call${b.maxCalls === 1 ? '' : 's'}`;
  return (
    `Your tools in this step: at most ${calls} and ${b.maxChars.toLocaleString('en-US')} characters of results in all; ` +
    `the calls of one turn run together. Past either bound a call answers "${LIMIT_REACHED}".`
  );
}

/** A tool name as answers and records show it: a name the model made up is cut (no tool's name is half as long). */
export function shownToolName(name: string): string {
  return shorten(name, 60);
}
