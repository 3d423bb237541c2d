// Which source files each CTest test runs, read from the project's CMake files: a test is a program CMake builds
// (`add_test(NAME parser COMMAND test_parser)`, `add_executable(test_parser tests/parser_test.c)`), and most projects
// name the test after its file, which ctestPrograms.ts programOf assumes. Where a project names it otherwise, a C test
// file's verdict by its program (metrics/testStatus.ts) needs this map: ctestPrograms.ts keeps the tests it names
// otherwise (CTestPrograms.sources).
// Read, never run: the root CMakeLists.txt and the folders it adds (`add_subdirectory`), evaluated as far as naming
// goes — `set`, `list(APPEND)`, `foreach` over items and lists, `${…}` variables (a folder sees its parent's),
// `$<TARGET_FILE:…>`, the project's own functions and macros (`cmake_parse_arguments` too); a program whose cases
// GoogleTest's, Catch2's or doctest's module makes CTest's tests, by its own name — with every branch of an `if` taken.
// The language's reading (commands, variables, arguments) is cmakeScript.ts's. A source or program whose name this
// cannot tell (a generated file, a module's function) is not mapped: its test is read by the convention, as before.
// cmakeTestSources reads files through `read`; withSources, from the run's copy.
import * as fs from 'fs';
import * as path from 'path';
import { C_FAMILY_FILE, C_HEADER_FILE } from '../workspace/languageFiles';
import { testsNamedOtherwise, type CTestPrograms } from './ctestPrograms';
import { workspacePath } from './runFolder';
import { joinWorkspace } from '../workspace/moduleRules';
import { cmakeCommands, expand, loopItems, parseArguments, setVar, values, type Command, type Scope } from './cmakeScript';

/** Reads a workspace-relative file's text; null when it is not there. */
export type ReadText = (relPath: string) => string | null;

/** Folders followed from the root (add_subdirectory): bounds the reading of a large or cyclic tree. */
const MAX_FILES = 200;
/** Iterations of all foreach loops of a file together: bounds a loop over a huge or self-growing list. */
const MAX_ITERATIONS = 10_000;
/** Tests kept in the map: a project with more names its tests by a generator this does not read. */
const MAX_TESTS = 500;
/** Calls of the project's functions and macros inside one another (a recursive one stops here). */
const MAX_CALL_DEPTH = 16;

/** The workspace-relative path of `p` written in folder `dir` ('' the root), as joinWorkspace reads it; null for one outside the workspace. */
function inWorkspace(dir: string, p: string, root: string): string | null {
  if (p.startsWith(`${root}/`)) return joinWorkspace('', p.slice(root.length + 1));
  return p.startsWith('/') ? null : joinWorkspace(dir, p);
}

/** The root's path as the CMake files see it: a marker no real path starts with, replaced when paths are resolved. */
const ROOT = '/<cape-workspace-root>';

/** Words of add_executable and target_sources that are not sources. */
const NOT_SOURCES = new Set(['WIN32', 'MACOSX_BUNDLE', 'EXCLUDE_FROM_ALL', 'PRIVATE', 'PUBLIC', 'INTERFACE', 'FILE_SET', 'TYPE', 'BASE_DIRS', 'FILES', 'HEADERS']);

/**
 * Each CTest test's C and C++ source files (workspace-relative), by the test's name, read from the CMake files the
 * root CMakeLists.txt reaches (empty when there is none or it declares no test this can follow); and whether they make
 * a program's cases CTest's tests (`gtest_discover_tests`…), so CTest counts cases, not programs.
 */
export function cmakeTestSources(read: ReadText): { sources: Map<string, string[]>; discovered: boolean } {
  let discovered = false;
  let calls = 0;
  const defs = new Map<string, { params: string[]; body: Command[]; macro: boolean }>();
  const programs = new Map<string, Set<string>>();
  const tests = new Map<string, string>();
  const seen = new Set<string>();
  const folder = (dir: string, parent: Scope) => {
    if (seen.has(dir) || seen.size >= MAX_FILES) return;
    seen.add(dir);
    const text = read(dir ? `${dir}/CMakeLists.txt` : 'CMakeLists.txt');
    if (text === null) return;
    let vars: Scope = new Map(parent);
    const here = dir ? `${ROOT}/${dir}` : ROOT;
    vars.set('CMAKE_CURRENT_SOURCE_DIR', here);
    vars.set('CMAKE_CURRENT_LIST_DIR', here);
    let iterations = 0;
    const run = (cmds: Command[]) => {
      for (let k = 0; k < cmds.length; k++) {
        const c = cmds[k];
        if (c.name === 'function' || c.name === 'macro' || c.name === 'foreach') {
          // the body up to the matching end
          const end = `end${c.name}`;
          let depth = 1;
          let e = k + 1;
          for (; e < cmds.length; e++) {
            if (cmds[e].name === c.name) depth++;
            else if (cmds[e].name === end && --depth === 0) break;
          }
          const body = cmds.slice(k + 1, e);
          k = e;
          if (c.name !== 'foreach') {
            // defined for every folder after this one (CMake's are global), called like a command
            const [name, ...params] = c.args.map((a) => a.text);
            if (name) defs.set(name.toLowerCase(), { params, body, macro: c.name === 'macro' });
            continue;
          }
          if (!c.args.length) continue;
          const name = c.args[0].text;
          const items = loopItems(c.args.slice(1), vars);
          for (const item of items) {
            if (++iterations > MAX_ITERATIONS) return;
            setVar(vars, name, item);
            run(body);
          }
          continue;
        }
        command(c);
      }
    };
    const command = (c: Command) => {
      const vals = () => c.args.flatMap((a) => values(a, vars));
      switch (c.name) {
        case 'project': {
          const [name] = vals();
          if (name) vars.set('PROJECT_NAME', name);
          vars.set('PROJECT_SOURCE_DIR', here);
          break;
        }
        case 'set': {
          const [name, ...rest] = c.args;
          if (!name) break;
          const cut = rest.findIndex((a) => !a.quoted && (a.text === 'CACHE' || a.text === 'PARENT_SCOPE'));
          setVar(vars, expand(name.text, vars), (cut < 0 ? rest : rest.slice(0, cut)).flatMap((a) => values(a, vars)).join(';'));
          break;
        }
        case 'list': {
          const [op, name, ...rest] = vals();
          if (op === 'APPEND' && name) setVar(vars, name, [...(vars.get(name) ?? '').split(';').filter(Boolean), ...rest].join(';'));
          break;
        }
        case 'add_executable':
        case 'target_sources': {
          const [target, ...rest] = vals();
          if (!target || rest.some((r) => r === 'IMPORTED' || r === 'ALIAS')) break;
          const files = programs.get(target) ?? new Set<string>();
          for (const r of rest) {
            if (NOT_SOURCES.has(r) || r.includes('$<') || !C_FAMILY_FILE.test(r) || C_HEADER_FILE.test(r)) continue;
            const p = inWorkspace(dir, r, ROOT);
            if (p) files.add(p);
          }
          programs.set(target, files);
          break;
        }
        case 'add_test': {
          const v = vals();
          let name: string | undefined;
          let program: string | undefined;
          if (v[0] === 'NAME') {
            name = v[1];
            program = v[v.indexOf('COMMAND') + 1];
            if (!v.includes('COMMAND')) program = undefined;
          } else [name, program] = v;
          if (name && program && tests.size < MAX_TESTS) tests.set(name, program.slice(program.lastIndexOf('/') + 1));
          break;
        }
        case 'gtest_discover_tests':
        case 'gtest_add_tests':
        case 'catch_discover_tests':
        case 'doctest_discover_tests': {
          // a program whose cases become CTest's tests (read by their own names); not built, it is one test by its
          // own name (ctestPrograms.ts NOT_BUILT)
          const v = vals();
          const target = v[0] === 'TARGET' ? v[1] : v[0];
          discovered = true;
          if (target && tests.size < MAX_TESTS) tests.set(target, target);
          break;
        }
        case 'add_subdirectory': {
          const [sub] = vals();
          const p = sub ? inWorkspace(dir, sub, ROOT) : null;
          if (p !== null && p !== dir) folder(p, vars);
          break;
        }
        case 'cmake_parse_arguments':
          parseArguments(c.args, vars);
          break;
        default: {
          // a function or macro of the project's (`add_unit_test(parser SOURCES parser_test.c)`): its body with its
          // arguments bound; a function's variables are its own, a macro's the caller's
          const def = defs.get(c.name);
          if (!def || calls >= MAX_CALL_DEPTH) break;
          const argv = vals();
          const caller = vars;
          if (!def.macro) vars = new Map(caller);
          def.params.forEach((p, i) => setVar(vars, p, argv[i] ?? ''));
          setVar(vars, 'ARGN', argv.slice(def.params.length).join(';'));
          setVar(vars, 'ARGV', argv.join(';'));
          setVar(vars, 'ARGC', String(argv.length));
          argv.forEach((a, i) => setVar(vars, `ARGV${i}`, a));
          calls++;
          run(def.body);
          calls--;
          vars = caller;
        }
      }
    };
    run(cmakeCommands(text));
  };
  const root: Scope = new Map([
    ['CMAKE_SOURCE_DIR', ROOT],
    ['PROJECT_SOURCE_DIR', ROOT],
  ]);
  folder('', root);
  const out = new Map<string, string[]>();
  for (const [test, program] of tests) {
    const files = programs.get(program.replace(/\.exe$/i, ''));
    if (files?.size) out.set(test, [...files].sort());
  }
  return { sources: out, discovered };
}

/** Biggest CMake file read for its tests' names (a generated one past it names nothing this reads). */
const MAX_CMAKE_FILE = 1024 * 1024;

/**
 * What CTest said of its programs, with the tests the CMake files in the run's folder name otherwise than their
 * source files (cmakeTestSources), workspace-relative, and whether CTest's tests are cases: read as the run ends, in
 * the copy it ran in.
 */
export function withSources(ctest: CTestPrograms, cwd: string, folder: string): CTestPrograms {
  const read = (rel: string): string | null => {
    try {
      const file = path.join(cwd, folder, rel);
      // a regular file only: a FIFO or a device in its place would block the read
      const st = fs.statSync(file);
      return st.isFile() && st.size <= MAX_CMAKE_FILE ? fs.readFileSync(file, 'utf8') : null;
    } catch {
      return null;
    }
  };
  const found = cmakeTestSources(read);
  const otherwise = testsNamedOtherwise(found.sources);
  const sources = otherwise && Object.fromEntries(Object.entries(otherwise).map(([test, files]) => [test, files.map((f) => workspacePath(folder, f))]));
  return { ...ctest, ...(sources ? { sources } : {}), ...(found.discovered ? { cases: true as const } : {}) };
}
