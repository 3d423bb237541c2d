// What the retrospective sees of the files DevA names for review (`criteria_tests` entries `{criterion, review: path}`):
// a criterion no test proves — a changelog line, documentation, wording — is judged from the lines the proposal
// adds there (edits/hunks.ts changedLinesText: the proposal's own lines, never the current file's). The retrospective
// receives no file's whole text (sources.ts renders the rest of its request).
import { changedLinesText } from '../edits/hunks';
import type { Criterion } from '../metrics/tsr';
import type { NamedTest, ProposedFile } from '../model/types';
import { fenceFor } from '../text/markdown';

/**
 * The added lines shown of each file DevA names for review (at least, while the room lasts: the room is shared among
 * the files shown, so a file alone gets all of it), of all of them together, and how many such files are shown at
 * most. A trial's 1,500 a file cut a docstring criterion's second method off (judged 'unknown'); 3,000 characters
 * are ~750 tokens, little beside a retrospective's ~25,000-character request. A Rust trial's one file for review (the
 * rustdoc of three methods) was cut at 3,000 with 21 lines left while half the room was unused.
 */
export const REVIEW_CHARS = 3000;
export const REVIEW_TOTAL_CHARS = 6000;
export const REVIEW_FILES = 4;

/**
 * The files DevA names for review (a criterion no test proves: a changelog line, documentation), each once, with the
 * lines its proposal changes there — the retrospective sees no file's whole text, and without these it could only
 * take DevA's word for such a criterion ('unknown').
 */
export function reviewedChanges(criteria: readonly Criterion[], tests: ReadonlyMap<string, readonly NamedTest[]>, files: readonly ProposedFile[]): string {
  const wanted = new Map<string, string[]>();
  for (const c of criteria) for (const t of tests.get(c.id) ?? []) if ('review' in t) wanted.set(t.review, [...(wanted.get(t.review) ?? []), c.id]);
  if (!wanted.size) return '';
  let room = REVIEW_TOTAL_CHARS;
  const shownFiles = [...wanted].slice(0, REVIEW_FILES);
  const blocks = shownFiles.map(([rel, ids], i) => {
    const f = files.find((x) => (x.relPath ?? x.path) === rel);
    const head = `${rel} (for ${ids.join(', ')})`;
    if (!f) return `${head}: not among DevA's files — nothing changes there.`;
    if (f.status === 'refused') return `${head}: refused (${f.reason ?? 'no reason given'}) — nothing changes there.`;
    if (f.action === 'modify' && f.currentContent === undefined) return `${head}: modified; its changed lines are not at hand.`;
    // this file's share of the room left (the files after it may be refused or unchanged, and so use none)
    const share = Math.min(room, Math.max(REVIEW_CHARS, Math.floor(room / (shownFiles.length - i))));
    const changed = changedLinesText(f.action === 'modify' ? f.currentContent! : '', f.content, Math.max(share, 200));
    if (!changed) return `${head}: proposed unchanged.`;
    room -= changed.length;
    const fence = fenceFor(changed);
    return `${head}, ${f.action === 'modify' ? 'where DevA changes it and the lines it adds' : 'a new file'}:\n${fence}diff\n${changed}\n${fence}`;
  });
  const more = wanted.size > REVIEW_FILES ? `\n(${wanted.size - REVIEW_FILES} more file(s) for review not shown.)` : '';
  return `### The files DevA names for review, as its proposal changes them\n${blocks.join('\n\n')}${more}`;
}
