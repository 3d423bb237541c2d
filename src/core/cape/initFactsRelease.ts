// Init's workspace facts, the releases block of the manifests part (initFactsManifests.ts): the version tags of the
// workspace's git repository (workspace/versionTags.ts) as fact lines — the latest few with their dates, how many
// there are and how far HEAD is past the latest, then the first release of the latest's minor and of its major, so
// the model sees whether the project ships new API in minor releases or in patches. One tag: the one line it needs.
// When HEAD's history holds only older tags (an older checkout, a maintenance branch), those describe the code, and a
// last line lists the later ones, with how HEAD stands against them.
import type { DatedTag, HeadFromTag, LaterTags, ReleaseTags } from '../workspace/versionTags';
import { formatLocalDate } from '../model/dates';

/** The block's heading: the part's other blocks are headed by their file, this one by where its lines come from. */
const HEADING = '## Releases (git tags)';

/** `n commit(s)`. */
const commits = (n: number): string => `${n} commit${n === 1 ? '' : 's'}`;

/**
 * Where HEAD stands against the latest tag: `; HEAD is 3 commits past v1.2.0` — the tag named when the line lists
 * several (`named`), "it" when it names one; '' when git could not tell.
 */
function headSaying(head: HeadFromTag | null, named?: string): string {
  if (!head) return '';
  // HEAD in the tag's history: an older checkout; else the tag is on another branch
  if (head.apart && !head.past) return `; HEAD is older than ${named ?? 'it'}, which has ${commits(head.behind)} HEAD lacks`;
  if (head.apart) return `; ${named ?? 'it'} is on another branch, HEAD has ${commits(head.past)} it lacks`;
  const it = named ?? 'it';
  return head.past ? `; HEAD is ${commits(head.past)} past ${it}` : `; HEAD is at ${it}`;
}

/** A tag with its date and, for a pre-release, what it is: `1.0.27 (2025-09-14)`, `v2.0.0-rc.1 (pre-release, 2025-10-02)`. */
function datedTag({ tag, date, pre }: DatedTag): string {
  const notes = [...(pre ? ['pre-release'] : []), ...(date ? [formatLocalDate(date)] : [])];
  return notes.length ? `${tag} (${notes.join(', ')})` : tag;
}

/** Where the project last changed its minor and its major version, or null without a release. */
function lastChangesLine({ lastMinor, lastMajor }: Pick<ReleaseTags, 'lastMinor' | 'lastMajor'>): string | null {
  if (!lastMinor) return null;
  const major = !lastMajor ? 'none, still 0.x' : lastMajor.tag === lastMinor.tag ? lastMajor.tag : datedTag(lastMajor);
  return `- the last minor release: ${datedTag(lastMinor)}; the last major: ${major}`;
}

/**
 * The releases block: `## Releases (git tags)`, then `- latest version tags: v1.8.1 (2023-10-18), v1.8.0 (2020-12-12),
 * v1.7.4 (2020-01-12) — 15 in all; HEAD is 42 commits past v1.8.1` and the last minor and major release; for a single
 * tag `- latest version tag: v1.0.0, tagged 2023-10-18 (1 version tag; HEAD is at it)`.
 */
export function releaseBlock(tags: ReleaseTags): string {
  const { latest, before, count, head, later } = tags;
  const mine = later ? " in HEAD's history" : '';
  const lines =
    count === 1
      ? [`- latest version tag: ${latest.tag}${latest.date ? `, tagged ${formatLocalDate(latest.date)}` : ''} (1 version tag${mine}${headSaying(head)})`]
      : [`- latest version tags${mine}: ${[latest, ...before].map(datedTag).join(', ')} — ${count}${later ? mine : ' in all'}${headSaying(head, latest.tag)}`, lastChangesLine(tags)];
  return [HEADING, ...lines, later ? laterLine(later) : null].filter((line) => line !== null).join('\n');
}

/** The version tags after those in HEAD's history: `- later version tags not in HEAD's history: v15.0.0 (…) — 46; HEAD is older than v15.0.0, …`. */
function laterLine({ latest, before, count, head }: LaterTags): string {
  return `- later version tags not in HEAD's history: ${[latest, ...before].map(datedTag).join(', ')} — ${count}${headSaying(head, latest.tag)}`;
}
