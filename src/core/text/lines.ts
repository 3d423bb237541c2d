// A file's lines as read_file numbers them and excerpts quote them: split at '\n' (a '\r' stays with its line, so a
// CRLF file's lines keep their bytes), and a final newline ends the last line rather than starting an empty one.

/** The lines of `text`, 1-based line N at index N - 1. */
export function fileLines(text: string): string[] {
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

/** How many lines fileLines(text) gives, without splitting the text. */
export function lineCount(text: string): number {
  let n = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) n++;
  return text.endsWith('\n') ? n : n + 1;
}
