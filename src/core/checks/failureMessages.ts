// Where a failed test case's own message is in a runner's output, as the test case reader (./testCases.ts) meets it
// line by line, and what it says (./missingNames.ts): a name the test uses was missing, or something else. Only the
// failure's own first message lines are read, never the rest of the output:
//  - the first line that is not blank after the line naming the failed case: node:test's spec reporter's under its
//    `✖`, mocha's after the failure's title in its list of failures, jest's under its `●` header, vitest's under its
//    `FAIL file > name`; RSpec's after its `Failure/Error:` source lines (a class alone on its line, `NoMethodError:`,
//    has the message on the next). A line naming another case says nothing;
//  - node:test's TAP: the `error:` and `name:` of the failed point's YAML block;
//  - pytest's short summary: the message after the case on its line (`FAILED t.py::test_x - AttributeError: …`);
//  - unittest's failure block under its `ERROR: test_x (…)` header: the exception its traceback ends with, the first
//    line at the margin after the last frame (`  File "…"`), so a chained exception's (`During handling of the above
//    exception…`) is the one raised last; the block ends at the next header's `====` or the closing `----` rule.
// A line there that opens an error (`AssertionError: …`) or states an expectation (jest's `expect(received)…`, RSpec's
// `expected: 2`) says something else; any other line says nothing (a runner that writes no message there). Go and
// cargo are not read for a missing name: a test there calling one does not build (./buildFailures.ts). The message
// line read is kept too (FailureRecord.said), cut: a fix request names each failed case with it, wherever the output
// was trimmed — cargo's too, the panic under each `---- name stdout ----` header (its `left:`/`right:` values after),
// and Go's, the test's first log line under its `--- FAIL:` line (under -v, before it: ./goVerboseLogs.ts).
import type { MissingName } from '../model/types';
import { errorLine, missingNameIn, type ErrorLine } from './missingNames';
import { lineWithin } from '../text';
import { GO_TEST_LOG, goVerboseLogs } from './goVerboseLogs';

/**
 * What a failed case's message said: the missing name, or null for something else; absent when no message of it was
 * read. A case named twice (a spec line, then a failure list) keeps the other failure over a missing name.
 */
export interface FailureRecord {
  why?: MissingName | null;
  /** The message's line as the runner wrote it (`AssertionError: 'a' != 'b'`), cut to MESSAGE_CHARS; with `why`. */
  said?: string;
}

/** Characters of a failed case's message line kept (FailureRecord.said). */
export const MESSAGE_CHARS = 240;

/** Records what one message of a failed case said (FailureRecord), and its line when one was read. */
export function recordWhy(target: FailureRecord, why: MissingName | null, said?: string): void {
  if (why !== null && target.why !== undefined) return;
  target.why = why;
  const line = said?.trim();
  if (line) target.said = lineWithin(line, MESSAGE_CHARS);
}

/** A line that states what a test expected, not an error: jest's `expect(received).toBe(expected)`, RSpec's `expected: 2`. */
const EXPECTATION = /^\s*(?:expect(?:\(|\.)|expected\b)/;

/** What a failure's first message line says (see the header); undefined when it is no message. */
function lineSays(line: string): MissingName | null | undefined {
  const e = errorLine(line);
  if (e) return missingNameIn(e);
  return EXPECTATION.test(line) || GO_TEST_LOG.test(line) ? null : undefined;
}

/** What a message given whole says (pytest's summary): a missing name, or null — it is the failure's own; and the message. */
export function messageSays(message: string): Required<FailureRecord> {
  const e = errorLine(message);
  return { why: e ? missingNameIn(e) : null, said: lineWithin(message.trim(), MESSAGE_CHARS) };
}

/** RSpec's line before the failing source: its message follows the first blank line after it. */
const RSPEC_SOURCE = /^\s*Failure\/Error:/;
/** Lines of RSpec's failing source read before its message; past it, no message is looked for. */
const MAX_SOURCE_LINES = 20;
/** A TAP YAML field at the block's indentation: `error: 'x is not a function'`, `name: 'TypeError'`. */
const YAML_FIELD = /^(\s*)(error|name):(.*)$/;
/** Lines of a TAP point's YAML block read; past it, its message is not looked for. */
const MAX_YAML_LINES = 500;

/** A YAML scalar on its line, unquoted (`'it''s'`, `"x"`, `TypeError`); null for a block (`|-`) or nothing. */
function scalar(text: string): string | null {
  const t = text.trim();
  if (/^'.*'$/.test(t)) return t.slice(1, -1).replace(/''/g, "'");
  if (/^".*"$/.test(t)) return t.slice(1, -1);
  return t && !/^[|>]/.test(t) ? t : null;
}

/** A unittest block's rules: `====…` before each header, `----…` under it and before `Ran N tests`. */
const UNITTEST_RULE = /^(?:={20,}|-{20,})$/;
/** A traceback's frame line: `  File "/w/tests/test_a.py", line 8, in test_method`. */
const TRACEBACK_FRAME = /^\s+File "/;
/** Lines of a unittest failure block read; past it, its exception is not looked for. */
const MAX_TRACEBACK_LINES = 2000;

type State =
  | { kind: 'idle' }
  | { kind: 'traceback'; target: FailureRecord; lines: number; ruled: boolean; raised?: (ErrorLine & { line: string }) | null }
  | { kind: 'next'; target: FailureRecord; source?: number }
  | { kind: 'class'; target: FailureRecord; error: string }
  | { kind: 'tap'; target: FailureRecord; indent?: string; lines: number; error?: string | null; name?: string; block?: { open: boolean; words: string[]; chars: number } }
  | { kind: 'more'; target: FailureRecord; said: string; lines: number; values: boolean; label?: boolean }
  | { kind: 'panic'; target: FailureRecord; lines: number; message?: boolean };

/** Lines of a cargo test's captured output read for its panic; past them, its message is not looked for. */
const MAX_PANIC_LINES = 200;
/** Rust 1.73 on: `thread 'tests::it_muls' (493) panicked at src/lib.rs:8:20:`, the message on the next line. */
const PANIC_AT = /^thread '[^']*'(?: \(\d+\))? panicked at \S+:\d+:\d+:$/;
/** Before 1.73: `thread 'tests::it_muls' panicked at 'sum was wrong', src/lib.rs:8:20`. */
const PANIC_INLINE = /^thread '[^']*' panicked at '(.*)', \S+:\d+:\d+$/;
/** A Rust assertion's message, whose `left:` and `right:` values follow it. */
const RUST_ASSERTION = /^assertion .*failed/;

/**
 * A message line that ends in a colon has its words on a line below (Node's assert: `AssertionError [ERR_ASSERTION]:
 * Expected values to be strictly equal:`, a blank line, `1 !== 2`): the first line within MORE_LINES that is not blank,
 * unless it names a place (`at f (a.js:3:1)`, node:test's `test at a.test.js:6:1` of the next failure). Under jest's
 * `expect(received).toBe(expected)` the values are its `Expected: 3` and `Received: 2` lines, when it writes them (an
 * older jest's `Expected value to be:` and `Received:` each with its value on the line below), and under RSpec's
 * `expected: 3` its `got: 2`.
 */
const MORE_LINES = 3;
const PLACE = /^\s*at\s|(?<![\w.-])[\w.-]+\.\w+:\d+/;
/** The lines of the values under an expectation line: jest's `Expected: 3`, `Received: 2`, `Expected substring: "a"`; RSpec's `got: 2`; Rust's `left: 5`, `right: 6`. */
const VALUE_LINE = /^\s*(?:Expected|Received|got|left|right)(?: [a-z]+){0,3}:(?: |$)/;

/** The reader of failed cases' messages (see the header), fed every line of the output before the test case reader reads it. */
export interface FailureMessageReader {
  /** Each line, in order, before the test case reader reads it. */
  line: (line: string) => void;
  /**
   * The test case reader named a failed case whose message may follow its line; `tap`: a TAP point, its YAML block;
   * `traceback`: unittest's failure header, its block; `panic`: cargo's header of a test's captured output; `go`: a
   * Go verdict (its log came before it under -v, else follows it), `name` the test's as the verdict gives it.
   */
  failed: (target: FailureRecord, follows?: Follows, name?: string) => void;
}

/** Where a failed case's message is, after the line naming it (FailureMessageReader.failed). */
export type Follows = 'tap' | 'traceback' | 'panic' | 'go';

/** A reader of failed cases' messages (see the header). */
export function failureMessageReader(): FailureMessageReader {
  let state: State = { kind: 'idle' };
  const goLogs = goVerboseLogs();
  // `below`: the message line was read in the output's flow (not a TAP block's field nor a summary), so its words may
  // go on below it (MORE_LINES)
  const done = (target: FailureRecord, why: MissingName | null | undefined, said?: string, below = false) => {
    if (why !== undefined) recordWhy(target, why, said);
    const more = below && why !== undefined && !!said && !!target.said && (said.trimEnd().endsWith(':') || EXPECTATION.test(said) || RUST_ASSERTION.test(said));
    state = more ? { kind: 'more', target, said: target.said!, lines: 0, values: !said!.trimEnd().endsWith(':') } : { kind: 'idle' };
  };
  const moreLine = (s: Extract<State, { kind: 'more' }>, line: string) => {
    if (!line.trim() && ++s.lines <= MORE_LINES) return;
    // the record's line still the one read (not replaced by another failure's since)
    const own = s.target.said === s.said;
    if (s.values && own && (s.label || VALUE_LINE.test(line))) {
      // the value lines, each added (a label's value from the line below it); the first other line ends them
      const sep = s.label ? '' : s.said.includes(' — ') ? ',' : ' —';
      s.target.said = s.said = lineWithin(`${s.said}${sep} ${line.trim()}`, MESSAGE_CHARS);
      s.label = !s.label && line.trimEnd().endsWith(':');
      s.lines = MORE_LINES; // a blank line after a value ends them
      return;
    }
    if (!s.values && line.trim() && !PLACE.test(line) && own) s.target.said = lineWithin(`${s.said} ${line.trim()}`, MESSAGE_CHARS);
    state = { kind: 'idle' };
  };
  const tapLine = (s: Extract<State, { kind: 'tap' }>, line: string) => {
    if (s.indent === undefined) {
      const open = /^(\s*)---\s*$/.exec(line);
      if (open) s.indent = open[1];
      else state = { kind: 'idle' };
      return;
    }
    if (++s.lines > MAX_YAML_LINES) return done(s.target, undefined);
    if (line.trimEnd() === `${s.indent}...`) {
      const why = s.error === undefined ? undefined : s.error === null || !s.name ? null : missingNameIn({ error: s.name, message: s.error });
      // an error given as a block (`error: |-`, Node's assert) is read for its words only
      const words = s.error ?? s.block?.words.join(' ');
      return done(s.target, why, words ? (s.name ? `${s.name}: ${words}` : words) : undefined);
    }
    // the block's lines: blank, or indented past the fields
    if (s.block?.open) {
      if (!line.trim() || /^\s*/.exec(line)![0].length > s.indent.length) {
        if (line.trim() && s.block.chars < MESSAGE_CHARS) {
          s.block.words.push(line.trim());
          s.block.chars += line.trim().length + 1;
        }
        return;
      }
      s.block.open = false;
    }
    const f = YAML_FIELD.exec(line);
    if (!f || f[1] !== s.indent) return;
    if (f[2] === 'error' && s.error === undefined) {
      s.error = scalar(f[3]);
      if (s.error === null && /^\s*[|>]/.test(f[3])) s.block = { open: true, words: [], chars: 0 };
    }
    else if (f[2] === 'name' && s.name === undefined) s.name = scalar(f[3]) ?? undefined;
  };
  // a cargo test's captured output: its panic line, then (from Rust 1.73) the message on the next line that is not blank
  const panicLine = (s: Extract<State, { kind: 'panic' }>, line: string) => {
    if (++s.lines > MAX_PANIC_LINES) return done(s.target, undefined);
    let m: RegExpExecArray | null;
    if (s.message) {
      if (line.trim()) done(s.target, null, line, true);
    } else if (PANIC_AT.test(line.trim())) s.message = true;
    else if ((m = PANIC_INLINE.exec(line.trim()))) done(s.target, null, m[1]);
  };
  const tracebackLine = (s: Extract<State, { kind: 'traceback' }>, line: string) => {
    if (UNITTEST_RULE.test(line)) {
      // the rule under the header opens the block; the next one closes it
      if (!s.ruled) s.ruled = true;
      else done(s.target, s.raised ? missingNameIn(s.raised) : s.raised, s.raised?.line);
      return;
    }
    if (++s.lines > MAX_TRACEBACK_LINES) return done(s.target, undefined);
    if (TRACEBACK_FRAME.test(line)) s.raised = null; // an exception line may follow the frames
    else if (s.raised === null && !/^\s/.test(line)) {
      const e = errorLine(line);
      s.raised = e ? { ...e, line } : null;
    }
  };
  return {
    line: (line) => {
      goLogs.line(line);
      const s = state;
      if (s.kind === 'tap') return tapLine(s, line);
      if (s.kind === 'traceback') return tracebackLine(s, line);
      if (s.kind === 'more') return moreLine(s, line);
      if (s.kind === 'panic') return panicLine(s, line);
      if (s.kind === 'idle' || !line.trim()) {
        if (s.kind === 'next' && s.source !== undefined) state = { kind: 'next', target: s.target };
        return;
      }
      if (s.kind === 'class') return done(s.target, missingNameIn({ error: s.error, message: line.trim() }), `${s.error}: ${line.trim()}`);
      if (s.source !== undefined) {
        if (++s.source > MAX_SOURCE_LINES) done(s.target, undefined);
        return;
      }
      if (RSPEC_SOURCE.test(line)) {
        state = { kind: 'next', target: s.target, source: 0 };
        return;
      }
      const e = errorLine(line);
      if (e && !e.message) state = { kind: 'class', target: s.target, error: e.error };
      else done(s.target, lineSays(line), line, true);
    },
    failed: (target, follows, name) => {
      // a Go test's log under -v came before its verdict
      const goLog = follows === 'go' && name !== undefined ? goLogs.logOf(name) : undefined;
      if (goLog) return done(target, null, goLog);
      state =
        follows === 'tap'
          ? { kind: 'tap', target, lines: 0 }
          : follows === 'traceback'
            ? { kind: 'traceback', target, lines: 0, ruled: false }
            : follows === 'panic'
              ? { kind: 'panic', target, lines: 0 }
              : { kind: 'next', target };
    },
  };
}

/**
 * The failed cases whose messages said only that a name was missing (failureMessages.ts), with the name. jest's spec
 * line names a failed case by its title alone (`✕ marks it`), its `●` header with its suites (`Option › marks it`),
 * and only the header has the message: a title alone says what every failed header ending in it said, when each said.
 */
export function missingNames(order: readonly string[], state: ReadonlyMap<string, boolean>, whys: ReadonlyMap<string, FailureRecord>): Map<string, MissingName> {
  const headers = new Map<string, string[]>();
  for (const name of order) {
    const at = name.lastIndexOf(' › ');
    if (at <= 0) continue;
    const title = name.slice(at + 3);
    const list = headers.get(title);
    if (list) list.push(name);
    else headers.set(title, [name]);
  }
  const said = (name: string) => (state.get(name) === false ? whys.get(name)?.why : undefined);
  const out = new Map<string, MissingName>();
  for (const name of order) {
    const heads = said(name) === undefined ? (headers.get(name) ?? []) : [];
    const all = heads.length ? heads.map(said) : [said(name)];
    if (state.get(name) === false && all.every((w) => w)) out.set(name, all[0]!);
  }
  return out;
}
