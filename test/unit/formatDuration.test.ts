// formatDuration: the one way a duration reaches a person (panel steps and checks, the CLI's checks, the
// retrospective's ETT, retry waits, time limits in messages).
import * as assert from 'assert';
import { formatDuration } from '../../src/core/model/dates';
import { LlmError } from '../../src/core/llm/errors';

describe('formatDuration', () => {
  it('ms under a second, one decimal under 10 s (none when zero), whole seconds, then min / h', () => {
    const cases: [number, string][] = [
      [0, '0 ms'],
      [450, '450 ms'],
      [999.6, '1 s'],
      [1000, '1 s'],
      [1500, '1.5 s'],
      [9949, '9.9 s'],
      [9950, '10 s'],
      [12_400, '12 s'],
      [59_500, '1 min'],
      [60_000, '1 min'],
      [65_000, '1 min 5 s'],
      [185_000, '3 min 5 s'],
      [300_000, '5 min'],
      [3_599_500, '1 h'],
      [3_720_000, '1 h 2 min'],
    ];
    assert.deepStrictEqual(cases.map(([ms]) => [ms, formatDuration(ms)]), cases);
  });

  it('says "—" for a negative or non-finite value', () => {
    assert.deepStrictEqual([-1, Number.NaN, Infinity].map(formatDuration), ['—', '—', '—']);
  });

  it('is what a stalled request says of the idle timeout', () => {
    assert.match(LlmError.stalled(1500).message, /sent no data for 1\.5 s,/);
    assert.match(LlmError.stalled(600_000).message, /sent no data for 10 min,/);
  });
});
