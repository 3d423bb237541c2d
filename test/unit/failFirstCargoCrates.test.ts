// A cargo test target is known by its crate and its name (checks/cargoTargets.ts CargoTarget): in a cargo workspace
// whose members each have a `tests/api.rs`, the one that did not compile is one member's, read from cargo's
// `Compiling` line for its package (buildFailures.ts); a run once per target ran its own crate's targets alone, so
// another member's `tests/api.rs`, or a module under src/ named like a target, is none of its (metrics/testStatus.ts).
// With the real cargo, offline.
import * as assert from 'assert';
import { onPath, runCheck, runFailFirst, type CheckRun } from '../../src/core';
import { cargoTargetOf, sameCargoTarget } from '../../src/core/checks/cargoTargetMatch';
import { runUnbuiltCargoTests } from '../../src/core/checks/buildFailures';
import { failFirstStatus, testStatus } from '../../src/core/metrics/tsr';
import { cargoCrate, cargoTmp, cargoWorkspace, proposedFile } from '../helpers/cargoCrate';

const LIB = 'pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n';
/** A test file of crate `pkg` that calls `mul`, which the change adds: it does not compile without it. */
const NEW_API = (pkg: string) => `#[test]\nfn api_${pkg}() {\n    assert_eq!(${pkg}::mul(2, 3), 6);\n}\n`;
/** A test file of crate `pkg` that uses what it has, and passes. */
const USES_ADD = (pkg: string, test: string) => `#[test]\nfn ${test}() {\n    assert_eq!(${pkg}::add(2, 3), 5);\n}\n`;

/** A virtual workspace: members `a` (package pka) and `b` (package pkb), each with its own tests/api.rs; a's needs the change. */
function twoMembers(): string {
  const ws = cargoTmp();
  cargoWorkspace(ws, ['a', 'b']);
  cargoCrate(ws, 'a', 'pka', LIB, { 'tests/api.rs': NEW_API('pka') });
  cargoCrate(ws, 'b', 'pkb', LIB, { 'tests/api.rs': USES_ADD('pkb', 'api_b') });
  return ws;
}

describe("fail-first: a cargo test target is its crate's, not every target of its name", () => {
  it('a file is the target of the crate its tests/ folder is in; a target cargo named without a crate matches by name', () => {
    assert.deepStrictEqual(cargoTargetOf('a/tests/api.rs'), { crate: 'a', name: 'api' });
    assert.deepStrictEqual(cargoTargetOf('./tests/api/main.rs'), { crate: '', name: 'api' });
    assert.deepStrictEqual(cargoTargetOf('src/tests/api.rs'), { crate: 'src', name: 'api' }, 'a module under src/: no target of the root crate');
    for (const none of ['tests/api/util.rs', 'src/api.rs', 'a/xtests/api.rs', 'tests/api.py']) assert.strictEqual(cargoTargetOf(none), null, none);
    const api = cargoTargetOf('b/tests/api.rs')!;
    assert.strictEqual(sameCargoTarget({ crate: 'a', name: 'api' }, api), false);
    assert.strictEqual(sameCargoTarget({ crate: 'b', name: 'api' }, api), true);
    assert.strictEqual(sameCargoTarget({ name: 'api' }, api), true, '`cargo test -q` writes no Compiling line: by name');
    assert.strictEqual(sameCargoTarget({ crate: '', name: 'api' }, cargoTargetOf('src/tests/api.rs')!), false);
    // a run saved before targets had crates kept bare names: each still reads as the target of that name
    const saved = { output: '', unbuiltCargoTests: ['api'] as unknown as CheckRun['unbuiltCargoTests'] };
    assert.deepStrictEqual(runUnbuiltCargoTests(saved), [{ name: 'api' }]);
    assert.ok(runUnbuiltCargoTests(saved).some((u) => sameCargoTarget(u, api)));
  });

  it("with the real cargo: the target that did not compile is one member's, wherever the command runs", async function () {
    if (!(await onPath(['cargo']))) this.skip();
    const ws = twoMembers();
    const at = (command: string) => runCheck({ command, cwd: ws, round: 0 });
    for (const command of ['cargo test --offline', 'cd a && cargo test --offline', 'cargo test --offline --manifest-path a/Cargo.toml']) {
      const run = await at(command);
      assert.deepStrictEqual([run.unbuilt, run.unbuiltCargoTests], [true, [{ crate: 'a', name: 'api' }]], `${command}\n${run.output}`);
    }
    const quiet = await at('cargo test --offline -q');
    assert.deepStrictEqual(quiet.unbuiltCargoTests, [{ name: 'api' }], quiet.output);
    // read again from the kept output (a run recorded before it was read whole): the same
    const recorded: CheckRun = { ...(await at('cargo test --offline')) };
    delete recorded.unbuiltCargoTests;
    assert.strictEqual(testStatus({ file: 'a/tests/api.rs', name: 'api_pka' }, true, [recorded], 'no_test', 'unbuilt'), 'unbuilt');
  });

  it("with the real cargo: a run per target of one member tells nothing of the other's tests/api.rs, nor of a src module named api", async function () {
    if (!(await onPath(['cargo']))) this.skip();
    const ws = twoMembers();
    // the member a of DevA's change: its tests/api.rs needs the change, its guard does not; a module src/tests/api.rs of its own
    cargoCrate(ws, 'a', 'pka', `${LIB}\n#[cfg(test)]\nmod tests {\n    mod api;\n}\n`, { 'src/tests/api.rs': USES_ADD('crate', 'api_module') });
    const files = [proposedFile('a/tests/api.rs', NEW_API('pka')), proposedFile('a/tests/guard.rs', USES_ADD('pka', 'guard_a'))];
    const result = await runFailFirst({ commands: ['cargo test --offline --manifest-path a/Cargo.toml'], workspace: ws, capeFolder: 'cape', files, emit: () => undefined });
    const run = result.runs[0];
    assert.deepStrictEqual(run.byTarget, { crate: 'a', targets: ['api', 'guard'], unbuilt: ['api'], passed: 1, failed: 0 }, run.output);
    const status = (file: string, name: string) => failFirstStatus([{ file, name }], () => true, [run]);
    assert.strictEqual(status('a/tests/api.rs', 'api_pka'), 'unbuilt');
    assert.strictEqual(status('a/tests/guard.rs', 'guard_a'), 'pass');
    // not run here: not told (they read "did not build without the change" when any target named api did not)
    assert.strictEqual(status('b/tests/api.rs', 'api_b'), 'no_test');
    assert.strictEqual(status('a/src/tests/api.rs', 'api_module'), 'no_test');
  });
});
