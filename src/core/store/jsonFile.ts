// The store's JSON files (step records, session states): how they are written (two-space indent, final newline) and
// read back (a damaged file, or one nested deeper than any file CAPE writes, is a StoreError naming it; a missing one
// stays ENOENT so callers can tell "none").
import { readTextFile } from '../files/fsAtomic';
import { FILE_DEPTH, parseJsonWithin, TooDeepError } from '../text/nesting';
import { StoreError } from './records';

/** The text of a JSON file of the store. */
export function jsonFileText(body: unknown): string {
  return JSON.stringify(body, null, 2) + '\n';
}

/** Reads and parses a JSON file; ENOENT is rethrown as is, any other failure is a StoreError naming the file. */
export async function readJsonFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readTextFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw err;
    throw new StoreError((err as Error).message, file);
  }
  try {
    return parseJsonWithin(text, FILE_DEPTH);
  } catch (err) {
    if (err instanceof TooDeepError) throw new StoreError(`${file} ${err.message}, more than any file CAPE writes; the file may be damaged.`, file);
    throw new StoreError(`${file} is not valid JSON (${(err as Error).message}); the file may be damaged.`, file);
  }
}

/** readJsonFile, with `undefined` for a file that does not exist (a record not written yet). */
export async function readJsonFileIfAny(file: string): Promise<unknown> {
  try {
    return await readJsonFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
