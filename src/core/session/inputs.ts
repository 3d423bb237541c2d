// What every step's context draws from besides the session record, loaded once per run: the cape/ files (the
// extension's templates standing in for missing framework files) with the loader's warnings (capeWarnings) and the
// files no role receives (unsentFilesWarning), the KPT file and its items, and DA's and DevA's workspace section
// (WorkspaceSection: the caller's index or one opened on first use). ./step.ts turns them, with the record, into a
// step's ContextInputs (./context.ts).
import * as path from 'path';
import { loadCape, type CapeFile, type CapeIssue } from '../cape/assets';
import { GENERIC_CAPE_FILES } from '../cape/capeLayout';
import { domainFolderReaders } from './matrix';
import { templateBodies, type PromptAssets } from '../cape/prompts';
import { parseKpt, readKptText } from '../kpt';
import type { KptItem } from '../model/types';
import type { SessionStore } from '../store';
import { packWorkspace, WorkspaceIndex, type ContextStep, type RankQuery } from '../workspace';
import { isRepeatOf } from './repeatOf';

/**
 * The loader's issues worth telling the user: files skipped or cut (malformed or refused frontmatter, unreadable,
 * truncated) and missing project input files. Missing framework files are not mentioned: the extension's own templates
 * stand in for them (a cape/ made by the original CLI has none).
 */
export function capeWarnings(issues: CapeIssue[], capeFolder: string, templates: Set<string>): string[] {
  const out: string[] = [];
  for (const i of issues) {
    if (i.kind === 'missing' && (templates.has(i.path) || i.path === '.')) continue;
    const where = i.path === '.' ? capeFolder : `${capeFolder}/${i.path}${i.line ? `:${i.line}` : ''}`;
    if (i.kind === 'missing') {
      out.push(`${where} is missing: the team works without it. Fill it with \`cape init --missing-only\` or "CAPE: Initialize Project" → Fill only missing files.`);
    } else if (i.kind === 'truncated') {
      out.push(`${where}: ${i.message}`);
    } else if (i.kind === 'too-deep' || i.kind === 'too-much') {
      out.push(`${where}/ ${i.message}`);
    } else {
      out.push(`${where} was skipped: ${i.message}`);
    }
  }
  return out;
}

/**
 * One warning naming the loaded files no role receives (null when there are none): a file the project added to
 * 0_team/, 4_orchestration/ or a folder of its own is loaded but never sent, since each role receives only its own
 * domain folder (matrix.ts) and the team parts are the DoR, DoD and process files. The framework's files (type:
 * generic) and notes at the top of cape/ are not named.
 */
export function unsentFilesWarning(files: Iterable<CapeFile>, capeFolder: string): string | null {
  const readers = domainFolderReaders();
  const framework = new Set<string>(GENERIC_CAPE_FILES);
  const unsent: string[] = [];
  for (const f of files) {
    const folder = f.relPath.split('/')[0];
    if (folder === f.relPath || readers.has(folder) || framework.has(f.relPath) || f.type === 'generic') continue;
    unsent.push(`${capeFolder}/${f.relPath}`);
  }
  if (!unsent.length) return null;
  const who = [...readers].map(([folder, roles]) => `${roles.join(', ')}: ${capeFolder}/${folder}/`).join('; ');
  return (
    `${unsent.join(', ')} ${unsent.length > 1 ? 'are' : 'is'} sent to no role: each role receives only its own folder (${who}). ` +
    'Move a file there for the role that needs it.'
  );
}

export interface SharedInputs {
  /** The cape/ files' bodies by relative path. */
  assets: Map<string, string>;
  /** kpt_merged.md as read ('' when absent or refused). */
  kptFull: string;
  /** Its items, without those of the session `repeatOf` reruns and of its reruns. */
  kptItems: KptItem[];
}

/** Loads the cape/ files and the KPT file, each problem reported through `warn` (none stops the session). */
export async function loadSharedInputs(o: {
  workspace: string;
  capeFolder: string;
  store: SessionStore;
  prompts: PromptAssets;
  repeatOf?: string;
  warn: (message: string) => void;
}): Promise<SharedInputs> {
  const cape = await loadCape(path.join(o.workspace, o.capeFolder));
  for (const warning of capeWarnings(cape.issues, o.capeFolder, new Set(templateBodies(o.prompts).keys()))) o.warn(warning);
  const unsent = unsentFilesWarning(cape.files.values(), o.capeFolder);
  if (unsent) o.warn(unsent);
  const assets = new Map<string, string>();
  for (const f of cape.files.values()) assets.set(f.relPath, f.body);
  // A cape/ made by the original CLI has only the project's input files: the framework's generic files come from
  // the extension's own templates.
  for (const [rel, body] of templateBodies(o.prompts)) if (!assets.has(rel)) assets.set(rel, body);

  const kptRead = await readKptText(o.store.kptPath, o.workspace);
  if (kptRead.warning) o.warn(kptRead.warning);
  const kptFull = kptRead.text;
  const repeatOf = o.repeatOf;
  const kptItems = parseKpt(kptFull).filter((i) => !repeatOf || !isRepeatOf(i.taskId, repeatOf));
  return { assets, kptFull, kptItems };
}

/**
 * The workspace index for DA's and DevA's sections: the caller's (kept current by a watcher) or one opened once,
 * brought up to date from mtimes. A workspace that cannot be indexed costs the section, not the session.
 */
export class WorkspaceSection {
  /** Files DevA's prompt carried whole: a <file> rewriting one of them was not written blind. */
  readonly devaReceivedWhole = new Set<string>();
  private index: WorkspaceIndex | null;
  private failed = false;

  constructor(
    private readonly o: {
      workspace: string;
      capeFolder: string;
      index?: WorkspaceIndex;
      /** Characters of DevA's section (default DEFAULT_WORKSPACE_BUDGET.deva). */
      devaBudget?: number;
      onWarning?: (message: string) => void;
    },
  ) {
    this.index = o.index ?? null;
  }

  /** The section's renderer for the step's context, or undefined when the workspace cannot be indexed. */
  async renderer(): Promise<((s: ContextStep, q: RankQuery) => string) | undefined> {
    if (!this.index && !this.failed) {
      try {
        this.index = (await WorkspaceIndex.open(this.o.workspace, { capeFolder: this.o.capeFolder })).index;
      } catch (err) {
        this.failed = true;
        this.o.onWarning?.(`The workspace could not be indexed (${(err as Error).message}); DA and DevA get no workspace files.`);
      }
    }
    const index = this.index;
    if (!index) return undefined;
    return (s, q) => {
      const packed = packWorkspace(index, q, {
        step: s,
        budget: s === 'deva' ? this.o.devaBudget : undefined,
      });
      if (s === 'deva') for (const f of packed.files) if (f.whole) this.devaReceivedWhole.add(f.path);
      return packed.text;
    };
  }
}
