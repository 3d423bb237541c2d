// The checks on a Rust crate, with the real cargo and clippy (scripts/install-rust.sh installs Debian's where a machine
// has neither): `cargo clippy --tests` and `cargo test` are detected from Cargo.toml, a proposal that compiles and passes
// its tests but trips one of clippy's deny-by-default lints (a comparison that is always false) goes back to DevA with
// clippy's output, and DevA's fix passes both.
import * as assert from 'assert';
import * as path from 'path';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useToolchain } from '../helpers/fakeSuite';
import { runCli, workspaceWithOriginalCape, writeFiles } from '../helpers/cli';
import { demoDir, demoReplies } from '../helpers/demo';
import { devaReply } from '../helpers/checksSession';

const TASK = 'task-rust';

const LIB = [
  'pub fn add(a: u32, b: u32) -> u32 {',
  '    a + b',
  '}',
  '',
  '#[cfg(test)]',
  'mod tests {',
  '    use super::*;',
  '',
  '    #[test]',
  '    fn adds() {',
  '        assert_eq!(add(2, 3), 5);',
  '    }',
  '}',
  '',
].join('\n');

/** `sub` that returns None below zero, by a test that only ever subtracts a smaller number: it passes, clippy does not. */
const FIRST_SUB = ['pub fn sub(a: u32, b: u32) -> Option<u32> {', '    if a - b < 0 {', '        return None;', '    }', '    Some(a - b)', '}'].join('\n');

const PROPOSAL = devaReply(
  TASK,
  'I added a checked subtraction.',
  [
    '<edit path="src/lib.rs">',
    '<<<<<<< SEARCH',
    'pub fn add(a: u32, b: u32) -> u32 {',
    '    a + b',
    '}',
    '=======',
    'pub fn add(a: u32, b: u32) -> u32 {',
    '    a + b',
    '}',
    '',
    FIRST_SUB,
    '>>>>>>> REPLACE',
    '<<<<<<< SEARCH',
    '        assert_eq!(add(2, 3), 5);',
    '    }',
    '=======',
    '        assert_eq!(add(2, 3), 5);',
    '    }',
    '',
    '    #[test]',
    '    fn subtracts() {',
    '        assert_eq!(sub(5, 3), Some(2));',
    '    }',
    '>>>>>>> REPLACE',
    '</edit>',
  ].join('\n'),
);

const FIX = [
  'clippy is right: a u32 is never below zero, and `a - b` overflows first. checked_sub says what I meant.',
  '<edit path="src/lib.rs">',
  '<<<<<<< SEARCH',
  FIRST_SUB,
  '=======',
  'pub fn sub(a: u32, b: u32) -> Option<u32> {',
  '    a.checked_sub(b)',
  '}',
  '>>>>>>> REPLACE',
  '</edit>',
].join('\n');

describe('CLI: checks on a Rust crate (cargo clippy, cargo test)', function () {
  this.timeout(300000);
  let fake: FakeAnthropic;
  useToolchain('cargo', ['clippy', '--version'], 'scripts/install-rust.sh', { chunkSize: 256 }, (f) => (fake = f));

  it('detected from Cargo.toml; clippy\'s deny-by-default lint on the proposal gets a fix round with its output; the fix passes both', async () => {
    const ws = workspaceWithOriginalCape('cape-rust-', path.join(demoDir(), 'workspace'));
    writeFiles(ws, { 'Cargo.toml': '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n', 'src/lib.rs': LIB });
    // CM, POA, DA as the demo has them; DevA's proposal, its fix, the retrospective
    const r = demoReplies(TASK);
    fake.enqueue({ text: r[0] }, { text: r[1] }, { text: r[2] }, { text: PROPOSAL }, { text: FIX }, { text: r[4] });
    const run = await runCli(
      ['start', '--workspace', ws, '--objective', 'Add a checked subtraction', '--task', TASK, '--check', 'auto', '--json'],
      { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'k' },
      280000,
    );
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 6, 'CM, POA, DA, DevA, one fix request, retrospective');
    const fixAsk = JSON.stringify(fake.requests[4].body.messages.at(-1).content);
    assert.match(fixAsk, /\$ cargo clippy --tests/);
    assert.match(fixAsk, /src\/lib\.rs:6/, 'clippy names the line of the comparison');
    assert.match(fixAsk, /fix round 1 of 2/);
    assert.deepStrictEqual(run.json.checks.map((c: { command: string; passed: boolean }) => [c.command, c.passed]), [
      ['cargo clippy --tests', true],
      ['cargo test', true],
    ]);
    assert.match(run.stderr, /✓ every check passes after 1 fix round/);
  });
});
