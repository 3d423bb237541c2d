// Whether a failed test's own error message says only that a name the test uses is missing — a method, a function, an
// attribute, an import, a keyword the change is to add — in the runtimes where such a test runs and fails rather than
// not building: JavaScript (V8's words), Python and Ruby. The patterns are a bounded set, one per error and wording; a
// message none of them matches is another failure. A compiled test of a missing member does not build (Rust's "no
// method named", Go's "undefined:", TypeScript's TS2339: buildFailures.ts reads those as `unbuilt`). Where a failed
// case's message is in a runner's output is ./failureMessages.ts's; fail-first (metrics/failFirstVerdict.ts) says
// what such a failure shows: the tests call the change, not yet that they check its behaviour.
import type { MissingName } from '../model/types';

/**
 * A line that opens an error: its class (a dotted path's last part, `pkg.errors.Boom`), Node's `[code]` after it
 * (`TypeError [Error]: …`, node:test's spec reporter), a colon, then its message — or none, as RSpec writes the class
 * on a line of its own (`NoMethodError:`, the message under it). A class starts with a capital letter.
 */
const ERROR_LINE = /^(?:[a-z_]\w*\.)*([A-Z]\w*)(?: \[[^\]\s]*\])?:(?: (\S.*))?$/;

/** An error's class and the first line of its message ('' when the line holds the class alone). */
export interface ErrorLine {
  error: string;
  message: string;
}

/** The error a line opens (ERROR_LINE), blanks around it aside; null when it opens none. */
export function errorLine(line: string): ErrorLine | null {
  const m = ERROR_LINE.exec(line.trim());
  return m ? { error: m[1], message: m[2]?.trimEnd() ?? '' } : null;
}

/**
 * A receiver's path before a member V8 names: `o.`, `this.opts.`, `(intermediate value).`, `a?.`, and a call's result
 * as V8 writes it, `program.command(...).` (a commander trial's chained `.summary()`).
 */
const JS_RECEIVER = String.raw`(?:(?:[\w$]+|\(intermediate value\))(?:\(\.\.\.\))?(?:\??\.[\w$]+(?:\(\.\.\.\))?)*\??\.)?`;
/** Python 3.12's suggestion after a missing name: `. Did you mean: 'bar'?`. */
const DID_YOU_MEAN = String.raw`(?:\. Did you mean: '\w+'\?)?`;
/** Ruby quotes a name `like this' before 3.4, 'like this' since. */
const RUBY_NAME = String.raw`[\`'](\w+[?!=]?)'`;

/**
 * The missing-name errors, by the error's class and the wording of its message (the name is the message's first
 * group). Left out as they tell no missing name of the change: a call on a value that is undefined, None or nil
 * (`Cannot read properties of undefined`, `'NoneType' object has no attribute`, `undefined method … for nil`), and a
 * module not found (a dependency not installed reads the same).
 */
const MISSING: readonly { error: string; message: RegExp }[] = [
  // V8: `o.deprecated is not a function` (the member is missing, or not yet a function), `Foo is not a constructor`
  { error: 'TypeError', message: new RegExp(String.raw`^${JS_RECEIVER}(?!undefined |null )([\w$]+) is not a (?:function|constructor)$`) },
  // V8: `makeOption is not defined`
  { error: 'ReferenceError', message: /^([\w$]+) is not defined$/ },
  // Python: `'Foo' object has no attribute 'bar'`, `module 'pkg' has no attribute 'bar'`, `type object 'Foo' has no attribute 'bar'`
  { error: 'AttributeError', message: new RegExp(String.raw`^(?:'(?!NoneType')[\w.]+' object|module '[\w.]+'|type object '[\w.]+') has no attribute '(\w+)'${DID_YOU_MEAN}$`) },
  // Python: `cannot import name 'bar' from 'pkg' (/path/pkg/__init__.py)` (not a partially initialised module's)
  { error: 'ImportError', message: /^cannot import name '(\w+)' from '[\w.]+'(?: \(.*\))?$/ },
  // Python: `name 'bar' is not defined`
  { error: 'NameError', message: new RegExp(String.raw`^name '(\w+)' is not defined${DID_YOU_MEAN}$`) },
  // Python: `Foo.__init__() got an unexpected keyword argument 'strict'`
  { error: 'TypeError', message: /^[\w.]+\(\) got an unexpected keyword argument '(\w+)'$/ },
  // Ruby: `undefined method 'bar' for an instance of Foo`, `undefined method \`bar' for #<Foo:0x…>`
  { error: 'NoMethodError', message: new RegExp(String.raw`^undefined method ${RUBY_NAME} for (?!nil\b)`) },
  // Ruby: `undefined local variable or method 'bar' for …`, `uninitialized constant Foo::Bar`
  { error: 'NameError', message: new RegExp(String.raw`^undefined local variable or method ${RUBY_NAME} for `) },
  { error: 'NameError', message: /^uninitialized constant ((?:\w+::)*\w+)$/ },
  // Ruby: `unknown keyword: :strict`
  { error: 'ArgumentError', message: /^unknown keyword: :(\w+)$/ },
];

/** The name an error says is missing (MISSING), with the error; null when it says something else. */
export function missingNameIn({ error, message }: ErrorLine): MissingName | null {
  for (const p of MISSING) {
    const m = p.error === error ? p.message.exec(message) : null;
    if (m) return { name: m[1], error };
  }
  return null;
}
