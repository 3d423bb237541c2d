// Init's workspace facts, the style part (src/core/cape/initFactsStyle.ts and the files it reads with:
// initFactsPage.ts, initFactsTokens.ts): the entry page of an app in a folder one level down, the design tokens a
// style file declares (custom properties of :root, @theme and .dark blocks, Sass and Less variables at the top level),
// quoted compactly and the most used first, the fonts of the style sources, the style blocks of .vue components (the
// root component's like a style file), shadcn's components.json — with the reads bounded and through the read policy;
// and bounded by the room a request's other parts leave (a brand request's style part keeps a large theme whole).
import * as assert from 'assert';
import { factsText, readWorkspaceFacts, WORKSPACE_FACTS_MAX_CHARS } from '../../src/core/cape/initFacts';
import { stylePart } from '../../src/core/cape/initFactsStyle';
import { noSources, walkFiles } from '../../src/core/cape/initFactsText';
import { scanSheet } from '../../src/core/cape/initFactsTokens';
import { tempDir } from '../helpers/cli';
import { factsPart, putFile, recordingPolicy } from '../helpers/codebase';

/** A theme as shadcn writes it for Tailwind v4: @theme inline over :root's and .dark's custom properties. */
const SHADCN_CSS = `@import "tailwindcss";
@import url("https://fonts.googleapis.com/css2?family=Inter&display=swap");

/* the theme, as Tailwind reads it */
@theme inline {
  --radius-sm: calc(var(--radius) - 4px);
  --radius-lg: var(--radius);
  --color-primary: var(--primary);
  --font-sans: "Inter", sans-serif;
}

:root {
  --radius: 0.625rem;
  --background: oklch(1 0 0);
  --primary: oklch(0.2 0 0);
}

.dark {
  --background: oklch(0.145 0 0);
  --primary: oklch(0.9 0 0);
}

@layer base {
  body { font-family: var(--font-sans); }
  h1 { font-family: "Playfair Display", serif; }
}
`;

const SHADCN_JSON = JSON.stringify({
  $schema: 'https://ui.shadcn.com/schema.json',
  style: 'new-york',
  tailwind: { config: '', css: 'src/index.css', baseColor: 'neutral', cssVariables: true },
  iconLibrary: 'lucide',
});

describe('init: the style part reads an app in a sub-folder, its design tokens, fonts and components', function () {
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

  it("CSS-in-JS: the colours module of a styles folder is the theme whose head is quoted; a colours module elsewhere is not", async () => {
    const facts = async (files: Record<string, string>) => {
      const ws = tempDir('cape-facts-style-js-');
      putFile(ws, 'package.json', '{"name":"app"}');
      putFile(ws, 'public/index.html', '<html lang="en"><head><title>Shelf</title></head></html>');
      for (const [rel, text] of Object.entries(files)) putFile(ws, rel, text);
      return (await readWorkspaceFacts(ws))!.text;
    };
    const colors = "export const base = 'white'\nexport const indigo = '#3f51b5'\nexport const danger = '#ef5350'\n";
    let t = await facts({ 'src/styles/colors.js': colors, 'src/styles/global.css': 'body { margin: 0; }\n', 'src/app.js': "import * as colors from './styles/colors'\n" });
    assert.match(t, /^## src\/styles\/colors\.js \(its head\)$/m);
    assert.ok(t.includes("export const indigo = '#3f51b5'"), t);
    // a terminal's colours beside the code, or a lexer's tokens, are no theme
    t = await facts({ 'src/colors.js': colors, 'src/lexer/tokens.ts': 'export const PLUS = 1;\n' });
    assert.doesNotMatch(t, /\(its head\)/);
  });

  it("a React app in frontend/: its entry page, components.json, its theme's tokens (the most used first) and fonts", async () => {
    const ws = tempDir('cape-facts-style-sub-');
    putFile(ws, 'package.json', JSON.stringify({ name: 'app', workspaces: ['frontend'] }));
    putFile(ws, 'backend/app/main.py', 'app = None\n');
    putFile(ws, 'frontend/package.json', '{"name":"frontend"}');
    putFile(ws, 'frontend/index.html', '<html lang="en"><head><title>Items</title><link rel="icon" href="/favicon.png"></head><body></body></html>');
    putFile(ws, 'frontend/src/main.tsx', 'export {};\n');
    putFile(ws, 'frontend/src/index.css', SHADCN_CSS);
    putFile(ws, 'frontend/components.json', SHADCN_JSON);
    // a page in a folder that is no app (no package.json, no index.html of its own) is not the entry page
    putFile(ws, 'a-mockups/public/index.html', '<head><title>Mockup</title></head>');
    const facts = (await readWorkspaceFacts(ws))!;
    const style = factsPart(facts.text, 'Style sources');
    const lines = style.split('\n');
    assert.strictEqual(lines[1], '- frontend/index.html: title "Items"; lang en');
    assert.strictEqual(lines[2], '- frontend/components.json (shadcn/ui): style new-york; baseColor neutral; cssVariables true; iconLibrary lucide; css src/index.css');
    assert.strictEqual(
      lines[3],
      '- frontend/src/index.css: tokens (@theme inline 4, :root 3, .dark 2), most used first: --radius: 0.625rem; --font-sans: "Inter", sans-serif; ' +
        '--primary: oklch(0.2 0 0) [.dark: oklch(0.9 0 0)]; --radius-sm: calc(var(--radius) - 4px); --radius-lg: var(--radius); ' +
        '--color-primary: var(--primary); --background: oklch(1 0 0) [.dark: oklch(0.145 0 0)]',
    );
    assert.strictEqual(lines[4], '- fonts (style sources): @import https://fonts.googleapis.com/css2?family=Inter&display=swap; "Playfair Display", serif');
    assert.ok(!style.includes('Mockup'), style);
    assert.deepStrictEqual(
      facts.files.filter((f) => f.startsWith('frontend/')),
      ['frontend/package.json', 'frontend/index.html', 'frontend/components.json', 'frontend/src/index.css'],
    );
  });

  it("Sass and Less variables at the top level, a .vue root component's style block, and the components' own", async () => {
    const ws = tempDir('cape-facts-style-vue-');
    const files: Record<string, string> = {
      'package.json': '{"name":"vue-shop"}',
      'index.html': '<head><title>Shop</title></head>',
      'src/main.ts': 'export {};\n',
      'src/styles/_variables.scss': '// brand colours\n$primary: #5cb85c;\n$font-stack: "Source Sans Pro",\n  sans-serif;\n.card {\n  $inner: 4px;\n  padding: $inner;\n  color: $primary;\n}\n',
      'src/styles/theme.less': '@import "base";\n@brand: #336699;\n.a { color: @brand; }\n',
      'src/App.vue':
        '<template><RouterView /></template>\n<script setup lang="ts"></script>\n<style lang="scss">\n:root { --accent: #f60; }\n' +
        'body { font-family: $font-stack; color: $primary; }\nh1 { font-family: Georgia, serif; }\n</style>\n',
      'src/components/A.vue': '<template><a /></template>\n<style scoped>\n.a { color: var(--accent); }\n</style>\n',
      'src/components/B.vue': '<template><b /></template>\n<style scoped lang="scss">\n.b { margin: 0; }\n</style>\n',
      'src/components/C.vue': '<template><i /></template>\n',
    };
    for (const [rel, text] of Object.entries(files)) putFile(ws, rel, text);
    const facts = (await readWorkspaceFacts(ws))!;
    const lines = factsPart(facts.text, 'Style sources').split('\n');
    assert.deepStrictEqual(lines.slice(1), [
      '- index.html: title "Shop"',
      '- src/styles/_variables.scss: tokens (Sass variables 2), most used first: $primary: #5cb85c; $font-stack: "Source Sans Pro", sans-serif',
      '- src/styles/theme.less: tokens (Less variables 1): @brand: #336699',
      '- src/App.vue <style>: tokens (:root 1): --accent: #f60',
      '- fonts (style sources): Georgia, serif',
      '- components with their own <style>: 3 of 4 .vue files (2 scoped; lang scss 2, css 1)',
      '- style files (2: 1 .less, 1 .scss): src/styles/_variables.scss, src/styles/theme.less',
    ]);
    // a theme file whose tokens are shown is not quoted again
    assert.doesNotMatch(facts.text, /## src\/styles\/_variables\.scss \(its head\)/);
    assert.deepStrictEqual(facts.files.slice(1), ['index.html', 'src/styles/_variables.scss', 'src/styles/theme.less', 'src/App.vue']);
  });

  it('scans a sheet in one pass: comments, strings, parentheses and interpolation end no statement', () => {
    const css =
      '/* :root { --in-comment: 1px; } */\n:root { --logo: url(data:image/svg+xml;utf8,x); --quote: "a;b}"; }\n' +
      '@media (prefers-color-scheme: dark) { :root { --bg: #000 } }\n[data-theme="dark"] { --bg: #111; }\n.card { --local: 1px; }\n' +
      '@font-face { font-family: "Geist"; src: url(/geist.woff2); }\n';
    const show = (text: string, syntax: 'css' | 'scss') => scanSheet(text, syntax).tokens.map((t) => `${t.block} | ${t.name}: ${t.value}`);
    assert.deepStrictEqual(show(css, 'css'), [
      ':root | --logo: url(data:image/svg+xml;utf8,x)',
      ':root | --quote: "a;b}"',
      '@media (prefers-color-scheme: dark) :root | --bg: #000',
      '[data-theme="dark"] | --bg: #111',
    ]);
    assert.deepStrictEqual(scanSheet(css, 'css').fonts, ['@font-face "Geist"']);
    // Sass: a line comment, an interpolation in a selector, a variable in a rule (not the top level's)
    const scss = '// $commented: 1px;\n$gap: 8px; // the grid\n.col-#{$gap} { $inner: 2px; }\n$radius: 4px !default;\n';
    assert.deepStrictEqual(show(scss, 'scss'), ['Sass variables | $gap: 8px', 'Sass variables | $radius: 4px !default']);
  });

  it('reads a bounded number of style files and components, each line within its bound, never a secret or an ignored file', () => {
    const ws = tempDir('cape-facts-style-bounds-');
    const paths: string[] = [];
    const put = (rel: string, text: string) => {
      putFile(ws, rel, text);
      paths.push(rel);
    };
    for (let i = 0; i < 100; i++) put(`src/styles/sheet-${String(i).padStart(3, '0')}.css`, `:root {\n${Array.from({ length: 50 }, (_, j) => `  --c${i}-${j}: #${String(j).padStart(6, '0')};\n`).join('')}}\n`);
    for (let i = 0; i < 100; i++) put(`src/components/C${String(i).padStart(3, '0')}.vue`, '<template><p /></template>\n<style scoped>\np { margin: 0; }\n</style>\n');
    // named to the part, yet refused by the read policy: a secret by its name, an ignored build
    put('src/secrets.css', ':root { --leak-secret: red; }\n');
    put('dist/theme.css', ':root { --leak-ignored: red; }\n');
    putFile(ws, '.gitignore', 'dist/\n');
    const { policy, read } = recordingPolicy(ws);
    const style = stylePart(walkFiles(policy, { kept: paths, rootFiles: [] }), noSources(), 1200, { scale: 1 })!;
    assert.ok(read.length <= 12 + 40, `${read.length} files read`);
    assert.ok(!read.some((r) => r === 'src/secrets.css' || r.startsWith('dist/')), read.join(', '));
    assert.ok(!style.includes('leak'), style);
    assert.ok(style.length <= 1200, `${style.length}`);
    assert.match(style, /^- src\/styles\/sheet-000\.css: tokens \(:root 50\), most used first: --c0-0: #000000; .*; … \d+ more$/m);
    assert.match(style, /^- components with their own <style>: 40 of 40 \.vue files read \(100 in all; 40 scoped; lang css 40\)$/m);
  });

  it("a request that takes the style part and the README only gets the room of the others: a large theme's tokens and fonts whole", async () => {
    const ws = tempDir('cape-facts-style-room-');
    putFile(ws, 'package.json', '{"name":"app"}');
    putFile(ws, 'src/main.tsx', 'export {};\n');
    putFile(ws, 'README.md', '# App\n\nAn app with a large theme.\n');
    const tokens = Array.from({ length: 80 }, (_, i) => `--color-tone-${i}: oklch(0.${i} 0.1 ${i * 4})`);
    const fonts = Array.from({ length: 20 }, (_, i) => `"Display Face ${i}", serif`);
    putFile(ws, 'src/index.css', `:root {\n${tokens.map((t) => `  ${t};\n`).join('')}}\n${fonts.map((f, i) => `.f${i} { font-family: ${f}; }\n`).join('')}`);
    const brand = ['style', 'readme'] as const;
    const facts = (await readWorkspaceFacts(ws, undefined, undefined, [brand]))!;
    // a request taking all the parts gets what it got: the style part cut at its bound, tokens and fonts counted
    assert.strictEqual(facts.text, (await readWorkspaceFacts(ws))!.text);
    assert.match(factsPart(facts.text, 'Style sources'), /^- src\/index\.css: tokens \(:root 80\), .*; … \d+ more$/m);
    assert.match(factsPart(facts.text, 'Style sources'), /^- fonts \(style sources\): .*; … \d+ more$/m);
    // the brand's: every token and font, within the total
    const text = factsText(facts, brand);
    const style = factsPart(text, 'Style sources');
    for (const t of [...tokens, ...fonts]) assert.ok(style.includes(t), `${t} in:\n${style}`);
    assert.doesNotMatch(style, /… \d+ more/);
    assert.match(text, /^## README\.md \(its opening\)\n/m);
    assert.ok(!text.includes('## package.json') && text.length <= WORKSPACE_FACTS_MAX_CHARS, text);
    assert.deepStrictEqual(facts.files, ['package.json', 'src/index.css', 'README.md']);
  });
});

