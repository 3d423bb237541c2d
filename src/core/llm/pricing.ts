// The one pricing table: USD list prices of Claude models, used for every cost CAPE shows (session metrics, the
// retrospective's cost table, the panel, the CLI). SDK-free.
//
// The rule, decided once:
//  - A model id is read as tier (opus / sonnet / haiku) + version, in either naming scheme: `claude-opus-4-1`,
//    `claude-sonnet-4-5-20250929`, `claude-3-5-haiku-latest`; provider prefixes and suffixes are tolerated
//    (`anthropic.claude-haiku-4-5-20251001-v1:0`). A dated id without a minor version (`claude-opus-4-20250514`)
//    is version 4.0.
//  - Its price is the tier's row with the highest version not above the model's. So a newer version than the
//    table knows (`claude-opus-5`) costs the tier's newest list price: an estimate, the best one we have.
//  - A model of no known tier (a local gateway's model, a VS Code LM model such as `gpt-4o`) has NO price: its
//    cost is `null`, shown as "—" / "unknown", never $0 (which would claim the call was free) and never a guess.
import type { Usage } from '../model/types';

/** USD per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  /** 5-minute cache writes. */
  cacheWrite: number;
  /** 1-hour cache writes (`cache_control: {type: 'ephemeral', ttl: '1h'}`). */
  cacheWrite1h: number;
  cacheRead: number;
}

/**
 * Cached input relative to the model's input price, for current models (the rows below follow it; Haiku 3's own
 * list prices differ slightly): a 5-minute write 1.25×, a 1-hour write 2×, a read 0.1×. The billed-equivalent input of
 * the context-cost benchmark is counted with these.
 */
export const CACHE_MULTIPLIER = Object.freeze({ write5m: 1.25, write1h: 2, read: 0.1 });

export type ModelTier = 'opus' | 'sonnet' | 'haiku';

/** Per tier, rows by first version (major + minor / 10), oldest first. */
export const MODEL_PRICES: Readonly<Record<ModelTier, ReadonlyArray<{ from: number; price: ModelPrice }>>> = Object.freeze({
  opus: [
    { from: 3, price: { input: 15, output: 75, cacheWrite: 18.75, cacheWrite1h: 30, cacheRead: 1.5 } },
    { from: 4.5, price: { input: 5, output: 25, cacheWrite: 6.25, cacheWrite1h: 10, cacheRead: 0.5 } },
  ],
  sonnet: [{ from: 3, price: { input: 3, output: 15, cacheWrite: 3.75, cacheWrite1h: 6, cacheRead: 0.3 } }],
  haiku: [
    { from: 3, price: { input: 0.25, output: 1.25, cacheWrite: 0.3, cacheWrite1h: 0.5, cacheRead: 0.03 } },
    { from: 3.5, price: { input: 0.8, output: 4, cacheWrite: 1, cacheWrite1h: 1.6, cacheRead: 0.08 } },
    { from: 4, price: { input: 1, output: 5, cacheWrite: 1.25, cacheWrite1h: 2, cacheRead: 0.1 } },
  ],
});

/** `claude-opus-4-1`, `claude-sonnet-4-20250514` (a minor of 1–2 digits only; 8 digits are a date). */
const TIER_FIRST = /(?:^|[^a-z])(opus|sonnet|haiku)-(\d{1,3})(?:[-.](\d{1,2}))?(?!\d)/;
/** `claude-3-5-sonnet-20240620`, `claude-3.5-haiku`, `claude-3-opus`. */
const VERSION_FIRST = /claude-(\d{1,3})(?:[-.](\d))?-(opus|sonnet|haiku)(?![a-z])/;

/** The tier and version of a Claude model id, or null when it names no known tier. */
export function parseModelId(model: string): { tier: ModelTier; version: number } | null {
  const id = model.toLowerCase();
  const a = TIER_FIRST.exec(id);
  if (a) return { tier: a[1] as ModelTier, version: +a[2] + (a[3] ? +a[3] / 10 : 0) };
  const b = VERSION_FIRST.exec(id);
  if (b) return { tier: b[3] as ModelTier, version: +b[1] + (b[2] ? +b[2] / 10 : 0) };
  return null;
}

/** The list price of a model, or null for a model of no known tier (see the rule above). */
export function priceFor(model: string): ModelPrice | null {
  const parsed = parseModelId(model);
  if (!parsed) return null;
  const rows = MODEL_PRICES[parsed.tier];
  let row = rows[0];
  for (const r of rows) if (r.from <= parsed.version + 1e-9) row = r;
  return row.price;
}

/**
 * The model a response is priced at: the one that answered, else (a name without a known price, e.g. a gateway's
 * alias, or none) the one asked for when that has a price.
 */
export function pricedModel(answered: string, requested: string): string {
  if (answered && priceFor(answered)) return answered;
  return priceFor(requested) ? requested : answered || requested;
}

/** A token count as a number ≥ 0 (missing, negative or non-finite counts as 0). */
function tokens(n: unknown): number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0;
}

/** The cache writes of a usage by lifetime (the 1-hour part is included in cacheCreationInputTokens). */
function writes(usage: Usage): { w5m: number; w1h: number } {
  const all = tokens(usage.cacheCreationInputTokens);
  const w1h = Math.min(all, tokens(usage.cacheCreation1hInputTokens));
  return { w5m: all - w1h, w1h };
}

/** Cost of one call in USD, or null when the model has no known price. */
export function costUsd(model: string, usage: Usage): number | null {
  const p = priceFor(model);
  if (!p) return null;
  const { w5m, w1h } = writes(usage);
  return (
    (tokens(usage.inputTokens) * p.input +
      tokens(usage.outputTokens) * p.output +
      w5m * p.cacheWrite +
      w1h * p.cacheWrite1h +
      tokens(usage.cacheReadInputTokens) * p.cacheRead) /
    1_000_000
  );
}

/**
 * What the input of a call costs in input-token equivalents: uncached tokens + 1.25× 5-minute writes + 2× 1-hour
 * writes + 0.1× reads (CACHE_MULTIPLIER). Model-independent, so sessions on different models compare.
 */
export function billedInputTokens(usage: Usage): number {
  const { w5m, w1h } = writes(usage);
  return (
    tokens(usage.inputTokens) +
    CACHE_MULTIPLIER.write5m * w5m +
    CACHE_MULTIPLIER.write1h * w1h +
    CACHE_MULTIPLIER.read * tokens(usage.cacheReadInputTokens)
  );
}

/**
 * The smallest prompt prefix (tokens) the Messages API caches for a model: 4,096 for Opus 4.5 and later and Haiku
 * 4.5 and later, 2,048 for Haiku 3.x, 1,024 for the others (Sonnet 3.7 and 4.x, Opus 4 and 4.1). Below it a
 * cache mark caches nothing. Null for a model of no known tier.
 */
export function minCacheableTokens(model: string): number | null {
  const m = parseModelId(model);
  if (!m) return null;
  if ((m.tier === 'opus' || m.tier === 'haiku') && m.version >= 4.5 - 1e-9) return 4096;
  if (m.tier === 'haiku' && m.version < 4) return 2048;
  return 1024;
}

/** A cost for people: `$0.0123`, or `unknown` for an unpriced model. */
export function formatUsd(cost: number | null | undefined, digits = 4): string {
  return typeof cost === 'number' && Number.isFinite(cost) ? `$${cost.toFixed(digits)}` : 'unknown';
}
