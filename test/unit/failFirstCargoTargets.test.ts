// Fail-first runs a `cargo test` once per integration-test target of DevA's (checks/cargoTargets.ts): `cargo test`
// builds every test target before it runs any, so a test file using the new API (it cannot compile without the
// change) stopped the regression guard beside it from running, and every criterion read "did not build" (a Rust
// trial). Which commands split and how (perTargetPlan), the runs read as one (run.ts steps: outputs joined, the first
// non-zero exit code, Stop), the guard's tests read as passed and the new-API file's as unbuilt, with the real cargo too
// (the headline counting the targets), and DevA told up front that the observation is per target.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { onPath, perTargetPlan, runCheck, runFailFirst, type CheckEvent } from '../../src/core';
import { failFirstOf, testStatus, type NamedTest } from '../../src/core/metrics/tsr';
import { printer } from '../../src/cli/printer';
import { cargoCrate, proposedFile } from '../helpers/cargoCrate';
import { contextInputs } from '../helpers/contextInputs';
import { renderSources } from '../../src/core/session/context';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'cape-unit-cargo-targets-'));

/** `cargo test --offline --test test_bump` on the unchanged code: the file calls a method the change adds (cargo 1.95), the crate in CRATE. */
const CRATE = '/tmp/x';
const BUMP = [
  `   Compiling semver v1.0.27 (${CRATE})`,
  'error[E0599]: no method named `bump_patch` found for struct `Version` in the current scope',
  '  --> tests/test_bump.rs:12:24',
  '   |',
  '12 |     let v = version.bump_patch();',
  '   |                     ^^^^^^^^^^ method not found in `Version`',
  '',
  'error: could not compile `semver` (test "test_bump") due to 1 previous error',
  '',
].join('\n');
/** `cargo test --offline --test test_guard`: the guard uses the existing API only, and passes. */
const GUARD = [
  '    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.65s',
  '     Running tests/test_guard.rs (target/debug/deps/test_guard-ef90c5ff6d872795)',
  '',
  'running 2 tests',
  'test test_parse ... ok',
  'test test_display_round_trip ... ok',
  '',
  'test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s',
  '',
].join('\n');

/** A step that prints a file of `dir` and exits with `code`. */
const printing = (dir: string, name: string, text: string, code = 0) => {
  fs.writeFileSync(path.join(dir, name), text);
  return `node -e "process.stdout.write(require('fs').readFileSync('${name}', 'utf8')); process.exit(${code})"`;
};

describe('fail-first: a cargo test run once per test target', () => {
  it('splits a plain cargo test when every one of two or more test files is a test target of its crate', () => {
    const files = ['tests/test_bump.rs', 'tests/test_guard/main.rs'];
    assert.deepStrictEqual(perTargetPlan('cargo test --offline', files), {
      crate: '',
      targets: ['test_bump', 'test_guard'],
      steps: ['cargo test --offline --test test_bump', 'cargo test --offline --test test_guard'],
    });
    assert.deepStrictEqual(perTargetPlan('cargo test -- --nocapture', files)?.steps, ['cargo test --test test_bump -- --nocapture', 'cargo test --test test_guard -- --nocapture']);
    const sub = ['core/tests/a.rs', 'core/tests/b.rs'];
    assert.deepStrictEqual(perTargetPlan('cd core && cargo test', sub)?.steps, ['cd core && cargo test --test a', 'cd core && cargo test --test b']);
    assert.deepStrictEqual(perTargetPlan('cargo +stable test --manifest-path core/Cargo.toml', sub)?.crate, 'core');
    assert.deepStrictEqual(perTargetPlan('RUST_BACKTRACE=1 cargo test --manifest-path=core/Cargo.toml', sub)?.targets, ['a', 'b']);
    // today's single run: one target, a file elsewhere (a unit test module, another crate's), a choice of its own, another command
    for (const [command, tests] of [
      ['cargo test', ['tests/a.rs']],
      ['cargo test', ['tests/a.rs', 'src/lib_tests.rs']],
      ['cargo test', ['tests/a.rs', 'tests/util/mod.rs']],
      ['cd core && cargo test', ['core/tests/a.rs', 'tests/b.rs']],
      ['cargo test --test a', ['tests/a.rs', 'tests/b.rs']],
      ['cargo test --workspace', ['tests/a.rs', 'tests/b.rs']],
      ['cargo test -p calc', ['tests/a.rs', 'tests/b.rs']],
      ['cargo test && cargo doc', ['tests/a.rs', 'tests/b.rs']],
      ['cargo test --manifest-path ../x/Cargo.toml', ['tests/a.rs', 'tests/b.rs']],
      ['cargo clippy --tests', ['tests/a.rs', 'tests/b.rs']],
      ['go test ./...', ['tests/a.rs', 'tests/b.rs']],
    ] as const) {
      assert.strictEqual(perTargetPlan(command, tests), null, command);
    }
  });

  it("reads the runs as one: outputs in order, the first non-zero exit code; the guard's tests passed, the new-API file's unbuilt", async () => {
    const dir = tmp();
    // cargo names the crate's folder, here the folder the run is in (cleaned to `.`: the workspace's own crate)
    const steps = [printing(dir, 'bump.txt', BUMP.replace(CRATE, dir), 101), printing(dir, 'guard.txt', GUARD)];
    const run = await runCheck({ command: 'cargo test --offline', steps, cwd: dir, round: 0 });
    assert.strictEqual(run.command, 'cargo test --offline');
    assert.deepStrictEqual([run.status, run.exitCode], ['failed', 101]);
    assert.ok(run.output.indexOf('could not compile') < run.output.indexOf('test result: ok'), run.output);
    assert.strictEqual(run.unbuilt, true);
    assert.deepStrictEqual(run.unbuiltCargoTests, [{ crate: '', name: 'test_bump' }]);
    const bump: NamedTest = { file: 'tests/test_bump.rs', name: 'test_ac1_bump_patch', expect: 'fail' };
    const guard: NamedTest = { file: 'tests/test_guard.rs', name: 'test_parse', expect: 'pass' };
    const yes = () => true;
    assert.strictEqual(testStatus(guard, true, [run], 'no_test', 'no_test'), 'pass');
    assert.strictEqual(testStatus(bump, true, [run], 'no_test', 'unbuilt'), 'unbuilt');
    assert.deepStrictEqual(failFirstOf([bump, guard], yes, [run]), { before: 'unbuilt', guardsRan: 'pass' }, 'the guard ran beside the file that did not build');
    assert.deepStrictEqual(failFirstOf([guard], yes, [run]), { before: 'pass', guard: true });
    // the other way round: the exit code is still the failing step's; every step passing passes with 0
    const swapped = await runCheck({ command: 'cargo test', steps: [...steps].reverse(), cwd: dir, round: 0 });
    assert.deepStrictEqual([swapped.status, swapped.exitCode], ['failed', 101]);
    const both = await runCheck({ command: 'cargo test', steps: [steps[1], steps[1]], cwd: dir, round: 0 });
    assert.deepStrictEqual([both.status, both.exitCode, both.output.split('test result: ok').length], ['passed', 0, 3]);
  });

  it('DevA is told, where its checks are announced, that fail-first runs a cargo test once per test target', () => {
    const planned = (plannedChecks: string[], plannedFailFirst = true) => renderSources('deva', ['checks:planned'], { ...contextInputs('deva', {}), plannedChecks, plannedFailFirst });
    const PER_TARGET = /fail-first\).* A `cargo test` can run there once per test target \(`tests\/<name>\.rs`\), so a guard in a file of its own runs even where a file using the new API does not build\.$/;
    assert.match(planned(['cargo clippy --tests', 'cargo test --offline']), PER_TARGET);
    assert.match(planned(['cd core && cargo test']), PER_TARGET);
    // no cargo test it could split (one choosing its targets, another runner), or no fail-first: not said
    for (const [checks, failFirst] of [[['cargo test --workspace'], true], [['npm test'], true], [['cargo test'], false]] as const) {
      assert.doesNotMatch(planned([...checks], failFirst), /once per test target/, checks.join());
    }
  });

  it('Stop ends the step running, and the next never starts', async () => {
    const dir = tmp();
    const stop = new AbortController();
    const steps = ['node -e "console.log(\'first\'); setInterval(() => {}, 1000)"', 'node -e "console.log(\'second\')"'];
    const running = runCheck({ command: 'cargo test', steps, cwd: dir, round: 0, signal: stop.signal });
    setTimeout(() => stop.abort(), 500);
    const run = await running;
    assert.strictEqual(run.status, 'cancelled');
    assert.doesNotMatch(run.output, /second/);
  });

  it('with the real cargo: the guard runs and passes beside a file that needs the change, and the CLI says it ran per target', async function () {
    if (!(await onPath(['cargo']))) this.skip();
    const ws = tmp();
    cargoCrate(ws, '', 'calc', 'pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n');
    const file = proposedFile;
    const files = [file('tests/test_mul.rs', '#[test]\nfn muls() {\n    assert_eq!(calc::mul(2, 3), 6);\n}\n'), file('tests/test_guard.rs', '#[test]\nfn adds() {\n    assert_eq!(calc::add(1, 2), 3);\n}\n')];
    const events: CheckEvent[] = [];
    const result = await runFailFirst({ commands: ['cargo test --offline'], workspace: ws, capeFolder: 'cape', files, emit: (e) => events.push(e) });
    const run = result.runs[0];
    assert.deepStrictEqual([result.runs.length, run.command, run.exitCode, run.unbuilt], [1, 'cargo test --offline', 101, true], run.output);
    assert.deepStrictEqual(run.tests, [{ name: 'adds', passed: true }], run.output);
    assert.strictEqual(testStatus({ file: 'tests/test_guard.rs', name: 'adds' }, true, [run], 'no_test', 'no_test'), 'pass');
    assert.strictEqual(testStatus({ file: 'tests/test_mul.rs', name: 'muls' }, true, [run], 'no_test', 'unbuilt'), 'unbuilt');
    let said = '';
    const print = printer({ write: (t: string) => ((said += t), true) } as unknown as NodeJS.WritableStream);
    for (const e of events) print({ type: 'check', step: 'deva', event: e });
    assert.match(said, /fail-first\): cargo test --offline \(per test target: test_mul, test_guard\)\n/);
    // counted per target: the guard's target built and ran, not "DevA's tests did not build" of the whole run
    assert.deepStrictEqual(run.byTarget, { crate: '', targets: ['test_mul', 'test_guard'], unbuilt: ['test_mul'], passed: 1, failed: 0 });
    assert.match(said, /before the change, cargo test --offline failed: 1 of 2 test targets did not build without the change \(test_mul\); the other ran: 1 passed, 0 failed · /);
    // a test file the copy could not hold (a file where its folder should be) names no target: cargo would not find it
    fs.mkdirSync(path.join(ws, 'tests'));
    fs.writeFileSync(path.join(ws, 'tests', 'test_io'), 'a file, not a folder\n');
    const more: CheckEvent[] = [];
    const blocked = await runFailFirst({ commands: ['cargo test --offline'], workspace: ws, capeFolder: 'cape', files: [...files, file('tests/test_io/main.rs', '#[test]\nfn io() {}\n')], emit: (e) => more.push(e) });
    assert.deepStrictEqual(blocked.notWritten.map((l) => l.split(':')[0]), ['tests/test_io/main.rs']);
    const started = more.find((e) => e.type === 'check-started');
    assert.deepStrictEqual(started && started.type === 'check-started' ? started.targets : null, ['test_mul', 'test_guard']);
  });
});
