// Localization on real history: does DevA receive, whole, the files a real commit changed?
//
// Data (bench/data/localization/, built by bench/makeLocalizationData.ts): cases.json and one git bundle per
// repository holding its real first-parent history (trees and subjects) from a few hundred commits before the oldest
// case up to the newest case's parent. Each case's workspace is materialized on demand: a clone checked out at its
// snapshot (the parent commit), so it has the history a user's clone would have had there, and nothing later. For each case we run what `cape context --step deva --objective <subject>`
// computes (index → rank → pack within 60,000 characters) and, side by side in the same run, a plain BM25 over file
// contents (minisearch, default tokenizer, content only) packed by the same rule at the same budget.
// Figures per repository: recall = share of the modified files given whole; all = share of cases with all of them.
// And the lines: of the hunks the commit changed in those files (git diff -U0 against the case's commit, found in the
// bundle as the snapshot's child with the case's subject), the share DevA is shown — by whole files alone, and with
// the excerpts of large files — since a SEARCH block needs the lines it changes; and the share of the modified files
// DevA is shown whole or in excerpts (an excerpted file is at least located, its changed lines perhaps among them).
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import MiniSearch from 'minisearch';
import { WorkspaceIndex } from '../src/core/workspace/workspaceIndex';
import { packWorkspace } from '../src/core/workspace/pack';
import { rankFiles } from '../src/core/workspace/rank';
import { isTestFile } from '../src/core/workspace/testFiles';
import type { ExcerptRange } from '../src/core/workspace/excerpts';
import { objectiveOf } from './makeLocalizationData';

export const LOCALIZATION_DIR = path.join(__dirname, '..', '..', 'bench', 'data', 'localization');
const BUDGET = 60_000;

/** One case of cases.json: written by makeLocalizationData.ts, read here. */
export interface Case {
  id: string;
  repo: string;
  commit: string;
  objective: string;
  snapshot: string;
  modified: string[];
}

export interface CaseResult {
  id: string;
  repo: string;
  modified: string[];
  ours: string[];
  /** The files DevA gets in excerpts (not whole). */
  excerpted: string[];
  baseline: string[];
  /** Per modified file, its position in our ranking and in the baseline's (0-based; -1 when not ranked at all). */
  ranks: number[];
  baseRanks: number[];
  files: number;
  /** Modified files small enough to be sent whole at all (the ceiling of recall at this budget). */
  fitting: number;
  /**
   * The most modified files that fit whole together (a case whose files add up past the budget cannot have them
   * all, whatever the ranking): the true ceiling of recall at this budget.
   */
  fittingTogether: number;
  /** Per modified file not given whole: why (too large to fit, ranked low, or ranked high but crowded out). */
  misses: { path: string; why: 'too large' | 'not ranked' | 'ranked low' | 'crowded out'; rank: number; chars: number }[];
  /**
   * Per modified file, the hunks the commit changed in it and how many of them DevA is shown: by whole files alone,
   * and with excerpts too. Absent when the case's commit is not in its bundle.
   */
  hunks?: { path: string; hunks: number; whole: number; shown: number }[];
}

/** A hunk of `git diff -U0`: the old file's changed lines (an insertion: the line it follows, or the first). */
export function diffHunks(diff: string): [number, number][] {
  const out: [number, number][] = [];
  for (const m of diff.matchAll(/^@@ -(\d+)(?:,(\d+))? \+/gm)) {
    const a = Number(m[1]);
    const n = m[2] === undefined ? 1 : Number(m[2]);
    out.push(n > 0 ? [a, a + n - 1] : [Math.max(1, a), Math.max(1, a)]);
  }
  return out;
}

/** Hunks shown by a whole file (all) or by excerpts (those inside one range). */
export function hunksShown(hunks: readonly [number, number][], whole: boolean, ranges: readonly ExcerptRange[] = []): number {
  return whole ? hunks.length : hunks.filter(([a, b]) => ranges.some((r) => r.start <= a && r.end >= b)).length;
}

/** What a whole file costs in the budget beyond its text (heading and fences), and the share of the budget whole files may take. */
const WHOLE_OVERHEAD = 40;
const WHOLE_SHARE = 0.9;

/** The most of these sizes that fit together within the limit (a case has at most a handful of modified files). */
export function mostThatFit(sizes: readonly number[], limit: number): number {
  const sorted = [...sizes].filter((s) => s >= 0).sort((a, b) => a - b);
  let used = 0;
  let n = 0;
  for (const s of sorted) {
    if (used + s > limit) break;
    used += s;
    n++;
  }
  return n;
}

/** Ranked at or above this position but not sent whole: the budget went to other files. */
const CROWDED_RANK = 15;

function readText(root: string, rel: string): string | null {
  try {
    return fs.readFileSync(path.join(root, ...rel.split('/')), 'utf8');
  } catch {
    return null;
  }
}

/**
 * Plain BM25 over file contents, the same files, packed whole in rank order by the same fit rule: the files it
 * sends whole, and its whole ranking.
 */
function baseline(index: WorkspaceIndex, root: string, objective: string): { whole: string[]; ranked: string[] } {
  const ms = new MiniSearch<{ id: string; content: string }>({ fields: ['content'], idField: 'id' });
  const docs: { id: string; content: string }[] = [];
  for (const f of index.all()) docs.push({ id: f.path, content: readText(root, f.path) ?? '' });
  ms.addAll(docs);
  const out: string[] = [];
  const ranked = ms.search(objective, { combineWith: 'OR' }).map((r) => r.id as string);
  let used = 0;
  for (const id of ranked) {
    const f = index.get(id);
    if (!f || used + f.chars + f.path.length + 40 > BUDGET) continue;
    out.push(f.path);
    used += f.chars + f.path.length + 40;
  }
  return { whole: out, ranked };
}

export async function runLocalization(dir = LOCALIZATION_DIR, only?: RegExp): Promise<CaseResult[] | null> {
  const casesFile = path.join(dir, 'cases.json');
  if (!fs.existsSync(casesFile)) return null;
  const data = JSON.parse(fs.readFileSync(casesFile, 'utf8')) as { cases: Case[] };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-loc-'));
  const results: CaseResult[] = [];
  try {
    const clones = new Map<string, string>();
    /** Per repository: each commit's children with their subjects (to find a case's own commit in its bundle). */
    const children = new Map<string, Map<string, { commit: string; subject: string }[]>>();
    for (const c of data.cases) {
      if (only && !only.test(c.id)) continue;
      let gitDir = clones.get(c.repo);
      if (!gitDir) {
        gitDir = path.join(tmp, c.repo + '.git');
        execFileSync('git', ['clone', '-q', '--bare', path.join(dir, `${c.repo}.bundle`), gitDir], { stdio: 'ignore' });
        clones.set(c.repo, gitDir);
        const kids = new Map<string, { commit: string; subject: string }[]>();
        const log = execFileSync('git', ['--git-dir', gitDir, 'log', '--all', '--format=%H %P%x09%s'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
        for (const line of log.split('\n').filter(Boolean)) {
          const [ids, subject = ''] = line.split('\t');
          const [commit, ...parents] = ids.split(' ');
          for (const p of parents) kids.set(p, [...(kids.get(p) ?? []), { commit, subject }]);
        }
        children.set(c.repo, kids);
      }
      const own = children.get(c.repo)!.get(c.snapshot)?.find((k) => objectiveOf(k.subject) === c.objective);
      // a checkout with the history before the case (the bundle's chain of earlier snapshots), as a user's clone
      const ws = path.join(tmp, c.id);
      execFileSync('git', ['clone', '-q', '--shared', '--no-checkout', gitDir, ws], { stdio: 'ignore' });
      execFileSync('git', ['-C', ws, 'checkout', '-q', '--detach', c.snapshot], { stdio: 'ignore' });
      const { index } = await WorkspaceIndex.open(ws, { cacheFile: null });
      const ctx = packWorkspace(index, { objective: c.objective }, { step: 'deva', budget: BUDGET, readText: (rel) => readText(ws, rel) });
      const ours = ctx.files.filter((f) => f.whole).map((f) => f.path);
      const excerpted = ctx.files.filter((f) => f.excerpts).map((f) => f.path);
      const hunks = own
        ? c.modified.map((m) => {
            const hs = diffHunks(execFileSync('git', ['--git-dir', gitDir!, 'diff', '-U0', c.snapshot, own.commit, '--', m], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));
            const f = ctx.files.find((x) => x.path === m);
            return { path: m, hunks: hs.length, whole: hunksShown(hs, !!f?.whole), shown: hunksShown(hs, !!f?.whole, f?.excerpts) };
          })
        : undefined;
      const missed = c.modified.filter((m) => !ours.includes(m));
      const cost = (m: string) => (index.get(m)?.chars ?? Infinity) + m.length + WHOLE_OVERHEAD;
      const ranked = rankFiles(index, { objective: c.objective }).map((r) => r.path);
      const base = baseline(index, ws, c.objective);
      results.push({
        id: c.id,
        repo: c.repo,
        modified: c.modified,
        ours,
        excerpted,
        misses: missed.map((m) => {
          const chars = index.get(m)?.chars ?? -1;
          const rank = ranked.indexOf(m);
          const why = cost(m) > BUDGET * WHOLE_SHARE ? 'too large' : rank < 0 ? 'not ranked' : rank >= CROWDED_RANK ? 'ranked low' : 'crowded out';
          return { path: m, why, rank, chars };
        }),
        baseline: base.whole,
        ranks: c.modified.map((m) => ranked.indexOf(m)),
        baseRanks: c.modified.map((m) => base.ranked.indexOf(m)),
        files: index.size,
        fitting: c.modified.filter((m) => cost(m) <= BUDGET * WHOLE_SHARE).length,
        fittingTogether: mostThatFit(c.modified.map(cost).filter(Number.isFinite), BUDGET * WHOLE_SHARE),
        hunks,
      });
      fs.rmSync(ws, { recursive: true, force: true });
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return results;
}

export interface RepoFigures {
  repo: string;
  cases: number;
  files: number;
  recall: number;
  all: number;
  baseRecall: number;
  baseAll: number;
  /** Share of the modified files that fit the budget whole, each alone. */
  ceiling: number;
  /** Share of the modified files that fit whole together with the rest of their case's (the true ceiling of recall). */
  jointCeiling: number;
  /** Share of the cases whose modified files all fit whole together (the ceiling of `all`). */
  jointAll: number;
  /** Share of the modified files in the first TOP_K of the ranking, whatever the budget (ours, the baseline's). */
  topK: number;
  baseTopK: number;
  /** Share of the changed hunks (of cases whose commit is known) inside a whole file, and inside a whole file or an excerpt. */
  hunksWhole: number;
  hunksShown: number;
  /** Share of the modified files given whole or in excerpts. */
  filesShown: number;
  /** Cases whose commit is known (the hunk figures' cases). */
  hunkCases: number;
}

/** The ranking's own figure, apart from packing: how many of the modified files it puts in its first TOP_K. */
export const TOP_K = 10;

export function figures(results: CaseResult[]): RepoFigures[] {
  const repos = [...new Set(results.map((r) => r.repo))];
  const row = (repo: string, rs: CaseResult[]): RepoFigures => {
    let n = 0;
    let hit = 0;
    let shown = 0;
    let baseHit = 0;
    let all = 0;
    let baseAll = 0;
    let fit = 0;
    let together = 0;
    let togetherAll = 0;
    let top = 0;
    let baseTop = 0;
    const inTop = (k: number) => k >= 0 && k < TOP_K;
    let hunks = 0;
    let hunksWhole = 0;
    let hunksShown = 0;
    let hunkCases = 0;
    for (const r of rs) {
      if (r.hunks) {
        hunkCases++;
        for (const h of r.hunks) (hunks += h.hunks), (hunksWhole += h.whole), (hunksShown += h.shown);
      }
      fit += r.fitting;
      together += r.fittingTogether;
      if (r.fittingTogether === r.modified.length) togetherAll++;
      top += r.ranks.filter(inTop).length;
      baseTop += r.baseRanks.filter(inTop).length;
      const ours = new Set(r.ours);
      const base = new Set(r.baseline);
      const h = r.modified.filter((m) => ours.has(m)).length;
      shown += r.modified.filter((m) => ours.has(m) || r.excerpted.includes(m)).length;
      const b = r.modified.filter((m) => base.has(m)).length;
      n += r.modified.length;
      hit += h;
      baseHit += b;
      if (h === r.modified.length) all++;
      if (b === r.modified.length) baseAll++;
    }
    return {
      repo,
      cases: rs.length,
      files: Math.round(rs.reduce((s, r) => s + r.files, 0) / Math.max(1, rs.length)),
      recall: hit / Math.max(1, n),
      all: all / Math.max(1, rs.length),
      baseRecall: baseHit / Math.max(1, n),
      baseAll: baseAll / Math.max(1, rs.length),
      ceiling: fit / Math.max(1, n),
      jointCeiling: together / Math.max(1, n),
      jointAll: togetherAll / Math.max(1, rs.length),
      topK: top / Math.max(1, n),
      baseTopK: baseTop / Math.max(1, n),
      hunksWhole: hunksWhole / Math.max(1, hunks),
      hunksShown: hunksShown / Math.max(1, hunks),
      filesShown: shown / Math.max(1, n),
      hunkCases,
    };
  };
  return [...repos.map((r) => row(r, results.filter((x) => x.repo === r))), row('all', results)];
}

/**
 * The figures over each case's modified files that are not tests (isTestFile), for the cases that modified one: the
 * usual gold set of localization benchmarks, where the tests a commit changed along with its source are set apart.
 * Counted by figures() on the cases with their tests left out (only its recall and all-files shares are read: the
 * ranks and ceilings it also counts belong to the whole list of modified files).
 */
export function sourceOnly(results: CaseResult[]): { cases: number; recall: number; all: number; baseRecall: number; baseAll: number } {
  const sources = results.map((r) => ({ ...r, modified: r.modified.filter((m) => !isTestFile(m)) })).filter((r) => r.modified.length);
  const { recall, all, baseRecall, baseAll } = figures(sources).at(-1)!;
  return { cases: sources.length, recall, all, baseRecall, baseAll };
}

export async function benchLocalization(): Promise<void> {
  console.log('\nLocalization on real history (modified files given whole to DevA within 60,000 characters)');
  // a case set of one's own (makeLocalizationData.ts, other repositories or languages) instead of the committed one
  const dir = process.env.CAPE_LOC_DIR ? path.resolve(process.env.CAPE_LOC_DIR) : LOCALIZATION_DIR;
  const results = await runLocalization(dir, process.env.CAPE_LOC_ONLY ? new RegExp(process.env.CAPE_LOC_ONLY) : undefined);
  if (!results) {
    console.log(`  skipped: no data in ${dir} (cases.json and the repositories' git bundles)`);
    return;
  }
  const f = (x: number) => x.toFixed(2).padStart(8);
  console.log(`${'repository'.padEnd(12)}${'cases'.padStart(6)}${'files'.padStart(7)}${'recall'.padStart(8)}${'all'.padStart(8)}${'BM25 rec'.padStart(10)}${'BM25 all'.padStart(10)}${'ceiling'.padStart(9)}${'joint'.padStart(7)}${'j. all'.padStart(8)}${`top ${TOP_K}`.padStart(8)}${`BM25 top ${TOP_K}`.padStart(13)}${'lines'.padStart(7)}${'+exc.'.padStart(7)}${'w+exc'.padStart(7)}`);
  for (const r of figures(results)) {
    console.log(`${r.repo.padEnd(12)}${String(r.cases).padStart(6)}${String(r.files).padStart(7)}${f(r.recall)}${f(r.all)}${f(r.baseRecall).padStart(10)}${f(r.baseAll).padStart(10)}${f(r.ceiling).padStart(9)}${f(r.jointCeiling).padStart(7)}${f(r.jointAll)}${f(r.topK)}${f(r.baseTopK).padStart(13)}${(r.hunkCases ? r.hunksWhole.toFixed(2) : '–').padStart(7)}${(r.hunkCases ? r.hunksShown.toFixed(2) : '–').padStart(7)}${f(r.filesShown).slice(1)}`);
  }
  console.log('  goal: recall ≥ 0.85 and all files in ≥ 0.80 of cases; ceiling = share of modified files small enough to be sent whole;');
  console.log('  joint = share that fit whole together with the rest of their case (the true ceiling of recall), j. all = the ceiling of all');
  console.log(`  top ${TOP_K} = share of modified files in the first ${TOP_K} of the ranking, whatever their size (the ranking apart from packing)`);
  const total = figures(results).at(-1)!;
  console.log(`  lines = share of the commit's changed hunks inside a file given whole; +exc. = inside a whole file or an excerpt of a large one (${total.hunkCases} of ${results.length} cases: the others' commits are not in their bundles)`);
  console.log('  w+exc = share of the modified files given whole or in excerpts');
  const why = new Map<string, number>();
  for (const r of results) for (const m of r.misses) why.set(m.why, (why.get(m.why) ?? 0) + 1);
  if (why.size) console.log(`  modified files not given whole: ${[...why].map(([k, n]) => `${n} ${k}`).join(', ')} (crowded out = ranked in the first ${CROWDED_RANK} but the budget went to others)`);
  const testsOfGiven = results.reduce((n, r) => n + (r.modified.some((m) => !isTestFile(m) && r.ours.includes(m)) ? r.misses.filter((m) => isTestFile(m.path)).length : 0), 0);
  if (testsOfGiven) console.log(`  of which ${testsOfGiven} are test files changed with a source file that was given whole`);
  const src = sourceOnly(results);
  if (src.cases) {
    console.log(
      `  source files alone (tests set apart, ${src.cases} cases with one): recall ${src.recall.toFixed(2)}, all ${src.all.toFixed(2)} ` +
        `(BM25 ${src.baseRecall.toFixed(2)} / ${src.baseAll.toFixed(2)}) — the files a change is about, which localization benchmarks usually count`,
    );
  }
  if (process.env.CAPE_LOC_JSON) fs.writeFileSync(process.env.CAPE_LOC_JSON, JSON.stringify(results, null, 1));
  if (process.env.CAPE_LOC_VERBOSE) {
    for (const r of results) {
      if (r.misses.length) console.log(`  miss ${r.id}: ${r.misses.map((m) => `${m.path} (${m.why}, #${m.rank + 1}, ${m.chars} chars)`).join(', ')}`);
    }
  }
}

if (require.main === module) {
  benchLocalization().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
