// Trailing blanks cut by a walk back from the end (src/core/text/blanks.ts): the results, also past a 1 MB run of
// blanks inside the text and at its end.
import * as assert from 'assert';
import { trimmedEnd, withOneFinalNewline, withoutTrailingSpaces } from '../../src/core/text';

const MB = 1 << 20;

describe('text: trailing blanks (blanks.ts)', () => {
  it('trimmedEnd: where the white space before an index starts, as trimEnd cuts it, never below `from`', () => {
    assert.strictEqual(trimmedEnd('ab  \t\n'), 2);
    assert.strictEqual(trimmedEnd('ab \u00a0\u3000\r\n'), 2, 'every white space trimEnd cuts');
    assert.strictEqual(trimmedEnd('ab'), 2);
    assert.strictEqual(trimmedEnd(''), 0);
    assert.strictEqual(trimmedEnd('   '), 0);
    assert.strictEqual(trimmedEnd('a  b  c', 5), 4, 'before an index');
    assert.strictEqual(trimmedEnd('a     c', 5, 3), 3, 'not below from');
    for (const text of ['x \t y\u2028 ', ' \n', '\u{1F600} ', 'a\u200b ']) {
      for (let end = 0; end <= text.length; end++) {
        for (let from = 0; from <= end; from++) {
          assert.strictEqual(text.slice(from, trimmedEnd(text, end, from)), text.slice(from, end).trimEnd(), JSON.stringify([text, end, from]));
        }
      }
    }
  });

  it('withoutTrailingSpaces: the spaces and tabs at the end of a line, and no other white space', () => {
    const cut: Record<string, string> = {
      'a b \t \t': 'a b',
      'a\u00a0': 'a\u00a0', // a no-break space is text
      'a  \r': 'a  \r', // so is a lone carriage return
      ' \t ': '',
      '': '',
      '  a': '  a', // leading blanks stay
    };
    for (const [line, expected] of Object.entries(cut)) assert.strictEqual(withoutTrailingSpaces(line), expected, JSON.stringify(line));
  });

  it('withOneFinalNewline: a final run of line feeds made one, one added when there is none', () => {
    const ended: Record<string, string> = {
      a: 'a\n',
      'a\n': 'a\n',
      'a\n\n\n': 'a\n',
      'a\n\nb\n\n': 'a\n\nb\n', // blank lines inside stay
      'a\r\n\r\n': 'a\r\n\r\n', // a CRLF ending stays: its `\r` ends the run of line feeds
      '': '\n',
      '\n\n': '\n',
    };
    for (const [text, expected] of Object.entries(ended)) assert.strictEqual(withOneFinalNewline(text), expected, JSON.stringify(text));
  });

  it('a 1 MB run of blanks inside the text and at its end', () => {
    const spaces = ' '.repeat(MB);
    const text = `a${spaces}b${' \t'.repeat(MB / 2)}`;
    assert.strictEqual(trimmedEnd(text), MB + 2);
    assert.strictEqual(trimmedEnd(text, MB + 1), 1);
    assert.strictEqual(trimmedEnd(spaces), 0);
    assert.strictEqual(withoutTrailingSpaces(text), `a${spaces}b`);
    assert.strictEqual(withoutTrailingSpaces(spaces), '');
    const lines = '\n'.repeat(MB);
    assert.strictEqual(withOneFinalNewline(`a${lines}b${lines}`), `a${lines}b\n`);
    assert.strictEqual(withOneFinalNewline(lines), '\n');
  });
});
