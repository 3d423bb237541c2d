// How a part of init's workspace facts (initFacts.ts) is written: a list of lines (or of items joined by "; ") cut to
// its bound with a count of those left out, a file's text quoted under a heading in a fence the text cannot close,
// what a part was made from, the scale its bounds are taken at, and how the parts read a file and parse their inputs
// once per walk.
import type { WorkspacePolicy } from '../workspace/policy';
import type { WorkspaceLayout } from '../workspace/layout';
import { headOf, joinWithin, NOT_SHOWN_CHARS } from '../text/cut';
import { fenceFor } from '../text/markdown';

/** Lines joined within `max` characters, then a line counting those left out (`- … 3 more folders`: joinWithin). */
export const linesWithin = (lines: readonly string[], max: number, what = '', indent = ''): string =>
  joinWithin(lines, max, '\n', (n) => `\n${indent}- … ${n} more${what}`);

/** Items (commands, tokens, fonts: texts that may hold commas) joined by "; " within `max` characters, then `; … N more`. */
export const listWithin = (items: readonly string[], max: number): string => joinWithin(items, max, '; ', (n) => `; … ${n} more`);

/** A file's text quoted under a heading in a fence it cannot close, cut (headOf) so the whole fits in `max`; null when too little room. */
export function quoted(title: string, text: string, max: number): string | null {
  const body = text.trim();
  const fence = fenceFor(body);
  const head = `## ${title}\n${fence}\n`;
  const room = max - head.length - fence.length - 1 - NOT_SHOWN_CHARS;
  if (room < 120 || !body) return null;
  return `${head}${headOf(body, room)}\n${fence}`;
}

/**
 * The parts of the facts, by id, in their order (initFacts.ts's header describes each): a project file may be written
 * from some of them only (prompts/inputs.json `facts`: true for all, or a list of these).
 */
export const FACT_PARTS = ['manifests', 'checks', 'tasks', 'ci', 'layout', 'code', 'style', 'readme', 'status', 'guidance'] as const;
export type FactPart = (typeof FACT_PARTS)[number];

/** A set of parts in FACT_PARTS order, each once. */
export const inPartsOrder = (parts: readonly FactPart[]): FactPart[] => FACT_PARTS.filter((p) => parts.includes(p));

/** A set of parts by its key, the same in any order: its parts in FACT_PARTS order (initFacts.ts's WorkspaceFacts.some). */
export const setKey = (parts: readonly FactPart[]): string => inPartsOrder(parts).join();

/** What a part of the facts was made from: the files it read, and what it shows from names alone (no file read). */
export interface FactSources {
  files: string[];
  listed: string[];
}

export const noSources = (): FactSources => ({ files: [], listed: [] });

/**
 * The scale every bound of the facts is taken at, the parts' and those within them (a manifest's head, a CI file's
 * commands, a folder's sub-folder lines, a page's links): 1 as written, more when the facts have room (initFacts.ts).
 */
export interface FactBounds {
  readonly scale: number;
}

/** A bound of the facts (in characters) at the scale of `bounds`. */
export const scaled = (chars: number, bounds: FactBounds): number => Math.floor(chars * bounds.scale);

/** A workspace file's text by its workspace-relative path; null when the read policy refuses it or it is not there. */
export type ReadText = (rel: string) => string | null;

/**
 * ReadText under `policy`, each file read once however often it is asked for: the facts are rendered from one walk
 * for every set of parts, each up to three times (initFacts.ts's fittedFacts).
 */
export function readOnce(policy: WorkspacePolicy): ReadText {
  const texts = new Map<string, string | null>();
  return (rel) => {
    if (!texts.has(rel)) {
      const got = policy.readSync(rel);
      texts.set(rel, got.ok ? got.text : null);
    }
    return texts.get(rel) ?? null;
  };
}

/**
 * What the parts parse from one walk's files (the CI files, the task files, the style sources), each parsed once
 * however often the facts are rendered from the walk: the one memo of them, made with the walk (initFacts.ts's Found)
 * and gone with it, so that another walk parses its own.
 */
export class ParsedInputs {
  private readonly made = new Map<object, unknown>();

  /** The memo of the walk `walk` gives (asked for at the first parse: the walk holds its memo). */
  constructor(private readonly walk: () => WalkFiles) {}

  /**
   * What `parse` makes of the walk, parsed at its first ask: `parse` is the key (a module-level function, one per kind
   * of input), and takes what it reads and parses from the walk itself (its reader, its paths).
   */
  of<T>(parse: (walk: WalkFiles) => T): T {
    if (!this.made.has(parse)) this.made.set(parse, parse(this.walk()));
    return this.made.get(parse) as T;
  }
}

/**
 * One walk as the parts that read and parse its files take it (initFacts.ts's Found): the paths it kept for them and
 * the root's files, the read policy, its reader (readOnce) and the memo of what the parts parsed.
 */
export interface WalkFiles {
  layout: Pick<WorkspaceLayout, 'kept' | 'rootFiles'>;
  policy: WorkspacePolicy;
  read: ReadText;
  parsed: ParsedInputs;
}

/** A walk's files under `policy`, with a reader (readOnce) and a memo of their own. */
export function walkFiles<L extends WalkFiles['layout']>(policy: WorkspacePolicy, layout: L): WalkFiles & { layout: L } {
  const walk: WalkFiles & { layout: L } = { layout, policy, read: readOnce(policy), parsed: new ParsedInputs(() => walk) };
  return walk;
}
