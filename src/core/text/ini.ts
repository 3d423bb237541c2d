// An INI file read as Python's configparser reads the shared configuration files of a Python project (tox.ini,
// setup.cfg, .flake8): its sections in the file's order, each with its keys (lower-cased, as configparser folds them)
// and their values — a value goes on over the indented lines after its key, one item a line — comment lines (`#` or
// `;` first) and blank lines left out; a line before the first section or without a `=` or `:` is no entry. Read line
// by line, in linear time; a text that is no INI file has no sections, never an error. The one reader of them: the
// checks' detection (checks/toxIni.ts) and init's facts (cape/initFactsLint.ts). Not the npm `ini` package: it reads
// each line alone, so configparser's indented continuation lines (tox's multi-line `commands`) would be lost.

/** A section: its name as the file writes it between the brackets, and its entries. */
export interface IniSection {
  name: string;
  /** Each key's value: its first line's text, then its continuation lines, each trimmed, joined by '\n'. */
  values: Map<string, string>;
}

/** A section header, `[name]` alone on its line (configparser's rule: no `]` in the name). */
const HEADER = /^\[([^\]]+)\]\s*$/;

/** The sections of an INI text, in order (a section written twice is read as one, its keys from both). */
export function parseIni(text: string): IniSection[] {
  const sections: IniSection[] = [];
  const byName = new Map<string, IniSection>(); // a section written again found at once, not by a walk over the others
  let current: IniSection | null = null;
  let key: string | null = null;
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    if (/^\s/.test(raw)) {
      // a continuation line of the value before it
      if (current && key !== null) current.values.set(key, `${current.values.get(key)}\n${line}`);
      continue;
    }
    const header = HEADER.exec(line);
    if (header) {
      const name = header[1].trim();
      current = byName.get(name) ?? null;
      if (!current) {
        sections.push((current = { name, values: new Map() }));
        byName.set(name, current);
      }
      key = null;
      continue;
    }
    const at = line.search(/[=:]/);
    if (!current || at <= 0) {
      key = null;
      continue;
    }
    key = line.slice(0, at).trim().toLowerCase();
    current.values.set(key, line.slice(at + 1).trim());
  }
  return sections;
}

/** A value's items: its lines (a value's first line, empty when it starts on the next, is left out then), each non-empty. */
export const valueLines = (value: string | undefined): string[] => (value ?? '').split('\n').filter((l) => l.trim() !== '');
