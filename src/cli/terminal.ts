// Questions asked on the terminal, one line per answer: the one line reader of `cape init`'s questionnaire and the
// Cape Master's blocking questions in `cape start` / `cape resume`. The end of the input (Ctrl-D, a closed pipe)
// is an answer of its own (undefined), so no caller waits forever for a line that cannot come; so is Ctrl-C, for a
// caller that handles SIGINT itself (its signal aborted): without it, the first Ctrl-C at a question did nothing.
import * as readline from 'readline';

export interface LineReader {
  /**
   * Writes the prompt, then resolves with the next line (without its end), or undefined at the end of the input or
   * once `signal` is aborted.
   */
  ask(prompt: string, signal?: AbortSignal): Promise<string | undefined>;
  close(): void;
}

export function lineReader(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): LineReader {
  const rl = readline.createInterface({ input, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  return {
    async ask(prompt, signal) {
      if (signal?.aborted) return undefined;
      output.write(prompt);
      let onAbort = () => {};
      const aborted = new Promise<undefined>((resolve) => {
        onAbort = () => {
          output.write('\n'); // the prompt's line ends, as a typed answer would have ended it
          resolve(undefined);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      });
      try {
        const next = await Promise.race([lines.next(), aborted]);
        return next === undefined || next.done ? undefined : next.value;
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },
    close: () => rl.close(),
  };
}
