// Where init writes, checked before it writes: the cape folder option (the one rule, capeFolderRefusal), the folder
// itself (a folder, inside the workspace after links, empty in 'fail-if-exists' mode), each folder made under it
// (still inside the cape folder after links) and which project input files a run would generate. The generator
// (init.ts) and the questionnaire's callers (which check before asking) apply the same checks.

import * as fs from 'fs';
import * as path from 'path';
import { capeFolderRefusal } from '../model/types';
import { isInside } from '../files/pathSafety';
import { ensureDir } from '../files/fsAtomic';
import type { PromptAssets } from './prompts';

export type InitMode = 'fail-if-exists' | 'overwrite' | 'missing-only';

/** True when `p` exists, a broken link included. */
export function lexists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * The project input files (paths inside the cape folder, prompts/inputs.json order) a run in `mode` would generate:
 * every one for 'overwrite', else those missing. Empty means the run writes only generic templates: no answers and
 * no model are needed.
 */
export function inputsToGenerate(workspace: string, capeFolder: string, prompts: PromptAssets, mode: InitMode): string[] {
  const { abs } = resolveCapeDir(path.resolve(workspace), capeFolder);
  return prompts.inputs.map((s) => s.path).filter((p) => mode === 'overwrite' || !lexists(path.join(abs, ...p.split('/'))));
}

/** Throws when the existing folder `capeAbs` resolves (through links) outside the workspace: init never writes there. */
export function checkInsideWorkspace(workspace: string, capeAbs: string): void {
  const capeReal = fs.realpathSync(capeAbs);
  if (!isInside(fs.realpathSync(workspace), capeReal)) {
    throw new Error(`${capeAbs} resolves to ${capeReal}, outside the workspace; refusing to write there`);
  }
}

/**
 * Throws when a run cannot write the cape folder: its name is refused, it exists and is not a folder, it leads outside
 * the workspace, or (in 'fail-if-exists' mode) it already holds files; without a mode, what every mode refuses.
 * initCape checks it first; a caller that asks the questionnaire checks it before asking (before the mode is chosen,
 * then again with it), so no answer is given for a run that cannot write.
 */
export function checkInitTarget(workspace: string, capeFolder: string, mode?: InitMode): void {
  const ws = path.resolve(workspace);
  const { abs, rel } = resolveCapeDir(ws, capeFolder);
  if (!lexists(abs)) return;
  let st: fs.Stats | null = null;
  try {
    st = fs.statSync(abs);
  } catch {
    // a broken link: reported below
  }
  if (!st || !st.isDirectory()) throw new Error(`${abs} exists but is not a folder; move it away and run init again`);
  checkInsideWorkspace(ws, abs);
  if (mode === 'fail-if-exists' && fs.readdirSync(abs).length > 0) {
    throw new Error(
      `${rel}/ already exists in ${ws}. Add only the missing files with \`cape init --missing-only\`, or ` +
        'regenerate every template and input file with `cape init --force` (sessions are never touched); in VS Code, ' +
        '"CAPE: Initialize Project" asks which.',
    );
  }
}

/** The cape folder option checked by the one rule every reader of the folder applies (capeFolderRefusal), and where it is. */
export function resolveCapeDir(workspace: string, capeFolder: string): { abs: string; rel: string } {
  const refused = capeFolderRefusal(capeFolder);
  if (refused) throw new Error(refused);
  return { abs: path.join(workspace, capeFolder), rel: capeFolder };
}

/** Creates `dir` (inside capeAbs) and checks that, after symlinks, it is still inside the real cape folder. */
export async function ensureSafeDir(capeReal: string, dir: string): Promise<void> {
  await ensureDir(dir);
  const real = await fs.promises.realpath(dir);
  if (!isInside(capeReal, real)) {
    throw new Error(`${dir} resolves through a symbolic link to ${real}, outside the cape folder; refusing to write there`);
  }
}
