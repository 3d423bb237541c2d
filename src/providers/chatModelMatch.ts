// Which VS Code chat model a `cape.model` / `cape.initModel` value means, among those vscode.lm lists (vscodeLm.ts
// lists them and wraps the one chosen in LmClient). No `vscode` import, so the matching is unit-tested in Node.

/**
 * The chat model for a `cape.model` / `cape.initModel` value: an exact id, then an exact family, then an id or
 * family containing the value (so "claude-sonnet-4" finds "claude-sonnet-4.5"). `matched` is false when nothing
 * matched and the first available model was taken instead.
 */
export function matchChatModel<T extends { id: string; family: string; name: string }>(
  models: readonly T[],
  wanted: string,
): { model: T; matched: boolean } | undefined {
  if (models.length === 0) return undefined;
  const w = wanted.trim().toLowerCase();
  const norm = (s: string) => s.toLowerCase().replace(/[._\s]/g, '-');
  const byId = models.find((m) => m.id.toLowerCase() === w);
  if (byId) return { model: byId, matched: true };
  const byFamily = models.find((m) => m.family.toLowerCase() === w);
  if (byFamily) return { model: byFamily, matched: true };
  if (w) {
    const nw = norm(w);
    const partial = models.find((m) => norm(m.id).includes(nw) || norm(m.family).includes(nw) || norm(m.name).includes(nw));
    if (partial) return { model: partial, matched: true };
  }
  return { model: models[0], matched: false };
}
