// Init's workspace facts (initFacts.ts), the check commands part: the commands CAPE detects (checks/detect.ts's
// detectedChecks, the ones `--check auto` runs), named, never run; which package manager runs the scripts when the
// lockfile's is not installed where CAPE runs; that a CMake check's build folder is CAPE's own; and the sub-projects
// with checks past the four detected, by the checks' own saying (leftOutSubprojectsSaying), so the files written from
// the facts do not take the commands for all of them.
import type { DetectedChecks } from '../checks/detect';
import { leftOutSubprojectsSaying } from '../checks/detectSubprojects';
import { CMAKE_BUILD_FOLDER } from '../checks/detectCMake';
import { oneLine, shorten } from '../text/cut';
import type { ManifestSources } from './initFactsManifests';
import { linesWithin, type FactSources } from './initFactsText';

/** What the part is made from: the detected checks, the sub-projects they leave out, and the lockfile (the project's package manager). */
export interface CheckSources extends Pick<ManifestSources, 'lock'> {
  /** With the sub-projects left out (detectedChecks' `leftOut`). */
  checks: DetectedChecks;
}

/** A left-out folder's name at most, on the part's line (the line names three at most: leftOutSubprojectsSaying). */
const FOLDER_CHARS = 40;

/** The line naming the sub-projects with checks left out, each folder on one line and shortened; '' for none. */
function leftOutLine(folders: readonly string[]): string {
  if (!folders.length) return '';
  return `- ${leftOutSubprojectsSaying(folders.map((f) => shorten(oneLine(f), FOLDER_CHARS)), () => 'the commands above do not run theirs')}`;
}

/** The check commands part within `max` characters; `- none recognised` when CAPE detects none. */
export function checksPart({ checks: { commands: checks, leftOut }, lock }: CheckSources, sources: FactSources, max: number): string {
  sources.listed.push('the detected check commands');
  const lines = checks.map((c) => `- \`${c.command}\`${c.reason ? ` (${c.reason})` : ''}`);
  // detect.ts runs the scripts with npm when the lockfile's manager is not installed here: say so, or the model takes
  // npm for the project's manager (an init trial on a bun project wrote `bun run` and flagged the facts as contradictory)
  if (lock && lock.manager !== 'npm' && checks.some((c) => /^npm (?:test|run)\b/.test(c.command))) {
    lines.push(`- (the project uses ${lock.manager}: ${lock.file}; ${lock.manager} is not installed where CAPE runs, so CAPE runs the scripts with npm)`);
  }
  // a CMake check builds in a folder of CAPE's own in its scratch copy: say so, or the model takes it for the project's
  // build folder (an init trial on a C++ library wrote `.cape-cmake-build` into its guideline, architecture and standards)
  if (checks.some((c) => c.command.includes(CMAKE_BUILD_FOLDER))) {
    lines.push(`- (\`${CMAKE_BUILD_FOLDER}\` is the folder CAPE builds in, in its own copy of the workspace, for this check: not the project's build folder)`);
  }
  const head = '## Check commands CAPE detects (named here, not run)\n';
  // the left-out line keeps its room: cut among the commands, it would read as one more of them
  const left = leftOutLine(leftOut);
  const tail = left ? `\n${left}` : '';
  return head + (lines.length ? linesWithin(lines, max - head.length - tail.length) : '- none recognised') + tail;
}
