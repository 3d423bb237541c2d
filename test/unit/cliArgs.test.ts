// The CLI's argument parsing (util.parseArgs underneath) keeps CAPE's messages and rules.
import * as assert from 'assert';
import { PassThrough } from 'stream';
import { parseArgs } from '../../src/cli/flags';
import { askDorQuestions } from '../../src/cli/session';

describe('cli: parseArgs', () => {
  it('reads the command, --flag value, --flag=value and switches; the last occurrence wins', () => {
    assert.deepStrictEqual(parseArgs(['start', '--workspace', 'w', '--objective=Add x', '--apply', '--json', '--model', 'a', '--model=b']), {
      command: 'start',
      flags: { workspace: 'w', objective: 'Add x', apply: true, json: true, model: 'b' },
    });
    assert.deepStrictEqual(parseArgs([]), { command: 'help', flags: {} });
    assert.deepStrictEqual(parseArgs(['init', '--force=yes', '--cape-folder=']), { command: 'init', flags: { force: true, 'cape-folder': '' } });
  });

  it('takes the next argument as the value even when it starts with a dash', () => {
    assert.deepStrictEqual(parseArgs(['start', '--objective', '--fix the bug']).flags, { objective: '--fix the bug' });
  });

  it('refuses positionals, short options, unknown flags and missing values with actionable messages', () => {
    const usage = (argv: string[], re: RegExp) => assert.throws(() => parseArgs(argv), (e: Error) => re.test(e.message));
    usage(['start', 'oops'], /^Unexpected argument "oops"\. Flags start with --; see `cape help`\.$/);
    usage(['start', '-w', 'x'], /^Unexpected argument "-w"/);
    usage(['start', '--', 'x'], /^Unexpected argument "--"/);
    usage(['start', '--nope'], /^Unknown flag --nope; see `cape help`\.$/);
    usage(['start', '--toString'], /^Unknown flag --toString/);
    usage(['start', '--workspace'], /^--workspace needs a value\.$/);
  });
});

describe('cli: the Cape Master\'s questions in a terminal', () => {
  it('--answer is repeatable and keeps the order; --skip-questions is a switch', () => {
    assert.deepStrictEqual(parseArgs(['resume', '--task', 't', '--answer', 'one', '--answer=two', '--skip-questions']).flags, {
      task: 't',
      answer: ['one', 'two'],
      'skip-questions': true,
    });
  });

  it('asks each question in turn and returns the typed lines (an empty one is kept empty)', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (d) => (shown += d));
    const asked = askDorQuestions(['Toggle or OS only?', 'Which screens?'], input, output);
    input.write('A toggle.\n\n');
    input.end();
    assert.deepStrictEqual(await asked, ['A toggle.', '']);
    assert.match(shown, /1\. Toggle or OS only\?\n> [\s\S]*2\. Which screens\?\n> /);
  });

  it('stops at the end of the input', async () => {
    const input = new PassThrough();
    const asked = askDorQuestions(['A?', 'B?'], input, new PassThrough());
    input.end('only one\n');
    assert.deepStrictEqual(await asked, ['only one']);
  });
});
