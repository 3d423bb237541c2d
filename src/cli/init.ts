// `cape init`: the questionnaire (an answers file, or asked on a terminal) → the cape/ folder.
import * as path from 'path';
import {
  readTextFile,
  initQuestions,
  workspaceHasCode,
  initCape,
  checkInitTarget,
  inputsToGenerate,
  parseAnswersFile,
  type InitAnswers,
  defaultPromptsDir,
  loadPromptAssets,
  DEFAULT_INIT_MODEL,
  INIT_DECISIONS_FILE,
  readStoredLanguage,
  describeFacts,
} from '../core';
import { type Parsed, UsageError, capeFolderFlag, requireWorkspace } from './flags';
import { clientFrom } from './settings';
import { lineReader } from './terminal';

/**
 * The questionnaire on the terminal: each question in turn, worded for a workspace with or without code
 * (initQuestions), a required one again until answered. The end of the input before the last answer stops with a
 * usage error (nothing is written). Exported for tests.
 */
export async function askInitQuestions(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, hasCode: boolean): Promise<InitAnswers> {
  const reader = lineReader(input, output);
  const answers: Record<string, string> = {};
  try {
    for (const q of initQuestions(hasCode)) {
      let a: string | undefined = '';
      do {
        a = (await reader.ask(`${q.prompt}${q.required ? '' : ' (optional)'}: `))?.trim();
        if (a === undefined) throw new UsageError(`The questionnaire ended before "${q.prompt}" was answered: nothing was written. Run cape init again, or pass the answers with --answers FILE.`);
      } while (q.required && !a);
      answers[q.id] = a;
    }
  } finally {
    reader.close();
  }
  return answers as unknown as InitAnswers;
}

export async function cmdInit(flags: Parsed['flags'], env: NodeJS.ProcessEnv, stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream): Promise<number> {
  const workspace = requireWorkspace(flags);
  if (flags.force && flags['missing-only']) {
    throw new UsageError('Give --force (regenerate every file of cape/) or --missing-only (add only the missing ones), not both.');
  }
  const mode = flags.force ? 'overwrite' : flags['missing-only'] ? 'missing-only' : 'fail-if-exists';
  const capeFolder = capeFolderFlag(flags['cape-folder']);
  const prompts = loadPromptAssets(defaultPromptsDir());
  // the questionnaire and the model are needed only for project input files to generate: restoring the generic
  // templates of a cape/ whose input files all exist asks nothing and needs no key
  let needed: string[];
  try {
    needed = inputsToGenerate(workspace, capeFolder, prompts, mode);
  } catch (e) {
    throw new UsageError(`--cape-folder: ${(e as Error).message}`);
  }
  // an existing cape/ is refused before the answers, the questionnaire or a key are asked for
  checkInitTarget(workspace, capeFolder, mode);
  let answers: InitAnswers | null = null;
  if (typeof flags.answers === 'string') {
    const file = path.resolve(flags.answers);
    let text: string;
    try {
      text = await readTextFile(file);
    } catch (e) {
      throw new UsageError(`--answers: ${(e as Error).message}`);
    }
    try {
      answers = parseAnswersFile(text, () => workspaceHasCode(workspace, capeFolder));
    } catch (e) {
      throw new UsageError(`--answers ${file}: ${e instanceof Error ? e.message : String(e)}`);
    }
  } else if (needed.length) {
    if (!process.stdin.isTTY) {
      throw new UsageError(
        `stdin is not a terminal: pass the questionnaire answers with --answers FILE (JSON or YAML); they are needed to write ${needed.length === prompts.inputs.length ? 'the project input files' : needed.map((p) => `${capeFolder}/${p}`).join(', ')}.`,
      );
    }
    answers = await askInitQuestions(process.stdin, process.stderr, workspaceHasCode(workspace, capeFolder));
  }
  const llm = needed.length ? (await clientFrom(flags, env, stderr)).client : null;
  const res = await initCape({
    workspace,
    capeFolder,
    answers,
    llm,
    model: (flags['init-model'] as string) ?? DEFAULT_INIT_MODEL,
    // a missing-only run writes in the language of the files it keeps, unless told otherwise
    language:
      (flags.lang as string | undefined) ??
      (mode === 'missing-only' ? await readStoredLanguage(path.join(workspace, capeFolder, INIT_DECISIONS_FILE)) : null) ??
      'English',
    mode,
    prompts,
    onProgress: (p) => stderr.write(`  [${p.done}/${p.total}] ${p.file}\n`),
  });
  if (res.facts) stderr.write(`  ${describeFacts(res.facts, res.factsRequests)}\n`);
  for (const f of res.repaired) stderr.write(`↻ ${f}: the first reply failed its check; repaired by one more request\n`);
  for (const f of res.failed) stderr.write(`✗ ${f.path}: ${f.error}\n`);
  if (flags.json) stdout.write(JSON.stringify(res) + '\n');
  else stdout.write(`cape/ ready: ${res.written.length} written, ${res.skipped.length} kept, ${res.failed.length} failed.\n`);
  return res.failed.length ? 1 : 0;
}
