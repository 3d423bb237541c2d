// The workspace index at monorepo scale: a generated 50,000-file TypeScript workspace (deterministic), then
//  - a cold build (index + cache file) in a fresh process: time and peak memory (targets ≤ 5 s, ≤ 300 MB);
//  - an incremental refresh after 100 files changed (mtimes) and one file added;
//  - a warm `cape context --json` (the bundled CLI, cache present): wall time (target ≤ 1 s).
// Run alone: node out/bench/workspaceIndex.js [FILES]
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { rng } from './rng';

const WORDS = ('user account session token theme color layout button modal dialog form field input validate parse format ' +
  'request response header cache store query filter sort page route handler server client socket stream buffer event ' +
  'queue worker job task schedule retry timeout error log metric trace config option setting plugin module service ' +
  'repository model entity schema migration index search rank score vector embed file path folder upload download').split(' ');

function cap(w: string): string {
  return w[0].toUpperCase() + w.slice(1);
}

/** Writes `count` files: packages/pN/src/<area>/<name>.ts with exports, relative imports and some prose. */
export function generateWorkspace(root: string, count: number): void {
  const r = rng(42);
  const pick = () => WORDS[Math.floor(r() * WORDS.length)];
  const perPackage = 500;
  fs.writeFileSync(path.join(root, '.gitignore'), 'node_modules/\ndist/\n*.log\n');
  for (let i = 0; i < count; i++) {
    const pkg = `packages/p${Math.floor(i / perPackage)}`;
    const area = WORDS[Math.floor(i / 25) % WORDS.length];
    const a = pick();
    const b = pick();
    const name = `${a}${cap(b)}${i}`;
    const dir = path.join(root, pkg, 'src', area);
    fs.mkdirSync(dir, { recursive: true });
    const lines = [`import { ${pick()}${cap(pick())} } from './${pick()}${cap(pick())}${i - 1}';`, `import type { ${cap(pick())}Options } from '../types';`, ''];
    lines.push(`/** ${a} ${b}: ${Array.from({ length: 12 }, pick).join(' ')}. */`);
    lines.push(`export interface ${cap(a)}${cap(b)}State${i} { ${pick()}: string; ${pick()}Count: number }`);
    for (let f = 0; f < 4; f++) {
      const fn = `${pick()}${cap(pick())}`;
      lines.push(`export function ${fn}${i}_${f}(${pick()}: string, ${pick()}Id: number): string {`);
      lines.push(`  const ${pick()}Value = ${pick()}.trim() + String(${pick()}Id); // ${Array.from({ length: 6 }, pick).join(' ')}`);
      lines.push(`  return ${pick()}Value.replace(/${pick()}/g, '${pick()}');`);
      lines.push('}');
    }
    lines.push(`export const ${a.toUpperCase()}_${b.toUpperCase()}_${i} = '${pick()}';`);
    fs.writeFileSync(path.join(dir, `${name}.ts`), lines.join('\n') + '\n');
  }
}

function childScript(): string {
  return `
const { WorkspaceIndex } = require(${JSON.stringify(path.join(__dirname, '..', 'src', 'core', 'workspace', 'workspaceIndex.js'))});
(async () => {
  const t0 = Date.now();
  const c0 = process.cpuUsage();
  const { index, stats, fromCache } = await WorkspaceIndex.open(process.argv[1], { cacheFile: process.argv[2] });
  const ms = Date.now() - t0;
  const c = process.cpuUsage(c0);
  process.stdout.write(JSON.stringify({ ms, cpuMs: (c.user + c.system) / 1000, files: index.size, read: stats.read, fromCache, maxRssMB: process.resourceUsage().maxRSS / 1024 }));
})();`;
}

function indexInChild(ws: string, cacheFile: string): { ms: number; cpuMs: number; files: number; read: number; fromCache: boolean; maxRssMB: number } {
  const out = execFileSync(process.execPath, ['-e', childScript(), ws, cacheFile], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(out);
}

export async function benchWorkspaceIndex(count = 50_000): Promise<void> {
  console.log(`\nWorkspace index on a generated ${count.toLocaleString('en-US')}-file workspace (${os.cpus().length} cores)`);
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-bench-index-'));
  const ws = path.join(base, 'ws');
  const cacheDir = path.join(base, 'cache');
  fs.mkdirSync(ws);
  try {
    let t = Date.now();
    generateWorkspace(ws, count);
    console.log(`  generated in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    const cacheFile = path.join(cacheDir, 'index.json');
    const cold = indexInChild(ws, cacheFile);
    console.log(`  cold build:   ${(cold.ms / 1000).toFixed(2)} s (CPU ${(cold.cpuMs / 1000).toFixed(2)} s), peak RSS ${cold.maxRssMB.toFixed(0)} MB, ${cold.files} files (targets ≤ 5 s, ≤ 300 MB)`);
    console.log(`  cache file:   ${(fs.statSync(cacheFile).size / 1e6).toFixed(1)} MB`);

    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        if (files.length >= 100) return;
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith('.ts')) files.push(p);
      }
    };
    walk(path.join(ws, 'packages', 'p3'));
    const later = new Date(Date.now() + 10_000);
    for (const f of files) {
      fs.appendFileSync(f, 'export const changed = 1;\n');
      fs.utimesSync(f, later, later);
    }
    fs.writeFileSync(path.join(ws, 'packages', 'p0', 'src', 'invoiceExport.ts'), 'export function exportInvoicePdf(id: string) { return id; }\n');
    const inc = indexInChild(ws, cacheFile);
    console.log(`  incremental:  ${(inc.ms / 1000).toFixed(2)} s (CPU ${(inc.cpuMs / 1000).toFixed(2)} s) after ${files.length} changed files and 1 new (re-read ${inc.read}, from cache ${inc.fromCache}), peak RSS ${inc.maxRssMB.toFixed(0)} MB`);

    const cli = path.join(__dirname, '..', '..', 'dist', 'cli.js');
    if (fs.existsSync(cli)) {
      const env = { ...process.env, CAPE_CACHE_DIR: cacheDir };
      // the CLI names its cache file by the workspace; the first run builds it, the second is the warm one
      execFileSync(process.execPath, [cli, 'context', '--workspace', ws, '--objective', 'Export an invoice as PDF', '--json'], { env, stdio: 'pipe' });
      t = Date.now();
      const out = execFileSync(process.execPath, [cli, 'context', '--workspace', ws, '--objective', 'Export an invoice as PDF', '--json'], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      const ms = Date.now() - t;
      const json = JSON.parse(out.trim().split('\n').pop()!);
      console.log(`  warm \`cape context\`: ${(ms / 1000).toFixed(2)} s (target ≤ 1 s), first file ${json.files[0]?.path}, ${json.totalChars} chars`);
    } else {
      console.log('  warm `cape context`: skipped (dist/cli.js missing: npm run build)');
    }
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}

if (require.main === module) {
  benchWorkspaceIndex(Number(process.argv[2]) || 50_000).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
