// DA's head in a workspace without UI files names the documentation pages nearest its work (pack.ts DA_DOC_PAGES,
// fileKinds.ts isDocPage): two trials' DA on a Python library searched for the docs page of the extension it designed
// an option for.
import * as assert from 'assert';
import { packWorkspace } from '../../src/core/workspace/pack';
import { isDocPage } from '../../src/core/workspace/fileKinds';
import { WorkspaceIndex } from '../../src/core/workspace/workspaceIndex';
import { putFile } from '../helpers/codebase';
import { tempDir } from '../helpers/cli';


function library(): string {
  const root = tempDir('cape-da-docs-');
  putFile(root, 'pkg/extensions/wikilinks.py', 'class WikiLinkExtension:\n    def __init__(self, **kwargs):\n        self.config = {"base_url": ["/", "prefix"]}\n\ndef build_url(label, base, end):\n    return base + label.replace(" ", "_") + end\n');
  putFile(root, 'pkg/extensions/tables.py', 'class TableExtension:\n    pass\n');
  putFile(root, 'pkg/core.py', 'class Markdown:\n    def convert(self, source):\n        return source\n');
  putFile(root, 'docs/extensions/wikilinks.md', '# WikiLinks\n\nThe wikilinks extension turns [[Page Name]] into a link.\n\n## Options\n\n* **base_url**: the url prefix of every wikilink.\n');
  putFile(root, 'docs/extensions/tables.md', '# Tables\n\nTables in Markdown.\n');
  putFile(root, 'docs/changelog.md', '# Changelog\n\n## 1.2\n\n* wikilinks: the base_url of a wikilink page is kept.\n');
  putFile(root, 'tests/fixtures/wikilinks.md', '[[Wikilinks Page]] fixture for a wikilinks base_url test\n');
  putFile(root, 'README.md', '# Markdown\n\nConverts Markdown to HTML.\n');
  return root;
}

describe("DA's head names the documentation pages nearest its work", () => {
  it('in a workspace without UI files: the best-ranked pages, no changelog and no test fixture', async () => {
    const root = library();
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const ctx = packWorkspace(index, { objective: 'wikilinks: a space_replacement option for the page url of a wikilink' }, { step: 'da' });
    const named = /the pages nearest this work are ([^.]+(?:\.md)?(?:, [^,.]+\.md)*)\./.exec(ctx.text);
    assert.ok(named, ctx.text);
    const pages = named[1].split(', ');
    assert.strictEqual(pages[0], 'docs/extensions/wikilinks.md', ctx.text);
    assert.ok(pages.length <= 3);
    assert.ok(!pages.includes('docs/changelog.md') && !pages.includes('tests/fixtures/wikilinks.md'), pages.join());
    assert.ok(ctx.totalChars <= 6000);
    // DevA's head is as before
    const deva = packWorkspace(index, { objective: 'wikilinks: a space_replacement option for the page url of a wikilink' }, { step: 'deva' });
    assert.doesNotMatch(deva.text, /pages nearest this work/);
  });

  it('not where the workspace has UI files: DA designs its screens', async () => {
    const root = library();
    putFile(root, 'web/src/App.tsx', 'export function App() { return null; }\n');
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const ctx = packWorkspace(index, { objective: 'wikilinks: a space_replacement option for the page url of a wikilink' }, { step: 'da' });
    assert.doesNotMatch(ctx.text, /pages nearest this work/);
  });

  it('isDocPage: Markdown at the root, under a docs folder or beside the code; not a record, a test or an example', () => {
    for (const p of ['README.md', 'docs/index.md', 'doc/api.mdx', 'packages/core/docs/usage.md', 'src/widgets/README.md', 'docs/licensing.md', 'docs/contributing-guide/setup.md']) assert.ok(isDocPage(p), p);
    for (const p of ['CHANGELOG.md', 'docs/changelog.md', 'HISTORY.md', 'tests/fixtures/page.md', 'examples/basic/README.md', 'docs/guide.rst', 'src/app.ts']) assert.ok(!isDocPage(p), p);
    // a test's or an example's page, even under a docs folder
    for (const p of ['tests/docs/x.md', 'test/fixtures/doc/a.md', 'examples/docs/usage.md', 'docs/examples/basic.md', 'docs/page.test.md']) assert.ok(!isDocPage(p), p);
    // the project's notices and GitHub's templates
    for (const p of ['LICENSE.md', 'docs/LICENCE.md', 'CONTRIBUTING.md', 'CODE_OF_CONDUCT.md', 'AUTHORS.md', '.github/PULL_REQUEST_TEMPLATE.md', '.github/ISSUE_TEMPLATE/bug.md']) assert.ok(!isDocPage(p), p);
  });
});
