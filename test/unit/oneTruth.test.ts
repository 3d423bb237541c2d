// One truth per concept, where a unit test cannot reach the one place (VS Code adapters) or a copy would be easy to
// write again: each text or pattern below is written in one file of src/ and media/ only, and every other place calls it.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { repoRoot } from '../helpers/fixtures';

const root = repoRoot();

function sources(): { rel: string; text: string }[] {
  const out: { rel: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(rel);
      else if (/\.tsx?$/.test(e.name)) out.push({ rel, text: fs.readFileSync(path.join(root, rel), 'utf8') });
    }
  };
  walk('src');
  walk('media');
  return out;
}

/** The files of src/ and media/ whose code (comments left out) matches `pattern`. */
function filesMatching(pattern: RegExp): string[] {
  const code = (t: string) => t.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return sources()
    .filter((f) => pattern.test(code(f.text)))
    .map((f) => f.rel)
    .sort();
}

/** How many times `text` stands in the code of src/ and media/ (comments left out). */
function occurrences(text: string): number {
  const code = (t: string) => t.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return sources().reduce((n, f) => n + code(f.text).split(text).length - 1, 0);
}

describe('one truth per concept (source guard rails)', () => {
  const all = sources();

  it('reads the sources (the guard is not vacuous)', () => {
    assert.ok(all.length > 100, `${all.length} files`);
    assert.ok(all.some((f) => f.rel === 'src/core/text/size.ts'));
  });

  it('a size in KB/MB is worked out in text/size.ts (formatBytes) only', () => {
    assert.deepStrictEqual(filesMatching(/\/\s*1024\b|\/\s*\(1024/), ['src/core/text/size.ts']);
  });

  it('a date for people is written by model/dates.ts (local, YYYY-MM-DD HH:MM), never in the locale of the machine', () => {
    assert.deepStrictEqual(filesMatching(/getFullYear|getHours\(|toLocale(Date|Time)String|\.toLocaleString\(\)/), ['src/core/model/dates.ts']);
  });

  it('a duration for people is written by model/dates.ts (formatDuration) only', () => {
    assert.deepStrictEqual(filesMatching(/\/ 1000\b[^`\n]*\} s\b/), []);
    // a figure followed by a unit of time in a template: only formatDuration writes one (cli/context.ts prints the
    // index's build time in exact ms for measurements)
    assert.deepStrictEqual(filesMatching(/\} (s|min|h)\b(?! ago)|\} ms\b/), ['src/cli/context.ts', 'src/core/model/dates.ts']);
    assert.deepStrictEqual(filesMatching(/\} min \$\{/), ['src/core/model/dates.ts']);
  });

  it('the session records\' folders are named by SESSIONS_FOLDER (model/steps.ts) and store/layout.ts only', () => {
    assert.deepStrictEqual(filesMatching(/5_sessions/), ['src/core/model/steps.ts']);
    assert.deepStrictEqual(filesMatching(/['"]kpt_merged\.md['"]/), ['src/core/store/layout.ts']);
  });

  it("the CAPE folder option's normal form is worked out by capeFolderKey (model/steps.ts) only", () => {
    // a line naming the cape folder that turns its `\\` into `/` or cuts its leading or trailing `/`s (by a regexp or
    // by index): each reader calls capeFolderKey instead
    const copy = /^.*(?<![a-z])cape.*(?:\/\\\\\/g|\[\\\\\/\]\+\$|\\\/\+\$|\^\\\.\??\\\/|=== '\/'\)[^;\n]*--).*$/im;
    assert.deepStrictEqual(filesMatching(copy), ['src/core/model/steps.ts']);
  });

  it('trailing blanks are cut by text/blanks.ts (or trimEnd), not by a regexp anchored at the end or a walk written again', () => {
    // `.replace(/…\s+$/…)`, `[ \t]+$`, `\n+$` / `\n*$`, or a loop stepping back over white space from an index
    const copy =
      /\.replace\(\/[^\n]*(?:\\s\+|\[ \\t\]\+|\\n[+*])\$\/|while \([^\n]*(?:\\s\/\.test\(|SPACE\.test\(|=== ' ' \|\| )[^\n]*- 1\]|while \([^\n]*- 1\]\.trim\(\) === ''/;
    // kpt.ts steps back over a document's blank lines (an array of them), not over characters
    assert.deepStrictEqual(filesMatching(copy), ['src/core/kpt/kpt.ts']);
  });

  it("a line's final carriage return is cut by withoutCr (text/lines.ts), not by a regexp written again", () => {
    assert.deepStrictEqual(filesMatching(/\.replace\(\/\\r\$\//), []);
  });

  it('a message that two code paths give is written once', () => {
    for (const text of [
      'This answer is required', // questionnaire.ts validateAnswer, for the input box too
      'Keep the answer under',
      'stored (checked against', // setApiKey.ts, a given key and the input box
      'not stored: ',
      'content is larger than', // pathSafety.ts sizeRefusal
      'is an existing directory', // pathSafety.ts targetRefusal
      'no JSON envelope found',
    ]) {
      assert.strictEqual(occurrences(text), 1, text);
    }
  });

  it("a command's title shown by its quick pick or input box is the title package.json gives the command", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { contributes: { commands: { category?: string; title: string }[] } };
    const titles = new Set(pkg.contributes.commands.map((c) => (c.category ? `${c.category}: ${c.title}` : c.title)));
    const used = all.flatMap((f) => [...f.text.matchAll(/(?:_TITLE = |title: )'(CAPE: [A-Z][^']*)'/g)].map((m) => [f.rel, m[1]]));
    assert.ok(used.length >= 5, JSON.stringify(used));
    for (const [rel, title] of used) assert.ok(titles.has(title), `${rel}: "${title}" is not a command title of package.json`);
  });

  it("the Restricted Mode warning's button is made in commands/util.ts (warnRestricted) only", () => {
    assert.deepStrictEqual(filesMatching(/workbench\.trust\.manage|'Manage Workspace Trust'/), ['src/commands/util.ts']);
  });
});
