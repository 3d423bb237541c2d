// The init generator: creates a workspace's cape/ folder.
//  1. Copies the generic framework files (prompts/templates → cape/, frontmatter `type: generic`).
//  2. Reads what the workspace's code states (initFacts.ts: manifests, detected check commands, layout, README, the
//     project's guidance files; nothing run, none for a workspace without code) for the decisions and the files
//     prompts/inputs.json marks `facts`; with code, every request reads the `features` answer as the next release's.
//  3. Fixes the shared decisions (prompts/inputs.json `decisions`: name, UI language, stack, hosting, test tooling,
//     budgets, ids…) with one small request from every answer, and stores them in cape/5_sessions/init_decisions.md
//     with the language the files are written in ('missing-only' reuses them, so files written later agree with the
//     ones already there; the CLI's missing-only run given no --lang writes in that language).
//  4. Writes each project input file (prompts/inputs.json `files`) from the answers it needs plus the decisions, with
//     one model call per file, in parallel with bounded concurrency. Each reply is checked (initChecks.ts) and
//     repaired once; each file is written atomically as soon as it is usable, so a cancelled or failed run leaves only
//     complete files; a re-run in 'missing-only' mode fills the gaps.
// Why one decisions request rather than writing the files in dependency order: the order would chain the nine
// calls (architecture before standards before guideline…), while the decisions cost one short call before a single
// parallel wave, and every file — not only the later ones — gets the same values.
// The questionnaire and its answers live in initAnswers.ts, the workspace facts in initFacts.ts, the model requests
// in initRequests.ts, the reply checks in initChecks.ts, the checks of where it writes in initTarget.ts; this file
// runs the generator. Plain Node: used by both the VS Code questionnaire and the CLI.

import * as fs from 'fs';
import * as path from 'path';
import pLimit from 'p-limit';
import { DEFAULT_CAPE_FOLDER, type LlmClient, type LlmRequest } from '../model/types';
import { GENERIC_CAPE_FILES } from './capeLayout';
import type { PromptAssets } from './prompts';
import { writeFrontmatter } from './frontmatter';
import { type InitDecisions, checkDecisionsReply, checkInputReply, decisionsRepairPrompt, formatDecisions, inputRepairPrompt } from './initChecks';
import { ensureDir, writeFileAtomic } from '../files/fsAtomic';
import { checkInitTarget, checkInsideWorkspace, ensureSafeDir, inputsToGenerate, lexists, resolveCapeDir, type InitMode } from './initTarget';
import { normaliseAnswers, type InitAnswers } from './initAnswers';
import { FINISH_LATER, INIT_DECISIONS_FILE, buildDecisionsRequest, buildInitRequest, checkedReply, readExistingInputs, readStoredDecisions } from './initRequests';
import { LlmError } from '../llm/errors';
import { factsText, readWorkspaceFacts, workspaceHasCode, type WorkspaceFacts } from './initFacts';
import { codeSource } from './initFactsCode';
import type { WorkspaceIndex } from '../workspace/workspaceIndex';
import { StepRetryOptions, withStepRetry } from '../llm/retry';

export interface InitProgress {
  done: number;
  total: number;
  /** Workspace-relative path of the file just finished (written or failed). */
  file: string;
}

export interface InitOptions {
  workspace: string;
  /** Workspace-relative folder (default 'cape'). */
  capeFolder?: string;
  /**
   * The questionnaire's answers. Needed only when a project input file is to be generated: a `missing-only` run whose
   * input files all exist (missingInputs() is empty) restores the generic templates without them, and without `llm`.
   */
  answers?: InitAnswers | null;
  llm?: LlmClient | null;
  model: string;
  /** Language of the generated files, e.g. 'English', 'Japanese'. */
  language: string;
  mode: InitMode;
  /** Model calls in flight at once (default 4). */
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (p: InitProgress) => void;
  prompts: PromptAssets;
  /** Output token limit per file (default 8192). A reply cut off at the limit is not written. */
  maxTokens?: number;
  /** Step retry settings for each file's model call (default: withStepRetry's defaults). */
  retry?: Omit<StepRetryOptions, 'signal'>;
  /**
   * The workspace index, for the facts' code map (initFactsCode.ts): VS Code gives its watched one; by default it is
   * opened from its cache file (WorkspaceIndex.open), which warms it for the first session. One that cannot be opened
   * leaves the map out.
   */
  index?: () => Promise<WorkspaceIndex>;
}

export interface InitResult {
  /** Workspace-relative paths written (templates and generated inputs). */
  written: string[];
  /** Workspace-relative paths left alone because they already existed. */
  skipped: string[];
  /** Files that could not be written, with a message saying why (a cancelled run lists the files it did not write). */
  failed: { path: string; error: string }[];
  /** True when the signal aborted the run. */
  cancelled: boolean;
  /** Files whose first reply failed the checks and was repaired by one more request (workspace-relative). */
  repaired: string[];
  /** The shared decisions every file request received (null when no input file was generated). */
  decisions: InitDecisions | null;
  /** What the workspace's code showed, sent with the decisions and the files that take it (null: no code, or no request that takes it sent). */
  facts: WorkspaceFacts | null;
  /** How many requests carried the facts: the decisions request and each file request that takes them (a repair, which repeats its request, not counted). */
  factsRequests: number;
}

/**
 * Creates or completes `<workspace>/<capeFolder>`. Never throws for a single file's failure (see `failed`);
 * throws for bad options, an existing cape folder in 'fail-if-exists' mode, or an unusable workspace.
 */
export async function initCape(opts: InitOptions): Promise<InitResult> {
  const workspace = path.resolve(opts.workspace);
  let wsStat: fs.Stats;
  try {
    wsStat = await fs.promises.stat(workspace);
  } catch {
    throw new Error(`workspace folder not found: ${workspace}`);
  }
  if (!wsStat.isDirectory()) throw new Error(`workspace is not a folder: ${workspace}`);
  const answers = opts.answers ? normaliseAnswers(opts.answers, () => workspaceHasCode(workspace, opts.capeFolder ?? DEFAULT_CAPE_FOLDER)) : null;
  if (!opts.language || !opts.language.trim()) throw new Error('language must be set (e.g. "English")');
  if (!opts.model || !opts.model.trim()) throw new Error('model must be set');
  const concurrency = Math.max(1, Math.floor(opts.concurrency ?? 4) || 1);
  const { abs: capeAbs, rel: capeRel } = resolveCapeDir(workspace, opts.capeFolder ?? DEFAULT_CAPE_FOLDER);
  const wsRel = (capeRelPath: string) => `${capeRel}/${capeRelPath}`;
  checkInitTarget(workspace, capeRel, opts.mode);
  const toGenerate = inputsToGenerate(workspace, capeRel, opts.prompts, opts.mode);
  if (toGenerate.length && (!answers || !opts.llm)) {
    throw new Error(
      `${toGenerate.map(wsRel).join(', ')} ${toGenerate.length === 1 ? 'is' : 'are'} to be written from the questionnaire's answers` +
        `${answers ? ' by a model' : ''}, and ${answers ? 'no model client was given' : 'none were given'}; nothing was written`,
    );
  }
  const llm = opts.llm!;
  await ensureDir(capeAbs);
  checkInsideWorkspace(workspace, capeAbs); // again: made just now, or changed since the first check
  const capeReal = await fs.promises.realpath(capeAbs);

  const result: InitResult = { written: [], skipped: [], failed: [], cancelled: false, repaired: [], decisions: null, facts: null, factsRequests: 0 };
  const overwrite = opts.mode === 'overwrite';
  const target = (capeRelPath: string) => path.join(capeAbs, ...capeRelPath.split('/'));

  const templates = opts.prompts.templates.filter((t) => {
    if (!overwrite && lexists(target(t.relPath))) {
      result.skipped.push(wsRel(t.relPath));
      return false;
    }
    return true;
  });
  const inputs = opts.prompts.inputs.filter((s) => {
    if (!overwrite && lexists(target(s.path))) {
      result.skipped.push(wsRel(s.path));
      return false;
    }
    return true;
  });

  const total = templates.length + inputs.length;
  let done = 0;
  const progress = (capeRelPath: string) => {
    done++;
    try {
      opts.onProgress?.({ done, total, file: wsRel(capeRelPath) });
    } catch {
      // a failing progress callback must not break generation
    }
  };

  /** Writes one file atomically; in non-overwrite modes a file that appeared meanwhile is left alone. */
  const writeOne = async (capeRelPath: string, content: string): Promise<void> => {
    const file = target(capeRelPath);
    await ensureSafeDir(capeReal, path.dirname(file));
    if (!overwrite && lexists(file)) {
      result.skipped.push(wsRel(capeRelPath));
      return;
    }
    await writeFileAtomic(file, content);
    result.written.push(wsRel(capeRelPath));
  };

  const cancelledMessage = `cancelled before this file was written; ${FINISH_LATER}`;

  // 1. Generic templates: copied verbatim.
  for (const t of templates) {
    if (opts.signal?.aborted) {
      result.failed.push({ path: wsRel(t.relPath), error: cancelledMessage });
      continue;
    }
    try {
      await writeOne(t.relPath, t.content);
    } catch (err) {
      result.failed.push({ path: wsRel(t.relPath), error: (err as Error).message });
    }
    progress(t.relPath);
  }

  // 2. The shared decisions an earlier run stored (missing-only), then the workspace facts, read once when a file is to
  // be written: they go with the requests that take them (the decisions request, the files prompts/inputs.json marks
  // `facts`), and that there are any tells every request the `features` answer is the next release's. A workspace that
  // cannot be read whole (a folder it may not list) still gets its files, from the answers.
  const decisionsFile = target(INIT_DECISIONS_FILE);
  let decisions: InitDecisions | null = null;
  let facts: WorkspaceFacts | null = null;
  if (inputs.length > 0 && !opts.signal?.aborted) {
    if (opts.mode === 'missing-only') decisions = await readStoredDecisions(decisionsFile, opts.prompts.decisions);
    const query = [answers!.product, answers!.features].filter(Boolean).join('\n');
    // the parts each file is written from, read for it: their bounds grow with the room the other parts leave
    const sets = inputs.flatMap((s) => (Array.isArray(s.facts) ? [s.facts] : []));
    facts = await readWorkspaceFacts(workspace, capeRel, codeSource(workspace, capeRel, query, opts.index), sets).catch(() => null);
  }
  /** Counts a request built with the facts: the result names them once one was. */
  const sentFacts = (carried: boolean) => {
    if (!carried || !facts) return;
    result.facts = facts;
    result.factsRequests++;
  };

  const requestOptions = {
    answers: answers!, // inputs.length > 0 implies answers (checked above)
    facts,
    language: opts.language,
    model: opts.model,
    prompts: opts.prompts,
    maxTokens: opts.maxTokens,
    signal: opts.signal,
  };
  const call = (req: LlmRequest) => withStepRetry(() => llm.stream(req, () => undefined), { ...opts.retry, signal: opts.signal });
  const isCancel = (err: unknown) => opts.signal?.aborted || (err instanceof LlmError && err.kind === 'cancelled');

  // 3. The shared decisions: the stored ones (step 2), else one request (repaired once).
  let fatal: string | null = null;
  if (inputs.length > 0 && !opts.signal?.aborted) {
    if (!decisions) {
      try {
        const kept = opts.prompts.inputs.filter((s) => !inputs.includes(s)).map((s) => s.path);
        const req = buildDecisionsRequest({ ...requestOptions, existing: await readExistingInputs(kept, target) });
        sentFacts(true);
        decisions = (
          await checkedReply(
            req,
            call,
            (res) => checkDecisionsReply(res.text, opts.prompts.decisions, res.stopReason),
            (problems) => decisionsRepairPrompt(opts.prompts.decisions, problems),
          )
        ).value;
      } catch (err) {
        if (!isCancel(err)) fatal = `the shared decisions could not be fixed: ${(err as Error).message}`;
      }
      if (decisions) {
        const note = 'The shared decisions every generated input file was written with. `init --missing-only` reuses them.';
        // kept for later missing-only runs; if it cannot be stored, this run still uses the decisions
        await ensureSafeDir(capeReal, path.dirname(decisionsFile))
          .then(() => writeFileAtomic(decisionsFile, `${writeFrontmatter({ type: 'init-decisions', language: opts.language })}\n${note}\n\n${formatDecisions(decisions!)}\n`))
          .catch(() => undefined);
      }
    }
    result.decisions = decisions;
  }

  // 4. Input files: one model call each (plus one repair when the reply fails its check), at most `concurrency` at a
  // time (p-limit), started in input order.
  const generate = async (spec: (typeof inputs)[number]): Promise<void> => {
    if (opts.signal?.aborted) {
      result.failed.push({ path: wsRel(spec.path), error: cancelledMessage });
      return;
    }
    if (fatal || !decisions) {
      result.failed.push({ path: wsRel(spec.path), error: `not generated: ${fatal ?? 'cancelled'}` });
      return;
    }
    try {
      const req = buildInitRequest(spec, { ...requestOptions, decisions });
      sentFacts(!!spec.facts && !!facts && factsText(facts, spec.facts === true ? undefined : spec.facts) !== '');
      const { value: content, repaired } = await checkedReply(
        req,
        call,
        (res) => checkInputReply(res.text, spec, res.stopReason, req.maxTokens),
        (problems) => inputRepairPrompt(spec, problems),
      );
      if (opts.signal?.aborted) {
        result.failed.push({ path: wsRel(spec.path), error: cancelledMessage });
        return;
      }
      await writeOne(spec.path, content);
      if (repaired) result.repaired.push(wsRel(spec.path));
    } catch (err) {
      const message = isCancel(err) ? cancelledMessage : `${(err as Error).message}; nothing was written`;
      result.failed.push({ path: wsRel(spec.path), error: message });
      // a bad key or bad configuration will fail every remaining file the same way: stop calling the API
      if (err instanceof LlmError && (err.kind === 'auth' || err.kind === 'config')) fatal = err.message;
    }
    progress(spec.path);
  };
  const limit = pLimit(concurrency);
  await Promise.all(inputs.map((spec) => limit(() => generate(spec))));

  result.cancelled = opts.signal?.aborted ?? false;
  const order = (p: string) => {
    const rel = p.slice(capeRel.length + 1);
    const gi = (GENERIC_CAPE_FILES as readonly string[]).indexOf(rel);
    const ii = opts.prompts.inputs.findIndex((s) => s.path === rel);
    return gi >= 0 ? gi : 100 + (ii >= 0 ? ii : 0);
  };
  result.written.sort((a, b) => order(a) - order(b));
  result.skipped.sort((a, b) => order(a) - order(b));
  result.failed.sort((a, b) => order(a.path) - order(b.path));
  result.repaired.sort((a, b) => order(a) - order(b));
  return result;
}
