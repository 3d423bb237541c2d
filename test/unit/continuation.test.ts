// Stitching a reply continued after max_tokens, and when a reply counts as cut.
import * as assert from 'assert';
import { MAX_CONTINUATIONS, replyWasCut, stitchContinuation } from '../../src/core/reply/continuation';
import { TRUNCATED_ERROR } from '../../src/core/reply/locate';

describe('reply continuation', () => {
  it('appends the continuation, dropping a repeated end of the partial reply', () => {
    assert.strictEqual(stitchContinuation('{"voice": "Hello', ' world"}'), '{"voice": "Hello world"}');
    const partial = '```json\n{"agent": "DevA", "voice": "I add the theme toggle and keep';
    const repeated = 'the theme toggle and keep the choice in localStorage."}';
    assert.strictEqual(stitchContinuation(partial, repeated), '```json\n{"agent": "DevA", "voice": "I add the theme toggle and keep the choice in localStorage."}');
    // Short coincidental matches are not overlaps.
    assert.strictEqual(stitchContinuation('abc"}', '"}\n'), 'abc"}"}\n');
  });

  it('a reply is cut when the API says max_tokens, or when a provider cannot say and the parser finds it ended early', () => {
    assert.strictEqual(replyWasCut('max_tokens', null), true);
    assert.strictEqual(replyWasCut('end_turn', TRUNCATED_ERROR), false);
    assert.strictEqual(replyWasCut(null, TRUNCATED_ERROR), true);
    assert.strictEqual(replyWasCut(null, 'the JSON envelope is not valid JSON'), false);
    assert.strictEqual(replyWasCut(null, null), false);
    assert.strictEqual(MAX_CONTINUATIONS, 2);
  });
});
