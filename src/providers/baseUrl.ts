// Base-URL rules shared by the Anthropic provider and the Set API Key command. Plain TypeScript (no vscode import)
// so it is unit-testable in Node.
import { DEFAULT_BASE_URL, baseUrlProblem, normalizeBaseURL } from '../core';

export { LOOPBACK_PLACEHOLDER_KEY, isLoopbackBaseUrl } from '../core';

/**
 * The effective API base URL for the `cape.baseUrl` setting: empty → https://api.anthropic.com, a trailing `/v1`
 * or slash removed. Throws a message naming the setting when the value is not an http(s) URL.
 */
export function effectiveBaseUrl(setting: string | undefined): string {
  const raw = (setting ?? '').trim();
  if (!raw) return DEFAULT_BASE_URL;
  const problem = baseUrlProblem(raw);
  if (problem) throw new Error(`The setting cape.baseUrl ("${raw}") cannot be used: ${problem}. Use e.g. https://api.anthropic.com, or leave it empty.`);
  return normalizeBaseURL(raw);
}
