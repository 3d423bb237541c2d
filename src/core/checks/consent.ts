// The consent to run the detected checks as a workspace remembers it (VS Code asks once per workspace:
// session/checksConsent.ts): the decision, always or skip, kept with the commands it was given for — a changed
// detection asks again — and the log line that says it at a session's start, where no prompt shows: with the
// sub-projects with checks that detection left out (leftOutSubprojectsSaying), which the prompt would have named.
/** A remembered answer to the consent prompt, as kept in the workspace's state. */
export interface RememberedConsent {
  decision: 'always' | 'skip';
  commands: string[];
}

/** The remembered answer in `stored` when it is one and was given for exactly `commands` (in order); else undefined: ask. */
export function rememberedConsent(stored: unknown, commands: readonly string[]): RememberedConsent | undefined {
  if (typeof stored !== 'object' || stored === null) return undefined;
  const r = stored as RememberedConsent;
  const valid = (r.decision === 'always' || r.decision === 'skip') && Array.isArray(r.commands) && r.commands.every((c) => typeof c === 'string');
  return valid && r.commands.join('\n') === commands.join('\n') ? r : undefined;
}

/**
 * The log line of a session whose checks run, or are skipped, by a remembered answer: "checks: running …", then
 * `leftOut`, the sentence naming the sub-projects left out (leftOutSubprojectsSaying; '' for none).
 */
export function rememberedConsentLine({ decision, commands }: RememberedConsent, leftOut: string): string {
  const said = decision === 'always' ? `running ${commands.join(', ')} (always for this workspace)` : `skipping ${commands.join(', ')} (skipped for this workspace)`;
  return `checks: ${said}${leftOut ? `. ${leftOut}` : ''}`;
}
