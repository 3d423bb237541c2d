// The session objective: what the team works on. One rule for every entry point (CLI flag, CLI file, VS Code input
// box, the panel's next-objective box): trimmed, not empty, at most MAX_OBJECTIVE_CHARS characters. Longer material
// belongs in cape/ (or in the workspace), where the context packer gives it a budget, not in every prompt.

/** The longest objective accepted, in characters (code points). About two pages of text. */
export const MAX_OBJECTIVE_CHARS = 8000;

/** Why `objective` cannot be used (null when it can). `source` names where it came from, e.g. "--objective-file x.md". */
export function objectiveProblem(objective: string, source = 'The objective'): string | null {
  const text = objective.trim();
  if (!text) return `${source} is empty: say what the team should work on.`;
  const n = Array.from(text).length;
  if (n > MAX_OBJECTIVE_CHARS) {
    return (
      `${source} is ${n.toLocaleString('en-US')} characters long; the limit is ${MAX_OBJECTIVE_CHARS.toLocaleString('en-US')}. ` +
      'Keep the objective to what the team should do, and put longer material (specifications, notes) in a file of the ' +
      'workspace or of cape/ that the team reads.'
    );
  }
  return null;
}
