// `npm run bench`: prints the project's performance figures. Targets are printed next to the figures; they are
// benchmarks, not timed tests (nothing here fails a test run), but the process exits 1 if the context target is missed
// so a regression is visible when someone runs it.
//
// 1. Context cost per recorded session, against the original CLI as measured (../shared/fixtures/
//    original-cli-prompt-chars.jsonl: the characters of system prompt + messages it sent for the same session). The
//    complete sessions are replayed back to back in one workspace holding the original example's cape/, as in the
//    interactive loop, against the fake Messages API on a simulated clock (90 s of model time per request), so 5-minute
//    cache entries expire between sessions and 1-hour ones carry over. Raw = the characters we send (tools, system,
//    messages); billed = uncached input + 1.25× 5-minute writes + 2× 1-hour writes + 0.1× reads, in the fake's tokens
//    (characters / 4), against the original's characters / 4. Target: billed ≤ 0.40 of the original, overall.
// 2. The voice extractor's throughput (target ≥ 100 MB/s).
// 3. KPT grouping / digest over 10,000 items, and the tree model for 10,000 items.
// 4. The workspace index on a generated 50,000-file workspace (build time, peak memory, incremental update, warm
//    `cape context`) and localization on real history (bench/localization.ts; skipped when bench/data is absent).
// 5. The edit matcher on a 50,000-line file × a 500-line SEARCH of the same line (bench/editMatch.ts).
// 6. Bundle sizes of a production build and the module-load time of its extension bundle (bench/bundle.ts).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { defaultPromptsDir, loadPromptAssets } from '../src/core/cape/prompts';
import { STEP_IDS, type StepId, type Usage } from '../src/core/model/types';
import { billedInputTokens } from '../src/core/llm/pricing';
import { estimateTokens, startFakeAnthropic, type RecordedRequest } from '../test/fake-anthropic/server';
import { loadRecordedSessions, originalProjectDir, sharedDir } from '../test/helpers/fixtures';
import { replayRecordedSession } from '../test/helpers/replay';
import { benchKpt } from './kpt';
import { benchVoice } from './voice';
import { benchWorkspaceIndex } from './workspaceIndex';
import { benchLocalization } from './localization';
import { benchBundles } from './bundle';
import { benchEditMatch, editMatchLine } from './editMatch';

const CONTEXT_TARGET = 0.4;
/** The fake's model time per request (a step's reply takes about a minute and a half). */
const MS_PER_REQUEST = 90_000;

/** Characters of a request's prompt: tool definitions, system blocks and messages (what the API reads as input). */
function requestChars(r: RecordedRequest): number {
  const body = r.body ?? {};
  const tools = Array.isArray(body.tools) ? body.tools.reduce((n: number, t: unknown) => n + JSON.stringify(t).length, 0) : 0;
  const sys = Array.isArray(body.system) ? body.system.reduce((n: number, b: any) => n + String(b.text ?? '').length, 0) : String(body.system ?? '').length;
  const text = (c: any) => (typeof c === 'string' ? c.length : Array.isArray(c) ? c.reduce((n: number, b: any) => n + (typeof b?.text === 'string' ? b.text.length : JSON.stringify(b).length), 0) : 0);
  const msgs = (body.messages ?? []).reduce((n: number, m: any) => n + text(m.content), 0);
  return tools + sys + msgs;
}

/** The fake's usage of a request as the engine's Usage (for the one billing rule in pricing.ts). */
function usageOf(r: RecordedRequest): Usage {
  const u = r.usage;
  return {
    inputTokens: u?.input_tokens ?? 0,
    outputTokens: 0,
    cacheCreationInputTokens: u?.cache_creation_input_tokens ?? 0,
    cacheReadInputTokens: u?.cache_read_input_tokens ?? 0,
    cacheCreation1hInputTokens: u?.cache_creation?.ephemeral_1h_input_tokens ?? 0,
  };
}

interface Baseline {
  fixture: string;
  promptChars: number;
  perStep: Record<StepId, number>;
}

/** The original CLI's measured prompt characters per session (see ../shared/fixtures/original-project/README.md). */
function loadBaseline(): Map<string, Baseline> {
  const file = path.join(sharedDir(), 'fixtures', 'original-cli-prompt-chars.jsonl');
  const out = new Map<string, Baseline>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const b = JSON.parse(line) as Baseline;
    out.set(b.fixture, b);
  }
  return out;
}

function pad(s: string | number, n: number): string {
  return String(s).padStart(n);
}

async function benchContext(): Promise<boolean> {
  const baseline = loadBaseline();
  const sessions = loadRecordedSessions()
    .filter((s) => s.complete && s.steps.length === 5 && baseline.has(s.taskId))
    .sort((a, b) => a.taskId.localeCompare(b.taskId));
  const prompts = loadPromptAssets(defaultPromptsDir());
  const fake = await startFakeAnthropic({ chunkSize: 4096, simulatedClock: { msPerRequest: MS_PER_REQUEST } });
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-bench-'));
  fs.cpSync(path.join(originalProjectDir(), 'cape'), path.join(ws, 'cape'), { recursive: true });
  for (const f of walk(ws)) fs.chmodSync(f, 0o644);
  const sum = { raw: 0, billed: 0, base: 0 };
  const perStep = Object.fromEntries(STEP_IDS.map((st) => [st, { raw: 0, billed: 0, base: 0 }])) as Record<StepId, typeof sum>;
  console.log('\nContext cost against the original CLI as measured (sessions replayed back to back, 90 s per request)');
  console.log(`${'session'.padEnd(22)}${pad('ours chars', 12)}${pad('original', 10)}${pad('raw', 7)}${pad('billed tok', 12)}${pad('orig tok', 10)}${pad('billed', 8)}`);
  try {
    for (const s of sessions) {
      const base = baseline.get(s.taskId)!;
      const { res, reqs } = await replayRecordedSession(fake, ws, s, prompts);
      if (!res.ok) throw new Error(`bench replay of ${s.taskId} failed: ${res.error?.message}`);
      if (reqs.length !== 5) throw new Error(`bench replay of ${s.taskId} sent ${reqs.length} requests, expected 5`);
      let raw = 0;
      let billed = 0;
      reqs.forEach((r, i) => {
        const step = STEP_IDS[i];
        const chars = requestChars(r);
        const b = billedInputTokens(usageOf(r));
        raw += chars;
        billed += b;
        perStep[step].raw += chars;
        perStep[step].billed += b;
        perStep[step].base += base.perStep[step];
      });
      const baseTokens = estimateTokens(base.promptChars);
      sum.raw += raw;
      sum.billed += billed;
      sum.base += base.promptChars;
      console.log(
        `${s.taskId.padEnd(22)}${pad(raw, 12)}${pad(base.promptChars, 10)}${pad((raw / base.promptChars).toFixed(2), 7)}` +
          `${pad(Math.round(billed), 12)}${pad(baseTokens, 10)}${pad((billed / baseTokens).toFixed(2), 8)}`,
      );
    }
  } finally {
    await fake.close();
    fs.rmSync(ws, { recursive: true, force: true });
  }
  const billedRatio = sum.billed / estimateTokens(sum.base);
  console.log(
    `${'all sessions'.padEnd(22)}${pad(sum.raw, 12)}${pad(sum.base, 10)}${pad((sum.raw / sum.base).toFixed(2), 7)}` +
      `${pad(Math.round(sum.billed), 12)}${pad(estimateTokens(sum.base), 10)}${pad(billedRatio.toFixed(2), 8)}`,
  );
  console.log(`per step (raw / billed): ${STEP_IDS.map((st) => `${st} ${(perStep[st].raw / perStep[st].base).toFixed(2)} / ${(perStep[st].billed / estimateTokens(perStep[st].base)).toFixed(2)}`).join(', ')}`);
  const ok = billedRatio <= CONTEXT_TARGET;
  console.log(`billed-equivalent input: ${billedRatio.toFixed(2)} of the original (target <= ${CONTEXT_TARGET})${ok ? '' : '  MISSED'}`);
  return ok;
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

  console.log(editMatchLine(benchEditMatch()));

  await benchWorkspaceIndex(Number(process.env.CAPE_BENCH_FILES) || 50_000);
  await benchLocalization();

  const bundlesOk = benchBundles();
  if (!ok || !bundlesOk) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
