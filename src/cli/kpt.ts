// `cape kpt` and `cape housekeeping`: KPT item statuses and the archive, over core/kpt through the SessionStore.
//
//   cape kpt list --workspace DIR [--json]            {"items":[{"id","kind","status","text","taskId","recurrence"}]}
//   cape kpt mark --workspace DIR <id> <status>        Tries open|adopted|dropped, Problems open|resolved
//   cape housekeeping --workspace DIR [--older-than N] [--json]
//                                                       {"moved":[…items],"kept":N,"archive":PATH,"sessions":N}
// Every write takes the KPT lock. Exit codes: 0 done, 1 failed (nothing written), 2 usage.
import * as fs from 'fs';
import * as path from 'path';
import { parseArgs } from 'util';
// From the modules themselves, not the '../core' barrel: dist/cli-kpt.js (required when a kpt command runs,
// bundles.ts) holds only what this command uses.
import type { KptStatus } from '../core/model/types';
import { capeFolderFlag } from './flags';
import { DEFAULT_HOUSEKEEPING_SESSIONS } from '../core/kpt/housekeeping';
import { KPT_STATUSES } from '../core/kpt/items';
import { KptStatusError, type KptListedItem } from '../core/kpt/status';
import { SessionStore } from '../core/store/store';
import { withoutControls } from '../core/text/controls';

export const KPT_USAGE = `cape kpt list --workspace DIR [--json]
       cape kpt mark --workspace DIR <id> <status>   (Tries: open | adopted | dropped; Problems: open | resolved)
       cape housekeeping --workspace DIR [--older-than N] [--json]   (default N = ${DEFAULT_HOUSEKEEPING_SESSIONS} sessions)`;

class Usage extends Error {}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: { workspace: { type: 'string' }, 'cape-folder': { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean' }, 'older-than': { type: 'string' } },
      strict: true,
      allowPositionals: true,
    });
  } catch (e) {
    throw new Usage((e as Error).message);
  }
}

function storeFor(values: { workspace?: unknown; 'cape-folder'?: unknown }): SessionStore {
  if (typeof values.workspace !== 'string' || !values.workspace) throw new Usage('--workspace DIR is required.');
  const ws = path.resolve(values.workspace);
  if (!fs.existsSync(ws) || !fs.statSync(ws).isDirectory()) throw new Usage(`The workspace ${ws} is not a folder.`);
  try {
    return new SessionStore(ws, capeFolderFlag(values['cape-folder']));
  } catch (e) {
    throw new Usage((e as Error).message);
  }
}

/** `{"id","kind","status","text","taskId","recurrence"}` (plus statusBy when a session set the status). */
function jsonItem(i: KptListedItem) {
  return { id: i.id, kind: i.kind, status: i.status, text: i.text, taskId: i.taskId, recurrence: i.recurrence, ...(i.statusBy ? { statusBy: i.statusBy } : {}) };
}

/** One item as a line; its text as text only (an item written before CAPE cleaned them may hold escape sequences). */
function humanItem(i: KptListedItem): string {
  const rec = i.recurrence >= 2 ? ` ×${i.recurrence}` : '';
  return withoutControls(`${i.id.padEnd(12)} ${i.kind.padEnd(7)} ${i.status.padEnd(8)}${rec} ${i.taskId ? `[${i.taskId}] ` : ''}${i.text}`);
}

async function run(argv: string[], stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream, what: 'kpt' | 'housekeeping'): Promise<number> {
  const onWarning = (w: string): void => void stderr.write(`⚠ ${withoutControls(w)}\n`);
  if (what === 'housekeeping') {
    const { values, positionals } = parse(argv);
    if (values.help) return help(stdout);
    if (positionals.length) throw new Usage(`Unexpected argument "${positionals[0]}".`);
    const store = storeFor(values);
    let olderThan = DEFAULT_HOUSEKEEPING_SESSIONS;
    const raw = values['older-than'];
    if (typeof raw === 'string') {
      olderThan = Number(raw);
      if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(olderThan)) throw new Usage(`--older-than takes a whole number of sessions ≥ 0 (got "${raw}").`);
    }
    const res = await store.housekeepKpt(olderThan, { onWarning });
    if (values.json) {
      stdout.write(JSON.stringify({ moved: res.moved.map(jsonItem), kept: res.keptClosed, archive: res.archivePath, sessions: res.sessions, olderThan }) + '\n');
    } else {
      stdout.write(
        res.moved.length
          ? `Moved ${res.moved.length} closed item(s) older than ${olderThan} sessions to ${res.archivePath}.\n`
          : `Nothing to move: no adopted, dropped or resolved item is older than ${olderThan} sessions.\n`,
      );
      for (const m of res.moved) stdout.write(`  ${humanItem(m)}\n`);
      if (res.keptClosed) stdout.write(`${res.keptClosed} closed item(s) are more recent and stay in kpt_merged.md.\n`);
    }
    return 0;
  }
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === 'help') return help(stdout);
  const { values, positionals } = parse(rest);
  if (values.help) return help(stdout);
  if (values['older-than'] !== undefined) throw new Usage('--older-than is for `cape housekeeping`.');
  const store = storeFor(values);
  if (sub === 'list') {
    if (positionals.length) throw new Usage(`Unexpected argument "${positionals[0]}".`);
    const items = await store.listKpt();
    if (values.json) stdout.write(JSON.stringify({ items: items.map(jsonItem) }) + '\n');
    else if (!items.length) stdout.write(`No KPT items in ${store.kptPath}.\n`);
    else for (const i of items) stdout.write(humanItem(i) + '\n');
    return 0;
  }
  if (sub === 'mark') {
    if (positionals.length !== 2) throw new Usage('cape kpt mark takes an item id and a status: cape kpt mark --workspace DIR <id> <status>.');
    const [id, status] = positionals;
    const all = new Set(Object.values(KPT_STATUSES).flat());
    if (!all.has(status as KptStatus)) throw new Usage(`Unknown status "${status}": use open, adopted or dropped for a Try, open or resolved for a Problem.`);
    const plan = await store.markKpt({ ids: [id], status: status as KptStatus }, { onWarning });
    if (values.json) stdout.write(JSON.stringify({ changed: plan.changed.map(jsonItem) }) + '\n');
    else stdout.write(plan.changed.length ? `${id} is now ${status}.\n` : `${id} already was ${status}; nothing changed.\n`);
    return 0;
  }
  throw new Usage(`Unknown kpt command "${sub}": use list or mark.`);
}

function help(stdout: NodeJS.WritableStream): number {
  stdout.write(`Usage: ${KPT_USAGE}\n`);
  return 0;
}

/** Runs `cape kpt …` (`what` = 'kpt') or `cape housekeeping …`; errors go to stderr with a clear message. */
export async function cmdKpt(what: 'kpt' | 'housekeeping', argv: string[], stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream): Promise<number> {
  try {
    return await run(argv, stdout, stderr, what);
  } catch (e) {
    if (e instanceof Usage) {
      stderr.write(`cape: ${e.message}\nUsage: ${KPT_USAGE}\n`);
      return 2;
    }
    stderr.write(`cape: ${e instanceof KptStatusError ? e.message : e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}
