// formatBytes: the one way a size reaches a person (tool chips, refusals, limits, the KPT view, asset issues).
import * as assert from 'assert';
import { formatBytes } from '../../src/core/text/size';
import { MAX_READ_BYTES } from '../../src/core/workspace/policy';
import { MAX_FILE_BYTES } from '../../src/core/files/pathSafety';
import { MAX_ASSET_BYTES } from '../../src/core/cape/assets';

describe('formatBytes', () => {
  it('writes bytes under 1 KB, then KB / MB / GB of 1024 with one decimal, none when it is zero', () => {
    const cases: [number, string][] = [
      [0, '0 B'],
      [812, '812 B'],
      [1023, '1023 B'],
      [1024, '1 KB'],
      [2150, '2.1 KB'],
      [1536, '1.5 KB'],
      [256 * 1024, '256 KB'],
      [1024 * 1024, '1 MB'],
      [1.5 * 1024 * 1024, '1.5 MB'],
      [10 * 1024 * 1024, '10 MB'],
      [3 * 1024 ** 3, '3 GB'],
    ];
    assert.deepStrictEqual(cases.map(([n]) => [n, formatBytes(n)]), cases);
  });

  it('rounds up, so a size over a limit never reads as the limit and a non-empty size never as less', () => {
    assert.strictEqual(formatBytes(1025), '1.1 KB');
    assert.strictEqual(formatBytes(1024 * 1024 + 1), '1.1 MB');
    assert.strictEqual(formatBytes(10 * 1024 * 1024 + 1), '10.1 MB');
    // just under a unit: 1023.99 KB rounds up to the next unit, never "1024 KB"
    assert.strictEqual(formatBytes(1024 * 1024 - 1), '1 MB');
    assert.strictEqual(formatBytes(1024 ** 3 - 1), '1 GB');
    for (const limit of [1024, MAX_READ_BYTES, MAX_FILE_BYTES, MAX_ASSET_BYTES]) {
      assert.notStrictEqual(formatBytes(limit + 1), formatBytes(limit), `${limit}`);
    }
  });

  it('reads a fraction of a byte, a negative or a non-number as a whole or no byte', () => {
    assert.strictEqual(formatBytes(0.4), '1 B');
    assert.strictEqual(formatBytes(-5), '0 B');
    assert.strictEqual(formatBytes(Number.NaN), '0 B');
  });

  it('is what the limits of reads, writes and assets say', () => {
    assert.deepStrictEqual([MAX_READ_BYTES, MAX_FILE_BYTES, MAX_ASSET_BYTES].map(formatBytes), ['1 MB', '10 MB', '256 KB']);
  });
});
