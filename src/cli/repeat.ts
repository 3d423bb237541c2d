// `cape repeat`: reruns a saved session's objective N times on the same inputs and reports how alike the runs are (RR).

import {
  defaultPromptsDir,
  loadPromptAssets,
  repeatSession,
  MAX_REPEATS,
  type RepeatResult,
} from '../core';
import { type Parsed, EXIT_INTERRUPTED, UsageError, abortOnStopSignals, capeFolderFlag, requireWorkspace } from './flags';
import { clientFrom, toolBoundsFrom, maxCostFrom, taskIdFrom } from './settings';
import { printer, textOnly } from './printer';

/** A similarity for people: 0.67, or — */
function sim(x: number | null): string {
  return x === null ? '—' : x.toFixed(2);
}

export async function cmdRepeat(flags: Parsed['flags'], env: NodeJS.ProcessEnv, stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream): Promise<number> {
  const workspace = requireWorkspace(flags);
  const taskId = taskIdFrom(flags, '--task ID is required: the saved session whose objective is rerun.')!;
  const times = Number(flags.times);
  if (flags.times === undefined || !Number.isInteger(times) || times < 1 || times > MAX_REPEATS) {
    throw new UsageError(`--times N is required: how many reruns, a whole number from 1 to ${MAX_REPEATS} (got "${flags.times ?? ''}").`);
  }
  const { client } = await clientFrom(flags, env, stderr);
  const tools = toolBoundsFrom(flags);
  const maxCostUsd = maxCostFrom(flags);
  const humanStream = flags.json ? stderr : stdout;
  // a rerun's error and warnings may quote a reply: text only, as the transcript
  const human = textOnly(humanStream);
  const warn = textOnly(stderr);
  const controller = new AbortController();
  const removeSignals = abortOnStopSignals(controller);
  let result: RepeatResult;
  try {
    result = await repeatSession({
      workspace,
      capeFolder: capeFolderFlag(flags['cape-folder']),
      taskId,
      times,
      ...(typeof flags.model === 'string' ? { model: flags.model } : {}),
      llm: client,
      prompts: loadPromptAssets(defaultPromptsDir()),
      tools,
      ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
      onEvent: printer(humanStream),
      onWarning: (w) => warn.write(`⚠ ${w}\n`),
      onRun: (k, id) => human.write(`\n═══ Rerun ${k} of ${times}: ${id}\n`),
      signal: controller.signal,
    });
  } finally {
    removeSignals();
  }
  human.write(`\nReproducibility of ${result.taskId} over ${result.runs.length} runs (pairwise Jaccard, mean):\n`);
  for (const r of result.runs) {
    human.write(`  ${r.ok ? '✓' : '✗'} ${r.taskId}: ${r.criteria ? `${r.criteria.length} criteria` : 'no criteria'}, ${r.files ? `${r.files.length} files` : 'no files'}${r.error ? ` — ${r.error}` : ''}\n`);
  }
  human.write(`  criteria ${sim(result.criteria)} · files ${sim(result.files)} · RR ${sim(result.rr)}\n`);
  if (flags.json) stdout.write(JSON.stringify(result) + '\n');
  return result.runs.every((r) => r.ok) ? 0 : controller.signal.aborted ? EXIT_INTERRUPTED : 1;
}
