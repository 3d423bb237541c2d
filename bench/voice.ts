// Throughput benchmark of the streaming voice extractor (src/core/reply/voiceStream.ts).
// Builds a ≥ 20 MB synthetic envelope (escapes, non-ASCII text, surrogate pairs, nested output),
// pushes it in realistic 16–64 character chunks and reports MB/s (UTF-8 bytes of input per second).
// Run directly: `node out/bench/voice.js`.
import { VoiceExtractor } from '../src/core/reply/voiceStream';
import { rng } from './rng';

const TARGET_BYTES = 21 * 1024 * 1024;


const PIECES = [
  'The team agreed on the scope. ',
  'ユーザーはタスクを素早く追加したい。',
  'Given a list "with quotes" and a \\ backslash, ',
  'line one\nline two\ttabbed. ',
  '絵文字 🎉✨ と記号 <b>&</b>. ',
  'Ünïcödé façade — naïve café. ',
  'path/to/file.ts {braces} [brackets]: ok, ',
];

/** Builds the envelope text and the voice it contains. */
export function buildSyntheticEnvelope(targetBytes = TARGET_BYTES): { text: string; voice: string } {
  const rand = rng(42);
  const voiceParts: string[] = [];
  let voiceLen = 0;
  while (voiceLen < targetBytes / 6) {
    const p = PIECES[Math.floor(rand() * PIECES.length)];
    voiceParts.push(p);
    voiceLen += p.length;
  }
  const voice = voiceParts.join('');
  // Force some \u escapes (incl. a surrogate pair) into the JSON text of the voice.
  const voiceJson = JSON.stringify(voice).replace(/🎉/g, '\\ud83c\\udf89').replace(/é/g, '\\u00e9');
  const stories: string[] = [];
  let size = voiceJson.length;
  for (let k = 0; size < targetBytes; k++) {
    const item = JSON.stringify(
      {
        id: `US-${k}`,
        title: PIECES[k % PIECES.length],
        acceptance_criteria: [
          { given: PIECES[(k + 1) % PIECES.length], when: PIECES[(k + 2) % PIECES.length], then: PIECES[(k + 3) % PIECES.length] },
        ],
        voice: 'a nested "voice" key that must not trigger',
        priority: k % 5,
        done: k % 2 === 0,
      },
      null,
      2,
    );
    stories.push(item);
    size += item.length;
  }
  const text =
    'Here is my reply.\n```json\n{\n  "agent": "POA",\n  "role": "Product Owner Agent",\n  "task_id": "task-bench",\n' +
    `  "voice": ${voiceJson},\n  "output": {\n    "user_stories": [${stories.join(',\n')}]\n  },\n` +
    '  "references": ["CM"],\n  "confidence": 4,\n  "ass": {"score": 4, "positive": "ok", "improvement": "none", "context_adequate": true}\n}\n```\n';
  return { text, voice };
}

/** Splits text into chunks of 16–64 characters (deterministic). */
function chunk(text: string): string[] {
  const rand = rng(7);
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    const n = 16 + Math.floor(rand() * 49);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

export async function benchVoice(): Promise<{ mbPerSec: number; bytes: number }> {
  const { text, voice } = buildSyntheticEnvelope();
  const bytes = Buffer.byteLength(text, 'utf8');
  const chunks = chunk(text);

  const runOnce = (): { ms: number; voiceOk: boolean; outChars: number } => {
    let voiceLen = 0;
    const voiceParts: string[] = [];
    let outChars = 0;
    const x = new VoiceExtractor({
      onVoice: (t) => {
        voiceParts.push(t);
        voiceLen += t.length;
      },
      onOutput: (t) => {
        outChars += t.length;
      },
    });
    const t0 = process.hrtime.bigint();
    for (const c of chunks) x.push(c);
    x.end();
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    return { ms, voiceOk: voiceLen === voice.length && voiceParts.join('') === voice, outChars };
  };

  runOnce(); // warm-up (JIT)
  let best = Infinity;
  for (let k = 0; k < 5; k++) {
    const r = runOnce();
    if (!r.voiceOk) throw new Error('benchVoice: the extracted voice differs from the encoded one');
    if (r.outChars === 0) throw new Error('benchVoice: no output was streamed');
    best = Math.min(best, r.ms);
  }
  return { mbPerSec: bytes / (1024 * 1024) / (best / 1000), bytes };
}

if (require.main === module) {
  benchVoice().then(
    (r) => console.log(`voice extractor: ${r.mbPerSec.toFixed(1)} MB/s (target >= 100 MB/s) over ${(r.bytes / 1048576).toFixed(1)} MB`),
    (e) => {
      console.error(e instanceof Error ? e.message : e);
      process.exitCode = 1;
    },
  );
}
