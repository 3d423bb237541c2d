// The CLI's argument parsing (util.parseArgs underneath) keeps CAPE's messages and rules.
import * as assert from 'assert';
import { PassThrough } from 'stream';
import { FLAGGED_COMMANDS, abortOnStopSignals, knownFlags, parseArgs } from '../../src/cli/flags';
import { main } from '../../src/cli/main';
import { askDorQuestions } from '../../src/cli/session';
import { askInitQuestions } from '../../src/cli/init';
import { INIT_QUESTIONS } from '../../src/core';

describe('cli: parseArgs', () => {
  it('reads the command, --flag value, --flag=value and switches; the last occurrence wins', () => {
    assert.deepStrictEqual(parseArgs(['start', '--workspace', 'w', '--objective=Add x', '--apply', '--json', '--model', 'a', '--model=b']), {
      command: 'start',
      flags: { workspace: 'w', objective: 'Add x', apply: true, json: true, model: 'b' },
    });
    assert.deepStrictEqual(parseArgs([]), { command: 'help', flags: {} });
    assert.deepStrictEqual(parseArgs(['init', '--force=yes', '--cape-folder=c']), { command: 'init', flags: { force: true, 'cape-folder': 'c' } });
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
    usage(['init', '--cape-folder='], /^--cape-folder needs a value, not an empty one\.$/);
    usage(['start', '--model', ' '], /^--model needs a value, not an empty one\.$/);
    // another command's flag names the flag and the command, and the commands that take it
    usage(['repeat', '--check', 'auto'], /^--check is not a flag of `cape repeat` \(only of `cape start` and `cape resume`\); see `cape help`\.$/);
    usage(['repeat', '--fail-first'], /^--fail-first is not a flag of `cape repeat`/);
    usage(['repeat', '--apply'], /^--apply is not a flag of `cape repeat`/);
    usage(['resume', '--task', 'T', '--objective', 'new'], /^--objective is not a flag of `cape resume` \(only of `cape start`\)/);
    usage(['resume', '--lang', 'Japanese'], /^--lang is not a flag of `cape resume` \(only of `cape init` and `cape start`\)/);
    usage(['start', '--from-step', 'poa'], /^--from-step is not a flag of `cape start` \(only of `cape resume`\)/);
    usage(['start', '--times', '2'], /^--times is not a flag of `cape start` \(only of `cape repeat`\)/);
    usage(['init', '--check', 'auto'], /^--check is not a flag of `cape init`/);
    usage(['init', '--times', '5'], /^--times is not a flag of `cape init`/);
    usage(['init', '--model', 'm'], /^--model is not a flag of `cape init` \(only of `cape start`, `cape resume` and `cape repeat`\)/);
    usage(['start', '--quiet'], /^Unknown flag --quiet/);
    assert.deepStrictEqual(parseArgs(['start', '--check', 'auto', '--check-copy-limit', '500']).flags, { check: ['auto'], 'check-copy-limit': '500' });
    // every command takes --workspace and --help; `cape help` and an unknown command are not held to a list
    assert.deepStrictEqual(parseArgs(['repeat', '--workspace', 'w', '--help']).flags, { workspace: 'w', help: true });
    assert.deepStrictEqual(parseArgs(['help', '--check', 'x']).flags, { check: ['x'] });
    // the objective, the answers and the numbers explain an empty value in their own words
    assert.deepStrictEqual(parseArgs(['start', '--objective', '', '--max-cost=']).flags, { objective: '', 'max-cost': '' });
    assert.deepStrictEqual(parseArgs(['resume', '--answer=']).flags, { answer: [''] });
  });
});

describe('cli: cape help', () => {
  it("each command's usage lines name every flag it takes, and no other; every flag is some command's", async () => {
    let help = '';
    const out = new PassThrough().on('data', (d: Buffer) => (help += d.toString('utf8')));
    assert.strictEqual(await main(['help'], {}, out, new PassThrough()), 0);
    const taken = new Set<string>();
    for (const command of FLAGGED_COMMANDS) {
      // its usage line and the flags continued under it
      const lines = help.split('\n');
      const at = lines.findIndex((l) => l.startsWith(`  cape ${command} `));
      assert.ok(at >= 0, command);
      const block = [lines[at], ...lines.slice(at + 1).filter((_, i, rest) => rest.slice(0, i + 1).every((l) => /^ {14}\[/.test(l)))].join(' ');
      for (const flag of knownFlags()) {
        if (flag === 'workspace' || flag === 'help') continue;
        let takes = true;
        try {
          parseArgs([command, `--${flag}=x`]); // a switch given =x is on
        } catch {
          takes = false;
        }
        if (takes) taken.add(flag);
        assert.strictEqual(new RegExp(`--${flag}(?![\\w-])`).test(block), takes, `cape ${command} ${takes ? 'takes' : 'does not take'} --${flag}:\n${block}`);
      }
    }
    assert.deepStrictEqual(knownFlags().filter((f) => f !== 'workspace' && f !== 'help' && !taken.has(f)), [], 'a flag no command takes');
  });
});

describe('cli: the signals that stop a session', () => {
  it('Ctrl-C, a closed terminal (SIGHUP) and kill (SIGTERM) stop it as Stop does; then a signal does what it always does', () => {
    const signals = ['SIGINT', 'SIGHUP', 'SIGTERM'] as const;
    const counts = () => signals.map((s) => process.listenerCount(s));
    const before = counts();
    for (const s of signals) {
      const controller = new AbortController();
      const remove = abortOnStopSignals(controller);
      assert.deepStrictEqual(counts(), before.map((n) => n + 1));
      process.emit(s, s);
      assert.ok(controller.signal.aborted, s);
      assert.deepStrictEqual(counts(), before, `after ${s}, no handler of ours is left: a second signal ends the process`);
      remove();
    }
    const untouched = new AbortController();
    abortOnStopSignals(untouched)();
    assert.deepStrictEqual(counts(), before);
    assert.ok(!untouched.signal.aborted);
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

  it('Ctrl-C at a question (its signal aborted) ends the asking with the answers so far, the prompt line ended', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (d) => (shown += d));
    const controller = new AbortController();
    const asked = askDorQuestions(['A?', 'B?', 'C?'], input, output, controller.signal);
    input.write('first\n');
    // the second question, shown once the first answer is read (or the asking ended without it)
    const second = new Promise<void>((resolve) => {
      const shows = () => /2\. B\?\n> $/.test(shown) && resolve();
      output.on('data', shows);
      shows();
    });
    await Promise.race([second, asked]);
    assert.match(shown, /2\. B\?\n> $/, 'the second question is waiting');
    controller.abort();
    assert.deepStrictEqual(await asked, ['first']);
    assert.match(shown, /2\. B\?\n> \n$/);
    assert.doesNotMatch(shown, /C\?/, 'no question after the Ctrl-C');
  });

  it('init questionnaire: asks every question in order, asks a required one again until answered', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (d) => (shown += d));
    const asked = askInitQuestions(input, output, false);
    const first = INIT_QUESTIONS[0];
    assert.ok(first.required, 'the first question is required');
    // an empty line first: the required question comes back
    input.end(['', ...INIT_QUESTIONS.map((q) => `  answer to ${q.id}  `)].join('\n') + '\n');
    const answers = (await asked) as unknown as Record<string, string>;
    for (const q of INIT_QUESTIONS) assert.strictEqual(answers[q.id], `answer to ${q.id}`);
    assert.strictEqual(shown.split(`${first.prompt}: `).length - 1, 2, 'the required question was asked twice');
  });

  it('init questionnaire: on a workspace with code the features question asks about the next release, otherwise the first version', async () => {
    const shownFor = async (hasCode: boolean) => {
      const input = new PassThrough();
      const output = new PassThrough();
      let shown = '';
      output.on('data', (d) => (shown += d));
      const asked = askInitQuestions(input, output, hasCode);
      input.end(INIT_QUESTIONS.map((q) => `answer to ${q.id}`).join('\n') + '\n');
      const answers = (await asked) as unknown as Record<string, string>;
      assert.strictEqual(answers.features, 'answer to features', 'the same answer id either way');
      return shown;
    };
    const existing = await shownFor(true);
    assert.match(existing, /What should the next release add or change\? \(what is built is read from the code\): /);
    assert.doesNotMatch(existing, /first version/);
    const fresh = await shownFor(false);
    assert.match(fresh, /Which features must the first version have\?: /);
    assert.doesNotMatch(fresh, /next release/);
  });

  it('init questionnaire: the end of the input stops with a usage error instead of waiting forever', async () => {
    const input = new PassThrough();
    const asked = askInitQuestions(input, new PassThrough(), false);
    input.end('only the first answer\n');
    await assert.rejects(asked, (e: Error) => e.name === 'UsageError' || /ended before/.test(e.message));
    await assert.rejects(askInitQuestions(new PassThrough().end() as PassThrough, new PassThrough(), false), /ended before .* nothing was written/);
  });
});
