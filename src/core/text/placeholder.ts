// Items that say there is nothing: a model asked for a list (blocking questions, blockers, open questions, concerns,
// KPT items) often writes "なし", "None", "N/A", "-" or "No open questions" instead of an empty list. Read as an item,
// it would pause a session to ask the user "1. なし", pay for a round of questions to DA, list "POA-Q1: なし" as
// open, or store "なし" as a Problem in kpt_merged.md. The one predicate every list that is normalised asks
// (reply/lenientSchemas.ts toStringList, DevA's blockers, the DoR questions, the open questions, the KPT merge).
//
// Conservative by design: the whole item must be one of the phrases below (NFKC, any case, inside brackets or not, a
// final stop or not), so an item that says something — "None of the tests cover X", "N/A values are shown as blank",
// "問題なしと判断した理由を記録する" — is never dropped.

/** The parts of the phrases: "none so far", "no open questions at this time", "現時点では質問はありません". */
const WHEN_EN = '(?: (?:so far|yet|for now|at (?:this|the) (?:time|moment|stage)|identified|found|noted|to report|remaining))?';
const WHAT_EN = '(?:questions?|blockers?|issues?|problems?|concerns?|items?|risks?)';
const WHICH_EN = '(?:(?:open|further|other|outstanding|blocking|known|new|remaining|unresolved|additional) )?';
const WHEN_JA = '(?:現時点で(?:は)?|現状(?:は)?|今のところ|今回は)?';
const WHAT_JA = '(?:質問|問題|懸念(?:点|事項)?|課題|不明点|疑問点?|ブロッカー|リスク|確認事項|未解決の質問)(?:は|事項は?)?';
const NONE_JA = '(?:特に)?(?:なし|無し|ない|無い|ありません|ございません|ありませんでした)';

const PHRASES = [
  `(?:none|nothing)${WHEN_EN}`,
  `no ${WHICH_EN}${WHAT_EN}${WHEN_EN}`,
  'n/a|not applicable|nil',
  '[-–—]+',
  `${WHEN_JA}${NONE_JA}`,
  `${WHEN_JA}${WHAT_JA}${NONE_JA}`,
  '該当(?:なし|無し|しません|ありません)',
];
const PLACEHOLDER = new RegExp(`^(?:${PHRASES.map((p) => `(?:${p})`).join('|')})$`, 'u');

/** Brackets around the whole item: `（なし）`, `[none]`, `「特になし」` (after NFKC: `(なし)`), and its final stops. */
const OPENERS = '([「『【';
const CLOSERS = ')]」』】';
const STOPS = '.。!！';

/**
 * True when the item only says there is nothing ("なし", "特になし", "None", "N/A", "-", "none.", "（なし）",
 * "該当なし", "No open questions"): the whole trimmed item, NFKC, case aside, brackets and a final stop aside.
 * Brackets and stops are cut by index, in one pass: a regexp for them tried each start of a long run of `.`.
 */
export function isPlaceholderItem(item: string): boolean {
  const s = item.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ');
  let from = 0;
  let to = s.length;
  while (to - from >= 2 && OPENERS.includes(s[from]) && CLOSERS.includes(s[to - 1])) {
    from++;
    to--;
    while (from < to && s[from] === ' ') from++;
    while (to > from && s[to - 1] === ' ') to--;
  }
  while (to > from && STOPS.includes(s[to - 1])) to--;
  const said = s.slice(from, to).trim();
  return said !== '' && PLACEHOLDER.test(said);
}
