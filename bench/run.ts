// `npm run bench`: prints the project's performance figures. Targets are printed next to the figures; they are
// benchmarks, not timed tests (nothing here fails a test run), but the process exits 1 if the context target is missed
// so a regression is visible when someone runs it.
//
// 1. Context size per recorded session: prompt characters sent per agent and in total (measured on the requests the
//    fake server actually received), next to the original CLI's way of building context for the same session
//    (every agent gets all upstream raw replies, the retro gets DevA's whole files, CM gets the whole kpt_merged.md,
//    and each agent its role folder plus the whole team folder). Target: ours ≤ 0.40 of the original.
// 2. The voice extractor's throughput (target ≥ 100 MB/s).
// 3. KPT grouping / digest over 10,000 items, and the tree model for 10,000 items.
// 4. The workspace index on a generated 50,000-file workspace (build time, peak memory, incremental update, warm
//    `cape context`) and localization on real history (bench/localization.ts; skipped when bench/data is absent).
// 5. Bundle sizes.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AnthropicClient } from '../src/core/llm/anthropic/client';
import { defaultPromptsDir, loadPromptAssets } from '../src/core/cape/prompts';
import { runSession } from '../src/core/session/runner';
import { STEP_IDS, type StepId } from '../src/core/model/types';
import { startFakeAnthropic, type RecordedRequest } from '../test/fake-anthropic/server';
import { loadRecordedSessions, originalProjectDir, repoRoot } from '../test/helpers/fixtures';
import { benchKpt } from './kpt';
import { benchVoice } from './voice';
import { benchWorkspaceIndex } from './workspaceIndex';
import { benchLocalization } from './localization';

const CONTEXT_TARGET = 0.4;

function requestChars(r: RecordedRequest): number {
  const sys = Array.isArray(r.body?.system) ? r.body.system.reduce((n: number, b: any) => n + String(b.text ?? '').length, 0) : String(r.body?.system ?? '').length;
  const msgs = (r.body?.messages ?? []).reduce((n: number, m: any) => n + (typeof m.content === 'string' ? m.content.length : JSON.stringify(m.content).length), 0);
  return sys + msgs;
}

function pad(s: string | number, n: number): string {
  return String(s).padStart(n);
}

async function benchContext(): Promise<boolean> {
  const sessions = loadRecordedSessions().filter((s) => s.complete && s.steps.length === 5);
  const prompts = loadPromptAssets(defaultPromptsDir());
  const fake = await startFakeAnthropic({ chunkSize: 4096 });
  let allOk = true;
  let sumOurs = 0;
  let sumBase = 0;
  console.log('\nContext: prompt characters sent per agent (ours / original CLI way)');
  console.log(`${'session'.padEnd(22)}${STEP_IDS.map((s) => pad(s, 19)).join('')}${pad('total', 21)}${pad('ratio', 8)}`);
  try {
    for (const s of sessions) {
      fake.reset();
      for (const st of s.steps) fake.enqueue({ text: st.raw });
      const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-bench-'));
      fs.cpSync(path.join(originalProjectDir(), 'cape'), path.join(ws, 'cape'), { recursive: true });
      for (const f of walk(ws)) fs.chmodSync(f, 0o644);
      const res = await runSession({
        workspace: ws,
        objective: s.objective ?? 'replay',
        language: s.language,
        taskId: s.taskId,
        model: s.model,
        llm: new AnthropicClient({ apiKey: 'bench', baseURL: fake.url }),
        prompts,
      });
      if (!res.ok) throw new Error(`bench replay of ${s.taskId} failed: ${res.error?.message}`);
      // Baseline per step from the persisted context sizes (computed by src/core/context.ts from the same inputs).
      const pairDir = path.join(ws, 'cape/5_sessions/pair');
      const base: Partial<Record<StepId, number>> = {};
      for (const f of fs.readdirSync(pairDir)) {
        const rec = JSON.parse(fs.readFileSync(path.join(pairDir, f), 'utf8'));
        base[rec.step as StepId] = rec.context?.input;
      }
      const ours = fake.requests.map(requestChars);
      const cells = STEP_IDS.map((step, i) => `${ours[i]}/${base[step]}`);
      const totalOurs = ours.reduce((a, b) => a + b, 0);
      const totalBase = STEP_IDS.reduce((n, st) => n + (base[st] ?? 0), 0);
      const ratio = totalOurs / totalBase;
      sumOurs += totalOurs;
      sumBase += totalBase;
      if (ratio > CONTEXT_TARGET) allOk = false;
      console.log(`${s.taskId.padEnd(22)}${cells.map((c) => pad(c, 19)).join('')}${pad(`${totalOurs}/${totalBase}`, 21)}${pad(ratio.toFixed(2), 8)}`);
      fs.rmSync(ws, { recursive: true, force: true });
    }
  } finally {
    await fake.close();
  }
  const overall = sumOurs / sumBase;
  console.log(`all sessions: ${sumOurs} / ${sumBase} characters = ${overall.toFixed(2)} (target <= ${CONTEXT_TARGET})${allOk ? '' : '  MISSED for at least one session'}`);
  return allOk;
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

async function main() {
  const ok = await benchContext();

  const voice = await benchVoice();
  console.log(`\nvoice extractor: ${voice.mbPerSec.toFixed(0)} MB/s over ${(voice.bytes / 1e6).toFixed(1)} MB (target >= 100 MB/s)`);

  const kpt = benchKpt();
  console.log(`kpt: group ${kpt.items} items in ${kpt.groupMs.toFixed(0)} ms, digest in ${kpt.digestMs.toFixed(0)} ms`);
  const treeBench = path.join(__dirname, 'kptTree.js');
  if (fs.existsSync(treeBench)) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional module, loaded only when built
    const { benchKptTree } = require(treeBench);
    const t = await benchKptTree();
    console.log(`kpt tree: ${t.items} items → ${t.groups} groups in ${t.ms.toFixed(0)} ms`);
  }

  await benchWorkspaceIndex(Number(process.env.CAPE_BENCH_FILES) || 50_000);
  await benchLocalization();

  console.log('\nbundles:');
  for (const f of ['extension.js', 'cli.js', 'webview.js', 'webview-style.css']) {
    const p = path.join(repoRoot(), 'dist', f);
    if (fs.existsSync(p)) console.log(`  dist/${f.padEnd(20)} ${(fs.statSync(p).size / 1024).toFixed(0)} KiB`);
  }
  if (!ok) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
