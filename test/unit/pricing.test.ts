// The one pricing table (src/core/llm/pricing.ts). Regression: there used to be two tables that disagreed — for
// 1M input + 1M output tokens an Opus 4.5+ model cost $90 in one and $30 in the other, and a model of no known
// family was priced at Sonnet rates in one and $0 in the other.
import * as assert from 'assert';
import { costUsd, formatUsd, parseModelId, priceFor } from '../../src/core/llm/pricing';
import { computeMetrics } from '../../src/core/metrics/metrics';
import * as core from '../../src/core';

const M = 1_000_000;
const usage = (i: number, o: number, cw = 0, cr = 0) => ({ inputTokens: i, outputTokens: o, cacheCreationInputTokens: cw, cacheReadInputTokens: cr });

describe('pricing: the one table', () => {
  it('reads tier and version from both naming schemes, dates and provider prefixes included', () => {
    assert.deepStrictEqual(parseModelId('claude-opus-4-1-20250805'), { tier: 'opus', version: 4.1 });
    assert.deepStrictEqual(parseModelId('claude-opus-4-20250514'), { tier: 'opus', version: 4 }, 'a date is not a minor version');
    assert.deepStrictEqual(parseModelId('claude-sonnet-4-5-20250929'), { tier: 'sonnet', version: 4.5 });
    assert.deepStrictEqual(parseModelId('anthropic.claude-haiku-4-5-20251001-v1:0'), { tier: 'haiku', version: 4.5 });
    assert.deepStrictEqual(parseModelId('claude-3-5-haiku-20241022'), { tier: 'haiku', version: 3.5 });
    assert.deepStrictEqual(parseModelId('us.anthropic.claude-3-7-sonnet-20250219-v1:0'), { tier: 'sonnet', version: 3.7 });
    assert.deepStrictEqual(parseModelId('claude-3-opus-latest'), { tier: 'opus', version: 3 });
    assert.strictEqual(parseModelId('gpt-4o'), null);
    assert.strictEqual(parseModelId('some-local-model'), null);
    assert.strictEqual(parseModelId(''), null);
  });

  it('list prices per million tokens, cache writes and reads included', () => {
    const all = usage(M, M, M, M);
    assert.strictEqual(costUsd('claude-sonnet-4-6', all), 3 + 15 + 3.75 + 0.3);
    assert.strictEqual(costUsd('claude-haiku-4-5', all), 1 + 5 + 1.25 + 0.1);
    assert.strictEqual(costUsd('claude-opus-4-1', all), 15 + 75 + 18.75 + 1.5);
    assert.strictEqual(costUsd('claude-opus-4-5', all), 5 + 25 + 6.25 + 0.5);
    assert.strictEqual(costUsd('claude-3-5-haiku-latest', usage(M, M)), 0.8 + 4);
    assert.strictEqual(costUsd('claude-3-haiku-20240307', usage(M, M)), 0.25 + 1.25);
    assert.strictEqual(costUsd('claude-sonnet-4-6', usage(0, 0)), 0);
  });

  it('regression: an Opus 4.5+ costs $30 for 1M in + 1M out, wherever the cost is computed', () => {
    for (const model of ['claude-opus-4-5', 'claude-opus-4-6', 'claude-opus-4-5-20251101']) {
      assert.strictEqual(costUsd(model, usage(M, M)), 30, model);
      const m = computeMetrics({ envelopes: {}, usage: { poa: { usage: usage(M, M), model } }, startedAt: 0, retroSavedAt: 1, contextChars: {} });
      assert.strictEqual(m.perStep.poa!.costUsd, 30, `metrics for ${model}`);
    }
    assert.strictEqual(costUsd('claude-opus-4-1', usage(M, M)), 90, 'Opus 4 and 4.1 keep their own price');
  });

  it('a newer version than the table knows costs its tier’s newest price; no false match on a longer number', () => {
    assert.strictEqual(priceFor('claude-opus-5')!.output, 25);
    assert.strictEqual(priceFor('claude-haiku-9')!.input, 1);
    assert.strictEqual(priceFor('claude-sonnet-7-2')!.input, 3);
    assert.strictEqual(priceFor('claude-opus-45')!.output, 25, 'read as version 45, not as Opus 4');
  });

  it('regression: a model of no known tier has an unknown cost (null), never $0 and never a guess', () => {
    assert.strictEqual(priceFor('some-local-model'), null);
    assert.strictEqual(costUsd('copilot-gpt-4o', usage(1000, 1000)), null);
    assert.strictEqual(formatUsd(null), 'unknown');
    assert.strictEqual(formatUsd(0.12345), '$0.1235');
  });

  it('is the only price table core exports', () => {
    const priceLike = Object.keys(core).filter((k) => /price|cost/i.test(k));
    // The cost cap (llm/costCap.ts) prices requests through priceFor / costUsd; it has no prices of its own.
    assert.deepStrictEqual(priceLike.sort(), ['MODEL_PRICES', 'costUsd', 'priceFor', 'pricedModel', 'CostTracker', 'costCapProblem'].sort());
  });
});
