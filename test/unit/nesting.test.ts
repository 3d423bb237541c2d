// The nesting bound's own checks (src/core/text/nesting.ts): the scan of a JSON text (where it gets too deep, what it
// takes for a string or a comment, a mismatched bracket) and the walk of a parsed value (aliases repeating one list,
// a value that contains itself, leaves that are objects but not containers).
import * as assert from 'assert';
import { deeperThan, jsonDepthBeyond, MODEL_JSON_DEPTH, parseJsonWithin, TooDeepError, valueDepthBeyond } from '../../src/core/text/nesting';

/** `levels` arrays inside each other, `[[…]]`, as text. */
const arrays = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

/** The same as a value. */
function nested(levels: number): unknown[] {
  const root: unknown[] = [];
  let at = root;
  for (let i = 1; i < levels; i++) {
    const next: unknown[] = [];
    at.push(next);
    at = next;
  }
  return root;
}

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

  it('parseJsonWithin parses what is within the bound and names the line and column of what is not', () => {
    assert.deepStrictEqual(parseJsonWithin('{"a":[1]}', 2), { a: [1] });
    assert.throws(
      () => parseJsonWithin(`{\n  "a": ${arrays(3)}\n}`, 3),
      (e: Error) => e instanceof TooDeepError && e.message === `nests ${deeperThan(3)} (line 2, column 10)` && e.max === 3,
    );
    assert.throws(() => parseJsonWithin('{', 2), SyntaxError);
  });
});

describe('nesting: the walk of a parsed value', () => {
  it('counts levels of arrays and plain objects', () => {
    assert.strictEqual(valueDepthBeyond(nested(100), 100), false);
    assert.strictEqual(valueDepthBeyond(nested(101), 100), true);
    assert.strictEqual(valueDepthBeyond(nested(1_000_000), 100), true);
    assert.strictEqual(valueDepthBeyond({ a: { b: [1, { c: 2 }] } }, 4), false);
    assert.strictEqual(valueDepthBeyond({ a: { b: [1, { c: 2 }] } }, 3), true);
    assert.strictEqual(valueDepthBeyond(Object.assign(Object.create(null) as object, { a: [[]] }), 2), true);
    for (const leaf of [null, 1, 'x', new Date(0), Buffer.from('[[[')]) assert.strictEqual(valueDepthBeyond({ a: leaf }, 1), false);
  });

  it('a list repeated by aliases is walked once: a "billion laughs" of 10 lists of 10 is 10 levels', () => {
    let level: unknown[] = ['lol'];
    for (let i = 1; i < 10; i++) level = Array.from({ length: 10 }, () => level);
    assert.strictEqual(valueDepthBeyond(level, 10), false);
    assert.strictEqual(valueDepthBeyond(level, 9), true);
    // a shared list met again deeper down counts from there
    const shared = nested(5);
    assert.strictEqual(valueDepthBeyond([shared, [[shared]]], 7), true);
    assert.strictEqual(valueDepthBeyond([shared, [[shared]]], 8), false);
  });

  it('a value that contains itself (YAML `&a [*a]`) nests without end', () => {
    const loop: unknown[] = [1];
    loop.push([loop]);
    assert.strictEqual(valueDepthBeyond(loop, 100), true);
    const self: Record<string, unknown> = {};
    self.me = self;
    assert.strictEqual(valueDepthBeyond({ x: self }, 100), true);
  });
});
