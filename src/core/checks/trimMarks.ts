// The marks trimForModel (output.ts) writes among a run's lines when it cuts an output — the heading of the lines
// naming files, and the note of how many lines it left out — and what reads them: whether an output was cut
// (wasTrimmed: baseline.ts compares no cut output) and whether a line is a mark rather than one of the run's own
// (isTrimMark: verdict.ts's firstErrorLine). Apart from output.ts, which imports Node's util, because the webview
// bundles verdict.ts: pure.

/** The line trimForModel puts above the lines naming a file and a line it keeps first. */
export const FILE_LINES_MARK = '[lines naming files]';

/** How trimForModel's note of what it left out starts (then the count of lines and `]`). */
export const TRIMMED_MARK = '[end of the output; ';

/** Whether trimForModel cut this output (then lines of it are missing). */
export function wasTrimmed(output: string): boolean {
  return output.includes(TRIMMED_MARK);
}

/** Whether a line of a run's output is one of trimForModel's marks, not a line the run wrote. */
export function isTrimMark(line: string): boolean {
  const text = line.trim();
  return text.startsWith(FILE_LINES_MARK) || text.startsWith(TRIMMED_MARK);
}
