import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  computeMetrics,
  formatMetricsMarkdown,
  leastSquaresSlope,
  populationVariance,
  type MetricsInput,
} from '../../src/core/metrics/metrics';
import { historyFromRetrospectives } from '../../src/core/metrics/history';
import { readFrontmatter, writeFrontmatter } from '../../src/core/cape/frontmatter';
import type { Envelope, Usage } from '../../src/core/model/types';

function env(agent: Envelope['agent'], score: number | null, refs: string[], extra: Partial<Envelope> = {}): Envelope {
  return {
    agent,
    role: agent,
    task_id: 't',
    voice: '',
    output: {},
    references: refs,
    confidence: null,
    ass: score === null ? null : { score, positive: '', improvement: '', context_adequate: true },
    ...extra,
  };
}

const u = (i: number, o: number, cw = 0, cr = 0): Usage => ({ inputTokens: i, outputTokens: o, cacheCreationInputTokens: cw, cacheReadInputTokens: cr });

function input(over: Partial<MetricsInput> = {}): MetricsInput {
  return {
    envelopes: {
      cm_open: env('CM', null, ['a']),
      poa: env('POA', 4, ['b', 'c']),
      da: env('DA', 5, []),
      deva: env('DevA', 3, ['d', ' ', 'e']),
      cm_retro: env('CM', null, [], {
        conversation: [
          { speaker: 'CM', text: 'hi' },
          { speaker: 'POA', text: 'ok' },
          { speaker: 'DA', text: '' },
          { speaker: 'DevA', text: 'done' },
        ],
      }),
    },
    usage: {
      cm_open: { usage: u(1000, 100), model: 'm' },
      poa: { usage: u(2000, 200, 50, 10), model: 'm' },
    },
    startedAt: 1_000,
    retroSavedAt: 61_000,
    contextChars: { poa: { input: 9000, passed: 3000 }, da: { input: 100, passed: 0 } },
    history: [3, 3.5],
    costUsd: (_model, usage) => usage.inputTokens / 1000 + usage.outputTokens / 100,
    ...over,
  };
}

describe('metrics: helpers', () => {
  it('population variance and least-squares slope', () => {
    assert.strictEqual(populationVariance([4, 5, 3]), 2 / 3);
    assert.strictEqual(populationVariance([]), null);
    assert.strictEqual(populationVariance([4]), 0);
    assert.strictEqual(leastSquaresSlope([1]), null);
    assert.strictEqual(leastSquaresSlope([1, 2, 3]), 1);
    assert.strictEqual(leastSquaresSlope([3, 3.5, 4]), 0.5);
    assert.ok(Math.abs(leastSquaresSlope([2, 4, 3, 5])! - 0.8) < 1e-12);
  });

  it('prices by the one table (llm/pricing.ts) by default; an unknown model has an unknown cost, and so has the total', () => {
    const usage = (model: string) => ({ usage: u(1_000_000, 1_000_000), model });
    const known = computeMetrics({ ...input(), costUsd: undefined, usage: { cm_open: usage('claude-sonnet-4-6'), poa: usage('claude-opus-4-5') } });
    assert.strictEqual(known.perStep.cm_open!.costUsd, 18);
    assert.strictEqual(known.perStep.poa!.costUsd, 30);
    assert.strictEqual(known.totalCostUsd, 48);
    const mixed = computeMetrics({ ...input(), costUsd: undefined, usage: { cm_open: usage('claude-sonnet-4-6'), poa: usage('copilot-gpt') } });
    assert.strictEqual(mixed.perStep.cm_open!.costUsd, 18);
    assert.strictEqual(mixed.perStep.poa!.costUsd, null, 'not $0: the call was not free, its price is unknown');
    assert.strictEqual(mixed.totalCostUsd, null);
    const md = formatMetricsMarkdown(mixed);
    assert.match(md, /\| poa \| 1000000 \| 1000000 \| 0 \| 0 \| — \|/);
    assert.match(md, /\| \*\*total\*\* \|[^\n]*\| — \|/);
  });
});

describe('metrics: the markdown table', () => {
  it('a cell with a long run of spaces keeps it, one with a line break in a run gets one space (200 KB took 57 s)', () => {
    const run = ' '.repeat(200_000);
    const criteria = [{ id: 'AC-1', text: `a${run}b`, tests: [], reason: `c${run}\n${run}d |${run}` }];
    const md = formatMetricsMarkdown({ ...computeMetrics(input()), criteria });
    assert.ok(md.includes(`| AC-1 a${run}b | — | — | — | c d \\| |`), 'the row as written');
  });
});

describe('metrics: computeMetrics', () => {
  it('computes ASS, SV, ST, XRF, CI, ETT, CR, tokens and cost', () => {
    const m = computeMetrics(input());
    assert.deepStrictEqual(m.ass, { POA: 4, DA: 5, DevA: 3 });
    assert.strictEqual(m.assAverage, 4);
    assert.strictEqual(m.satisfactionVariance, 2 / 3);
    assert.strictEqual(m.satisfactionTrend, 0.5); // 3, 3.5, 4
    assert.strictEqual(m.crossReferenceFrequency, 5); // a, b, c, d, e (blank ignored)
    assert.strictEqual(m.conversationIndex, 3); // empty turn ignored
    assert.strictEqual(m.elapsedMs, 60_000);
    assert.deepStrictEqual(m.compressionRatio, { poa: 3 });
    assert.deepStrictEqual(m.totalUsage, u(3000, 300, 50, 10));
    assert.strictEqual(m.perStep.cm_open!.costUsd, 2);
    assert.strictEqual(m.perStep.poa!.costUsd, 4);
    assert.strictEqual(m.totalCostUsd, 6);
    assert.strictEqual(m.perStep.da, undefined);
  });

  it('handles missing and hostile values without NaN', () => {
    const m = computeMetrics(
      input({
        envelopes: {
          poa: env('POA', 99, ['x']),
          da: { ...env('DA', null, []), ass: { score: Number.NaN, positive: '', improvement: '', context_adequate: null } },
          deva: { ...env('DevA', 2, []), references: 'nope' as unknown as string[] },
        },
        usage: { poa: { usage: u(-5, Number.NaN), model: 'm' } },
        history: [Number.NaN, 4],
        startedAt: 100,
        retroSavedAt: 50,
      }),
    );
    assert.deepStrictEqual(m.ass, { POA: null, DA: null, DevA: 2 });
    assert.strictEqual(m.assAverage, 2);
    assert.strictEqual(m.satisfactionVariance, 0);
    assert.strictEqual(m.satisfactionTrend, -2); // 4 → 2
    assert.strictEqual(m.crossReferenceFrequency, 1);
    assert.strictEqual(m.conversationIndex, 0);
    assert.strictEqual(m.elapsedMs, 0);
    assert.deepStrictEqual(m.totalUsage, u(0, 0));
    const none = computeMetrics(input({ envelopes: {}, history: [] }));
    assert.strictEqual(none.assAverage, null);
    assert.strictEqual(none.satisfactionVariance, null);
    assert.strictEqual(none.satisfactionTrend, null);
  });

  it('formats a markdown table with every metric', () => {
    const md = formatMetricsMarkdown(computeMetrics(input()));
    for (const label of ['ASS', 'SV', 'ST', 'XRF', 'CI', 'ETT', 'CR', 'total']) assert.match(md, new RegExp(`\\| \\**${label}`));
    assert.match(md, /\| ASS average \| 4\.00 \|/);
    assert.match(md, /\| ETT \| 1 min \|/);
    assert.match(md, /\| poa \| 2000 \| 200 \| 50 \| 10 \| 4\.0000 \|/);
  });
});

describe('metrics: frontmatter and history', () => {
  it('frontmatter round-trips strings with quotes, newlines and ---', () => {
    const fm = writeFrontmatter({ task_id: 't-1', objective: 'a "b"\n---\nc: d', ass_average: 4.25, none: null });
    assert.deepStrictEqual(readFrontmatter(fm + '# body\n'), { task_id: 't-1', objective: 'a "b"\n---\nc: d', ass_average: 4.25, none: null });
    assert.strictEqual(readFrontmatter('# no frontmatter'), null);
  });

  it('reads the ASS history oldest first, skipping files without a usable average', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-hist-'));
    const w = (name: string, text: string): void => fs.writeFileSync(path.join(dir, name), text);
    w('2026-05-02_10-00_task-b.md', writeFrontmatter({ task_id: 'task-b', date: '2026-05-02T10:00:00.000Z', ass_average: 4.5 }));
    w('2026-05-01_09-00_task-a.md', writeFrontmatter({ task_id: 'task-a', date: '2026-05-01T09:00:00.000Z', ass_average: 3 }));
    w('2026-05-03_09-00_task-c.md', writeFrontmatter({ task_id: 'task-c', ass_average: null }));
    w('2026-04-01_09-00_task-old.md', '# original CLI file without frontmatter\n');
    w('kpt_merged.md', '# KPT\n');
    assert.deepStrictEqual(await historyFromRetrospectives(dir), [3, 4.5]);
    assert.deepStrictEqual(await historyFromRetrospectives(dir, { excludeTaskId: 'task-b' }), [3]);
    assert.deepStrictEqual(await historyFromRetrospectives(path.join(dir, 'missing')), []);
  });

  it('counts a session once, from its newest retrospective (a session finished again with `cape resume --from-step`)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-hist-'));
    const w = (name: string, text: string): void => fs.writeFileSync(path.join(dir, name), text);
    w('2025-01-01_10-00_task-a.md', writeFrontmatter({ task_id: 'task-a', date: '2025-01-01T10:00:00.000Z', ass_average: 2 }));
    w('2025-01-02_10-00_task-b.md', writeFrontmatter({ task_id: 'task-b', date: '2025-01-02T10:00:00.000Z', ass_average: 3 }));
    w('2025-01-03_10-00_task-a.md', writeFrontmatter({ task_id: 'task-a', date: '2025-01-03T10:00:00.000Z', ass_average: 4 }));
    // without a task_id in the front matter, the file name's task id says which session it is
    w('2025-01-04_10-00_task-c.md', writeFrontmatter({ date: '2025-01-04T10:00:00.000Z', ass_average: 1 }));
    w('2025-01-05_10-00_task-c.md', writeFrontmatter({ date: '2025-01-05T10:00:00.000Z', ass_average: 5 }));
    assert.deepStrictEqual(await historyFromRetrospectives(dir), [3, 4, 5]);
    assert.deepStrictEqual(await historyFromRetrospectives(dir, { excludeTaskId: 'task-a' }), [3, 5]);
  });
});
