// The consent to run the detected checks as a workspace remembers it (VS Code asks once per workspace:
// session/checksConsent.ts): the decision, always or skip, kept with the commands it was given for — a changed
// detection asks again — and the log line that says it at a session's start, where no prompt shows.
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

/** The log line of a session whose checks run, or are skipped, by a remembered answer: "checks: running …". */
export function rememberedConsentLine({ decision, commands }: RememberedConsent): string {
  return `checks: ${decision === 'always' ? `running ${commands.join(', ')} (always for this workspace)` : `skipping ${commands.join(', ')} (skipped for this workspace)`}`;
}
