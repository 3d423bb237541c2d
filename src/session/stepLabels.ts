// The extension's names of the session steps (status bar, notifications, quick picks). The webview has its own
// short turn titles (media/app/dom.ts); the ids and agents come from core (STEP_IDS, STEP_AGENT).
import { STEP_AGENT, STEP_IDS, type StepId } from '../core';

export const STEP_LABEL: Record<StepId, string> = {
  cm_open: 'CM opening',
  poa: 'POA',
  da: 'DA',
  deva: 'DevA',
  cm_retro: 'CM retrospective',
};

/** "DevA (DevA)", "CM opening (CM)", or "setup" for no step / an unknown one. */
export function stepLabel(step: StepId | null | undefined): string {
  return step && (STEP_IDS as readonly string[]).includes(step) ? `${STEP_LABEL[step]} (${STEP_AGENT[step]})` : 'setup';
}
