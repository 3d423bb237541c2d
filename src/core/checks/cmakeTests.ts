// Which source files each CTest test runs, read from the project's CMake files: a test is a program CMake builds
// (`add_test(NAME parser COMMAND test_parser)`, `add_executable(test_parser tests/parser_test.c)`), and most projects
// name the test after its file, which ctestPrograms.ts programOf assumes. Where a project names it otherwise, a C test
// file's verdict by its program (metrics/testStatus.ts) needs this map: ctestPrograms.ts keeps the tests it names
// otherwise (CTestPrograms.sources).
// Read, never run: the root CMakeLists.txt and the folders it adds (`add_subdirectory`), evaluated as far as naming
// goes — `set`, `list(APPEND)`, `foreach` over items and lists, `${…}` variables (a folder sees its parent's),
// `$<TARGET_FILE:…>`, the project's own functions and macros (`cmake_parse_arguments` too); a program whose cases
// GoogleTest's, Catch2's or doctest's module makes CTest's tests, by its own name — with every branch of an `if` taken.
// A source or program whose name this cannot tell (a generated file, a module's function) is not mapped: its test is
// read by the convention, as before. cmakeTestSources reads files through `read`; withSources, from the run's copy.
import * as fs from 'fs';
import * as path from 'path';
import { C_FAMILY_FILE, C_HEADER_FILE } from '../workspace/languageFiles';
import { testsNamedOtherwise, type CTestPrograms } from './ctestPrograms';
import { workspacePath } from './runFolder';

/** Reads a workspace-relative file's text; null when it is not there. */
export type ReadText = (relPath: string) => string | null;

/** A CMake command as written: its name (lower-cased, as CMake reads it) and its arguments, quoted ones marked. */
interface Command {
  name: string;
  args: { text: string; quoted: boolean }[];
}

/** Folders followed from the root (add_subdirectory): bounds the reading of a large or cyclic tree. */
const MAX_FILES = 200;
/** Iterations of all foreach loops of a file together: bounds a loop over a huge or self-growing list. */
const MAX_ITERATIONS = 10_000;
/** Tests kept in the map: a project with more names its tests by a generator this does not read. */
const MAX_TESTS = 500;
/** Calls of the project's functions and macros inside one another (a recursive one stops here). */
const MAX_CALL_DEPTH = 16;
/** A variable's longest value: one that doubles itself in a loop is dropped, not grown to the memory's end. */
const MAX_VALUE = 64 * 1024;

/** A bracket comment's start (`#[[`, `#[==[`), and a command's name, each where the reading is (sticky: no copy of the rest). */
const BRACKET_COMMENT = /#\[(=*)\[/y;
const IDENTIFIER = /[A-Za-z_]\w*/y;

/** The commands of a CMakeLists.txt: `name(args)`, comments (`# …`, `#[[ … ]]`) left out. */
export function cmakeCommands(text: string): Command[] {
  const out: Command[] = [];
  const n = text.length;
  let i = 0;
  const skipComment = () => {
    BRACKET_COMMENT.lastIndex = i;
    const bracket = BRACKET_COMMENT.exec(text);
    if (bracket) {
      const end = text.indexOf(`]${bracket[1]}]`, i);
      i = end < 0 ? n : end + bracket[1].length + 2;
    } else {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end;
    }
  };
  while (i < n) {
    const ch = text[i];
    if (ch === '#') {
      skipComment();
      continue;
    }
    IDENTIFIER.lastIndex = i;
    const m = IDENTIFIER.exec(text);
    if (!m) {
      i++;
      continue;
    }
    let j = i + m[0].length;
    while (j < n && (text[j] === ' ' || text[j] === '\t')) j++;
    if (text[j] !== '(') {
      i = j;
      continue;
    }
    i = j + 1;
    const args: Command['args'] = [];
    let depth = 0;
    let word = '';
    let quotedWord = false;
    const flush = () => {
      if (word || quotedWord) args.push({ text: word, quoted: quotedWord });
      word = '';
      quotedWord = false;
    };
    while (i < n) {
      const c = text[i];
      if (c === '"') {
        let k = i + 1;
        let s = '';
        while (k < n && text[k] !== '"') {
          if (text[k] === '\\' && k + 1 < n) {
            s += text[k + 1] === 'n' ? '\n' : text[k + 1];
            k += 2;
          } else s += text[k++];
        }
        word += s;
        quotedWord = true;
        i = k + 1;
      } else if (c === '#') {
        flush();
        skipComment();
      } else if (c === '(') {
        depth++;
        word += c;
        i++;
      } else if (c === ')') {
        if (depth === 0) {
          flush();
          i++;
          break;
        }
        depth--;
        word += c;
        i++;
      } else if (/\s/.test(c)) {
        flush();
        i++;
      } else {
        word += c;
        i++;
      }
    }
    out.push({ name: m[0].toLowerCase(), args });
  }
  return out;
}

/** The variables of a folder's scope: a folder added by add_subdirectory starts with a copy of its parent's. */
type Scope = Map<string, string>;

/** Sets a variable, its value dropped past MAX_VALUE. */
function setVar(vars: Scope, name: string, value: string): void {
  vars.set(name, value.length > MAX_VALUE ? '' : value);
}

/**
 * `cmake_parse_arguments(<prefix> <options> <one-value keywords> <multi-value keywords> <args>…)`, and its
 * `PARSE_ARGV <n>` form: sets `<prefix>_<keyword>` from the arguments, as a project's test function reads them.
 */
function parseArguments(raw: Command['args'], vars: Scope): void {
  const args = raw.flatMap((a) => values(a, vars));
  let prefix: string | undefined;
  let lists: string[];
  let given: string[];
  if (args[0] === 'PARSE_ARGV') {
    prefix = args[2];
    lists = args.slice(3, 6);
    const from = Number(args[1]) || 0;
    given = (vars.get('ARGV') ?? '').split(';').filter(Boolean).slice(from);
  } else {
    prefix = args[0];
    lists = args.slice(1, 4);
    given = args.slice(4);
  }
  if (!prefix) return;
  const kinds = lists.map((l) => new Set((l ?? '').split(';').filter(Boolean)));
  const [options, one, multi] = kinds;
  const keyword = (w: string) => options.has(w) || one.has(w) || multi.has(w);
  for (const o of options) setVar(vars, `${prefix}_${o}`, 'FALSE');
  for (const k of [...one, ...multi]) vars.delete(`${prefix}_${k}`);
  const unparsed: string[] = [];
  for (let i = 0; i < given.length; i++) {
    const w = given[i];
    if (options.has(w)) setVar(vars, `${prefix}_${w}`, 'TRUE');
    else if (one.has(w)) {
      if (i + 1 < given.length && !keyword(given[i + 1])) setVar(vars, `${prefix}_${w}`, given[++i]);
    } else if (multi.has(w)) {
      const items: string[] = [];
      while (i + 1 < given.length && !keyword(given[i + 1])) items.push(given[++i]);
      setVar(vars, `${prefix}_${w}`, items.join(';'));
    } else unparsed.push(w);
  }
  setVar(vars, `${prefix}_UNPARSED_ARGUMENTS`, unparsed.join(';'));
}

/** `${NAME}` replaced by its value (innermost first, as CMake does; an unset one is empty), and `$<TARGET_FILE:t>` by t. */
function expand(text: string, vars: Scope): string {
  let s = text;
  for (let round = 0; round < 20 && s.includes('${'); round++) {
    const next = s.replace(/\$\{([^${}]*)\}/g, (_, name: string) => vars.get(name) ?? '');
    if (next === s) break;
    s = next;
  }
  return s.replace(/\$<TARGET_FILE(?:_NAME)?:([^>]+)>/g, '$1');
}

/** An argument's values after expansion: an unquoted one is a list (`a;b` two values, empty none). */
function values(arg: { text: string; quoted: boolean }, vars: Scope): string[] {
  const s = expand(arg.text, vars);
  if (arg.quoted) return [s];
  return s.split(';').filter((v) => v !== '');
}

/** The normalised workspace-relative path of `p` written in folder `dir` ('' the root); null for one outside the workspace. */
function inWorkspace(dir: string, p: string, root: string): string | null {
  let rel = p;
  if (rel.startsWith(`${root}/`)) rel = rel.slice(root.length + 1);
  else if (rel.startsWith('/')) return null;
  else if (dir) rel = `${dir}/${rel}`;
  const parts: string[] = [];
  for (const part of rel.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (!parts.length) return null;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
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

/** A foreach's items: `a b c`, `${list}`, `IN LISTS x y`, `IN ITEMS a b`, `RANGE` (not read: numbers name no test). */
function loopItems(args: Command['args'], vars: Scope): string[] {
  if (args[0]?.text === 'RANGE' && !args[0].quoted) return [];
  if (args[0]?.text !== 'IN' || args[0].quoted) return args.flatMap((a) => values(a, vars));
  const out: string[] = [];
  let mode = '';
  for (const a of args.slice(1)) {
    if (!a.quoted && (a.text === 'LISTS' || a.text === 'ITEMS' || a.text === 'ZIP_LISTS')) mode = a.text;
    else if (mode === 'LISTS') out.push(...(vars.get(expand(a.text, vars)) ?? '').split(';').filter(Boolean));
    else if (mode === 'ITEMS') out.push(...values(a, vars));
  }
  return out;
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
