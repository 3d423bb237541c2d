// Init's workspace facts (initFacts.ts), the check commands part: the commands CAPE detects (checks/detect.ts's
// detectChecks, the one `--check auto` runs), named, never run, and which package manager runs the scripts when the
// lockfile's is not installed where CAPE runs.
import type { CheckCommand } from '../checks/types';
import type { ManifestSources } from './initFactsManifests';
import { linesWithin, type FactSources } from './initFactsText';

/** What the part is made from: the detected checks, and the lockfile (the project's package manager). */
export interface CheckSources extends Pick<ManifestSources, 'lock'> {
  checks: CheckCommand[];
}

/** The check commands part within `max` characters; `- none recognised` when CAPE detects none. */
export function checksPart({ checks, lock }: CheckSources, sources: FactSources, max: number): string {
  sources.listed.push('the detected check commands');
  const lines = checks.map((c) => `- \`${c.command}\`${c.reason ? ` (${c.reason})` : ''}`);
  // detect.ts runs the scripts with npm when the lockfile's manager is not installed here: say so, or the model takes
  // npm for the project's manager (an init trial on a bun project wrote `bun run` and flagged the facts as contradictory)
  if (lock && lock.manager !== 'npm' && checks.some((c) => /^npm (?:test|run)\b/.test(c.command))) {
    lines.push(`- (the project uses ${lock.manager}: ${lock.file}; ${lock.manager} is not installed where CAPE runs, so CAPE runs the scripts with npm)`);
  }
  const head = '## Check commands CAPE detects (named here, not run)\n';
  return head + (lines.length ? linesWithin(lines, max - head.length) : '- none recognised');
}
