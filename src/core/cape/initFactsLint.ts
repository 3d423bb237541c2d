// Init's workspace facts (initFacts.ts), a block of the manifests part (initFactsManifests.ts): the lint tools'
// settings a Python project keeps in the shared INI files at its root (checks/detectPython.ts PYTHON_LINT_INI_FILES:
// tox.ini, setup.cfg, .flake8), each lint tool's section (LINT_SECTIONS: `[flake8]`, `[isort]`, `[mypy]`…) on one line
// with its settings — `- tox.ini [flake8]: max-line-length = 119`. pyproject.toml names the tools it configures on its
// own line (initManifestsToml.ts); without this block an init trial on a project that sets flake8's line length in
// tox.ini was told of no lint settings at all. Read through the read policy (the part's reader), within a bound.
import { PYTHON_LINT_INI_FILES } from '../checks/detectPython';
import { parseIni, valueLines } from '../text/ini';
import { nameOf } from './initManifests';
import { linesWithin, listWithin, scaled, type FactBounds, type ReadText } from './initFactsText';

/** The sections of Python's lint tools, by their names in an INI file (pycodestyle's old name pep8 too). */
const LINT_SECTIONS: ReadonlySet<string> = new Set(['flake8', 'pycodestyle', 'pep8', 'pydocstyle', 'isort', 'mypy', 'pylint']);

/** The block at most, and one section's line (its settings cut with a count of those left). */
const LINT_CHARS = 500;
const SECTION_CHARS = 240;

/**
 * The lint settings block within `max` characters (and its bound at the facts' scale), with the files it shows; null
 * when none of the files holds a lint tool's section with a setting.
 */
export function lintSettingsBlock(read: ReadText, max: number, bounds: FactBounds): { block: string; files: string[] } | null {
  const lines: { file: string; text: string }[] = [];
  for (const file of PYTHON_LINT_INI_FILES) {
    const text = read(file);
    for (const section of text === null ? [] : parseIni(text)) {
      if (!LINT_SECTIONS.has(section.name) || !section.values.size) continue;
      const settings = [...section.values].map(([key, value]) => nameOf(`${key} = ${valueLines(value).join(' ')}`));
      lines.push({ file, text: `- ${file} [${section.name}]: ${listWithin(settings, scaled(SECTION_CHARS, bounds))}` });
    }
  }
  if (!lines.length) return null;
  const head = "## Lint settings (the lint tools' sections of the root's INI files)\n";
  const room = Math.min(scaled(LINT_CHARS, bounds), max) - head.length;
  if (room < 60) return null;
  const body = linesWithin(lines.map((l) => l.text), room, ' lint sections');
  // linesWithin keeps the first lines: the files named are those of the lines it kept
  const shown = lines.slice(0, body.split('\n').filter((l) => !l.startsWith('- … ')).length);
  return { block: head + body, files: [...new Set(shown.map((l) => l.file))] };
}
