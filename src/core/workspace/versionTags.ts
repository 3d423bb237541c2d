// The version tags of a workspace that is a git repository: the latest by version order (`v1.10.0` after `v1.9.0`,
// whatever their dates; a pre-release `v2.0.0-rc.1` before `v2.0.0`) and the few releases before it, with their
// dates and how many there are, and the first release of the latest's minor and of its major — for init's facts, so
// the milestone names follow the project's versioning and its cadence (a trial on dtolnay/semver, whose patches add
// API, had the model guess a minor) — and how far HEAD is past the latest, so the facts say whether the code is that
// release or has moved on (a trial on gorilla/mux, 16 commits past v1.8.1 of 2023, had the model guess). When the
// latest is not in HEAD's history (an older checkout, a maintenance branch), the tags that are describe the code, and
// the later ones are told apart (a trial on commander.js checked out at 9.2.0 read "v15.0.0 is not in HEAD's history,
// HEAD has 0 commits it lacks", and the model planned against 15.x). Asked of git
// the history's way (history.ts gitOutput); no repository, no git or no version tag: none. A tag is a version when it
// reads like semver, with or without a `v` (`v1.8`, `1.2.3`, `v2.0.0-beta.1`); `nightly` or `api/v1.2.0` is not one.

import { gitOutput } from './history';

/** A version tag as the facts show it: its name, its date (the tagger's, or its commit's for a lightweight tag; null when git gave none), whether it is a pre-release. */
export interface DatedTag {
  tag: string;
  date: Date | null;
  pre: boolean;
}

/** How many of the latest version tags the facts list: enough to show how often the project releases, few enough for one line. */
export const RECENT_TAGS = 3;

/**
 * A repository's version tags as the facts give them: the latest by version order and the releases before it, how
 * many version tags there are, and where the project last changed its minor and its major version — so the model
 * sees whether new API ships in minor releases or in patches.
 */
export interface VersionTags {
  /** The latest by version order: a pre-release when no release has followed it. */
  latest: DatedTag;
  /** The releases before it (no pre-release), latest first: RECENT_TAGS - 1 at most. */
  before: DatedTag[];
  count: number;
  /** The first release of the latest release's major.minor; null when no tag is a release. */
  lastMinor: DatedTag | null;
  /** The first release of its major; null when no tag is a release or that major is 0 (no 1.0 yet). */
  lastMajor: DatedTag | null;
}

/** A tag that reads like a version: major.minor, an optional patch, pre-release and build. */
const VERSION_TAG = /^v?(\d+)\.(\d+)(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

/** A version's numbers and pre-release identifiers, as compared. */
interface Version {
  numbers: number[];
  pre: string[];
}

function versionOf(tag: string): Version | null {
  const m = VERSION_TAG.exec(tag);
  return m ? { numbers: [m[1], m[2], m[3] ?? '0'].map(Number), pre: m[4] ? m[4].split('.') : [] } : null;
}

/** Semver's order of pre-release identifiers: numbers before words, numbers by value, words by their characters. */
function comparePre(a: string[], b: string[]): number {
  if (!a.length || !b.length) return b.length - a.length; // a release after its pre-releases
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [a[i], b[i]];
    const [nx, ny] = [/^\d+$/.test(x), /^\d+$/.test(y)];
    const d = nx && ny ? Number(x) - Number(y) : nx !== ny ? (nx ? -1 : 1) : x < y ? -1 : x > y ? 1 : 0;
    if (d) return d;
  }
  return a.length - b.length;
}

const compareVersions = (a: Version, b: Version): number => a.numbers.reduce((d, n, i) => d || n - b.numbers[i], 0) || comparePre(a.pre, b.pre);

/** A tag of the refs, with its version. */
interface Tagged extends DatedTag {
  version: Version;
}

/** A tag without its version: as the facts show it. */
const dated = ({ tag, date, pre }: Tagged): DatedTag => ({ tag, date, pre });

/**
 * The version tags of `git for-each-ref --format=%(refname)%09%(creatordate:unix) refs/tags` output (one
 * `refs/tags/v1.2.0␉1699876543` a line), or null when no tag is a version.
 */
export function versionTagsOfRefs(output: string): VersionTags | null {
  const tags: Tagged[] = [];
  for (const line of output.split('\n')) {
    const [ref, when] = line.split('\t');
    const tag = ref?.startsWith('refs/tags/') ? ref.slice('refs/tags/'.length) : '';
    const version = versionOf(tag);
    const seconds = Number(when);
    if (version) tags.push({ tag, date: seconds > 0 ? new Date(seconds * 1000) : null, pre: version.pre.length > 0, version });
  }
  if (!tags.length) return null;
  // latest first; a sort keeps equal versions (`v1.2`, `v1.2.0`) in git's order
  tags.sort((a, b) => compareVersions(b.version, a.version));
  const releases = tags.filter((t) => !t.pre);
  const latest = tags[0];
  const top = releases[0]?.version.numbers;
  /** The earliest release that shares the latest release's first `n` numbers (its major, or its major.minor). */
  const firstOfLine = (n: number): DatedTag | null => {
    const line = top ? releases.filter((t) => t.version.numbers.slice(0, n).every((x, i) => x === top[i])) : [];
    return line.length ? dated(line[line.length - 1]) : null;
  };
  return {
    latest: dated(latest),
    before: releases.filter((t) => t !== latest).slice(0, RECENT_TAGS - 1).map(dated),
    count: tags.length,
    lastMinor: firstOfLine(2),
    lastMajor: top?.[0] === 0 ? null : firstOfLine(1),
  };
}

/**
 * Where HEAD stands against a tag: the commits HEAD has that the tag lacks (`past`: 0 when HEAD is at it), the commits
 * the tag has that HEAD lacks (`behind`), and whether there are any (`apart`: HEAD is older than the tag, or the tag is
 * on another branch, so HEAD is not simply past it).
 */
export interface HeadFromTag {
  past: number;
  behind: number;
  apart: boolean;
}

/** Version tags not in HEAD's history (ReleaseTags's `later`): the latest few, how many, and HEAD against the latest. */
export interface LaterTags {
  latest: DatedTag;
  before: DatedTag[];
  count: number;
  head: HeadFromTag;
}

/**
 * The version tags (VersionTags) and where HEAD stands against the latest; null when git could not tell. With `later`,
 * they are the tags in HEAD's history only (`count` too), and `later` the version tags after them that are not.
 */
export interface ReleaseTags extends VersionTags {
  head: HeadFromTag | null;
  later?: LaterTags;
}

/** HEAD against `tag` from `git rev-list --left-right --count TAG...HEAD` output (`3␉42`); null for any other. */
export function headFromCounts(output: string): HeadFromTag | null {
  const m = /^(\d+)\s+(\d+)\s*$/.exec(output);
  return m ? { past: Number(m[2]), behind: Number(m[1]), apart: Number(m[1]) > 0 } : null;
}

/** The refs git lists for the version tags: `refs/tags/v1.2.0␉1699876543` a line (versionTagsOfRefs reads them). */
const TAG_REFS = ['for-each-ref', '--format=%(refname)%09%(creatordate:unix)'];

/** HEAD against a tag by its full ref (a branch of the same name is not it); null when git could not tell. */
async function headFrom(root: string, tag: string): Promise<HeadFromTag | null> {
  const counts = await gitOutput(root, ['rev-list', '--left-right', '--count', `refs/tags/${tag}...HEAD`, '--']);
  return counts === null ? null : headFromCounts(counts);
}

/**
 * The workspace's version tags (versionTagsOfRefs) and HEAD against the latest, or null without a repository, git or a
 * version tag. When the latest is not in HEAD's history, those that are (and HEAD against their latest), with the
 * later ones apart (ReleaseTags's `later`: the versions after theirs); all of them as before when none is. A release
 * older than theirs outside HEAD's history (a history rewritten since: Day.js's v1.0.0 to v1.5.6) is no later tag,
 * and still where its line began: the last minor and major are read over those too.
 */
export async function versionTags(root: string): Promise<ReleaseTags | null> {
  // for-each-ref and rev-list read refs and objects only: no hook, pager or signature program of the repository's config runs
  const refs = await gitOutput(root, [...TAG_REFS, 'refs/tags']);
  const tags = refs === null ? null : versionTagsOfRefs(refs);
  if (!tags) return null;
  const head = await headFrom(root, tags.latest.tag);
  if (!head?.apart) return { ...tags, head };
  const merged = await gitOutput(root, [...TAG_REFS, '--merged=HEAD', 'refs/tags']);
  const mine = merged === null ? null : versionTagsOfRefs(merged);
  if (!mine) return { ...tags, head };
  const inHistory = new Set(merged!.split('\n').map((line) => line.split('\t')[0]));
  const top = versionOf(mine.latest.tag)!;
  const newer = (line: string) => {
    const v = versionOf(line.split('\t')[0].slice('refs/tags/'.length));
    return !!v && compareVersions(v, top) > 0;
  };
  // the tags outside HEAD's history: the versions after its latest, and the older ones
  const after: string[] = [];
  const older: string[] = [];
  for (const line of refs!.split('\n')) if (line && !inHistory.has(line.split('\t')[0])) (newer(line) ? after : older).push(line);
  const others = versionTagsOfRefs(after.join('\n'));
  const later = others && { latest: others.latest, before: others.before, count: others.count, head };
  // the first releases of the line, over the older releases outside HEAD's history too
  const lines = versionTagsOfRefs([merged, ...older].join('\n'))!;
  return { ...mine, lastMinor: lines.lastMinor, lastMajor: lines.lastMajor, head: await headFrom(root, mine.latest.tag), ...(later ? { later } : {}) };
}
