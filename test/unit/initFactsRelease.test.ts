// Init's workspace facts, the latest release (src/core/workspace/versionTags.ts, shown with the manifests): in a git
// repository with version tags, the latest by version order (not by date), its date and how many commits HEAD is past
// it, so milestone names follow the project's versioning and the model knows whether the code is that release;
// nothing without git or tags, no count when git cannot tell.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import { readWorkspaceFacts } from '../../src/core/cape/initFacts';
import { formatLocalDate } from '../../src/core/model/dates';
import { headFromCounts, latestOfRefs } from '../../src/core/workspace/versionTags';
import { tempDir } from '../helpers/cli';
import { factsPart, putFile } from '../helpers/codebase';

/** Runs git in `ws` at `date` (author and committer), signing nothing; its output. */
const gitIn = (ws: string) => (date: string, ...args: string[]) =>
  execFileSync('git', ['-C', ws, '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'tag.gpgSign=false', '-c', 'commit.gpgSign=false', ...args], {
    stdio: 'pipe',
    env: { ...process.env, GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date },
  }).toString();

/** A Go library whose repository tags v1.9.0 after v1.10.0 (a backport's release), and tags that name no version. */
function taggedRepo(): string {
  const ws = tempDir('cape-facts-release-');
  putFile(ws, 'go.mod', 'module example.com/mux\n\ngo 1.20\n');
  putFile(ws, 'mux.go', 'package mux\n');
  const git = gitIn(ws);
  git('2023-01-10T12:00:00Z', 'init', '-q');
  git('2023-01-10T12:00:00Z', 'add', '.');
  git('2023-01-10T12:00:00Z', 'commit', '-q', '-m', 'first');
  git('2023-01-10T12:00:00Z', 'tag', 'v1.10.0');
  git('2023-01-10T12:00:00Z', 'tag', 'nightly');
  git('2023-03-01T12:00:00Z', 'commit', '-q', '--allow-empty', '-m', 'backport');
  git('2023-03-01T12:00:00Z', 'tag', '-a', '-m', 'backport', 'v1.9.0');
  git('2023-03-02T12:00:00Z', 'tag', 'v1.10.0-rc.1');
  return ws;
}

describe('init: the facts give the latest version tag', function () {
  this.timeout(30000);

  it('names the latest version tag by version order, with its date, the count of version tags and HEAD past it; nothing without git', async () => {
    const ws = taggedRepo();
    const facts = (await readWorkspaceFacts(ws))!;
    const part = factsPart(facts.text, 'Releases');
    assert.strictEqual(part, `## Releases (git tags)\n- latest version tag: v1.10.0, tagged ${formatLocalDate(new Date('2023-01-10T12:00:00Z'))} (3 version tags; HEAD is 1 commit past it)`);
    assert.ok(facts.text.indexOf('## Releases') > facts.text.indexOf('## go.mod'), 'with the manifests, after them');
    assert.ok(facts.listed.includes('the version tags (git)'), facts.listed.join(', '));
    const plain = tempDir('cape-facts-release-none-');
    putFile(plain, 'go.mod', 'module example.com/mux\n');
    putFile(plain, 'mux.go', 'package mux\n');
    assert.ok(!(await readWorkspaceFacts(plain))!.text.includes('## Releases'), 'no repository: no release');
  });

  it('says how many commits HEAD is past the tag (none: at it), when the tag is off HEAD\'s history, and no count when git cannot tell', async () => {
    const ws = taggedRepo();
    const git = gitIn(ws);
    /** The release line's parenthesis. */
    const release = async () => {
      const part = factsPart((await readWorkspaceFacts(ws))!.text, 'Releases');
      return part.slice(part.lastIndexOf('(') + 1);
    };
    git('2023-04-01T12:00:00Z', 'tag', 'v1.11.0');
    assert.strictEqual(await release(), '4 version tags; HEAD is at it)');
    for (const day of ['02', '03', '04']) git(`2023-04-${day}T12:00:00Z`, 'commit', '-q', '--allow-empty', '-m', `fix ${day}`);
    // a branch named like the tag is not it
    git('2023-04-04T12:00:00Z', 'branch', 'v1.11.0', 'HEAD~2');
    assert.strictEqual(await release(), '4 version tags; HEAD is 3 commits past it)');
    // tagged on a release branch HEAD has not merged: not "past" it
    git('2023-04-05T12:00:00Z', 'checkout', '-q', '-b', 'release-1.12', 'HEAD~1');
    git('2023-04-05T12:00:00Z', 'commit', '-q', '--allow-empty', '-m', 'release');
    git('2023-04-05T12:00:00Z', 'tag', 'v1.12.0');
    git('2023-04-05T12:00:00Z', 'checkout', '-q', '-');
    assert.strictEqual(await release(), "5 version tags; not in HEAD's history, HEAD has 1 commit it lacks)");
    // a version tag on a file's blob: git lists it, but counts no commits to it
    const blob = git('2023-04-06T12:00:00Z', 'hash-object', '-w', 'mux.go').trim();
    git('2023-04-06T12:00:00Z', 'tag', 'v9.0.0', blob);
    assert.strictEqual(await release(), '6 version tags)');
    assert.deepStrictEqual(headFromCounts('0\t42\n'), { past: 42, apart: false });
    assert.strictEqual(headFromCounts('fatal: bad revision\n'), null);
  });

  it('orders versions as semver does: numbers by value, a pre-release before its release; a tag that names no version is none', () => {
    const refs = (...tags: string[]) => tags.map((t, i) => `refs/tags/${t}\t${1_700_000_000 + i}`).join('\n');
    assert.strictEqual(latestOfRefs(refs('v1.2', 'v1.10.0', 'v1.9.9'))?.tag, 'v1.10.0');
    assert.strictEqual(latestOfRefs(refs('v2.0.0', 'v2.0.0-rc.2', 'v2.0.0-rc.10'))?.tag, 'v2.0.0');
    assert.strictEqual(latestOfRefs(refs('v2.0.0-rc.2', 'v2.0.0-rc.10', 'v2.0.0-beta', 'v1.9.0'))?.tag, 'v2.0.0-rc.10');
    assert.strictEqual(latestOfRefs(refs('2.1.0+build.5', 'v2.0.0'))?.tag, '2.1.0+build.5');
    assert.deepStrictEqual(latestOfRefs(refs('nightly', 'api/v1.2.0', 'v1', 'release-3.0.0', 'v1.0.0')), { tag: 'v1.0.0', date: new Date(1_700_000_004_000), count: 1 });
    assert.strictEqual(latestOfRefs(refs('nightly')), null);
    assert.strictEqual(latestOfRefs('refs/tags/v1.0.0')?.date, null, 'no date from git: none shown');
  });
});
