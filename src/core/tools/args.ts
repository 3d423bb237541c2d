// Checks of the arguments the model wrote for a tool call (zod/mini, like the envelopes): a wrong type or a missing field
// becomes an error result that says what to send instead. Paths are only type-checked here; whether they may be read
// is the policy's decision (executor.ts → workspace/policy.ts).
import * as z from '../model/schema';
import { isToolName, shownToolName, TOOL_SPECS, toolNamesText, type ToolName } from './specs';

export const MAX_QUERY_CHARS = 200;

// a line number: a number, or a string of decimal digits (models do quote numbers); never a boolean, an array or hex
const line = () =>
  z.preprocess((v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v), z.number().check(z.int(), z.minimum(1)));
const nonEmpty = () => z.string().check(z.minLength(1));
// search_files matches within one line (workspaceCalls.ts): a query of several lines would find nothing, even where
// the text is, so it is refused with what to send instead rather than answered "no matches"
const query = () =>
  z.string().check(
    z.minLength(1),
    z.maxLength(MAX_QUERY_CHARS),
    z.refine((q) => !/[\r\n]/.test(q), { message: 'a search matches within one line; send one line of the text, without line breaks' }),
  );

// z.lazy: built on the first call, not when the extension is activated.
const schemas = {
  read_file: z.lazy(() =>
    z
      .object({ path: nonEmpty(), start_line: z.optional(line()), end_line: z.optional(line()) })
      .check(
        z.refine((a) => a.start_line === undefined || a.end_line === undefined || a.end_line >= a.start_line, {
          message: 'end_line must not be before start_line',
        }),
      ),
  ),
  // a folder argument may be empty, as for list_files: "" (a model's value for an optional field), like ".", means the root
  search_files: z.lazy(() => z.object({ query: query(), path: z.optional(z.string()) })),
  list_files: z.lazy(() => z.object({ path: z.optional(z.string()) })),
} satisfies Record<ToolName, unknown>; // a tool of TOOL_SPECS without its schema here does not compile

export type ReadFileArgs = z.infer<(typeof schemas)['read_file']>;
export type SearchFilesArgs = z.infer<(typeof schemas)['search_files']>;
export type ListFilesArgs = z.infer<(typeof schemas)['list_files']>;

export type ToolArgs =
  | { tool: 'read_file'; args: ReadFileArgs }
  | { tool: 'search_files'; args: SearchFilesArgs }
  | { tool: 'list_files'; args: ListFilesArgs };

/** What a tool takes, from its definition for the model: `{ path: string, start_line?: integer ≥ 1 }`. */
function usage(name: ToolName): string {
  const schema = TOOL_SPECS.find((t) => t.name === name)?.inputSchema as
    | { properties?: Record<string, { type?: string; minimum?: number }>; required?: string[] }
    | undefined;
  const fields = Object.entries(schema?.properties ?? {}).map(([key, p]) => {
    const optional = schema?.required?.includes(key) ? '' : '?';
    return `${key}${optional}: ${p.type ?? 'any'}${p.minimum !== undefined ? ` ≥ ${p.minimum}` : ''}`;
  });
  return `${name} takes { ${fields.join(', ')} }`;
}

/** The checked arguments of a call, or the reason they cannot be used (and what to send instead). */
export function checkToolArgs(name: string, input: unknown): { ok: true; call: ToolArgs } | { ok: false; reason: string } {
  if (!isToolName(name)) return { ok: false, reason: `unknown tool "${shownToolName(name)}"; the tools are ${toolNamesText()}` };
  const parsed = schemas[name].safeParse(input ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ');
    return { ok: false, reason: `invalid arguments for ${name} (${issues}); ${usage(name)}` };
  }
  return { ok: true, call: { tool: name, args: parsed.data } as ToolArgs };
}
