// Init's workspace facts (initFacts.ts), the manifests part: the root's manifests (package.json's fields:
// initManifests.ts; the head of the others), the lockfile and the package manager it names (checks/detect.ts), and
// the head of the monorepo and toolchain settings (pnpm-workspace.yaml, go.work, tsconfig.json…), each within its
// bound and the part's.
import type { WorkspacePolicy } from '../workspace/policy';
import type { WorkspaceLayout } from '../workspace/layout';
import { packageJsonLines } from './initManifests';
import { linesWithin, quoted, scaled, type FactBounds, type FactSources } from './initFactsText';

/** package.json's lines at most, and each other manifest's head: a second manifest still finds room. */
const PACKAGE_JSON_CHARS = 2000;
const MANIFEST_HEAD_CHARS = 500;
/** Root files besides the manifests that say how the project is built and checked: monorepo and toolchain settings. */
const SETTINGS_FILES: readonly string[] = ['pnpm-workspace.yaml', 'go.work', 'requirements.txt', 'tsconfig.json'];

/** What the part is made from: the walk (the root's manifests) and the lockfile found. */
export interface ManifestSources {
  layout: WorkspaceLayout;
  lock: { file: string; manager: string } | null;
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
  for (const name of [...layout.rootManifests, ...SETTINGS_FILES]) {
    const read = policy.readSync(name);
    if (!read.ok) continue;
    if (name === 'package.json') {
      let lines: string[];
      try {
        lines = packageJsonLines(JSON.parse(read.text));
      } catch {
        lines = ['- (not valid JSON)'];
      }
      if (lock) lines.push(`- lockfile: ${lock.file} (${lock.manager})`);
      const head = '## package.json\n';
      add(head + linesWithin(lines, Math.min(scaled(PACKAGE_JSON_CHARS, bounds), room) - head.length), name);
    } else add(quoted(`${name} (its head)`, read.text, Math.min(scaled(MANIFEST_HEAD_CHARS, bounds), room - 2)), name);
  }
  if (lock && !files.includes('package.json')) add(`## Lockfile\n- ${lock.file} (${lock.manager})`, lock.file);
  return blocks.length ? blocks.join('\n\n') : null;
}
