// The dated retrospective files of retrospective/ (`YYYY-MM-DD_HH-MM_<task>.md`): written atomically from the
// session's envelopes (the markdown itself: retrospectiveMarkdown.ts) and listed newest first from their frontmatter,
// or from their names for the original CLI's files, which have none.
import { promises as fsp } from 'fs';
import * as path from 'path';
import type { Envelope, OpenQuestion, ProposedFile, SessionMetrics, StepId } from '../model/types';
import { ensureDir, isAtomicTempName, writeFileAtomic } from '../files/fsAtomic';
import { readHead } from '../metrics/history';
import { readFrontmatter } from '../cape/frontmatter';
import { StoreError, isEnvelope, parseRetrospectiveName, type RetrospectiveInfo } from './records';
import { renderRetrospective } from './retrospectiveMarkdown';
import type { SessionLayout } from './layout';

/** What the retrospective shows besides the cm_retro envelope (see SessionStore.saveRetrospective). */
export interface RetrospectiveExtras {
  opening?: Envelope | null;
  devaSummary?: string | null;
  repeatOf?: string;
  /** The roles' open questions and the answers later roles gave (session/openQuestions.ts). */
  questions?: readonly OpenQuestion[];
}

export class Retrospectives {
  constructor(private readonly layout: SessionLayout) {}

  /**
   * Writes the retrospective of `taskId` for the local time `now` and returns its absolute path; the same task in
   * the same minute replaces the file. `envelope` is the cm_retro envelope, or the map of all envelopes (then
   * cm_retro, and cm_open unless `opts.opening` is given, are taken from it).
   */
  async save(
    taskId: string,
    objective: string,
    envelope: Envelope | Partial<Record<StepId, Envelope>>,
    metrics: SessionMetrics,
    files: ProposedFile[],
    now: Date,
    opts: RetrospectiveExtras,
  ): Promise<string> {
    const file = this.layout.retrospectivePath(taskId, now);
    let retro: Envelope;
    let opening = opts.opening;
    if (isEnvelope(envelope)) retro = envelope;
    else {
      const map = envelope as Partial<Record<StepId, Envelope>>;
      if (!map.cm_retro) throw new StoreError(`Cannot write the retrospective of ${taskId}: the cm_retro envelope is missing.`);
      retro = map.cm_retro;
      opening = opening ?? map.cm_open ?? null;
    }
    const md = renderRetrospective(taskId, objective, retro, metrics, files, now, { ...opts, opening });
    await ensureDir(this.layout.retrospectiveDir);
    await writeFileAtomic(file, md);
    return file;
  }

  /**
   * Retrospective files, newest first. Ours carry frontmatter; files of the original CLI have none, so their
   * date and task come from the file name (objective and ASS average are then null). kpt_merged.md and files
   * matching neither are ignored.
   */
  async list(): Promise<RetrospectiveInfo[]> {
    const dir = this.layout.retrospectiveDir;
    const kptName = path.basename(this.layout.kptPath);
    let names: string[];
    try {
      names = await fsp.readdir(dir);
    } catch {
      return [];
    }
    const out: RetrospectiveInfo[] = [];
    for (const name of names) {
      if (!name.endsWith('.md') || name === kptName || isAtomicTempName(name)) continue;
      const file = path.join(dir, name);
      const named = parseRetrospectiveName(name);
      let fm: Record<string, unknown> | null = null;
      try {
        fm = readFrontmatter(await readHead(file));
      } catch {
        continue;
      }
      const fmDate = typeof fm?.date === 'string' ? new Date(fm.date) : null;
      const date = fmDate && !isNaN(fmDate.getTime()) ? fmDate : (named?.date ?? null);
      const taskId = typeof fm?.task_id === 'string' && fm.task_id ? fm.task_id : (named?.taskId ?? null);
      if (!date || !taskId) continue;
      out.push({
        path: file,
        taskId,
        date,
        objective: typeof fm?.objective === 'string' ? fm.objective : null,
        assAverage: typeof fm?.ass_average === 'number' && Number.isFinite(fm.ass_average) ? fm.ass_average : null,
        ...(typeof fm?.open_questions === 'number' && Number.isInteger(fm.open_questions) && fm.open_questions >= 0 ? { openQuestions: fm.open_questions } : {}),
      });
    }
    return out.sort((a, b) => b.date.getTime() - a.date.getTime() || (a.path < b.path ? 1 : -1));
  }
}
