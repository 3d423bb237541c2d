// One word of a shell command line (core/text/shell.ts): the CLI's resume hints and the detected check commands; and
// the commands a command line runs.
import * as assert from 'assert';
import { commandParts, shellWord } from '../../src/core/text/shell';

describe('shellWord', () => {
  it('leaves a plain path bare and quotes one a POSIX shell would read otherwise, a quote inside included', () => {
    assert.strictEqual(shellWord('/repo/.venv/bin/python', 'posix'), '/repo/.venv/bin/python');
    assert.strictEqual(shellWord('/my repo/.venv/bin/python', 'posix'), "'/my repo/.venv/bin/python'");
    assert.strictEqual(shellWord("/it's/here", 'posix'), "'/it'\\''s/here'");
    // a backslash is an escape to a POSIX shell, so a path holding one is quoted
    assert.strictEqual(shellWord('/odd\\name', 'posix'), "'/odd\\name'");
  });

  it("takes a backslash as a path separator for Windows' cmd, and quotes with double quotes", () => {
    assert.strictEqual(shellWord('C:\\repo\\.venv\\Scripts\\python.exe', 'cmd'), 'C:\\repo\\.venv\\Scripts\\python.exe');
    assert.strictEqual(shellWord('C:\\My Repo\\python.exe', 'cmd'), '"C:\\My Repo\\python.exe"');
  });
});

describe('commandParts', () => {
  it('splits a line at `&&`, `||`, `;` and, unless told not to, `|`; each part trimmed, none empty', () => {
    assert.deepStrictEqual(commandParts('cd src && make || echo failed; ; cat log | grep E'), ['cd src', 'make', 'echo failed', 'cat log', 'grep E']);
    assert.deepStrictEqual(commandParts('cd src && make || echo failed; cat log | grep E', { pipes: false }), ['cd src', 'make', 'echo failed', 'cat log | grep E']);
  });
});
