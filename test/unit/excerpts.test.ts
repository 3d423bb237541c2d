// Excerpts of large files (core/workspace/excerpts.ts) and how DevA's section carries them (pack.ts): the lines that
// speak of the work, byte for byte, numbered; never room taken from whole files; never past the budget.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { selectExcerpt, type RangeAbout } from '../../src/core/workspace/excerpts';
import { declaredName } from '../../src/core/workspace/excerptLines';
import { termSpellings } from '../../src/core/workspace/tokens';
import { contextSummary, excerptLines, packWorkspace, rangeLabel, type WorkspaceContext } from '../../src/core/workspace/pack';
import type { RankQuery } from '../../src/core/workspace/rank';
import { terms } from '../../src/core/workspace/tokens';
import { WorkspaceIndex } from '../../src/core/workspace/workspaceIndex';
import { applyHunks } from '../../src/core/edits/match';

const q = (text: string) => new Map(terms(text).map((t) => [t, 1]));

/** A large module: `count` small functions about unrelated things, and one about uploads deep inside. */
function bigModule(count = 400, at = 250, eol = '\n'): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    if (i === at) {
      out.push('export class Uploader {', '  report(sent: number, total: number) {', '    const percent = total ? sent / total : 0;');
      for (let k = 0; k < 8; k++) out.push(`    if (sent < ${k}) return;`);
      out.push("    this.emit('uploadProgress', { percent, sent, total });", '  }', '}');
    } else {
      out.push(`export function helper${i}(value: number): number {`, `  // keeps the value ${i} in range`, `  return Math.max(0, value - ${i});`, '}');
    }
  }
  return out.join(eol) + eol;
}

describe('excerpts of a large file', () => {
  it('shows the lines that hold the rare words of the work, from their block header, byte for byte', () => {
    const text = bigModule();
    const ex = selectExcerpt(text, q('Make uploadProgress emit granular progress events'), 3000);
    assert.ok(ex, 'an excerpt');
    assert.ok(ex.chars <= 3000, String(ex.chars));
    const lines = text.split('\n');
    assert.strictEqual(ex.lines, lines.length - 1);
    const hit = lines.findIndex((l) => l.includes("this.emit('uploadProgress'")) + 1;
    // the method the line is in, though it starts more lines above than a window shows before its best line
    const header = lines.findIndex((l) => l.startsWith('  report(')) + 1;
    assert.ok(hit - header > 4);
    assert.ok(ex.ranges.some((r) => r.start <= header && r.end >= hit), JSON.stringify(ex.ranges));
    ex.ranges.forEach((r, i) => {
      assert.ok(r.start >= 1 && r.end >= r.start && r.end <= ex.lines);
      if (i) assert.ok(r.start > ex.ranges[i - 1].end + 1, 'ranges in file order, apart');
      assert.strictEqual(ex.texts[i], lines.slice(r.start - 1, r.end).join('\n'), 'the file’s own lines');
    });
  });

  it("shows the file's imports first, where they fit: an <edit> adding one anchors its SEARCH on them", () => {
    const imports = ['// Copyright notice', '/* eslint-disable */', "import { a } from './a';", 'import {', '  b,', '  c,', "} from './bc';", "const d = require('d');", ''];
    const text = imports.join('\n') + '\n' + bigModule();
    const ex = selectExcerpt(text, q('Make uploadProgress emit granular progress events'), 3000);
    assert.ok(ex);
    assert.deepStrictEqual(ex.ranges[0], { start: 3, end: 8 }, 'from the first import to the last, not the comments above');
    assert.strictEqual(ex.texts[0], imports.slice(2, 8).join('\n'));
    assert.ok(ex.texts.some((t) => t.includes("this.emit('uploadProgress'")), 'the work is still shown');
    // Python and Rust too; a long block is cut at its end, within a fifth of the budget
    const py = selectExcerpt(['# a module', 'import os', 'from typing import Any', '', ...bigModule().split('\n')].join('\n'), q('uploadProgress'), 3000);
    assert.deepStrictEqual(py?.ranges[0], { start: 2, end: 3 });
    const many = Array.from({ length: 60 }, (_, i) => `use crate::module_${i}::Thing${i};`);
    const rs = selectExcerpt([...many, '', ...bigModule().split('\n')].join('\n'), q('uploadProgress'), 3000)!;
    assert.strictEqual(rs.ranges[0].start, 1);
    assert.ok(rs.ranges[0].end < 60 && rs.texts[0].length <= 600, `${rs.ranges[0].end} lines, ${rs.texts[0].length} chars`);
    // Go's import block, its quoted paths and aliases to the closing bracket; Rust's nested use the same
    const goImports = ['package chi', '', 'import (', '\t"context"', '\t"net/http"', '', '\tmw "github.com/go-chi/chi/v5/middleware"', ')', ''];
    const go = selectExcerpt([...goImports, ...bigModule().split('\n')].join('\n'), q('uploadProgress'), 3000)!;
    assert.deepStrictEqual(go.ranges[0], { start: 3, end: 8 });
    const rsNested = selectExcerpt(['use std::{', '    fs,', '    io::{self, Read},', '};', '', ...bigModule().split('\n')].join('\n'), q('uploadProgress'), 3000)!;
    assert.deepStrictEqual(rsNested.ranges[0], { start: 1, end: 4 });
    // a file that opens with code has no import block to show
    assert.ok(!selectExcerpt(bigModule(), q('uploadProgress'), 3000)!.ranges.some((r) => r.start === 1));
  });

  it('places the change by the rare words of the work, not by words every line holds', () => {
    const text = bigModule(300, 40);
    // "value" and "range" are on every helper; only the identifier places the change
    const ex = selectExcerpt(text, q('keep the value in range when uploadProgress fires'), 800);
    assert.ok(ex);
    const lines = text.split('\n');
    const hit = lines.findIndex((l) => l.includes('uploadProgress')) + 1;
    assert.ok(ex.ranges.some((r) => r.start <= hit && r.end >= hit), JSON.stringify(ex.ranges));
  });

  it('keeps a CRLF file’s carriage returns, so a SEARCH quoting the excerpt matches the file', () => {
    const text = bigModule(200, 120, '\r\n');
    const ex = selectExcerpt(text, q('uploadProgress percent'), 2000);
    assert.ok(ex);
    const shown = ex.texts.find((t) => t.includes('uploadProgress'))!.split('\n');
    const i = shown.findIndex((l) => l.includes('uploadProgress'));
    assert.ok(shown[i].endsWith('\r'));
    const search = shown.slice(i - 1, i + 1).map((l) => l.replace(/\r$/, ''));
    const applied = applyHunks(text, [{ search, replace: [search[0], "    this.emit('uploadProgress', { percent, sent, total, granular: true });"] }]);
    assert.ok(applied.ok, JSON.stringify(applied));
    assert.ok(applied.content.includes('granular: true });\r\n'));
  });

  it('shows where a name of the work is declared rather than where it is only used', () => {
    const lines: string[] = [];
    for (let i = 0; i < 400; i++) lines.push(`  helper${i}() { return this._storeOptionsAsProperties ? ${i} : 0; }`);
    lines.splice(300, 0, '  storeOptionsAsProperties(value = true) {', '    if (this.options.length) throw new Error("too late");', '    this._storeOptionsAsProperties = !!value;', '    return this;', '  }');
    const text = `class Command {\n${lines.join('\n')}\n}\n`;
    const all = text.split('\n');
    const at = all.indexOf('  storeOptionsAsProperties(value = true) {') + 1;
    const ex = selectExcerpt(text, q('Restore the sanity check when enabling storeOptionsAsProperties'), 500);
    assert.ok(ex && ex.ranges.some((r) => r.start <= at && r.end >= at + 4), JSON.stringify(ex?.ranges));
  });

  it('shows where a name made of the objective’s words is declared (addOption for "add option")', () => {
    const lines: string[] = ['class Command {'];
    // every line adds, flags and throws: only the declaration tells the place
    for (let i = 1; i < 400; i++) lines.push(`  step${i}() { this.addFlag('--flag-${i}'); throw this._error('bad option'); }`);
    lines.splice(250, 0, '  addOption(option) {', '    const name = option.attributeName();', '    this.options.push(option);', '    return this;', '  }');
    const text = `${lines.join('\n')}\n}\n`;
    const ex = selectExcerpt(text, q('Throw error when add option with clashing flags'), 600);
    assert.ok(ex && ex.ranges.some((r) => r.start <= 251 && r.end >= 253), JSON.stringify(ex?.ranges));
  });

  it('cuts a window too long for the room from above its best line first: a change follows its anchor', () => {
    const lines = Array.from({ length: 200 }, (_, i) => `const filler${i} = ${i};`);
    lines[100] = 'export function targetHandler() {';
    const text = lines.join('\n') + '\n';
    const ex = selectExcerpt(text, q('targetHandler'), 120);
    assert.ok(ex && ex.ranges.length === 1, JSON.stringify(ex?.ranges));
    assert.strictEqual(ex.ranges[0].start, 101);
    assert.ok(ex.ranges[0].end > 102 && ex.chars <= 120, JSON.stringify(ex.ranges));
  });

  it('places a window by its best line, not by a line at its edge', () => {
    const lines: string[] = ['class Settings {'];
    for (let i = 1; i < 300; i++) lines.push(`  field${i} = ${i};`);
    lines[100] = '  // the check runs before anything else';
    lines.splice(114, 5, '  enableStore(value) {', '    if (!value) return;', '    this.stored = true;', '    this.flush();', '  }');
    const text = `${lines.join('\n')}\n}\n`;
    // the window of the comment (a word of the work) ends on the declaration; the declaration's own shows its body
    const ex = selectExcerpt(text, q('sanity check when calling enableStore'), 360);
    assert.ok(ex && ex.ranges.some((r) => r.start <= 115 && r.end >= 119), JSON.stringify(ex?.ranges));
  });

  it('takes the first window by the objective: the upstream work’s many words come after it', () => {
    const lines: string[] = [];
    for (let i = 0; i < 300; i++) lines.push(`export const filler${i} = ${i};`);
    lines[60] = 'export function renderHelpOutput(text) { return writeErrorMessage(displayOutput(text)); }';
    lines[200] = 'export function storeValues(cmd) { return cmd; }';
    const text = lines.join('\n') + '\n';
    const query = new Map<string, number>();
    for (const t of terms('help output render error message display write')) query.set(t, 0.5);
    for (const t of terms('store values')) query.set(t, 1);
    const ex = selectExcerpt(text, query, 450);
    assert.ok(ex && ex.ranges.length === 1 && ex.ranges[0].start <= 201 && ex.ranges[0].end >= 201, JSON.stringify(ex?.ranges));
    // with room for more, the work's place follows
    const more = selectExcerpt(text, query, 2000);
    assert.ok(more && more.ranges.some((r) => r.start <= 61 && r.end >= 61), JSON.stringify(more?.ranges));
  });

  it('tells declarations from calls and control statements', () => {
    const cases: [string, string | null][] = [
      ['  storeOptionsAsProperties(storeAsProperties = true) {', 'storeOptionsAsProperties'],
      ['export async function saveNote(note) {', 'saveNote'],
      ['const save = (x) => x;', 'save'],
      ['class Foo extends Bar {', 'Foo'],
      ['  async run(): Promise<void> {', 'run'],
      ['  get name() {', 'name'],
      ['  foo: function () {', 'foo'],
      ['def parse_args(argv):', 'parse_args'],
      ['  addOption(option) {', 'addOption'],
      ['  save(x);', null],
      ['  if (x) {', null],
      ['  for (const a of b) {', null],
      ['    return foo(bar);', null],
      ['  } else {', null],
    ];
    for (const [line, name] of cases) assert.strictEqual(declaredName(line), name, line);
    // a CRLF file's lines keep their `\r` when split on `\n`: the same declarations
    for (const [line, name] of cases) assert.strictEqual(declaredName(line + '\r'), name, `${line} + CR`);
  });

  it('gives nothing when no line holds a word of the work, or there is no room; ignores minified lines', () => {
    const text = bigModule(50, 10);
    assert.strictEqual(selectExcerpt(text, q('database migration'), 4000), null);
    assert.strictEqual(selectExcerpt(text, q('uploadProgress'), 0), null);
    assert.strictEqual(selectExcerpt('', q('uploadProgress'), 4000), null);
    const minified = `${'var a=1;'.repeat(100)}uploadProgress();\n${text}`;
    const ex = selectExcerpt(minified, q('uploadProgress'), 4000);
    assert.ok(ex && ex.ranges.every((r) => r.start > 1), 'the minified first line is no anchor');
  });

  it('counts each range’s overhead on the ranges as finally merged, and says what of the work each range holds', () => {
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) lines.push(i % 97 === 40 ? `  flushQueue(${i}); // drops items` : `  step(${i}); // keeps the order`);
    lines[1500] = '  flushQueue(queue) {';
    const text = `export class Runner {\n${lines.join('\n')}\n}\n`;
    let tight = 0;
    for (let budget = 300; budget <= 6000; budget += 137) {
      const overhead = (r: { start: number; end: number }, a: RangeAbout) => 40 + a.terms.length * 7 + a.declares.length * 11 + (r.end - r.start > 10 ? 3 : 0);
      const ex = selectExcerpt(text, q('flushQueue drops items'), budget, { overhead });
      if (!ex) continue;
      const spent = ex.ranges.reduce((s, r, i) => s + ex.texts[i].length + overhead(r, ex.about[i]), 0);
      assert.ok(spent <= budget, `budget ${budget}: ${spent}`);
      if (spent > budget - 120) tight++;
      // ranges never touch: a gap of MERGE_GAP lines or fewer is filled
      for (let i = 1; i < ex.ranges.length; i++) assert.ok(ex.ranges[i].start - ex.ranges[i - 1].end > 4, JSON.stringify(ex.ranges));
    }
    assert.ok(tight > 20, `the budget is used, not left idle: ${tight}`);
    const ex = selectExcerpt(text, q('flushQueue drops items'), 4000, { overhead: () => 30 })!;
    const at = ex.ranges.findIndex((r) => r.start <= 1502 && r.end >= 1502);
    assert.ok(at >= 0, JSON.stringify(ex.ranges));
    assert.deepStrictEqual(ex.about[at].declares, ['flushQueue']);
    const spelled = termSpellings('flushQueue drops items');
    assert.strictEqual(rangeLabel(ex.about[at], spelled), ' (declares flushQueue; mentions drops, items)');
    assert.strictEqual(rangeLabel({ declares: [], terms: [] }, spelled), '');
    // a word said by a longer name is not said again; words the work does not write are not shown
    assert.strictEqual(rangeLabel({ declares: [], terms: ['flushqueue', 'flush', 'queue', 'zzz'] }, spelled), ' (mentions flushQueue)');
  });

  it('prefers the lines an upstream role read for this work', () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `  step(${i}); // keeps the order`);
    lines[300] = '  queue.flushQueue(items);';
    lines[2000] = '  queue.flushQueue(items);';
    const text = `export function run() {\n${lines.join('\n')}\n}\n`;
    const span = (ex: ReturnType<typeof selectExcerpt>, line: number) => {
      const r = ex?.ranges.find((x) => x.start <= line && x.end >= line);
      return r ? r.end - r.start + 1 : 0;
    };
    // room for one whole window: the same words twice, the earlier wins the tie — unless the other was read upstream
    const plain = selectExcerpt(text, q('flushQueue items'), 600);
    assert.ok(span(plain, 302) >= 15 && span(plain, 2002) < 3, JSON.stringify(plain?.ranges));
    const favoured = selectExcerpt(text, q('flushQueue items'), 600, { favoured: [{ start: 1990, end: 2040 }] });
    assert.ok(span(favoured, 2002) >= 15 && span(favoured, 302) < 3, JSON.stringify(favoured?.ranges));
  });

  it('shows a range an upstream role read by line numbers as it is, first, when it fits; a longer one is only favoured', () => {
    // a changelog: the next entry goes under the heading at the top, whose lines hold none of the work's words
    const lines = ['Development Version', '-------------------', '', 'Enhancements', ''];
    for (let i = 0; lines.length < 800; i++) lines.push(`* Fix issue${i} in the lexer (pr${i}).`);
    lines[25] = '* Add --in-place to sqlformat for formatting files in place.';
    lines[600] = '* Add output_format option to format the SQL as Python.';
    const text = lines.join('\n') + '\n';
    const work = q('sqlformat --check reports files whose formatting would change');
    const plain = selectExcerpt(text, work, 1500)!;
    assert.ok(plain.ranges.every((r) => r.start > 5), `the words alone skip the heading: ${JSON.stringify(plain.ranges)}`);
    const pinned = selectExcerpt(text, work, 1500, { pinned: [{ start: 1, end: 12 }], favoured: [{ start: 1, end: 12 }] })!;
    assert.deepStrictEqual(pinned.ranges[0].start, 1, JSON.stringify(pinned.ranges));
    assert.ok(pinned.ranges[0].end >= 12);
    assert.strictEqual(pinned.texts[0].split('\n').slice(0, 2).join('\n'), 'Development Version\n-------------------');
    assert.ok(pinned.ranges.some((r) => r.start <= 26 && r.end >= 26), 'the words still pick their lines in the room left');
    assert.ok(pinned.chars <= 1500);
    // a range past the file's end is cut to it; one too long for its share is not shown whole
    assert.strictEqual(selectExcerpt(text, new Map(), 1500, { pinned: [{ start: 795, end: 900 }] })!.ranges[0].end, 800);
    const long = selectExcerpt(text, work, 1500, { pinned: [{ start: 1, end: 400 }], favoured: [{ start: 1, end: 400 }] })!;
    assert.ok(!long.ranges.some((r) => r.start === 1 && r.end >= 400), JSON.stringify(long.ranges));
  });

  it('spends the budget on several places, each word shown once before any is shown twice', () => {
    const lines: string[] = [];
    for (let i = 0; i < 300; i++) lines.push(`export const filler${i} = ${i};`);
    lines[50] = 'export function retryRequest() { return 1; }';
    lines[150] = 'export function backoffDelay() { return 2; }';
    lines[250] = 'export function retryRequestAgain() { return retryRequest(); }';
    const text = lines.join('\n') + '\n';
    const ex = selectExcerpt(text, q('retry request backoff'), 1300);
    assert.ok(ex);
    const shows = (n: number) => ex.ranges.some((r) => r.start <= n + 1 && r.end >= n + 1);
    // room for two whole windows: a retryRequest (two words), then backoff (the word not shown yet) — the other
    // retryRequest only gets what room is left (its best line, and what follows it as far as the budget goes)
    const around = (n: number) => ex.ranges.find((r) => r.start <= n + 1 && r.end >= n + 1);
    assert.ok(shows(150) && around(150)!.end - around(150)!.start >= 15, JSON.stringify(ex.ranges));
    assert.ok(shows(50) && shows(250), JSON.stringify(ex.ranges));
    assert.ok(Math.min(around(50)!.end - around(50)!.start, around(250)!.end - around(250)!.start) < 15, JSON.stringify(ex.ranges));
    assert.ok(ex.chars <= 1300);
  });
});

function write(root: string, rel: string, content: string): void {
  const abs = path.join(root, ...rel.split('/'));
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
}

const read = (root: string) => (rel: string) => fs.readFileSync(path.join(root, ...rel.split('/')), 'utf8');

describe('DevA’s section with excerpts', () => {
  function workspace(): string {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-excerpts-'));
    write(root, 'src/core/uploader.ts', bigModule(1500, 900)); // ~100,000 characters: never whole at 60,000
    write(root, 'src/progress.ts', "import { Uploader } from './core/uploader';\nexport function onUploadProgress(u: Uploader) { return u; }\n");
    write(root, 'src/cli.ts', 'export function main() { return 0; }\n');
    for (let i = 0; i < 30; i++) write(root, `src/misc/m${i}.ts`, `export function misc${i}() { return ${i}; }\n`);
    return root;
  }

  it('sends a well-ranked file too large to go whole as excerpts, after the whole files and before the map', async () => {
    const root = workspace();
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const ctx = packWorkspace(index, { objective: 'Make `uploadProgress` emit granular progress events' }, { step: 'deva', budget: 60_000, readText: read(root) });
    const big = ctx.files.find((f) => f.path === 'src/core/uploader.ts');
    assert.ok(big && !big.whole && big.excerpts?.length, JSON.stringify(ctx.files.slice(0, 4)));
    assert.ok(ctx.files.find((f) => f.path === 'src/progress.ts')?.whole);
    const forms = ctx.files.map((f) => (f.whole ? 0 : f.excerpts ? 1 : 2));
    assert.deepStrictEqual(forms, [...forms].sort(), 'whole, then excerpts, then map lines');
    const text = read(root)('src/core/uploader.ts');
    const lines = text.split('\n');
    // under its heading, the file's public names with their signatures (a class's members too), then the ranges
    assert.match(ctx.text, new RegExp(`### src/core/uploader\\.ts \\(excerpts of ${lines.length - 1} lines\\)\\nDeclares: [^\\n]+\\nlines \\d+–\\d+ \\(mentions uploadProgress, emit\\):\\n\`\`\`ts\\n`));
    const declares = /\nDeclares: ([^\n]+)\n/.exec(ctx.text)![1];
    assert.ok(declares.length <= 600 && /^helper0\(value: number\): number, helper1/.test(declares), declares);
    for (const r of big.excerpts!) {
      const span = r.start === r.end ? `line ${r.start}` : `lines ${r.start}–${r.end}`;
      // each range: its heading (line numbers, then what of the work it holds), then its lines byte for byte
      const at = ctx.text.indexOf(`\n${span}`);
      assert.ok(at >= 0, span);
      const heading = ctx.text.slice(at + 1, ctx.text.indexOf('\n', at + 1));
      assert.match(heading, /^lines? [\d–]+( \((declares [\w, ]+)?(; )?(mentions [\w, ]+)?\))?:$/);
      assert.ok(ctx.text.includes(`${heading}\n\`\`\`ts\n${lines.slice(r.start - 1, r.end).join('\n')}\n\`\`\``));
    }
    const hit = lines.findIndex((l) => l.includes("this.emit('uploadProgress'")) + 1;
    assert.ok(big.excerpts!.some((r) => r.start <= hit && r.end >= hit));
    assert.match(ctx.text, /1 larger one\(s\) in excerpts/);
    assert.ok(ctx.mapChars >= 200 && /### Map\n/.test(ctx.text), 'the map keeps room');
    assert.ok(ctx.totalChars <= 60_000 && ctx.totalChars === ctx.text.length);
    assert.match(contextSummary(ctx), /^\d+ file\(s\) whole, 1 in excerpts, \d+ as map lines$/);
    assert.match(excerptLines(big.excerpts!), /^lines \d+–\d+/);
    assert.strictEqual(excerptLines([{ start: 7, end: 7 }]), 'line 7');
    assert.strictEqual(excerptLines([{ start: 3, end: 9 }, { start: 20, end: 20 }]), 'lines 3–9, 20');
  });

  it('never passes the budget, and never takes room from whole files', async function () {
    this.timeout(60_000); // many budgets, each a full pack: ~4 s alone, several times that on a loaded machine
    const root = workspace();
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const query = { objective: 'Make `uploadProgress` emit granular progress events' };
    for (let budget = 0; budget <= 12_000; budget += 379) {
      const ctx = packWorkspace(index, query, { step: 'deva', budget, readText: read(root) });
      assert.ok(ctx.totalChars <= budget, `budget ${budget}: ${ctx.totalChars}`);
    }
    // the whole files are those of a workspace where the large file has nothing to excerpt, at any budget
    const whole = (budget: number, readText: (rel: string) => string) =>
      packWorkspace(index, query, { step: 'deva', budget, readText })
        .files.filter((f) => f.whole)
        .map((f) => f.path);
    const noWords = (rel: string) => (rel === 'src/core/uploader.ts' ? 'x\n'.repeat(50_000) : read(root)(rel));
    let excerpted = 0;
    for (let budget = 2500; budget <= 6000; budget += 23) {
      const ctx = packWorkspace(index, query, { step: 'deva', budget, readText: read(root) });
      if (ctx.files.some((f) => f.excerpts)) excerpted++;
      assert.deepStrictEqual(whole(budget, read(root)), whole(budget, noWords), `budget ${budget}`);
    }
    assert.ok(excerpted > 50, String(excerpted));
  });

  it('keeps the excerpts of a file of many ranges, each range’s heading and fences counted as it picks them', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-excerpts-many-'));
    // the word of the work on one line in every 60: each window a range of its own, each range a heading and fences
    const lines = Array.from({ length: 6000 }, (_, i) => (i % 60 === 30 ? `  flushQueue(${i});` : `  step(${i}); // keeps the order`));
    write(root, 'src/queue.ts', `export function run() {\n${lines.join('\n')}\n}\n`);
    write(root, 'src/other.ts', 'export const other = 1;\n');
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    let most = 0;
    for (let budget = 3250; budget <= 8000; budget += 250) {
      const ctx = packWorkspace(index, { objective: 'flushQueue drops items' }, { step: 'deva', budget, readText: read(root) });
      const queue = ctx.files.find((f) => f.path === 'src/queue.ts');
      assert.ok(queue?.excerpts?.length, `budget ${budget}: ${JSON.stringify(queue)}`);
      assert.ok(ctx.totalChars <= budget);
      most = Math.max(most, queue.excerpts.length);
    }
    assert.ok(most >= 6, String(most));
  });

  it('takes of the upstream work only the code it names, not its prose words', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-excerpts-work-'));
    const lines = Array.from({ length: 3000 }, (_, i) => `  step(${i}); // keeps the order`);
    lines[400] = '  // callers may actually want this to appear twice';
    lines[1200] = '  validateArgs(args) {';
    lines[2500] = '  reportExcess(args) { // excess arguments';
    write(root, 'src/parser.ts', `export class Parser {\n${lines.join('\n')}\n}\n`);
    write(root, 'src/other.ts', 'export const other = 1;\n');
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const work = 'The message should actually appear once; `validateArgs` keeps checking the count.';
    const ctx = packWorkspace(index, { objective: 'report excess arguments', work }, { step: 'deva', budget: 8000, readText: read(root) });
    const ranges = ctx.files.find((f) => f.path === 'src/parser.ts')?.excerpts ?? [];
    const shows = (line: number) => ranges.some((r) => r.start <= line && r.end >= line);
    assert.ok(shows(2502), JSON.stringify(ranges));
    assert.ok(shows(1202), 'the work’s code identifier opens a range');
    assert.ok(!shows(402), 'the work’s prose words do not');
    assert.match(ctx.text, /\(declares validateArgs\):/);
  });

  it('favours in a large file’s excerpts the lines DA read', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-excerpts-read-'));
    const lines = Array.from({ length: 6000 }, (_, i) => (i % 500 === 250 ? `  queue.flushQueue(${i});` : `  step(${i}); // keeps the order`));
    write(root, 'src/queue.ts', `export function run() {\n${lines.join('\n')}\n}\n`);
    write(root, 'src/other.ts', 'export const other = 1;\n');
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const excerpts = (daRead?: RankQuery['read']) =>
      packWorkspace(index, { objective: 'flushQueue', ...(daRead ? { read: daRead } : {}) }, { step: 'deva', budget: 3400, readText: read(root) })
        .files.find((f) => f.path === 'src/queue.ts')?.excerpts ?? [];
    const has = (rs: { start: number; end: number }[], line: number) => rs.some((r) => r.start <= line && r.end >= line);
    assert.ok(!has(excerpts(), 4252), JSON.stringify(excerpts()));
    const daRead = { by: 'DA', files: [{ path: 'src/queue.ts', lines: [[4240, 4270] as [number, number]] }] };
    assert.ok(has(excerpts(daRead), 4252), JSON.stringify(excerpts(daRead)));
  });

  it('shows in a large file’s excerpts the lines DA’s reply cites, inside a range it read too long to show as read', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-excerpts-cited-'));
    // the work's words are on every 500th line; the listener DA points at holds none of them
    const lines = Array.from({ length: 6000 }, (_, i) => (i % 500 === 250 ? `  queue.flushQueue(${i});` : i === 3010 ? '  this.on(`option:${name}`, listener);' : `  step(${i}); // keeps the order`));
    write(root, 'src/queue.ts', `export function run() {\n${lines.join('\n')}\n}\n`);
    write(root, 'src/other.ts', 'export const other = 1;\n');
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const excerpts = (daRead: RankQuery['read']) =>
      packWorkspace(index, { objective: 'flushQueue', read: daRead }, { step: 'deva', budget: 3400, readText: read(root) }).files.find((f) => f.path === 'src/queue.ts')?.excerpts ?? [];
    const has = (rs: { start: number; end: number }[], line: number) => rs.some((r) => r.start <= line && r.end >= line);
    const readLong = { path: 'src/queue.ts', lines: [[2900, 3100] as [number, number]] };
    assert.ok(!has(excerpts({ by: 'DA', files: [readLong] }), 3012), 'read alone: too long to show as read');
    const cited = excerpts({ by: 'DA', files: [{ ...readLong, cited: [[3012, 3012]] }] });
    assert.ok(has(cited, 3008) && has(cited, 3016), JSON.stringify(cited));
    // a file DA cites without reading it is excerpted at those lines too
    assert.ok(has(excerpts({ by: 'DA', files: [{ path: 'src/queue.ts', cited: [[3012, 3012]] }] }), 3012));
  });

  it('gives excerpts to a large file the upstream role read in part, though others rank above it', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-excerpts-upstream-'));
    // three large sources about the work take the first excerpt places; the guide speaks of it once, deep inside
    for (const name of ['a', 'b', 'c']) {
      const body = Array.from({ length: 1500 }, (_, i) => (i % 300 === 7 ? `  queue.flushQueue(${i}); // ${name}` : `  step(${i}); // keeps the order of ${name}`));
      write(root, `src/${name}.ts`, `export function run${name}() {\n${body.join('\n')}\n}\n`);
    }
    const guide = Array.from({ length: 3000 }, (_, i) => (i === 2251 ? 'Call flushQueue() before you close the queue.' : `Paragraph ${i} of the guide, about the order of steps.`));
    write(root, 'docs/guide.md', `# Guide\n${guide.join('\n')}\n`);
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const pack = (daRead?: RankQuery['read']): WorkspaceContext =>
      packWorkspace(index, { objective: 'flushQueue', ...(daRead ? { read: daRead } : {}) }, { step: 'deva', budget: 40000, readText: read(root) });
    const excerptsOf = (ctx: WorkspaceContext, p: string) => ctx.files.find((f) => f.path === p)?.excerpts;
    const plain = pack();
    assert.deepStrictEqual(plain.files.filter((f) => f.excerpts).map((f) => f.path).sort(), ['src/a.ts', 'src/b.ts', 'src/c.ts']);
    assert.strictEqual(excerptsOf(plain, 'docs/guide.md'), undefined);
    const withRead = pack({ by: 'DA', files: [{ path: 'docs/guide.md', lines: [[2240, 2270]] }] });
    const shown = excerptsOf(withRead, 'docs/guide.md');
    assert.ok(shown?.some((r) => r.start <= 2253 && r.end >= 2253), JSON.stringify(shown));
    assert.ok(withRead.totalChars <= 40000);
    assert.match(withRead.text, /4 larger one\(s\) in excerpts/);
    // a short range read by its numbers, without the work's words, is shown as it was read: where the next entry goes
    const atTop = excerptsOf(pack({ by: 'DA', files: [{ path: 'docs/guide.md', lines: [[1, 12]] }] }), 'docs/guide.md');
    assert.deepStrictEqual(atTop?.[0], { start: 1, end: 12 }, JSON.stringify(atTop));
  });

  it("gives DevA the project's formatter settings whole, after the ranked files and named in the head; not DA, not a large one", async () => {
    const root = workspace();
    const prettier = '{\n  "singleQuote": true,\n  "printWidth": 80\n}\n';
    write(root, '.prettierrc', prettier);
    write(root, '.editorconfig', 'root = true\n[*]\nindent_style = space\n');
    write(root, 'packages/web/.prettierrc', '{}\n'); // a nested one governs only the files below it
    const objective = 'Make `uploadProgress` emit granular progress events';
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const ctx = packWorkspace(index, { objective }, { step: 'deva', budget: 60_000, readText: read(root) });
    assert.deepStrictEqual(ctx.files.filter((f) => /(prettierrc|editorconfig)$/.test(f.path)).map((f) => [f.path, f.whole]), [['.editorconfig', true], ['.prettierrc', true], ['packages/web/.prettierrc', false]]);
    assert.ok(ctx.text.includes(`### .prettierrc\n\`\`\`\n${prettier}\`\`\``), 'byte for byte');
    assert.match(ctx.text, /The project's formatter settings \(\.editorconfig, \.prettierrc\) follow the whole files: lay out new and changed lines by them/);
    // the head counts the ranked files whole, not the settings
    const ranked = ctx.files.filter((f) => f.whole && !['.editorconfig', '.prettierrc'].includes(f.path)).length;
    assert.match(ctx.text, new RegExp(`^Ranked for this work: ${ranked} file\\(s\\) whole,`));
    assert.ok(ctx.text.indexOf('### .prettierrc') > ctx.text.indexOf('### src/progress.ts'), 'after the ranked whole files');
    assert.ok(ctx.totalChars <= 60_000);
    // a sub-project's settings govern the files below them (`frontend/biome.json`): sent when a whole file is there,
    // the nearest first; one over files DevA was not given whole is not
    write(root, 'src/biome.json', '{ "formatter": { "indentStyle": "space" } }\n');
    const { index: nested } = await WorkspaceIndex.open(root, { cacheFile: null });
    const near = packWorkspace(nested, { objective }, { step: 'deva', budget: 60_000, readText: read(root) });
    assert.deepStrictEqual(near.files.filter((f) => /(prettierrc|editorconfig|biome\.json)$/.test(f.path) && f.whole).map((f) => f.path), ['src/biome.json', '.editorconfig', '.prettierrc']);
    assert.match(near.text, /formatter settings \(src\/biome\.json, \.editorconfig, \.prettierrc\) follow/);
    assert.ok(!near.files.find((f) => f.path === 'packages/web/.prettierrc')?.whole, 'no whole file under packages/web/');
    fs.rmSync(path.join(root, 'src/biome.json'));
    // a settings file of more than 1,500 characters is more than layout: not sent, not named
    write(root, '.prettierrc', `{\n  "overrides": [${'{"files": "*.md", "options": {"proseWrap": "always"}},'.repeat(40)}{}]\n}\n`);
    const { index: again } = await WorkspaceIndex.open(root, { cacheFile: null });
    const big = packWorkspace(again, { objective }, { step: 'deva', budget: 60_000, readText: read(root) });
    assert.ok(!big.files.find((f) => f.path === '.prettierrc')?.whole);
    assert.match(big.text, /formatter settings \(\.editorconfig\) follow/);
    // DA gets none
    const da = packWorkspace(index, { objective }, { step: 'da', readText: read(root) });
    assert.ok(!da.text.includes('formatter settings') && !da.files.some((f) => f.path === '.prettierrc'));
  });

  it('gives DA no excerpts (a map of UI files only)', async () => {
    const root = workspace();
    write(root, 'src/components/UploadBar.tsx', `export function UploadBar() { return null; }\n${'// upload progress bar\n'.repeat(4000)}`);
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const ctx = packWorkspace(index, { objective: 'upload progress bar' }, { step: 'da', readText: read(root) });
    assert.ok(ctx.files.length && ctx.files.every((f) => !f.whole && !f.excerpts));
  });
});

describe("DevA's excerpts of a changelog", () => {
  /**
   * A changelog of `releases` old releases of `items` items, one of them deep inside naming the work's words; each item
   * `width` characters at least.
   */
  function changelog(releases: number, width = 0, items = 6): string {
    const out = ['# Changelog', '', 'All notable changes are listed here, newest first.', ''];
    for (let i = releases; i > 0; i--) {
      out.push(`## [1.${i}.0] - 2020-01-01`, '', '### Fixed', '');
      for (let j = 0; j < items; j++) out.push(`* Item ${j} of release ${i}: ${i === 40 ? 'abbreviation matching keeps its title' : 'a parser detail'} (#${i * 10 + j}).`.padEnd(width, ' and more'));
      out.push('');
    }
    return out.join('\n');
  }

  it('open with its head, where the next entry goes, and name none of its release headings', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-changelog-'));
    write(root, 'src/abbr.ts', 'export function matchAbbreviation(text: string, title: string) { return text + title; }\n');
    write(root, 'docs/changelog.md', changelog(600));
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const text = read(root)('docs/changelog.md');
    const deep = text.split('\n').findIndex((l) => l.includes('abbreviation matching')) + 1;
    assert.ok(deep > 1000 && text.length > 60_000, String(deep));
    // DA searched the changelog and found the old entry: DevA gets excerpts of it
    const ctx = packWorkspace(
      index,
      { objective: 'abbreviation matching ignores letter case, keeping the title', read: { by: 'DA', files: [{ path: 'docs/changelog.md', hits: [deep] }] } },
      { step: 'deva', budget: 60_000, readText: read(root) },
    );
    const log = ctx.files.find((f) => f.path === 'docs/changelog.md');
    assert.ok(log?.excerpts?.length, JSON.stringify(ctx.files));
    assert.ok(log.excerpts.some((r) => r.start === 1 && r.end >= 20), JSON.stringify(log.excerpts));
    assert.ok(log.excerpts.some((r) => r.start <= deep && r.end >= deep), 'the old entry DA found too');
    assert.match(ctx.text, /### docs\/changelog\.md \(excerpts of \d+ lines\)\nlines? 1–/);
    assert.doesNotMatch(ctx.text, /Declares: .*\[1\.600\.0\]/);
  });

  it('open with as much of its head as fits, when its first lines are long', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-changelog-'));
    write(root, 'src/abbr.ts', 'export function matchAbbreviation(text: string, title: string) { return text + title; }\n');
    write(root, 'CHANGELOG.md', changelog(120, 110, 30));
    const { index } = await WorkspaceIndex.open(root, { cacheFile: null });
    const text = read(root)('CHANGELOG.md');
    const deep = text.split('\n').findIndex((l) => l.includes('abbreviation matching')) + 1;
    assert.ok(text.split('\n').slice(0, 30).join('\n').length > 2500, 'its first 30 lines are longer than the pinned share of an excerpt');
    const ctx = packWorkspace(
      index,
      { objective: 'abbreviation matching ignores letter case, keeping the title', read: { by: 'DA', files: [{ path: 'CHANGELOG.md', hits: [deep] }] } },
      { step: 'deva', budget: 60_000, readText: read(root) },
    );
    const log = ctx.files.find((f) => f.path === 'CHANGELOG.md');
    assert.ok(log?.excerpts, JSON.stringify(ctx.files));
    assert.ok(log.excerpts.some((r) => r.start === 1 && r.end >= 8), JSON.stringify(log.excerpts));
    assert.ok(log.excerpts.some((r) => r.start <= deep && r.end >= deep), 'the old entry DA found too');
    assert.ok(ctx.totalChars <= 60_000);
  });
});
