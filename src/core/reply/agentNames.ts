// Agent names as models write them ("Cape Master", "DEVA", "Developer Agent", デベロッパー…) mapped to the AgentId, and
// the role names the paper gives each agent, and how a text mentions a worker role (ROLE_MENTION). One truth for the
// envelope schemas and everything that reads a name.
import type { AgentId, WorkerAgent } from '../model/types';

/** Aliases after lower-casing and removing spaces, `_`, `-`, `.` and `・`. */
const AGENT_ALIASES: Record<AgentId, string[]> = {
  CM: ['cm', 'capemaster', 'capemasteragent', 'cmagent', 'facilitator', 'ケープマスター'],
  POA: ['poa', 'po', 'productowner', 'productowneragent', 'poagent', 'プロダクトオーナー', 'プロダクトオーナーエージェント'],
  DA: ['da', 'designer', 'designeragent', 'designagent', 'daagent', 'デザイナー', 'デザイナーエージェント'],
  DevA: [
    'deva',
    'dev',
    'developer',
    'developeragent',
    'devagent',
    'developmentagent',
    'デベロッパー',
    '開発者',
    '開発エージェント',
    'デベロッパーエージェント',
  ],
};

const ALIAS_TO_AGENT = new Map<string, AgentId>();
for (const [agent, aliases] of Object.entries(AGENT_ALIASES) as [AgentId, string[]][]) {
  for (const a of aliases) ALIAS_TO_AGENT.set(a, agent);
}

/** Maps a free-form agent name ("Cape Master", "DEVA", "Developer Agent") to an AgentId, or null. */
export function normaliseAgentName(name: unknown): AgentId | null {
  if (typeof name !== 'string') return null;
  const key = name.normalize('NFKC').toLowerCase().replace(/[\s_\-.・()（）]+/g, '');
  return ALIAS_TO_AGENT.get(key) ?? null;
}

/** The role names the paper gives each agent (used when a reply omits or garbles `role`). */
export const DEFAULT_ROLE: Readonly<Record<AgentId, string>> = {
  CM: 'Cape Master',
  POA: 'Product Owner Agent',
  DA: 'Designer Agent',
  DevA: 'Developer Agent',
};

/**
 * How a text names a worker role — a Definition of Ready / Done heading ("## DA (Designer agent)", "## デザイナー"), a
 * Cape Master watch-out ("Scope creep (POA, DevA): …", "（開発者）") —: its abbreviation as the prompts write it (case as
 * written: "da" is a word in other languages), or its role name in English (any usual case) or Japanese.
 */
export const ROLE_MENTION: Readonly<Record<WorkerAgent, RegExp>> = {
  POA: /\bPOA\b|\bproduct\s+owner\b|プロダクト・?オーナー/i,
  DA: /\bDA\b|\b(?:[Dd]esign(?:er|\s+[Aa]gent)|DESIGNER|DESIGN\s+AGENT)\b|デザイナー|デザインエージェント/,
  DevA: /\b(?:DevA|DEVA)\b|\b(?:[Dd]evelop(?:er|ment\s+[Aa]gent)|DEVELOPER|DEVELOPMENT\s+AGENT)\b|デベロッパー|開発者|開発エージェント/,
};
