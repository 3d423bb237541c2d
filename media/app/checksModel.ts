// DevA's checks in the panel's view model: one check event (a run started or finished, proposed files the copy could
// not take, a fix round asked or applied, the checks' outcome) folded into DevA's step, coerced like every host value (hostValues.ts).
import { isPlainObject as isObj } from '../../src/core/model/types';
import { num, str, strList } from './hostValues';
import type { CheckItemView, StepView } from './viewState';
import { notWrittenLine } from '../../src/core/checks/verdict';
import type { ByTarget } from '../../src/core/checks/cargoTargetMatch';
import type { CTestPrograms } from '../../src/core/checks/ctestPrograms';

const RUN_STATUSES = ['passed', 'failed', 'timeout', 'cancelled', 'error'] as const;

/** Where a check ran, from its event: on the unchanged workspace with DevA's tests only (before), or with nothing (baseline). */
function where(ev: Record<string, unknown>): { before?: true; baseline?: true } {
  return ev.before === true ? { before: true } : ev.baseline === true ? { baseline: true } : {};
}

/** A run's targets once each (checks/types.ts CheckRun.byTarget), coerced; nothing for a value that is not one. */
function byTargetView(x: unknown): { byTarget?: ByTarget } {
  if (!isObj(x)) return {};
  return { byTarget: { crate: str(x.crate), targets: strList(x.targets), unbuilt: strList(x.unbuilt), passed: num(x.passed) ?? 0, failed: num(x.failed) ?? 0 } };
}

/**
 * What CTest said of a run's programs (checks/types.ts CheckRun.ctestPrograms), coerced, with whether its tests are
 * cases (the run is told by its tests, as the CLI tells it); nothing for a value that is not one. Which files the CMake
 * files map to which test (`sources`) is for the verdicts the engine computes, not the panel.
 */
function ctestProgramsView(x: unknown): { ctestPrograms?: CTestPrograms } {
  if (!isObj(x)) return {};
  return { ctestPrograms: { passed: num(x.passed) ?? 0, failed: num(x.failed) ?? 0, notRun: strList(x.notRun), ...(x.cases === true ? { cases: true as const } : {}) } };
}

/**
 * The test files a JavaScript runner reported did not load, and the test cases that failed beside them (as
 * `{ passed: false }`, all beforeFailureSaying reads of them): the panel tells such a fail-first run as the CLI and
 * the retrospective do, "test/a.test.js did not load without the change …, and 1 test case failed".
 */
function unloadedView(run: Record<string, unknown>): { unbuiltTestFiles?: string[]; tests?: { passed: false }[] } {
  const files = strList(run.unbuiltTestFiles);
  if (!files.length) return {};
  const failing = (Array.isArray(run.tests) ? run.tests : []).filter((t) => isObj(t) && t.passed === false).length;
  return { unbuiltTestFiles: files, ...(failing ? { tests: Array.from({ length: failing }, () => ({ passed: false as const })) } : {}) };
}

/** One check event on DevA's step (coerced: a malformed field degrades, never throws). */
export function reduceCheck(step: StepView, raw: unknown): StepView {
  const ev: Record<string, unknown> = isObj(raw) ? raw : {};
  const items = (step.checks ?? []).slice();
  switch (ev.type) {
    case 'check-started':
      items.push({ kind: 'run', round: num(ev.round) ?? 0, command: str(ev.command), status: 'running', exitCode: null, durationMs: null, output: '', ...where(ev) });
      break;
    case 'check-finished': {
      const run: Record<string, unknown> = isObj(ev.run) ? ev.run : {};
      const status = (RUN_STATUSES as readonly unknown[]).includes(run.status) ? (run.status as (typeof RUN_STATUSES)[number]) : 'error';
      const row = { kind: 'run' as const, round: num(run.round) ?? 0, command: str(run.command), status, exitCode: num(run.exitCode), durationMs: num(run.durationMs), output: str(run.output), ...where(ev), ...(run.unbuilt === true ? { unbuilt: true } : {}), ...(run.testsNotReached === true ? { testsNotReached: true } : {}), ...byTargetView(run.byTarget), ...ctestProgramsView(run.ctestPrograms), ...unloadedView(run) };
      const i = items.findIndex(
        (x) => x.kind === 'run' && x.status === 'running' && x.command === row.command && x.round === row.round && !!x.before === !!row.before && !!x.baseline === !!row.baseline,
      );
      if (i >= 0) items[i] = row;
      else items.push(row);
      break;
    }
    case 'formatted':
      items.push({ kind: 'formatted', round: num(ev.round) ?? 0, by: str(ev.by) || 'The formatter', files: strList(ev.files), ...(ev.check === true ? { check: true } : {}) });
      break;
    case 'not-written': {
      const files = (Array.isArray(ev.files) ? ev.files : []).filter(isObj).map((n) => notWrittenLine({ path: str(n.path), reason: str(n.reason) }));
      items.push({ kind: 'not-written', round: num(ev.round) ?? 0, files });
      break;
    }
    case 'fix-round':
      items.push({ kind: 'fix', round: num(ev.round) ?? 1, max: num(ev.max) ?? 0, failing: strList(ev.failing), files: null, problems: [] });
      break;
    case 'fix-applied': {
      const i = items.findIndex((x) => x.kind === 'fix' && x.round === num(ev.round));
      if (i >= 0) items[i] = { ...(items[i] as Extract<CheckItemView, { kind: 'fix' }>), files: strList(ev.files), problems: strList(ev.problems) };
      break;
    }
    case 'checks-finished':
      return {
        ...step,
        checks: items,
        checksOutcome: {
          passed: ev.passed === true,
          fixRounds: num(ev.fixRounds) ?? 0,
          ...(ev.failsAsBefore === true ? { failsAsBefore: true } : {}),
          ...(ev.fixDeclined === true ? { fixDeclined: true } : {}),
          ...(str(ev.notRun) ? { notRun: str(ev.notRun) } : {}),
          ...(strList(ev.notChecked).length ? { notChecked: strList(ev.notChecked) } : {}),
        },
      };
    default:
      return step;
  }
  return { ...step, checks: items, status: step.status === 'pending' ? 'running' : step.status };
}
