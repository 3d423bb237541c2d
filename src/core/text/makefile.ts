// A Makefile's lines as make reads them, for the two readers of a Makefile: init's facts (cape/initFactsTasks.ts: each
// target and the commands it runs, with the file's variables in place) and the checks' detection (checks/detectMake.ts:
// whether it defines a `test` target). A rule line (`test check: all`), a variable's definition and a recipe's
// references to them; one rule each, here.

/** A target's name as people run it: a word, no pattern (`%.o`), variable, path or special target (`.PHONY`). */
export const TARGET_NAME = /^[A-Za-z0-9_][\w.-]*$/;

/** A rule line read: the targets it defines (TARGET_NAME's), what follows the colon up to `;`, and a recipe after `;`. */
export interface MakeRule {
  targets: string[];
  prereqs: string;
  inline: string;
}

/**
 * A rule line (`name other: deps`, `test:: build`, `all: ; cc x.c`), or null for anything else: a comment, a
 * variable's assignment (`X = 1`, `X := 1`), a target-specific variable (`test: CFLAGS += -g`), a recipe line (tab).
 */
export function makeRule(line: string): MakeRule | null {
  const colon = line.indexOf(':');
  const eq = line.indexOf('=');
  if (colon <= 0 || line.startsWith('#') || line.startsWith('\t') || (eq >= 0 && eq <= colon + 1)) return null;
  const [prereqs, inline = ''] = line.slice(colon + 1).replace(/^:/, '').split(';');
  if (prereqs.includes('=')) return null; // a target-specific variable
  return { targets: line.slice(0, colon).trim().split(/\s+/).filter((n) => TARGET_NAME.test(n)), prereqs, inline };
}

/** A variable's plain definition (`CFLAGS = -O0 -g`, `CC := gcc`, `PREFIX ?= /usr`, `LDLIBS += -lm`): name, operator, value. */
const MAKE_VARIABLE = /^([A-Za-z_][\w.-]*)[ \t]*(:{1,3}=|[?+!]?=)(.*)$/;
/** A variable's reference in a recipe (`$(CFLAGS)`, `${CC}`), or the target's own name (`$@`). */
const MAKE_REFERENCE = /\$(?:[({]([A-Za-z_][\w.-]*)[)}]|@)/g;
/** A value that calls a make function (`$(shell which golangci-lint)`): not shown in its place. */
const CALLS_FUNCTION = /\$[({][a-z-]+\s/;

/** Records a line's variable definition in `vars`, as make would (`+=` appends, `?=` only when undefined); false for any other line. */
export function recordVariable(vars: Map<string, string>, line: string): boolean {
  const v = MAKE_VARIABLE.exec(line);
  if (!v) return false;
  const [, name, op, raw] = v;
  // a comment after the value is none of it
  const hash = raw.search(/[ \t]#/);
  const value = (hash >= 0 ? raw.slice(0, hash) : raw).trim();
  const before = vars.get(name);
  if (op === '+=') vars.set(name, before === undefined ? value : `${before} ${value}`);
  // `!=` takes a shell command's output: unknown until make runs it
  else if (op !== '?=' || before === undefined) vars.set(name, op === '!=' ? '$(shell )' : value);
  return true;
}

/**
 * A recipe line with the Makefile's own variables in place (`$(CC) $(CFLAGS) -o $@` → `gcc -O0 -g … -o test`); `$@` is
 * the target's name. A variable the file does not define (make's own `$(MAKE)`, the environment's), whose value calls a
 * make function (`$(shell which golangci-lint)`) or that refers to itself stays as written.
 */
export function expandVariables(line: string, target: string, vars: ReadonlyMap<string, string>, depth = 0): string {
  return line.replace(MAKE_REFERENCE, (ref, name: string | undefined) => {
    if (name === undefined) return target;
    const value = vars.get(name);
    if (value === undefined || depth >= 4 || CALLS_FUNCTION.test(value) || value.includes(`$(${name})`) || value.includes(`\${${name}}`)) return ref;
    return expandVariables(value, target, vars, depth + 1);
  });
}
