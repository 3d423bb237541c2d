// Init's workspace facts (initFacts.ts), the manifests part: the root's manifests — package.json (initManifests.ts),
// pyproject.toml and Cargo.toml (initManifestsToml.ts) and go.mod (initManifestsGo.ts) as fact lines, the others and
// a manifest that does not parse by their head — the lockfile and the package manager it names (checks/detect.ts),
// and the head of the monorepo and toolchain settings (pnpm-workspace.yaml, go.work, tsconfig.json…, a C or C++
// project's CMakeLists.txt and meson.build) and the Python
// lint tools' sections of tox.ini, setup.cfg and .flake8 (initFactsLint.ts); then the
// releases of the workspace's git repository (initFactsRelease.ts: the latest version tags with their dates, how far
// HEAD is past the latest, the last minor and major release); then the manifests of a few sub-projects
// (initSubprojects.ts: the members the root declares first, workspace/members.ts), each with smaller bounds, and a
// count of those left. Each block within its bound and the part's.
import type { WorkspaceLayout } from '../workspace/layout';
import { itemsWithin, LIST_CHARS, packageJsonLines, type ManifestFacts } from './initManifests';
import { cargoFacts, pyprojectFacts } from './initManifestsToml';
import { goModFacts } from './initManifestsGo';
import { subprojects } from './initSubprojects';
import { declaredMembers } from '../workspace/members';
import type { ReleaseTags } from '../workspace/versionTags';
import { releaseBlock } from './initFactsRelease';
import { lintSettingsBlock } from './initFactsLint';
import { joinCMakeArguments } from '../text/cmake';
import { CMAKE_FILE } from '../checks/detectCMake';
import { linesWithin, quoted, scaled, type FactBounds, type FactSources, type ReadText } from './initFactsText';

/** A manifest's fact lines at most, and each other manifest's head: a second manifest still finds room. */
const MANIFEST_LINES_CHARS = 2000;
const MANIFEST_HEAD_CHARS = 500;
/** A sub-project's manifest at most (its lines or its head), and each of its lists: several sub-projects find room. */
const SUBPROJECT_CHARS = 900;
const SUBPROJECT_LIST_CHARS = 240;
/** The sub-projects shown at most: a monorepo of 40 packages names the rest in one line. */
const MAX_SUBPROJECTS = 4;
/** Kept for that line: how many sub-projects were left, and their folders within it. */
const SUBPROJECTS_LEFT_CHARS = 160;
/**
 * Root files besides the manifests that say how the project is built and checked: monorepo and toolchain settings, and
 * a C or C++ project's build definitions (CMake's, Meson's: its name, languages, version and options — a trial on
 * kgabis/parson, whose package.json is a clib manifest, showed neither, and its architecture file missed both builds).
 */
const SETTINGS_FILES: readonly string[] = ['pnpm-workspace.yaml', 'go.work', 'requirements.txt', 'tsconfig.json', CMAKE_FILE, 'meson.build'];

/**
 * What the part is made from: the walk (the root's manifests, those of the sub-projects), how their files are read
 * (each once per walk, whatever the scale: readOnce), the lockfile and the version tags found.
 */
export interface ManifestSources {
  layout: WorkspaceLayout;
  read: ReadText;
  lock: { file: string; manager: string } | null;
  release: ReleaseTags | null;
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
      return { lines: packageJsonLines(pkg, list) };
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

/** The manifests part within `max` characters; null when the workspace has none. */
export function manifestsPart({ layout, read, lock, release }: ManifestSources, sources: FactSources, max: number, bounds: FactBounds): string | null {
  const blocks: string[] = [];
  const files = sources.files;
  let room = max;
  const add = (block: string | null, file?: string): boolean => {
    if (!block || block.length + 2 > room) return false;
    blocks.push(block);
    room -= block.length + 2;
    if (file) files.push(file);
    return true;
  };
  /** A manifest's block: its lines within `chars`, or its head within `head` characters. */
  const manifestBlock = (name: string, text: string, facts: ManifestFacts | Invalid | null, chars: number, head: number, extra: string[] = []): string | null => {
    if (facts && 'lines' in facts) return `## ${name}\n${linesWithin([...facts.lines, ...extra], Math.min(chars, room) - name.length - 4)}`;
    // a CMake file's one-per-line arguments (a list of compiler flags) on their command's line: more of it in the head
    const shown = name.slice(name.lastIndexOf('/') + 1) === CMAKE_FILE ? joinCMakeArguments(text) : text;
    return quoted(`${name} (${facts ? `its head; not valid ${facts.invalid}` : 'its head'})`, shown, Math.min(head, room - 2));
  };
  let lockShown = false;
  for (const name of [...layout.rootManifests, ...SETTINGS_FILES]) {
    const text = read(name);
    if (text === null) continue;
    const facts = manifestFacts(name, text, scaled(LIST_CHARS, bounds));
    const lockLine = lock && name === 'package.json' && facts && 'lines' in facts ? [`- lockfile: ${lock.file} (${lock.manager})`] : [];
    if (add(manifestBlock(name, text, facts, scaled(MANIFEST_LINES_CHARS, bounds), scaled(MANIFEST_HEAD_CHARS, bounds), lockLine), name)) lockShown ||= lockLine.length > 0;
  }
  if (lock && !lockShown) add(`## Lockfile\n- ${lock.file} (${lock.manager})`, lock.file);
  const lint = lintSettingsBlock(read, room - 2, bounds);
  if (lint && add(lint.block)) files.push(...lint.files);
  if (release && add(releaseBlock(release))) sources.listed.push('the version tags (git)');
  // the sub-projects in the room the root left, some of it kept for the line that counts those left
  const found = subprojects(layout, declaredMembers(read));
  const shown = (file: string): boolean => {
    const text = read(file);
    if (text === null) return false;
    const chars = scaled(SUBPROJECT_CHARS, bounds);
    return add(manifestBlock(file, text, manifestFacts(file, text, scaled(SUBPROJECT_LIST_CHARS, bounds)), chars, chars), file);
  };
  room -= SUBPROJECTS_LEFT_CHARS;
  // every manifest of a sub-project is tried (a folder may hold a package.json and a pyproject.toml)
  const left = found.filter((sub, i) => i >= MAX_SUBPROJECTS || !sub.manifests.map(shown).includes(true)).map((sub) => `${sub.dir}/`);
  room += SUBPROJECTS_LEFT_CHARS;
  if (left.length) {
    const head = `[${left.length} more sub-project${left.length === 1 ? '' : 's'} with a manifest, not shown: `;
    add(`${head}${itemsWithin(left, SUBPROJECTS_LEFT_CHARS - head.length - 1)}]`);
  }
  return blocks.length ? blocks.join('\n\n') : null;
}
