// TSR through the CLI and the fake server (issue 10 §4): DevA names a test per criterion, the Cape Master judges each
// criterion; with no checks run, `metrics.tsr` is null and `metrics.tsrJudged` is CM's rate, both in the
// retrospective file; CM's request carries the criteria with DevA's tests.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { startFakeAnthropic, type FakeAnthropic } from '../fake-anthropic/server';
import { runCli, workspaceWithOriginalCape } from '../helpers/cli';
import { demoDir, demoReplies } from '../helpers/demo';

const CRITERIA_TESTS =
  '"criteria_tests": [{ "criterion": "AC-1", "file": "test/theme.test.js", "test": "follows the OS theme" }, { "criterion": "AC-2", "file": "test/theme.test.js", "test": "toggles" }], "test_strategy":';

describe('CLI: TSR', function () {
  this.timeout(90000);
  let fake: FakeAnthropic;
  before(async () => {
    fake = await startFakeAnthropic({ chunkSize: 256 });
  });
  after(async () => fake?.close());

  it('reports the judged TSR (and no computed one without checks) in --json and the retrospective', async () => {
    const ws = workspaceWithOriginalCape('cape-tsr-', path.join(demoDir(), 'workspace'));
    const [open, poa, da, deva, retro] = demoReplies('task-tsr');
    const devaWithTests = deva.replace('"test_strategy":', CRITERIA_TESTS);
    const retroJudged = retro.replace(
      '"metrics": {}',
      '"criteria": [{ "id": "AC-1", "status": "met", "reason": "theme.js reads prefers-color-scheme" }, { "id": "AC-2", "status": "met", "reason": "the toggle is wired" }, { "id": "AC-3", "status": "unknown", "reason": "the first-paint script cannot be told from the file list" }], "metrics": {}',
    );
    assert.notStrictEqual(devaWithTests, deva);
    assert.notStrictEqual(retroJudged, retro);
    fake.enqueue({ text: open }, { text: poa }, { text: da }, { text: devaWithTests }, { text: retroJudged });
    const run = await runCli(['start', '--workspace', ws, '--objective', 'Add a dark mode', '--task', 'task-tsr', '--json'], { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'k' });
    assert.strictEqual(run.code, 0, run.stderr);
    const m = run.json.metrics;
    assert.strictEqual(m.tsr, null, 'no check ran');
    assert.strictEqual(m.tsrJudged, 2 / 3);
    assert.deepStrictEqual(
      m.criteria.map((c: any) => [c.id, c.tests[0]?.file ?? null, c.judged]),
      [
        ['AC-1', 'test/theme.test.js', 'met'],
        ['AC-2', 'test/theme.test.js', 'met'],
        ['AC-3', null, 'unknown'],
      ],
    );

    // The retrospective's request lists the criteria with DevA's named tests.
    const retroUser = JSON.stringify(fake.requests[4].body.messages);
    assert.match(retroUser, /POA's acceptance criteria, with the tests DevA named for each/);
    assert.match(retroUser, /AC-1: Given the OS prefers a dark colour scheme[^"]*DevA's test: test\/theme\.test\.js › follows the OS theme/);
    assert.match(retroUser, /AC-3: [^"]*DevA's test: \(none named\)/);
    assert.doesNotMatch(retroUser, /criteria_tests/, 'the map is sent once, in its own section, not again in DevA\'s outline');

    const md = fs.readFileSync(run.json.retrospectivePath, 'utf8');
    assert.match(md, /\| TSR \| — \|/);
    assert.match(md, /\| TSR \(judged\) \| 67% \(2 of 3\) \|/);
    assert.match(md, /\| AC-3 .* \| — \| — \| unknown \| the first-paint script cannot be told from the file list \|/);
    assert.match(run.stderr, /TSR — \(judged 67%\) of 3 criteria/);
  });

  it('a criterion named for review: the retrospective request shows the lines DevA adds to that file, it is left to review', async () => {
    fake.reset();
    const ws = workspaceWithOriginalCape('cape-tsr-', path.join(demoDir(), 'workspace'));
    const [open, poa, da, deva, retro] = demoReplies('task-tsr-review');
    const devaWithReview = deva.replace(
      '"test_strategy":',
      '"criteria_tests": [{ "criterion": "AC-1", "file": "test/theme.test.js", "test": "follows the OS theme" }, { "criterion": "AC-3", "review": "index.html" }], "test_strategy":',
    );
    assert.notStrictEqual(devaWithReview, deva);
    fake.enqueue({ text: open }, { text: poa }, { text: da }, { text: devaWithReview }, { text: retro });
    // a check that passes: AC-1's test file is not proposed (no test), AC-2 names none, AC-3 is left to review
    const run = await runCli(['start', '--workspace', ws, '--objective', 'Add a dark mode', '--task', 'task-tsr-review', '--check', 'node -e 0', '--json'], { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'k' });
    assert.strictEqual(run.code, 0, run.stderr);
    const retroUser = (fake.requests[4].body.messages as { content: unknown }[]).map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
    assert.match(retroUser, /- AC-3: [^\n]*DevA's test: index\.html \(for review\)/);
    assert.match(retroUser, /### The files DevA names for review, as its proposal changes them\nindex\.html \(for AC-3\), where DevA changes it and the lines it adds:\n```diff\n@@ line 7\n\+  <script src="src\/theme\.js"><\/script>\n@@ line 9, 1 line\(s\) removed\n\+  <header>\n/);
    assert.doesNotMatch(retroUser, /<header><h1>Pocket Notes<\/h1><\/header>/, 'the current file\'s lines are not sent');
    const ac3 = run.json.metrics.criteria.find((c: { id: string }) => c.id === 'AC-3');
    assert.deepStrictEqual(ac3.tests, [{ review: 'index.html' }], 'the path alone, no empty file or name');
    assert.deepStrictEqual(run.json.metrics.criteria.map((c: { computed: string }) => c.computed), ['no_test', 'no_test', 'review']);
    assert.strictEqual(run.json.metrics.tsr, 0, 'of the 2 criteria a test can prove');
    assert.strictEqual(run.json.metrics.tsrReview, 1);
    assert.match(retroUser, /- AC-3: [^\n]*DevA's test: index\.html \(for review\) — no test proves it: to review\n/);
    const md = fs.readFileSync(run.json.retrospectivePath, 'utf8');
    assert.match(md, /\| AC-3 [^\n]*\| index\.html \(for review\) \| to review \|/);
    // the two counted had no test: said so, not "2 tested"
    assert.match(md, /\| TSR \| 0% \(0 of 2 counted, 2 with no test, 1 to review\) \|/);
    assert.match(run.stderr, / · TSR 0% of 2 counted criteria \(2 with no test\), 1 to review \(judged —\)\n/);
  });

  it('computes TSR from the check run: the named tests the checks ran and passed, a criterion without a test not fulfilled', async () => {
    fake.reset();
    const ws = workspaceWithOriginalCape('cape-tsr-', path.join(demoDir(), 'workspace'));
    const [open, poa, da, deva, retro] = demoReplies('task-tsr2');
    // DevA proposes the test file; a test reporter's lines: AC-1's test passes, AC-2's test fails.
    const testFile =
      '<file path="test/theme.test.js">\n' +
      "console.log('  ✔ follows the OS theme');\n" +
      "console.log('  1) toggles');\n" +
      "console.log('  1 passing');\n" +
      "console.log('  1 failing');\n" +
      'process.exit(1);\n' +
      '</file>\n\n<summary>';
    // AC-3 is proven by the check as a whole: named by its command
    const withCheck = CRITERIA_TESTS.replace('], "test_strategy":', ', { "criterion": "AC-3", "check": "node test/theme.test.js" }], "test_strategy":');
    const devaWithTests = deva.replace('"test_strategy":', withCheck).replace('<summary>', testFile);
    assert.ok(devaWithTests.includes('test/theme.test.js">') && devaWithTests.includes('"check": "node test/theme.test.js"'));
    // The check fails, DevA's fix round changes nothing (the same envelope), the check fails again.
    fake.enqueue({ text: open }, { text: poa }, { text: da }, { text: devaWithTests }, { text: devaWithTests }, { text: retro });
    const run = await runCli(
      ['start', '--workspace', ws, '--objective', 'Add a dark mode', '--task', 'task-tsr2', '--check', 'node test/theme.test.js', '--fix-rounds', '1', '--json'],
      { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'k' },
    );
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(run.json.checks[0].passed, false);
    const m = run.json.metrics;
    assert.deepStrictEqual(
      m.criteria.map((c: any) => [c.id, c.computed]),
      [
        ['AC-1', 'pass'],
        ['AC-2', 'fail'],
        ['AC-3', 'fail'],
      ],
    );
    assert.strictEqual(m.tsr, 1 / 3);
    assert.strictEqual(m.tsrJudged, null, 'the demo retrospective judges no criterion');
    // the fix request told DevA which test failed, and how the tests it named fared
    const fixAsk = JSON.stringify(fake.requests[4].body.messages.at(-1));
    assert.match(fixAsk, /Test cases the runner reported: 1 passed, 1 failed:\\n- toggles\\n/);
    assert.match(fixAsk, /Of the 2 test\(s\) you named in criteria_tests: 1 passed, 1 failed\./);
    // the retrospective hears each criterion's verdict from the checks
    const retroAsk = JSON.stringify(fake.requests[5].body.messages);
    assert.match(retroAsk, /- AC-1: [^\\]* — in the checks' last run: passed\\n- AC-2: [^\\]* — in the checks' last run: failed\\n- AC-3: [^\\]* — in the checks' last run: failed/);
    const md = fs.readFileSync(run.json.retrospectivePath, 'utf8');
    assert.match(md, /\| TSR \| 33% \(1 of 3\) \|/);
    assert.match(md, /\| TSR \(judged\) \| — \|/);
    assert.match(md, /\| AC-3 .* \| node test\/theme\.test\.js \(the whole check\) \| failed \|/);
    assert.doesNotMatch(md, /Before the change/, 'no fail-first column when it did not run');
    assert.doesNotMatch(JSON.stringify(fake.requests[3].body.messages), /fail-first/, 'DevA hears of fail-first only when it runs');
  });

  it('--fail-first: DevA\'s test file alone on the unchanged workspace; each criterion says whether its tests failed there', async () => {
    fake.reset();
    const ws = workspaceWithOriginalCape('cape-tsr-', path.join(demoDir(), 'workspace'));
    const [open, poa, da, deva, retro] = demoReplies('task-tsr3');
    // AC-1's test needs DevA's src/theme.js (absent before the change); AC-2's passes either way; AC-3 is the check
    const testFile =
      '<file path="test/theme.test.js">\n' +
      "const fs = require('fs');\n" +
      "const path = require('path');\n" +
      "const made = fs.existsSync(path.join(__dirname, '..', 'src', 'theme.js'));\n" +
      "console.log(made ? '  ✔ follows the OS theme' : '  1) follows the OS theme');\n" +
      "console.log('  ✔ toggles');\n" +
      'process.exit(made ? 0 : 1);\n' +
      '</file>\n\n<summary>';
    // DevA expects both to fail on the unchanged code: AC-2's test (it passes there) is flagged
    const withCheck = CRITERIA_TESTS.replace(/"test": "([^"]+)" \}/g, '"test": "$1", "expect": "fail" }').replace('], "test_strategy":', ', { "criterion": "AC-3", "check": "node test/theme.test.js" }], "test_strategy":');
    assert.match(withCheck, /"toggles", "expect": "fail" \}/);
    const devaWithTests = deva.replace('"test_strategy":', withCheck).replace('<summary>', testFile);
    fake.enqueue({ text: open }, { text: poa }, { text: da }, { text: devaWithTests }, { text: retro });
    const before = fs.readdirSync(ws).sort();
    const run = await runCli(
      ['start', '--workspace', ws, '--objective', 'Add a dark mode', '--task', 'task-tsr3', '--check', 'node test/theme.test.js', '--fail-first', '--json'],
      { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'k' },
    );
    assert.strictEqual(run.code, 0, run.stderr);
    assert.strictEqual(fake.requests.length, 5, 'the check passed at once: no fix round; fail-first asks the model nothing');
    assert.deepStrictEqual(run.json.checks, [{ command: 'node test/theme.test.js', status: 'passed', passed: true, exitCode: 0, rounds: 1 }], 'fail-first runs are not rounds');
    assert.deepStrictEqual(run.json.failFirst, { testFiles: ['test/theme.test.js'], checks: [{ command: 'node test/theme.test.js', passed: false, exitCode: 1, status: 'failed' }] });
    const m = run.json.metrics;
    assert.deepStrictEqual(
      m.criteria.map((c: any) => [c.id, c.computed, c.before ?? null]),
      [
        ['AC-1', 'pass', 'fail'],
        ['AC-2', 'pass', 'pass'],
        ['AC-3', 'pass', null],
      ],
    );
    assert.strictEqual(m.tsr, 1, 'fail-first is no part of TSR');
    // DevA and the opening are told up front that its tests will also run alone on the unchanged code
    assert.match(JSON.stringify(fake.requests[3].body.messages), /Then your test files alone run on the unchanged workspace \(fail-first\): a test of the change should fail there, a regression guard pass/);
    assert.match(JSON.stringify(fake.requests[0].body.messages), /Then DevA's test files alone run on the unchanged code, so fail-first is observed/);
    assert.match(run.stderr, /▷ check on the unchanged workspace with only DevA's test files \(fail-first\): node test\/theme\.test\.js/);
    assert.match(run.stderr, /· before the change, node test\/theme\.test\.js failed \(1 test case failing\), as a test of the change should/);
    // the retrospective hears, per criterion, how its tests fared on the unchanged code, and the run in one line
    const retroAsk = JSON.stringify(fake.requests[4].body.messages);
    assert.match(retroAsk, /- AC-1: [^\\]* — in the checks' last run: passed; with only DevA's tests on the unchanged code: failed \(fail-first observed\)\\n/);
    assert.match(retroAsk, /- AC-1: [^\\]*DevA's test: test\/theme\.test\.js › follows the OS theme \(fail-first\) — /);
    assert.match(
      retroAsk,
      /- AC-2: [^\\]* — in the checks' last run: passed; with only DevA's tests on the unchanged code: passed too \(it does not show the change\) — DevA meant it to fail there: it may not test the change\\n/,
    );
    assert.match(retroAsk, /- AC-3: [^\\]* — in the checks' last run: passed(\\n|")/, 'a whole-check criterion has no fail-first verdict');
    assert.match(retroAsk, /- Fail-first, DevA's test files alone \(test\/theme\.test\.js\) on the unchanged code: `node test\/theme\.test\.js` failed \(failing: \\"follows the OS theme\\"\)\./);
    const md = fs.readFileSync(run.json.retrospectivePath, 'utf8');
    assert.match(md, /\| Criterion \| Test \| Checks \| Before the change \| Judged \| Reason \|/);
    assert.match(md, /\| AC-1 .* \| passed \| failed \(fail-first observed\) \| — \|/);
    assert.match(md, /\| AC-2 .* \| passed \| passed too \(it does not show the change\) — DevA meant it to fail there: it may not test the change \| — \|/);
    assert.strictEqual(m.criteria[1].surprise, 'DevA meant it to fail there: it may not test the change');
    assert.match(md, /\| AC-3 .* \| passed \| — \| — \|/);
    assert.deepStrictEqual(fs.readdirSync(ws).filter((f) => f !== '.gitattributes').sort(), before.filter((f) => f !== '.gitattributes'), 'nothing written to the workspace without --apply');
  });

  it('--fail-first without --check is a usage error', async () => {
    const ws = workspaceWithOriginalCape('cape-tsr-', path.join(demoDir(), 'workspace'));
    const run = await runCli(['start', '--workspace', ws, '--objective', 'Add a dark mode', '--fail-first'], { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'k' });
    assert.strictEqual(run.code, 2, run.stderr);
    assert.match(run.stderr, /--fail-first and --no-format go with --check CMD/);
  });
});
