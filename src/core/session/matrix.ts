// The need-to-know matrix: which context sources each step receives (CONTEXT_MATRIX), in one place. context.ts builds
// the requests from it and sources.ts renders each source; both read the matrix from here.
import { STEP_AGENT, type StepId, type WorkerAgent } from '../model/types';

/** A context source a step may receive. */
export type ContextSource =
  | 'objective'
  | 'cape:files'
  | 'cape:passages'
  | 'kptDigest'
  | 'user:answers'
  | 'team:dor'
  | 'team:dod'
  | 'team:process'
  | 'cm:brief'
  | 'cm:watchOuts'
  | 'cm:coachingNote'
  | 'cm:goAhead'
  | 'poa:acceptance'
  | 'poa:scope'
  | 'poa:questions'
  | 'da:specs'
  | 'assets:1_product'
  | 'assets:2_design'
  | 'assets:3_development'
  | 'workspace:ranked'
  | 'workspace:ui'
  | 'retro:opening'
  | 'retro:envelopes'
  | 'retro:feedback'
  | 'retro:devaFiles'
  | 'retro:checks'
  | 'checks:planned'
  | 'checks:session'
  | 'retro:criteria';

/**
 * The need-to-know matrix. A source absent from a step's list is never sent to that step.
 * - The retro never receives file bodies (only DevA's file list and summary).
 * - CM receives a bounded KPT digest, never the whole history.
 */
export const CONTEXT_MATRIX: Record<StepId, readonly ContextSource[]> = {
  cm_open: ['objective', 'user:answers', 'cape:files', 'cape:passages', 'team:dor', 'team:process', 'kptDigest', 'checks:session'],
  poa: ['objective', 'cm:brief', 'cm:coachingNote', 'cm:watchOuts', 'assets:1_product', 'team:dor', 'team:dod'],
  da: ['objective', 'cm:coachingNote', 'cm:watchOuts', 'cm:goAhead', 'poa:acceptance', 'poa:scope', 'assets:2_design', 'workspace:ui', 'team:dor', 'team:dod'],
  deva: [
    'objective',
    'cm:coachingNote',
    'cm:watchOuts',
    'cm:goAhead',
    'poa:acceptance',
    'poa:questions',
    'da:specs',
    'assets:3_development',
    'workspace:ranked',
    'checks:planned',
    'team:dor',
    'team:dod',
  ],
  cm_retro: ['objective', 'retro:opening', 'retro:envelopes', 'retro:feedback', 'retro:devaFiles', 'retro:checks', 'retro:criteria'],
};

/** Each cape/ domain folder with the roles that receive its files, in step order ("1_product" → ["POA"]). */
export function domainFolderReaders(): Map<string, WorkerAgent[]> {
  const out = new Map<string, WorkerAgent[]>();
  for (const [step, sources] of Object.entries(CONTEXT_MATRIX) as [StepId, readonly ContextSource[]][]) {
    for (const s of sources) {
      if (!s.startsWith('assets:')) continue;
      const folder = s.slice('assets:'.length);
      out.set(folder, [...(out.get(folder) ?? []), STEP_AGENT[step] as WorkerAgent]);
    }
  }
  return out;
}
