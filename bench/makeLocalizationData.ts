// Builds the localization bench's data from local git repositories with history (run once; the result is committed):
//   node out/bench/makeLocalizationData.js OUT_DIR NAME=OWNER/REPO=GIT_DIR …
//
// For each repository: the most recent non-merge commits that modified 1–6 existing source files (TS/JS), leaving out
// releases, reverts, dependency bumps, sponsor blocks and formatting-only commits. A case is
//   { id, repo, commit, objective, snapshot, modified }
// where objective is the commit subject without its `type(scope):` prefix and its `(#123)` pull-request number (what
// a person would type), modified the source files it changed, and snapshot a commit of the bundle whose tree is the
// parent commit's tree (the workspace before the change). The snapshots are chained in one new history (one commit
// per case, parent trees only), so the bundle holds just those trees — a few MB instead of the whole history. Files
// over 1 MB are dropped from the snapshots (the index never reads them anyway).
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Case } from './localization';

const SOURCE = /\.(ts|tsx|js|jsx|mjs|cjs|mts|cts)$/;
const SKIP_SUBJECT = /^(revert|merge|release|v?\d+\.\d+\.\d+)|chore\(release|chore\(deps|\bbump\b|sponsor|prettier|eslint --fix|\bformat(ting)?\b|\blint(ing)?\b|^chore: (update|release)/i;
const PER_REPO = 40;

function git(dir: string, args: string[], input?: string): string {
  return execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, input });
}

export function objectiveOf(subject: string): string {
  return subject
    .replace(/^\s*\w+(\([^)]*\))?!?:\s*/, '')
    .replace(/\s*\((#\d+(,\s*)?)+\)/g, '')
    .replace(/\s*#\d+\s*$/, '')
    .replace(/;\s*$/, '')
    .trim();
}


function build(outDir: string, name: string, gitDir: string): Case[] {
  const log = git(gitDir, ['log', '--no-merges', '--format=@@%H%x09%P%x09%s', '--name-status', '--no-renames', '-n', '3000', 'HEAD']);
  const picked: { commit: string; parent: string; subject: string; modified: string[] }[] = [];
  for (const chunk of log.split('@@').slice(1)) {
    const [head, ...rest] = chunk.split('\n');
    const [commit, parents, subject] = head.split('\t');
    if (!parents || parents.includes(' ') || SKIP_SUBJECT.test(subject)) continue;
    const changes = rest.filter(Boolean).map((l) => l.split('\t'));
    const modified = changes.filter(([st, p]) => st === 'M' && SOURCE.test(p) && !/(^|\/)(dist|build|lib\/dist)\//.test(p)).map(([, p]) => p);
    if (modified.length < 1 || modified.length > 6) continue;
    const objective = objectiveOf(subject);
    if (objective.split(/\s+/).length < 3) continue;
    picked.push({ commit, parent: parents, subject, modified });
    if (picked.length >= PER_REPO) break;
  }
  // a scratch repository sharing the source's objects, where the snapshot chain is written
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-locdata-'));
  execFileSync('git', ['init', '-q', '--bare', scratch]);
  fs.writeFileSync(path.join(scratch, 'objects', 'info', 'alternates'), path.resolve(gitDir, 'objects') + '\n');
  const env = { ...process.env, GIT_AUTHOR_NAME: 'cape-bench', GIT_AUTHOR_EMAIL: 'bench@cape.invalid', GIT_COMMITTER_NAME: 'cape-bench', GIT_COMMITTER_EMAIL: 'bench@cape.invalid', GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z' };
  const cases: Case[] = [];
  let prev: string | null = null;
  for (const p of picked.reverse()) {
    // the parent's tree without files over 1 MB
    const entries = git(scratch, ['ls-tree', '-r', '-l', p.parent])
      .split('\n')
      .filter(Boolean)
      .filter((l) => {
        const size = Number(l.split(/\s+/)[3]);
        return !Number.isFinite(size) || size <= 1024 * 1024;
      })
      .map((l) => {
        const [meta, file] = l.split('\t');
        const [mode, type, sha] = meta.split(/\s+/);
        return `${mode} ${type} ${sha}\t${file}`;
      });
    const indexFile = path.join(scratch, 'tmp-index');
    fs.rmSync(indexFile, { force: true });
    execFileSync('git', ['--git-dir', scratch, 'update-index', '--index-info'], { input: entries.join('\n') + '\n', env: { ...env, GIT_INDEX_FILE: indexFile } });
    const tree = execFileSync('git', ['--git-dir', scratch, 'write-tree'], { encoding: 'utf8', env: { ...env, GIT_INDEX_FILE: indexFile } }).trim();
    const args = ['--git-dir', scratch, 'commit-tree', tree, '-m', `${name} ${p.commit}`];
    if (prev) args.push('-p', prev);
    const snap: string = execFileSync('git', args, { encoding: 'utf8', env }).trim();
    prev = snap;
    cases.push({ id: `${name}-${p.commit.slice(0, 8)}`, repo: name, commit: p.commit, objective: objectiveOf(p.subject), snapshot: snap, modified: p.modified });
  }
  execFileSync('git', ['--git-dir', scratch, 'update-ref', 'refs/heads/cases', prev!]);
  // repack without the alternates so the bundle is self-contained and delta-compressed
  execFileSync('git', ['--git-dir', scratch, 'repack', '-a', '-d', '-q', '-f', '--depth=50', '--window=20']);
  const bundle = path.join(outDir, `${name}.bundle`);
  execFileSync('git', ['--git-dir', scratch, 'bundle', 'create', bundle, 'refs/heads/cases'], { stdio: 'ignore' });
  fs.rmSync(scratch, { recursive: true, force: true });
  return cases;
}

function main(): void {
  const [outDir, ...repos] = process.argv.slice(2);
  if (!outDir || !repos.length) {
    console.error('usage: node out/bench/makeLocalizationData.js OUT_DIR NAME=OWNER/REPO=GIT_DIR …');
    process.exit(2);
  }
  fs.mkdirSync(outDir, { recursive: true });
  const all: Case[] = [];
  const sources: Record<string, string> = {};
  for (const spec of repos) {
    const [name, source, dir] = spec.split('=');
    const cases = build(outDir, name, dir);
    sources[name] = `https://github.com/${source}`;
    console.log(`${name}: ${cases.length} cases, bundle ${(fs.statSync(path.join(outDir, name + '.bundle')).size / 1e6).toFixed(1)} MB`);
    all.push(...cases);
  }
  fs.writeFileSync(path.join(outDir, 'cases.json'), JSON.stringify({ version: 1, sources, cases: all }, null, 1) + '\n');
}

if (require.main === module) main();
