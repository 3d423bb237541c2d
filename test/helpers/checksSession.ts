// DevA's replies for the checks tests on the calc workspace (test/checks/workspace), used by the CLI and e2e tests:
// a first proposal that leaves a BUG marker (its check fails naming src/calc.js:4), and a fix that edits the proposed
// version of the file (its SEARCH exists only in the proposal, not on disk); a proposal whose <edit> does not match
// the file, and its repair.
import * as fs from 'fs';
import { envelopeReply } from './envelopes';

export function devaReply(taskId: string, voice: string, blocks: string): string {
  const output = {
    architecture_decisions: [],
    file_list: [
      { path: 'src/calc.js', action: 'modify' },
      { path: 'src/mul.js', action: 'create' },
    ],
    test_strategy: 'npm test',
    departures: [],
    open_questions: [],
  };
  const ass = { score: 4, positive: 'Small change.', improvement: 'none', context_adequate: true };
  return envelopeReply('DevA', { taskId, voice, output, references: ['POA'], ass }, blocks + '\n<summary>src/calc.js — mul exported; src/mul.js — multiplication</summary>\n');
}

/** DevA's reply adding multiplication: an <edit> of src/calc.js adding `mulLine` after `sub`, and src/mul.js holding `mulFile`. */
export function mulProposal(taskId: string, mulLine: string, mulFile: string): string {
  return devaReply(
    taskId,
    'I added multiplication.',
    ['<edit path="src/calc.js">', '<<<<<<< SEARCH', 'exports.sub = (a, b) => a - b;', '=======', 'exports.sub = (a, b) => a - b;', mulLine, '>>>>>>> REPLACE', '</edit>', '<file path="src/mul.js">', mulFile, '</file>'].join('\n'),
  );
}

/** DevA's first reply: an <edit> of src/calc.js that leaves a BUG marker on line 4, and a new src/mul.js. */
export function firstProposal(taskId: string): string {
  return mulProposal(taskId, "exports.mul = require('./mul').mul; // BUG: check the import", 'exports.mul = (a, b) => a * b;');
}

/** The fix: an <edit> against the proposed version of src/calc.js that removes the marker. */
export const FIX_OK = [
  'The marker was mine; removed.',
  '<edit path="src/calc.js">',
  '<<<<<<< SEARCH',
  "exports.mul = require('./mul').mul; // BUG: check the import",
  '=======',
  "exports.mul = require('./mul').mul;",
  '>>>>>>> REPLACE',
  '</edit>',
].join('\n');

/** DevA's reply whose <edit> of src/calc.js does not match the file (its SEARCH is not there): a repair request follows. */
export function strayEditProposal(taskId: string): string {
  return devaReply(
    taskId,
    'I added multiplication.',
    [
      '<edit path="src/calc.js">',
      '<<<<<<< SEARCH',
      'exports.subtract = (a, b) => a - b;',
      '=======',
      'exports.subtract = (a, b) => a - b;',
      "exports.mul = require('./mul').mul;",
      '>>>>>>> REPLACE',
      '</edit>',
      '<file path="src/mul.js">',
      'exports.mul = (a, b) => a * b;',
      '</file>',
    ].join('\n'),
  );
}

/** The repair of strayEditProposal's hunk: the SEARCH the file has. */
export const REPAIRED_EDIT = [
  '<edit path="src/calc.js">',
  '<<<<<<< SEARCH',
  'exports.sub = (a, b) => a - b;',
  '=======',
  'exports.sub = (a, b) => a - b;',
  "exports.mul = require('./mul').mul;",
  '>>>>>>> REPLACE',
  '</edit>',
].join('\n');

/** Whether `pid` runs now (a killed process waiting to be reaped, a zombie, does not). */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return process.platform !== 'linux';
  }
}

/** Whether `pid` still runs after waiting up to `ms` (a killed process waiting to be reaped counts as ended). */
export async function runningAfter(pid: number, ms: number): Promise<boolean> {
  const running = () => processRunning(pid);
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) if (!running()) return false;
  return running();
}

