// A check's output, kept within a cap as it arrives (KeptOutput), made useful to DevA and to metrics: colours removed,
// the scratch folder's path removed (paths read workspace-relative), also line by line as a stream arrives (lineFeed),
// trimmed so the lines that name a file and a line come first, and the problems a linter or compiler names (file and
// message, lines aside). The test cases a run names are testCases.ts's.
import { stripVTControlCharacters } from 'util';
import { shorten, sliceWhole } from '../text/cut';
import { cutLine } from './testCases';
import { FILE_LINES_MARK, TRIMMED_MARK } from './trimMarks';
import { fileNamePattern } from './testNames';

/** Characters of a check's output DevA receives per command (the lines naming files first). */
export const DEFAULT_OUTPUT_FOR_MODEL = 6000;

/**
 * A line that names a file and a line: `src/a.ts:12:5`, `src/a.ts(12,5)` (tsc), `Calc.java:[5,52]` (javac through
 * Maven), `at f (src/a.js:10:3)`, `File "a.py", line 3`. The file part needs an extension so "Error: 3" or times like
 * 12:30 do not count. The file part starts where a run of path characters starts (the lookbehind): tried from every
 * character of a long one (a hex dump, a line of minified code), the pattern took time quadratic in its length.
 */
const LOCATION = /(?:(?<![\w@.\\/-])[\w@.\\/-]+\.[A-Za-z][\w]{0,9}(?::\d+|\(\d+,\d+\)|:\[\d+,\d+\]))|(?:File "[^"]+", line \d+)/;

/** Colours off, CRLF → LF, the scratch folder's absolute path (and a trailing separator) removed. */
export function cleanOutput(raw: string, scratchDir?: string): string {
  let text = stripVTControlCharacters(raw).replace(/\r\n?/g, '\n');
  if (scratchDir) {
    for (const prefix of [scratchDir + '/', scratchDir + '\\', scratchDir]) text = text.split(prefix).join(prefix === scratchDir ? '.' : '');
  }
  return text;
}

/**
 * A check's output as it arrives, kept within `cap` characters: its first and its last cap / 2; what lies between is
 * counted and named by a note. Neither cut leaves half of a character (text/cut.ts sliceWhole). The end is kept as the
 * chunks that hold it, and cut once, when read (text()): cut at every chunk, a long output cost its length times the
 * cap in copying.
 */
export class KeptOutput {
  private head = '';
  private tail: string[] = [];
  private tailChars = 0;
  /** Characters written in all. */
  total = 0;

  constructor(private readonly cap: number) {}

  add(chunk: string): void {
    const half = this.cap / 2;
    this.total += chunk.length;
    if (!this.tailChars && this.head.length < half) {
      const part = sliceWhole(chunk, 0, half - this.head.length);
      this.head += part;
      chunk = chunk.slice(part.length);
    }
    if (!chunk) return;
    this.tail.push(chunk);
    this.tailChars += chunk.length;
    // a chunk wholly before the last cap / 2 characters (and one more, to see a pair cut at the border) goes
    while (this.tail.length > 1 && this.tailChars - this.tail[0].length > half) this.tailChars -= this.tail.shift()!.length;
  }

  /** The head, a note of the characters left out (when any were), and the tail. */
  text(): string {
    let tail = this.tail.join('');
    if (tail.length > this.cap / 2) tail = sliceWhole(tail, tail.length - this.cap / 2);
    const left = this.total - this.head.length - tail.length;
    return this.head + (left > 0 ? `\n[… ${left} characters of output left out …]\n` : '') + tail;
  }
}

/** A stream's lines as they arrive: `write` each chunk, `end` when the stream ends (its last line may have no newline). */
export interface LineFeed {
  write(chunk: string): void;
  end(): void;
}

/**
 * Hands a stream's output on line by line as it arrives, cleaned as cleanOutput cleans the whole. A line still
 * unfinished is kept by its two ends (testCases.ts cutLine) once it grows long: a process printing without a newline
 * is held in little memory.
 */
export function lineFeed(onLine: (line: string) => void, scratchDir?: string): LineFeed {
  let rest = '';
  // through its last newline: "a\r\n" is one line, as in cleanOutput
  const hand = (text: string) => {
    const lines = cleanOutput(text, scratchDir).split('\n');
    if (text.endsWith('\n')) lines.pop();
    for (const l of lines) onLine(l);
  };
  return {
    write(chunk) {
      // the new chunk searched, not the unfinished line before it: output written without newlines (a dot reporter,
      // a progress bar) comes in many small chunks
      const at = chunk.lastIndexOf('\n');
      if (at >= 0) {
        hand(rest + chunk.slice(0, at + 1));
        rest = chunk.slice(at + 1);
      } else rest += chunk;
      if (rest.length > 64 * 1024) rest = cutLine(rest);
    },
    end() {
      if (rest) hand(rest);
      rest = '';
    },
  };
}

/**
 * At most `max` characters for the model: first every line that names a file and line (in order, each once, with the
 * line after it, which usually carries the message) — those naming one of `focus` (DevA's proposed files) before the
 * others — then the end of the output (where summaries are), with a note of what was left out (the marks:
 * trimMarks.ts). Short output is returned whole. On a suite that already fails, the old failures' frames came first and
 * filled the room: a Python-Markdown session's fix request showed none of the frames of DevA's two new failures.
 */
export function trimForModel(text: string, max = DEFAULT_OUTPUT_FOR_MODEL, focus: readonly string[] = []): string {
  const clean = text.trimEnd(); // not /\s+$/, tried from every blank of a long run inside the text
  if (clean.length <= max) return clean;
  const lines = clean.split('\n');
  const picked = new Set<number>();
  const shown = new Set<string>(); // a location line repeated (the same stack frame under every failure) shows once
  const head: string[] = [];
  let used = 0;
  const half = Math.floor(max * 0.6);
  const named = focus.flatMap((f) => fileNamePattern(f) ?? []);
  const focused = (line: string) => named.some((re) => re.test(line));
  // the location lines naming DevA's files first (in order), then the others, each pass read only until the room is
  // used; shown in the output's order
  const passes: ((line: string) => boolean)[] = named.length ? [focused, (line) => !focused(line)] : [() => true];
  for (const takes of passes) {
    for (let i = 0; i < lines.length && used < half; i++) {
      if (!LOCATION.test(lines[i]) || shown.has(lines[i].trim()) || !takes(lines[i])) continue;
      shown.add(lines[i].trim());
      for (const k of [i, i + 1]) {
        if (k >= lines.length || picked.has(k)) continue;
        const l = shorten(lines[k], 400);
        if (used + l.length + 1 > half) break;
        picked.add(k);
        used += l.length + 1;
      }
    }
  }
  for (const k of [...picked].sort((a, b) => a - b)) head.push(shorten(lines[k], 400));
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
  if (head.length) parts.push(FILE_LINES_MARK, ...head, '');
  parts.push(`${TRIMMED_MARK}${left} line(s) left out]`, ...tail);
  return parts.join('\n');
}

/** tsc: `src/a.ts(12,5): error TS2322: …` */
// eslint-disable-next-line regexp/no-super-linear-backtracking -- problemKeys reads a run's output for the model, cut to DEFAULT_OUTPUT_FOR_MODEL (6,000) characters
const TSC_PROBLEM = /^(.+?)\(\d+,\d+\):\s*(.+)$/;
/**
 * `src/a.ts:12:5: message` / `src/a.ts:12: message` (gcc style; ESLint's unix and compact formats, many linters). The
 * file starts where a run of path characters starts (the lookbehind, as in LOCATION).
 */
// eslint-disable-next-line regexp/no-super-linear-backtracking -- as TSC_PROBLEM: 6,000 characters at most
const COLON_PROBLEM = /^(.*?(?<![\w@.\\/-])[\w@.\\/-]+\.[A-Za-z]\w{0,9}):\d+(?::\d+)?:?\s+(.+)$/;
/** ESLint's stylish format: the file alone on a line, then `  12:5  error  message  rule` lines. */
const STYLISH_FILE = /^(?:\.\/)?[\w@.\\/-]+\.[A-Za-z]\w{0,9}$/;
// eslint-disable-next-line regexp/no-super-linear-backtracking -- as TSC_PROBLEM: 6,000 characters at most
const STYLISH_PROBLEM = /^\s+\d+:\d+\s+(error|warning)\s+(.+)$/;

/** rustc and clippy: `error[E0308]: mismatched types`, then `  --> src/lib.rs:14:36` on a following line. */
const RUST_PROBLEM = /^(error|warning)(\[\w+\])?: (.+)$/;
const RUST_WHERE = /^\s*--> (.+?):\d+:\d+$/;

/**
 * The problems a linter's or compiler's output names, each as "file: message" without its line and column (DevA's
 * edits shift those): tsc's `file(l,c): …`, `file:l:c: …` (ESLint's unix format, ruff, flake8, mypy, pylint, go
 * vet…), ESLint's stylish blocks, and rustc's `error[…]: …` with its `--> file:l:c` line. In order, each once.
 */
export function problemKeys(text: string): string[] {
  const out = new Set<string>();
  let file = '';
  let rust = ''; // the rustc message whose `-->` line may follow
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    let m: RegExpExecArray | null;
    if ((m = RUST_PROBLEM.exec(line))) rust = `${m[1]}${m[2] ?? ''}: ${m[3]}`;
    else if (rust && (m = RUST_WHERE.exec(line))) {
      out.add(`${m[1]}: ${rust}`);
      rust = '';
    } else if ((m = STYLISH_PROBLEM.exec(line)) && file) out.add(`${file}: ${m[1]} ${m[2].replace(/\s{2,}/g, ' ')}`);
    else if ((m = TSC_PROBLEM.exec(line.trim())) || (m = COLON_PROBLEM.exec(line.trim()))) out.add(`${m[1].trim()}: ${m[2].trim()}`);
    else if (STYLISH_FILE.test(line.trim())) file = line.trim().replace(/^\.\//, '');
  }
  return [...out];
}
