// A step's context inputs for tests that build requests (session/context.ts buildStepContext) from the real prompts:
// the given upstream envelopes, no project files, no workspace; and a built request as one text.
import { defaultPromptsDir, loadPromptAssets, renderPrompt } from '../../src/core/cape/prompts';
import type { ContextInputs } from '../../src/core/session/context';
import type { Envelope, StepId } from '../../src/core/model/types';

const prompts = loadPromptAssets(defaultPromptsDir());

export function contextInputs(step: StepId, envelopes: Partial<Record<StepId, Envelope>>, objective = 'Show overdue tasks'): ContextInputs {
  return {
    taskId: 't',
    objective,
    language: 'English',
    preamble: prompts.preamble,
    rolePrompt: renderPrompt(prompts.roles[step], { language: 'English', task_id: 't' }),
    assets: new Map(),
    kptDigest: '',
    kptFull: '',
    workspace: () => '',
    envelopes,
    raws: {},
    devaFiles: [],
    devaSummary: null,
  };
}

/** A built request's system blocks and user message as one text. */
export function contextText(ctx: { system: { text: string }[]; user: string }): string {
  return ctx.system.map((b) => b.text).join('\n') + '\n' + ctx.user;
}
