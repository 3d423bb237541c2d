// What a step's prompt receives of the workspace, within a character budget:
//  - DevA: the best-ranked files whole (picked by score per size among the well-ranked, shown in rank order), then
//    map lines (path — top-level symbols) for the next ones, then bare paths while room remains, so DevA knows what
//    exists;
//  - DA: map lines of the UI files only (components, styles), in rank order, within a smaller budget — and nothing
//    when the workspace has no UI files;
//  - POA and CM: nothing (see CONTEXT_MATRIX).
// The budget bounds the whole rendered section, headers included. `cape context` prints the same selection.
import { isUiFile } from './symbols';
import { rankFiles, type RankQuery } from './rank';
import type { WorkspaceIndex } from './workspaceIndex';

export type ContextStep = 'deva' | 'da';

/** Default budgets in characters (setting `cape.context.devBudget` / CLI `--budget` override DevA's). */
export const DEFAULT_WORKSPACE_BUDGET: Record<ContextStep, number> = { deva: 60_000, da: 6_000 };

/** Below this share of the best score a file is not worth sending whole (it may still get a map line). */
const WHOLE_MIN_RELATIVE_SCORE = 0.08;
/**
 * Which of the well-ranked files go whole: greedily by score per size, score / (chars + sizeFloor)^sizeWeight, so
 * one large file of middling rank does not crowd out several smaller ones ranked close to it; 0 would be plain rank
 * order. Exported for the bench's record; not settings.
 */
export const WHOLE_PICK = { sizeWeight: 0.3, sizeFloor: 3000 };
/** Map lines list at most this many symbols. */
const MAP_SYMBOLS = 12;

export interface PackedFile {
  path: string;
  /** Characters this file takes in the prompt: the whole text, or its map line. */
  chars: number;
  whole: boolean;
}

export interface WorkspaceContext {
  step: ContextStep;
  budget: number;
  /** In rank order: whole files first, then map lines. */
  files: PackedFile[];
  /** Characters of the map lines (path + symbols). */
  mapChars: number;
  /** Characters of the whole rendered section (≤ budget). */
  totalChars: number;
  /** Files in the index. */
  indexed: number;
  /** The section as it goes into the prompt ('' when there is nothing to send). */
  text: string;
}

function fenceFor(text: string): string {
  let longest = 2;
  for (const m of text.matchAll(/`{3,}/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(longest + 1);
}

function langOf(p: string): string {
  const m = /\.([A-Za-z0-9]+)$/.exec(p);
  return m ? m[1].toLowerCase() : '';
}

function mapLine(p: string, symbols: string[]): string {
  const shown = symbols.slice(0, MAP_SYMBOLS);
  const more = symbols.length > shown.length ? `, … (+${symbols.length - shown.length})` : '';
  return shown.length ? `${p} — ${shown.join(', ')}${more}` : p;
}

export interface PackOptions {
  step: ContextStep;
  budget?: number;
  /**
   * Reads a file's current text; null when it cannot be sent (vanished, now binary…). Default: through the index's
   * policy (the same checks as DevA's read_file).
   */
  readText?: (relPath: string) => string | null;
}

/** Selects and renders the workspace section of a step's prompt. */
export function packWorkspace(index: WorkspaceIndex, q: RankQuery, opts: PackOptions): WorkspaceContext {
  const budget = Math.max(0, Math.floor(opts.budget ?? DEFAULT_WORKSPACE_BUDGET[opts.step]));
  const readText =
    opts.readText ??
    ((rel: string) => {
      const r = index.policy.readSync(rel);
      return r.ok ? r.text : null;
    });
  const keep = opts.step === 'da' ? isUiFile : () => true;
  const ranked = rankFiles(index, q)
    .filter((r) => keep(r.path))
    .map((r) => ({ path: r.path, score: r.score }));
  // the files ranking left out, by path: listed only when the map gets that far
  const rest = function* () {
    const rankedSet = new Set(ranked.map((r) => r.path));
    const paths = [...index.all()].map((f) => f.path).filter((p) => keep(p) && !rankedSet.has(p));
    for (const p of paths.sort()) yield { path: p, score: 0 };
  };
  const candidates = function* () {
    yield* ranked;
    yield* rest();
  };
  const empty: WorkspaceContext = { step: opts.step, budget, files: [], mapChars: 0, totalChars: 0, indexed: index.size, text: '' };
  if (budget <= 0 || (!ranked.length && ![...index.all()].some((f) => keep(f.path)))) return empty;

  const head = (whole: number, mapped: number) =>
    opts.step === 'deva'
      ? `Ranked for this work: ${whole} file(s) whole, ${mapped} more as map lines (path — top-level symbols), of ${index.size} in the workspace. Read the whole files before changing them; for a mapped file, ask or keep your change additive.`
      : `UI files of the workspace (components, styles), ranked for this work: path — top-level symbols.`;
  const reserveHead = head(99999, 99999).length + 2;
  const mapHeading = '\n\n### Map\n';
  const files: PackedFile[] = [];
  const blocks: string[] = [];
  let used = reserveHead + mapHeading.length;
  const top = ranked.length ? ranked[0].score : 0;

  if (opts.step === 'deva') {
    // whole files: keep ~10% of the budget for the map of what follows
    const wholeLimit = budget - Math.min(6000, Math.floor(budget * 0.1));
    const group = ranked.filter((c) => c.score > 0 && c.score >= top * WHOLE_MIN_RELATIVE_SCORE && index.get(c.path));
    const density = (c: { path: string; score: number }) => c.score / Math.pow(index.get(c.path)!.chars + WHOLE_PICK.sizeFloor, WHOLE_PICK.sizeWeight);
    const picked = new Map<string, { block: string; chars: number }>();
    for (const c of [...group].sort((a, b) => density(b) - density(a))) {
      const f = index.get(c.path)!;
      if (used + f.chars + c.path.length + 40 > wholeLimit) continue;
      const text = readText(c.path);
      if (text === null) {
        index.confirm(c.path); // vanished or no longer text: the index lets it go too
        continue;
      }
      const fence = fenceFor(text);
      const block = `### ${c.path}\n${fence}${langOf(c.path)}\n${text}${text.endsWith('\n') ? '' : '\n'}${fence}`;
      if (used + block.length + 2 > wholeLimit) continue;
      picked.set(c.path, { block, chars: text.length });
      used += block.length + 2;
    }
    // in rank order
    for (const c of group) {
      const p = picked.get(c.path);
      if (!p) continue;
      blocks.push(p.block);
      files.push({ path: c.path, chars: p.chars, whole: true });
    }
  }
  const wholeSet = new Set(files.map((f) => f.path));
  const lines: string[] = [];
  let mapChars = 0;
  for (const c of candidates()) {
    if (wholeSet.has(c.path)) continue;
    // a map line names a file as it is now: one the file watcher missed going away is dropped, a changed one re-read
    if (!index.confirm(c.path)) continue;
    const f = index.get(c.path)!;
    const line = mapLine(c.path, f.symbols);
    if (used + line.length + 1 > budget) {
      if (line.length > 200) continue;
      break;
    }
    lines.push(line);
    files.push({ path: c.path, chars: line.length, whole: false });
    mapChars += line.length;
    used += line.length + 1;
  }
  if (!files.length) return empty;
  const mapped = files.length - blocks.length;
  const parts = [head(blocks.length, mapped), ...blocks];
  let text = parts.join('\n\n');
  if (lines.length) text += (blocks.length ? mapHeading : '\n\n') + lines.join('\n');
  return { step: opts.step, budget, files, mapChars, totalChars: text.length, indexed: index.size, text };
}
