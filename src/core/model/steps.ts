// Steps, agents and their names for people; the CAPE folder's name rules (its normal form and its refusal); the one
// plain-object check. Part of the shared vocabulary of core (model/index.ts).

/** The five steps of a session, strictly in this order. */
export const STEP_IDS = ['cm_open', 'poa', 'da', 'deva', 'cm_retro'] as const;
export type StepId = (typeof STEP_IDS)[number];

/** The agents. CM runs twice (opening and retrospective). */
export type AgentId = 'CM' | 'POA' | 'DA' | 'DevA';
export const WORKER_AGENTS = ['POA', 'DA', 'DevA'] as const;
export type WorkerAgent = (typeof WORKER_AGENTS)[number];

export const STEP_AGENT: Record<StepId, AgentId> = {
  cm_open: 'CM',
  poa: 'POA',
  da: 'DA',
  deva: 'DevA',
  cm_retro: 'CM',
};

/** The workspace-relative folder of the team's context and session records when none is configured. */
export const DEFAULT_CAPE_FOLDER = 'cape';

/** The folder of the CAPE folder that holds the session records (store/layout.ts names what is inside); never assets. */
export const SESSIONS_FOLDER = '5_sessions';

/**
 * Why a configured CAPE folder cannot be used, or null: it must be a single folder name inside the workspace (not a
 * path, not Git's own folder). The one rule of the sessions, the tree, the CLI and init alike.
 */
export function capeFolderRefusal(capeFolder: string): string | null {
  const invalid = `Invalid CAPE folder name ${JSON.stringify(capeFolder)}`;
  if (!capeFolder || /[\\/]|^\.\.?$/.test(capeFolder)) return `${invalid}: use a single folder name such as "cape".`;
  return /^\.git$/i.test(capeFolder) ? `${invalid}: .git is Git's own folder; use a single folder name such as "cape".` : null;
}

/**
 * The CAPE folder option in its normal form, the name every reader compares workspace paths with: `\` as `/`, without
 * a leading `./` or `/`s and without trailing `/`s (cut by index: /\/+$/ is tried from each `/` of a run), and
 * DEFAULT_CAPE_FOLDER when nothing is left. Not checked: capeFolderRefusal tells whether the name can be used.
 */
export function capeFolderKey(capeFolder: string): string {
  const s = capeFolder.replace(/\\/g, '/');
  let start = s.startsWith('./') ? 2 : 0;
  while (start < s.length && s[start] === '/') start++;
  let end = s.length;
  while (end > start && s[end - 1] === '/') end--;
  return s.slice(start, end) || DEFAULT_CAPE_FOLDER;
}

/** The agents' names for people. */
export const AGENT_NAME: Record<AgentId, string> = {
  CM: 'Cape Master',
  POA: 'Product Owner',
  DA: 'Designer',
  DevA: 'Developer',
};

/** The steps' short names for people (the panel's step list, table rows). */
export const STEP_LABEL: Record<StepId, string> = {
  cm_open: 'Opening',
  poa: 'Product',
  da: 'Design',
  deva: 'Development',
  cm_retro: 'Retrospective',
};

/** Who speaks in a step, for people: "Product Owner", "Cape Master — opening", "Cape Master — retrospective". */
export function stepTitle(step: StepId): string {
  const name = AGENT_NAME[STEP_AGENT[step]];
  return step === 'cm_open' ? `${name} — opening` : step === 'cm_retro' ? `${name} — retrospective` : name;
}

/** A plain object (a JSON object): not null, not an array. The one such check of core and the webview. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
