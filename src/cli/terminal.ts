// Questions asked on the terminal, one line per answer: the one line reader of `cape init`'s questionnaire and the
// Cape Master's blocking questions in `cape start` / `cape resume`. The end of the input (Ctrl-D, a closed pipe)
// is an answer of its own (undefined), so no caller waits forever for a line that cannot come.
import * as readline from 'readline';

export interface LineReader {
  /** Writes the prompt, then resolves with the next line (without its end), or undefined at the end of the input. */
  ask(prompt: string): Promise<string | undefined>;
  close(): void;
}

export function lineReader(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): LineReader {
  const rl = readline.createInterface({ input, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  return {
    async ask(prompt) {
      output.write(prompt);
      const next = await lines.next();
      return next.done ? undefined : next.value;
    },
    close: () => rl.close(),
  };
}
