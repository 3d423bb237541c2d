// The line of DevA's workspace section naming what the upstream role saw with its tools (core/workspace/sectionBlocks.ts).
import * as assert from 'assert';
import { upstreamReadSaying } from '../../src/core/workspace/sectionBlocks';

describe("the line naming what DA read for this work", () => {
  it('names each line DA read once: a range read twice, or ranges that overlap or touch, are one range', () => {
    const files = [{ path: 'src/store.ts', lines: [[100, 120], [1, 40], [1, 40], [30, 60], [61, 70]] as [number, number][] }];
    assert.strictEqual(upstreamReadSaying({ objective: 'x', read: { by: 'DA', files } }, () => true), 'DA read for this work: src/store.ts (lines 1–70, 100–120).\n');
    const apart = [{ path: 'src/a.ts', lines: [[5, 9], [1, 2]] as [number, number][] }];
    assert.strictEqual(upstreamReadSaying({ objective: 'x', read: { by: 'DA', files: apart } }, () => true), 'DA read for this work: src/a.ts (lines 1–2, 5–9).\n');
  });
});
