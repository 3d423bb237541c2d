// The smallest workspace a unit test runs the checks loop on: src/calc.js alone, and DevA's proposal of a new version
// of it (the test's check command reads the file's exports to decide what it prints and how it exits).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { ProposedFile } from '../../src/core';

/** A new temporary workspace whose src/calc.js exports `add`. */
export function calcWorkspace(): string {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-unit-calc-'));
  fs.mkdirSync(path.join(ws, 'src'));
  fs.writeFileSync(path.join(ws, 'src', 'calc.js'), 'exports.add = (a, b) => a + b;\n');
  return ws;
}

/** DevA's proposal: src/calc.js with `content`. */
export function calcProposal(content: string): ProposedFile[] {
  return [{ path: 'src/calc.js', relPath: 'src/calc.js', content, status: 'proposed', action: 'modify' }] as ProposedFile[];
}
