// Keep / Problem / Try items as the retrospective writes them and the KPT file keeps them. Part of the shared
// vocabulary of core (model/index.ts).

export type KptKind = 'keep' | 'problem' | 'try';

/**
 * Where an item stands: Tries `open | adopted | dropped`, Problems `open | resolved`; Keeps stay `open` (they have no
 * lifecycle and are never archived). Stored in kpt_merged.md as a trailing `<!-- cape-kpt: … -->` (see core/kpt).
 */
export type KptStatus = 'open' | 'adopted' | 'dropped' | 'resolved';

export interface KptItem {
  kind: KptKind;
  taskId: string | null;
  text: string;
  /** Absent = open. */
  status?: KptStatus;
  /** The session that set the status (e.g. the one whose opening adopted a Try), when a session did. */
  statusBy?: string;
}

export interface KptLists {
  keep: string[];
  problem: string[];
  try: string[];
}
