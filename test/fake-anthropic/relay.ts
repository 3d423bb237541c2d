// Relay mode of the fake Messages API: each request is written to a folder as a readable markdown file and the reply
// is whatever a person (or a helper model acting as the model) writes next to it. Used by `npm run trial` to try the
// engine's real prompts on a real model without an API key; see README.md ("Trial sessions").
//
//   <dir>/01.request.md   written by the relay: max_tokens, system blocks, tools, messages (in order)
//   <dir>/01.reply.md     written by the answerer: the reply text, served as is
//   <dir>/01.reply.json   or: one FakeReply object ({"text": …}, or the other reply kinds the server supports,
//                         e.g. tool calls), served as is
//
// The relay waits until the reply file exists and has stopped growing, so an answerer that writes in place (instead
// of writing a temporary name and renaming it) is still read whole.
import * as fs from 'fs';
import * as path from 'path';
import { isFakeReply, type FakeReply, type FakeResponder, type RecordedRequest } from './server';

export interface RelayOptions {
  /** The trial folder (created when missing). */
  dir: string;
  /** How often to look for the reply file (default 500 ms). */
  pollMs?: number;
  /** Called once a request file is written (e.g. to print "waiting for 01.reply.md"). */
  onRequest?: (requestFile: string, replyFiles: string[]) => void;
  /** Called when a reply file is read. */
  onReply?: (replyFile: string) => void;
  /** Called when a reply file cannot be used (it is renamed `NN.reply.rejected`; the relay keeps waiting). */
  onProblem?: (message: string) => void;
  /** Stops waiting (the pending request gets a 500 that says so). */
  signal?: AbortSignal;
}

function fence(text: string): string {
  // A fence longer than any backtick run inside, so the content shows verbatim.
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}\n${text}\n${f}`;
}

function blockText(block: any): string {
  if (typeof block === 'string') return block;
  if (block?.type === 'text' && typeof block.text === 'string') return block.text;
  if (block?.type === 'tool_use') return `[tool_use ${block.id}] ${block.name} ${JSON.stringify(block.input ?? {})}`;
  if (block?.type === 'tool_result') {
    // The result as the model reads it: plain text, not a JSON-escaped string (SEARCH hunks are copied from it).
    const body = typeof block.content === 'string' ? block.content : Array.isArray(block.content) ? block.content.map(blockText).join('\n') : '';
    return `[tool_result ${block.tool_use_id}${block.is_error ? ', error' : ''}]\n${body}`;
  }
  return '```json\n' + JSON.stringify(block, null, 2) + '\n```';
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(blockText).join('\n\n');
  return JSON.stringify(content, null, 2);
}

/** The request as a markdown document a reader can answer from: nothing but what the model would see. */
export function renderRequest(req: RecordedRequest, n: number): string {
  const body = req.body ?? {};
  const out: string[] = [`# Request ${n}`, '', `- model: ${body.model}`, `- max_tokens: ${body.max_tokens}`];
  if (body.temperature !== undefined) out.push(`- temperature: ${body.temperature}`);
  out.push('');
  const system = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : Array.isArray(body.system) ? body.system : [];
  system.forEach((b: any, i: number) => {
    out.push(`## system ${i + 1} of ${system.length}${b?.cache_control ? (b.cache_control.ttl === '1h' ? ' (cached, 1 h)' : ' (cached)') : ''}`, '', fence(blockText(b)), '');
  });
  if (Array.isArray(body.tools) && body.tools.length) {
    out.push(`## tools (${body.tools.length})`, '');
    for (const t of body.tools) out.push(`### ${t?.name ?? '(unnamed)'}`, '', t?.description ?? '', '', '```json', JSON.stringify(t?.input_schema ?? {}, null, 2), '```', '');
    if (body.tool_choice) out.push(`tool_choice: \`${JSON.stringify(body.tool_choice)}\``, '');
  }
  const messages: any[] = Array.isArray(body.messages) ? body.messages : [];
  messages.forEach((m, i) => {
    out.push(`## message ${i + 1} of ${messages.length}: ${m?.role}`, '', fence(contentText(m?.content)), '');
  });
  return out.join('\n');
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Reads a reply file into a FakeReply; a .json file must hold one FakeReply object. */
export function readReplyFile(file: string): FakeReply {
  const text = fs.readFileSync(file, 'utf8');
  if (!file.endsWith('.json')) return { text };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new Error(`${path.basename(file)} is not valid JSON (${(e as Error).message}); write the reply text to a .md file instead`);
  }
  if (!isFakeReply(data)) throw new Error(`${path.basename(file)} must hold one reply object such as {"text": "…"}`);
  return data;
}

/**
 * A responder that writes every request to `<dir>/NN.request.md` and answers with `<dir>/NN.reply.md` (or `.json`)
 * once it appears. A .json reply that is not a reply object is renamed `NN.reply.rejected` (reported through
 * onProblem) and the relay waits for a corrected one under the same name.
 */
export function relayResponder(opts: RelayOptions): FakeResponder {
  const pollMs = opts.pollMs ?? 500;
  fs.mkdirSync(opts.dir, { recursive: true });
  let count = 0;
  return async (req) => {
    const n = ++count;
    const requestFile = path.join(opts.dir, `${pad(n)}.request.md`);
    const replyFiles = ['md', 'json'].map((ext) => path.join(opts.dir, `${pad(n)}.reply.${ext}`));
    // written whole under another name, then renamed: whoever answers never reads half a request (a test's poller
    // once did, took a file request for the decisions and caused a repair request)
    fs.writeFileSync(`${requestFile}.tmp`, renderRequest(req, n));
    fs.renameSync(`${requestFile}.tmp`, requestFile);
    opts.onRequest?.(requestFile, replyFiles);
    let seen = -1;
    for (;;) {
      if (opts.signal?.aborted) {
        return { fault: 'http', status: 500, errorType: 'api_error', message: `trial relay stopped before ${pad(n)}.reply was written` };
      }
      const file = replyFiles.find((f) => fs.existsSync(f));
      if (file) {
        const size = fs.statSync(file).size;
        if (size > 0 && size === seen) {
          try {
            const reply = readReplyFile(file);
            opts.onReply?.(file);
            return reply;
          } catch (e) {
            fs.renameSync(file, file.replace(/\.(md|json)$/, '.rejected'));
            seen = -1;
            opts.onProblem?.(`${(e as Error).message}; it was renamed ${pad(n)}.reply.rejected — write a corrected reply`);
            continue;
          }
        }
        seen = size;
      }
      await sleep(pollMs);
    }
  };
}
