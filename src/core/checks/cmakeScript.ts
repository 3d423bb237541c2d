// The CMake language as far as reading a CMakeLists.txt for names goes (cmakeTests.ts): its commands and their
// arguments (quoted or not, comments left out), variables and their expansion (`${NAME}`, an unquoted value's `;`
// list), `foreach`'s items, `cmake_parse_arguments` as a project's function uses it, and `$<TARGET_FILE:…>`. Read,
// never run; bounded (a variable's value, MAX_VALUE). Pure.

/** A CMake command as written: its name (lower-cased, as CMake reads it) and its arguments, quoted ones marked. */
export interface Command {
  name: string;
  args: { text: string; quoted: boolean }[];
}

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
export type Scope = Map<string, string>;

/** Sets a variable, its value dropped past MAX_VALUE. */
export function setVar(vars: Scope, name: string, value: string): void {
  vars.set(name, value.length > MAX_VALUE ? '' : value);
}

/**
 * `cmake_parse_arguments(<prefix> <options> <one-value keywords> <multi-value keywords> <args>…)`, and its
 * `PARSE_ARGV <n>` form: sets `<prefix>_<keyword>` from the arguments, as a project's test function reads them.
 */
export function parseArguments(raw: Command['args'], vars: Scope): void {
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
export function expand(text: string, vars: Scope): string {
  let s = text;
  for (let round = 0; round < 20 && s.includes('${'); round++) {
    const next = s.replace(/\$\{([^${}]*)\}/g, (_, name: string) => vars.get(name) ?? '');
    if (next === s) break;
    s = next;
  }
  return s.replace(/\$<TARGET_FILE(?:_NAME)?:([^>]+)>/g, '$1');
}

/** An argument's values after expansion: an unquoted one is a list (`a;b` two values, empty none). */
export function values(arg: { text: string; quoted: boolean }, vars: Scope): string[] {
  const s = expand(arg.text, vars);
  if (arg.quoted) return [s];
  return s.split(';').filter((v) => v !== '');
}

/** A foreach's items: `a b c`, `${list}`, `IN LISTS x y`, `IN ITEMS a b`, `RANGE` (not read: numbers name no test). */
export function loopItems(args: Command['args'], vars: Scope): string[] {
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
