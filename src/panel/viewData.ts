// What the chat panel is sent: the view-shaped form of the runner's data, made in ONE place. The webview gets
// neither absolute paths nor file contents it does not show:
//  - a ProposedFile becomes a FileView (key = relPath, else the raw path; action; status; reason) — `fileView`,
//    also used by the host's ProposalSet for its authoritative `files` list;
//  - a SessionEvent becomes a PanelEvent: `file-proposed` / `session-finished` carry FileViews, `output-delta`
//    only its length (the panel shows progress; the parsed envelope follows), the artifact and retrospective
//    paths are workspace-relative, and an error's raw reply text stays in the host.
// Host-side only (Node `path`); the webview bundle imports the types from ./protocol.
import * as path from 'path';
import type { ProposedFile, SessionEvent } from '../core';
import type { FileView, FileViewStatus, PanelEvent } from './protocol';
import { isInside } from '../core';

/**
 * The panel row of a proposed file. Without `state` the status follows the file (refused, applied, else
 * proposed); with it, the host's decision (accepted, rejected, …) and its reason are shown instead.
 */
export function fileView(
  f: Pick<ProposedFile, 'path' | 'relPath' | 'action' | 'status' | 'reason' | 'warning'>,
  state?: { status: FileViewStatus; reason?: string },
): FileView {
  const status: FileViewStatus = state ? state.status : f.status === 'refused' ? 'refused' : f.status === 'applied' ? 'applied' : 'proposed';
  const reason = state ? state.reason : f.reason;
  const view: FileView = { path: f.relPath || f.path, action: f.action, status };
  if (reason) view.reason = reason;
  if (f.warning && status !== 'refused') view.warning = f.warning;
  return view;
}

/** A path inside the workspace as the panel shows (and may open) it: relative, forward slashes. */
export function workspaceRelative(p: string, workspaceRoot: string | undefined): string {
  if (!p || !path.isAbsolute(p)) return p.split(path.sep).join('/');
  if (!workspaceRoot) return path.basename(p);
  // Never expected (the store writes inside the workspace), but an outside path is not sent in full either.
  if (!isInside(workspaceRoot, p, { strict: true })) return path.basename(p);
  return path.relative(workspaceRoot, p).split(path.sep).join('/');
}

/** The view-shaped form of one runner event (see the header). */
export function toPanelEvent(e: SessionEvent, workspaceRoot: string | undefined): PanelEvent {
  switch (e.type) {
    case 'output-delta':
      return { type: 'output-delta', step: e.step, chars: e.text.length };
    case 'file-proposed':
      return { type: 'file-proposed', step: e.step, file: fileView(e.file) };
    case 'session-finished':
      return {
        type: 'session-finished',
        taskId: e.taskId,
        retrospectivePath: workspaceRelative(e.retrospectivePath, workspaceRoot),
        kpt: e.kpt,
        metrics: e.metrics,
        files: e.files.map((f) => fileView(f)),
        openQuestions: e.openQuestions,
      };
    case 'step-finished':
      return { ...e, artifactPath: workspaceRelative(e.artifactPath, workspaceRoot) };
    case 'error':
      return { type: 'error', step: e.step, kind: e.kind, message: e.message };
    default:
      return e;
  }
}
