// Builds the localization bench's data from local git repositories with history (run once; the result is committed):
//   node out/bench/makeLocalizationData.js [--lang js|py|go|rs|rb|java|c] OUT_DIR NAME=OWNER/REPO=GIT_DIR …
//
// For each repository: the most recent non-merge commits that modified 1–6 existing source files (TS/JS; with
// `--lang`, another language's: a case set of one's own for `npm run bench` with CAPE_LOC_DIR), leaving out
// releases, reverts, dependency bumps, sponsor blocks and formatting-only commits. A case is
//   { id, repo, commit, objective, snapshot, modified }
// where objective is the commit subject without its `type(scope):` prefix and its `(#123)` pull-request number (what
// a person would type), modified the source files it changed, and snapshot a commit of the bundle whose tree is the
// parent commit's tree (the workspace before the change). The bundle holds the real first-parent history from
// HISTORY commits before the oldest case up to the newest case's parent, each commit rewritten as a tree with its
// subject and dates (no authors, no other parents), so a case's workspace has the history its user's clone would have
// had — what the ranking's git recency and co-change priors read — and nothing later. A case whose parent is on a
// side branch (a `develop` or `next` merged into the default branch) gets that branch's own first-parent commits on
// top of where it left the chain or last merged it in, under a ref of its own. Files over 1 MB are dropped from the trees (the index never
// reads them anyway). GIT_DIR's HEAD is the branch read (a bare mirror's HEAD is the repository's default branch,
// whatever its name).
//
// An existing OUT_DIR/cases.json is merged: the repositories named on the command line get their cases and bundle
// rebuilt, the others keep theirs unchanged (so adding a repository leaves the earlier cases, and their figures, as
// they were). The script prints each bundle's size and their total, and fails when the total passes 30 MB (what the
// bench's data may weigh in the repository).
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseArgs } from 'util';
import type { Case } from './localization';

/** The source files a case's commit must have modified, per language (`--lang`; the committed set is `js`). */
export const SOURCE_FILES = {
  js: /\.(ts|tsx|js|jsx|mjs|cjs|mts|cts)$/,
  py: /\.pyi?$/,
  go: /\.go$/,
  rs: /\.rs$/,
  rb: /\.rb$/,
  java: /\.(java|kt)$/,
  c: /\.(c|h|cc|cpp|cxx|hh|hpp|hxx)$/,
} as const;
export type SourceLanguage = keyof typeof SOURCE_FILES;
const SKIP_SUBJECT = /^(revert|merge|release|v?\d+\.\d+\.\d+)|^(start|prepare|bump) version\b|chore\(release|chore\(deps|\bbump\b|sponsor|prettier|eslint --fix|\bformat(ting)?\b|\blint(ing)?\b|^chore: (update|release)/i;
const PER_REPO = 40;
/** First-parent commits kept before the oldest case (the history the oldest case's workspace sees). */
const HISTORY = 300;

/** What the bench's data may weigh: the bundles of all its repositories together. */
export const MAX_BUNDLE_BYTES = 30 * 1000 * 1000;

function git(dir: string, args: string[], input?: string): string {
  return execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, input });
}

export function objectiveOf(subject: string): string {
  return subject
    // a gitmoji, as an emoji (`🔖 Release …`) or a shortcode (`:bug: Fix …`)
    .replace(/^\s*(?:[\p{Extended_Pictographic}\u{FE0F}\u{200D}]+|:[a-z0-9_+-]+:)\s*/u, '')
    .replace(/^\s*\w+(\([^)]*\))?!?:\s*/, '')
    .replace(/\s*\((#\d+(,\s*)?)+\)/g, '')
    .replace(/\s*#\d+\s*$/, '')
    .replace(/;\s*$/, '')
    .trim();
}


/** Writes OUT_DIR/NAME.bundle from the repository at gitDir and returns its cases. */
export function buildRepository(outDir: string, name: string, gitDir: string, lang: SourceLanguage = 'js'): Case[] {
  const source = SOURCE_FILES[lang];
  const log = git(gitDir, ['log', '--no-merges', '--format=@@%H%x09%P%x09%s', '--name-status', '--no-renames', '-n', '3000', 'HEAD']);
  const picked: { commit: string; parent: string; subject: string; modified: string[] }[] = [];
  for (const chunk of log.split('@@').slice(1)) {
    const [head, ...rest] = chunk.split('\n');
    const [commit, parents, subject] = head.split('\t');
    if (!parents || parents.includes(' ')) continue;
    const objective = objectiveOf(subject);
    if (SKIP_SUBJECT.test(subject) || SKIP_SUBJECT.test(objective) || objective.split(/\s+/).length < 3) continue;
    const changes = rest.filter(Boolean).map((l) => l.split('\t'));
    const modified = changes.filter(([st, p]) => st === 'M' && source.test(p) && !/(^|\/)(dist|build|lib\/dist)\//.test(p)).map(([, p]) => p);
    if (modified.length < 1 || modified.length > 6) continue;
    picked.push({ commit, parent: parents, subject, modified });
    if (picked.length >= PER_REPO) break;
  }
  if (!picked.length) throw new Error(`${name}: no commit of ${gitDir} modified 1–6 existing source files with a usable subject`);
  // a scratch repository sharing the source's objects, where the rewritten history is written
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-locdata-'));
  execFileSync('git', ['init', '-q', '--bare', scratch]);
  fs.writeFileSync(path.join(scratch, 'objects', 'info', 'alternates'), path.resolve(gitDir, 'objects') + '\n');
  const baseEnv = { ...process.env, GIT_AUTHOR_NAME: 'cape-bench', GIT_AUTHOR_EMAIL: 'bench@cape.invalid', GIT_COMMITTER_NAME: 'cape-bench', GIT_COMMITTER_EMAIL: 'bench@cape.invalid' };
  const indexFile = path.join(scratch, 'tmp-index');
  /** The commit's tree without files over 1 MB (the same tree when it has none). */
  const treeOf = (commit: string): string => {
    const lines = git(scratch, ['ls-tree', '-r', '-l', '--full-tree', commit]).split('\n').filter(Boolean);
    const big = (l: string) => Number(l.split(/\s+/)[3]) > 1024 * 1024;
    if (!lines.some(big)) return git(scratch, ['rev-parse', `${commit}^{tree}`]).trim();
    const entries = lines.filter((l) => !big(l)).map((l) => {
      const [meta, file] = l.split('\t');
      const [mode, type, sha] = meta.split(/\s+/);
      return `${mode} ${type} ${sha}\t${file}`;
    });
    fs.rmSync(indexFile, { force: true });
    execFileSync('git', ['--git-dir', scratch, 'update-index', '--index-info'], { input: entries.join('\n') + '\n', env: { ...baseEnv, GIT_INDEX_FILE: indexFile } });
    return execFileSync('git', ['--git-dir', scratch, 'write-tree'], { encoding: 'utf8', env: { ...baseEnv, GIT_INDEX_FILE: indexFile } }).trim();
  };
  const rewritten = new Map<string, string>();
  let prev: string | null = null;
  const rewrite = (commit: string, parent: string | null): string => {
    const [subject, adate, cdate] = git(gitDir, ['log', '-1', '--format=%s%x00%aI%x00%cI', commit]).trim().split('\0');
    const args = ['--git-dir', scratch, 'commit-tree', treeOf(commit), '-m', subject || commit];
    if (parent) args.push('-p', parent);
    return execFileSync('git', args, { encoding: 'utf8', env: { ...baseEnv, GIT_AUTHOR_DATE: adate, GIT_COMMITTER_DATE: cdate } }).trim();
  };
  // the first-parent chain from HISTORY commits before the oldest case's parent to the newest case's parent
  const oldest = picked[picked.length - 1];
  const chainAll = git(gitDir, ['rev-list', '--first-parent', picked[0].parent]).split('\n').filter(Boolean);
  const at = chainAll.indexOf(oldest.parent);
  const chain = chainAll.slice(0, at < 0 ? chainAll.length : Math.min(chainAll.length, at + 1 + HISTORY)).reverse();
  for (const c of chain) {
    prev = rewrite(c, prev);
    rewritten.set(c, prev);
  }
  const cases: Case[] = [];
  for (const p of [...picked].reverse()) {
    let snap = rewritten.get(p.parent);
    if (!snap) {
      // a parent off the first-parent chain (a side branch, e.g. a `develop` or `next` merged into the default
      // branch): the side branch's own first-parent commits down to the first one already rewritten or with a
      // rewritten parent (where it left the chain, or last merged it in: that merge goes on top of the rewritten
      // parent, so the history has the chain's commits up to there), at most HISTORY commits (past that, on top of
      // the parent's newest rewritten ancestor)
      const side: string[] = [];
      let base: string | undefined;
      for (const line of git(gitDir, ['rev-list', '--first-parent', '--parents', '-n', String(HISTORY + 1), p.parent]).split('\n').filter(Boolean)) {
        const [c, ...parents] = line.split(' ');
        if (rewritten.has(c)) {
          base = c;
          break;
        }
        side.push(c);
        base = parents.find((x) => rewritten.has(x));
        if (base) break;
      }
      if (side.length > HISTORY) {
        side.length = HISTORY;
        base = git(gitDir, ['rev-list', side[side.length - 1]]).split('\n').find((c) => rewritten.has(c));
      }
      let top = base ? rewritten.get(base)! : null;
      for (const c of side.reverse()) {
        top = rewrite(c, top);
        rewritten.set(c, top);
      }
      snap = top!;
      execFileSync('git', ['--git-dir', scratch, 'update-ref', `refs/heads/side-${p.commit.slice(0, 12)}`, snap]);
    }
    cases.push({ id: `${name}-${p.commit.slice(0, 8)}`, repo: name, commit: p.commit, objective: objectiveOf(p.subject), snapshot: snap, modified: p.modified });
  }
  execFileSync('git', ['--git-dir', scratch, 'update-ref', 'refs/heads/cases', prev!]);
  // repack without the alternates so the bundle is self-contained and delta-compressed
  execFileSync('git', ['--git-dir', scratch, 'repack', '-a', '-d', '-q', '-f', '--depth=50', '--window=20']);
  const bundle = path.join(outDir, `${name}.bundle`);
  execFileSync('git', ['--git-dir', scratch, 'bundle', 'create', bundle, '--branches'], { stdio: 'ignore' });
  fs.rmSync(scratch, { recursive: true, force: true });
  return cases;
}

export interface RepositorySpec {
  /** The cases' prefix and the bundle's file name. */
  name: string;
  /** OWNER/REPO on GitHub, recorded as the data's source. */
  source: string;
  /** The repository's git directory (a bare mirror with its history). */
  dir: string;
  /** The language whose source files the cases modified (default TS/JS). */
  lang?: SourceLanguage;
}

/**
 * Builds the named repositories into outDir and merges cases.json: their cases are replaced, the other repositories'
 * cases and sources kept as they were, in their order. Returns the bundles' total size in bytes.
 */
export function writeCases(outDir: string, specs: readonly RepositorySpec[], log: (line: string) => void = console.log): number {
  fs.mkdirSync(outDir, { recursive: true });
  const casesFile = path.join(outDir, 'cases.json');
  const rebuilt = new Set(specs.map((s) => s.name));
  const kept = fs.existsSync(casesFile) ? (JSON.parse(fs.readFileSync(casesFile, 'utf8')) as { sources: Record<string, string>; cases: Case[] }) : { sources: {}, cases: [] };
  const sources: Record<string, string> = Object.fromEntries(Object.entries(kept.sources).filter(([name]) => !rebuilt.has(name)));
  const all: Case[] = kept.cases.filter((c) => !rebuilt.has(c.repo));
  for (const { name, source, dir, lang } of specs) {
    const cases = buildRepository(outDir, name, dir, lang);
    sources[name] = `https://github.com/${source}`;
    log(`${name}: ${cases.length} cases, bundle ${(fs.statSync(path.join(outDir, name + '.bundle')).size / 1e6).toFixed(1)} MB`);
    all.push(...cases);
  }
  fs.writeFileSync(casesFile, JSON.stringify({ version: 1, sources, cases: all }, null, 1) + '\n');
  const bytes = Object.keys(sources).reduce((n, name) => n + fs.statSync(path.join(outDir, name + '.bundle')).size, 0);
  log(`${all.length} cases from ${Object.keys(sources).length} repositories; bundles ${(bytes / 1e6).toFixed(1)} MB in all (at most ${MAX_BUNDLE_BYTES / 1e6} MB)`);
  return bytes;
}

function main(): void {
  let args: { values: { lang?: string }; positionals: string[] };
  try {
    args = parseArgs({ options: { lang: { type: 'string' } }, allowPositionals: true });
  } catch (e) {
    console.error((e as Error).message);
    process.exit(2);
  }
  const [outDir, ...repos] = args.positionals;
  const lang = (args.values.lang ?? 'js') as SourceLanguage;
  if (!outDir || !repos.length || !(lang in SOURCE_FILES)) {
    console.error(`usage: node out/bench/makeLocalizationData.js [--lang ${Object.keys(SOURCE_FILES).join('|')}] OUT_DIR NAME=OWNER/REPO=GIT_DIR …`);
    process.exit(2);
  }
  const specs = repos.map((spec): RepositorySpec => {
    const [name, source, dir] = spec.split('=');
    if (!name || !/^[\w.-]+$/.test(name) || !/^[\w.-]+\/[\w.-]+$/.test(source ?? '') || !dir || !fs.existsSync(dir)) {
      console.error(`bad repository "${spec}": expected NAME=OWNER/REPO=GIT_DIR with an existing GIT_DIR`);
      process.exit(2);
    }
    return { name, source, dir, lang };
  });
  if (writeCases(outDir, specs) > MAX_BUNDLE_BYTES) {
    console.error(`the bundles weigh more than ${MAX_BUNDLE_BYTES / 1e6} MB in all: drop a repository or pick smaller ones`);
    process.exit(1);
  }
}

if (require.main === module) main();
