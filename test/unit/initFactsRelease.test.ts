// Init's workspace facts, the latest release (src/core/workspace/versionTags.ts, shown with the manifests): in a git
// repository with version tags, the latest by version order (not by date) and its date, so milestone names follow the
// project's versioning; nothing without git or tags.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import { readWorkspaceFacts } from '../../src/core/cape/initFacts';
import { formatLocalDate } from '../../src/core/model/dates';
import { latestOfRefs } from '../../src/core/workspace/versionTags';
import { tempDir } from '../helpers/cli';
import { factsPart, putFile } from '../helpers/codebase';

/** A Go library whose repository tags v1.9.0 after v1.10.0 (a backport's release), and tags that name no version. */
function taggedRepo(): string {
  const ws = tempDir('cape-facts-release-');
  putFile(ws, 'go.mod', 'module example.com/mux\n\ngo 1.20\n');
  putFile(ws, 'mux.go', 'package mux\n');
  const git = (date: string, ...args: string[]) =>
    execFileSync('git', ['-C', ws, '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'tag.gpgSign=false', '-c', 'commit.gpgSign=false', ...args], {
      stdio: 'pipe',
      env: { ...process.env, GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date },
    });
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

  it('names the latest version tag by version order, with its date and the count of version tags; nothing without git', async () => {
    const ws = taggedRepo();
    const facts = (await readWorkspaceFacts(ws))!;
    const part = factsPart(facts.text, 'Releases');
    assert.strictEqual(part, `## Releases (git tags)\n- latest version tag: v1.10.0, tagged ${formatLocalDate(new Date('2023-01-10T12:00:00Z'))} (3 version tags)`);
    assert.ok(facts.text.indexOf('## Releases') > facts.text.indexOf('## go.mod'), 'with the manifests, after them');
    assert.ok(facts.listed.includes('the version tags (git)'), facts.listed.join(', '));
    const plain = tempDir('cape-facts-release-none-');
    putFile(plain, 'go.mod', 'module example.com/mux\n');
    putFile(plain, 'mux.go', 'package mux\n');
    assert.ok(!(await readWorkspaceFacts(plain))!.text.includes('## Releases'), 'no repository: no release');
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
