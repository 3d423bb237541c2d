// The version tags of a workspace that is a git repository: the latest by version order (`v1.10.0` after `v1.9.0`,
// whatever their dates; a pre-release `v2.0.0-rc.1` before `v2.0.0`), with its date and how many there are — for
// init's facts, so the milestone names follow the project's versioning — and how far HEAD is past it, so the facts
// say whether the code is that release or has moved on (a trial on gorilla/mux, 16 commits past v1.8.1 of 2023, had
// the model guess). Asked of git the history's way (history.ts gitOutput); no repository, no git or no version tag:
// none. A tag is a version when it reads like semver, with or without a `v` (`v1.8`, `1.2.3`, `v2.0.0-beta.1`);
// `nightly` or `api/v1.2.0` is not one.

import { gitOutput } from './history';

/** The latest version tag, its date (the tagger's, or its commit's for a lightweight tag; null when git gave none) and the version tags' count. */
export interface VersionTag {
  tag: string;
  date: Date | null;
  count: number;
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

/**
 * The latest version tag of `git for-each-ref --format=%(refname)%09%(creatordate:unix) refs/tags` output (one
 * `refs/tags/v1.2.0␉1699876543` a line), or null when no tag is a version.
 */
export function latestOfRefs(output: string): VersionTag | null {
  let best: { tag: string; version: Version; seconds: number } | null = null;
  let count = 0;
  for (const line of output.split('\n')) {
    const [ref, when] = line.split('\t');
    const tag = ref?.startsWith('refs/tags/') ? ref.slice('refs/tags/'.length) : '';
    const version = versionOf(tag);
    if (!version) continue;
    count++;
    if (!best || compareVersions(version, best.version) > 0) best = { tag, version, seconds: Number(when) };
  }
  return best && { tag: best.tag, date: best.seconds > 0 ? new Date(best.seconds * 1000) : null, count };
}

/**
 * Where HEAD stands against a tag: the commits HEAD has that the tag lacks (`past`: 0 when HEAD is at it), and whether
 * the tag has commits HEAD lacks (`apart`: tagged on another branch, so HEAD is not simply past it).
 */
export interface HeadFromTag {
  past: number;
  apart: boolean;
}

/** The latest version tag (VersionTag), and where HEAD stands against it; null when git could not tell. */
export interface ReleaseTag extends VersionTag {
  head: HeadFromTag | null;
}

/** HEAD against `tag` from `git rev-list --left-right --count TAG...HEAD` output (`3␉42`); null for any other. */
export function headFromCounts(output: string): HeadFromTag | null {
  const m = /^(\d+)\s+(\d+)\s*$/.exec(output);
  return m ? { past: Number(m[2]), apart: Number(m[1]) > 0 } : null;
}

/** The workspace's latest version tag (latestOfRefs) and HEAD against it, or null without a repository, git or a version tag. */
export async function latestVersionTag(root: string): Promise<ReleaseTag | null> {
  // for-each-ref and rev-list read refs and objects only: no hook, pager or signature program of the repository's config runs
  const refs = await gitOutput(root, ['for-each-ref', '--format=%(refname)%09%(creatordate:unix)', 'refs/tags']);
  const latest = refs === null ? null : latestOfRefs(refs);
  if (!latest) return null;
  // the tag by its full ref: a branch of the same name is not it
  const counts = await gitOutput(root, ['rev-list', '--left-right', '--count', `refs/tags/${latest.tag}...HEAD`, '--']);
  return { ...latest, head: counts === null ? null : headFromCounts(counts) };
}
