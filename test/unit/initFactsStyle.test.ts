// Init's workspace facts, the style part (src/core/cape/initFactsStyle.ts): the entry page and theme configuration of
// an app in a folder one level down.
import * as assert from 'assert';
import { readWorkspaceFacts } from '../../src/core/cape/initFacts';
import { tempDir } from '../helpers/cli';
import { factsPart, putFile } from '../helpers/codebase';

describe('init: the style part reads an app in a sub-folder', function () {
  this.timeout(20000);

  it('the entry page and theme configuration of an app one level down; the root\'s first; not a folder that is no app', async () => {
    const facts = async (files: Record<string, string>) => {
      const ws = tempDir('cape-facts-style-app-');
      putFile(ws, 'package.json', '{"name":"app"}');
      for (const [rel, text] of Object.entries(files)) putFile(ws, rel, text);
      return (await readWorkspaceFacts(ws))!.text;
    };
    const page = (title: string) => `<html lang="en"><head><title>${title}</title></head></html>`;
    // a folder holding index.html is an app; so is one holding package.json, whose page is in public/
    let t = await facts({ 'frontend/index.html': page('Items'), 'frontend/src/main.tsx': 'export {};\n', 'frontend/tailwind.config.js': 'export default { theme: {} };\n' });
    assert.match(factsPart(t, 'Style sources'), /^- frontend\/index\.html: title "Items"; lang en$/m);
    assert.match(t, /^## frontend\/tailwind\.config\.js \(its head\)$/m);
    // a page in a folder that is no app (no package.json, no index.html of its own) is not the entry page
    t = await facts({ 'a-mockups/public/index.html': page('Mockup'), 'web/package.json': '{"name":"web"}', 'web/public/index.html': page('Web') });
    assert.match(factsPart(t, 'Style sources'), /^- web\/public\/index\.html: title "Web"; lang en$/m);
    assert.ok(!t.includes('Mockup'), t);
    // the root's own page comes first; a docs site's is not the product's
    t = await facts({ 'index.html': page('Root'), 'frontend/index.html': page('Items'), 'docs/index.html': page('Docs') });
    assert.match(factsPart(t, 'Style sources'), /^- index\.html: title "Root"; lang en$/m);
    assert.ok(!t.includes('"Items"') && !t.includes('Docs'), t);
  });
});
