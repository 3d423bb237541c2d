// Ranking the workspace's files for a step's work.
//
// 1. Text: BM25 over path, symbols and content (termIndex.ts: per-file word sets pick the candidates, the best are
//    re-scored from their text), with the path and symbols boosted. The objective is what the person typed and
//    weighs most; the upstream work (POA's criteria and scope, DA's specs) adds its own, damped score, so long
//    specifications do not drown the objective.
// 2. Structure: the best text matches (seeds) pass part of their score to the files they import, to the files that
//    import them (a component and its hook, a route and its handler), to their test (or, for a test, its subject:
//    same name stem, one of them a test file) and to the files git saw change together with them (history.ts:
//    the share of the seed's recent commits that also changed the file), since a change rarely stays in one file.
//    Each neighbour takes its strongest link to a seed; a neighbour linked to many files (a barrel re-exporting
//    everything, a helper imported everywhere) gets less per link, so hubs do not collect every query's score.
//    A test that imports a seed gets half a source file's link: on the localization bench, importing a seed made a
//    source file ~6× likelier to be among the modified files (7.1% against 1.2% of the top-150 candidates) and a
//    test barely so (1.5% against 1.2%) — tests import what they exercise and the package's entry, so the import
//    does not single a test out; its name (test twin), co-change and own text do. Halving it raised recall
//    0.542 → 0.547 and all-files 0.425 → 0.431 (axios, commander, fastify, msw up; h3 −0.012, got −0.010).
//    A test and its subject pair by each language's naming (nameStem: `test_parser.py`, `parser_test.go`,
//    `parser_spec.rb` as well as `parser.test.ts`): on 280 commits of 7 Python repositories (click, flask,
//    starlette, httpx, jinja, attrs, typer; a case set built with `makeLocalizationData --lang py`, not committed)
//    recall 0.480 → 0.491, all files 0.379 → 0.404. Python's imports as edges, resolved as Python does (packages,
//    `src/` layout, relative), were tried on the same set and lowered both (0.478 / 0.396; the seeds' own imports
//    alone 0.489 / 0.404 with the top 10 down 0.737 → 0.717): a small package of large modules that all import
//    one another says little by its imports. So did Python's methods as members (0.487 / 0.400). Measured again on
//    that set later, a Python seed's links at half weight left every figure level or up (RANK_WEIGHTS.pythonImports),
//    and Go's likewise (goImports): both are in, at 0.5, and so are C's and C++'s `#include "…"` (cIncludes, on 200
//    commits of 5 C repositories). Rust's were not (the "tried" paragraph below).
// 3. Names: a file whose name (without extension) is made of words of the objective scores higher (×1.6), and one
//    whose symbol is an identifier written in the objective gets a bonus — a person who names a function means it.
//    So does a well-ranked file whose text holds, verbatim, an identifier the objective writes as code (camelCase,
//    snake_case or in backticks: `searchParams`, retryCount): the text ranking splits it into common words (search,
//    params) and so cannot tell the file that uses the name from the many that use its words.
//    Among those, the file that declares such an identifier as a member of a class or object literal (a method
//    `exitOverride() {` in `class Command`, symbols.ts scanMembers) gets the symbol bonus too: the index keeps only
//    top-level symbols, and an API of methods is named by its members. Only identifiers written as code count —
//    members matched against every word of the objective (`get`, `options`, `retry`) lowered all-files 0.431 →
//    0.419 on the localization bench; code identifiers raised recall 0.547 → 0.550 and all-files 0.431 → 0.434.
// 4. Kind: built output (and test snapshots, which the test runner writes), lock files, changelogs, docs and type
//    declaration files (`.d.ts`, which restate every name of the API) are damped (kindPrior) whatever their text says,
//    and what the objective asks about moves that prior (rankSignals.ts, with its measurements). Files in the seed's
//    own folder as neighbours (0.1–0.35) lowered both figures and were left out.
// 5. History: in a git repository, a file the text points to weighs up to twice as much when git saw it change
//    recently and often (history.ts) — the next change most often lands where the last ones did. The files of the
//    few past commits whose subjects read most like the objective gain a damped score of their own (subject), and
//    every file git changed lately gets a small floor (recentFloor), so an objective whose words point nowhere
//    ("fix ts issue", "typo in comment") still gets the files the project is working on, and a strong text match
//    is never outranked by history alone. Measured on the localization bench (320 commits of 8 repositories):
//    subject + floor raised the modified files' mean reciprocal rank on all 8 repositories (0.375 → 0.379) and
//    recall 0.535 → 0.542; small, and kept small (0.15, 0.05) so history never outweighs what the text says.
// 6. Upstream reads: a file the upstream role read with its tools in this session (DA, for DevA) gets half the best
//    text score and seeds the structure step like a text match: DA looked there for this very work (a trial: DA read
//    the method DevA then had to search for). Not on the localization bench, which has no upstream roles.
// Tried on the localization bench (520 commits) and left out: a BM25 over each file's history (the subjects of all the
// commits that changed it) at 0.1–0.35 lowered recall to 0.568–0.558; a BM25 over test titles (`it('…')`, `test('…')`)
// for test files, 0.1–0.35, to 0.563–0.541; a link from each seed to the files that name its top-level symbols (a test
// calling a function its seed declares, through the package's entry) at 0.15 / 0.3 left recall at 0.572 / lowered it to
// 0.566 with all files in fewer cases (0.444 / 0.435), to tests only at 0.2 0.571 / 0.442; a second round of structure,
// the next 8 files passing score on as seeds × 0.1 / 0.25, lowered recall to 0.559 / 0.556. Query expansion by
// pseudo-relevance feedback (RM3: the top 5 text matches' 10 most distinctive terms, Σ score × tf/len × idf, held by 2+
// files and not the objective's, as a second query added at 0.2 like `work`) lowered both: terms from their paths and
// symbols 0.559 / 0.427, from their content 0.564 / 0.425, top 3, 5 terms at 0.1 0.567 / 0.438 (axios and fastify
// lost most, koa gained; the first ten 0.707 → 0.69–0.70), likely as the best matches' words bring files like them
// ahead of the seeds' neighbours. The objective's words together in one identifier of a top-50 file (× their idf
// share, 0.3) left recall at 0.573 and lowered all files to 0.442 (the first ten 0.70). And the weights: a logistic
// regression over these same signals (per file: text, subject, name, symbol and identifier hits, each link to a seed,
// co-change, recency, kind, size, rank), trained on 12 repositories and tested on the 13th in turn, put more of the
// modified files in the first ten (0.707 → 0.729) but gave whole only 0.576 of them (0.580 / 0.450 packed by an exact
// knapsack on its probabilities) against these weights' 0.572 / 0.446: the signals, not their weights, are the limit.
// Rust's module paths as import edges (`mod x;`, `use` trees, `crate::`/`super::` paths resolved to the crate's module
// files; branch wip/rust-imports) on 240 commits of 6 Rust repositories (just, delta, ripgrep, starship, mdBook, eza; a
// set built with `makeLocalizationData --lang rs`, not committed): weight 0.5 0.399 / 0.358, 1 0.401 / 0.350, against
// 0.401 / 0.358 without (delta gained, ripgrep and eza lost) — like Python's, left out.
// A C/C++ source file and its header (`str.c`, `str.h`: same stem, neither a test) as twins weighing more or less than
// other same-stem files (sameStem 0.3), on the C set above with the includes in: 0.6 lowered both (0.309 / 0.265),
// 0.15 left them level (0.329 / 0.280) with fewer modified files in the first ten (0.688 → 0.682).
import type { WorkspaceIndex } from './workspaceIndex';
import { terms } from './tokens';
import { subjectScores } from './history';
import { scanMembers } from './symbols';
import { symbolOwnName } from './symbolNames';
import { C_FAMILY_FILE, GO_FILE, PYTHON_FILE } from './languageFiles';
import { filesByStem, isTestFile, nameStem } from './testFiles';
import { asksForTests, asksForTypes, codeIdentifiers, KIND_PRIOR, kindPrior } from './rankSignals';

export interface RankQuery {
  /** The objective as the person wrote it. */
  objective: string;
  /** The upstream work: acceptance criteria, scope, design specs (may be empty). */
  work?: string;
  /**
   * What an upstream role saw with its tools in this session (DA, for DevA): files read whole or by line range, and
   * the lines its focused searches found.
   */
  read?: {
    by: string;
    files: readonly {
      path: string;
      whole?: boolean;
      lines?: readonly (readonly [number, number])[];
      hits?: readonly number[];
      /** The lines its reply cites (`path:line`): where it points the next role. */
      cited?: readonly (readonly [number, number])[];
    }[];
    /** The functions and methods its handoff names in code (`Help.subcommandDescription(cmd)` → subcommandDescription). */
    names?: readonly string[];
  };
}

export interface RankedFile {
  path: string;
  score: number;
}

/** The best text matches whose text is searched for the objective's code identifiers (bounds the reads). */
const IDENTIFIER_FILES = 100;

/** Weights, exported for the bench's record; not settings. */
export const RANK_WEIGHTS = {
  work: 0.5,
  /** The best text matches that pass score to their neighbours (imports, tests, co-changed files). */
  seeds: 8,
  importedBySeed: 0.35,
  importsSeed: 0.3,
  /** A test that imports a seed: tests import what they exercise and the package's entry, so the link says less. */
  testImportsSeed: 0.15,
  /**
   * Import links of a Python seed, × this: Python tests import the package rather than the module they exercise, so
   * a seed's imports mostly bring more source files, which crowd out the tests changed with them. On 280 commits of 7
   * Python repositories: recall 0.479 → 0.465 at full weight, 0.481 at 0.5 (source files alone 0.450 → 0.476, 0.461).
   */
  pythonImports: 0.5,
  /**
   * Import links of a Go seed, × this: an import names a package, so it links every file of the package's folder,
   * most of them not the one the change is about. On 240 commits of 6 Go repositories (gin, echo, viper, chi, caddy,
   * fzf): recall 0.53 → 0.54 at full weight (gin 0.50 → 0.48), 0.55 at 0.5 with every repository level or up.
   */
  goImports: 0.5,
  /**
   * Include links of a C/C++ seed (`#include "…"`, importGraph.ts), × this: a project's few headers are included by
   * most of its files (tmux.h by all of tmux's), so at full weight a header seed's includers crowd out the file the
   * change is about. On 200 commits of 5 C repositories (tmux, jq, htop, nginx, libuv; `makeLocalizationData --lang
   * c`, not committed): recall 0.315 → 0.306 and all files 0.270 → 0.260 at full weight (jq, htop, libuv lost), 0.329
   * / 0.280 at 0.5 and 0.327 / 0.285 at 0.25, every repository level or up (nginx level: its `<ngx_core.h>` includes
   * name no file).
   */
  cIncludes: 0.5,
  /** A neighbour linked to more files than this (a barrel, a shared helper) gets less per link: × √(hub / links). */
  hub: 4,
  nameHit: 0.6,
  symbolHit: 0.5,
  /** A file whose text holds the objective's code identifiers, × the share of them it holds. */
  codeIdentifier: 0.3,
  /** A source file and its test (same name stem, one under a test folder or named *.test/*.spec). */
  testTwin: 0.6,
  sameStem: 0.3,
  recent: 1,
  /** The files of the past commits whose subjects are most like the objective (history.ts subjectScores), × its share of the best. */
  subject: 0.15,
  /** Every file git changed lately, × its recency, whatever the text says. */
  recentFloor: 0.05,
  /** Files git saw change together with a seed, × the share of the seed's commits that changed them too. */
  coChange: 0.8,
  /** A file an upstream role read with its tools, × the best text score: it looked there for this very work. */
  upstreamRead: 0.5,
};

/** The share of the identifiers that a text holds as whole words (case-sensitive). */
function identifierShare(text: string, idents: readonly RegExp[]): number {
  return idents.filter((r) => r.test(text)).length / idents.length;
}

function normalise(scores: Map<string, number>): Map<string, number> {
  let max = 0;
  for (const v of scores.values()) if (v > max) max = v;
  if (max <= 0) return scores;
  const out = new Map<string, number>();
  for (const [k, v] of scores) out.set(k, v / max);
  return out;
}

/** Files in rank order (only those with a positive score). */
export function rankFiles(index: WorkspaceIndex, q: RankQuery): RankedFile[] {
  const w = RANK_WEIGHTS;
  const typesAsked = asksForTypes(q.objective);
  const testsAsked = asksForTests(q.objective);
  const prior = (p: string) => kindPrior(p, typesAsked) * (testsAsked && !isTestFile(p) ? KIND_PRIOR.nonTestWhenTestsAsked : 1);
  const objective = normalise(index.textScores(q.objective));
  const work = q.work?.trim() ? normalise(index.textScores(q.work)) : new Map<string, number>();
  const base = new Map<string, number>();
  for (const [p, s] of objective) base.set(p, s);
  for (const [p, s] of work) base.set(p, (base.get(p) ?? 0) + w.work * s);
  for (const [p, s] of base) base.set(p, s * prior(p) * (1 + w.recent * index.recencyOf(p)));

  // past commits whose subjects read like the objective: the files they changed
  for (const [p, s] of normalise(subjectScores(index.commits(), q.objective))) {
    if (index.get(p)) base.set(p, (base.get(p) ?? 0) + w.subject * s * prior(p));
  }

  // names written in the objective
  const objTerms = new Set(terms(q.objective));
  const rawIdents = new Set([...q.objective.matchAll(/[A-Za-z_$][\w$]{2,}/g)].map((m) => m[0]));
  const symbolHits = new Set<string>();
  for (const [p] of base) {
    const f = index.get(p);
    if (!f) continue;
    const nameTerms = terms(nameStem(p));
    const filePrior = prior(p);
    if (nameTerms.length && nameTerms.every((t) => objTerms.has(t))) base.set(p, base.get(p)! * (1 + w.nameHit));
    // a method's symbol (`Router.HandleFunc`) by its own name
    if (f.symbols.some((s) => {
      const name = symbolOwnName(s);
      return name.length > 3 && rawIdents.has(name);
    })) {
      base.set(p, base.get(p)! + w.symbolHit * filePrior);
      symbolHits.add(p);
    }
  }

  // code identifiers written in the objective, found verbatim in the text of the best matches; one that the file
  // declares as a member of a class or object literal (scanMembers) is a symbol hit as well
  const codeIds = codeIdentifiers(q.objective);
  const idents = codeIds.map((id) => new RegExp(`(^|[^\\w$])${id.replace(/\$/g, '\\$')}($|[^\\w$])`));
  if (idents.length) {
    const named = new Set(codeIds);
    for (const [p, s] of [...base.entries()].sort((a, b) => b[1] - a[1]).slice(0, IDENTIFIER_FILES)) {
      const text = index.readIndexed(p);
      const share = text ? identifierShare(text, idents) : 0;
      if (share <= 0) continue;
      const member = !symbolHits.has(p) && scanMembers(p, text!).some((m) => named.has(m));
      base.set(p, s + (w.codeIdentifier * share + (member ? w.symbolHit : 0)) * prior(p));
    }
  }

  // the files an upstream role read for this work (DA, for DevA's ranking): near the top, and seeds of their own.
  // The kind prior damps text matches (docs match every request's words); a read is no text match, so only built
  // output stays damped — a library's DA reads its API docs, and a koa trial's DevA had to read them again
  if (q.read?.files.length) {
    let best = 0;
    for (const s of base.values()) best = Math.max(best, s);
    const readPrior = (p: string) => (kindPrior(p) === KIND_PRIOR.built ? KIND_PRIOR.built : 1);
    for (const { path: p } of q.read.files) if (index.get(p)) base.set(p, (base.get(p) ?? 0) + w.upstreamRead * (best || 1) * readPrior(p));
  }

  // structure: seeds pass score along import edges, to their test (or subject) and to files git changed with them
  const seeds = [...base.entries()].sort((a, b) => b[1] - a[1]).slice(0, w.seeds);
  const final = new Map(base);
  const add = (t: string, v: number) => final.set(t, (final.get(t) ?? 0) + v * prior(t));
  const damp = (links: number) => (links <= w.hub ? 1 : Math.sqrt(w.hub / links));
  // each seed's twins by name (a test and its subject): only the seeds' stems are looked for among the files
  const byStem = filesByStem(
    index.paths(),
    new Set(seeds.filter(([p]) => index.get(p)).map(([p]) => nameStem(p))),
  );
  for (const [p, s] of seeds) {
    const f = index.get(p);
    if (!f) continue;
    // each neighbour gets its strongest link to this seed (a test that imports its subject counts once)
    const links = new Map<string, number>();
    const link = (t: string, v: number) => {
      if (t !== p && v > (links.get(t) ?? 0)) links.set(t, v);
    };
    const lang = PYTHON_FILE.test(p) ? w.pythonImports : GO_FILE.test(p) ? w.goImports : C_FAMILY_FILE.test(p) ? w.cIncludes : 1;
    for (const t of f.imports) link(t, lang * w.importedBySeed * damp(index.importersOf(t).length));
    for (const t of index.importersOf(p)) link(t, lang * (isTestFile(t) ? w.testImportsSeed : w.importsSeed) * damp(index.get(t)?.imports.length ?? 1));
    const twins = byStem.get(nameStem(p)) ?? [];
    if (twins.length <= 4) for (const t of twins) link(t, isTestFile(t) !== isTestFile(p) ? w.testTwin : w.sameStem);
    for (const [t, share] of index.coChangedWith(p)) if (index.get(t)) link(t, w.coChange * share);
    for (const [t, v] of links) add(t, v * s);
  }
  // a floor for the files git changed lately
  for (const [p, r] of index.recentFiles()) if (index.get(p)) final.set(p, (final.get(p) ?? 0) + w.recentFloor * r * prior(p));
  return [...final.entries()]
    .filter(([, s]) => s > 0)
    .map(([p, s]) => ({ path: p, score: s }))
    .sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
}
