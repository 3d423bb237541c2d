// The nesting bound's own check (src/core/text/nesting.ts): the scan of a JSON text (where it gets too deep, what it
// takes for a string or a comment, a mismatched bracket).
import * as assert from 'assert';
import { jsonDepthBeyond, MODEL_JSON_DEPTH } from '../../src/core/text/nesting';

/** `levels` arrays inside each other, `[[…]]`, as text. */
const arrays = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);


describe('nesting: the scan of a JSON text', () => {
  it('gives the index of the bracket that opens level max + 1, else -1', () => {
    assert.strictEqual(jsonDepthBeyond(arrays(3), 3), -1);
    assert.strictEqual(jsonDepthBeyond(arrays(4), 3), 3);
    assert.strictEqual(jsonDepthBeyond('{"a":{"b":[1,{"c":2}]}}', 4), -1);
    assert.strictEqual(jsonDepthBeyond('{"a":{"b":[1,{"c":2}]}}', 3), 13);
    // siblings do not add up
    assert.strictEqual(jsonDepthBeyond('[' + '[1],'.repeat(1000) + '[]]', 2), -1);
    assert.strictEqual(jsonDepthBeyond('', 1), -1);
    assert.strictEqual(jsonDepthBeyond(arrays(1_000_000), MODEL_JSON_DEPTH), MODEL_JSON_DEPTH);
  });

  it('brackets in strings (escaped quotes too) and comments are not nesting', () => {
    assert.strictEqual(jsonDepthBeyond(`["${'[{'.repeat(100)}"]`, 1), -1);
    assert.strictEqual(jsonDepthBeyond(`["a\\"${'['.repeat(100)}", "\\\\"]`, 1), -1);
    const escaped = `["a\\"", ${arrays(3)}]`;
    assert.strictEqual(jsonDepthBeyond(escaped, 3), escaped.indexOf('[', 1) + 2);
    assert.strictEqual(jsonDepthBeyond(`[// ${'['.repeat(100)} "\n1]`, 1), -1);
    assert.strictEqual(jsonDepthBeyond(`[/* ${'['.repeat(100)} " */ 1]`, 1), -1);
    // a comment's quote does not start a string: what follows it is read
    const commented = `{"a": 1, // it's "quoted\n"b": ${arrays(5)}}`;
    assert.strictEqual(jsonDepthBeyond(commented, 5), commented.indexOf('[') + 4);
    // a string or comment that never ends hides nothing after it, since nothing comes after it
    assert.strictEqual(jsonDepthBeyond(`["abc${'['.repeat(100)}`, 1), -1);
  });

  it('a closing bracket of the other kind closes nothing (a tolerant parser skips it)', () => {
    assert.strictEqual(jsonDepthBeyond('[[}}[[', 3), 5);
    assert.strictEqual(jsonDepthBeyond('{{]]{{', 3), 5);
    assert.strictEqual(jsonDepthBeyond('[[]][[]]', 2), -1);
    // a closer with nothing open is no level below zero
    assert.strictEqual(jsonDepthBeyond(']]]]' + arrays(2), 2), -1);
  });

});
