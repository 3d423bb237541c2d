// A CMake file's arguments one per line joined onto their command's line, for init's quote of a CMakeLists.txt by
// its head (cape/initFactsManifests.ts): an init trial on cJSON got its compiler flags one per line — `list(APPEND
// custom_compiler_flags`, then `-std=c89`, `-pedantic`, … — and the head ended fifteen flags in, so the standards file
// listed those and guessed the rest. Only a line that is one word (a flag, a file, a variable) inside an open
// command's parentheses is joined; a comment, a quoted string and a line of several words stay as they are.

/** The most characters a joined line grows to before the next word starts a line of its own. */
const JOINED_LINE_CHARS = 300;

/** One argument alone on its line: no blank inside, no comment, no quote, no parenthesis. */
const ONE_WORD = /^[^\s#"()]+$/;

/** `text` with each run of one-word argument lines inside a command's parentheses joined onto the line before. */
export function joinCMakeArguments(text: string): string {
  const out: string[] = [];
  let depth = 0;
  for (const line of text.split(/\r?\n/)) {
    const word = line.trim();
    const last = out.length - 1;
    if (depth > 0 && ONE_WORD.test(word) && last >= 0 && out[last].length + word.length < JOINED_LINE_CHARS) {
      out[last] += ` ${word}`;
      continue;
    }
    out.push(line);
    // the parentheses the line leaves open, outside its comment and quoted strings
    const unquoted = line.replace(/"(?:[^"\\]|\\.)*"/g, '""');
    const hash = unquoted.indexOf('#');
    const code = hash < 0 ? unquoted : unquoted.slice(0, hash);
    for (const c of code) depth = Math.max(0, depth + (c === '(' ? 1 : c === ')' ? -1 : 0));
  }
  return out.join('\n');
}
