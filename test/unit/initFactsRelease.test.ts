// Init's workspace facts, the releases (src/core/workspace/versionTags.ts, shown with the manifests by
// src/core/cape/initFactsRelease.ts): in a git repository with version tags, the latest few by version order (not by
// date) with their dates, how many there are, how many commits HEAD is past the latest, and the first release of the
// latest's minor and of its major, so the model sees the project's versioning and cadence; one tag: one line; nothing
// without git or tags, no count when git cannot tell.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import { readWorkspaceFacts } from '../../src/core/cape/initFacts';
import { releaseBlock } from '../../src/core/cape/initFactsRelease';
import { formatLocalDate } from '../../src/core/model/dates';
import { headFromCounts, versionTagsOfRefs } from '../../src/core/workspace/versionTags';
import { tempDir } from '../helpers/cli';
import { factsPart, putFile } from '../helpers/codebase';

/** Runs git in `ws` at `date` (author and committer), signing nothing; its output. */
const gitIn = (ws: string) => (date: string, ...args: string[]) =>
  execFileSync('git', ['-C', ws, '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'tag.gpgSign=false', '-c', 'commit.gpgSign=false', ...args], {
    stdio: 'pipe',
    env: { ...process.env, GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date },
  }).toString();

/** The day the facts show for a tag made at noon UTC on `day` (`2023-01-10`): local time, as formatLocalDate gives it. */
const shownDay = (day: string): string => formatLocalDate(new Date(`${day}T12:00:00Z`));

/** A Go library's repository with its first commit on `day`, and how to run git in it. */
function goRepo(prefix: string, day: string): { ws: string; git: ReturnType<typeof gitIn> } {
  const ws = tempDir(prefix);
  putFile(ws, 'go.mod', 'module example.com/mux\n\ngo 1.20\n');
  putFile(ws, 'mux.go', 'package mux\n');
  const git = gitIn(ws);
  git(`${day}T12:00:00Z`, 'init', '-q');
  git(`${day}T12:00:00Z`, 'add', '.');
  git(`${day}T12:00:00Z`, 'commit', '-q', '-m', 'first');
  return { ws, git };
}

/** A Go library whose repository tags v1.9.0 after v1.10.0 (a backport's release), and tags that name no version. */
function taggedRepo(): string {
  const { ws, git } = goRepo('cape-facts-release-', '2023-01-10');
  git('2023-01-10T12:00:00Z', 'tag', 'v1.10.0');
  git('2023-01-10T12:00:00Z', 'tag', 'nightly');
  git('2023-03-01T12:00:00Z', 'commit', '-q', '--allow-empty', '-m', 'backport');
  git('2023-03-01T12:00:00Z', 'tag', '-a', '-m', 'backport', 'v1.9.0');
  git('2023-03-02T12:00:00Z', 'tag', 'v1.10.0-rc.1');
  return ws;
}

/** The facts' releases part of `ws`. */
const releasesOf = async (ws: string): Promise<string> => factsPart((await readWorkspaceFacts(ws))!.text, 'Releases');

describe('init: the facts give the latest version tags', function () {
  this.timeout(30000);

  it('lists the latest version tags by version order with their dates, the count, HEAD past the latest and the last minor and major; nothing without git', async () => {
    const ws = taggedRepo();
    const facts = (await readWorkspaceFacts(ws))!;
    assert.strictEqual(
      factsPart(facts.text, 'Releases'),
      '## Releases (git tags)\n' +
        `- latest version tags: v1.10.0 (${shownDay('2023-01-10')}), v1.9.0 (${shownDay('2023-03-01')}) — 3 in all; HEAD is 1 commit past v1.10.0\n` +
        `- the last minor release: v1.10.0 (${shownDay('2023-01-10')}); the last major: v1.9.0 (${shownDay('2023-03-01')})`,
    );
    assert.ok(facts.text.indexOf('## Releases') > facts.text.indexOf('## go.mod'), 'with the manifests, after them');
    assert.ok(facts.listed.includes('the version tags (git)'), facts.listed.join(', '));
    const plain = tempDir('cape-facts-release-none-');
    putFile(plain, 'go.mod', 'module example.com/mux\n');
    putFile(plain, 'mux.go', 'package mux\n');
    assert.ok(!(await readWorkspaceFacts(plain))!.text.includes('## Releases'), 'no repository: no release');
  });

  it('one version tag: the one line, with its date, the count and HEAD against it', async () => {
    const { ws, git } = goRepo('cape-facts-release-one-', '2023-01-10');
    git('2023-01-10T12:00:00Z', 'tag', 'v0.3.0');
    git('2023-01-11T12:00:00Z', 'tag', 'nightly');
    assert.strictEqual(await releasesOf(ws), `## Releases (git tags)\n- latest version tag: v0.3.0, tagged ${shownDay('2023-01-10')} (1 version tag; HEAD is at it)`);
  });

  it('shows the cadence: patches after a minor, a major bump, a pre-release under way, a backport tagged after a later version', async () => {
    const { ws, git } = goRepo('cape-facts-release-cadence-', '2021-01-05');
    /** Commits on `day` and tags that commit `tag`. */
    const release = (day: string, tag: string) => {
      git(`${day}T12:00:00Z`, 'commit', '-q', '--allow-empty', '-m', `release ${tag}`);
      git(`${day}T12:00:00Z`, 'tag', '-a', '-m', tag, tag);
    };
    const lines = async () => (await releasesOf(ws)).split('\n').slice(1);
    release('2021-01-05', '1.0.0');
    release('2021-05-20', '1.1.0');
    for (const [day, tag] of [['2022-02-01', '1.1.1'], ['2023-03-01', '1.1.2'], ['2024-04-01', '1.1.3']]) release(day, tag);
    // several patch releases after a minor: the latest three, and where the minor and the major last changed
    assert.deepStrictEqual(await lines(), [
      `- latest version tags: 1.1.3 (${shownDay('2024-04-01')}), 1.1.2 (${shownDay('2023-03-01')}), 1.1.1 (${shownDay('2022-02-01')}) — 5 in all; HEAD is at 1.1.3`,
      `- the last minor release: 1.1.0 (${shownDay('2021-05-20')}); the last major: 1.0.0 (${shownDay('2021-01-05')})`,
    ]);
    // a major bump, after its pre-release: the pre-release a release followed is not listed
    release('2024-08-01', '2.0.0-rc.1');
    release('2024-09-01', '2.0.0');
    assert.deepStrictEqual(await lines(), [
      `- latest version tags: 2.0.0 (${shownDay('2024-09-01')}), 1.1.3 (${shownDay('2024-04-01')}), 1.1.2 (${shownDay('2023-03-01')}) — 7 in all; HEAD is at 2.0.0`,
      `- the last minor release: 2.0.0 (${shownDay('2024-09-01')}); the last major: 2.0.0`,
    ]);
    // a backport of 1.1 tagged after 2.0.0 on its own branch: listed after 2.0.0, which stays the latest
    git('2024-10-01T12:00:00Z', 'checkout', '-q', '-b', 'v1-backports', '1.1.3');
    release('2024-10-01', 'v1.1.4');
    git('2024-10-01T12:00:00Z', 'checkout', '-q', '-');
    git('2024-10-02T12:00:00Z', 'commit', '-q', '--allow-empty', '-m', 'work');
    assert.deepStrictEqual(await lines(), [
      `- latest version tags: 2.0.0 (${shownDay('2024-09-01')}), v1.1.4 (${shownDay('2024-10-01')}), 1.1.3 (${shownDay('2024-04-01')}) — 8 in all; HEAD is 1 commit past 2.0.0`,
      `- the last minor release: 2.0.0 (${shownDay('2024-09-01')}); the last major: 2.0.0`,
    ]);
    // a pre-release no release has followed yet: first, shown as such; the last minor and major are the releases'
    release('2024-11-01', '2.1.0-beta.2');
    assert.deepStrictEqual(await lines(), [
      `- latest version tags: 2.1.0-beta.2 (pre-release, ${shownDay('2024-11-01')}), 2.0.0 (${shownDay('2024-09-01')}), v1.1.4 (${shownDay('2024-10-01')}) — 9 in all; HEAD is at 2.1.0-beta.2`,
      `- the last minor release: 2.0.0 (${shownDay('2024-09-01')}); the last major: 2.0.0`,
    ]);
  });

  it('says how many commits HEAD is past the latest (none: at it), when it is off HEAD\'s history, and no count when git cannot tell', async () => {
    const ws = taggedRepo();
    const git = gitIn(ws);
    /** What the list line says after the count. */
    const release = async () => {
      const list = (await releasesOf(ws)).split('\n')[1];
      return list.slice(list.indexOf(' — ') + 3);
    };
    git('2023-04-01T12:00:00Z', 'tag', 'v1.11.0');
    assert.strictEqual(await release(), '4 in all; HEAD is at v1.11.0');
    for (const day of ['02', '03', '04']) git(`2023-04-${day}T12:00:00Z`, 'commit', '-q', '--allow-empty', '-m', `fix ${day}`);
    // a branch named like the tag is not it
    git('2023-04-04T12:00:00Z', 'branch', 'v1.11.0', 'HEAD~2');
    assert.strictEqual(await release(), '4 in all; HEAD is 3 commits past v1.11.0');
    // tagged on a release branch HEAD has not merged: not "past" it
    git('2023-04-05T12:00:00Z', 'checkout', '-q', '-b', 'release-1.12', 'HEAD~1');
    git('2023-04-05T12:00:00Z', 'commit', '-q', '--allow-empty', '-m', 'release');
    git('2023-04-05T12:00:00Z', 'tag', 'v1.12.0');
    git('2023-04-05T12:00:00Z', 'checkout', '-q', '-');
    // the tags in HEAD's history describe the code; the later one is told apart
    assert.deepStrictEqual((await releasesOf(ws)).split('\n').slice(1), [
      `- latest version tags in HEAD's history: v1.11.0 (${shownDay('2023-03-01')}), v1.10.0 (${shownDay('2023-01-10')}), v1.9.0 (${shownDay('2023-03-01')}) — 4 in HEAD's history; HEAD is 3 commits past v1.11.0`,
      `- the last minor release: v1.11.0 (${shownDay('2023-03-01')}); the last major: v1.9.0 (${shownDay('2023-03-01')})`,
      `- later version tags not in HEAD's history: v1.12.0 (${shownDay('2023-04-05')}) — 1; v1.12.0 is on another branch, HEAD has 1 commit it lacks`,
    ]);
    // an older checkout: HEAD is in the later tags' history; the backport's v1.9.0 and the pre-release before v1.10.0,
    // tagged after it, are no later versions
    git('2023-04-05T12:00:00Z', 'checkout', '-q', '--detach', 'v1.10.0');
    assert.deepStrictEqual((await releasesOf(ws)).split('\n').slice(1), [
      `- latest version tag: v1.10.0, tagged ${shownDay('2023-01-10')} (1 version tag in HEAD's history; HEAD is at it)`,
      `- later version tags not in HEAD's history: v1.12.0 (${shownDay('2023-04-05')}), v1.11.0 (${shownDay('2023-03-01')}) — 2; HEAD is older than v1.12.0, which has 4 commits HEAD lacks`,
    ]);
    git('2023-04-05T12:00:00Z', 'checkout', '-q', '-');
    // a version tag on a file's blob: git lists it, but counts no commits to it
    const blob = git('2023-04-06T12:00:00Z', 'hash-object', '-w', 'mux.go').trim();
    git('2023-04-06T12:00:00Z', 'tag', 'v9.0.0', blob);
    assert.strictEqual(await release(), '6 in all');
    assert.deepStrictEqual(headFromCounts('0\t42\n'), { past: 42, behind: 0, apart: false });
    assert.strictEqual(headFromCounts('fatal: bad revision\n'), null);
  });

  it("releases older than HEAD's history (a history rewritten since) are where the line began, not later tags", async () => {
    // Day.js: v1.0.0 to v1.5.6 tag commits of a history rewritten after them; v1.5.7 on is in HEAD's
    const { ws, git } = goRepo('cape-facts-rewritten-', '2018-04-11');
    git('2018-04-11T12:00:00Z', 'tag', 'v1.0.0');
    git('2018-04-12T12:00:00Z', 'commit', '-q', '--allow-empty', '-m', 'minor');
    git('2018-04-12T12:00:00Z', 'tag', 'v1.1.0');
    git('2018-04-20T12:00:00Z', 'checkout', '-q', '--orphan', 'rewritten');
    git('2018-04-20T12:00:00Z', 'commit', '-q', '-m', 'rewritten');
    git('2018-04-20T12:00:00Z', 'tag', 'v1.1.7');
    git('2022-03-14T12:00:00Z', 'commit', '-q', '--allow-empty', '-m', 'minor');
    git('2022-03-14T12:00:00Z', 'tag', 'v1.2.0');
    git('2026-08-16T12:00:00Z', 'commit', '-q', '--allow-empty', '-m', 'patch');
    git('2026-08-16T12:00:00Z', 'tag', 'v1.2.1');
    // the next release, tagged on a commit HEAD lacks
    git('2026-08-17T12:00:00Z', 'commit', '-q', '--allow-empty', '-m', 'next');
    git('2026-08-17T12:00:00Z', 'tag', 'v1.2.2');
    git('2026-08-17T12:00:00Z', 'checkout', '-q', '--detach', 'v1.2.1');
    assert.deepStrictEqual((await releasesOf(ws)).split('\n').slice(1), [
      `- latest version tags in HEAD's history: v1.2.1 (${shownDay('2026-08-16')}), v1.2.0 (${shownDay('2022-03-14')}), v1.1.7 (${shownDay('2018-04-20')}) — 3 in HEAD's history; HEAD is at v1.2.1`,
      `- the last minor release: v1.2.0 (${shownDay('2022-03-14')}); the last major: v1.0.0 (${shownDay('2018-04-11')})`,
      `- later version tags not in HEAD's history: v1.2.2 (${shownDay('2026-08-17')}) — 1; HEAD is older than v1.2.2, which has 1 commit HEAD lacks`,
    ]);
  });

  it('orders versions as semver does: numbers by value, a pre-release before its release; a tag that names no version is none', () => {
    const refs = (...tags: string[]) => tags.map((t, i) => `refs/tags/${t}\t${1_700_000_000 + i}`).join('\n');
    const latest = (...tags: string[]) => versionTagsOfRefs(refs(...tags))?.latest.tag;
    assert.strictEqual(latest('v1.2', 'v1.10.0', 'v1.9.9'), 'v1.10.0');
    assert.strictEqual(latest('v2.0.0', 'v2.0.0-rc.2', 'v2.0.0-rc.10'), 'v2.0.0');
    assert.strictEqual(latest('v2.0.0-rc.2', 'v2.0.0-rc.10', 'v2.0.0-beta', 'v1.9.0'), 'v2.0.0-rc.10');
    assert.strictEqual(latest('2.1.0+build.5', 'v2.0.0'), '2.1.0+build.5');
    const one = { tag: 'v1.0.0', date: new Date(1_700_000_004_000), pre: false };
    assert.deepStrictEqual(versionTagsOfRefs(refs('nightly', 'api/v1.2.0', 'v1', 'release-3.0.0', 'v1.0.0')), { latest: one, before: [], count: 1, lastMinor: one, lastMajor: one });
    assert.strictEqual(versionTagsOfRefs(refs('nightly')), null);
    assert.strictEqual(versionTagsOfRefs('refs/tags/v1.0.0')?.latest.date, null, 'no date from git: none shown');
  });

  it('a project still at 0.x has no major release; one with pre-releases only, no last minor or major; a tag without a date shows none', () => {
    const refs = (...tags: string[]) => tags.map((t) => `refs/tags/${t}\t`).join('\n');
    const block = (...tags: string[]) => releaseBlock({ ...versionTagsOfRefs(refs(...tags))!, head: null }).split('\n').slice(1);
    assert.deepStrictEqual(block('v0.1.0', 'v0.2.1', 'v0.2.0', 'v0.10.0-alpha.1'), [
      '- latest version tags: v0.10.0-alpha.1 (pre-release), v0.2.1, v0.2.0 — 4 in all',
      '- the last minor release: v0.2.0; the last major: none, still 0.x',
    ]);
    assert.deepStrictEqual(block('v1.0.0-rc.1', 'v1.0.0-rc.2'), ['- latest version tags: v1.0.0-rc.2 (pre-release) — 2 in all']);
  });
});
