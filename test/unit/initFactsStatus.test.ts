// Init's workspace facts, the status part (src/core/cape/initFactsStatus.ts): the sentences of the documentation pages
// that state the project's status — maintenance mode, deprecated, to be removed, experimental — outside fenced code,
// a paragraph's wrapped lines joined (an admonition's indented body too), without emphasis and links; the same sentence
// on several pages one line; the strongest first; not a release's notes; within its bound; absent when no page states
// one. The pages here are written for the tests, in the shapes of Python-Markdown's and commander.js's docs.
import * as assert from 'assert';
import { readWorkspaceFacts, WORKSPACE_FACTS_MAX_CHARS } from '../../src/core/cape/initFacts';
import { pageNotes, statusPart } from '../../src/core/cape/initFactsStatus';
import { noSources, walkFiles } from '../../src/core/cape/initFactsText';
import { isReleaseNotes } from '../../src/core/workspace/fileKinds';
import { tempDir } from '../helpers/cli';
import { factsPart, putFile, recordingPolicy } from '../helpers/codebase';

/** The extension pages of a Markdown library, each with the same notice in an admonition. */
const EXTENSIONS = ['abbreviations', 'admonition', 'attr_list', 'code_hilite', 'def_list', 'fenced_code', 'footnotes', 'legacy_attrs', 'md_in_html', 'meta_data', 'sane_lists', 'smarty', 'toc'];

/** A Python library whose docs say each extension is in maintenance mode, in Python-Markdown's shape. */
function markdownLibrary(): string {
  const ws = tempDir('cape-facts-status-md-');
  putFile(ws, 'pyproject.toml', '[project]\nname = "marker"\n');
  putFile(ws, 'marker/core.py', 'def render(text):\n    return text\n');
  for (const name of EXTENSIONS) {
    putFile(
      ws,
      `docs/extensions/${name}.md`,
      `title: ${name}\n\n# ${name}\n\n!!! warning\n    This extension is kept in __maintenance mode__ only. Its bugs still get\n    fixed, but it gains no new behaviour.\n\nSummary\n-------\n\nThe ${name} extension adds its syntax to the parser.\n`,
    );
  }
  putFile(ws, 'docs/extensions/index.md', '# Extensions\n\nEvery extension shipped with the library is in *maintenance mode*; see the\n[support policy](../policy.md).\n');
  putFile(ws, 'docs/extensions/api.md', '# Writing extensions\n\nAn extension subclasses `Extension`.\n\n```python\ndef run(self):  # the deprecated hook still works\n    pass\n```\n');
  putFile(ws, 'docs/reference.md', '# Reference\n\nThe `md_globals` argument of `extendMarkdown()` is **deprecated**. Pass the parser alone.\n');
  putFile(ws, 'docs/cli.md', '# Command line\n\nThe command-line interface is _experimental_, e.g. Its flags may change.\n');
  // release notes say what one release deprecated: none of it is quoted
  putFile(ws, 'docs/change_log/release-3.1.md', '# Release 3.1\n\nThe `safe_mode` keyword is deprecated and goes away in 4.0.\n');
  putFile(ws, 'docs/change_log/index.md', '# Changes\n\nThe old loader is no longer supported after 3.0.\n');
  return ws;
}

describe("init: the facts give the status the project's docs state", function () {
  this.timeout(20000);

  it("a library whose extension pages are in maintenance mode: one line for the sentence on 13 pages, then the index's, the deprecation, the experimental note; not code or release notes", async () => {
    const ws = markdownLibrary();
    const facts = (await readWorkspaceFacts(ws))!;
    assert.strictEqual(
      factsPart(facts.text, 'Status notes in the docs'),
      [
        "## Status notes in the docs (maintenance, deprecation, experimental: the project's stated policy)",
        '- "This extension is kept in maintenance mode only." — docs/extensions/abbreviations.md and 12 more pages under docs/extensions/',
        '- docs/extensions/index.md: "Every extension shipped with the library is in maintenance mode; see the support policy."',
        '- docs/reference.md: "The `md_globals` argument of `extendMarkdown()` is deprecated. Pass the parser alone."',
        '- docs/cli.md: "The command-line interface is experimental, e.g. Its flags may change."',
      ].join('\n'),
    );
    assert.doesNotMatch(facts.text, /deprecated hook|safe_mode|old loader/);
    // after the README's place, before the guidance; the pages it quotes are named as read
    const pages = facts.files.filter((f) => f.startsWith('docs/'));
    assert.deepStrictEqual(pages, [...EXTENSIONS.map((n) => `docs/extensions/${n}.md`), 'docs/extensions/index.md', 'docs/reference.md', 'docs/cli.md']);
    assert.ok(facts.text.length <= WORKSPACE_FACTS_MAX_CHARS, `${facts.text.length}`);
    // the same sentence under several folders names the one they share, none when they share none
    putFile(ws, 'docs/legacy/wikilinks.md', '!!! warning\n    This extension is kept in maintenance mode only.\n');
    assert.match((await readWorkspaceFacts(ws))!.text, /^- "This extension is kept in maintenance mode only\." — docs\/extensions\/abbreviations\.md and 13 more pages under docs\/$/m);
    putFile(ws, 'marker/README.md', 'This extension is kept in maintenance mode only.\n');
    assert.match((await readWorkspaceFacts(ws))!.text, /^- "This extension is kept in maintenance mode only\." — docs\/extensions\/abbreviations\.md and 14 more pages$/m);
  });

  it("a CLI library's deprecated.md: its two notes at most, in the page's order, not its table of contents; the facts hold no part where no page states a status", async () => {
    const ws = tempDir('cape-facts-status-cmd-');
    putFile(ws, 'package.json', '{"name":"cmdline","main":"index.js"}');
    putFile(ws, 'index.js', 'exports.program = {};\n');
    putFile(ws, 'README.md', '# cmdline\n\nParse the arguments of a command-line program.\n');
    const absent = (await readWorkspaceFacts(ws))!;
    assert.ok(!absent.text.includes('## Status notes'), absent.text);
    const page = [
      '# Deprecated',
      '',
      '- [Deprecated](#deprecated)',
      '  - [Regular expressions](#regular-expressions)',
      '',
      'These parts of the API are deprecated: they still work, but a later major version may drop them.',
      '',
      '## Regular expressions',
      '',
      'Passing a [regular expression](https://example.org/re) as the default value was deprecated in v7.',
      '',
      '```js',
      "program.option('--size <s>', 'size', /^(big|small)$/); // deprecated",
      '```',
      '',
      'The `noHelp` option will be removed in a later release.',
    ].join('\n');
    putFile(ws, 'docs/deprecated.md', page);
    putFile(ws, 'CHANGELOG.md', '# Changelog\n\n## 9.0\n\n- Deprecated: the old parser.\n');
    const facts = (await readWorkspaceFacts(ws))!;
    assert.strictEqual(
      factsPart(facts.text, 'Status notes in the docs'),
      [
        "## Status notes in the docs (deprecation: the project's stated policy)",
        '- docs/deprecated.md: "These parts of the API are deprecated: they still work, but a later major version may drop them."',
        '- docs/deprecated.md (section "Regular expressions"): "Passing a regular expression as the default value was deprecated in v7."',
      ].join('\n'),
    );
    assert.ok(facts.files.includes('docs/deprecated.md') && !facts.files.includes('CHANGELOG.md'), facts.files.join());
    // a README both parts quote is named once among the files read
    putFile(ws, 'README.md', '# cmdline\n\nParse the arguments of a command-line program. Its `legacy` entry point is deprecated.\n');
    const again = (await readWorkspaceFacts(ws))!;
    assert.match(again.text, /^- README\.md: "Its `legacy` entry point is deprecated\."$/m);
    assert.deepStrictEqual(again.files.filter((f) => f === 'README.md'), ['README.md']);
  });

  it('reads the words whole, outside code, each sentence once; strips emphasis and links but not a word inside a name', () => {
    const page = [
      '> [!WARNING]',
      '> The sync API is **no longer maintained**; use the async one.',
      '',
      '* Set `deprecated=True` to warn.',
      '* The undeprecated_names list stays as it is.',
      '* snake_case_names and the `__init__` hook are obsolete.',
      '',
      '<!-- This page is experimental.',
      '-->',
      'The sync API is no longer maintained; use the async one.',
      '',
      'Deprecated',
      '==========',
    ].join('\n');
    assert.deepStrictEqual(pageNotes(page), [
      { sentence: 'The sync API is no longer maintained; use the async one.', rank: 0 },
      { sentence: "snake_case_names and the `__init__` hook are obsolete.", rank: 1 },
    ]);
    const long = `This feature is experimental ${'and still changing '.repeat(20)}today.`;
    const walkPage = tempDir('cape-facts-status-long-');
    putFile(walkPage, 'docs/a.md', long);
    const line = statusPart(walkFiles(recordingPolicy(walkPage).policy, { kept: ['docs/a.md'], rootFiles: [] }), noSources(), 600)!.split('\n')[1];
    assert.ok(line.startsWith('- docs/a.md: "This feature is experimental and still') && line.endsWith('…"'), line);
    assert.ok(line.length <= '- docs/a.md: ""'.length + 200, `${line.length}`);
  });

  it("names the section a note is in, and a short note takes the next sentence with it (cJSON's README)", () => {
    const readme = [
      '# cJSON',
      '',
      '### Building',
      '',
      '#### Makefile',
      '',
      '**NOTE:** This Method is deprecated. Use CMake if at all possible. Makefile support is limited to fixing bugs.',
      '',
      'Setext section',
      '--------------',
      '',
      'The old reader is deprecated and only kept for the tests that still call it.',
    ].join('\n');
    assert.deepStrictEqual(pageNotes(readme), [
      { sentence: 'NOTE: This Method is deprecated. Use CMake if at all possible.', rank: 1, heading: 'Makefile' },
      { sentence: 'The old reader is deprecated and only kept for the tests that still call it.', rank: 1, heading: 'Setext section' },
    ]);
    const ws = tempDir('cape-facts-status-section-');
    putFile(ws, 'README.md', readme);
    const part = statusPart(walkFiles(recordingPolicy(ws).policy, { kept: ['README.md'], rootFiles: [] }), noSources(), 600)!;
    assert.match(part, /^- README\.md \(section "Makefile"\): "NOTE: This Method is deprecated\. Use CMake if at all possible\."$/m);
    assert.deepStrictEqual(pageNotes('# Title\n\nThis project is unmaintained.\n'), [{ sentence: 'This project is unmaintained.', rank: 0 }], "the page's title is no section");
  });

  it('keeps to its bound, counting the notes left out, and reads the first 400 pages by path once per walk', () => {
    const ws = tempDir('cape-facts-status-many-');
    const kept: string[] = [];
    for (let i = 0; i < 410; i++) {
      const rel = `docs/page-${String(i).padStart(3, '0')}.md`;
      putFile(ws, rel, `# Page ${i}\n\nThe option number ${i} of the renderer is deprecated since version ${i}.0.\n`);
      kept.push(rel);
    }
    kept.push('docs/zz-last.md', 'docs/change_log/index.md');
    putFile(ws, 'docs/zz-last.md', 'This project is unmaintained.\n');
    putFile(ws, 'docs/change_log/index.md', 'This project is unmaintained.\n');
    const { policy, read } = recordingPolicy(ws);
    const walk = walkFiles(policy, { kept: kept.reverse(), rootFiles: [] });
    const from = noSources();
    const part = statusPart(walk, from, 600)!;
    assert.ok(part.length <= 600, `${part.length}`);
    assert.match(part, /^- docs\/page-000\.md: "The option number 0 of the renderer is deprecated since version 0\.0\."$/m);
    const more = Number(/^- … (\d+) more status notes$/m.exec(part)?.[1]);
    const shown = part.split('\n').filter((l) => l.startsWith('- docs/')).length;
    assert.strictEqual(shown + more, 400, part);
    assert.deepStrictEqual(from.files, Array.from({ length: shown }, (_, i) => `docs/page-${String(i).padStart(3, '0')}.md`));
    // the 401st page and after, and the release notes, are not read
    assert.strictEqual(read.length, 400);
    assert.ok(!read.includes('docs/zz-last.md') && !read.includes('docs/change_log/index.md'));
    assert.ok(!part.includes('unmaintained'));
    statusPart(walk, noSources(), 1200);
    assert.strictEqual(read.length, 400, 'read once per walk');
    // no page states a status: no part
    assert.strictEqual(statusPart(walkFiles(policy, { kept: ['docs/none.md'], rootFiles: [] }), noSources(), 600), null);
  });

  it("a runtime's own end of life is not the project's status; the project's end of life, or its deprecating a runtime, is", () => {
    // commander.js's docs/release-policy.md
    const policy = 'There are major releases about every six months. We do a major release and bump the minimum required node version when LTS Node.js versions reach end-of-life.';
    assert.deepStrictEqual(pageNotes(policy), []);
    assert.deepStrictEqual(pageNotes('Python 2 reached its end of life in 2020, so the tool runs on Python 3 only.'), []);
    assert.deepStrictEqual(pageNotes('Version 2 of this library reached end of life in 2024.'), [{ sentence: 'Version 2 of this library reached end of life in 2024.', rank: 0 }]);
    assert.deepStrictEqual(pageNotes('Support for Node.js 16 is deprecated and will go in the next major.'), [{ sentence: 'Support for Node.js 16 is deprecated and will go in the next major.', rank: 1 }]);
    assert.deepStrictEqual(pageNotes('The builds for .NET 6 stop when it reaches end of support.'), []);
    assert.deepStrictEqual(pageNotes('Once we go to version 3, version 2 reaches end of life.').map((n) => n.rank), [0]);
    // a task list's item is a checklist of what is built or to do (a Vue app's README ticked Vue's experimental
    // Suspense among the frameworks it uses), not a status; a plain list item still states one
    assert.deepStrictEqual(pageNotes('- [x] [Vite](https://vitejs.dev)\n- [x] [Suspense](https://v3.vuejs.org) (Experimental)\n- [ ] Drop the deprecated client API'), []);
    assert.deepStrictEqual(pageNotes('- The `v1` client is deprecated since 2.0.').map((n) => n.rank), [1]);
    // another status word in the same sentence still counts
    assert.deepStrictEqual(pageNotes('When Node.js 18 reaches end of life this package becomes unmaintained.').map((n) => n.rank), [0]);
  });

  it("isReleaseNotes: changelogs and release notes kept as pages, not a maintainer's release how-to", () => {
    for (const p of ['docs/change_log/release-2.4.md', 'docs/change_log/index.md', 'docs/releases/v3.md', 'docs/release-notes/1.0.md', 'RELEASE_NOTES.md', 'docs/whatsnew.md', 'docs/release-2.4.md', 'HISTORY.md', 'NEWS.md', 'docs/changelog.md']) {
      assert.ok(isReleaseNotes(p), p);
    }
    for (const p of ['docs/release.md', 'docs/releasing.md', 'docs/deprecated.md', 'docs/extensions/index.md', 'README.md']) assert.ok(!isReleaseNotes(p), p);
  });
});
