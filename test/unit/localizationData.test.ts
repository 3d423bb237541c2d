// The localization bench's data script (bench/makeLocalizationData.ts) on a small repository written here: which
// commits become cases, that each case's snapshot has its parent's tree and the history a clone of it would have had
// (also when the parent is on a side branch merged later), and that cases.json keeps the repositories not rebuilt.
import { strict as assert } from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { objectiveOf, writeCases } from '../../bench/makeLocalizationData';
import type { Case } from '../../bench/localization';

describe('localization bench data', () => {
  let tmp: string;
  let work: string;
  let tick = 0;
  const git = (dir: string, args: string[]): string => {
    tick++;
    const date = `2026-01-01T00:${String(Math.floor(tick / 60)).padStart(2, '0')}:${String(tick % 60).padStart(2, '0')}Z`;
    const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t.invalid', GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
    return execFileSync('git', ['-C', dir, '-c', 'commit.gpgsign=false', ...args], { encoding: 'utf8', env }).trim();
  };
  const commit = (files: Record<string, string>, subject: string): string => {
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(work, rel)), { recursive: true });
      fs.writeFileSync(path.join(work, rel), text);
    }
    git(work, ['add', '-A']);
    git(work, ['commit', '-q', '-m', subject]);
    return git(work, ['rev-parse', 'HEAD']);
  };

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-locdata-test-'));
    work = path.join(tmp, 'repo');
    fs.mkdirSync(work);
    git(work, ['init', '-q', '-b', 'trunk']);
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('takes the subject as a person would type it', () => {
    assert.strictEqual(objectiveOf('fix(router): keep the query string on redirects (#123)'), 'keep the query string on redirects');
    assert.strictEqual(objectiveOf('feat!: drop node 18 #456'), 'drop node 18');
    assert.strictEqual(objectiveOf('🐛 Fix the help text of a hidden option (#789)'), 'Fix the help text of a hidden option');
    assert.strictEqual(objectiveOf(':sparkles: add shell completion for zsh'), 'add shell completion for zsh');
    assert.strictEqual(objectiveOf('♻️ refactor: split the parser'), 'split the parser');
  });

  it('builds cases whose workspaces have their parent tree and history, side branches too, and keeps other repositories', () => {
    const c0 = commit({ 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 1;\n', 'src/c.ts': 'export const c = 1;\n', 'big.js': 'x'.repeat(1024 * 1024 + 1) }, 'start the project files');
    const c1 = commit({ 'src/a.ts': 'export const a = 2;\n' }, 'fix(a): handle the empty parser input (#1)');
    git(work, ['checkout', '-q', '-b', 'next']);
    const n1 = commit({ 'src/b.ts': 'export const b = 2;\n' }, 'change the b module semantics');
    const wip = commit({ 'src/b.ts': 'export const b = 22;\n' }, 'wip');
    const n1c = commit({ 'src/b.ts': 'export const b = 23;\n' }, 'extend the b module api');
    git(work, ['checkout', '-q', 'trunk']);
    const c2 = commit({ 'src/c.ts': 'export const c = 2;\n', 'README.md': 'docs\n' }, 'improve the c helper output');
    commit({ 'src/a.ts': 'export const a = 3;\n' }, 'chore(release): 1.2.3');
    git(work, ['checkout', '-q', 'next']);
    git(work, ['merge', '-q', '--no-ff', '-m', 'Merge branch trunk into next', 'trunk']);
    const m1 = git(work, ['rev-parse', 'HEAD']);
    const n2 = commit({ 'src/b.ts': 'export const b = 3;\n' }, 'rework b for the next major');
    git(work, ['checkout', '-q', 'trunk']);
    git(work, ['merge', '-q', '--no-ff', '-m', 'Merge branch next', 'next']);
    const merge = git(work, ['rev-parse', 'HEAD']);
    const c3 = commit({ 'src/c.ts': 'export const c = 4;\n', 'src/d.ts': 'export const d = 1;\n' }, 'tidy the c helper edge cases');
    commit({ 'src/a.ts': 'export const a = 5;\n' }, 'ok');

    const out = path.join(tmp, 'data');
    fs.mkdirSync(out);
    const other: Case = { id: 'other-1', repo: 'other', commit: 'c'.repeat(40), objective: 'keep me as I am', snapshot: 's'.repeat(40), modified: ['x.ts'] };
    fs.writeFileSync(path.join(out, 'other.bundle'), 'a bundle');
    fs.writeFileSync(path.join(out, 'cases.json'), JSON.stringify({ version: 1, sources: { other: 'https://github.com/o/other' }, cases: [other] }));
    const lines: string[] = [];
    const bytes = writeCases(out, [{ name: 'demo', source: 'me/demo', dir: path.join(work, '.git') }], (l) => lines.push(l));

    const data = JSON.parse(fs.readFileSync(path.join(out, 'cases.json'), 'utf8')) as { sources: Record<string, string>; cases: Case[] };
    assert.deepStrictEqual(data.sources, { other: 'https://github.com/o/other', demo: 'https://github.com/me/demo' });
    assert.deepStrictEqual(data.cases[0], other, 'a repository not named keeps its cases');
    const cases = data.cases.slice(1);
    // oldest first; the release, the short subject, the merges and the root commit are not cases
    assert.deepStrictEqual(cases.map((c) => c.commit), [c1, n1, n1c, c2, n2, c3]);
    assert.deepStrictEqual(cases.map((c) => c.modified), [['src/a.ts'], ['src/b.ts'], ['src/b.ts'], ['src/c.ts'], ['src/b.ts'], ['src/c.ts']]);
    assert.strictEqual(cases[0].objective, 'handle the empty parser input');
    assert.strictEqual(cases[0].id, `demo-${c1.slice(0, 8)}`);
    assert.strictEqual(bytes, fs.statSync(path.join(out, 'demo.bundle')).size + 'a bundle'.length);
    assert.match(lines.join('\n'), /demo: 6 cases/);

    // the bundle as the bench materializes it
    const clone = path.join(tmp, 'clone.git');
    execFileSync('git', ['clone', '-q', '--bare', path.join(out, 'demo.bundle'), clone], { stdio: 'ignore' });
    const inClone = (args: string[]) => execFileSync('git', ['--git-dir', clone, ...args], { encoding: 'utf8' }).trim();
    const subjects = (c: Case) => inClone(['log', '--format=%s', c.snapshot]).split('\n');
    const parentOf: Record<string, string> = { [c1]: c0, [n1]: c1, [n1c]: wip, [c2]: c1, [n2]: m1, [c3]: merge };
    for (const c of cases) {
      const real = git(work, ['ls-tree', '-r', parentOf[c.commit]]).split('\n').filter((l) => !l.endsWith('\tbig.js'));
      assert.deepStrictEqual(inClone(['ls-tree', '-r', c.snapshot]).split('\n'), real, `${c.id}: the parent's tree without files over 1 MB`);
    }
    assert.deepStrictEqual(subjects(cases[1]), ['fix(a): handle the empty parser input (#1)', 'start the project files'], 'a side branch at its fork point');
    assert.deepStrictEqual(subjects(cases[2]), ['wip', 'change the b module semantics', 'fix(a): handle the empty parser input (#1)', 'start the project files'], 'a side branch: its own commits on top of its fork point');
    assert.deepStrictEqual(subjects(cases[4]), ['Merge branch trunk into next', 'chore(release): 1.2.3', 'improve the c helper output', 'fix(a): handle the empty parser input (#1)', 'start the project files'], 'a side branch that merged the chain in: the chain up to there, then the merge');
    assert.deepStrictEqual(subjects(cases[5]), ['Merge branch next', 'chore(release): 1.2.3', 'improve the c helper output', 'fix(a): handle the empty parser input (#1)', 'start the project files'], 'the default branch: its first-parent history and nothing later');
    assert.ok(!inClone(['log', '--all', '--format=%s']).split('\n').includes('ok'), 'nothing after the newest case');
  });
});
