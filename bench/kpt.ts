// Benchmark: recurrence grouping and the CM digest over 10,000 synthetic KPT items.
// Run: node out/bench/kpt.js  →  "kpt: group 10000 items in X ms, digest in Y ms"
import { groupKpt, kptDigest } from '../src/core/kpt';
import type { KptItem, KptKind } from '../src/core/model/types';
import { rng } from './rng';


const AGENTS = ['POA', 'DA', 'DevA', 'CM'];
// Topics that recur across sessions, each phrased a few ways (Japanese and English), as in real retrospectives.
const TOPICS: string[][] = [
  ['{a}がDoR未達のままセッションを開始した', 'DoR未達のままセッションが開始された', 'Session started although the DoR was not met'],
  ['{a}がkeyframes全数値を仕様書に書き切った', '{a}によるkeyframes全確定値の提供', '{a} specified every keyframe value up front'],
  ['{a}が仕様差異をOpen QuestionsでCMに報告しなかった', '仕様と異なる実装方式をOpen Questionsに上げなかった', '{a} did not raise the deviation as an Open Question'],
  ['セッション冒頭でスコープ宣言を出した', '{a}によるセッション冒頭のスコープ差分宣言', '{a} declared the scope at the start of the session'],
  ['ShouldHaveのGO/NO-GOが未確定のまま進んだ', 'ShouldHave items were implemented without a GO', 'ShouldHaveの判断期限と判断者を明記する'],
  ['アクセシビリティ要件をリリースブロッカー扱いで完遂した', 'prefers-reduced-motionをCSSとJSの両層で実装した', 'Accessibility handled as a release blocker'],
  ['E2Eテストがスコープ外となりユニットテストのみで終了した', 'No end-to-end test covered the rendering', '視覚的E2Eテストを DoD に追加する'],
  ['ブランドカラーのコントラスト比がWCAG AA未達', 'Brand colour contrast below WCAG AA', 'カラートークンの承認をハンドオフ内でクローズする'],
];
const DETAILS = ['次回も継続', 'to be fixed next time', '2セッション連続', 'root cause unclear', 'チームで共有する', 'blocked by the brief', '仕様書に追記'];
const WORDS = ['API', 'キャッシュ', 'レンダリング', 'migration', 'ストレージ', 'telemetry', '通知', 'routing', 'フォーム', 'i18n', '検索', 'onboarding'];

/** 10,000 items: ~70 % variations of recurring topics, ~30 % one-off items; 2,000 sessions of 5 items. */
export function syntheticKptItems(count = 10_000, seed = 42): KptItem[] {
  const r = rng(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)];
  const kinds: KptKind[] = ['keep', 'problem', 'try'];
  const items: KptItem[] = [];
  for (let i = 0; i < count; i++) {
    const taskId = `task-${1_700_000_000_000 + Math.floor(i / 5) * 60_000}`;
    let text: string;
    if (r() < 0.7) {
      text = pick(pick(TOPICS)).replace('{a}', pick(AGENTS));
      if (r() < 0.6) text += `（${pick(WORDS)}・${pick(WORDS)}）`;
      if (r() < 0.7) text += `——${pick(DETAILS)}`;
    } else {
      text = `${pick(AGENTS)}: ${pick(WORDS)} ${Math.floor(r() * 1e6).toString(36)} の ${pick(WORDS)} ${pick(DETAILS)} #${i}`;
    }
    items.push({ kind: pick(kinds), taskId, text });
  }
  return items;
}

export function benchKpt(): { items: number; groupMs: number; digestMs: number } {
  const items = syntheticKptItems();
  let t0 = process.hrtime.bigint();
  const groups = groupKpt(items);
  const groupMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (groups.length === 0) throw new Error('grouping produced no groups');
  t0 = process.hrtime.bigint();
  const digest = kptDigest(items);
  const digestMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (digest.length === 0 || digest.length > 2500) throw new Error(`digest length ${digest.length} is out of bounds`);
  return { items: items.length, groupMs, digestMs };
}

if (require.main === module) {
  const r = benchKpt();
  console.log(`kpt: group ${r.items} items in ${r.groupMs.toFixed(1)} ms, digest in ${r.digestMs.toFixed(1)} ms`);
}
