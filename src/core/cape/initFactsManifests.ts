// Init's workspace facts (initFacts.ts), the manifests part: the root's manifests — package.json (initManifests.ts),
// pyproject.toml and Cargo.toml (initManifestsToml.ts) and go.mod (initManifestsGo.ts) as fact lines, the others and
// a manifest that does not parse by their head — the lockfile and the package manager it names (checks/detect.ts),
// and the head of the monorepo and toolchain settings (pnpm-workspace.yaml, go.work, tsconfig.json…), each within its
// bound and the part's.
import type { WorkspacePolicy } from '../workspace/policy';
import type { WorkspaceLayout } from '../workspace/layout';
import { isPlainObject } from '../model/types';
import { LIST_CHARS, packageJsonLines, workspaceGlobs, type ManifestFacts } from './initManifests';
import { cargoFacts, pyprojectFacts } from './initManifestsToml';
import { goModFacts } from './initManifestsGo';
import { linesWithin, quoted, scaled, type FactBounds, type FactSources } from './initFactsText';

/** A manifest's fact lines at most, and each other manifest's head: a second manifest still finds room. */
const MANIFEST_LINES_CHARS = 2000;
const MANIFEST_HEAD_CHARS = 500;
/** Root files besides the manifests that say how the project is built and checked: monorepo and toolchain settings. */
const SETTINGS_FILES: readonly string[] = ['pnpm-workspace.yaml', 'go.work', 'requirements.txt', 'tsconfig.json'];

/** What the part is made from: the walk (the root's manifests) and the lockfile found. */
export interface ManifestSources {
  layout: WorkspaceLayout;
  lock: { file: string; manager: string } | null;
}

/** A manifest that does not parse: the format it is not valid in. */
interface Invalid {
  invalid: string;
}

/**
 * A manifest's fact lines (lists within `list` characters) by its file name; Invalid when it does not parse; null
 * for a kind that is quoted by its head (Gemfile, pom.xml…).
 */
function manifestFacts(name: string, text: string, list: number): ManifestFacts | Invalid | null {
  switch (name.slice(name.lastIndexOf('/') + 1)) {
    case 'package.json': {
      let pkg: unknown;
      try {
        pkg = JSON.parse(text);
      } catch {
        return { invalid: 'JSON' };
      }
      return { lines: packageJsonLines(pkg, list), members: workspaceGlobs(isPlainObject(pkg) ? pkg.workspaces : undefined) };
    }
    case 'pyproject.toml':
      return pyprojectFacts(text, list) ?? { invalid: 'TOML' };
    case 'Cargo.toml':
      return cargoFacts(text, list) ?? { invalid: 'TOML' };
    case 'go.mod':
      return goModFacts(text, list);
    default:
      return null;
  }
}

/** The manifests part within `max` characters; null when the root has none. */
export function manifestsPart(policy: WorkspacePolicy, { layout, lock }: ManifestSources, sources: FactSources, max: number, bounds: FactBounds): string | null {
  const blocks: string[] = [];
  const files = sources.files;
  let room = max;
  const add = (block: string | null, file: string) => {
    if (!block || block.length + 2 > room) return;
    blocks.push(block);
    room -= block.length + 2;
    files.push(file);
  };
  let lockShown = false;
  for (const name of [...layout.rootManifests, ...SETTINGS_FILES]) {
    const read = policy.readSync(name);
    if (!read.ok) continue;
    const facts = manifestFacts(name, read.text, scaled(LIST_CHARS, bounds));
    if (facts && 'lines' in facts) {
      const lines = [...facts.lines];
      if (lock && name === 'package.json') {
        lines.push(`- lockfile: ${lock.file} (${lock.manager})`);
        lockShown = true;
      }
      const head = `## ${name}\n`;
      add(head + linesWithin(lines, Math.min(scaled(MANIFEST_LINES_CHARS, bounds), room) - head.length), name);
    } else {
      const what = facts ? `its head; not valid ${facts.invalid}` : 'its head';
      add(quoted(`${name} (${what})`, read.text, Math.min(scaled(MANIFEST_HEAD_CHARS, bounds), room - 2)), name);
    }
  }
  if (lock && !lockShown) add(`## Lockfile\n- ${lock.file} (${lock.manager})`, lock.file);
  return blocks.length ? blocks.join('\n\n') : null;
}
