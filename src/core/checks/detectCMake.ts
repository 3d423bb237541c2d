// The check of a C or C++ project whose tests its CMake build declares (`enable_testing()`, `include(CTest)`,
// `add_test(…)`): configure, build and run them with CTest, in a build folder of the scratch copy's own. An init trial
// on cJSON found `make test` from its root Makefile — which runs one demo program — while the README calls the
// Makefile deprecated ("Use CMake if at all possible") and its CI runs CTest over nineteen Unity suites: the model
// wrote the CMake route into the guideline, and the checks would have run the other. So where the CMake build
// declares tests it is the check, before a Makefile's target (detectMake.ts); asked for by detect.ts only where no
// language's own rules found a test command. The build runs from scratch in every copy (a CMake build folder holds
// the source folder's path, and each copy has its own): a small library's takes seconds, a large one's minutes — a
// project that finds that too slow configures its own check command.
// Read, never run: the root CMakeLists.txt and those of its test folders.
import * as os from 'os';
import * as path from 'path';
import type { CheckCommand } from './types';
import { onPath, readText } from './projectProbes';

/** A CMake build's definition file, in the root and in any folder it adds. */
export const CMAKE_FILE = 'CMakeLists.txt';
/** The CMake commands that declare tests for CTest (case-insensitive, as CMake reads its commands). */
const DECLARES_TESTS = /\b(enable_testing|add_test)\s*\(|\binclude\s*\(\s*CTest\b/i;
/** The folders whose own CMakeLists.txt may declare the tests the root adds by `add_subdirectory`. */
const TEST_FOLDERS: readonly string[] = ['tests', 'test', 'testing', 'unittests'];
/** The build folder in the scratch copy: a name no project's files use, never in the user's tree. */
export const CMAKE_BUILD_FOLDER = '.cape-cmake-build';

/** The CMake command that declares tests in `text` (`enable_testing`, `add_test`, `include(CTest)`), or null. */
export function declaredTests(text: string): string | null {
  for (const line of text.split('\n')) {
    // a line's comment (`#` to its end) declares nothing
    const hash = line.indexOf('#');
    const m = DECLARES_TESTS.exec(hash < 0 ? line : line.slice(0, hash));
    if (m) return m[1]?.toLowerCase() ?? 'include(CTest)';
  }
  return null;
}

/** Jobs the build runs at once: the machine's cores, at most 8 (a bare `--parallel` lets make start one per target). */
function buildJobs(): number {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return Math.max(1, Math.min(8, cores));
}

/** The CTest check of a workspace whose CMake build declares tests, when cmake and ctest are on PATH; none otherwise. */
export async function cmakeTestCheck(dir: string): Promise<CheckCommand[]> {
  const root = await readText(path.join(dir, CMAKE_FILE));
  if (!root) return [];
  let declared = declaredTests(root) ? CMAKE_FILE : null;
  for (const folder of TEST_FOLDERS) {
    if (declared) break;
    if (declaredTests(await readText(path.join(dir, folder, CMAKE_FILE)))) declared = `${folder}/${CMAKE_FILE}`;
  }
  if (!declared || !(await onPath(['cmake'])) || !(await onPath(['ctest']))) return [];
  const b = CMAKE_BUILD_FOLDER;
  return [
    {
      command: `cmake -S . -B ${b} && cmake --build ${b} --parallel ${buildJobs()} && cd ${b} && ctest --output-on-failure`,
      source: 'detected',
      reason: `${declared} declares tests (CTest)`,
    },
  ];
}
