// Runs a step's tool calls — their bodies in workspaceCalls.ts, under the read policy (workspace/policy.ts: path
// rules, .git, cape/, secrets, .gitignore, size, binaries) — within the step's bounds. A refused call gets an error result that says why, and nothing of the
// refused file is read into a result. Calls of one turn run in parallel; their characters are then counted in the
// calls' order, so the outcome does not depend on which read finished first. Past a bound every call receives
// LIMIT_REACHED. Each call becomes a ToolCallRecord (what was asked, how much was returned, why it was refused — never
// the body) for the session events and the pair artifact.
import { shorten, sliceWhole } from '../text/cut';
import { WorkspacePolicy } from '../workspace/policy';
import type { ToolAnswer } from '../llm/toolLoop';
import type { ToolCall, ToolCallRecord } from '../model/types';
import { checkToolArgs } from './args';
import { DEFAULT_MAX_TOOL_CALLS, DEFAULT_MAX_TOOL_CHARS, LIMIT_REACHED, toolUseText, type ToolBounds } from './specs';
import { refused, WorkspaceCalls, type Outcome } from './workspaceCalls';

export interface ToolRunnerOptions {
  workspace: string;
  capeFolder?: string;
  bounds?: Partial<ToolBounds>;
  /** Called once per call, in the calls' order, when its result is final. */
  onCall?: (record: ToolCallRecord) => void;
  signal?: AbortSignal;
  /** A policy already built for this workspace (shares its parsed .gitignore files). */
  policy?: WorkspacePolicy;
  /** The bounds of one search's or listing's walk (default MAX_WALK_FILES files, MAX_WALK_DIRS folders). */
  walkBounds?: { files?: number; dirs?: number };
}

/** Positive integer bounds; anything else falls back to the default. */
export function resolveBounds(b: Partial<ToolBounds> = {}): ToolBounds {
  const ok = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;
  return { maxCalls: ok(b.maxCalls) ? b.maxCalls : DEFAULT_MAX_TOOL_CALLS, maxChars: ok(b.maxChars) ? b.maxChars : DEFAULT_MAX_TOOL_CHARS };
}

export class ToolRunner {
  readonly bounds: ToolBounds;
  readonly records: ToolCallRecord[] = [];
  /** Workspace-relative paths whose content (whole or in part) was returned by read_file. */
  readonly readPaths = new Set<string>();
  private readonly tools: WorkspaceCalls;
  private calls = 0;
  private chars = 0;

  constructor(private readonly opts: ToolRunnerOptions) {
    this.bounds = resolveBounds(opts.bounds);
    const policy = opts.policy ?? new WorkspacePolicy(opts.workspace, { capeFolder: opts.capeFolder });
    this.tools = new WorkspaceCalls(policy, { walkBounds: opts.walkBounds, signal: opts.signal });
  }

  get usedCalls(): number {
    return this.calls;
  }

  get usedChars(): number {
    return this.chars;
  }

  /**
   * Takes back the calls of an earlier run of this step (a kept reply resumed, session/keptReply.ts): their records,
   * the files they read, and what they used of the bounds, so the step goes on within its bounds, not afresh. Each
   * call answered counts, with the characters it returned (a result cut at the budget had used it up); a call answered
   * "limit reached" counts as none, as it did when a bound had been reached before it.
   */
  restore(records: readonly ToolCallRecord[], readPaths: Iterable<string>): void {
    for (const r of records) {
      this.records.push(r);
      if (r.limited) continue;
      this.calls++;
      if (r.truncated) this.chars = Math.max(this.chars, this.bounds.maxChars);
      else if (!r.refused) this.chars += r.chars;
    }
    for (const p of readPaths) this.readPaths.add(p);
  }

  /** What the step has used of its bounds, as the request after a turn's results states it. */
  usedText(): string {
    return toolUseText({ calls: this.calls, chars: Math.min(this.chars, this.bounds.maxChars), spent: this.spent() }, this.bounds);
  }

  /** No further call can be answered. */
  spent(): boolean {
    return this.calls >= this.bounds.maxCalls || this.chars >= this.bounds.maxChars;
  }

  /** Answers every call of one turn (in parallel), in the calls' order. */
  async execute(calls: ToolCall[]): Promise<ToolAnswer[]> {
    const planned = calls.map((c) => {
      if (this.spent()) return null;
      this.calls++;
      return this.run(c);
    });
    const outcomes = await Promise.all(planned);
    const answers: ToolAnswer[] = [];
    calls.forEach((c, i) => {
      let o = outcomes[i];
      if (!o) {
        o = { content: LIMIT_REACHED, isError: true, record: { tool: c.name, target: targetOf(c.input), limited: true } };
      } else if (!o.isError && this.chars >= this.bounds.maxChars) {
        // an earlier call of this turn used the rest of the budget
        o = { content: LIMIT_REACHED, isError: true, record: { ...o.record, limited: true } };
      } else if (!o.isError) {
        const left = this.bounds.maxChars - this.chars;
        if (o.content.length > left) {
          const cut = cutAt(o.content, left);
          const record = { ...o.record, truncated: true };
          // a file read cut short: its record names the lines the model got whole, not the lines it asked for
          if (record.tool === 'read_file') {
            const kept = readLinesKept(o.content, cut, record.lines);
            if (kept) record.lines = kept;
            else delete record.lines;
          }
          // a search cut short: the hits whose lines the model got whole (one a line, in order)
          if (record.found) {
            const whole = wholeLines(o.content, cut);
            if (whole > 0) record.found = record.found.slice(0, whole);
            else delete record.found;
          }
          o = {
            ...o,
            content: `${cut}\n[… cut here: the step's tool budget of ${this.bounds.maxChars} characters is used up — ${LIMIT_REACHED}]`,
            record,
          };
          // the cut (even at a line break short of the end) is the budget's end, as its note tells the model
          this.chars = this.bounds.maxChars;
        } else {
          this.chars += o.content.length;
        }
        if (o.readPath) this.readPaths.add(o.readPath);
      }
      const record: ToolCallRecord = { id: c.id, ...o.record, chars: o.isError ? 0 : o.content.length };
      this.records.push(record);
      try {
        this.opts.onCall?.(record);
      } catch {
        /* a listener's bug must not break the step */
      }
      answers.push({ toolUseId: c.id, content: o.content, isError: o.isError });
    });
    return answers;
  }

  private async run(c: ToolCall): Promise<Outcome> {
    // input the model could not finish or did not write as an object: refused like bad arguments (and counted alike,
    // so a model whose every call is cut off still meets the step's limit)
    if (c.problem) return refused(c.name, targetOf(c.input), c.problem);
    const checked = checkToolArgs(c.name, c.input);
    if (!checked.ok) return refused(c.name, targetOf(c.input), checked.reason);
    try {
      switch (checked.call.tool) {
        case 'read_file':
          return await this.tools.readFile(checked.call.args);
        case 'search_files':
          return await this.tools.searchFiles(checked.call.args);
        case 'list_files':
          return await this.tools.listFiles(checked.call.args);
      }
    } catch (err) {
      return refused(c.name, targetOf(c.input), `the call failed: ${(err as Error).message}`);
    }
  }
}

/** What a call was about (a path or a query), for records of calls whose arguments did not check out. */
function targetOf(input: unknown): string {
  const o = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  const v = o.path ?? o.query;
  const s = typeof v === 'string' ? v : '';
  return shorten(s, 200);
}

/**
 * The lines a read_file result cut at the budget still holds whole, as [first, last]; null when none. The result
 * starts with a heading line; `asked`: the range the call returned in full, undefined for a whole file.
 */
export function readLinesKept(full: string, cut: string, asked: [number, number] | undefined): [number, number] | null {
  const heading = full.indexOf('\n') + 1;
  if (cut.length <= heading) return null;
  const whole = wholeLines(full.slice(heading), cut.slice(heading));
  const first = asked ? asked[0] : 1;
  return whole > 0 ? [first, first + whole - 1] : null;
}

/** How many lines of `full` its beginning `cut` holds whole: a line is whole when the break after it (or the end) made it in. */
export function wholeLines(full: string, cut: string): number {
  const atLineEnd = cut.length === full.length || full[cut.length] === '\n' || (full[cut.length] === '\r' && full[cut.length + 1] === '\n');
  return (cut.match(/\n/g)?.length ?? 0) + (atLineEnd && cut.length > 0 ? 1 : 0);
}

/** The first `n` characters of `text`, ending at a line break when one is near. */
function cutAt(text: string, n: number): string {
  if (n <= 0) return '';
  const head = sliceWhole(text, 0, n);
  const nl = head.lastIndexOf('\n');
  return nl > n * 0.8 ? head.slice(0, nl) : head;
}
