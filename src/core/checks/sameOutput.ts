// Two runs of one command compared by what they printed (baseline.ts, for failures that name neither a test case nor
// a problem: a tool missing, a package manager refusing to start): what differs between any two runs of the same
// command is set aside — durations and timings, timestamps and clock times, process ids, ports, the paths of
// temporary folders (each run's own scratch copy is already left out of its output: output.ts cleanOutput) — and the
// rest must match line for line. A version, a count or a line number stays: the same tool prints the same.
import * as fs from 'fs';
import * as os from 'os';
import { escapeRegExp } from '../text/regexp';

/** What sameOutput sets aside, in words (the fix request says so). */
export const NOISE_ASIDE = 'timings, process ids, ports and temporary paths aside';

/** What stands for a part set aside, so "took <time>" still reads as what it was. */
const MASKS: readonly (readonly [RegExp, string])[] = [
  // ISO dates, with a time when there is one: 2026-12-05, 2026-12-05T23:43:03.453Z, 2026-12-05 23:43:03+09:00
  [/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?/g, '<time>'],
  // clock times: 23:43:03, 07:01:59.001
  [/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, '<time>'],
  // durations: 840ms, 1.52s, 4.1 s, 3 seconds, 2 min
  [/\b\d+(?:[.,]\d+)?\s?(?:ns|µs|us|ms|s|secs?|seconds?|mins?|minutes?)\b/g, '<time>'],
  // process ids: (node:4121), pid 4121, PID: 4121
  [/\((node|deno|bun):\d+\)/g, '($1:<pid>)'],
  [/\bpid\b[\s:=#]{0,3}\d+/gi, 'pid <pid>'],
  // ports: localhost:53011, 127.0.0.1:53011, [::1]:53011, port 53011
  [/\b(localhost|127\.0\.0\.1|0\.0\.0\.0)(:)\d{1,5}\b/gi, '$1$2<port>'],
  [/(\[::1?\]):\d{1,5}\b/g, '$1:<port>'],
  [/\bport\s\d{1,5}\b/gi, 'port <port>'],
];

/** The temporary folders a run's paths may lie in: the OS's (as given and as resolved) and the usual ones. */
function tempRoots(): string[] {
  const dir = os.tmpdir();
  let real = dir;
  try {
    real = fs.realpathSync(dir);
  } catch {
    /* a temp dir that is gone: as given */
  }
  return [...new Set([dir, real, '/tmp', '/private/tmp', '/var/folders', '/private/var/folders'])].filter((d) => d.length > 1).sort((a, b) => b.length - a.length);
}

let tempPathsRe: RegExp | undefined;

/**
 * A path under a temporary folder, to its end (a blank, a quote, a bracket or the line's end): built once, the temp
 * folder resolved once per process, not per comparison.
 */
function tempPaths(): RegExp {
  return (tempPathsRe ??= new RegExp(`(?:${tempRoots().map(escapeRegExp).join('|')})(?![\\w.-])(?:[\\\\/][^\\s'"\`()\\[\\]<>]*)?`, 'g'));
}

/** A run's output with what differs between two runs of the same command set aside (see the header), lines trimmed at the end. */
export function withoutRunNoise(output: string): string {
  let text = output.replace(tempPaths(), '<tmp>');
  for (const [re, by] of MASKS) text = text.replace(re, by);
  return text
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .trim();
}

/**
 * Whether two outputs of the same command say the same, what differs between any two runs aside (withoutRunNoise).
 * Two silent runs do not: an output that says nothing tells nothing of why the command failed (a bare assertion
 * script failing on the proposal as on the unchanged code may fail for another reason).
 */
export function sameOutput(a: string, b: string): boolean {
  const said = withoutRunNoise(a);
  return said !== '' && said === withoutRunNoise(b);
}
