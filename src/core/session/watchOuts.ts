// The Cape Master's watch-outs, each for the roles it names. CM writes each risk "and who should mind it" ("Scope
// creep (POA, DevA): …", "Role overlap (DA, DevA): …", "（POA・DevA）"), so a worker role receives the watch-outs
// that name it, and those that name no role or the whole team ("(all)"). Before, only POA received them: in a trial
// on a React app, the watch-out for DevA that the standards and the checks disagree on which commands must pass
// never reached DevA, which never flagged it. Plain Node: nothing in src/core may import 'vscode'.
import { WORKER_AGENTS, type WorkerAgent } from '../model/types';
import { ROLE_MENTION } from '../reply/agentNames';

/** "(all)", "(everyone)", "（全員）": a watch-out for the whole team, whatever roles its text mentions. */
const EVERYONE = /[(（]\s*(?:all|everyone|all roles|the (?:whole )?team|team|全員|チーム全体|チーム)\s*[)）]/i;

/** The roles a watch-out is for: those it names, or every worker role when it names none or the whole team. */
export function watchOutRoles(text: string): WorkerAgent[] {
  if (EVERYONE.test(text)) return [...WORKER_AGENTS];
  const named = WORKER_AGENTS.filter((a) => ROLE_MENTION[a].test(text));
  return named.length ? named : [...WORKER_AGENTS];
}

/** The watch-outs `agent` receives, in CM's order. */
export function watchOutsFor(agent: WorkerAgent, watchOuts: readonly string[]): string[] {
  return watchOuts.filter((w) => watchOutRoles(w).includes(agent));
}
