// A check's output, made useful to DevA and to metrics: colours removed, the scratch folder's path removed (paths
// read workspace-relative), trimmed so the lines that name a file and a line come first, and the test cases the
// common reporters name (mocha / jest / vitest / node:test spec output and TAP) recognised as passed or failed.
import { stripVTControlCharacters } from 'util';
import type { TestCaseResult } from './types';
import { shorten } from '../text/cut';

/** Characters of a check's output DevA receives per command (the lines naming files first). */
export const DEFAULT_OUTPUT_FOR_MODEL = 6000;

/**
 * A line that names a file and a line: `src/a.ts:12:5`, `src/a.ts(12,5)` (tsc), `at f (src/a.js:10:3)`,
 * `File "a.py", line 3`. The file part needs an extension so "Error: 3" or times like 12:30 do not count.
 */
const LOCATION = /(?:[\w@.\\/-]+\.[A-Za-z][\w]{0,9}(?::\d+|\(\d+,\d+\)))|(?:File "[^"]+", line \d+)/;

/** Colours off, CRLF → LF, the scratch folder's absolute path (and a trailing separator) removed. */
export function cleanOutput(raw: string, scratchDir?: string): string {
  let text = stripVTControlCharacters(raw).replace(/\r\n?/g, '\n');
  if (scratchDir) {
    for (const prefix of [scratchDir + '/', scratchDir + '\\', scratchDir]) text = text.split(prefix).join(prefix === scratchDir ? '.' : '');
  }
  return text;
}

/** How trimForModel marks an output it cut (what wasTrimmed looks for). */
const TRIMMED_MARK = '[end of the output; ';

/** Whether trimForModel cut this output (then lines of it are missing). */
export function wasTrimmed(output: string): boolean {
  return output.includes(TRIMMED_MARK);
}

/**
 * At most `max` characters for the model: first every line that names a file and line (in order, each with the
 * line after it, which usually carries the message), then the end of the output (where summaries are), with a
 * note of what was left out. Short output is returned whole.
 */
export function trimForModel(text: string, max = DEFAULT_OUTPUT_FOR_MODEL): string {
  const clean = text.replace(/\s+$/, '');
  if (clean.length <= max) return clean;
  const lines = clean.split('\n');
  const picked = new Set<number>();
  const head: string[] = [];
  let used = 0;
  const half = Math.floor(max * 0.6);
  for (let i = 0; i < lines.length && used < half; i++) {
    if (!LOCATION.test(lines[i])) continue;
    for (const k of [i, i + 1]) {
      if (k >= lines.length || picked.has(k)) continue;
      const l = shorten(lines[k], 400);
      if (used + l.length + 1 > half) break;
      picked.add(k);
      head.push(l);
      used += l.length + 1;
    }
  }
  const tail: string[] = [];
  let room = max - used - 120;
  for (let i = lines.length - 1; i >= 0 && room > 0; i--) {
    if (picked.has(i)) continue;
    const l = shorten(lines[i], 400);
    if (l.length + 1 > room) break;
    tail.unshift(l);
    room -= l.length + 1;
  }
  const left = lines.length - head.length - tail.length;
  const parts: string[] = [];
  if (head.length) parts.push('[lines naming files]', ...head, '');
  parts.push(`${TRIMMED_MARK}${left} line(s) left out]`, ...tail);
  return parts.join('\n');
}

/** tsc: `src/a.ts(12,5): error TS2322: …` */
const TSC_PROBLEM = /^(.+?)\(\d+,\d+\):\s*(.+)$/;
/** `src/a.ts:12:5: message` / `src/a.ts:12: message` (gcc style; ESLint's unix and compact formats, many linters) */
const COLON_PROBLEM = /^(.*?[\w@.\\/-]+\.[A-Za-z]\w{0,9}):\d+(?::\d+)?:?\s+(.+)$/;
/** ESLint's stylish format: the file alone on a line, then `  12:5  error  message  rule` lines. */
const STYLISH_FILE = /^(?:\.\/)?[\w@.\\/-]+\.[A-Za-z]\w{0,9}$/;
const STYLISH_PROBLEM = /^\s+\d+:\d+\s+(error|warning)\s+(.+)$/;

/**
 * The problems a linter's or compiler's output names, each as "file: message" without its line and column (DevA's
 * edits shift those): tsc's `file(l,c): …`, `file:l:c: …`, and ESLint's stylish blocks. In order, each once.
 */
export function problemKeys(text: string): string[] {
  const out = new Set<string>();
  let file = '';
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\s+$/, '');
    let m: RegExpExecArray | null;
    if ((m = STYLISH_PROBLEM.exec(line)) && file) out.add(`${file}: ${m[1]} ${m[2].replace(/\s{2,}/g, ' ')}`);
    else if ((m = TSC_PROBLEM.exec(line.trim())) || (m = COLON_PROBLEM.exec(line.trim()))) out.add(`${m[1].trim()}: ${m[2].trim()}`);
    else if (STYLISH_FILE.test(line.trim())) file = line.trim().replace(/^\.\//, '');
  }
  return [...out];
}

const DURATION = /\s*\((?:\d+(?:\.\d+)?\s*(?:ms|s|m))\)\s*$/;
const PASS = /^\s*(?:✓|✔|√)\s+(.+?)\s*$/;
const FAIL = /^\s*(?:✕|✖|×|✗)\s+(.+?)\s*$/;
const MOCHA_FAIL = /^\s{2,}\d+\)\s+(.+?)\s*$/;
const TAP = /^\s*(not )?ok \d+(?:\s+-)?\s+(.+?)\s*$/;
/** node:test's TAP reporter marks a describe() block in the point's YAML block. */
const TAP_SUITE = /^\s+type:\s*'?suite'?\s*$/;

/** A reported test case is the named test: the same name, or one within the other (reporters prefix suites). */
export function sameTestName(reported: string, named: string): boolean {
  const a = reported.trim().toLowerCase();
  const b = named.trim().toLowerCase();
  return b.length >= 4 && (a === b || a.includes(b) || (a.length >= 4 && b.includes(a)));
}

/**
 * Test cases named in a run's output, by the spec reporters of mocha, jest, vitest and node:test (✓ / ✔ passed,
 * ✕ / ✖ / × failed, mocha's "  1) name" failed) and TAP (`ok 1 - name` / `not ok 2 - name`, skips and todos left
 * out; a TAP point whose YAML block says `type: 'suite'` — node:test's describe() — is a group, not a test case). A
 * name reported both ways counts as failed. Absent (undefined) when nothing was recognised.
 */
export function parseTestCases(text: string): TestCaseResult[] | undefined {
  const order: string[] = [];
  const state = new Map<string, boolean>();
  const note = (raw: string, passed: boolean) => {
    const name = raw.replace(DURATION, '').replace(/:$/, '').trim();
    if (!name || name.length > 500) return;
    if (!state.has(name)) order.push(name);
    state.set(name, passed && state.get(name) !== false);
  };
  const found: { name: string; passed: boolean; suite?: boolean }[] = [];
  let lastTap: (typeof found)[number] | null = null; // the TAP point whose YAML block the lines may still be in
  let mochaSummary = false; // after mocha's "N failing" the numbered items name suites, not single tests
  for (const line of text.split('\n')) {
    let m: RegExpExecArray | null;
    if (/^\s*\d+ failing\b/.test(line)) mochaSummary = true;
    if ((m = TAP.exec(line))) {
      lastTap = null;
      if (/#\s*(skip|todo)\b/i.test(m[2])) continue;
      lastTap = { name: m[2].replace(/\s+#.*$/, ''), passed: !m[1] };
      found.push(lastTap);
    } else if (lastTap && TAP_SUITE.test(line)) lastTap.suite = true;
    else if (/^\s*# Subtest:/.test(line)) lastTap = null;
    else if ((m = PASS.exec(line))) found.push({ name: m[1], passed: true });
    else if ((m = FAIL.exec(line))) found.push({ name: m[1], passed: false });
    else if (!mochaSummary && (m = MOCHA_FAIL.exec(line))) found.push({ name: m[1], passed: false });
  }
  for (const f of found) if (!f.suite) note(f.name, f.passed);
  if (!order.length) return undefined;
  return order.map((name) => ({ name, passed: state.get(name)! }));
}
