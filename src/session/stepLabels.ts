// How the extension names a step for people (status bar, notifications, quick picks): core's stepTitle, the one
// truth for step names; this file only adds the "setup" wording for no step.
import { STEP_IDS, stepTitle, type StepId } from '../core';

/** "Developer", "Cape Master — opening", or "setup" for no step / an unknown one. */
export function stepLabel(step: StepId | null | undefined): string {
  return step && (STEP_IDS as readonly string[]).includes(step) ? stepTitle(step) : 'setup';
}
