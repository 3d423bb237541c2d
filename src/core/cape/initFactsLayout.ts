// Init's workspace facts (initFacts.ts), the layout part: the top-level folders with their source files, how many of
// them are tests and how those are named, and a few of the others by name; under a top folder that is not a
// monorepo's (one that holds no packages) its sub-folders where the code is — one level down, two where the folder
// holds all its code in one sub-folder (`src/anvil/`) — biggest first; a monorepo's top folder names its packages
// instead. Bounded: every top folder first, then each one's sub-folders within the room left, each list counting the
// folders it leaves out; the root's line names the files that run and ship the project (compose files, Dockerfile,
// Makefile, hosting configuration). Names only (workspace/layout.ts: the index's walk under the read policy).
import type { FolderCount, WorkspaceLayout } from '../workspace/layout';
import { itemsWithin } from './initManifests';
import { linesWithin, scaled, type FactBounds } from './initFactsText';
import { isTaskFile } from './initFactsTasks';

/** A top folder's packages at most, their "… N more" included (at the facts' scale, as the next). */
const PACKAGES_CHARS = 400;
/** One top folder's sub-folder lines at most, their "… N more folders" included. */
const SUBFOLDERS_CHARS = 700;
/** Less room than this left for a top folder's sub-folders: none are listed. */
const MIN_SUBFOLDERS_CHARS = 80;

/**
 * Which of a folder's example files a line names: all of them, only those directly in it (its sub-folders have lines
 * of their own), or none (a monorepo's folder, whose packages are named).
 */
type Examples = 'all' | 'direct' | 'none';

/**
 * How a folder's tests are named: the patterns alone (`*.spec.ts, *.test.ts`) when every test counted is named by one,
 * else each with how many it names (`4 named test_*.rs`: semver's tests/ also holds node/mod.rs and util/mod.rs, which
 * are not, and the patterns alone claimed a naming none of the model's new tests could keep to); none where no test's
 * name shows one.
 */
function testNaming(f: FolderCount): string[] {
  const patterns = [...f.testNames].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const named = patterns.reduce((n, [, count]) => n + count, 0);
  return patterns.map(([pattern, count]) => (named === f.tests ? pattern : `${count} named ${pattern}`));
}

/** `12 source files (14 in all), 3 of them tests (*.spec.ts); e.g. App.vue, main.ts` (the tests' naming: testNaming). */
function counts(f: FolderCount, examples: Examples): string {
  const all = `${f.source} source file${f.source === 1 ? '' : 's'}${f.source === f.files ? '' : ` (${f.files} in all)`}`;
  const names = testNaming(f);
  const tests = f.tests ? `, ${f.tests === f.source ? (f.source === 1 ? 'a test' : 'all tests') : `${f.tests} of them ${f.tests === 1 ? 'a test' : 'tests'}`}${names.length ? ` (${names.join(', ')})` : ''}` : '';
  const named = examples === 'none' ? [] : f.examples.filter((e) => examples === 'all' || !e.includes('/'));
  return `${all}${tests}${named.length ? `; e.g. ${named.join(', ')}` : ''}`;
}

const folderLine = (f: FolderCount, indent = '', examples: Examples = 'all') => `${indent}- ${f.path}/ — ${counts(f, examples)}`;

/**
 * The root files that say how the project is run and shipped — containers, compose files, task runners (isTaskFile:
 * their targets have a part of their own), hosting configuration — named on the root's line: an init trial's model
 * could not tell a Docker Compose project from "20 files at the root". Names only.
 */
const RUN_FILE =
  /^(?:(?:docker-)?compose(?:\.[\w-]+)*\.ya?ml|(?:Dockerfile|Containerfile)(?:\.[\w-]+)?|[\w-]+\.Dockerfile|Procfile|Tiltfile|vercel\.json|netlify\.toml|fly\.toml|render\.yaml|app\.yaml|serverless\.ya?ml|wrangler\.toml|nixpacks\.toml|railway\.json|skaffold\.yaml)$/;
const isRunFile = (name: string): boolean => RUN_FILE.test(name) || isTaskFile(name);
/** The run files named at most, their "… N more" included (at the facts' scale). */
const RUN_FILES_CHARS = 200;

function topLine(layout: WorkspaceLayout, f: FolderCount, bounds: FactBounds, examples: Examples = 'all'): string {
  if (!f.path) {
    const run = layout.rootFiles.filter(isRunFile);
    return `- (files at the root) — ${counts(f, examples)}${run.length ? `; to run and ship it: ${itemsWithin(run, scaled(RUN_FILES_CHARS, bounds))}` : ''}`;
  }
  const packages = (layout.packages.get(f.path) ?? []).map((p) => `${p.path}/ ${p.source}`);
  if (!packages.length) return folderLine(f, '', examples);
  return `- ${f.path}/ — ${counts(f, 'none')}; packages (source files): ${itemsWithin(packages, scaled(PACKAGES_CHARS, bounds))}`;
}

/** The sub-folders of `f` that hold code, as lines, and the indent of the last ones (for the count of those cut). */
function subfolderLines(layout: WorkspaceLayout, f: FolderCount): { lines: string[]; indent: string } {
  const withCode = (c: FolderCount) => (layout.subfolders.get(c.path) ?? []).filter((s) => s.source > 0);
  const children = withCode(f);
  if (children.length === 1 && children[0].source === f.source) {
    // all the code in one sub-folder (src/anvil/): it, then its own sub-folders
    const only = children[0];
    const below = withCode(only);
    return { lines: [folderLine(only, '  ', below.length ? 'direct' : 'all'), ...below.map((s) => folderLine(s, '    '))], indent: '    ' };
  }
  return { lines: children.map((s) => folderLine(s, '  ')), indent: '  ' };
}

/** The layout part within `max` characters. */
export function layoutPart(layout: WorkspaceLayout, max: number, bounds: FactBounds): string {
  const head = `## Layout (${layout.source} source files; ignored, dependency and secret files not counted)\n`;
  const tops = layout.folders.map((f) => topLine(layout, f, bounds));
  const topsText = linesWithin(tops, max - head.length, ' folders');
  if (topsText !== tops.join('\n')) return head + topsText;
  let room = max - head.length - topsText.length;
  const out: string[] = [];
  layout.folders.forEach((f, i) => {
    const { lines, indent } = f.path && !layout.packages.has(f.path) ? subfolderLines(layout, f) : { lines: [], indent: '' };
    // the top lines were measured with all their examples: one that names fewer is shorter
    const budget = Math.min(scaled(SUBFOLDERS_CHARS, bounds), room - 1);
    if (!lines.length || budget < MIN_SUBFOLDERS_CHARS) {
      out.push(tops[i]);
      return;
    }
    const text = linesWithin(lines, budget, ' folders', indent);
    out.push(topLine(layout, f, bounds, 'direct'), text);
    room -= text.length + 1;
  });
  return head + out.join('\n');
}
