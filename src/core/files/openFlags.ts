// The flags of opening a file CAPE only reads and that must be a plain file: not a link followed (NO_FOLLOW), and not
// a FIFO waited on (NO_WAIT). One place for both, used by the ignore rules (workspace/gitRules.ts) and the
// retrospectives' frontmatter (metrics/history.ts readHead).
import * as fs from 'fs';

/** O_NOFOLLOW where the platform has it: opening a symbolic link fails. */
export const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0;
/** Opening a FIFO for reading waits for a writer, for ever: O_NONBLOCK does not (it changes nothing for a regular file). */
export const NO_WAIT = fs.constants.O_NONBLOCK ?? 0;
