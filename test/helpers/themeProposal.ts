// DevA's dark-mode proposal on a workspace of a package.json alone — src/theme.js and its test file — for the unit
// tests that run the check loop with fail-first (a run that never reaches DevA's tests: checks/notReached.ts), and
// the TSR of its one criterion, "follows the OS theme", whose test is in that file.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { CheckRun, ProposedFile } from '../../src/core';
import { computeTsr, type TsrResult } from '../../src/core/metrics/tsr';

/** A fresh workspace (`prefix` names its temp folder) and the proposal: src/theme.js and test/theme.test.js. */
export function themeProposal(prefix: string): { ws: string; files: ProposedFile[] } {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.writeFileSync(path.join(ws, 'package.json'), '{"name":"w","private":true}\n');
  const files = [
    { path: 'src/theme.js', relPath: 'src/theme.js', content: 'exports.theme = 1;\n', status: 'proposed', action: 'create' },
    { path: 'test/theme.test.js', relPath: 'test/theme.test.js', content: '// follows the OS theme\n', status: 'proposed', action: 'create' },
  ] as ProposedFile[];
  return { ws, files };
}

/** The TSR of the one criterion, its test named in test/theme.test.js, from the checks' last runs and the fail-first runs. */
export function themeTsr(checks: CheckRun[] | null, before: CheckRun[] | null): TsrResult {
  return computeTsr({
    poaOutput: { acceptance_criteria: [{ id: 'AC-1', criterion: 'follows the OS theme' }] },
    devaOutput: { criteria_tests: [{ criterion: 'AC-1', file: 'test/theme.test.js', test: 'follows the OS theme', expect: 'fail' }] },
    checks,
    before,
    fileExists: () => true,
  });
}
