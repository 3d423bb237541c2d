// Benchmark: building the KPT tree's node model (src/tree/model.ts: grouping, sorting, labels, tooltips) for
// 10,000 synthetic items — the work done once per kpt_merged.md change, before any node is expanded.
// Run: node out/bench/kptTree.js  →  "kpt tree: 10000 items → N groups in X ms"
import { collapseKptDuplicates } from '../src/core/kpt';
import { buildKptModel } from '../src/tree/model';
import { syntheticKptItems } from './kpt';

export function benchKptTree(count = 10_000): { items: number; groups: number; ms: number } {
  const items = syntheticKptItems(count);
  const t0 = process.hrtime.bigint();
  const model = buildKptModel(items);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const nodes = model.sections.reduce((n, s) => n + s.groups.reduce((k, g) => k + g.occurrences.length, 0), 0);
  // exact repeats of a tagged line are one item (a union merge's two versions of a line), as `cape kpt list` shows
  const distinct = collapseKptDuplicates(items).items.length;
  if (nodes !== distinct) throw new Error(`the model lists ${nodes} occurrences for ${distinct} distinct items`);
  return { items: items.length, groups: model.groupCount, ms };
}

if (require.main === module) {
  const r = benchKptTree();
  console.log(`kpt tree: ${r.items} items → ${r.groups} groups in ${r.ms.toFixed(1)} ms`);
}
