// Turns a recorded session (raw model replies, read from ../shared at test time) into the SessionEvent stream
// the runner would emit. Self-contained JSON extraction so these tests do not depend on the core parser.
import { STEP_AGENT, STEP_IDS, WORKER_AGENTS, type Envelope, type KptLists, type NamedTest, type ProposedFile, type SessionEvent, type SessionMetrics, type StepId, type Usage } from '../../src/core/model/types';
import type { RecordedSession } from '../helpers/fixtures';
import { collectOpenQuestions } from '../../src/core/session/openQuestions';

/** The first balanced JSON object in `raw` (preferring a ```json fence), parsed; null if there is none. */
export function extractJson(raw: string): Record<string, unknown> | null {
  const fence = raw.search(/```json/i);
  const start = raw.indexOf('{', fence >= 0 ? fence : 0);
  if (start < 0) return null;
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = start; i < raw.length; i++) {
    const c = raw[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      try {
        const v = JSON.parse(raw.slice(start, i + 1));
        return typeof v === 'object' && v !== null ? v : null;
      } catch {
        return null;
      }
    }
  }
  return null;
}

export function extractFiles(raw: string): { path: string; content: string }[] {
  return [...raw.matchAll(/<file path="([^"]+)">([\s\S]*?)<\/file>/g)].map((m) => ({ path: m[1], content: m[2] }));
}

export function extractSummary(raw: string): string | null {
  const m = /<summary>([\s\S]*?)<\/summary>/.exec(raw);
  return m ? m[1].trim() : null;
}

/** Splits text into n roughly equal chunks (at least one character each). */
export function chunks(text: string, n: number): string[] {
  if (!text) return [];
  const size = Math.max(1, Math.ceil(text.length / n));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export function toEnvelope(step: StepId, j: Record<string, unknown>): Envelope {
  const kpt = j.kpt as KptLists | undefined;
  return {
    agent: STEP_AGENT[step],
    role: String(j.role ?? ''),
    task_id: String(j.task_id ?? ''),
    phase: step === 'cm_open' ? 'opening' : step === 'cm_retro' ? 'retrospective' : undefined,
    voice: typeof j.voice === 'string' ? j.voice : '',
    output: step === 'cm_retro' ? null : (j.output ?? null),
    references: Array.isArray(j.references) ? j.references.map(String) : [],
    confidence: typeof j.confidence === 'number' ? j.confidence : null,
    ass: (j.ass as Envelope['ass']) ?? null,
    conversation: Array.isArray(j.conversation) ? (j.conversation as Envelope['conversation']) : undefined,
    kpt,
  };
}

export interface StepEvents {
  step: StepId;
  envelope: Envelope;
  /** The events of this step, split where the voice is half streamed. */
  firstHalf: SessionEvent[];
  secondHalf: SessionEvent[];
}

export interface SessionScript {
  session: RecordedSession;
  started: SessionEvent;
  steps: StepEvents[];
  files: ProposedFile[];
  finished: SessionEvent;
}

const usage = (i: number): Usage => ({ inputTokens: 1200 + 300 * i, outputTokens: 800 + 450 * i, cacheCreationInputTokens: i === 0 ? 2100 : 0, cacheReadInputTokens: i === 0 ? 0 : 2100 });

/**
 * Builds the event script. DevA's files are proposed as the recorded ones (the second marked as a modification),
 * plus one synthetic refused file so the refused badge is exercised.
 */
export function scriptFromRecorded(session: RecordedSession): SessionScript {
  const steps: StepEvents[] = [];
  const files: ProposedFile[] = [];
  session.steps.forEach((rec, i) => {
    const step = rec.step as StepId;
    const j = extractJson(rec.raw);
    if (!j) throw new Error(`${session.file}: step ${step} has no parsable JSON`);
    const envelope = toEnvelope(step, j);
    const voice = chunks(envelope.voice, 8).map((text): SessionEvent => ({ type: 'voice-delta', step, text }));
    const outputJson = JSON.stringify(envelope.output ?? envelope.conversation ?? {});
    const firstHalf: SessionEvent[] = [{ type: 'step-started', step, agent: STEP_AGENT[step], attempt: 1 }, ...voice.slice(0, Math.ceil(voice.length / 2))];
    const secondHalf: SessionEvent[] = [
      ...voice.slice(Math.ceil(voice.length / 2)),
      ...chunks(outputJson, 5).map((text): SessionEvent => ({ type: 'output-delta', step, text })),
      { type: 'envelope', step, envelope, summary: step === 'deva' ? extractSummary(rec.raw) : null },
    ];
    if (step === 'deva') {
      extractFiles(rec.raw).forEach((f, k) => {
        const pf: ProposedFile = { path: f.path, relPath: f.path, action: k === 1 ? 'modify' : 'create', status: 'proposed', content: f.content };
        files.push(pf);
        secondHalf.push({ type: 'file-proposed', step, file: pf });
      });
      const refused: ProposedFile = { path: '../outside/secrets.txt', action: 'create', status: 'refused', reason: 'The path leaves the workspace.', content: 'x' };
      files.push(refused);
      secondHalf.push({ type: 'file-proposed', step, file: refused });
    }
    secondHalf.push({ type: 'usage', step, usage: usage(i), model: session.model }, { type: 'step-finished', step, artifactPath: `cape/5_sessions/pair/${session.taskId}_${i + 1}_${STEP_AGENT[step]}.json`, durationMs: 4000 + 1500 * i });
    steps.push({ step, envelope, firstHalf, secondHalf });
  });

  const byStep = new Map(steps.map((s) => [s.step, s.envelope]));
  const ass: SessionMetrics['ass'] = {};
  for (const a of WORKER_AGENTS) {
    const env = [...byStep.values()].find((e) => e.agent === a);
    ass[a] = env?.ass?.score ?? null;
  }
  const scores = Object.values(ass).filter((x): x is number => typeof x === 'number');
  const avg = scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null;
  const perStep: SessionMetrics['perStep'] = {};
  steps.forEach((s, i) => (perStep[s.step] = { usage: usage(i), costUsd: 0.01 + 0.004 * i }));
  const total = steps.reduce(
    (acc, _s, i) => {
      const u = usage(i);
      return {
        inputTokens: acc.inputTokens + u.inputTokens,
        outputTokens: acc.outputTokens + u.outputTokens,
        cacheCreationInputTokens: acc.cacheCreationInputTokens + u.cacheCreationInputTokens,
        cacheReadInputTokens: acc.cacheReadInputTokens + u.cacheReadInputTokens,
      };
    },
    { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
  );
  const retro = byStep.get('cm_retro');
  const metrics: SessionMetrics = {
    ass,
    assAverage: avg,
    satisfactionVariance: avg === null ? null : scores.reduce((a, b) => a + (b - avg) ** 2, 0) / scores.length,
    satisfactionTrend: null,
    crossReferenceFrequency: [...byStep.values()].reduce((a, e) => a + e.references.length, 0),
    conversationIndex: retro?.conversation?.length ?? 0,
    elapsedMs: 187_000,
    compressionRatio: {},
    perStep,
    totalUsage: total,
    totalCostUsd: Object.values(perStep).reduce((a, p) => a + (p?.costUsd ?? 0), 0),
    // Synthetic: the recorded sessions predate TSR.
    tsr: 0.5,
    tsrReview: 1,
    tsrJudged: 1,
    criteria: [
      { id: 'AC-1', text: 'Given a note, When I save, Then it is kept', tests: [{ file: 'test/notes.test.ts', name: 'keeps a saved note', expect: 'pass' }, { file: 'test/notes.test.ts', name: 'keeps it after a reload', expect: 'pass' }, { check: 'npm test' }], computed: 'pass', before: 'fail', surprise: 'DevA meant it as a regression guard: it fails without the change', judged: 'met', reason: 'the test covers it' },
      // as metrics saved before a criterion could be left to review had it: its file for review in the shape of then
      { id: 'AC-2', text: 'Given <b>markup</b>, When shown, Then inert', tests: [{ file: 'CHANGES.md', name: '', review: true } as unknown as NamedTest], computed: 'no_test', judged: 'met', reason: 'the <script>alert(1)</script> is escaped' },
      { id: 'AC-3', text: 'The changelog says so', tests: [{ review: 'CHANGES.md' }], computed: 'review', judged: 'met', reason: 'the entry is there' },
    ],
  };
  return {
    session,
    started: { type: 'session-started', taskId: session.taskId, objective: session.objective ?? '', language: session.language, steps: [...STEP_IDS], resumed: false },
    steps,
    files,
    finished: {
      type: 'session-finished',
      taskId: session.taskId,
      retrospectivePath: `cape/5_sessions/retrospective/2026-01-01_10-00_${session.taskId}.md`,
      kpt: retro?.kpt ?? { keep: [], problem: [], try: [] },
      metrics,
      files,
      openQuestions: collectOpenQuestions(Object.fromEntries(byStep)),
    },
  };
}

export function allEvents(s: SessionScript): SessionEvent[] {
  return [s.started, ...s.steps.flatMap((st) => [...st.firstHalf, ...st.secondHalf]), s.finished];
}
