// Which checks run on DevA's proposal in this window's session: only in a trusted workspace; the `cape.checks`
// setting as configured (configuring is consent); otherwise the commands detected in the workspace, after asking once
// per workspace with a modal — Run (this session), Always for this workspace, Skip (remembered) — kept in
// workspaceState with the commands it was given for, so a changed detection asks again (core/checks/consent.ts).
// The sub-projects with checks that detection left out are named wherever the session's checks are first said: the
// prompt, or the log line of a remembered answer or of the setting's `auto`.
import * as vscode from 'vscode';
import { detectedChecks, detectFormatters, failFirstPlan, leftOutSubprojectsSaying, formatDuration, formattersLayOut, rememberedConsent, rememberedConsentLine, resolveChecks, type ChecksConfig, type RememberedConsent } from '../core';
import type { Services } from '../services';
import { showInformation } from '../notify';

/** workspaceState key of the remembered answer (core/checks/consent.ts RememberedConsent). */
export const CHECKS_CONSENT_KEY = 'cape.checks.consent';

/** The sub-projects with checks that detection left out (leftOutSubprojectsSaying), and how the setting runs theirs. */
const leftOutSaying = (leftOut: readonly string[]) => leftOutSubprojectsSaying(leftOut, (example) => `add theirs to the cape.checks setting ("${example}"), with "auto" for the detected ones`);

/** What cape.failFirst adds to the consent prompt: the test commands that run again (failFirstPlan), or that none do. */
function failFirstSentence(commands: readonly string[]): string {
  const plan = failFirstPlan(commands, (c) => c);
  return plan.length
    ? `Then ${plan.join(', ')} run${plan.length === 1 ? 's' : ''} once more with only DevA's test files on your unchanged code (cape.failFirst), to see the new tests fail first. `
    : 'cape.failFirst runs none of them again: each is a static check (lint, types), which runs no test. ';
}

/**
 * The checks for a session in `root`: `config` when they run; `notRun`, the commands found, when the user skipped
 * them (the agents are told nothing tested the proposal); neither when none apply (untrusted, turned off, none found).
 */
export async function sessionChecks(services: Services, root: string): Promise<{ config?: ChecksConfig; notRun?: string[] }> {
  if (!vscode.workspace.isTrusted) return {};
  const s = services.settings().checks;
  if (!s) return {};
  const config = (commands: string[]) => (commands.length ? { config: { commands, fixRounds: s.fixRounds, timeoutMs: s.timeoutMs, ...(s.copyLimit ? { copyLimit: s.copyLimit } : {}), ...(s.failFirst ? { failFirst: true } : {}), ...(s.format === false ? { format: false } : {}) } } : {});
  if (s.commands.length) {
    const resolved = await resolveChecks(root, s.commands, 'setting', services.settings().capeFolder);
    if (resolved.leftOut.length) services.output.info(`checks: ${leftOutSaying(resolved.leftOut)}`);
    return config(resolved.commands.map((c) => c.command));
  }
  const { commands: detected, leftOut } = await detectedChecks(root, services.settings().capeFolder);
  if (!detected.length) return {};
  const commands = detected.map((d) => d.command);
  const state = services.context.workspaceState;
  const prior = rememberedConsent(state.get(CHECKS_CONSENT_KEY), commands);
  if (prior) {
    services.output.info(rememberedConsentLine(prior, leftOutSaying(leftOut)));
    return prior.decision === 'always' ? config(commands) : { notRun: commands };
  }
  const formatters = s.format === false ? [] : await detectFormatters(root, services.settings().capeFolder);
  const run = 'Run';
  const always = 'Always for this workspace';
  const skip = 'Skip';
  const choice = await showInformation(
    `Run the project's checks on DevA's proposal before you review it?`,
    {
      modal: true,
      detail:
        `CAPE found: ${detected.map((d) => `${d.command} (${d.reason})`).join(', ')}. They run in a scratch copy of the workspace (never in your files), ` +
        `at most ${formatDuration(s.timeoutMs)} each; a failing one goes back to DevA to fix (up to ${s.fixRounds} round${s.fixRounds === 1 ? '' : 's'}). ` +
        (formatters.length ? `Before they run, ${formattersLayOut(formatters)} DevA's files there, as on save (cape.formatProposal). ` : '') +
        (s.failFirst ? failFirstSentence(commands) : '') +
        'Set cape.checks to choose the commands yourself.' +
        (leftOut.length ? ` ${leftOutSaying(leftOut)}.` : ''),
    },
    run,
    always,
    skip,
  );
  if (choice === always || choice === skip) await state.update(CHECKS_CONSENT_KEY, { decision: choice === always ? 'always' : 'skip', commands } satisfies RememberedConsent);
  return choice === run || choice === always ? config(commands) : { notRun: commands };
}
