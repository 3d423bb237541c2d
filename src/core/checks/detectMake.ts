// The check of a project whose tests only its Makefile runs — C and C++ libraries above all (kgabis/parson: `make
// test` builds and runs its suite; a trial's init facts listed that target and still said "Check commands CAPE
// detects: none recognised"): the root Makefile's `test` target, or GNU's `check`, run with make when it is on PATH.
// Asked for by detect.ts only when no language's own rules found a test command (at the root or in a sub-project),
// nor does a CMake build declare tests (detectCMake.ts: cJSON's Makefile runs one demo, its CMake build the suites),
// so a Go or Python project's Makefile (`make test` with its own flags, `make verify`'s linters) never doubles its
// toolchain's checks.
// Only a Makefile in the repository counts: one that `./configure` writes is not there until it runs.
import * as path from 'path';
import type { CheckCommand } from './types';
import { makefileIn, onPath, readText } from './projectProbes';
import { makeRule } from '../text/makefile';
import { joinContinued } from '../text/lines';

/** The targets that run a project's tests, by the names Makefiles give them, the first one present taken. */
const TEST_TARGETS = ['test', 'check'] as const;

/** The root Makefile's test target (TEST_TARGETS) as a check, when make is on PATH: none without one. */
export async function makeTestCheck(dir: string): Promise<CheckCommand[]> {
  const makefile = await makefileIn(dir);
  if (!makefile) return [];
  const defined = new Set(joinContinued(await readText(path.join(dir, makefile))).split(/\r?\n/).flatMap((line) => makeRule(line)?.targets ?? []));
  const target = TEST_TARGETS.find((t) => defined.has(t));
  if (!target || !(await onPath(['make']))) return [];
  return [{ command: `make ${target}`, source: 'detected', reason: `${makefile} target "${target}"` }];
}
