// `cape context`: what a step would receive of the workspace before any tool call, in rank order, so a person can
// see what will be sent to the model before it is sent.
//
//   cape context --workspace DIR --objective TEXT [--step deva|da] [--budget CHARS] [--cape-folder NAME] [--json]
//
// The index is kept between runs in the user's cache folder (see core/workspace/workspaceIndex.ts) and brought up to
// date from file mtimes, so a warm run reads only what changed. --json prints one line:
//   {"files":[{"path","chars","whole","excerpts"?:[{"start","end"}]}],"mapChars","totalChars"}
// (excerpts: the 1-based, inclusive line ranges sent of a large file that is not sent whole)
import * as fs from 'fs';
import * as path from 'path';
import { parseArgs } from 'util';
// From the modules themselves, not the '../core' barrel: dist/cli.js holds only what this command and the
// dispatcher use.
import { contextSummary, DEFAULT_WORKSPACE_BUDGET, excerptLines, packedForm, packWorkspace, type ContextStep } from '../core/workspace/pack';
import { WorkspaceIndex } from '../core/workspace/workspaceIndex';
import { capeFolderRefusal } from '../core/model/types';
import { capeFolderFlag } from './flags';

export const CONTEXT_USAGE = 'cape context --workspace DIR --objective TEXT [--step deva|da] [--budget CHARS] [--cape-folder NAME] [--json]';

function fail(stderr: NodeJS.WritableStream, message: string): number {
  stderr.write(`cape: ${message}\nUsage: ${CONTEXT_USAGE}\n`);
  return 2;
}

export async function cmdContext(argv: string[], stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream): Promise<number> {
  let values: { workspace?: string; objective?: string; step?: string; budget?: string; json?: boolean; 'cape-folder'?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        workspace: { type: 'string' },
        objective: { type: 'string' },
        step: { type: 'string' },
        budget: { type: 'string' },
        'cape-folder': { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    return fail(stderr, (e as Error).message);
  }
  if (values.help) {
    stdout.write(`Usage: ${CONTEXT_USAGE}\n`);
    return 0;
  }
  if (!values.workspace) return fail(stderr, '--workspace DIR is required.');
  const ws = path.resolve(values.workspace);
  let wsStat: fs.Stats | undefined;
  try {
    wsStat = fs.statSync(ws, { throwIfNoEntry: false });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOTDIR') return fail(stderr, `The workspace ${ws} cannot be opened (${code ?? (e as Error).message}).`);
    // a file where a folder of the path should be
  }
  if (!wsStat) return fail(stderr, `The workspace ${ws} does not exist.`);
  if (!wsStat.isDirectory()) return fail(stderr, `The workspace ${ws} is a file, not a folder: give the folder that holds the project.`);
  const objective = values.objective?.trim();
  if (!objective) return fail(stderr, '--objective TEXT is required (what the session is about).');
  const step = (values.step ?? 'deva').toLowerCase();
  if (step !== 'deva' && step !== 'da') return fail(stderr, `--step takes deva or da (got "${values.step}"); POA and CM receive no workspace files.`);
  let budget = DEFAULT_WORKSPACE_BUDGET[step as ContextStep];
  if (values.budget !== undefined) {
    const given = Number(values.budget);
    if (!/^\d+$/.test(values.budget.trim()) || given <= 0) {
      return fail(stderr, `--budget takes a positive whole number of characters, in digits (got "${values.budget}"; the default is ${budget}).`);
    }
    budget = given;
    if (!Number.isSafeInteger(budget)) return fail(stderr, `--budget takes at most ${Number.MAX_SAFE_INTEGER} characters (got "${values.budget}").`);
  }
  const capeFolder = capeFolderFlag(values['cape-folder']);
  const refused = capeFolderRefusal(capeFolder);
  if (refused) return fail(stderr, `--cape-folder: ${refused}`);

  const t0 = Date.now();
  // a one-off query: the text index's postings are read from the cache file for the objective's terms only
  const { index, stats, fromCache, cacheDamaged } = await WorkspaceIndex.open(ws, { capeFolder, lazy: true });
  const ctx = packWorkspace(index, { objective }, { step: step as ContextStep, budget });
  const ms = Date.now() - t0;
  stderr.write(
    `cape: ${index.size} files indexed (${fromCache ? `cache, ${stats.read} re-read, ${stats.removed} gone` : `built${cacheDamaged ? ' again: the cache file was damaged' : ''}, ${stats.read} read`}) · ${ms} ms\n`,
  );
  if (values.json) {
    stdout.write(JSON.stringify({ files: ctx.files.map((f) => ({ path: f.path, chars: f.chars, whole: f.whole, ...(f.excerpts ? { excerpts: f.excerpts } : {}) })), mapChars: ctx.mapChars, totalChars: ctx.totalChars }) + '\n');
    return 0;
  }
  stdout.write(`${step === 'deva' ? 'DevA' : 'DA'} would receive ${ctx.totalChars} of ${budget} characters: ${contextSummary(ctx)}.\n`);
  ctx.files.forEach((f, i) =>
    stdout.write(`${String(i + 1).padStart(4)}  ${packedForm(f).padEnd(8)} ${String(f.chars).padStart(7)}  ${f.path}${f.excerpts ? ` (${excerptLines(f.excerpts)})` : ''}\n`),
  );
  return 0;
}

