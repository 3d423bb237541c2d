// CM's judgement of each acceptance criterion in its retrospective, read as met, not met or unknown whatever words
// (English or Japanese, decorated or not) it used, and the warning for the judgements that cannot be read. The judged
// TSR (tsr.ts) counts them.
import { criterionId } from './tsr';
import { isPlainObject, type CriterionJudgement } from '../model/types';

/**
 * The words CM may judge a criterion with, as judgementWord reads them: the one table. Partly met is not met (TSR
 * counts fulfilled criteria); a boolean or its spelling (`met: "true"`) says met or not.
 */
const JUDGEMENT_WORDS: Readonly<Record<string, CriterionJudgement['status']>> = {
  ...Object.fromEntries(
    ['met', 'yes', 'true', 'pass', 'passed', 'passes', 'ok', 'done', 'fulfilled', 'satisfied', 'achieved', '達成', '達成済み', '満たす', '満たした', '満たしている', '充足', '合格', '済'].map((w) => [w, 'met' as const]),
  ),
  ...Object.fromEntries(
    [
      'not_met', 'unmet', 'no', 'false', 'fail', 'failed', 'fails', 'not_fulfilled', 'unfulfilled', 'not_satisfied', 'not_achieved', 'partially_met', 'partly_met',
      'partial', 'partially', 'partially_fulfilled', '未達', '未達成', '未充足', '不合格', '満たしていない', '満たさない', '一部達成', '部分的に達成', '部分達成', '一部未達',
    ].map((w) => [w, 'not_met' as const]),
  ),
  ...Object.fromEntries(['unknown', 'unclear', 'undetermined', 'not_judged', 'n_a', 'na', '不明', '判定不能', '未確認', '不明確'].map((w) => [w, 'unknown' as const])),
};

/** A judgement word as JUDGEMENT_WORDS spells it: NFKC, lower case, emoji and punctuation dropped, words joined by `_`. */
function judgementWord(x: unknown): CriterionJudgement['status'] | null {
  if (typeof x === 'boolean') return x ? 'met' : 'not_met';
  if (typeof x !== 'string') return null;
  const word = x.normalize('NFKC').toLowerCase().replace(/[\p{P}\p{S}\p{M}\p{Cf}\s]+/gu, ' ').trim().replace(/ /g, '_');
  return Object.hasOwn(JUDGEMENT_WORDS, word) ? JUDGEMENT_WORDS[word] : null;
}

/**
 * CM's judgements as the envelope parser keeps them: `criteria: [{id, status, reason}]`, tolerant of wording
 * (JUDGEMENT_WORDS; `met: true` for a status). A criterion whose status cannot be read is kept as unknown with the
 * status as written (`unreadable`: the session warns of it), never dropped unseen; an entry without a criterion id is.
 */
export function judgementsOf(x: unknown): CriterionJudgement[] {
  if (!Array.isArray(x)) return [];
  const out: CriterionJudgement[] = [];
  for (const e of x) {
    if (!isPlainObject(e)) continue;
    const id = criterionId(e.id ?? e.criterion);
    if (!id) continue;
    const written = e.status ?? e.met;
    const status = judgementWord(written);
    const reason = typeof e.reason === 'string' ? e.reason.trim() : '';
    out.push(status ? { id, status, reason } : { id, status: 'unknown', reason, unreadable: typeof written === 'string' ? written.trim() : JSON.stringify(written ?? null) });
  }
  return out;
}

/** The warning for CM's judgements that could not be read (judgementsOf's `unreadable`), or null when there are none. */
export function unreadableJudgements(judgements: readonly CriterionJudgement[] | undefined): string | null {
  const bad = (judgements ?? []).filter((j) => j.unreadable !== undefined);
  if (!bad.length) return null;
  return (
    `The Cape Master's judgement of ${bad.map((j) => `${j.id} (${JSON.stringify(j.unreadable)})`).join(', ')} could not be read as met, not met or ` +
    'unknown: counted as unknown (not met) in the judged TSR.'
  );
}
